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
#include "bench/run/counters_firmware.h"

/* SDM vol. 4, Table 2-2; vol. 3B §20.2.2. */
#define MSR_MPERF 0xe7
#define MSR_APERF 0xe8
#define MSR_FIXED_CTR0 0x309	/* instructions retired; CTR1 cycles, CTR2 ref */
#define FIXED_COUNTERS_TAKEN 3
#define MSR_FIXED_CTR_CTRL 0x38d
#define MSR_PERF_GLOBAL_CTRL 0x38f
#define FIXED_CTRL_RING0_ALL 0x111ull	/* OS for counters 0, 1 and 2 */
#define GLOBAL_FIXED_012 (7ull << 32)
#define RDPMC_FIXED (1u << 30)

#define PROBE_LOOP 100000u
/* The cycles a known loop must take at least: a turn of it is a taken
 * branch, and no core takes more than two a cycle. */
#define PROBE_LOOP_CYCLES (PROBE_LOOP / 2)

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

/* Instructions and cycles over the known loop: the instructions
 * counter's reads closest around it. */
struct loop_reading {
	uint32_t instructions_ecx, cycles_ecx;
	uint64_t instructions[2], cycles[2];
};

static void read_around_loop(void *arg)
{
	struct loop_reading *c = arg;

	c->cycles[0] = rdpmc(c->cycles_ecx);
	c->instructions[0] = rdpmc(c->instructions_ecx);
	known_loop();
	c->instructions[1] = rdpmc(c->instructions_ecx);
	c->cycles[1] = rdpmc(c->cycles_ecx);
}

/* Why the counters read over the loop do not count, or 0. */
static const char *loop_not_counted(const struct loop_reading *c,
				    unsigned width, char *why, size_t cap)
{
	uint64_t instructions = pmu_delta(c->instructions[0],
					  c->instructions[1], width);
	uint64_t cycles = pmu_delta(c->cycles[0], c->cycles[1], width);

	log_printf("counters: over a loop of %u: %llu instructions (the "
		   "counter at %llx), %llu cycles\n", PROBE_LOOP,
		   (unsigned long long)instructions,
		   (unsigned long long)c->instructions[0],
		   (unsigned long long)cycles);
	if (instructions < PROBE_LOOP)
		fmt_snprintf(why, cap, "%llu instructions over a loop of %u",
			     (unsigned long long)instructions, PROBE_LOOP);
	else if (cycles < PROBE_LOOP_CYCLES)
		fmt_snprintf(why, cap, "%llu cycles over a loop of %u",
			     (unsigned long long)cycles, PROBE_LOOP);
	else
		return 0;
	return why;
}

static void probe_intel(struct run_result *r)
{
	struct cpuid_regs a = cpuid(0xa, 0);
	struct pmu_intel p;
	struct loop_reading f = { RDPMC_FIXED | 0, RDPMC_FIXED | 1,
				  { 0, 0 }, { 0, 0 } };
	char why[128];
	uint64_t global;
	const char *failed, *not_counted;
	unsigned fixed;
	static const uint32_t found[] = {
		MSR_FIXED_CTR_CTRL, MSR_PERF_GLOBAL_CTRL, MSR_FIXED_CTR0,
		MSR_FIXED_CTR0 + 1, MSR_FIXED_CTR0 + 2 };
	/* IA32_FIXED_CTR_CTRL's enables, two bits of four a counter, for
	 * each fixed counter CPUID offers (SDM vol. 3B §21.2.2), as
	 * Linux's check_hw_exists reads them */
	uint64_t found_enables[] = { 0, 0, 0, 0, 0 };
	unsigned i;

	pmu_decode_intel(a.eax, a.edx, &p);
	if (pmu_intel_fixed_unusable(&p, why, sizeof(why))) {
		record_probe(r, PROBE_COUNTERS, PROBE_ABSENT, "%s", why);
		return;
	}
	for (i = 0; i < p.fixed_counters && i < 16; i++)
		found_enables[0] |= 3ull << (4 * i);
	fixed = p.fixed_counters < FIXED_COUNTERS_TAKEN ? p.fixed_counters
							: FIXED_COUNTERS_TAKEN;
	counters_record_found(r, found, found_enables, 2 + fixed);
	failed = counters_zero(MSR_FIXED_CTR0, 1, fixed)
			 ? "IA32_FIXED_CTR0-2"
		 : counters_take_enable(MSR_FIXED_CTR_CTRL, FIXED_CTRL_RING0_ALL)
			 ? "IA32_FIXED_CTR_CTRL"
		 : msr_read_guarded(MSR_PERF_GLOBAL_CTRL, &global) ||
				 counters_take_enable(MSR_PERF_GLOBAL_CTRL,
					     global | GLOBAL_FIXED_012)
			 ? "IA32_PERF_GLOBAL_CTRL"
		 : guard_run(read_around_loop, &f, 0)
			 ? "RDPMC of fixed counter 0 or 1" : 0;
	if (failed) {
		counters_put_back(0);
		record_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "PMU version %u: "
			     "%s faults: the counters do not count here",
			     p.version, failed);
		return;
	}
	not_counted = loop_not_counted(&f, p.fixed_width, why, sizeof(why));
	if (not_counted) {
		record_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "CPUID 0AH offers PMU "
			     "version %u, %u fixed counters, but they do not "
			     "count here (%s)", p.version, p.fixed_counters,
			     not_counted);
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
		     (unsigned long long)pmu_delta(f.instructions[0],
						   f.instructions[1],
						   p.fixed_width), PROBE_LOOP);
}

static void probe_amd(struct run_result *r)
{
	struct pmu_amd p;
	uint32_t ext8 = cpuid_max_leaf(0x80000000) >= 0x80000008
				? cpuid(0x80000008, 0).ebx : 0;
	uint32_t ext22 = cpuid_max_leaf(0x80000000) >= 0x80000022
				 ? cpuid(0x80000022, 0).eax : 0;

	uint32_t ctl = 0, ctr = 0, stride = 0;
	uint64_t global = 0;
	struct loop_reading c = { 1, 0, { 0, 0 }, { 0, 0 } };
	char why[128];
	const char *failed, *not_counted = 0;
	uint32_t found[5];
	uint64_t found_enables[5] = { AMD_PERF_CTL_ENABLE, AMD_PERF_CTL_ENABLE,
				      0, 0, 0 };

	pmu_decode_amd(cpuid(0x80000001, 0).ecx, ext8, ext22, &p);
	/* Counter 0 counts cycles not in halt, counter 1 retired
	 * instructions, in ring 0 only; RDPMC reads counter n as ECX = n.
	 * PerfMonV2 also wants both enabled in its global control. */
	ctl = p.core_extension ? MSR_AMD_PERF_CTL_CORE : MSR_AMD_PERF_CTL_LEGACY;
	ctr = p.core_extension ? MSR_AMD_PERF_CTL_CORE + 1
			       : MSR_AMD_PERF_CTR_LEGACY;
	stride = p.core_extension ? 2 : 1;
	found[0] = ctl;
	found[1] = ctl + stride;
	found[2] = ctr;
	found[3] = ctr + stride;
	found[4] = MSR_AMD_PERF_GLOBAL_CTL;
	counters_record_found(r, found, found_enables, p.perfmon_v2 ? 5 : 4);
	failed = counters_zero(ctr, stride, 2)
			 ? "PERF_CTR0/1"
		 : counters_take_enable(ctl, AMD_EVENT_CYCLES_NOT_IN_HALT |
					    AMD_PERF_CTL_OS |
					    AMD_PERF_CTL_ENABLE) ||
				 counters_take_enable(ctl + stride,
					     AMD_EVENT_RETIRED_INSTRUCTIONS |
						     AMD_PERF_CTL_OS |
						     AMD_PERF_CTL_ENABLE)
			 ? "PERF_CTL0/1"
		 : p.perfmon_v2 &&
				 (msr_read_guarded(MSR_AMD_PERF_GLOBAL_CTL,
						   &global) ||
				  counters_take_enable(MSR_AMD_PERF_GLOBAL_CTL,
					      global |
					      AMD_PERF_GLOBAL_COUNTER(0) |
					      AMD_PERF_GLOBAL_COUNTER(1)))
			 ? "PerfCntrGlobalCtl"
		 : guard_run(read_around_loop, &c, 0)
			 ? "RDPMC of counter 0 or 1" : 0;
	if (!failed)
		not_counted = loop_not_counted(&c, AMD_COUNTER_WIDTH, why,
					       sizeof(why));
	if (failed || not_counted) {
		counters_put_back(0);
		record_probe(r, PROBE_COUNTERS, PROBE_QUIRK, "AMD counters "
			     "(core extension %s, PerfMonV2 %s): %s%s: the "
			     "counters do not count here",
			     p.core_extension ? "yes" : "no",
			     p.perfmon_v2 ? "yes" : "no",
			     failed ? failed : not_counted,
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
		     (unsigned long long)pmu_delta(c.instructions[0],
						   c.instructions[1],
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
	counters_enables_forget(config_simulates(&r->config,
						 SIMULATE_COUNTERS_TAKEN));
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
	counters_put_back_all(1);
	counted.counting = 0;
	counters_enables_forget(0);
}
