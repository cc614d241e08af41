#include "bench/report/figures.h"

/* The fences every timestamp uses (Intel 324264; docs/timing.md), on
 * every CPU: a region opens with lfence;rdtsc and closes with
 * lfence;rdtsc;lfence. */
const char report_fence_method[] =
	"open: lfence; rdtsc   close: lfence; rdtsc; lfence";

int64_t net_mean_milli(uint64_t mean_milli, uint64_t floor)
{
	return (int64_t)(mean_milli - floor * 1000u);
}

void uefi_revision_text(uint32_t rev, char *out, size_t cap)
{
	/* EFI_SYSTEM_TABLE.Hdr.Revision: major in the high 16 bits, minor
	 * in the low 16 as tens and units (2.70 is 70, 2.31 is 31). */
	unsigned minor = rev & 0xffff;

	if (minor % 10)
		fmt_snprintf(out, cap, "%u.%u.%u", rev >> 16, minor / 10,
			     minor % 10);
	else
		fmt_snprintf(out, cap, "%u.%u", rev >> 16, minor / 10);
}

const struct experiment_result *comparable_baseline(
	const struct run_result *r, const struct experiment_result *e)
{
	const struct experiment_result *base;

	if (e->status != EXP_OK || !results_has_baseline(e))
		return 0;
	base = results_find(r, &e->baseline);
	return base && base->status == EXP_OK ? base : 0;
}

const struct experiment_result *gate_floor_of(
	const struct run_result *r, const struct experiment_result *e)
{
	struct row_id gate = e->id;
	const struct experiment_result *floor;

	if (e->status != EXP_OK || e->id.scheme == SCHEME_GATE ||
	    e->id.variant != VARIANT_ABSENT || e->id.cache != VARIANT_ABSENT ||
	    e->id.selftest != SELFTEST_ABSENT ||
	    scheme_cpu_mode(e->id.scheme) != CPU_MODE_LONG)
		return 0;
	gate.scheme = SCHEME_GATE;
	floor = results_find(r, &gate);
	return floor && floor->status == EXP_OK ? floor : 0;
}

const struct experiment_result *boot_twin(const struct run_result *r,
					  const struct experiment_result *e)
{
	struct row_id boot = e->id;
	const struct experiment_result *twin;

	boot.cpu = 0;
	if (!e->id.cpu || e->status != EXP_OK)
		return 0;
	twin = results_find(r, &boot);
	return twin && twin->status == EXP_OK ? twin : 0;
}

int64_t row_net_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k)
{
	return net_of_floor(e->metric[k].median, row_floor(r, e));
}

int64_t net_over_boot(const struct run_result *r,
		      const struct experiment_result *e,
		      const struct experiment_result *boot, unsigned k)
{
	return row_net_median(r, e, k) - row_net_median(r, boot, k);
}

void boot_row_name(const struct experiment_result *e, char *out, size_t cap)
{
	struct row_id id = e->id;

	id.cpu = 0;
	row_name(&id, out, cap);
}

const struct experiment_result *cold_twin(const struct run_result *r,
					  const struct experiment_result *e)
{
	struct row_id cold = e->id;

	cold.cache = VARIANT_COLD;
	return e->id.cache == VARIANT_ABSENT ? results_find(r, &cold) : 0;
}

int idt_against_fred(const struct run_result *r,
		     const struct experiment_result **idt,
		     const struct experiment_result **fred,
		     int64_t *fred_less_idt)
{
	const struct row_id idt_id = { .source = SOURCE_INT,
				       .scheme = SCHEME_DIRECT,
				       .variant = VARIANT_LINUX };
	const struct row_id fred_id = { .source = SOURCE_INT,
					.scheme = SCHEME_FRED_LINUX };

	*idt = results_find(r, &idt_id);
	*fred = results_find(r, &fred_id);
	if (!*idt || !*fred || (*idt)->status != EXP_OK ||
	    (*fred)->status != EXP_OK)
		return 0;
	*fred_less_idt = median_over(*fred, *idt, METRIC_ROUND_TRIP);
	return 1;
}

void report_linux_choices(const struct run_result *r,
			  struct linux_choices *out)
{
	linux_choose(r->machine.cpu_vendor, r->machine.family,
		     r->machine.model, &r->machine.mitigation, out);
}

uint32_t report_linux_steps(const struct run_result *r,
			    const struct linux_choices *choices,
			    const char *why_not[LINUX_STEPS])
{
	unsigned s;

	if (config_simulates(&r->config, SIMULATE_LINUX_EVERY_STEP))
		return linux_every_step(r->machine.cpu_vendor,
					&r->machine.mitigation, why_not);
	for (s = 0; s < LINUX_STEPS; s++)
		why_not[s] = 0;
	return choices->steps;
}

const char *linux_step_name(unsigned step)
{
	static const char *const names[LINUX_STEPS] = {
		[LINUX_STEP_LFENCE_SWAPGS] = "LFENCE after swapgs",
		[LINUX_STEP_PTI_PCID] = "PTI with PCID",
		[LINUX_STEP_PTI] = "PTI",
		[LINUX_STEP_IBRS] = "IBRS",
		[LINUX_STEP_IBPB] = "IBPB",
		[LINUX_STEP_VERW] = "VERW",
	};

	return step < LINUX_STEPS ? names[step] : "?";
}

void linux_steps_text(uint32_t steps, char *out, size_t cap)
{
	struct text_buf tb;
	unsigned s;

	tb_init(&tb, out, cap);
	for (s = 0; s < LINUX_STEPS; s++)
		if (steps & (1u << s))
			tb_printf(&tb, "%s%s", tb.len ? ", " : "",
				  linux_step_name(s));
	if (!tb.len)
		tb_printf(&tb, "none");
}

int64_t median_over(const struct experiment_result *e,
		    const struct experiment_result *base, unsigned k)
{
	return (int64_t)(e->metric[k].median - base->metric[k].median);
}

int report_leads_with_cycles(const struct run_result *r)
{
	/* An emulator's cycle counter counts instruction steps: it has no
	 * pipeline, cache or clock (docs/emulators.md "The counting PMU"),
	 * so its "core cycles" never lead as cycles. */
	return results_counted_state(r) == COUNTED_MEASURED &&
	       r->clock_kind == CLOCK_TSC_TICKS;
}

const char *lead_unit(const struct run_result *r)
{
	return report_leads_with_cycles(r) ? "core cycles"
					   : clock_kind_unit(r->clock_kind);
}

const char *counted_cycles_unit(const struct run_result *r)
{
	return r->clock_kind == CLOCK_TSC_TICKS
		       ? "core cycles"
		       : "the emulator's cycle counter: one per instruction "
			 "step, not cycles";
}

int64_t counted_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k)
{
	const struct counted_row *c = results_counted(r, (uint32_t)(e - r->exp));

	return c ? net_of_floor(c->cycles[k].median, r->cycles_floor.min)
		 : INT64_MIN;
}

int64_t lead_median(const struct run_result *r,
		    const struct experiment_result *e, unsigned k)
{
	if (!report_leads_with_cycles(r))
		return row_net_median(r, e, k);
	return counted_median(r, e, k);
}

/* a - b, or INT64_MIN where either is. */
static int64_t over(int64_t a, int64_t b)
{
	return a == INT64_MIN || b == INT64_MIN ? INT64_MIN : a - b;
}

int64_t lead_median_over(const struct run_result *r,
			 const struct experiment_result *e,
			 const struct experiment_result *base, unsigned k)
{
	return over(lead_median(r, e, k), lead_median(r, base, k));
}

int64_t counted_median_over(const struct run_result *r,
			    const struct experiment_result *e,
			    const struct experiment_result *base, unsigned k)
{
	return over(counted_median(r, e, k), counted_median(r, base, k));
}

uint32_t cache_lines(uint32_t bytes)
{
	return (bytes + 63) / 64;
}

const struct primitive_entry *primitive_info(
	const struct report_context *ctx, const char *name)
{
	static const struct primitive_entry unknown = { "", "", "" };
	size_t i;

	for (i = 0; ctx && i < ctx->n_primitives; i++)
		if (str_eq(ctx->primitives[i].name, name))
			return &ctx->primitives[i];
	return &unknown;
}

int64_t run_median(const struct report_context *ctx, size_t k,
		   const struct row_id *row)
{
	const struct experiment_result *e = results_find(ctx->runs[k], row);

	if (!e || e->status != EXP_OK)
		return INT64_MIN;
	return net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
			    ctx->runs[k]->floor.min);
}

int run_spread(const struct report_context *ctx, const struct row_id *row,
	       uint32_t pct, int64_t *spread, int *unstable)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t k;

	for (k = 0; k < ctx->n_runs; k++) {
		int64_t m = run_median(ctx, k, row);

		if (m == INT64_MIN)
			return 0;
		if (m < lo)
			lo = m;
		if (m > hi)
			hi = m;
	}
	*spread = hi - lo;
	*unstable = *spread > 0 && *spread * 100 > (int64_t)pct * (lo > 0 ? lo : 1);
	return 1;
}

int64_t net_of_loop(uint64_t gap, const struct gap_result *g)
{
	return (int64_t)(gap - g->loop_median);
}

int64_t tsc_disagreement_ppm(const struct run_result *r)
{
	return ppm_difference(r->tsc_hz_check, r->tsc_hz);
}

void baseline_name(const struct experiment_result *e, char *out, size_t cap)
{
	if (e->id.selftest != SELFTEST_ABSENT)
		fmt_snprintf(out, cap, "%s", "");
	else
		row_name(&e->baseline, out, cap);
}

void cpu_clock_reason(const struct run_result *r, const struct cpu_clock *c,
		      char *out, size_t cap)
{
	const char *boot = r->probe[PROBE_FREQUENCY_PIN].detail;

	switch (c->pin) {
	case CPU_PIN_PINNED:
		fmt_snprintf(out, cap, "pinned as the boot CPU was");
		break;
	case CPU_PIN_AS_BOOT:
		fmt_snprintf(out, cap, "as the boot CPU: %s", boot);
		break;
	case CPU_PIN_EIST_DISABLED:
		fmt_snprintf(out, cap, "not pinned: EIST is disabled on this "
			     "processor (IA32_MISC_ENABLE[16] clear): "
			     "IA32_PERF_CTL is not acted on");
		break;
	case CPU_PIN_FAULTED:
		fmt_snprintf(out, cap, "not pinned: an exception while it was "
			     "pinned parked it");
		break;
	case CPU_PIN_TIMED_OUT:
		fmt_snprintf(out, cap, "unknown: its pin did not return within "
			     "a second, so nothing was put back");
		break;
	default:
		fmt_snprintf(out, cap, "not started after the boot CPU's pin");
	}
}

const char *cpu_clock_ratio_note(const struct run_result *r,
				 const struct cpu_clock *c)
{
	if (c->ratio_milli)
		return "measured";
	if (r->probe[PROBE_APERF_MPERF].state != PROBE_OK)
		return "absent on the boot CPU";
	if (c->pin == CPU_PIN_FAULTED)
		return "not measured: it faulted";
	if (c->pin == CPU_PIN_TIMED_OUT)
		return "not measured: its pin did not return";
	return "did not advance here over a loop";
}
