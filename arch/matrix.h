/* The axes of the matrix (docs/measures.md): every dispatch
 * scheme, interrupt source, entry variant or cache state, primitive,
 * APIC mode, CPU mode and self-test, each listed once, here. The enums
 * below, the config's names, the catalog's words and every row's name
 * (bench/model/axes.h) are made from these lists, so adding a scheme, a
 * source, a variant or a primitive is one entry here plus its code
 * (docs/layout.md "Where a change lands"); the tables that run them name their
 * rows by id (arch/dispatch/schemes.c, arch/dispatch/i386.c,
 * bench/run/sources.c) or are made from the lists
 * (arch/dispatch/variants.c, arch/primitives.c, bench/run/sequences.c).
 * Plain C without code: the host-built floors include it too. */
#ifndef IRQLAB_ARCH_MATRIX_H
#define IRQLAB_ARCH_MATRIX_H

/* X(ID, "name", CPU mode, "seed threads", "what it is"). The first of
 * each CPU mode is the floor its rows are measured against. */
#define SCHEME_LIST(X)                                                      \
	X(DIRECT, "direct", LONG, "-",                                      \
	  "a dedicated handler per vector; the vector is an immediate "      \
	  "(the lower bound)")                                              \
	X(PUSH_JMP, "push-jmp", LONG, "000 001",                            \
	  "push imm8; jmp common, 8 bytes a vector (Linux)")                \
	X(PUSH_JMP_IBT, "push-jmp-ibt", LONG, "-",                          \
	  "endbr64; push imm8; jmp common, 16 bytes a vector (Linux with "   \
	  "IBT)")                                                           \
	X(COMPACT, "compact", LONG, "001",                                  \
	  "7 stubs per 32-byte chunk, short jumps to one long jump (Linux "  \
	  "2.6.29)")                                                        \
	X(CALL, "call", LONG, "001",                                        \
	  "call rel32 stubs, 5 bytes padded to 8; vector from the return "   \
	  "address")                                                        \
	X(CS_SELECTOR, "cs-selector", LONG, "000 001",                      \
	  "no stubs: a code descriptor per vector, vector read from %cs")   \
	X(PF_CR2, "pf-cr2", LONG, "001",                                    \
	  "gates into a not-present page; #PF decodes the vector from RIP") \
	X(INT3_BYTE, "int3-byte", LONG, "001",                              \
	  "CC xx stubs; #BP reads the vector byte and unwinds to the "      \
	  "interrupt frame")                                                \
	X(GATE, "gate", LONG, "-",                                          \
	  "the gate's own floor: per vector a count, the source's EOI and "  \
	  "iretq; no saves, no C (the least an interrupt costs)")           \
	X(FRED, "fred", LONG, "-", "FRED event delivery (CR4.FRED, ERETS)") \
	X(FRED_LINUX, "fred-linux", LONG, "-",                              \
	  "fred with what Linux's FRED entry adds on this CPU: VERW before "  \
	  "ERETS where the rule takes it")                                  \
	X(CALL16, "call16", LONG, "001",                                    \
	  "hpa's 4- and 3-byte 66 E8 call stubs (i386 only: see the "        \
	  "i386-call16 rows)")                                              \
	/* The i386 schemes, run in 32-bit protected mode                  \
	 * (docs/protected-mode.md). */                                     \
	X(I386_DIRECT, "i386-direct", PROTECTED_32, "-",                    \
	  "i386: a dedicated handler per vector (the i386 rows' lower "      \
	  "bound)")                                                         \
	X(I386_PUSH_JMP, "i386-push-jmp", PROTECTED_32, "000 001",          \
	  "i386: pushl $~vector; jmp common_interrupt, 7 or 10 bytes "       \
	  "(Linux 2008)")                                                   \
	X(I386_CS_SELECTOR, "i386-cs-selector", PROTECTED_32, "000 001",    \
	  "i386: a code descriptor per vector, ~vector derived from %cs in " \
	  "8 instructions (van Heukelum)")                                  \
	X(I386_CS_SELECTOR_PUSH_CS, "i386-cs-selector-push-cs",            \
	  PROTECTED_32, "000 001",                                          \
	  "i386: a code descriptor per vector, just push %cs")              \
	X(I386_CALL16, "i386-call16", PROTECTED_32, "001",                  \
	  "i386: hpa's 4-byte 66 E8 rel16 stubs, vector from the 16-bit "    \
	  "return IP")                                                      \
	X(I386_CALL16_3BYTE, "i386-call16-3byte", PROTECTED_32, "001",      \
	  "i386: hpa's overlapped 3-byte stubs, 66 e8 ff 66 e8 fc ...")

/* X(ID, "name"), in the order the plan takes them (bench/run/plan.c). */
#define SOURCE_LIST(X)                                                      \
	X(INT, "int")                                                       \
	X(IPI_SELF_XAPIC, "ipi-self-xapic")                                 \
	X(IPI_SELF_X2APIC_SELFIPI, "ipi-self-x2apic-selfipi")               \
	X(IPI_SELF_X2APIC_ICR, "ipi-self-x2apic-icr")                       \
	X(LAPIC_ONESHOT, "lapic-oneshot")                                   \
	X(LAPIC_PERIODIC, "lapic-periodic")                                 \
	X(LAPIC_TSCDEADLINE, "lapic-tscdeadline")                           \
	X(IOAPIC_EDGE, "ioapic-edge")                                       \
	/* seed 004's register-access strategies; "-nf": without the read  \
	 * that flushes posted writes */                                    \
	X(IOAPIC_LEVEL, "ioapic-level")                                     \
	X(IOAPIC_LEVEL_UNCACHED_NF, "ioapic-level-uncached-nf")             \
	X(IOAPIC_LEVEL_INDEX_CACHED, "ioapic-level-index-cached")           \
	X(IOAPIC_LEVEL_INDEX_CACHED_NF, "ioapic-level-index-cached-nf")     \
	X(IOAPIC_LEVEL_VALUE_CACHED, "ioapic-level-value-cached")           \
	X(IOAPIC_LEVEL_VALUE_CACHED_NF, "ioapic-level-value-cached-nf")     \
	X(PIC8259, "pic8259")                                               \
	/* between processors (docs/controllers.md "The cross-CPU rows"): a \
	 * fixed IPI to the closest other CPU, spinning, halted or in       \
	 * MWAIT, whose handler sends one back */                           \
	X(IPI_CPU_ROUNDTRIP, "ipi-cpu-roundtrip")                           \
	X(IPI_CPU_ROUNDTRIP_HALTED, "ipi-cpu-roundtrip-halted")             \
	X(IPI_CPU_ROUNDTRIP_MWAIT, "ipi-cpu-roundtrip-mwait")               \
	/* the same sent as an NMI, taken on the target's IST stack */      \
	X(IPI_CPU_NMI, "ipi-cpu-nmi")

/* X(ID, "name", KIND, "seed threads", handler, SETUP, AGAINST, LINUX,
 * "what it is"). KIND ENTRY: a handler of its own for INT n under
 * direct, NONE first as their baseline; MITIGATION: an entry variant
 * that is a mitigation's sequence (docs/mitigations.md); CACHE: a cache
 * state, run before every sample of any scheme (the table of
 * arch/dispatch/variants.c); I386: i386-direct's own entry variants
 * (i386.c). For ENTRY and MITIGATION, the row arch/dispatch/variants.c
 * makes from this entry: handler, its code variant_<handler> in
 * arch/dispatch/variants.S; SETUP, what it needs around its samples
 * there (PLAIN: nothing); AGAINST, the variant its figures are measured
 * against (ABSENT: none). LINUX: the decision of Linux's rule the row
 * answers to (LINUX_CHOICE_LIST, bench/model/mitigations.h), NONE for a
 * variant that answers to none. The others take NO_HANDLER, PLAIN,
 * ABSENT and NONE. YOURS: a file of `make ENTRY=...` (yours_list.h,
 * written by image/your-entry.py; none without ENTRY), run like an
 * ENTRY variant on every source a variant can take. */
#if defined(__has_include)
#if __has_include("yours_list.h")
#include "yours_list.h"
#endif
#endif
#ifndef YOURS_LIST
#define YOURS_LIST(X)
#endif
#define VARIANT_LIST(X)                                                     \
	X(NONE, "none", ENTRY, "-", none, PLAIN, ABSENT, NONE,              \
	  "the dedicated handler alone (baseline)")                         \
	X(SEG_MOV32, "seg-mov32", ENTRY, "002", seg_mov32, PLAIN, ABSENT,   \
	  NONE, "reload DS and ES with movl $SEL,%eax (FreeBSD)")           \
	X(SEG_MOV16, "seg-mov16", ENTRY, "002", seg_mov16, PLAIN, ABSENT,   \
	  NONE, "reload DS and ES with movw $SEL,%ax (66 prefix)")          \
	X(SEG_CONDITIONAL, "seg-conditional", ENTRY, "002",                 \
	  seg_conditional, PLAIN, ABSENT, NONE,                             \
	  "reload DS and ES only when DS differs")                          \
	X(GS_SWAPGS, "gs-swapgs", ENTRY, "003", gs_swapgs, PLAIN, ABSENT,   \
	  NONE, "swapgs on entry and on exit")                              \
	X(GS_WRGSBASE, "gs-wrgsbase", ENTRY, "003", gs_wrgsbase, FSGSBASE,  \
	  ABSENT, NONE, "rdgsbase/wrgsbase on entry, wrgsbase on exit")     \
	X(GS_SELECTOR, "gs-selector", ENTRY, "003", gs_selector_near,       \
	  PLAIN, ABSENT, NONE,                                              \
	  "load a per-CPU selector into GS, restore on exit")               \
	X(GS_LKGS, "gs-lkgs", ENTRY, "003", gs_lkgs, LKGS, ABSENT, NONE,    \
	  "lkgs the per-CPU selector, swapgs its base in; swapgs and "      \
	  "lkgs back on exit (FRED's LKGS)")                                \
	X(GS_SELECTOR_PACKED_COLD, "gs-selector-packed-cold", ENTRY,        \
	  "003", gs_selector_near, GDT_COLD, ABSENT, NONE,                  \
	  "gs-selector, its descriptor in the CS line; GDT lines flushed")  \
	X(GS_SELECTOR_SPREAD_COLD, "gs-selector-spread-cold", ENTRY,        \
	  "003", gs_selector_far, GDT_COLD, ABSENT, NONE,                   \
	  "gs-selector, its descriptor in a line of its own; GDT lines "    \
	  "flushed")                                                        \
	/* The speculative-execution mitigations (docs/mitigations.md),     \
	 * each against "none" unless AGAINST names another baseline. */    \
	X(TOUCH, "touch", ENTRY, "-", touch, PLAIN, ABSENT, NONE,           \
	  "the interrupted code's 32-page working set loaded again "        \
	  "after the exit (pti-cr3-touch's baseline)")                      \
	X(PTI_CR3_PCID, "pti-cr3-pcid", MITIGATION, "-", pti_cr3_pcid,      \
	  PTI_PCID, ABSENT, PTI,                                            \
	  "PTI: CR3 to the kernel's table on entry and back on exit, "      \
	  "PCID with the no-flush bit")                                     \
	X(PTI_CR3, "pti-cr3", MITIGATION, "-", pti_cr3, PTI_FLUSH, ABSENT,  \
	  PTI,                                                              \
	  "PTI without PCID: CR3 switched each way, a TLB flush each "      \
	  "time")                                                           \
	X(PTI_CR3_TOUCH, "pti-cr3-touch", MITIGATION, "-", pti_cr3_touch,   \
	  PTI_FLUSH, TOUCH, PTI,                                            \
	  "pti-cr3, then the working set loaded again: the TLB refill "     \
	  "the flush costs (against touch)")                                \
	X(IBRS, "ibrs", MITIGATION, "-", ibrs, IBRS, ABSENT, IBRS,          \
	  "wrmsr SPEC_CTRL with IBRS on entry, its previous value on "      \
	  "exit")                                                           \
	X(IBPB, "ibpb", MITIGATION, "-", ibpb, IBPB, ABSENT, IBPB,          \
	  "wrmsr PRED_CMD with IBPB on entry")                              \
	X(VERW, "verw", MITIGATION, "-", verw, PLAIN, ABSENT, VERW,         \
	  "verw on the kernel data selector before iretq (MDS buffer "      \
	  "clearing)")                                                      \
	X(BHB_CLEAR_5X5, "bhb-clear-5x5", MITIGATION, "-", bhb_clear_5x5,   \
	  PLAIN, ABSENT, BHB,                                               \
	  "Linux's branch-history clearing loop, 5 x 5, and lfence, on "    \
	  "entry")                                                          \
	X(BHB_CLEAR_12X7, "bhb-clear-12x7", MITIGATION, "-",                \
	  bhb_clear_12x7, PLAIN, ABSENT, BHB,                               \
	  "the branch-history clearing loop in the proposed 12 x 7 form")   \
	X(LFENCE_SWAPGS, "lfence-swapgs", MITIGATION, "-", lfence_swapgs,   \
	  PLAIN, GS_SWAPGS, LFENCE_SWAPGS,                                  \
	  "swapgs; lfence on entry, swapgs on exit (against gs-swapgs)")    \
	X(RSB_FILL, "rsb-fill", MITIGATION, "-", rsb_fill, PLAIN, ABSENT,   \
	  RSB, "the 32-entry return-buffer fill and lfence, on entry")      \
	X(LINUX, "linux", MITIGATION, "-", linux_set, LINUX, GS_SWAPGS,     \
	  NONE,                                                             \
	  "what Linux's defaults would run on an interrupt from user "      \
	  "mode on this CPU (against gs-swapgs)")                           \
	X(COLD, "cold", CACHE, "000", NO_HANDLER, PLAIN, ABSENT, NONE,      \
	  "gate, code and descriptor lines flushed before each sample")     \
	X(COLD_CONTROL, "cold-control", CACHE, "000", NO_HANDLER, PLAIN,    \
	  ABSENT, NONE, "an unrelated line flushed as often (control)")     \
	X(THRASH, "thrash", CACHE, "000", NO_HANDLER, PLAIN, ABSENT, NONE,  \
	  "a buffer of twice the last-level cache written between "         \
	  "samples")                                                        \
	X(DS_ES, "ds-es", I386, "002", NO_HANDLER, PLAIN, ABSENT, NONE,     \
	  "i386: DS and ES saved, reloaded and restored (FreeBSD)")         \
	X(PDA_GS, "pda-gs", I386, "003", NO_HANDLER, PLAIN, ABSENT, NONE,   \
	  "i386: the PDA's %gs saved, the per-CPU selector loaded, "        \
	  "restored (2.6.20)")                                              \
	/* The files of `make ENTRY=...`, last, so that the others' ids   \
	 * stay (docs/your-entry.md). */                                    \
	YOURS_LIST(X)

/* X(ID, "name", KIND, code, SETUP, "seed threads", "what it is"): the
 * primitives (seeds 000, 002, 003 and 004), timed per block of
 * PRIMITIVE_REPS repetitions, in the order they run. KIND LONG: a block
 * of arch/primitives.S, prim_<code> and its counted twin
 * prim_<code>_counted; COMPAT: the same text assembled as i386 code, run
 * in compatibility mode (arch/compat.S), prim32_<code>, with no counted
 * twin; IOAPIC: seed 004's mask, unmask and EOI sequence under the
 * IO-APIC access strategy <code> (bench/run/sequences.c). SETUP: what a
 * block needs around it (arch/primitives.c), PLAIN for nothing; for a
 * sequence, whether it reads back to flush posted writes. The table
 * that runs them, the catalog's words and the seed sections are made
 * from this list. */
#define PRIMITIVE_LIST(X)                                                   \
	X(PUSH_IMM, "push-imm", LONG, push_imm, PLAIN, "000",               \
	  "push $imm (seed 000 TEST1, long mode)")                          \
	X(CS_PUSH, "cs-push", LONG, cs_push, PLAIN, "000",                  \
	  "mov %cs,%eax; push %rax (TEST2's long-mode stand-in)")           \
	X(CS_VECTOR, "cs-vector", LONG, cs_vector, PLAIN, "000",            \
	  "derive the vector from %cs (seed 000 TEST3, long mode)")         \
	X(DS_MOV32, "ds-mov32", LONG, ds_mov32, PLAIN, "002",               \
	  "movl $SEL,%eax; movl %eax,%ds (FreeBSD)")                        \
	X(DS_MOV16, "ds-mov16", LONG, ds_mov16, PLAIN, "002",               \
	  "movw $SEL,%ax; movw %ax,%ds (66 prefix)")                        \
	X(DS_CONDITIONAL, "ds-conditional", LONG, ds_conditional, PLAIN,    \
	  "002", "compare DS, reload only if different")                    \
	X(GS_SELECTOR, "gs-selector", LONG, gs_selector, PLAIN, "003",      \
	  "load a per-CPU selector into %gs (i386-pda)")                    \
	X(SWAPGS, "swapgs", LONG, swapgs, PLAIN, "003", "swapgs")           \
	X(WRGSBASE, "wrgsbase", LONG, wrgsbase, FSGSBASE, "003", "wrgsbase") \
	X(WRMSR_GSBASE, "wrmsr-gsbase", LONG, wrmsr_gsbase, PLAIN, "003",   \
	  "wrmsr GS_BASE (C000_0101)")                                      \
	X(LKGS, "lkgs", LONG, lkgs, LKGS, "003",                            \
	  "lkgs: a GS selector whose base goes to KERNEL_GS_BASE (FRED's "   \
	  "LKGS)")                                                          \
	X(IRETQ_SELF, "iretq-self", LONG, iretq_self, PLAIN, "-",           \
	  "iretq to the next instruction, frame built each time")           \
	X(MOV_CR3, "mov-cr3", LONG, mov_cr3, PLAIN, "-",                    \
	  "mov to CR3 without PCID: a TLB flush each")                      \
	X(MOV_CR3_NOFLUSH, "mov-cr3-noflush", LONG, mov_cr3_noflush, PCID,  \
	  "-", "mov to CR3 with PCID and the no-flush bit")                 \
	X(WRMSR_SPEC_CTRL, "wrmsr-spec-ctrl", LONG, wrmsr_spec_ctrl,        \
	  SPEC_CTRL, "-", "wrmsr SPEC_CTRL, IBRS set and cleared in turn")  \
	X(WRMSR_PRED_CMD, "wrmsr-pred-cmd", LONG, wrmsr_pred_cmd, PRED_CMD, \
	  "-", "wrmsr PRED_CMD: an IBPB each")                              \
	X(VERW, "verw", LONG, verw, PLAIN, "-",                             \
	  "verw on the kernel data selector (MDS buffer clearing)")         \
	X(BHB_CLEAR_5X5, "bhb-clear-5x5", LONG, bhb_clear_5x5, PLAIN, "-",  \
	  "one pass of Linux's branch-history loop, 5 x 5")                 \
	X(BHB_CLEAR_12X7, "bhb-clear-12x7", LONG, bhb_clear_12x7, PLAIN,    \
	  "-", "one pass of the branch-history loop, 12 x 7")               \
	X(RSB_FILL, "rsb-fill", LONG, rsb_fill, PLAIN, "-",                 \
	  "one 32-entry return-buffer fill and its lfence")                 \
	/* i386, in compatibility mode: seed 000's program as written. */   \
	X(PUSH_IMM_I386, "push-imm-i386", COMPAT, push_imm, PLAIN, "000",   \
	  "push $-255 (seed 000 TEST1 as written, i386)")                   \
	X(PUSH_CS, "push-cs", COMPAT, push_cs, PLAIN, "000",                \
	  "push %cs (seed 000 TEST2 as written, i386)")                     \
	X(CS_VECTOR_I386, "cs-vector-i386", COMPAT, cs_vector, PLAIN, "000", \
	  "the vector from %cs (seed 000 TEST3 as written, i386)")          \
	X(DS_MOV32_I386, "ds-mov32-i386", COMPAT, ds_mov32, PLAIN, "002",   \
	  "movl $SEL,%eax; movl %eax,%ds (FreeBSD, i386)")                  \
	X(DS_MOV16_I386, "ds-mov16-i386", COMPAT, ds_mov16, PLAIN, "002",   \
	  "movw $SEL,%ax; movw %ax,%ds (i386)")                             \
	X(GS_SELECTOR_I386, "gs-selector-i386", COMPAT, gs_selector, PLAIN, \
	  "003", "load the per-CPU selector into %gs (i386 PDA, i386)")     \
	/* seed 004: the IO-APIC's access strategies, each with and        \
	 * without the read that flushes posted writes ("-nf"). */          \
	X(IOAPIC_SEQ_UNCACHED, "ioapic-seq-uncached", IOAPIC, UNCACHED,     \
	  FLUSH, "004",                                                     \
	  "IO-APIC mask, unmask, EOI: IOREGSEL every access, flush reads")  \
	X(IOAPIC_SEQ_UNCACHED_NF, "ioapic-seq-uncached-nf", IOAPIC,         \
	  UNCACHED, NO_FLUSH, "004", "the same without the flush reads")    \
	X(IOAPIC_SEQ_INDEX_CACHED, "ioapic-seq-index-cached", IOAPIC,       \
	  INDEX_CACHED, FLUSH, "004",                                       \
	  "IOREGSEL written only when it changes, flush reads")             \
	X(IOAPIC_SEQ_INDEX_CACHED_NF, "ioapic-seq-index-cached-nf", IOAPIC, \
	  INDEX_CACHED, NO_FLUSH, "004", "the same without the flush reads") \
	X(IOAPIC_SEQ_VALUE_CACHED, "ioapic-seq-value-cached", IOAPIC,       \
	  VALUE_CACHED, FLUSH, "004",                                       \
	  "reads from a shadow copy, index cached, flush reads")            \
	X(IOAPIC_SEQ_VALUE_CACHED_NF, "ioapic-seq-value-cached-nf", IOAPIC, \
	  VALUE_CACHED, NO_FLUSH, "004", "the same without the flush reads")

/* X(ID, "name"): the local APIC's mode during a row. */
#define APIC_MODE_LIST(X)                                                   \
	X(NONE, "none")                                                     \
	X(XAPIC, "xapic")                                                   \
	X(X2APIC, "x2apic")

/* X(ID, "name"): the mode the CPU runs a scheme's code in. */
#define CPU_MODE_LIST(X)                                                    \
	X(LONG, "long")                                                     \
	X(PROTECTED_32, "protected-32")

/* X(ID, "name"): rows that raise #UD on purpose (selftest_fault = 1), to
 * show an exception fails only its own row. */
#define SELFTEST_LIST(X)                                                    \
	X(IN_LOOP, "selftest-fault")                                        \
	X(IN_HANDLER, "selftest-fault-in-handler")                          \
	X(IN_FRED, "selftest-fault-in-fred")                                \
	X(I386, "selftest-fault-i386")

#ifndef __ASSEMBLER__

#define AXIS_SCHEME_ID(id, ...) SCHEME_##id,
#define AXIS_SOURCE_ID(id, ...) SOURCE_##id,
#define AXIS_VARIANT_ID(id, ...) VARIANT_##id,
#define AXIS_CPU_MODE_ID(id, ...) CPU_MODE_##id,
#define AXIS_SELFTEST_ID(id, ...) SELFTEST_##id,
#define AXIS_PRIMITIVE_ID(id, ...) PRIMITIVE_##id,

enum scheme_id { SCHEME_LIST(AXIS_SCHEME_ID) SCHEME_COUNT };
enum source_id { SOURCE_LIST(AXIS_SOURCE_ID) SOURCE_COUNT };
/* VARIANT_ABSENT: a row with no variant. */
enum variant_id { VARIANT_ABSENT, VARIANT_LIST(AXIS_VARIANT_ID) VARIANT_END };
enum variant_kind { VARIANT_KIND_ENTRY, VARIANT_KIND_MITIGATION,
		    VARIANT_KIND_CACHE, VARIANT_KIND_I386, VARIANT_KIND_YOURS };
enum cpu_mode { CPU_MODE_LIST(AXIS_CPU_MODE_ID) CPU_MODE_COUNT };
/* SELFTEST_ABSENT: a row that measures. */
enum selftest_id { SELFTEST_ABSENT, SELFTEST_LIST(AXIS_SELFTEST_ID) SELFTEST_END };
enum primitive_id { PRIMITIVE_LIST(AXIS_PRIMITIVE_ID) PRIMITIVE_COUNT };
/* enum lapic_mode (LAPIC_NONE, ...) is made from APIC_MODE_LIST in
 * apic/lapic.h. */
#define AXIS_ONE_MORE(id, ...) +1
enum { APIC_MODE_COUNT = 0 APIC_MODE_LIST(AXIS_ONE_MORE) };

#endif
#endif
