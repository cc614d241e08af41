#include "bench/run/counters_pin.h"

#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/noise.h"
#include "arch/pmu_msrs.h"
#include "bench/model/pmu.h"
#include "bench/model/results.h"
#include "bench/run/counters.h"
#include "bench/run/counters_firmware.h"

/* Pinning the core clock (docs/timing.md "Pinning the frequency"). */
#define MSR_PLATFORM_INFO 0xce		/* 15:8 maximum non-turbo ratio */
#define MSR_PERF_CTL 0x199		/* 15:8 target ratio */
#define MSR_HWP_CAPABILITIES 0x771	/* 15:8 guaranteed performance */
#define MSR_HWP_REQUEST 0x774		/* 7:0 min, 15:8 max, 23:16 desired,
					 * 31:24 EPP */

/* What the boot CPU's pin did, for each other processor that runs rows
 * or sends IPIs to do the same on itself (counters_pin_here): each has
 * its own IA32_PERF_CTL, HWP request, HWCR and PStateCtl (SDM vol. 4,
 * the MSRs' scope; AMD PPR), so the boot CPU's writes pin it alone. */
static struct {
	enum { PLAN_NONE, PLAN_HWP, PLAN_PERF_CTL, PLAN_AMD } path;
	uint8_t turbo_off;	/* MISC_ENABLE[38] set, as on the boot CPU */
	uint8_t boost_off, pstate;	/* AMD: HWCR[25]; PStateCtl */
	uint32_t base;		/* IA32_PERF_CTL's ratio */
	uint8_t atom;		/* its VID too (pmu_atom_takes_vid) */
} plan;

/* A Silvermont or Airmont Atom's VID table, read on the processor it
 * is for: 0, or -1 where one of its MSRs faults. */
static int atom_vids_read(struct pmu_atom_vids *a)
{
	return msr_read_guarded(PMU_MSR_ATOM_CORE_RATIOS, &a->ratios) ||
			       msr_read_guarded(PMU_MSR_ATOM_CORE_VIDS,
						&a->vids) ||
			       msr_read_guarded(PMU_MSR_ATOM_CORE_TURBO_VIDS,
						&a->turbo_vids)
		       ? -1
		       : 0;
}

/* min = max = guaranteed, desired 0 (the hardware's choice inside
 * that), EPP 0 (performance). */
static uint64_t hwp_request_pinned(uint64_t capabilities)
{
	uint32_t guaranteed = (uint32_t)(capabilities >> 8) & 0xff;

	return guaranteed | (uint64_t)guaranteed << 8;
}

static const char *pin_hwp(char *what, size_t cap)
{
	uint64_t caps;

	if (msr_read_guarded(MSR_HWP_CAPABILITIES, &caps))
		return "IA32_HWP_CAPABILITIES faults";
	if (counters_change(MSR_HWP_REQUEST, hwp_request_pinned(caps)))
		return "IA32_HWP_REQUEST faults";
	plan.path = PLAN_HWP;
	fmt_snprintf(what, cap, "HWP request min = max = guaranteed "
		     "performance %u, EPP 0", (unsigned)(caps >> 8) & 0xff);
	return 0;
}

/* IA32_PERF_CTL at the base ratio, where EIST is enabled
 * (pmu_intel_pin_path). Turbo is turned off first where CPUID offers
 * it; where that write faults, or turbo is not offered, the ratio is
 * pinned all the same: a request at the maximum non-turbo ratio asks
 * for no turbo (SDM vol. 3B §15.3.2.2). */
static const char *pin_perf_ctl(const struct machine_info *m, uint64_t misc,
				char *what, size_t cap)
{
	uint32_t leaf6 = cpuid_max_leaf(0) >= 6 ? cpuid(6, 0).eax : 0;
	uint64_t info, request;
	uint32_t base;
	const char *turbo;
	struct pmu_atom_vids atom;
	int atom_vid = pmu_atom_takes_vid(m->family, m->model);

	if (msr_read_guarded(MSR_PLATFORM_INFO, &info))
		return "MSR_PLATFORM_INFO faults: the base ratio is unknown";
	base = (uint32_t)(info >> 8) & 0xff;
	if (base == 0)
		return "MSR_PLATFORM_INFO gives no base ratio";
	/* Its VID is read before anything is changed: without it, the
	 * request would ask for the ratio at a voltage of 0. */
	if (atom_vid && atom_vids_read(&atom))
		return "the Atom's voltage IDs (MSR 66AH-66DH) fault: "
		       "IA32_PERF_CTL, whose bits 7:0 need one, is left alone";
	if (msr_read_guarded(MSR_PERF_CTL, &request))
		return "IA32_PERF_CTL faults";
	request = pmu_perf_ctl_request(request, base, atom_vid ? &atom : 0);
	if (atom_vid && !(request & 0xff))
		return "the Atom's voltage IDs read 0: IA32_PERF_CTL, whose "
		       "bits 7:0 need one, is left alone";
	switch (pmu_intel_turbo_step(leaf6, misc)) {
	case TURBO_ALREADY_OFF:
		turbo = "turbo already off (IA32_MISC_ENABLE[38])";
		break;
	case TURBO_NOT_OFFERED:
		turbo = "no turbo to turn off (CPUID 06H:EAX[1] and "
			"IA32_MISC_ENABLE[38] are 0)";
		break;
	default:
		if (counters_change(MSR_MISC_ENABLE,
				    misc | MISC_ENABLE_TURBO_DISABLE)) {
			turbo = "turbo cannot be turned off (setting "
				"IA32_MISC_ENABLE[38] faults)";
		} else {
			turbo = "turbo off (IA32_MISC_ENABLE[38])";
			plan.turbo_off = 1;
		}
	}
	if (counters_change(MSR_PERF_CTL, request))
		return "IA32_PERF_CTL faults";
	plan.path = PLAN_PERF_CTL;
	plan.base = base;
	plan.atom = (uint8_t)atom_vid;
	fmt_snprintf(what, cap, "%s, IA32_PERF_CTL at the base ratio %u%s",
		     turbo, base, atom_vid ? " with the Atom's VID for it" : "");
	return 0;
}

static const char *pin_intel(const struct machine_info *m, char *what,
			     size_t cap)
{
	struct pmu_intel_clock c = {
		.hwp_on = m->hwp == HWP_ON,
		.eist = !!(cpuid(1, 0).ecx & CPUID_01_ECX_EIST),
	};
	const char *why;

	c.misc_enable_read = !msr_read_guarded(MSR_MISC_ENABLE, &c.misc_enable);
	switch (pmu_intel_pin_path(&c, &why)) {
	case PIN_PATH_HWP:
		return pin_hwp(what, cap);
	case PIN_PATH_PERF_CTL:
		return pin_perf_ctl(m, c.misc_enable, what, cap);
	default:
		return why;
	}
}

/* AMD's hardware P-states (APM vol. 2 §17.1; the BKDGs' and PPRs'
 * P-state MSRs): CPUID 8000_0007H:EDX[7] says they are there;
 * PStateCurLim[2:0] is the fastest P-state software may ask for now, and
 * PStateCtl[2:0] asks for one. */
#define MSR_AMD_PSTATE_CURRENT_LIMIT 0xc0010061u
#define MSR_AMD_PSTATE_CONTROL 0xc0010062u

static const char *pin_amd(const struct machine_info *m, char *what,
			   size_t cap)
{
	int boost = m->boost == BOOST_ON || m->boost == BOOST_OFF;
	int pstates = cpuid_max_leaf(0x80000000) >= 0x80000007 &&
		      (cpuid(0x80000007, 0).edx & CPUID_80000007_EDX_HW_PSTATE);
	uint64_t hwcr, limit;
	struct text_buf tb;

	if (!boost && !pstates)
		return "CPUID 8000_0007H:EDX[9] and [7] are 0: no core "
		       "performance boost to turn off, no P-state to fix";
	tb_init(&tb, what, cap);
	if (boost) {
		if (msr_read_guarded(MSR_AMD_HWCR, &hwcr) ||
		    counters_change(MSR_AMD_HWCR, hwcr | HWCR_CPB_DISABLE))
			return "HWCR faults";
		tb_printf(&tb, "boost off (HWCR[25])");
	}
	if (pstates) {
		if (msr_read_guarded(MSR_AMD_PSTATE_CURRENT_LIMIT, &limit) ||
		    counters_change(MSR_AMD_PSTATE_CONTROL, limit & 7))
			return "PStateCurLim or PStateCtl faults";
		tb_printf(&tb, "%sP-state fixed at P%u, the fastest allowed",
			  boost ? ", " : "",
			  (unsigned)(limit & 7));
	}
	plan.path = PLAN_AMD;
	plan.boost_off = (uint8_t)boost;
	plan.pstate = (uint8_t)pstates;
	return 0;
}

/* The results the other processors' clocks go to (counters_pin's). */
static struct run_result *pinned_for;

void counters_pin(struct run_result *r)
{
	const char *vendor = r->machine.cpu_vendor, *why;
	char what[120];
	uint32_t before_pin = counters_changed();

	pinned_for = r;
	plan.path = PLAN_NONE;
	if (!r->config.pin_frequency) {
		record_probe(r, PROBE_FREQUENCY_PIN, PROBE_ABSENT,
			     "not pinned: pin_frequency = 0");
		return;
	}
	/* Phase A recorded HWP and boost (cpu_clock_controls). */
	if (vendor[0] == 'G')
		why = pin_intel(&r->machine, what, sizeof(what));
	else if (vendor[0] == 'A' || vendor[0] == 'H')
		why = pin_amd(&r->machine, what, sizeof(what));
	else
		why = "no clock controls are known on this vendor's CPUs";
	if (why) {
		counters_put_back(before_pin);
		plan.path = PLAN_NONE;
		record_probe(r, PROBE_FREQUENCY_PIN, PROBE_ABSENT,
			     "not pinned: %s", why);
		return;
	}
	if (!counters_ratio_available()) {
		record_probe(r, PROBE_FREQUENCY_PIN, PROBE_OK, "%s; no APERF/MPERF "
			     "to show the ratio that resulted", what);
		return;
	}
	record_probe(r, PROBE_FREQUENCY_PIN, PROBE_OK, "%s; core clock then "
		     "%u/1000 of the TSC's", what, counters_ratio_over_loop());
}

/* Each other processor's changes, by its slot in ap_cpus. At most two
 * MSRs a path: the HWP request; PERF_CTL; HWCR and PStateCtl.
 * IA32_MISC_ENABLE[38] is the package's, held apart (turbo_holds). */
#define MAX_CHANGED_HERE 2
static struct cpu_clock_here {
	uint32_t n;
	uint32_t msr[MAX_CHANGED_HERE];
	uint64_t value[MAX_CHANGED_HERE];
	uint8_t pin, fence;	/* enum cpu_pin_state, cpu_fence_state */
	uint32_t ratio_milli;
	uint32_t package;	/* counters_pin_place */
	/* Turbo off held here (the boot CPU turned it off), found set
	 * or set here; where it was put back, whether the bit was still
	 * set then (enum cpu_turbo_state), and whether it was cleared. */
	uint8_t turbo_holds, turbo_found_set, turbo_set_here;
	uint8_t turbo, turbo_cleared;
} here[AP_MAX_CPUS];

/* IA32_MISC_ENABLE[38]'s holders by package (pmu_package_hold_take):
 * taken and let go on the processors themselves, one at a time as the
 * boot CPU runs them, under a lock all the same, as a pin that did not
 * return in time may still be running. */
static struct pmu_package_holds turbo_holds;
static uint32_t turbo_holds_lock;

static void turbo_holds_enter(void)
{
	while (__atomic_exchange_n(&turbo_holds_lock, 1, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause" ::: "memory");
}

static void turbo_holds_exit(void)
{
	__atomic_store_n(&turbo_holds_lock, 0, __ATOMIC_RELEASE);
}

/* Turbo off on this processor's package while it measures: set where
 * it was clear, and counted among the package's holders either way. */
static void turbo_hold(struct cpu_clock_here *h, uint64_t misc)
{
	h->turbo_holds = 1;
	h->turbo_found_set = !!(misc & MISC_ENABLE_TURBO_DISABLE);
	h->turbo_set_here = !h->turbo_found_set;
	turbo_holds_enter();
	if (h->turbo_set_here)
		wrmsr(MSR_MISC_ENABLE, misc | MISC_ENABLE_TURBO_DISABLE);
	pmu_package_hold_take(&turbo_holds, h->package, h->turbo_found_set);
	turbo_holds_exit();
}

/* Lets go: whether the bit still held, and cleared where this is the
 * last of its package out (or the bit is its own). */
static void turbo_let_go(struct cpu_clock_here *h)
{
	uint64_t misc;

	if (!h->turbo_holds)
		return;
	h->turbo_holds = 0;
	turbo_holds_enter();
	misc = rdmsr(MSR_MISC_ENABLE);
	h->turbo = misc & MISC_ENABLE_TURBO_DISABLE ? CPU_TURBO_HELD
						    : CPU_TURBO_LOST;
	h->turbo_cleared = (uint8_t)pmu_package_hold_leave(
		&turbo_holds, h->package, h->turbo_set_here);
	if (h->turbo_cleared)
		wrmsr(MSR_MISC_ENABLE, misc & ~MISC_ENABLE_TURBO_DISABLE);
	turbo_holds_exit();
}

void counters_pin_place(uint32_t slot, uint32_t package)
{
	here[slot].package = package;
}

/* Unguarded, as the processor has no guard of its own (an exception
 * parks it, arch/ap.h): only MSRs the boot CPU read and wrote without
 * one. */
static void change_here(struct cpu_clock_here *h, uint32_t msr,
			uint64_t value)
{
	/* A third change would be a new pin path: it fails closed, the MSR
	 * left as it was, rather than one that cannot be put back. */
	if (h->n >= MAX_CHANGED_HERE)
		return;
	h->msr[h->n] = msr;
	h->value[h->n++] = rdmsr(msr);
	wrmsr(msr, value);
}

static uint8_t fence_state(enum fence_kind kind)
{
	switch (kind) {
	case FENCE_ARCHITECTURAL:
		return CPU_FENCE_ARCHITECTURAL;
	case FENCE_DE_CFG:
		return CPU_FENCE_DE_CFG;
	case FENCE_IN_ORDER:
		return CPU_FENCE_IN_ORDER;
	case FENCE_UNCONFIRMED:
		return CPU_FENCE_UNCONFIRMED;
	default:
		return CPU_FENCE_NOT_RUN;
	}
}

void counters_pin_here(void *slot_of)
{
	struct cpu_clock_here *h = &here[(uintptr_t)slot_of];
	uint64_t misc;
	struct pmu_atom_vids atom;

	h->n = 0;
	h->pin = CPU_PIN_AS_BOOT;
	h->turbo = CPU_TURBO_NOT_HELD;
	h->turbo_cleared = 0;
	switch (plan.path) {
	case PLAN_HWP:
		/* IA32_PM_ENABLE is the package's: the firmware may have
		 * turned HWP on in the boot CPU's package alone, and the
		 * request faults where it is off (SDM vol. 3B §15.4.2). */
		if (!(rdmsr(MSR_PM_ENABLE) & 1)) {
			h->pin = CPU_PIN_HWP_OFF;
			break;
		}
		/* Its own guaranteed performance: a hybrid CPU's E-cores
		 * guarantee less than its P-cores. */
		change_here(h, MSR_HWP_REQUEST,
			    hwp_request_pinned(rdmsr(MSR_HWP_CAPABILITIES)));
		h->pin = CPU_PIN_PINNED;
		break;
	case PLAN_PERF_CTL:
		misc = rdmsr(MSR_MISC_ENABLE);
		if (!(misc & MISC_ENABLE_EIST)) {
			h->pin = CPU_PIN_EIST_DISABLED;
			break;
		}
		if (plan.turbo_off)
			turbo_hold(h, misc);
		/* Unguarded reads, as change_here's: the boot CPU read the
		 * same MSRs without a fault. */
		if (plan.atom) {
			atom.ratios = rdmsr(PMU_MSR_ATOM_CORE_RATIOS);
			atom.vids = rdmsr(PMU_MSR_ATOM_CORE_VIDS);
			atom.turbo_vids = rdmsr(PMU_MSR_ATOM_CORE_TURBO_VIDS);
		}
		change_here(h, MSR_PERF_CTL,
			    pmu_perf_ctl_request(rdmsr(MSR_PERF_CTL), plan.base,
						 plan.atom ? &atom : 0));
		h->pin = CPU_PIN_PINNED;
		break;
	case PLAN_AMD:
		if (plan.boost_off)
			change_here(h, MSR_AMD_HWCR,
				    rdmsr(MSR_AMD_HWCR) | HWCR_CPB_DISABLE);
		if (plan.pstate)
			change_here(h, MSR_AMD_PSTATE_CONTROL,
				    rdmsr(MSR_AMD_PSTATE_CURRENT_LIMIT) & 7);
		h->pin = CPU_PIN_PINNED;
		break;
	default:
		break;
	}
	h->fence = fence_state(fences_prepare_here());
	h->ratio_milli = counters_ratio_over_loop();
}

void counters_unpin_here(void *slot_of)
{
	struct cpu_clock_here *h = &here[(uintptr_t)slot_of];

	turbo_let_go(h);
	while (h->n) {
		h->n--;
		wrmsr(h->msr[h->n], h->value[h->n]);
	}
}

/* The entry of processor `cpu` in the results; where it has none and
 * `add`, a new one where there is room. NULL before counters_pin or
 * past RESULTS_MAX_CPU_CLOCKS. */
static struct cpu_clock *clock_entry(uint16_t cpu, int add)
{
	struct run_result *r = pinned_for;
	uint32_t i;

	if (!r)
		return 0;
	for (i = 0; i < r->n_cpu_clocks; i++)
		if (r->cpu_clock[i].cpu == cpu)
			return &r->cpu_clock[i];
	if (!add || r->n_cpu_clocks >= RESULTS_MAX_CPU_CLOCKS)
		return 0;
	r->cpu_clock[r->n_cpu_clocks] = (struct cpu_clock){ .cpu = cpu,
							    .restored = 1 };
	return &r->cpu_clock[r->n_cpu_clocks++];
}

void counters_note_started(uint32_t slot, uint16_t cpu,
			   enum work_outcome outcome)
{
	const struct cpu_clock_here *h = &here[slot];
	struct cpu_clock *c = clock_entry(cpu, 1);
	int faulted = outcome != WORK_RETURNED;

	if (!c)
		return;
	c->starts++;
	c->pin = outcome == WORK_FAULTED ? CPU_PIN_FAULTED
		 : outcome == WORK_TIMED_OUT ? CPU_PIN_TIMED_OUT : h->pin;
	c->fence = faulted ? CPU_FENCE_NOT_RUN : h->fence;
	c->ratio_milli = faulted ? 0 : h->ratio_milli;
	if (faulted)
		c->restored = 0;
	if (!faulted && h->turbo_set_here)
		log_printf("other CPUs: CPU %u: turbo off (IA32_MISC_ENABLE[38] "
			   "set) for package %u, the first of it in\n",
			   cpu - 1u, h->package);
	if (c->ratio_milli)
		log_printf("other CPUs: CPU %u: clock %s, LFENCE %s, "
			   "APERF/MPERF %u/1000\n", cpu - 1u,
			   cpu_pin_state_name(c->pin),
			   cpu_fence_state_name(c->fence), c->ratio_milli);
	else
		log_printf("other CPUs: CPU %u: clock %s, LFENCE %s, %s\n",
			   cpu - 1u, cpu_pin_state_name(c->pin),
			   cpu_fence_state_name(c->fence),
			   counters_ratio_available()
				   ? "APERF or MPERF did not advance here over "
				     "a loop"
				   : "no APERF/MPERF");
}

void counters_note_parked(uint32_t slot, uint16_t cpu, int restored)
{
	const struct cpu_clock_here *h = &here[slot];
	struct cpu_clock *c = clock_entry(cpu, 0);

	if (c && !restored)
		c->restored = 0;
	if (!restored)
		return;
	/* A lost turbo stays lost over the processor's later starts. */
	if (c && h->turbo > c->turbo)
		c->turbo = h->turbo;
	if (h->turbo == CPU_TURBO_LOST)
		log_printf("other CPUs: CPU %u: turbo found on again when put "
			   "back (IA32_MISC_ENABLE[38] clear): its rows since "
			   "its start may have run with turbo\n", cpu - 1u);
	if (h->turbo_cleared)
		log_printf("other CPUs: CPU %u: turbo put back (IA32_MISC_ENABLE"
			   "[38] cleared) for package %u, %s\n", cpu - 1u,
			   h->package, h->turbo_cleared == PMU_HOLD_CLEAR_OWN
					? "its own, narrower than the package "
					  "here"
					: "the last of it out");
}
