#include "bench/model/catalog.h"

#include "arch/lib/fmt.h"

const struct catalog_entry catalog_schemes[] = {
	{ "direct",
	  "a dedicated handler per vector; the vector is "
	  "an immediate (the lower bound)",
	  "-" },
	{ "push-jmp",
	  "push imm8; jmp common, 8 bytes a vector (Linux)",
	  "000 001" },
	{ "push-jmp-ibt",
	  "endbr64; push imm8; jmp common, 16 bytes a "
	  "vector (Linux with IBT)",
	  "-" },
	{ "compact",
	  "7 stubs per 32-byte chunk, short jumps to one "
	  "long jump (Linux 2.6.29)",
	  "001" },
	{ "call",
	  "call rel32 stubs, 5 bytes padded to 8; vector "
	  "from the return address",
	  "001" },
	{ "cs-selector",
	  "no stubs: a code descriptor per vector, vector "
	  "read from %cs",
	  "000 001" },
	{ "pf-cr2",
	  "gates into a not-present page; #PF decodes the "
	  "vector from RIP",
	  "001" },
	{ "int3-byte",
	  "CC xx stubs; #BP reads the vector byte and "
	  "unwinds to the interrupt frame",
	  "001" },
	{ "fred",
	  "FRED event delivery (CR4.FRED, ERETS)",
	  "-" },
	{ "call16",
	  "hpa's 4- and 3-byte 66 E8 call stubs (i386 only: see the "
	  "i386-call16 rows)",
	  "001" },
	/* The i386 schemes, run in 32-bit protected mode
	 * (docs/protected-mode.md). */
	{ "i386-direct",
	  "i386: a dedicated handler per vector (the i386 rows' lower bound)",
	  "-" },
	{ "i386-push-jmp",
	  "i386: pushl $~vector; jmp common_interrupt, 7 or 10 bytes "
	  "(Linux 2008)",
	  "000 001" },
	{ "i386-cs-selector",
	  "i386: a code descriptor per vector, ~vector derived from %cs in 8 "
	  "instructions (van Heukelum)",
	  "000 001" },
	{ "i386-cs-selector-push-cs",
	  "i386: a code descriptor per vector, just push %cs",
	  "000 001" },
	{ "i386-call16",
	  "i386: hpa's 4-byte 66 E8 rel16 stubs, vector from the 16-bit "
	  "return IP",
	  "001" },
	{ "i386-call16-3byte",
	  "i386: hpa's overlapped 3-byte stubs, 66 e8 ff 66 e8 fc ...",
	  "001" },
};
const size_t catalog_scheme_count =
	sizeof(catalog_schemes) / sizeof(catalog_schemes[0]);

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

const char *catalog_cpu_mode(const char *scheme)
{
	static const char prefix[] = "i386-";
	size_t i;

	for (i = 0; i + 1 < sizeof(prefix); i++)
		if (scheme[i] != prefix[i])
			return "long";
	return "protected-32";
}
