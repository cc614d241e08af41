#include "bench/model/probes.h"

#include "arch/lib/fmt.h"
#include "bench/model/stats.h"

const char *probe_pit(uint16_t first, uint16_t second, char *why, size_t cap)
{
	if (first != second)
		return 0;
	fmt_snprintf(why, cap, "the 8254's counter did not move (0x%04x "
		     "twice): its clock is gated, as Skylake and later "
		     "chipsets may do", first);
	return why;
}

const char *probe_hpet(uint64_t capabilities, uint32_t counter_before,
		       uint32_t counter_after, char *why, size_t cap)
{
	uint32_t period = (uint32_t)(capabilities >> 32);

	if (capabilities == ~0ull) {
		fmt_snprintf(why, cap, "the HPET reads all-ones: disabled by the "
			     "firmware, or absent where the ACPI table points");
		return why;
	}
	if (period == 0 || period > HPET_MAX_PERIOD_FS) {
		fmt_snprintf(why, cap, "the HPET's period is %u fs, outside the "
			     "specification's 0 < p <= %u fs", period,
			     HPET_MAX_PERIOD_FS);
		return why;
	}
	if (counter_after == counter_before) {
		fmt_snprintf(why, cap, "the HPET's main counter does not advance "
			     "(0x%08x twice)", counter_before);
		return why;
	}
	return 0;
}

int probe_x2apic_locked(uint64_t arch_capabilities,
			uint64_t xapic_disable_status)
{
	return (arch_capabilities & ARCH_CAP_XAPIC_DISABLE) &&
	       (xapic_disable_status & XAPIC_DISABLE_LEGACY);
}

int probe_remapping_enabled(uint32_t global_status)
{
	return (global_status & VTD_GSTS_IRES) != 0;
}

int probe_gsi_owner(const uint32_t *gsi_base, const uint8_t *pins, unsigned n,
		    uint32_t gsi)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (gsi >= gsi_base[i] && gsi - gsi_base[i] < pins[i])
			return (int)i;
	return -1;
}

static const struct {
	uint8_t model;
	uint32_t good;
} deadline_fixed[] = {
	{ 0x3c, 0x22 },		/* Haswell */
	{ 0x45, 0x20 },		/* Haswell-L */
	{ 0x46, 0x17 },		/* Haswell-G */
	{ 0x3d, 0x25 },		/* Broadwell */
	{ 0x47, 0x17 },		/* Broadwell-G */
	{ 0x4f, 0x0b000020 },	/* Broadwell-X */
	{ 0x4e, 0xb2 },		/* Skylake-L */
	{ 0x5e, 0xb2 },		/* Skylake */
	{ 0x8e, 0x52 },		/* Kaby Lake-L */
	{ 0x9e, 0x52 },		/* Kaby Lake */
};

const char *probe_tsc_deadline(const char *vendor, uint32_t family,
			       uint32_t model, uint32_t microcode, char *why,
			       size_t cap)
{
	size_t i;

	if (vendor[0] != 'G' || family != 6)	/* GenuineIntel */
		return 0;
	for (i = 0; i < sizeof(deadline_fixed) / sizeof(deadline_fixed[0]); i++)
		if (deadline_fixed[i].model == model &&
		    microcode < deadline_fixed[i].good) {
			fmt_snprintf(why, cap, "microcode 0x%x predates 0x%x, the "
				     "first without this model's TSC-deadline "
				     "errata (Linux disables the mode too)",
				     microcode, deadline_fixed[i].good);
			return why;
		}
	return 0;
}

int probe_tsc_cpuid_taken(uint64_t cpuid_hz, int is_16h, uint64_t check_hz,
			  int64_t *off_ppm)
{
	*off_ppm = cpuid_hz ? ppm_difference(cpuid_hz, check_hz) : 0;
	if (!cpuid_hz)
		return 0;
	return !is_16h || !check_hz ||
	       (*off_ppm <= TSC_AGREE_PPM && *off_ppm >= -TSC_AGREE_PPM);
}
