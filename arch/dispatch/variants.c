#include "arch/dispatch/variants.h"

#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/yours.h"
#include "arch/mitigations.h"
#include "arch/primitives.h"

/* variants.S: each handler, its _bare twin without timestamps, and its
 * _counted twin with the counted pass's. Two rows may share a handler. */
#define VARIANT_SYMBOLS_ENTRY(h)                                            \
	extern const char variant_##h[], variant_##h##_bare[],              \
		variant_##h##_counted[];
#define VARIANT_SYMBOLS_MITIGATION VARIANT_SYMBOLS_ENTRY
#define VARIANT_SYMBOLS_YOURS(h)                                            \
	VARIANT_SYMBOLS_ENTRY(h)                                            \
	extern const char variant_##h##_checked[], h##_entry_part[],        \
		h##_entry_part_end[], h##_exit_part[], h##_exit_part_end[];
#define VARIANT_SYMBOLS_CACHE(h)
#define VARIANT_SYMBOLS_I386(h)
#define VARIANT_SYMBOLS(id, name, kind, seeds, h, ...) VARIANT_SYMBOLS_##kind(h)
VARIANT_LIST(VARIANT_SYMBOLS)
#undef VARIANT_SYMBOLS

#define CACHE_LINE 64

static void flush(const void *p)
{
	clflush_line(p);
}

static const char *no_clflush(void)
{
	return cpu_has(X86_FEATURE_CLFLUSH) ? 0 :
	       "CPUID.1:EDX[19] (CLFLUSH) is 0";
}

static const char *no_fsgsbase(void)
{
	return read_cr4() & CR4_FSGSBASE ? 0 :
	       "CPUID.(7,0):EBX[0] (FSGSBASE) is 0: wrgsbase would be #UD";
}

static const char *no_lkgs(void)
{
	return cpu_has(X86_FEATURE_LKGS) ? 0 :
	       "CPUID.(7,1):EAX[18] (LKGS) is 0 on this CPU";
}

/* The far per-CPU descriptor lives only while its variants run. */
static void far_percpu_prepare(void) { gdt_set_data(SEL_PERCPU_FAR / 8); }
static void far_percpu_finish(void) { gdt_clear(SEL_PERCPU_FAR / 8); }

/* seed 003: Jeremy Fitzhardinge's hypothesis is that the GS reload costs
 * a GDT cache miss. Both lines go cold before each sample; delivery then
 * reloads the kernel CS descriptor's line, which also holds SEL_PERCPU
 * ("packed") but not SEL_PERCPU_FAR ("spread"). */
static void flush_gdt_lines(void)
{
	flush(gdt_entry(SEL_KERNEL_CS / 8));
	flush(gdt_entry(SEL_PERCPU_FAR / 8));
	mfence();
}

static void pti_pcid_prepare(void) { mitigations_pti_enter(1); }
static void pti_flush_prepare(void) { mitigations_pti_enter(0); }

/* Linux's set needs only what its chosen steps need. */
static const char *linux_unsupported(void)
{
	const char *why = 0;

	if (mitigation_linux_steps & (1u << LINUX_STEP_PTI_PCID))
		why = mitigation_no_pcid();
	if (!why && (mitigation_linux_steps & (1u << LINUX_STEP_IBRS)))
		why = mitigation_no_spec_ctrl();
	if (!why && (mitigation_linux_steps & (1u << LINUX_STEP_IBPB)))
		why = mitigation_no_ibpb();
	return why;
}

/* A file of `make ENTRY=...` starts on the user page table, as the
 * interrupted user code of Linux's PTI would, with GS.base and
 * KERNEL_GS_BASE both at its scratch area, so that a swapgs finds it
 * either way (docs/your-entry.md "What the parts may use"). One area
 * serves the processor that runs the row: rows run one at a time. */
struct yours_stack yours_stack;
_Static_assert(__builtin_offsetof(struct yours_stack, after_entry) ==
		       YOURS_STACK_AFTER_ENTRY &&
	       __builtin_offsetof(struct yours_stack, before_exit) ==
		       YOURS_STACK_BEFORE_EXIT &&
	       __builtin_offsetof(struct yours_stack, after_exit) ==
		       YOURS_STACK_AFTER_EXIT,
	       "struct yours_stack is arch/dispatch/yours.h's layout");
static uint8_t yours_scratch[YOUR_SCRATCH_BYTES]
	__attribute__((aligned(64)));
static uint64_t yours_saved_gs_base, yours_saved_kernel_gs_base;

/* Without ENTRY no row takes these. */

static __attribute__((unused)) void yours_prepare(void)
{
	unsigned i;

	for (i = 0; i < sizeof(yours_scratch); i++)
		yours_scratch[i] = 0;
	yours_saved_gs_base = rdmsr(MSR_GS_BASE);
	yours_saved_kernel_gs_base = rdmsr(MSR_KERNEL_GS_BASE);
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)yours_scratch);
	wrmsr(MSR_KERNEL_GS_BASE, (uint64_t)(uintptr_t)yours_scratch);
	mitigations_pti_enter(0);
}

static __attribute__((unused)) void yours_finish(void)
{
	mitigations_pti_leave();
	wrmsr(MSR_GS_BASE, yours_saved_gs_base);
	wrmsr(MSR_KERNEL_GS_BASE, yours_saved_kernel_gs_base);
}

/* What a row needs around its samples, by SETUP in VARIANT_LIST. */
#define SETUP_PLAIN
#define SETUP_FSGSBASE .unsupported = no_fsgsbase,
#define SETUP_LKGS .unsupported = no_lkgs,
#define SETUP_GDT_COLD                                                      \
	.unsupported = no_clflush, .prepare = far_percpu_prepare,           \
	.finish = far_percpu_finish, .before_sample = flush_gdt_lines,
#define SETUP_PTI_PCID                                                      \
	.unsupported = mitigation_no_pcid, .prepare = pti_pcid_prepare,     \
	.finish = mitigations_pti_leave,
#define SETUP_PTI_FLUSH                                                     \
	.prepare = pti_flush_prepare, .finish = mitigations_pti_leave,
#define SETUP_IBRS                                                          \
	.unsupported = mitigation_no_spec_ctrl,                             \
	.prepare = mitigations_prepare_ibrs,                                \
	.finish = mitigations_finish_ibrs,
#define SETUP_IBPB .unsupported = mitigation_no_ibpb,
#define SETUP_YOURS .prepare = yours_prepare, .finish = yours_finish,
#define SETUP_LINUX                                                         \
	.unsupported = linux_unsupported,                                   \
	.prepare = mitigations_linux_prepare,                               \
	.finish = mitigations_linux_finish,

/* The ENTRY and MITIGATION rows of VARIANT_LIST (arch/matrix.h), in its
 * order: their names and words are there. */
#define VARIANT_ROW_ENTRY(id_, h, setup, against_)                          \
	{ .id = VARIANT_##id_,                                              \
	  .handler = { variant_##h, variant_##h##_bare,                     \
		       variant_##h##_counted },                             \
	  SETUP_##setup .against = VARIANT_##against_ },
#define VARIANT_ROW_MITIGATION VARIANT_ROW_ENTRY
#define VARIANT_ROW_YOURS(id_, h, setup, against_)                          \
	{ .id = VARIANT_##id_,                                              \
	  .handler = { variant_##h, variant_##h##_bare,                     \
		       variant_##h##_counted },                             \
	  .checked = variant_##h##_checked,                                 \
	  .entry_part = { h##_entry_part, h##_entry_part_end },             \
	  .exit_part = { h##_exit_part, h##_exit_part_end },                \
	  SETUP_##setup },
#define VARIANT_ROW_CACHE(id_, h, setup, against_)
#define VARIANT_ROW_I386(id_, h, setup, against_)
#define VARIANT_ROW(id_, name, kind, seeds, h, setup, against_, ...)        \
	VARIANT_ROW_##kind(id_, h, setup, against_)
const struct entry_variant entry_variants[] = { VARIANT_LIST(VARIANT_ROW) };
#undef VARIANT_ROW

const size_t entry_variant_count =
	sizeof(entry_variants) / sizeof(entry_variants[0]);

void cache_target_for(const struct dispatch_scheme *s, uint8_t vector,
		      enum handler_kind kind, struct cache_target *t)
{
	const struct scheme_code *code = &s->code[kind];
	/* fred has no gates: every event takes its one entry. */
	const char *target = code->gates ?
		(const char *)(uintptr_t)code->gates[vector - FIRST_IRQ_VECTOR] :
		code->code_start;
	uint16_t sel = s->selector ? s->selector(vector) : SEL_KERNEL_CS;

	t->idt_line = idt_gate_entry(vector);
	/* pf-cr2's gates point into an unmapped page: its code is the #PF
	 * entry at the start of the scheme's code. */
	t->code_line = target >= code->code_start && target < code->code_end ?
			       target : code->code_start;
	t->gdt_line = gdt_entry(sel / 8);
}

void cache_target_for_variant(const struct entry_variant *v,
			      enum handler_kind kind, struct cache_target *t)
{
	t->idt_line = idt_gate_entry(VARIANT_VECTOR);
	t->code_line = v->handler[kind];
	t->gdt_line = gdt_entry(SEL_KERNEL_CS / 8);
}

static uint8_t control_line[CACHE_LINE] __attribute__((aligned(CACHE_LINE)));
static uint8_t *thrash_buffer;
static uint64_t thrash_bytes;

void cache_set_thrash_buffer(uint8_t *buffer, uint64_t bytes)
{
	thrash_buffer = buffer;
	thrash_bytes = bytes;
}

/* seed 000, Ingo Molnar: stubs cost cache footprint. Flush exactly what
 * delivery will touch: the gate, the code it reaches, its descriptor. */
static void cold(const struct cache_target *t)
{
	flush(t->idt_line);
	flush(t->code_line);
	flush(t->gdt_line);
	mfence();
}

/* The control for "cold": the same flushes' cost, on a line delivery
 * never touches. */
static void cold_control(const struct cache_target *t)
{
	(void)t;
	flush(control_line);
	flush(control_line);
	flush(control_line);
	mfence();
}

/* Everything evicted: write one byte per line of a buffer twice the
 * last-level cache. */
static void thrash(const struct cache_target *t)
{
	volatile uint8_t *p = thrash_buffer;
	uint64_t i;

	(void)t;
	for (i = 0; i < thrash_bytes; i += CACHE_LINE)
		p[i]++;
	mfence();
}

static const char *no_thrash_buffer(void)
{
	return thrash_buffer ? 0 : "no buffer larger than the last-level cache";
}

const struct cache_state cache_states[] = {
	{ .id = VARIANT_COLD, .unsupported = no_clflush, .before_sample = cold },
	{ .id = VARIANT_COLD_CONTROL, .unsupported = no_clflush,
	  .before_sample = cold_control },
	{ .id = VARIANT_THRASH, .unsupported = no_thrash_buffer,
	  .before_sample = thrash, .heavy = 1 },
};

const size_t cache_state_count = sizeof(cache_states) / sizeof(cache_states[0]);
