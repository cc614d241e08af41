#include "bench/report/counted.h"

#include "bench/report/baselines.h"
#include "bench/report/lead_figures.h"
#include "bench/report/stats_cells.h"

/* A row's counted pass (docs/timing.md "Core cycles"): "cycles", its
 * entry, exit and both round trips in core cycles net of the cycle
 * floor, and "instructions", the bare round trip in instructions retired
 * net of that counter's floor; each null where the pass did not run. */
void counted_json(struct json_writer *w, const struct run_result *r,
		  const struct counted_row *c)
{
	unsigned k;

	json_key(w, "cycles");
	if (c) {
		json_begin_object(w);
		json_kv_string(w, "state",
			       counted_state_name(results_counted_state(r)));
		json_kv_string(w, "unit", counted_cycles_unit(r));
		for (k = 0; k < METRIC_COUNT; k++) {
			json_key(w, metric_name(k));
			json_figures(w, &c->cycles[k], r->cycles_floor.min);
		}
		json_key(w, "histograms");
		json_begin_object(w);
		for (k = 0; k < ROW_HIST_METRICS; k++) {
			json_key(w, metric_name(k));
			json_row_histogram(w, results_row_histogram(
						      r, c->row, ROW_HIST_CYCLES + k),
					   r->cycles_floor.min);
		}
		json_end_object(w);
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_key(w, "instructions");
	if (c) {
		json_begin_object(w);
		json_kv_string(w, "state",
			       counted_state_name(results_counted_state(r)));
		json_key(w, "round_trip");
		json_figures(w, &c->instructions, r->instructions_floor.min);
		json_end_object(w);
	} else {
		json_null(w);
	}
}

/* The counted pass (docs/timing.md "Core cycles"), one line per long-mode
 * row that has it: core cycles net of the cycle floor, their overhead
 * over the baseline, and the bare round trip in instructions retired.
 * An emulator's are said to be so: its cycle counter counts instruction
 * steps (docs/emulators.md "The counting PMU"). */
void counted_summary(struct text_buf *tb, const struct run_result *r)
{
	enum counted_state state = results_counted_state(r);
	uint32_t i;
	unsigned k;

	if (state == COUNTED_NOT_RUN) {
		tb_printf(tb, "\nCore cycles: not measured: %s\n",
			  r->probe[PROBE_COUNTERS].detail);
		return;
	}
	tb_printf(tb, "\nCore cycles%s, from the performance counters in a "
		  "pass of their own: medians net of the cycle floor (%llu), "
		  "the overhead over the baseline, and instructions retired "
		  "per round trip net of that floor (%llu)\n",
		  r->clock_kind != CLOCK_TSC_TICKS ? " (the emulator's "
		  "counters: a cycle is an instruction step, not a cycle)"
						   : "",
		  (unsigned long long)r->cycles_floor.min,
		  (unsigned long long)r->instructions_floor.min);
	tb_printf(tb, "The counters as the firmware left them: %s\n",
		  r->probe[PROBE_COUNTERS_FOUND].detail);
	if (r->counted_disturbed)
		tb_printf(tb, "Dropped: the counted figures of %u row(s), "
			  "whose pass found the counters' enables changed "
			  "(firmware or SMM took them)\n",
			  (unsigned)r->counted_disturbed);
	tb_printf(tb, "%-39s %7s %7s %7s  %7s %7s %7s %7s\n", "experiment",
		  "entry", "exit", "round", "+entry", "+exit", "+round",
		  "instr");
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);
		const struct counted_row *c = results_counted(r, i);
		static const unsigned shown[] = { METRIC_ENTRY, METRIC_EXIT,
						  METRIC_ROUND_TRIP };
		char cell[24];

		if (!c || e->status != EXP_OK)
			continue;
		tb_printf(tb, "%-39s", e->name);
		for (k = 0; k < 3; k++) {
			summary_figure(cell, sizeof(cell),
				       counted_median(r, e, shown[k]), 0);
			tb_printf(tb, " %7s", cell);
		}
		tb_putc(tb, ' ');
		for (k = 0; k < 3; k++) {
			summary_figure(cell, sizeof(cell),
				       base ? counted_median_over(r, e, base,
								  shown[k])
					    : INT64_MIN, 1);
			tb_printf(tb, " %7s", base ? cell : "");
		}
		tb_printf(tb, " %7lld\n", (long long)net_of_floor(
				  c->instructions.median,
				  r->instructions_floor.min));
	}
}
