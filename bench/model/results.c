#include "bench/model/results.h"

#include <stdarg.h>

#include "arch/lib/cpuid_bits.h"
#include "arch/lib/fmt.h"

static const char *name_or_unknown(const char *const *names, unsigned count,
				   unsigned i)
{
	return i < count ? names[i] : "unknown";
}

const char *clock_kind_name(unsigned kind)
{
	static const char *const names[CLOCK_KIND_COUNT] = {
		[CLOCK_TSC_TICKS] = "tsc",
		[CLOCK_ICOUNT] = "icount",
		[CLOCK_TCG_NOISE] = "tcg-noise",
		[CLOCK_EMULATOR] = "emulator",
		[CLOCK_EMULATOR_COARSE] = "emulator-coarse",
	};
	return name_or_unknown(names, CLOCK_KIND_COUNT, kind);
}

const char *clock_kind_unit(unsigned kind)
{
	static const char *const units[CLOCK_KIND_COUNT] = {
		[CLOCK_TSC_TICKS] = "TSC ticks",
		[CLOCK_ICOUNT] = "instructions (QEMU -icount path length, not cycles)",
		[CLOCK_TCG_NOISE] = "TCG host-time noise (not cycles)",
		[CLOCK_EMULATOR] = ("emulator TSC ticks (an instruction "
				    "count under Bochs: path length, not "
				    "cycles)"),
		[CLOCK_EMULATOR_COARSE] = ("emulator TSC ticks that do not "
					   "count each instruction (Bochs "
					   "with handler chaining advances "
					   "them where a chain of traces "
					   "ends): round trips come near the "
					   "path length, entry and exit do "
					   "not; never cycles"),
	};
	return name_or_unknown(units, CLOCK_KIND_COUNT, kind);
}

static int starts_with(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	return 1;
}

enum clock_kind clock_kind_decide(const char *hypervisor,
				  const char *acpi_oem_id,
				  int tsc_counts_instructions)
{
	/* QEMU's TCG: under -icount shift=0 the TSC counts instructions;
	 * without it, host time. */
	if (str_eq(hypervisor, "TCGTCGTCGTCG"))
		return tsc_counts_instructions ? CLOCK_ICOUNT : CLOCK_TCG_NOISE;
	/* KVM and other hypervisors run on a real TSC. */
	if (hypervisor[0])
		return CLOCK_TSC_TICKS;
	/* No hypervisor signature, but ACPI tables from the BOCHS/BXPC
	 * family that Bochs and QEMU's firmware write: an emulator that
	 * does not say so in CPUID, whose TSC is no clock. */
	if (starts_with(acpi_oem_id, "BOCHS") || starts_with(acpi_oem_id, "BXPC"))
		return tsc_counts_instructions ? CLOCK_EMULATOR :
						 CLOCK_EMULATOR_COARSE;
	return CLOCK_TSC_TICKS;
}

const char *boot_return_name(unsigned how)
{
	static const char *const names[BOOT_RETURN_COUNT] = {
		[BOOT_RETURN_BOOT_NEXT] = "boot-next",
		[BOOT_RETURN_NO_BOOT_CURRENT] = "no-boot-current",
		[BOOT_RETURN_REFUSED] = "boot-next-refused",
	};
	return name_or_unknown(names, BOOT_RETURN_COUNT, how);
}

const char *tsc_method_name(unsigned method)
{
	static const char *const names[TSC_METHOD_COUNT] = {
		[TSC_METHOD_CPUID_15H] = "cpuid-15h",
		[TSC_METHOD_CPUID_16H] = "cpuid-16h",
		[TSC_METHOD_PM_TIMER] = "acpi-pm-timer",
		[TSC_METHOD_STALL] = "boot-services-stall",
	};
	return name_or_unknown(names, TSC_METHOD_COUNT, method);
}

const char *boost_state_name(unsigned state)
{
	static const char *const names[BOOST_STATE_COUNT] = {
		[BOOST_UNKNOWN] = "unknown", [BOOST_ABSENT] = "absent",
		[BOOST_ON] = "on", [BOOST_OFF] = "off",
	};
	return name_or_unknown(names, BOOST_STATE_COUNT, state);
}

const char *hwp_state_name(unsigned state)
{
	static const char *const names[HWP_STATE_COUNT] = {
		[HWP_ABSENT] = "absent", [HWP_OFF] = "off", [HWP_ON] = "on",
	};
	return name_or_unknown(names, HWP_STATE_COUNT, state);
}

const char *cpu_pin_state_name(unsigned state)
{
	static const char *const names[CPU_PIN_STATE_COUNT] = {
		[CPU_PIN_NOT_RUN] = "not-run", [CPU_PIN_PINNED] = "pinned",
		[CPU_PIN_AS_BOOT] = "not-pinned",
		[CPU_PIN_EIST_DISABLED] = "not-pinned-eist-disabled",
		[CPU_PIN_FAULTED] = "faulted",
		[CPU_PIN_TIMED_OUT] = "timed-out",
	};
	return name_or_unknown(names, CPU_PIN_STATE_COUNT, state);
}

const char *cpu_fence_state_name(unsigned state)
{
	static const char *const names[CPU_FENCE_STATE_COUNT] = {
		[CPU_FENCE_NOT_RUN] = "not-run",
		[CPU_FENCE_ARCHITECTURAL] = "serialising",
		[CPU_FENCE_DE_CFG] = "de-cfg-set",
		[CPU_FENCE_IN_ORDER] = "in-order",
		[CPU_FENCE_UNCONFIRMED] = "unconfirmed",
	};
	return name_or_unknown(names, CPU_FENCE_STATE_COUNT, state);
}

const char *core_type_name(unsigned type, char *buf, size_t cap)
{
	if (type == 0)
		return "not-hybrid";
	if (type == CORE_TYPE_ATOM)
		return "atom";
	if (type == CORE_TYPE_CORE)
		return "core";
	fmt_snprintf(buf, cap, "0x%02x", type);
	return buf;
}

const char *probe_name(unsigned id)
{
	static const char *const names[PROBE_COUNT] = {
#define PROBE_NAME(id, name) name,
		PROBE_LIST(PROBE_NAME)
#undef PROBE_NAME
	};
	return name_or_unknown(names, PROBE_COUNT, id);
}

const char *probe_state_name(unsigned state)
{
	static const char *const names[PROBE_STATE_COUNT] = {
		[PROBE_NOT_RUN] = "not-run",
		[PROBE_OK] = "ok",
		[PROBE_QUIRK] = "quirk",
		[PROBE_ABSENT] = "absent",
		[PROBE_SIMULATED] = "simulated",
	};
	return name_or_unknown(names, PROBE_STATE_COUNT, state);
}

void results_probe(struct run_result *r, enum probe_id id,
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

const char *exp_status_name(unsigned status)
{
	static const char *const names[EXP_STATUS_COUNT] = {
		[EXP_OK] = "ok",
		[EXP_SKIPPED] = "skipped",
		[EXP_FAILED] = "failed",
		[EXP_TIMEOUT] = "timeout",
	};
	return name_or_unknown(names, EXP_STATUS_COUNT, status);
}

const char *metric_name(unsigned metric)
{
	static const char *const names[METRIC_COUNT] = {
		[METRIC_ENTRY] = "entry",
		[METRIC_EXIT] = "exit",
		[METRIC_ROUND_TRIP] = "round_trip",
		[METRIC_ROUND_TRIP_TIMED] = "round_trip_timed",
	};
	return name_or_unknown(names, METRIC_COUNT, metric);
}

#define CROSS_KIND_NAME(id, name, what) [CROSS_##id] = name,
#define CROSS_KIND_WHAT(id, name, what) [CROSS_##id] = what,
const char *cross_kind_name(unsigned kind)
{
	static const char *const names[CROSS_KIND_COUNT] = {
		CROSS_KIND_LIST(CROSS_KIND_NAME)
	};
	return name_or_unknown(names, CROSS_KIND_COUNT, kind);
}

const char *cross_kind_what(unsigned kind)
{
	static const char *const what[CROSS_KIND_COUNT] = {
		CROSS_KIND_LIST(CROSS_KIND_WHAT)
	};
	return name_or_unknown(what, CROSS_KIND_COUNT, kind);
}
#undef CROSS_KIND_NAME
#undef CROSS_KIND_WHAT

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

const char *counted_state_name(unsigned state)
{
	static const char *const names[COUNTED_STATE_COUNT] = {
		[COUNTED_NOT_RUN] = "skipped",
		[COUNTED_MEASURED] = "measured",
	};
	return name_or_unknown(names, COUNTED_STATE_COUNT, state);
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

			*c = *m;
			c->starts = starts;
			c->restored = restored;
		} else if (into->n_cpu_clocks < RESULTS_MAX_CPU_CLOCKS) {
			into->cpu_clock[into->n_cpu_clocks++] = *m;
		}
	}
	into->part = more->part;
	into->next_row = more->next_row;
	return 0;
}
