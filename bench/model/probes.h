/* What the platform probes' register readings mean (docs/controllers.md
 * "Probes"): pure judgements, so they are tested on recorded values. The
 * readings are taken in bench/run and apic/. */
#ifndef IRQLAB_BENCH_MODEL_PROBES_H
#define IRQLAB_BENCH_MODEL_PROBES_H

#include <stddef.h>
#include <stdint.h>

/* The 8254's channel 0 counter, latched twice some microseconds apart
 * while it counts down from 0xFFFF. NULL when it moved; else why the PIT
 * rows cannot run, in `why`: since Skylake, Intel chipsets can gate the PIT's
 * clock, and Linux then skips it (arch/x86/kernel/apic/apic.c). */
const char *probe_pit(uint16_t first, uint16_t second, char *why, size_t cap);

/* The HPET's general capabilities (IA-PC HPET 1.0a §2.3.4) and its main
 * counter read twice some microseconds apart. NULL when the timer block
 * is usable: not all-ones (absent or disabled), a period in the
 * specification's range (0 < p <= 100 ns), counting. Else why not, in
 * `why`. */
#define HPET_MAX_PERIOD_FS 100000000u
const char *probe_hpet(uint64_t capabilities, uint32_t counter_before,
		       uint32_t counter_after, char *why, size_t cap);

/* Whether the firmware locked the local APIC in x2APIC mode, as Linux
 * reads it (x2apic_hw_locked): IA32_ARCH_CAPABILITIES (0x10A) bit 21
 * says IA32_XAPIC_DISABLE_STATUS (0xBD) exists, and its bit 0 says
 * legacy xAPIC is disabled. */
#define ARCH_CAP_XAPIC_DISABLE (1ull << 21)
#define XAPIC_DISABLE_LEGACY (1ull << 0)
int probe_x2apic_locked(uint64_t arch_capabilities,
			uint64_t xapic_disable_status);

/* A VT-d unit's Global Status register (VT-d spec §11.4.5): interrupt
 * remapping enabled (IRES, bit 25). Then an IO-APIC entry must be in
 * the remappable format, which irqlab does not write. */
#define VTD_GSTS_REGISTER 0x1c
#define VTD_GSTS_IRES (1u << 25)
int probe_remapping_enabled(uint32_t global_status);

/* Which of `n` IO-APICs, with these first GSIs and input counts, takes
 * `gsi`; -1 for none. */
int probe_gsi_owner(const uint32_t *gsi_base, const uint8_t *pins, unsigned n,
		    uint32_t gsi);

/* Whether the TSC-deadline timer may be trusted with this microcode:
 * Intel parts whose early microcode had TSC-deadline errata, with the
 * first good revision, as Linux lists them (apic_check_deadline_errata).
 * NULL when it may; else why not, in `why`. Parts whose good revision
 * depends on the stepping (Haswell-X, Broadwell-D, Skylake-X) are not
 * carried: they pass. */
const char *probe_tsc_deadline(const char *vendor, uint32_t family,
			       uint32_t model, uint32_t microcode, char *why,
			       size_t cap);

/* Whether CPUID's TSC frequency is taken over the timer's calibration:
 * 15H's (the crystal's exact ratio) always; 16H's (the nominal base
 * frequency, which need not be the TSC's) only within TSC_AGREE_PPM of
 * the calibration, or without one. `off_ppm` gets the difference. */
#define TSC_AGREE_PPM 5000
int probe_tsc_cpuid_taken(uint64_t cpuid_hz, int is_16h, uint64_t check_hz,
			  int64_t *off_ppm);

#endif
