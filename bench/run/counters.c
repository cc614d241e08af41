#include "bench/run/counters.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
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
		results_probe(r, PROBE_COUNTERS, PROBE_ABSENT, "%s", why);
		return;
	}
	failed = msr_write_guarded(MSR_FIXED_CTR_CTRL, FIXED_CTRL_RING0_ALL)
			 ? "writing IA32_FIXED_CTR_CTRL"
		 : msr_read_guarded(MSR_PERF_GLOBAL_CTRL, &global)
			 ? "reading IA32_PERF_GLOBAL_CTRL"
		 : msr_write_guarded(MSR_PERF_GLOBAL_CTRL,
				     global | GLOBAL_FIXED_012)
			 ? "writing IA32_PERF_GLOBAL_CTRL"
		 : guard_run(read_fixed_around_loop, &f, 0)
			 ? "RDPMC of fixed counter 0" : 0;
	if (failed) {
		results_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "CPUID 0AH offers PMU "
			      "version %u, but %s faults: the counters do not count "
			      "here", p.version, failed);
		return;
	}
	if (pmu_delta(f.before, f.after, p.fixed_width) < PROBE_LOOP) {
		results_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "CPUID 0AH offers PMU "
			      "version %u with %u fixed counters, but they do not "
			      "count here (%llu instructions retired over a loop "
			      "of %u)", p.version, p.fixed_counters,
			      (unsigned long long)pmu_delta(f.before, f.after,
							    p.fixed_width),
			      PROBE_LOOP);
		return;
	}
	results_probe(r, PROBE_COUNTERS, PROBE_OK, "PMU version %u: %u fixed "
		      "counters, %u bits, counting (%llu instructions over a "
		      "loop of %u)", p.version, p.fixed_counters, p.fixed_width,
		      (unsigned long long)pmu_delta(f.before, f.after,
						    p.fixed_width), PROBE_LOOP);
}

static void probe_amd(struct run_result *r)
{
	struct pmu_amd p;
	uint32_t ext8 = cpuid_max_leaf(0x80000000) >= 0x80000008
				? cpuid(0x80000008, 0).ebx : 0;
	uint32_t ext22 = cpuid_max_leaf(0x80000000) >= 0x80000022
				 ? cpuid(0x80000022, 0).eax : 0;

	pmu_decode_amd(cpuid(0x80000001, 0).ecx, ext8, ext22, &p);
	results_probe(r, PROBE_COUNTERS, p.core_extension ? PROBE_OK : PROBE_ABSENT,
		      "core counter extension %s, PerfMonV2 %s, IRPerfCount %s; "
		      "not yet used for cycle figures",
		      p.core_extension ? "yes" : "no", p.perfmon_v2 ? "yes" : "no",
		      p.irperf ? "yes" : "no");
}

/* APERF and MPERF over a loop: both must advance. */
static void probe_ratio(struct run_result *r)
{
	struct clock_reading a, b;
	uint64_t value;

	ratio_ok = 0;
	if (cpuid_max_leaf(0) < 6 || !(cpuid(6, 0).ecx & 1)) {
		results_probe(r, PROBE_APERF_MPERF, PROBE_ABSENT,
			      "CPUID.06H:ECX[0] is 0: no APERF/MPERF");
		return;
	}
	if (msr_read_guarded(MSR_MPERF, &value) ||
	    msr_read_guarded(MSR_APERF, &value)) {
		results_probe(r, PROBE_APERF_MPERF, PROBE_QUIRK,
			      "reading APERF or MPERF faults");
		return;
	}
	counters_read(&a);
	known_loop();
	counters_read(&b);
	if (b.mperf == a.mperf || b.aperf == a.aperf) {
		results_probe(r, PROBE_APERF_MPERF, PROBE_QUIRK,
			      "APERF or MPERF does not advance here");
		return;
	}
	ratio_ok = 1;
	results_probe(r, PROBE_APERF_MPERF, PROBE_OK, "core clock %u/1000 of "
		      "the TSC's over a loop; each row's batches are measured "
		      "too", pmu_ratio_milli(b.aperf - a.aperf, b.mperf - a.mperf));
}

void counters_probe(struct run_result *r)
{
	const char *vendor = r->machine.cpu_vendor;

	if (vendor[0] == 'G')
		probe_intel(r);
	else if (vendor[0] == 'A' || vendor[0] == 'H')
		probe_amd(r);
	else
		results_probe(r, PROBE_COUNTERS, PROBE_ABSENT, "no counters are "
			      "known on this vendor's CPUs");
	probe_ratio(r);
}
