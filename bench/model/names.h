/* The states and kinds a run's results hold (bench/model/results.h), each
 * enum beside the function that names its values: the names are what
 * results.json and summary.txt print, so a new value is a line in the
 * enum and a line in its table (names.c). Plain C only. */
#ifndef IRQLAB_BENCH_MODEL_NAMES_H
#define IRQLAB_BENCH_MODEL_NAMES_H

#include <stddef.h>

/* names[i], or "unknown" for a value past the table's end, so that no
 * value, however it came, reads outside a table. */
const char *name_or_unknown(const char *const *names, unsigned count,
			    unsigned i);

/* How a row, a primitive, a gap row or a cross-CPU row ended. */
enum exp_status {
	EXP_OK = 0,
	EXP_SKIPPED = 1,
	EXP_FAILED = 2,
	EXP_TIMEOUT = 3,
	EXP_STATUS_COUNT
};
const char *exp_status_name(unsigned status);

/* docs/reading.md "Reading the figures" says where each timestamp sits. */
enum metric_id {
	METRIC_ENTRY = 0,      /* trigger -> handler's entry timestamp */
	METRIC_EXIT = 1,       /* handler's exit timestamp -> resumed code */
	METRIC_ROUND_TRIP = 2, /* trigger -> resumed code, through handlers
				* that take no timestamps */
	METRIC_ROUND_TRIP_TIMED = 3, /* the same through the handlers that
				      * take the entry and exit timestamps */
	METRIC_COUNT
};
const char *metric_name(unsigned metric);

/* What moves the core clock against the TSC (docs/timing.md "TSC ticks
 * are not cycles"): turbo (Intel) or core performance boost (AMD), and
 * hardware P-states (struct machine_info's boost and hwp). */
enum boost_state {
	BOOST_UNKNOWN = 0,
	BOOST_ABSENT,	/* CPUID offers no turbo / core performance boost */
	BOOST_ON,
	BOOST_OFF,	/* offered, and turned off (MISC_ENABLE[38], HWCR[25]) */
	BOOST_STATE_COUNT,
};
enum hwp_state {
	HWP_ABSENT = 0,
	HWP_OFF,	/* offered, IA32_PM_ENABLE clear */
	HWP_ON,
	HWP_STATE_COUNT,
};
const char *boost_state_name(unsigned state);
const char *hwp_state_name(unsigned state);

/* A hybrid CPU's core type, CPUID.1AH:EAX[31:24] (SDM vol. 2A):
 * "not-hybrid" for 0, "atom", "core", or the hex byte, in `buf`. */
const char *core_type_name(unsigned type, char *buf, size_t cap);

/* X(ID, "name"): what irqlab found of the machine beyond the rows, each
 * probed before the rows that depend on it (docs/controllers.md
 * "Probes"). */
#define PROBE_LIST(X)                                                       \
	X(RUNTIME, "runtime-services")                                      \
	X(TSC_FREQUENCY, "tsc-frequency")                                   \
	X(OTHER_CPUS, "other-cpus")                                         \
	X(CET, "cet")                                                       \
	X(THRASH_BUFFER, "thrash-buffer")                                   \
	X(PAGE_TABLES, "page-tables")                                       \
	X(PIT, "pit")                                                       \
	X(HPET, "hpet")                                                     \
	X(IOAPICS, "ioapics")                                               \
	X(REMAPPING, "interrupt-remapping")                                 \
	X(X2APIC_LOCK, "x2apic-lock")                                       \
	X(CMCI, "cmci")                                                     \
	X(TSC_DEADLINE, "tsc-deadline")                                     \
	X(SMI_COUNT, "smi-count")                                           \
	X(COUNTERS, "performance-counters")                                 \
	X(COUNTERS_FOUND, "counters-found")                                 \
	X(APERF_MPERF, "aperf-mperf")                                       \
	X(FREQUENCY_PIN, "frequency-pin")                                   \
	X(MITIGATIONS, "mitigations")

#define PROBE_ID(id, name) PROBE_##id,
enum probe_id { PROBE_LIST(PROBE_ID) PROBE_COUNT };
#undef PROBE_ID

/* What a platform probe found (struct probe_result's state). */
enum probe_state {
	PROBE_NOT_RUN = 0,
	PROBE_OK,		/* as irqlab needs it */
	PROBE_QUIRK,		/* found and worked around, or its rows skipped */
	PROBE_ABSENT,		/* not on this machine */
	PROBE_SIMULATED,	/* made up by the config's simulate */
	PROBE_STATE_COUNT,
};

/* A platform probe's name in PROBE_LIST, the key results.json files its
 * finding under. */
const char *platform_probe_name(unsigned id);
const char *probe_state_name(unsigned state);

/* How the machine comes back to irqlab after its resets. A stick is
 * mostly booted once, from the firmware's boot menu; BootNext, used for
 * one boot only, set to BootCurrent brings the reset back to the same
 * option without touching BootOrder (UEFI spec §3.1.2, §3.3). */
enum boot_return {
	BOOT_RETURN_BOOT_NEXT = 0,	/* BootNext = BootCurrent */
	BOOT_RETURN_NO_BOOT_CURRENT,	/* the firmware did not say: the
					 * stick must be booted again */
	BOOT_RETURN_REFUSED,	/* SetVariable refused BootNext */
	BOOT_RETURN_NOT_ASKED,	/* handoff = serial: no next boot to come
				 * back to, BootNext not written */
	BOOT_RETURN_COUNT,
};
const char *boot_return_name(unsigned how);

/* The cross-CPU section (docs/cross-cpu.md): rows between processors,
 * not under a scheme. X(ID, "name", "what it times"). */
#define CROSS_KIND_LIST(X)                                                  \
	X(ACK, "ipi-ack", "from the sender's ICR write until it sees the "    \
	  "target's handler's acknowledgement in memory")                    \
	X(ONE_WAY, "ipi-oneway", "from the sender's TSC before its ICR "      \
	  "write to the target's TSC in its handler, corrected by the "       \
	  "measured offset of the two TSCs")                                  \
	X(BROADCAST_ACK, "ipi-broadcast-ack", "one IPI to all but the "       \
	  "sender (shorthand 11b) until every target acknowledged")           \
	X(UNICAST_ACK_EACH, "ipi-unicast-ack-each", "a fixed IPI to each "    \
	  "target in turn, as Linux sends to a cpumask, until every one "     \
	  "acknowledged")
#define CROSS_KIND_ID(id, name, what) CROSS_##id,
enum cross_kind { CROSS_KIND_LIST(CROSS_KIND_ID) CROSS_KIND_COUNT };
#undef CROSS_KIND_ID

const char *cross_kind_name(unsigned kind);
/* The list's sentence of what a kind times, for the reports. */
const char *cross_kind_what(unsigned kind);

/* Why a pair of the matrix between CPUs has no figure of a kind
 * (struct matrix_cell, docs/cross-cpu.md "The matrix"): a reason a
 * cell keeps in one byte, as a row keeps its sentence. X(ID, "why"). */
#define CELL_WHY_LIST(X)                                                    \
	X(NONE, "", "")                                                     \
	X(FAULTED, "faulted", "a processor of the pair raised an "          \
	  "exception and parked itself")                                    \
	X(UNREACHABLE, "unreachable", "an APIC ID of the pair is past "     \
	  "254, which xAPIC mode's 8-bit destination cannot name")          \
	X(NO_COMMAND, "no-command", "a processor of the pair did not take " \
	  "the command to run")                                             \
	X(UNFINISHED, "unfinished", "the sender did not finish its "        \
	  "samples")                                                        \
	X(LOST, "lost", "an acknowledgement was lost, none within the "     \
	  "late bound")                                                     \
	X(NOT_INVARIANT, "not-invariant", "CPUID.80000007H:EDX[8] "         \
	  "(invariant TSC) is 0: the two TSCs need not tick together")      \
	X(OFFSET_UNMEASURED, "offset-unmeasured", "the TSC offset was not " \
	  "measured")                                                       \
	X(OFFSET_APART, "offset-apart", "the two TSCs moved apart while "   \
	  "their offset was measured")                                      \
	X(OFFSET_WIDE, "offset-wide", "the TSC offset is known to over "    \
	  "250/1000 of the one-way median")                                 \
	X(CLAMPED, "clamped", "the offset's correction took some arrivals " \
	  "before their sending")
#define CELL_WHY_ID(id, name, why) CELL_WHY_##id,
enum cell_why { CELL_WHY_LIST(CELL_WHY_ID) CELL_WHY_COUNT };
#undef CELL_WHY_ID

/* A reason's short name (results.json's cells) and its sentence. */
const char *cell_why_name(unsigned why);
const char *cell_why_text(unsigned why);

/* How a processor's clock pin went (struct cpu_clock's pin). */
enum cpu_pin_state {
	CPU_PIN_NOT_RUN = 0,
	CPU_PIN_PINNED,
	/* Not pinned for the boot CPU's reason (its frequency-pin probe),
	 * pin_frequency = 0 included. */
	CPU_PIN_AS_BOOT,
	/* EIST offered, but this processor's IA32_MISC_ENABLE[16] is clear:
	 * IA32_PERF_CTL is not acted on there. */
	CPU_PIN_EIST_DISABLED,
	/* HWP on for the boot CPU, but this processor's IA32_PM_ENABLE is
	 * clear (the package's: SDM vol. 3B §15.4.2): no request to pin. */
	CPU_PIN_HWP_OFF,
	/* An exception while it was pinned: it parked itself. */
	CPU_PIN_FAULTED,
	/* The pin did not return within a second: it may still finish, so
	 * nothing is put back (a restore could race it). */
	CPU_PIN_TIMED_OUT,
	CPU_PIN_STATE_COUNT,
};
/* How LFENCE is known to serialise dispatch there (struct cpu_clock's
 * fence). */
enum cpu_fence_state {
	CPU_FENCE_NOT_RUN = 0,
	/* Intel's, or CPUID 8000_0021H:EAX[2]: as on the boot CPU. */
	CPU_FENCE_ARCHITECTURAL,
	CPU_FENCE_DE_CFG,	/* AMD DE_CFG[1] set and read back on it */
	CPU_FENCE_IN_ORDER,	/* QEMU's TCG: one instruction after another */
	CPU_FENCE_UNCONFIRMED,
	CPU_FENCE_STATE_COUNT,
};
/* Turbo off on it, IA32_MISC_ENABLE[38] (struct cpu_clock's turbo):
 * not asked of it (the boot CPU did not turn turbo off), still off when
 * its pin was put back, or found on again then: its package's bit
 * cleared while it measured (docs/timing.md "Pinning the frequency"). */
enum cpu_turbo_state {
	CPU_TURBO_NOT_HELD = 0,
	CPU_TURBO_HELD,
	CPU_TURBO_LOST,
	CPU_TURBO_STATE_COUNT,
};
const char *cpu_pin_state_name(unsigned state);
const char *cpu_turbo_state_name(unsigned state);
const char *cpu_fence_state_name(unsigned state);

/* Whether the counted pass ran (docs/timing.md "Core cycles"). Where
 * it ran under an emulator the counts are its own, a cycle an
 * instruction step, and they never lead (report_leads_with_cycles). */
enum counted_state {
	COUNTED_NOT_RUN = 0,
	COUNTED_MEASURED,
	COUNTED_STATE_COUNT
};
const char *counted_state_name(unsigned state);

#endif
