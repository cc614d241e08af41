#include "bench/model/catalog.h"

#include "arch/lib/fmt.h"

const struct catalog_entry catalog_primitives[] = {
	{ "push-imm", "push $imm (seed 000 TEST1, long mode)", "000" },
	{ "cs-push", "mov %cs,%eax; push %rax (TEST2's long-mode stand-in)",
	  "000" },
	{ "cs-vector", "derive the vector from %cs (seed 000 TEST3, long "
	  "mode)", "000" },
	{ "ds-mov32", "movl $SEL,%eax; movl %eax,%ds (FreeBSD)", "002" },
	{ "ds-mov16", "movw $SEL,%ax; movw %ax,%ds (66 prefix)", "002" },
	{ "ds-conditional", "compare DS, reload only if different", "002" },
	{ "gs-selector", "load a per-CPU selector into %gs (i386-pda)", "003" },
	{ "swapgs", "swapgs", "003" },
	{ "wrgsbase", "wrgsbase", "003" },
	{ "wrmsr-gsbase", "wrmsr GS_BASE (C000_0101)", "003" },
	{ "lkgs", "lkgs: a GS selector whose base goes to KERNEL_GS_BASE "
	  "(FRED's LKGS)", "003" },
	{ "iretq-self", "iretq to the next instruction, frame built each time",
	  "-" },
	{ "mov-cr3", "mov to CR3 without PCID: a TLB flush each", "-" },
	{ "mov-cr3-noflush", "mov to CR3 with PCID and the no-flush bit", "-" },
	{ "wrmsr-spec-ctrl", "wrmsr SPEC_CTRL, IBRS set and cleared in turn",
	  "-" },
	{ "wrmsr-pred-cmd", "wrmsr PRED_CMD: an IBPB each", "-" },
	{ "verw", "verw on the kernel data selector (MDS buffer clearing)",
	  "-" },
	{ "bhb-clear-5x5", "one pass of Linux's branch-history loop, 5 x 5",
	  "-" },
	{ "bhb-clear-12x7", "one pass of the branch-history loop, 12 x 7",
	  "-" },
	{ "rsb-fill", "one 32-entry return-buffer fill and its lfence", "-" },
	{ "push-imm-i386", "push $-255 (seed 000 TEST1 as written, i386)",
	  "000" },
	{ "push-cs", "push %cs (seed 000 TEST2 as written, i386)", "000" },
	{ "cs-vector-i386", "the vector from %cs (seed 000 TEST3 as written, "
	  "i386)", "000" },
	{ "ds-mov32-i386", "movl $SEL,%eax; movl %eax,%ds (FreeBSD, i386)",
	  "002" },
	{ "ds-mov16-i386", "movw $SEL,%ax; movw %ax,%ds (i386)", "002" },
	{ "gs-selector-i386", "load the per-CPU selector into %gs (i386 PDA, "
	  "i386)", "003" },
	{ "ioapic-seq-uncached",
	  "IO-APIC mask, unmask, EOI: IOREGSEL every "
	  "access, flush reads", "004" },
	{ "ioapic-seq-uncached-nf",
	  "the same without the flush reads", "004" },
	{ "ioapic-seq-index-cached",
	  "IOREGSEL written only when it changes, "
	  "flush reads", "004" },
	{ "ioapic-seq-index-cached-nf",
	  "the same without the flush reads", "004" },
	{ "ioapic-seq-value-cached",
	  "reads from a shadow copy, index cached, "
	  "flush reads", "004" },
	{ "ioapic-seq-value-cached-nf",
	  "the same without the flush reads", "004" },
};
const size_t catalog_primitive_count =
	sizeof(catalog_primitives) / sizeof(catalog_primitives[0]);

const struct catalog_entry *catalog_find(const struct catalog_entry *table,
					 size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (str_eq(table[i].name, name))
			return &table[i];
	return NULL;
}
