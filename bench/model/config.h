/* The run configuration: every key \EFI\irqlab\irqlab.cfg on the ESP may
 * set, its default and its bounds, and each key's value as text
 * (bench/model/config_parse.h reads the file).
 *
 * CONFIG_KEYS is the one list of keys: the struct, the defaults, the
 * parser, the handoff and both report writers all walk it, so adding a
 * key is one row here (and its line in image/irqlab.cfg). */
#ifndef IRQLAB_BENCH_MODEL_CONFIG_H
#define IRQLAB_BENCH_MODEL_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "arch/lib/fmt.h"
#include "bench/model/axes.h"

#define CONFIG_MAX_SAMPLES 1000000u
#define CONFIG_MAX_RUNS 10
/* A config file is read whole or refused: one larger than this is not a
 * configuration anyone wrote by hand. */
#define CONFIG_MAX_BYTES 16384

enum finish_action {
	FINISH_SHUTDOWN = 0,	/* QEMU exits; a real machine powers off */
	FINISH_WAIT_KEY = 1,	/* leave the summary on screen until a key */
};

/* How phase B hands the results over (docs/uefi-variables.md, docs/run.md
 * "When the firmware fails"). */
enum handoff_route {
	/* in UEFI variables, for phase C on the next boot */
	HANDOFF_BY_VARIABLES = 0,
	/* the whole blob on COM1 for irqlab-rescue --blob, nothing written
	 * to the variable store, and the machine powers off: for firmware
	 * that offers no SetVariable after ExitBootServices */
	HANDOFF_BY_SERIAL = 1,
};

/* Every name a list key (schemes, sources, variants, apic_modes) may
 * hold: all, or these, and its stored value has bit i set for name i. */
#define CONFIG_ALL 0xffffffffu

/* X(key, default, smallest, largest, choices, list): `choices` names the
 * values of a key set by name (NULL for a number); the value stored is
 * the name's index, or with `list` the set of names as bits
 * (docs/run.md "Choosing what runs"). */
#define CONFIG_KEYS(X)                                                      \
	/* timed samples per experiment */                                   \
	X(samples, 10000, 1, CONFIG_MAX_SAMPLES, NULL, 0)                      \
	/* untimed iterations first */                                       \
	X(warmup, 1000, 0, CONFIG_MAX_SAMPLES, NULL, 0)                        \
	/* back-to-back reads that measure the instrument floor */          \
	X(floor_samples, 1000, 1, CONFIG_MAX_SAMPLES, NULL, 0)                 \
	/* timed blocks of 1024 repetitions per primitive */                \
	X(primitive_blocks, 200, 1, CONFIG_MAX_SAMPLES, NULL, 0)               \
	/* per cold / cold-control experiment */                            \
	X(cold_samples, 1000, 1, CONFIG_MAX_SAMPLES, NULL, 0)                  \
	/* per thrash experiment */                                         \
	X(thrash_samples, 50, 1, CONFIG_MAX_SAMPLES, NULL, 0)                  \
	/* gaps per scheme, gap method */                                   \
	X(gap_samples, 1000, 1, CONFIG_MAX_SAMPLES, NULL, 0)                   \
	/* the whole matrix, repeated across resets */                      \
	X(runs, 1, 1, CONFIG_MAX_RUNS, NULL, 0)                                \
	/* run-to-run spread, in percent, that marks a figure unstable */   \
	X(unstable_pct, 5, 1, 100, NULL, 0)                                    \
	/* vector of the INT n rows: 0-31 are exceptions, 0xff is the      \
	 * APIC's spurious vector */                                        \
	X(int_vector, 0x40, 32, 254, NULL, 0)                                  \
	/* what phase C does once the files are written */                  \
	X(finish, FINISH_WAIT_KEY, 0, 1, config_finish_names, 0)               \
	/* adds rows that raise #UD mid-run, to show an exception fails     \
	 * only its own row */                                              \
	X(selftest_fault, 0, 0, 1, NULL, 0)                                    \
	/* makes int-direct's first batch look disturbed by an SMI, to show \
	 * it is discarded and counted */                                   \
	X(selftest_smi, 0, 0, 1, NULL, 0)                                      \
	/* phase B prints the blob it hands over on COM1 too, which        \
	 * irqlab-rescue --blob turns into the files: for emulators whose  \
	 * reset never reaches phase C (Bochs, docs/emulators.md) */        \
	X(serial_results, 0, 0, 1, NULL, 0)                                \
	/* variables (UEFI variables, phase C writes the files) or serial  \
	 * (the blob on COM1 only, nothing in the store: docs/run.md       \
	 * "Firmware that cannot keep results") */                          \
	X(handoff, HANDOFF_BY_VARIABLES, 0, 1, config_handoff_names, 0)     \
	/* which rows run: lists of names, or all. variants = none runs no \
	 * entry variant and no cache state */                              \
	X(schemes, CONFIG_ALL, 1, CONFIG_ALL, config_scheme_names, 1)       \
	X(sources, CONFIG_ALL, 1, CONFIG_ALL, config_source_names, 1)       \
	X(variants, CONFIG_ALL, 0, CONFIG_ALL, config_variant_names, 1)     \
	X(apic_modes, CONFIG_ALL, 1, CONFIG_ALL, config_apic_mode_names, 1) \
	/* the processors the cross-CPU section takes (docs/cross-cpu.md):  \
	 * auto (every one; the full matrix up to 64, each past them       \
	 * against a few), all (every one; the full matrix up to 128, in    \
	 * parts where it must be), or MADT indices (0-30), the boot CPU    \
	 * always */                                                        \
	X(cpus, 1, 1, CONFIG_ALL, config_cpu_names, 1)                      \
	/* the processors the single-CPU rows run on again, each in the    \
	 * boot CPU's place (docs/cross-cpu.md "The matrix on another      \
	 * processor"): auto (on a hybrid CPU, one of each core type the    \
	 * boot CPU is not), MADT indices (0-30), all, or none */           \
	X(matrix_cpus, 1, 0, CONFIG_ALL, config_cpu_names, 1)               \
	/* which rows they run: core (INT n and the self-IPIs under every  \
	 * scheme) or all (every long-mode row but the 8259's, the gap     \
	 * method's, the self-tests' and those between CPUs) */             \
	X(matrix_cpus_rows, 0, 0, 1, config_matrix_rows_names, 0)           \
	/* a short first look: fewer samples wherever the file sets none */ \
	X(quick, 0, 0, 1, NULL, 0)                                          \
	/* 1 keeps each row's histograms, which may take the run over      \
	 * several resets (docs/uefi-variables.md "Parts"); 0 keeps only   \
	 * the percentiles, in one handoff */                               \
	X(histograms, 1, 0, 1, NULL, 0)                                      \
	/* 1 pins the core clock for the run where the CPU lets irqlab     \
	 * (HWP, PERF_CTL with turbo off, AMD's boost off): docs/timing.md \
	 * "Pinning the frequency"; the reset puts the firmware's back */  \
	X(pin_frequency, 1, 0, 1, NULL, 0)                                   \
	/* the plan row the run starts at: 0, or a row to go on from, such \
	 * as the one a run that did not finish names (docs/run.md "No     \
	 * loop after a hang"); rows before it are not measured */         \
	X(start_row, 0, 0, 65535, NULL, 0)                                  \
	/* the most KiB of records one handoff may write to the variable   \
	 * store: 0 sizes it to the store's free room                      \
	 * (docs/uefi-variables.md "The handoff's size"); 8 to 64 cap it,  \
	 * for a firmware whose flash one would rather spare (more parts) */ \
	X(handoff_kib, 0, 0, 64, NULL, 0)                                   \
	/* conditions of a stranger's PC that no emulator has, made up so   \
	 * their handling can be tested (docs/run.md "Simulated faults"):   \
	 * none, or names from SIMULATE_LIST */                             \
	X(simulate, 0, 0, CONFIG_ALL, config_simulate_names, 1)

/* X(ID, "name"): what `simulate` can make up. Each is reported in the
 * results as simulated, never as found. */
#define SIMULATE_LIST(X)                                                    \
	/* phase B's SetVariable calls get an invalid attribute, so the     \
	 * firmware refuses them */                                         \
	X(SETVARIABLE_ERROR, "setvariable-error")                           \
	/* phase B's SetVariable calls get a non-canonical data pointer,   \
	 * so the firmware faults in them */                                \
	X(SETVARIABLE_FAULT, "setvariable-fault")                           \
	/* ResetSystem is not called, as if it had returned */              \
	X(RESET_RETURNS, "reset-returns")                                   \
	/* the PIT probe sees a counter that never moves (a gated 8254) */  \
	X(PIT_GATED, "pit-gated")                                           \
	/* the x2APIC probe sees the firmware's lock (MSR 0xBD bit 0) */    \
	X(X2APIC_LOCKED, "x2apic-locked")                                   \
	/* INT 2 at each point of the 32-bit trips' mode switches where an  \
	 * NMI could come (docs/protected-mode.md) */                        \
	X(NMI_IN_SWITCH, "nmi-in-switch")                                   \
	/* phase A takes the variable store as one whose layout it cannot  \
	 * read (not edk2's), and makes room blind */                       \
	X(STORE_UNREADABLE, "store-unreadable")                             \
	/* phase B fills the store with variables of a test GUID before    \
	 * it hands over, as other software writing at runtime would */     \
	X(STORE_FILLS, "store-fills")                                      \
	/* the first other processor that sends in the cross-CPU section    \
	 * raises #UD there instead (docs/cross-cpu.md "An AP that faults") */ \
	X(AP_FAULT, "ap-fault")                                             \
	/* phase B tries to start the processors the MADT lists as absent  \
	 * too, as if they were there: none answers, each is named */       \
	X(AP_ABSENT, "ap-absent")                                           \
	/* phase B begins with supervisor shadow stacks on, as firmware    \
	 * that uses CET would leave them (docs/long-mode.md "CET left     \
	 * on"): CR4.CET, IA32_S_CET.SH_STK_EN and a valid SSP */           \
	X(CET_SHADOW_STACK, "cet-shadow-stack")                               \
	/* the "linux" variant runs every step this CPU can run, whatever  \
	 * Linux would take on it, so each site and its set-up runs          \
	 * (docs/mitigations.md "Every step on") */                          \
	X(LINUX_EVERY_STEP, "linux-every-step")                               \
	/* phase A reads the clock controls with turbo turned off          \
	 * (IA32_MISC_ENABLE[38]) where CPUID offers it, as a firmware      \
	 * setup option leaves it, then turns it back on */                 \
	X(TURBO_OFF, "turbo-off")                                           \
	/* phase A reads EFI_RT_PROPERTIES_TABLE as if it left SetVariable  \
	 * out of the services offered after ExitBootServices (a table of  \
	 * every other service where the firmware publishes none) */       \
	X(SETVARIABLE_NOT_OFFERED, "setvariable-not-offered")               \
	/* the first counted pass finds IA32_FIXED_CTR_CTRL (or AMD's       \
	 * PERF_CTL0) cleared after it, as SMM code that stops the         \
	 * counters leaves it (docs/timing.md "Counters the firmware       \
	 * owns") */                                                       \
	X(COUNTERS_TAKEN, "counters-taken")

#define SIMULATE_ID(id, name) SIMULATE_##id,
enum simulate_id { SIMULATE_LIST(SIMULATE_ID) SIMULATE_COUNT };
#undef SIMULATE_ID

struct irqlab_config {
#define CONFIG_FIELD(key, dflt, lo, hi, choices, list) uint32_t key;
	CONFIG_KEYS(CONFIG_FIELD)
#undef CONFIG_FIELD
};

/* One key, as the parser, the handoff and the writers see it. */
struct config_key {
	const char *name;
	size_t offset;		/* of its uint32_t in struct irqlab_config */
	uint32_t dflt, min, max;
	/* max + 1 names, or NULL; a list key's are NULL-terminated */
	const char *const *choices;
	uint8_t list;
};

extern const char *const config_finish_names[];
extern const char *const config_handoff_names[];
extern const char *const config_simulate_names[];
/* The processor keys' names (cpus, matrix_cpus): "auto", then
 * "0".."30": bit 0 is auto, bit k + 1 MADT index k. */
extern const char *const config_cpu_names[];
extern const char *const config_matrix_rows_names[];
/* The names the rows go by, from the lists in arch/matrix.h
 * (bench/run/plan.c matches them). The variants' first name, "none", is
 * their baseline, which `variants = none` does not select: the parser
 * reads that word as the empty list. The APIC modes are the two a row
 * can need. */
#define config_scheme_names scheme_names
#define config_source_names source_names
#define config_variant_names (variant_names + 1)
#define config_apic_mode_names (apic_mode_names + 1)

/* Whether a list key's value holds `name`; under all, every name does,
 * even one this list does not know. */
int config_selects(uint32_t value, const char *const *names,
		   const char *name);
/* CONFIG_KEYS as a table, in its order. */
extern const struct config_key config_keys[];
extern const size_t config_key_count;

/* Whether the config makes up condition `what` (enum simulate_id). */
static inline int config_simulates(const struct irqlab_config *c,
				   enum simulate_id what)
{
	return (c->simulate >> what) & 1;
}

/* Whether the results go to COM1 alone (handoff = serial). */
static inline int config_hands_over_serial(const struct irqlab_config *c)
{
	return c->handoff == HANDOFF_BY_SERIAL;
}

static inline uint32_t config_get(const struct irqlab_config *c,
				  const struct config_key *k)
{
	return *(const uint32_t *)(const void *)((const char *)c + k->offset);
}

static inline void config_set(struct irqlab_config *c,
			      const struct config_key *k, uint32_t v)
{
	*(uint32_t *)(void *)((char *)c + k->offset) = v;
}

void config_defaults(struct irqlab_config *c);

/* "key=value key=value ...", every key, choices by name. */
void config_describe(const struct irqlab_config *c, struct text_buf *tb);

/* A key's value as text: its choice's name, a list's names joined by
 * commas (all, none), or the number; `cap` of CONFIG_VALUE_MAX holds
 * any. */
#define CONFIG_VALUE_MAX 320
const char *config_value_name(const struct config_key *k, uint32_t v,
			      char *buf, size_t cap);

#endif
