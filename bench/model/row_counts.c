#include "bench/model/row_counts.h"

#include "bench/model/catalog.h"
#include "bench/model/cross_cpu.h"

void status_counts_add(struct status_counts *s, unsigned status)
{
	if (status == EXP_OK)
		s->ok++;
	else if (status == EXP_SKIPPED)
		s->skipped++;
	else
		s->failed++;
}

uint32_t status_counts_total(const struct status_counts *s)
{
	return s->ok + s->skipped + s->failed;
}

uint32_t row_counts_primitive_steps(void)
{
	return catalog_primitive_count < RESULTS_MAX_PRIMITIVES
		       ? (uint32_t)catalog_primitive_count
		       : RESULTS_MAX_PRIMITIVES;
}

void row_counts_of(const struct run_result *r, struct row_counts *out)
{
	uint32_t i, end, taken_up, rows;

	*out = (struct row_counts){
		.plan_rows = r->plan_rows,
		.first_row = r->first_row,
		.unmeasured_from_row = r->next_row,
		.parts = r->part ? r->part : 1,
	};
	for (i = 0; i < r->n_experiments; i++) {
		status_counts_add(&out->experiments, r->exp[i].status);
		out->i386_rows += scheme_cpu_mode(r->exp[i].id.scheme) ==
				  CPU_MODE_PROTECTED_32;
	}
	for (i = 0; i < r->n_gaps; i++)
		status_counts_add(&out->gap_rows, r->gap[i].status);
	for (i = 0; i < r->n_primitives; i++)
		status_counts_add(&out->primitives, r->prim[i].status);
	/* Each pair of the matrix is two rows, its ipi-ack and its
	 * ipi-oneway; a pair kept in full in cross[] is one of them. */
	for (i = 0; i < r->n_cross; i++)
		if (!cross_row_is_kept_pair(&r->cross[i]))
			status_counts_add(&out->between_cpus,
					  r->cross[i].status);
	for (i = 0; i < r->n_cells; i++) {
		status_counts_add(&out->between_cpus, r->cell[i].ack_status);
		status_counts_add(&out->between_cpus,
				  r->cell[i].one_way_status);
	}
	if (!r->plan_rows)
		return;
	out->plan_steps = r->plan_rows + row_counts_primitive_steps();
	/* The rows from first_row up to where the run stopped, less those
	 * that left a row. */
	end = r->next_row ? r->next_row : r->plan_rows;
	taken_up = end > r->first_row ? end - r->first_row : 0;
	rows = status_counts_total(&out->experiments) +
	       status_counts_total(&out->gap_rows);
	out->left_out = taken_up > rows ? taken_up - rows : 0;
}
