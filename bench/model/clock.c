#include "bench/model/clock.h"

#include "arch/lib/fmt.h"
#include "bench/model/names.h"

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

const char *clock_kind_short_unit(unsigned kind)
{
	if (kind == CLOCK_EMULATOR)
		return "an instruction count under Bochs: path length, not "
		       "cycles";
	if (kind == CLOCK_EMULATOR_COARSE)
		return "emulator ticks that skip instructions: round trips "
		       "near the path length, entry and exit not; never cycles";
	return clock_kind_unit(kind);
}

int clock_kind_counts_instructions(unsigned kind)
{
	return kind == CLOCK_ICOUNT || kind == CLOCK_EMULATOR;
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
