#include "arch/dispatch/variants.h"

#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/dispatch/irq.h"
#include "arch/mitigations.h"

/* variants.S: each handler, its _bare twin without timestamps, and its
 * _counted twin with the counted pass's. */
#define VARIANT_SYMBOLS(id) extern const char id[], id##_bare[], id##_counted[]
VARIANT_SYMBOLS(variant_none);
VARIANT_SYMBOLS(variant_seg_mov32);
VARIANT_SYMBOLS(variant_seg_mov16);
VARIANT_SYMBOLS(variant_seg_conditional);
VARIANT_SYMBOLS(variant_gs_swapgs);
VARIANT_SYMBOLS(variant_gs_wrgsbase);
VARIANT_SYMBOLS(variant_gs_lkgs);
VARIANT_SYMBOLS(variant_gs_selector_near);
VARIANT_SYMBOLS(variant_gs_selector_far);
VARIANT_SYMBOLS(variant_touch);
VARIANT_SYMBOLS(variant_pti_cr3_pcid);
VARIANT_SYMBOLS(variant_pti_cr3);
VARIANT_SYMBOLS(variant_pti_cr3_touch);
VARIANT_SYMBOLS(variant_ibrs);
VARIANT_SYMBOLS(variant_ibpb);
VARIANT_SYMBOLS(variant_verw);
VARIANT_SYMBOLS(variant_bhb_clear_5x5);
VARIANT_SYMBOLS(variant_bhb_clear_12x7);
VARIANT_SYMBOLS(variant_lfence_swapgs);
VARIANT_SYMBOLS(variant_rsb_fill);
VARIANT_SYMBOLS(variant_linux_set);
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

/* Rows by id: their names and words are in VARIANT_LIST (arch/matrix.h). */
#define VARIANT(id_, h) .id = VARIANT_##id_, .handler = { h, h##_bare, h##_counted }
const struct entry_variant entry_variants[] = {
	{ VARIANT(NONE, variant_none) },
	{ VARIANT(SEG_MOV32, variant_seg_mov32) },
	{ VARIANT(SEG_MOV16, variant_seg_mov16) },
	{ VARIANT(SEG_CONDITIONAL, variant_seg_conditional) },
	{ VARIANT(GS_SWAPGS, variant_gs_swapgs) },
	{ VARIANT(GS_WRGSBASE, variant_gs_wrgsbase),
	  .unsupported = no_fsgsbase },
	{ VARIANT(GS_SELECTOR, variant_gs_selector_near) },
	{ VARIANT(GS_LKGS, variant_gs_lkgs), .unsupported = no_lkgs },
	{ VARIANT(GS_SELECTOR_PACKED_COLD, variant_gs_selector_near),
	  .unsupported = no_clflush, .prepare = far_percpu_prepare,
	  .finish = far_percpu_finish, .before_sample = flush_gdt_lines },
	{ VARIANT(GS_SELECTOR_SPREAD_COLD, variant_gs_selector_far),
	  .unsupported = no_clflush, .prepare = far_percpu_prepare,
	  .finish = far_percpu_finish, .before_sample = flush_gdt_lines },
	{ VARIANT(TOUCH, variant_touch) },
	{ VARIANT(PTI_CR3_PCID, variant_pti_cr3_pcid),
	  .unsupported = mitigation_no_pcid, .prepare = pti_pcid_prepare,
	  .finish = mitigations_pti_leave },
	{ VARIANT(PTI_CR3, variant_pti_cr3), .prepare = pti_flush_prepare,
	  .finish = mitigations_pti_leave },
	{ VARIANT(PTI_CR3_TOUCH, variant_pti_cr3_touch),
	  .prepare = pti_flush_prepare, .finish = mitigations_pti_leave,
	  .against = VARIANT_TOUCH },
	{ VARIANT(IBRS, variant_ibrs), .unsupported = mitigation_no_spec_ctrl,
	  .prepare = mitigations_prepare_ibrs,
	  .finish = mitigations_finish_ibrs },
	{ VARIANT(IBPB, variant_ibpb), .unsupported = mitigation_no_ibpb },
	{ VARIANT(VERW, variant_verw) },
	{ VARIANT(BHB_CLEAR_5X5, variant_bhb_clear_5x5) },
	{ VARIANT(BHB_CLEAR_12X7, variant_bhb_clear_12x7) },
	{ VARIANT(LFENCE_SWAPGS, variant_lfence_swapgs),
	  .against = VARIANT_GS_SWAPGS },
	{ VARIANT(RSB_FILL, variant_rsb_fill) },
	{ VARIANT(LINUX, variant_linux_set), .unsupported = linux_unsupported,
	  .prepare = mitigations_linux_prepare,
	  .finish = mitigations_linux_finish, .against = VARIANT_GS_SWAPGS },
};
#undef VARIANT

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
