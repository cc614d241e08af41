/* The matrix's axes by name (the lists are arch/matrix.h), and a row's
 * identity: the ids of its source, scheme and variant, never its text.
 * row_name() is the one place a row's name is made; the plan, the
 * handoff decoder and the reports all call it. */
#ifndef IRQLAB_BENCH_MODEL_AXES_H
#define IRQLAB_BENCH_MODEL_AXES_H

#include <stddef.h>
#include <stdint.h>

#include "arch/matrix.h"

/* Each NULL-terminated, indexed by id. variant_names[VARIANT_ABSENT] and
 * selftest_names[SELFTEST_ABSENT] are "". */
extern const char *const scheme_names[];
extern const char *const source_names[];
extern const char *const variant_names[];
extern const char *const apic_mode_names[];
extern const char *const cpu_mode_names[];
extern const char *const selftest_names[];

/* Bounds-checked: "?" for an id no list has. */
const char *scheme_name(unsigned scheme);
const char *source_name(unsigned source);
/* Whether a source's figures cross from one processor to another
 * (docs/controllers.md "The cross-CPU rows"): what they mean then
 * depends on how the emulator schedules its vCPUs. */
int source_between_cpus(unsigned source);
/* Whether its target waits in HLT or MWAIT between samples. */
int source_target_waits(unsigned source);
const char *variant_name(unsigned variant);
const char *cpu_mode_name(unsigned mode);
const char *apic_mode_name(unsigned mode);

enum cpu_mode scheme_cpu_mode(unsigned scheme);
/* The scheme a CPU mode's rows are measured against: direct, or
 * i386-direct in 32-bit protected mode. */
enum scheme_id scheme_floor(enum cpu_mode mode);
/* The catalog: what a scheme or variant is, and its seed threads. */
const char *scheme_words(unsigned scheme);
const char *scheme_seed(unsigned scheme);
const char *variant_words(unsigned variant);
const char *variant_seed(unsigned variant);
enum variant_kind variant_kind_of(unsigned variant);

/* What a row is. Rows differ in at least one field; nothing reads a row
 * back from its name. */
struct row_id {
	uint8_t source;		/* enum source_id */
	uint8_t scheme;		/* enum scheme_id */
	uint8_t variant;	/* enum variant_id, VARIANT_ABSENT for none */
	/* The cache state the row ran in (a CACHE variant id), or
	 * VARIANT_ABSENT for warm; with a variant, "+<variant>+<cache>". */
	uint8_t cache;
	/* The x2APIC pass of a source measured in both APIC modes; its
	 * name ends "@x2apic". */
	uint8_t x2apic_repeat;
	uint8_t selftest;	/* enum selftest_id, SELFTEST_ABSENT for none */
	/* The processor it ran on: 0 the boot CPU; else its MADT index + 1,
	 * for a row run again in the boot CPU's place (docs/cross-cpu.md
	 * "The matrix on another processor"); its name ends "@cpu<index>". */
	uint8_t cpu;
};

/* The most a row's cpu field can name: MADT indices 0-253. */
#define ROW_CPU_MAX 254

/* "int-push-jmp", "int-direct+seg-mov32", "int-push-jmp+cold",
 * "int-direct+ibrs+cold", "lapic-oneshot-direct@x2apic",
 * "int-fred@cpu2", or a self-test's own name. */
void row_name(const struct row_id *id, char *out, size_t cap);
int row_id_eq(const struct row_id *a, const struct row_id *b);
/* Whether every id is one the lists have. */
int row_id_valid(const struct row_id *id);
/* "seg-mov32", "cold", "ibrs+cold", or "" for neither. */
void row_variant_text(const struct row_id *id, char *out, size_t cap);

#endif
