/* The TSC as this run's clock: what one delta means on it, decided from
 * what identifies the platform, and how its frequency was found. Every
 * figure of a run is read in the unit its clock kind names. Plain C
 * only. */
#ifndef IRQLAB_BENCH_MODEL_CLOCK_H
#define IRQLAB_BENCH_MODEL_CLOCK_H

/* What one TSC delta means on this run (docs/run.md). */
enum clock_kind {
	CLOCK_TSC_TICKS = 0, /* hardware or KVM: real TSC ticks */
	CLOCK_ICOUNT = 1,    /* QEMU -icount shift=0: one tick per instruction */
	CLOCK_TCG_NOISE = 2, /* plain TCG: host time, never cycles */
	CLOCK_EMULATOR = 3,  /* another emulator (Bochs): its TSC counts
			      * every instruction, never cycles */
	CLOCK_EMULATOR_COARSE = 4, /* the same emulator, whose TSC does not
				    * count every instruction (Bochs with
				    * handler chaining, docs/emulators.md) */
	CLOCK_KIND_COUNT
};

/* What a TSC delta means, from what identifies the platform: the CPUID
 * hypervisor signature, the ACPI OEM ID, and whether 1024 more NOPs read
 * exactly 1024 more ticks, every time (`tsc_counts_instructions`). */
enum clock_kind clock_kind_decide(const char *hypervisor,
				  const char *acpi_oem_id,
				  int tsc_counts_instructions);

/* The kind's name in results.json, and the unit its figures are in, as
 * the reports say it. */
const char *clock_kind_name(unsigned kind);
const char *clock_kind_unit(unsigned kind);
/* The unit in at most 120 characters, for the end screen's two lines:
 * clock_kind_unit's own words where they fit, else the same said short. */
const char *clock_kind_short_unit(unsigned kind);
/* Whether one tick is one instruction: QEMU -icount, an exact-count
 * emulator. */
int clock_kind_counts_instructions(unsigned kind);

/* How the TSC frequency was found (docs/timing.md). */
enum tsc_method {
	TSC_METHOD_CPUID_15H = 0,
	TSC_METHOD_CPUID_16H = 1,
	TSC_METHOD_PM_TIMER = 2,
	TSC_METHOD_STALL = 3,
	TSC_METHOD_COUNT
};
const char *tsc_method_name(unsigned method);

#endif
