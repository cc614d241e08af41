#include "bench/report/other_processors.h"

#include "bench/report/lead_figures.h"
#include "bench/report/stats_cells.h"

/* A row run on another processor (its id's cpu): the boot CPU's row of
 * the same id, where both ran ok; else NULL (docs/cross-cpu.md "The
 * matrix on another processor"). */
static const struct experiment_result *boot_twin(
	const struct run_result *r, const struct experiment_result *e)
{
	struct row_id boot = e->id;
	const struct experiment_result *twin;

	boot.cpu = 0;
	if (!e->id.cpu || e->status != EXP_OK)
		return 0;
	twin = results_find(r, &boot);
	return twin && twin->status == EXP_OK ? twin : 0;
}

/* Row e's median of metric k over its boot twin's, each net of the
 * floor of the processor it ran on. */
static int64_t net_over_boot(const struct run_result *r,
			     const struct experiment_result *e,
			     const struct experiment_result *boot, unsigned k)
{
	return row_net_median(r, e, k) - row_net_median(r, boot, k);
}

/* The name of the boot CPU's row of e's id: "int-fred" for
 * "int-fred@cpu2". */
static void boot_row_name(const struct experiment_result *e, char *out,
			  size_t cap)
{
	struct row_id id = e->id;

	id.cpu = 0;
	row_name(&id, out, cap);
}

/* The rows run again on other processors, each against the boot CPU's
 * row of the same id: the difference of their medians, each net of the
 * floor measured on its own processor (docs/cross-cpu.md "The matrix on
 * another processor"). */
void other_processors_json(struct json_writer *w,
			   const struct run_result *r)
{
	char core[8], key[40];
	uint32_t i;
	unsigned k;

	json_key(w, "matrix_on_other_cpus");
	json_begin_array(w);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *boot = boot_twin(r, e);
		char name[RESULTS_ROW_NAME_LEN];

		if (!e->id.cpu)
			continue;
		boot_row_name(e, name, sizeof(name));
		json_begin_object(w);
		json_kv_string(w, "row", name);
		json_kv_uint(w, "cpu", e->id.cpu - 1u);
		json_kv_string(w, "core_type", core_type_name(row_core_type(r, e),
							      core, sizeof(core)));
		json_status(w, e->status, e->reason);
		if (boot) {
			json_kv_string(w, "boot_core_type",
				       core_type_name(row_core_type(r, boot), core,
						      sizeof(core)));
			json_kv_string(w, "unit",
				       clock_kind_unit(r->clock_kind));
			for (k = 0; k < METRIC_COUNT; k++) {
				fmt_snprintf(key, sizeof(key), "%s_over_boot",
					     metric_name(k));
				json_kv_int(w, key,
					    net_over_boot(r, e, boot, k));
			}
		}
		json_end_object(w);
	}
	json_end_array(w);
}

/* The rows run again on other processors (docs/cross-cpu.md "The matrix
 * on another processor"), each beside the boot CPU's: both medians of
 * entry and exit, each net of its own processor's floor, and the
 * other's over the boot CPU's. */
void other_processors_summary(struct text_buf *tb,
			      const struct run_result *r)
{
	uint32_t i, shown = 0, not_ok = 0;
	char a[8], b[8], who[24];

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *boot = boot_twin(r, e);
		char name[RESULTS_ROW_NAME_LEN];

		if (!e->id.cpu)
			continue;
		if (!boot) {
			not_ok += e->status != EXP_OK;
			continue;
		}
		if (!shown++)
			tb_printf(tb, "\nOn other processors, each in the boot "
				  "CPU's place (%s, medians of entry/exit, each "
				  "net of its processor's own floor; the "
				  "other's over the boot CPU's):\n%-34s "
				  "%-16s %11s %-16s %11s %13s\n",
				  clock_kind_unit(r->clock_kind), "row",
				  "boot CPU", "entry/exit", "on", "entry/exit",
				  "over boot");
		boot_row_name(e, name, sizeof(name));
		fmt_snprintf(who, sizeof(who), "CPU %u (%s)", e->id.cpu - 1u,
			     core_type_name(row_core_type(r, e), b, sizeof(b)));
		tb_printf(tb, "%-34s %-16s %5lld/%-5lld %-16s %5lld/%-5lld "
			  "%+6lld/%+lld\n", name,
			  core_type_name(row_core_type(r, boot), a, sizeof(a)),
			  (long long)row_net_median(r, boot, METRIC_ENTRY),
			  (long long)row_net_median(r, boot, METRIC_EXIT), who,
			  (long long)row_net_median(r, e, METRIC_ENTRY),
			  (long long)row_net_median(r, e, METRIC_EXIT),
			  (long long)net_over_boot(r, e, boot, METRIC_ENTRY),
			  (long long)net_over_boot(r, e, boot, METRIC_EXIT));
	}
	for (i = 0; not_ok && i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		if (!e->id.cpu || e->status == EXP_OK)
			continue;
		tb_printf(tb, "%sOn other processors, %u row(s) not ok; the "
			  "first, %s: %s: %s\n", shown ? "" : "\n", not_ok,
			  e->name, exp_status_name(e->status), e->reason);
		break;
	}
}

/* Why another processor's clock is as it is (struct cpu_clock,
 * docs/timing.md "Pinning the frequency"), in words: where it was not
 * pinned for the boot CPU's reason, that reason (its frequency-pin
 * probe). */
static void cpu_clock_reason(const struct run_result *r,
			     const struct cpu_clock *c, char *out, size_t cap)
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
	case CPU_PIN_HWP_OFF:
		fmt_snprintf(out, cap, "not pinned: HWP is off on this "
			     "processor's package (IA32_PM_ENABLE[0] clear), "
			     "though on for the boot CPU's");
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

/* Its APERF/MPERF ratio's standing: "measured"; "absent on the boot
 * CPU" (its aperf-mperf probe found none); or "did not advance here"
 * where the boot CPU's did. */
static const char *cpu_clock_ratio_note(const struct run_result *r,
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

/* Each other processor that ran rows or sent IPIs: its pin, LFENCE and
 * APERF/MPERF ratio (docs/timing.md "Pinning the frequency"). */
void other_cpu_clocks_json(struct json_writer *w,
			   const struct run_result *r)
{
	char reason[RESULTS_REASON_LEN + 64];
	uint32_t i;

	json_key(w, "other_cpus");
	json_begin_array(w);
	for (i = 0; i < r->n_cpu_clocks; i++) {
		const struct cpu_clock *c = &r->cpu_clock[i];

		cpu_clock_reason(r, c, reason, sizeof(reason));
		json_begin_object(w);
		json_kv_uint(w, "cpu", c->cpu - 1u);
		json_key(w, "pinned");
		json_bool(w, c->pin == CPU_PIN_PINNED);
		json_kv_string(w, "pin", cpu_pin_state_name(c->pin));
		json_kv_string(w, "pin_reason", reason);
		json_kv_string(w, "lfence", cpu_fence_state_name(c->fence));
		json_kv_uint_or_null(w, "aperf_mperf_milli", c->ratio_milli);
		json_kv_string(w, "aperf_mperf", cpu_clock_ratio_note(r, c));
		json_kv_uint(w, "starts", c->starts);
		json_key(w, "restored");
		json_bool(w, c->restored);
		json_kv_string(w, "turbo", cpu_turbo_state_name(c->turbo));
		json_end_object(w);
	}
	json_end_array(w);
}

/* What other_cpu_clocks_summary says of one processor, after its
 * number. */
static void clock_line(const struct run_result *r, const struct cpu_clock *c,
		       char *out, unsigned cap)
{
	char reason[RESULTS_REASON_LEN + 64], ratio[24];

	cpu_clock_reason(r, c, reason, sizeof(reason));
	if (c->ratio_milli)
		fmt_snprintf(ratio, sizeof(ratio), "%u/1000", c->ratio_milli);
	fmt_snprintf(out, cap, "%s; LFENCE %s; APERF/MPERF %s%s%s", reason,
		     cpu_fence_state_name(c->fence),
		     c->ratio_milli ? ratio : cpu_clock_ratio_note(r, c),
		     c->turbo == CPU_TURBO_LOST
			     ? "; turbo found on again (its package's "
			       "IA32_MISC_ENABLE[38] cleared while it measured)"
			     : "",
		     c->restored ? ""
				 : "; not put back before INIT or the park for "
				   "good");
}

/* Each other processor that ran rows or sent IPIs: its pin, LFENCE and
 * APERF/MPERF ratio; processors of consecutive numbers that say the
 * same share a line ("CPUs 1-127"), so that a big machine's summary
 * stays short. */
void other_cpu_clocks_summary(struct text_buf *tb,
			      const struct run_result *r)
{
	static char line[RESULTS_REASON_LEN + 160], next[sizeof(line)];
	uint32_t i, first;

	for (i = 0; i < r->n_cpu_clocks; i = first) {
		first = i;
		clock_line(r, &r->cpu_clock[i], line, sizeof(line));
		while (++first < r->n_cpu_clocks &&
		       r->cpu_clock[first].cpu == r->cpu_clock[first - 1].cpu + 1) {
			clock_line(r, &r->cpu_clock[first], next, sizeof(next));
			if (!str_eq(line, next))
				break;
		}
		if (first - i > 1)
			tb_printf(tb, "           CPUs %u-%u: %s\n",
				  r->cpu_clock[i].cpu - 1u,
				  r->cpu_clock[first - 1].cpu - 1u, line);
		else
			tb_printf(tb, "           CPU %u: %s\n",
				  r->cpu_clock[i].cpu - 1u, line);
	}
}
