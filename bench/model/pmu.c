#include "bench/model/pmu.h"

#include "arch/lib/cpuid_bits.h"
#include "arch/lib/fmt.h"
#include "bench/model/results.h"

void pmu_decode_intel(uint32_t eax, uint32_t edx, struct pmu_intel *p)
{
	*p = (struct pmu_intel){
		.version = (uint8_t)eax,
		.gp_counters = (uint8_t)(eax >> 8),
		.gp_width = (uint8_t)(eax >> 16),
	};
	/* EDX describes the fixed counters from version 2 on. */
	if (p->version >= 2) {
		p->fixed_counters = (uint8_t)(edx & 0x1f);
		p->fixed_width = (uint8_t)(edx >> 5);
	}
}

const char *pmu_intel_fixed_unusable(const struct pmu_intel *p, char *why,
				     size_t cap)
{
	if (p->version == 0) {
		fmt_snprintf(why, cap, "CPUID 0AH reports no architectural PMU");
		return why;
	}
	if (p->version < 2 || p->fixed_counters < 3) {
		fmt_snprintf(why, cap, "the architectural PMU (version %u) has %u "
			     "fixed counters; the cycle figures need 3", p->version,
			     p->fixed_counters);
		return why;
	}
	if (p->fixed_width < 32 || p->fixed_width > 64) {
		fmt_snprintf(why, cap, "CPUID 0AH gives fixed counters %u bits "
			     "wide", p->fixed_width);
		return why;
	}
	return 0;
}

void pmu_decode_amd(uint32_t ext1_ecx, uint32_t ext8_ebx, uint32_t ext22_eax,
		    struct pmu_amd *p)
{
	*p = (struct pmu_amd){
		.core_extension =
			!!(ext1_ecx & CPUID_80000001_ECX_PERFCTR_CORE),
		.irperf = !!(ext8_ebx & CPUID_80000008_EBX_IRPERF),
		.perfmon_v2 = !!(ext22_eax & CPUID_80000022_EAX_PERFMON_V2),
	};
}

uint64_t pmu_delta(uint64_t before, uint64_t after, unsigned width)
{
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;

	return (after - before) & mask;
}

uint32_t pmu_ratio_milli(uint64_t core, uint64_t reference)
{
	unsigned __int128 q;

	if (!reference)
		return 0;
	q = (unsigned __int128)core * 1000u / reference;
	return q > 0xffffffffu ? 0xffffffffu : (uint32_t)q;
}

int pmu_frequency_moved(uint32_t low_milli, uint32_t high_milli)
{
	return low_milli && (uint64_t)(high_milli - low_milli) * 1000u >
				    (uint64_t)low_milli * FREQUENCY_STABLE_PERMILLE;
}

unsigned pmu_intel_turbo_state(uint32_t leaf6_eax, int misc_enable_read,
			       uint64_t misc_enable)
{
	if (misc_enable_read && (misc_enable & PMU_MISC_ENABLE_TURBO_DISABLE))
		return BOOST_OFF;
	return leaf6_eax & CPUID_06_EAX_TURBO ? BOOST_ON : BOOST_ABSENT;
}

enum pmu_pin_path pmu_intel_pin_path(const struct pmu_intel_clock *c,
				     const char **why)
{
	*why = 0;
	/* With HWP on, IA32_PERF_CTL is ignored (SDM vol. 3B §15.4.2). */
	if (c->hwp_on)
		return PIN_PATH_HWP;
	if (!c->eist) {
		*why = "neither HWP on nor EIST (CPUID.1:ECX[7]): the clock is "
		       "not software's to set";
		return PIN_PATH_NONE;
	}
	if (!c->misc_enable_read) {
		*why = "reading IA32_MISC_ENABLE faults: whether EIST is "
		       "enabled (bit 16) is unknown";
		return PIN_PATH_NONE;
	}
	if (!(c->misc_enable & PMU_MISC_ENABLE_EIST)) {
		*why = "EIST is offered but disabled (IA32_MISC_ENABLE[16] "
		       "clear): IA32_PERF_CTL is not acted on";
		return PIN_PATH_NONE;
	}
	return PIN_PATH_PERF_CTL;
}

int pmu_atom_takes_vid(uint32_t family, uint32_t model)
{
	return family == 6 && (model == 0x37 || model == 0x4c);
}

/* The Atom's VID for `ratio`, in whole steps: the lowest ratio's VID
 * plus (ratio - lowest) steps of (highest's VID - lowest's) / (highest
 * - lowest), rounded up, within the two; the turbo VID past the
 * highest. */
static uint32_t atom_vid(const struct pmu_atom_vids *a, uint32_t ratio)
{
	uint32_t low = (uint32_t)(a->ratios >> 8) & 0x7f,
		 high = (uint32_t)(a->ratios >> 16) & 0x7f,
		 vid_low = (uint32_t)(a->vids >> 8) & 0x7f,
		 vid_high = (uint32_t)(a->vids >> 16) & 0x7f;
	uint32_t span, up, vid;

	if (ratio > high)
		return (uint32_t)a->turbo_vids & 0x7f;
	if (ratio <= low || high <= low || vid_high <= vid_low)
		return ratio <= low ? vid_low : vid_high;
	span = high - low;
	up = (ratio - low) * (vid_high - vid_low);
	vid = vid_low + (up + span - 1) / span;
	return vid < vid_high ? vid : vid_high;
}

uint64_t pmu_perf_ctl_request(uint64_t current, uint32_t ratio,
			      const struct pmu_atom_vids *atom)
{
	uint64_t request = (current & ~0xff00ull) | (uint64_t)(ratio & 0xff)
							    << 8;

	if (atom)
		request = (request & ~0xffull) | atom_vid(atom, ratio);
	return request;
}

enum pmu_turbo_step pmu_intel_turbo_step(uint32_t leaf6_eax,
					 uint64_t misc_enable)
{
	if (misc_enable & PMU_MISC_ENABLE_TURBO_DISABLE)
		return TURBO_ALREADY_OFF;
	return leaf6_eax & CPUID_06_EAX_TURBO ? TURBO_TURN_OFF :
						TURBO_NOT_OFFERED;
}

static struct pmu_package_hold *package_hold(struct pmu_package_holds *h,
					     uint32_t package)
{
	uint32_t i;

	for (i = 0; i < h->n; i++)
		if (h->p[i].package == package)
			return &h->p[i];
	if (h->n >= PMU_PACKAGE_HOLDS_MAX)
		return 0;
	h->p[h->n] = (struct pmu_package_hold){ .package = package };
	return &h->p[h->n++];
}

void pmu_package_hold_take(struct pmu_package_holds *h, uint32_t package,
			   int found_set)
{
	struct pmu_package_hold *p = package_hold(h, package);

	if (!p)
		return;
	if (!found_set && p->holders)
		p->narrower = 1;
	if (!found_set && !p->holders)
		p->set_by_a_holder = 1;
	p->holders++;
}

int pmu_package_hold_leave(struct pmu_package_holds *h, uint32_t package,
			   int set_here)
{
	struct pmu_package_hold *p = package_hold(h, package);

	if (!p)
		return set_here ? PMU_HOLD_CLEAR_OWN : PMU_HOLD_KEEP;
	if (p->holders)
		p->holders--;
	if (p->narrower)
		return set_here ? PMU_HOLD_CLEAR_OWN : PMU_HOLD_KEEP;
	if (p->holders || !p->set_by_a_holder)
		return PMU_HOLD_KEEP;
	p->set_by_a_holder = 0;
	return PMU_HOLD_CLEAR_LAST;
}
