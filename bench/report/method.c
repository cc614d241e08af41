#include "bench/report/method.h"

#include "bench/report/lead_figures.h"
#include "bench/report/other_processors.h"
#include "bench/report/stats_cells.h"

/* The fences every timestamp uses (Intel 324264; docs/timing.md), on
 * every CPU: a region opens with lfence;rdtsc and closes with
 * lfence;rdtsc;lfence. */
static const char report_fence_method[] =
	"open: lfence; rdtsc   close: lfence; rdtsc; lfence";

/* (check - primary) / primary TSC frequency, in parts per million. */
static int64_t tsc_disagreement_ppm(const struct run_result *r)
{
	return ppm_difference(r->tsc_hz_check, r->tsc_hz);
}

static void json_clock(struct json_writer *w, const struct run_result *r)
{
	json_key(w, "clock");
	json_begin_object(w);
	json_kv_string(w, "kind", clock_kind_name(r->clock_kind));
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	/* TSC ticks are not core cycles once the core clock moves against
	 * the TSC (docs/timing.md "TSC ticks are not cycles"): the figures
	 * under this unit never are. Core cycles are each row's "cycles",
	 * from the counted pass; lead_unit is what the answer, the headline
	 * and the seed verdicts use. Nanoseconds follow from TSC ticks. */
	json_key(w, "figures_are_cycles");
	json_bool(w, 0);
	json_kv_string(w, "lead_unit", lead_unit(r));
	json_key(w, "cycles");
	json_begin_object(w);
	json_kv_string(w, "state", counted_state_name(results_counted_state(r)));
	json_kv_string(w, "unit", counted_cycles_unit(r));
	json_kv_string(w, "counters", r->probe[PROBE_COUNTERS].detail);
	/* What the firmware had left in them (docs/timing.md "Counters the
	 * firmware owns"), and the rows whose counted figures were dropped
	 * because it took them back during their pass. */
	json_kv_string(w, "found", r->probe[PROBE_COUNTERS_FOUND].detail);
	json_kv_uint(w, "disturbed_rows", r->counted_disturbed);
	json_end_object(w);
	json_key(w, "figures_are_tsc_ticks");
	json_bool(w, r->clock_kind == CLOCK_TSC_TICKS);
	json_kv_uint(w, "tsc_hz", r->tsc_hz);
	json_kv_string(w, "tsc_hz_method", tsc_method_name(r->tsc_method));
	json_kv_uint_or_null(w, "tsc_hz_check", r->tsc_hz_check);
	json_kv_string(w, "tsc_hz_check_method",
		       r->tsc_hz_check ? tsc_method_name(r->tsc_check_method) : "none");
	json_key(w, "tsc_hz_disagreement_ppm");
	if (r->tsc_hz_check)
		json_int(w, tsc_disagreement_ppm(r));
	else
		json_null(w);
	other_cpu_clocks_json(w, r);
	json_end_object(w);
}

static void json_method(struct json_writer *w, const struct run_result *r)
{
	json_key(w, "method");
	json_begin_object(w);
	json_kv_string(w, "fences", report_fence_method);
	json_kv_string(w, "fence_serialisation", r->fence_note);
	json_kv_string(w, "figures",
		       "net of the instrument floor: floor.min is subtracted");
	json_key(w, "smi_count_watched");
	json_bool(w, r->smi_count_watched);
	json_kv_string(w, "noise", "samples are taken in batches; a batch "
				    "during which the SMI or NMI count moved is "
				    "discarded, counted, and taken again");
	json_key(w, "floor");
	json_raw_stats(w, &r->floor);
	json_kv_string(w, "round_trip",
		       "through handlers that take no timestamps; "
		       "round_trip_timed goes through the timed ones, and "
		       "exceeds it by instrument_in_handler");
	json_key(w, "instrument_in_handler");
	json_figures(w, &r->instrument, r->floor.min);
	/* The counted pass's floors, raw: its figures are net of their
	 * minimum as the TSC's are of floor's (docs/timing.md "Core
	 * cycles"); null where it did not run. */
	json_key(w, "cycles_floor");
	if (r->cycles_floor.count) {
		json_raw_stats(w, &r->cycles_floor);
		json_key(w, "cycles_instrument_in_handler");
		json_figures(w, &r->cycles_instrument, r->cycles_floor.min);
		json_key(w, "instructions_floor");
		json_raw_stats(w, &r->instructions_floor);
	} else {
		json_null(w);
		json_key(w, "cycles_instrument_in_handler");
		json_null(w);
		json_key(w, "instructions_floor");
		json_null(w);
	}
	json_end_object(w);
}

static void json_config(struct json_writer *w, const struct run_result *r)
{
	uint32_t i;

	json_key(w, "config");
	json_begin_object(w);
	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];
		char number[CONFIG_VALUE_MAX];

		if (k->choices)
			json_kv_string(w, k->name,
				       config_value_name(k, config_get(&r->config, k),
							 number, sizeof(number)));
		else
			json_kv_uint(w, k->name, config_get(&r->config, k));
	}
	json_end_object(w);
	json_key(w, "config_warnings");
	if (r->config_warnings[0])
		json_string(w, r->config_warnings);
	else
		json_null(w);
}

void method_json(struct json_writer *w, const struct run_result *r)
{
	json_clock(w, r);
	json_method(w, r);
	json_config(w, r);
}

/* What moves the core clock against the TSC, and what that makes of TSC
 * ticks (docs/timing.md "TSC ticks are not cycles"). */
static void summary_core_clock(struct text_buf *tb, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char type[16];

	tb_printf(tb, "core clock invariant TSC %s, turbo/boost %s, HWP %s, "
		  "core type %s, microcode ", m->invariant_tsc ? "yes" : "no",
		  boost_state_name(m->boost), hwp_state_name(m->hwp),
		  core_type_name(m->core_type, type, sizeof(type)));
	if (m->microcode)
		tb_printf(tb, "0x%x\n", m->microcode);
	else
		tb_printf(tb, "unknown\n");
	if (r->clock_kind == CLOCK_TSC_TICKS)
		tb_printf(tb, "           TSC ticks are not core cycles: the core "
			  "clock moves against the TSC with turbo and power "
			  "states\n");
	other_cpu_clocks_summary(tb, r);
}

void method_summary(struct text_buf *tb, const struct run_result *r)
{
	uint64_t floor = r->floor.min;

	tb_printf(tb, "clock      %s: figures are %s\n",
		  clock_kind_name(r->clock_kind), clock_kind_unit(r->clock_kind));
	tb_printf(tb, "TSC        %llu Hz (%s)", (unsigned long long)r->tsc_hz,
		  tsc_method_name(r->tsc_method));
	if (r->tsc_hz_check && r->tsc_check_method != r->tsc_method)
		tb_printf(tb, "; %s says %llu Hz (%+lld ppm)",
			  tsc_method_name(r->tsc_check_method),
			  (unsigned long long)r->tsc_hz_check,
			  (long long)tsc_disagreement_ppm(r));
	tb_printf(tb, "\n");
	summary_core_clock(tb, r);
	tb_printf(tb, "fences     %s\n", report_fence_method);
	if (r->fence_note[0])
		tb_printf(tb, "           %s\n", r->fence_note);
	tb_printf(tb, "noise      batches with an NMI%s are discarded and taken "
		  "again\n", r->smi_count_watched ? " or an SMI (MSR_SMI_COUNT)"
						   : " (SMIs not visible here)");
	tb_printf(tb, "floor      %llu (min of %u back-to-back fenced reads; "
		  "median %llu), subtracted from every figure below\n",
		  (unsigned long long)floor, r->floor.count,
		  (unsigned long long)r->floor.median);
	tb_printf(tb, "instrument %lld inside a handler (its two timestamps, "
		  "median, net of the floor): round_trip goes through handlers "
		  "without them, round_trip_timed through those with them\n",
		  (long long)net_of_floor(r->instrument.median, floor));
	tb_printf(tb, "samples    %u per experiment after %u warm-up (cold: %u, "
		  "thrash: %u); %u blocks per primitive\n", r->config.samples,
		  r->config.warmup, r->config.cold_samples,
		  r->config.thrash_samples, r->config.primitive_blocks);
	tb_puts(tb, "config     ");
	config_describe(&r->config, tb);
	tb_puts(tb, "\n");
	if (r->config_warnings[0])
		tb_printf(tb, "           warnings: %s\n", r->config_warnings);
	tb_puts(tb, "\n");
}
