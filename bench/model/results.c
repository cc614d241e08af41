#include "bench/model/results.h"

#include <stdarg.h>

#include "arch/lib/fmt.h"

void record_probe(struct run_result *r, enum probe_id id,
		  enum probe_state state, const char *format, ...)
{
	va_list ap;

	if (id >= PROBE_COUNT)
		return;
	r->probe[id].state = (uint8_t)state;
	va_start(ap, format);
	fmt_vsnprintf(r->probe[id].detail, sizeof(r->probe[id].detail),
		      format, ap);
	va_end(ap);
}

uint64_t run_id_from_time(unsigned year, unsigned month, unsigned day,
			  unsigned hour, unsigned minute, unsigned second)
{
	return (((((uint64_t)year * 100 + month) * 100 + day) * 100 + hour) *
			100 + minute) * 100 + second;
}

void run_folder_name(uint64_t id, char *out, size_t cap)
{
	fmt_snprintf(out, cap, "%08llu-%06llu",
		     (unsigned long long)(id / 1000000),
		     (unsigned long long)(id % 1000000));
}

static const struct other_cpu *other_cpu_of(const struct run_result *r,
					    const struct experiment_result *e)
{
	uint32_t i;

	for (i = 0; e->id.cpu && i < r->n_other_cpus; i++)
		if (r->other_cpu[i].cpu == e->id.cpu)
			return &r->other_cpu[i];
	return 0;
}

uint64_t row_floor(const struct run_result *r,
		   const struct experiment_result *e)
{
	const struct other_cpu *o = other_cpu_of(r, e);

	return o ? o->floor.min : r->floor.min;
}

int row_entry_above_round_trip(const struct experiment_result *e)
{
	return e->status == EXP_OK && e->metric[METRIC_ENTRY].median >
					      e->metric[METRIC_ROUND_TRIP].median;
}

uint8_t row_core_type(const struct run_result *r,
		      const struct experiment_result *e)
{
	const struct other_cpu *o = other_cpu_of(r, e);

	return e->id.cpu ? (o ? o->core_type : 0) : r->machine.core_type;
}

const struct experiment_result *results_find(const struct run_result *r,
					    const struct row_id *row)
{
	uint32_t i;

	for (i = 0; i < r->n_experiments; i++)
		if (row_id_eq(&r->exp[i].id, row))
			return &r->exp[i];
	return 0;
}

int results_has_baseline(const struct experiment_result *e)
{
	return !row_id_eq(&e->baseline, &e->id);
}

const struct row_histogram *results_row_histogram(const struct run_result *r,
						  uint32_t row, unsigned metric)
{
	uint32_t i;

	for (i = 0; i < r->n_hists && i < RESULTS_MAX_ROW_HISTS; i++)
		if (r->hist[i].row == row && r->hist[i].metric == metric)
			return &r->hist[i];
	return 0;
}

enum counted_state results_counted_state(const struct run_result *r)
{
	return r->cycles_floor.count ? COUNTED_MEASURED : COUNTED_NOT_RUN;
}

const struct counted_row *results_counted(const struct run_result *r,
					  uint32_t row)
{
	uint32_t i;

	for (i = 0; i < r->n_counted && i < RESULTS_MAX_EXPERIMENTS; i++)
		if (r->counted[i].row == row)
			return &r->counted[i];
	return 0;
}

/* A later part's cells of the matrix, where it took the same
 * processors in the same order and the same of them into the full
 * matrix (each part starts them in its own boot), and resumed where
 * the run so far stopped: appended, sender by sender as they came; else
 * counted as dropped, since their indices name other processors or
 * their turns other pairs. The section's time is the parts' sum. */
static void join_cells(struct run_result *into, const struct run_result *more)
{
	uint32_t i;
	int same = more->n_matrix_cpus == into->n_matrix_cpus &&
		   more->matrix_resume == into->matrix_next_sender;

	for (i = 0; same && i < more->n_matrix_cpus; i++)
		same = more->matrix_cpu[i].apic_id ==
			       into->matrix_cpu[i].apic_id &&
		       more->matrix_cpu[i].full == into->matrix_cpu[i].full;
	into->cells_dropped += more->cells_dropped;
	into->cross_ticks += more->cross_ticks;
	for (i = 0; i < more->n_cells; i++)
		if (same && into->n_cells < RESULTS_MAX_CELLS)
			into->cell[into->n_cells++] = more->cell[i];
		else
			into->cells_dropped++;
	into->matrix_next_sender = more->matrix_next_sender;
}

int results_join_part(struct run_result *into, const struct run_result *more)
{
	uint32_t i, rows = into->n_experiments;

	if (rows + more->n_experiments > RESULTS_MAX_EXPERIMENTS ||
	    into->n_gaps + more->n_gaps > RESULTS_MAX_GAPS ||
	    into->n_hists + more->n_hists > RESULTS_MAX_ROW_HISTS ||
	    into->n_counted + more->n_counted > RESULTS_MAX_EXPERIMENTS)
		return -1;
	for (i = 0; i < more->n_experiments; i++)
		into->exp[into->n_experiments++] = more->exp[i];
	for (i = 0; i < more->n_gaps; i++)
		into->gap[into->n_gaps++] = more->gap[i];
	for (i = 0; i < more->n_hists; i++) {
		struct row_histogram *h = &into->hist[into->n_hists++];

		*h = more->hist[i];
		h->row = (uint8_t)(h->row + rows);
	}
	into->counted_disturbed += more->counted_disturbed;
	for (i = 0; i < more->n_counted; i++) {
		struct counted_row *c = &into->counted[into->n_counted++];

		*c = more->counted[i];
		c->row = (uint8_t)(c->row + rows);
	}
	/* A processor's floor as the first part measured it, as the boot
	 * CPU's is. */
	for (i = 0; i < more->n_other_cpus; i++) {
		uint32_t k;

		for (k = 0; k < into->n_other_cpus &&
			    into->other_cpu[k].cpu != more->other_cpu[i].cpu;
		     k++)
			;
		if (k == into->n_other_cpus &&
		    into->n_other_cpus < RESULTS_MAX_OTHER_CPUS)
			into->other_cpu[into->n_other_cpus++] =
				more->other_cpu[i];
	}
	/* A processor's clock as the last part to start it found it; its
	 * starts, and whether every one was put back, over all parts. */
	for (i = 0; i < more->n_cpu_clocks; i++) {
		const struct cpu_clock *m = &more->cpu_clock[i];
		uint32_t k;

		for (k = 0; k < into->n_cpu_clocks &&
			    into->cpu_clock[k].cpu != m->cpu;
		     k++)
			;
		if (k < into->n_cpu_clocks) {
			struct cpu_clock *c = &into->cpu_clock[k];
			uint32_t starts = c->starts + m->starts;
			uint8_t restored = c->restored && m->restored;
			uint8_t turbo = c->turbo > m->turbo ? c->turbo
							    : m->turbo;

			*c = *m;
			c->starts = starts;
			c->restored = restored;
			c->turbo = turbo;
		} else if (into->n_cpu_clocks < RESULTS_MAX_CPU_CLOCKS) {
			into->cpu_clock[into->n_cpu_clocks++] = *m;
		}
	}
	if (more->matrix_resume)
		join_cells(into, more);
	/* Each part starts the other processors in its own boot. */
	into->cpu_start_rounds += more->cpu_start_rounds;
	if (more->cpu_starts_most > into->cpu_starts_most)
		into->cpu_starts_most = more->cpu_starts_most;
	into->part = more->part;
	into->next_row = more->next_row;
	if (!into->plan_rows)	/* every part plans the same rows */
		into->plan_rows = more->plan_rows;
	return 0;
}
