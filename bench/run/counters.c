#include "bench/run/counters.h"

#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/noise.h"
#include "arch/pmu_msrs.h"
#include "arch/timing.h"
#include "bench/model/pmu.h"
#include "bench/model/results.h"

/* SDM vol. 4, Table 2-2; vol. 3B §20.2.2. */
#define MSR_MPERF 0xe7
#define MSR_APERF 0xe8
#define MSR_FIXED_CTR0 0x309	/* instructions retired; CTR1 cycles, CTR2 ref */
#define MSR_FIXED_CTR_CTRL 0x38d
#define MSR_PERF_GLOBAL_CTRL 0x38f
#define FIXED_CTRL_RING0_ALL 0x111ull	/* OS for counters 0, 1 and 2 */
#define GLOBAL_FIXED_012 (7ull << 32)
#define RDPMC_FIXED (1u << 30)

#define PROBE_LOOP 100000u

static int ratio_ok;

/* What the counted pass reads: RDPMC's ECX for each counter, and their
 * width. */
static struct {
	int counting;
	uint32_t ecx[2];	/* by enum counted_counter */
	unsigned width;
} counted;

static int rows_elsewhere;

int counters_counting(void)
{
	return counted.counting && !rows_elsewhere;
}

void counters_elsewhere(int elsewhere)
{
	rows_elsewhere = elsewhere;
}

void counters_select(enum counted_counter which)
{
	pmc_counter = counted.ecx[which];
}

uint64_t counters_span(uint64_t difference)
{
	return pmu_delta(0, difference, counted.width);
}

uint64_t counters_sample_span(uint64_t from, uint64_t to)
{
	return sample_counted ? counters_span(to - from) : to - from;
}

static uint64_t rdpmc(uint32_t counter);

uint64_t counters_sample_now(void)
{
	return sample_counted ? rdpmc(pmc_counter) : tsc_close();
}

/* Every MSR the probe and the pin changed, to be put back before the
 * reset (counters_unpin): the PMU's enables, then the clock's. */
#define MAX_CHANGED 8
static struct {
	uint32_t n;
	uint32_t msr[MAX_CHANGED];
	uint64_t value[MAX_CHANGED];
} changed;

int counters_change(uint32_t msr, uint64_t value)
{
	uint64_t old;

	if (changed.n >= MAX_CHANGED || msr_read_guarded(msr, &old) ||
	    msr_write_guarded(msr, value))
		return -1;
	changed.msr[changed.n] = msr;
	changed.value[changed.n++] = old;
	return 0;
}

uint32_t counters_changed(void)
{
	return changed.n;
}

void counters_put_back(uint32_t keep)
{
	while (changed.n > keep) {
		changed.n--;
		msr_write_guarded(changed.msr[changed.n],
				  changed.value[changed.n]);
	}
}

int counters_ratio_available(void)
{
	return ratio_ok;
}

void counters_read(struct clock_reading *out)
{
	out->mperf = rdmsr(MSR_MPERF);
	out->aperf = rdmsr(MSR_APERF);
}

static uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdpmc; lfence"
			 : "=a"(lo), "=d"(hi) : "c"(counter) : "memory");
	return lo | (uint64_t)hi << 32;
}

/* A loop whose length is known: PROBE_LOOP iterations. */
static void known_loop(void)
{
	unsigned i;

	for (i = 0; i < PROBE_LOOP; i++)
		__asm__ volatile("" ::: "memory");
}

struct fixed_reading {
	uint64_t before, after;
};

static void read_fixed_around_loop(void *arg)
{
	struct fixed_reading *f = arg;

	f->before = rdpmc(RDPMC_FIXED | 0);
	known_loop();
	f->after = rdpmc(RDPMC_FIXED | 0);
}

static void probe_intel(struct run_result *r)
{
	struct cpuid_regs a = cpuid(0xa, 0);
	struct pmu_intel p;
	struct fixed_reading f = { 0, 0 };
	char why[128];
	uint64_t global;
	const char *failed;

	pmu_decode_intel(a.eax, a.edx, &p);
	if (pmu_intel_fixed_unusable(&p, why, sizeof(why))) {
		record_probe(r, PROBE_COUNTERS, PROBE_ABSENT, "%s", why);
		return;
	}
	failed = counters_change(MSR_FIXED_CTR_CTRL, FIXED_CTRL_RING0_ALL)
			 ? "IA32_FIXED_CTR_CTRL"
		 : msr_read_guarded(MSR_PERF_GLOBAL_CTRL, &global) ||
				 counters_change(MSR_PERF_GLOBAL_CTRL,
					global | GLOBAL_FIXED_012)
			 ? "IA32_PERF_GLOBAL_CTRL"
		 : guard_run(read_fixed_around_loop, &f, 0)
			 ? "RDPMC of fixed counter 0" : 0;
	if (failed) {
		counters_put_back(0);
		record_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "PMU version %u: "
			     "%s faults: the counters do not count here",
			     p.version, failed);
		return;
	}
	if (pmu_delta(f.before, f.after, p.fixed_width) < PROBE_LOOP) {
		record_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "CPUID 0AH offers PMU "
			     "version %u, %u fixed counters, but they do not "
			     "count here (%llu instructions over a loop of %u)",
			     p.version, p.fixed_counters,
			     (unsigned long long)pmu_delta(f.before, f.after,
							   p.fixed_width),
			     PROBE_LOOP);
		counters_put_back(0);
		return;
	}
	counted.counting = 1;
	counted.ecx[COUNTER_CYCLES] = RDPMC_FIXED | 1;
	counted.ecx[COUNTER_INSTRUCTIONS] = RDPMC_FIXED | 0;
	counted.width = p.fixed_width;
	/* Worded to fit RESULTS_REASON_LEN whole, as the quirks above are:
	 * 122 characters at most with a two-digit version and a seven-digit
	 * count (AMD's too). It is also results.json's clock.cycles.counters,
	 * which the boot tests read. */
	record_probe(r, PROBE_COUNTERS, PROBE_OK, "PMU version %u, %u fixed "
		     "counters of %u bits: cycles on fixed 1, instructions on "
		     "fixed 0 (%llu over a loop of %u)", p.version,
		     p.fixed_counters, p.fixed_width,
		     (unsigned long long)pmu_delta(f.before, f.after,
						   p.fixed_width), PROBE_LOOP);
}

struct counter_reading {
	uint32_t ecx;
	uint64_t before, after;
};

static void read_counter_around_loop(void *arg)
{
	struct counter_reading *c = arg;

	c->before = rdpmc(c->ecx);
	known_loop();
	c->after = rdpmc(c->ecx);
}

static void probe_amd(struct run_result *r)
{
	struct pmu_amd p;
	uint32_t ext8 = cpuid_max_leaf(0x80000000) >= 0x80000008
				? cpuid(0x80000008, 0).ebx : 0;
	uint32_t ext22 = cpuid_max_leaf(0x80000000) >= 0x80000022
				 ? cpuid(0x80000022, 0).eax : 0;

	uint32_t ctl = 0;
	uint64_t global = 0;
	struct counter_reading c = { 1, 0, 0 };
	const char *failed;

	pmu_decode_amd(cpuid(0x80000001, 0).ecx, ext8, ext22, &p);
	/* Counter 0 counts cycles not in halt, counter 1 retired
	 * instructions, in ring 0 only; RDPMC reads counter n as ECX = n.
	 * PerfMonV2 also wants both enabled in its global control. */
	ctl = p.core_extension ? MSR_AMD_PERF_CTL_CORE : MSR_AMD_PERF_CTL_LEGACY;
	failed = counters_change(ctl, AMD_EVENT_CYCLES_NOT_IN_HALT |
					      AMD_PERF_CTL_OS |
					      AMD_PERF_CTL_ENABLE) ||
				 counters_change(ctl + (p.core_extension ? 2 : 1),
						 AMD_EVENT_RETIRED_INSTRUCTIONS |
							 AMD_PERF_CTL_OS |
							 AMD_PERF_CTL_ENABLE)
			 ? "PERF_CTL0/1"
		 : p.perfmon_v2 &&
				 (msr_read_guarded(MSR_AMD_PERF_GLOBAL_CTL,
						   &global) ||
				  counters_change(MSR_AMD_PERF_GLOBAL_CTL,
						  global |
						  AMD_PERF_GLOBAL_COUNTER(0) |
						  AMD_PERF_GLOBAL_COUNTER(1)))
			 ? "PerfCntrGlobalCtl"
		 : guard_run(read_counter_around_loop, &c, 0)
			 ? "RDPMC of counter 1" : 0;
	if (failed || pmu_delta(c.before, c.after, AMD_COUNTER_WIDTH) <
			      PROBE_LOOP) {
		counters_put_back(0);
		record_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "AMD counters "
			     "(core extension %s, PerfMonV2 %s): %s%s: the "
			     "counters do not count here",
			     p.core_extension ? "yes" : "no",
			     p.perfmon_v2 ? "yes" : "no",
			     failed ? failed : "no instructions counted over "
					      "a loop",
			     failed ? " faults" : "");
		return;
	}
	counted.counting = 1;
	counted.ecx[COUNTER_CYCLES] = 0;
	counted.ecx[COUNTER_INSTRUCTIONS] = 1;
	counted.width = AMD_COUNTER_WIDTH;
	record_probe(r, PROBE_COUNTERS, PROBE_OK, "core extension %s, "
		     "PerfMonV2 %s, IRPerfCount %s: cycles on counter 0, "
		     "instructions on 1 (%llu over a loop of %u)",
		     p.core_extension ? "yes" : "no",
		     p.perfmon_v2 ? "yes" : "no", p.irperf ? "yes" : "no",
		     (unsigned long long)pmu_delta(c.before, c.after,
						   AMD_COUNTER_WIDTH),
		     PROBE_LOOP);
}

/* APERF and MPERF over a loop: both must advance. */
static void probe_ratio(struct run_result *r)
{
	struct clock_reading a, b;
	uint64_t value;

	ratio_ok = 0;
	if (cpuid_max_leaf(0) < 6 ||
	    !(cpuid(6, 0).ecx & CPUID_06_ECX_APERFMPERF)) {
		record_probe(r, PROBE_APERF_MPERF, PROBE_ABSENT,
			     "CPUID.06H:ECX[0] is 0: no APERF/MPERF");
		return;
	}
	if (msr_read_guarded(MSR_MPERF, &value) ||
	    msr_read_guarded(MSR_APERF, &value)) {
		record_probe(r, PROBE_APERF_MPERF, PROBE_QUIRK,
			     "reading APERF or MPERF faults");
		return;
	}
	counters_read(&a);
	known_loop();
	counters_read(&b);
	if (b.mperf == a.mperf || b.aperf == a.aperf) {
		record_probe(r, PROBE_APERF_MPERF, PROBE_QUIRK,
			     "APERF or MPERF does not advance here");
		return;
	}
	ratio_ok = 1;
	record_probe(r, PROBE_APERF_MPERF, PROBE_OK, "core clock %u/1000 of "
		     "the TSC's over a loop; each row's batches are measured "
		     "too", pmu_ratio_milli(b.aperf - a.aperf, b.mperf - a.mperf));
}

void counters_probe(struct run_result *r)
{
	const char *vendor = r->machine.cpu_vendor;

	counted.counting = 0;
	if (vendor[0] == 'G')
		probe_intel(r);
	else if (vendor[0] == 'A' || vendor[0] == 'H')
		probe_amd(r);
	else
		record_probe(r, PROBE_COUNTERS, PROBE_ABSENT, "no counters are "
			     "known on this vendor's CPUs");
	probe_ratio(r);
}


uint32_t counters_ratio_over_loop(void)
{
	struct clock_reading a, b;

	if (!ratio_ok)
		return 0;
	counters_read(&a);
	known_loop();
	counters_read(&b);
	return pmu_ratio_milli(b.aperf - a.aperf, b.mperf - a.mperf);
}

void counters_unpin(void)
{
	counters_put_back(0);
	counted.counting = 0;
}
