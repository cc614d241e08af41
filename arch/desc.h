/* irqlab's own descriptor tables: GDT with a 64-bit TSS (IST stacks for
 * NMI, #DF and #MC) and a 256-gate IDT. */
#ifndef IRQLAB_ARCH_DESC_H
#define IRQLAB_ARCH_DESC_H

/* Selectors, one per GDT entry in desc.c's table. */
#define SEL_NULL	0x00
#define SEL_KERNEL_CS	0x08
#define SEL_KERNEL_DS	0x10
#define SEL_TSS		0x18	/* a 16-byte system descriptor: two slots */
#define SEL_COMPAT_CS	0x30	/* 32-bit code (L=0, D=1): compatibility
				 * mode, where i386 code runs (arch/compat.S) */
#define SEL_PERCPU	0x28	/* a data segment for %gs, as i386's PDA, in
				 * the kernel CS's 64-byte GDT line */
/* The same descriptor again, in a GDT line of its own (index 66, line 8):
 * the "spread" layout of seed 003's cache-miss hypothesis. Within the
 * cs-selector scheme's range, which is cleared after that scheme runs. */
#define SEL_PERCPU_FAR	(66 * 8)

/* IST slots (1-based, as the gate's IST field takes them). */
#define IST_NMI		1
#define IST_DOUBLE_FAULT 2
#define IST_MACHINE_CHECK 3
#define IST_COUNT	3
#define IST_STACK_BYTES	(16 * 1024)

#ifndef __ASSEMBLER__

#include <stdint.h>

/* Loads the GDT and TSS and reloads every segment register.
 * `ist_stacks` points at IST_COUNT * IST_STACK_BYTES bytes. */
void gdt_install(void *ist_stacks);

/* The top of IST stack `ist` (1-based), which FRED's stack levels reuse. */
uint64_t ist_stack_top(unsigned ist);

/* An interrupt gate (IF cleared on entry, SDM §6.12.1.3) at DPL 0, with
 * irqlab's kernel CS or another code selector. */
void idt_set_gate(uint8_t vector, const void *handler, uint8_t ist);
void idt_set_gate_selector(uint8_t vector, const void *handler, uint8_t ist,
			   uint16_t selector);

/* The TSS of a processor that takes the boot CPU's place to run rows
 * (desc_take_boot_place): indices 8 and 9. */
#define SEL_TSS_BOOT_PLACE 0x40

/* GDT entries from FIRST_FREE_GDT_INDEX up are free for experiments: the
 * cs-selector scheme puts a 64-bit code descriptor at index = vector. */
#define FIRST_FREE_GDT_INDEX 10
#define GDT_ENTRIES 256
void gdt_set_code64(unsigned index);
void gdt_set_data(unsigned index);
void gdt_clear(unsigned index);
/* Addresses of one descriptor and one gate, for cache experiments. */
const void *gdt_entry(unsigned index);
const void *idt_gate_entry(uint8_t vector);
void idt_install(void);
/* One gate's 16 bytes, to be put back: idt_gate_swap exchanges
 * `vector`'s gate with them. */
struct idt_gate_bytes {
	uint64_t low, high;
};
void idt_gate_swap(uint8_t vector, struct idt_gate_bytes *bytes);
/* On another processor, the one in `slot` (below DESC_OTHER_CPUS): a
 * GDT of its own with the boot CPU's descriptors and its own TSS, whose
 * IST1 is `nmi_stack_top`, and the other processors' IDT: exceptions
 * 0-31 to `fault_stubs`, `stride` bytes apart (ap_idt_prepare, once),
 * NMI as ap_idt_set_nmi sets it, the rest as ap_idt_set_gate does. */
#define DESC_OTHER_CPUS 512
void desc_load_on_this_cpu(uint32_t slot, uint64_t nmi_stack_top);
void ap_idt_prepare(const char *fault_stubs, unsigned stride);
/* Points `vector` of the other processors' IDT at `handler`; vectors
 * 0-31 stay the fault stubs'. */
void ap_idt_set_gate(uint8_t vector, const void *handler);
/* The other processors' NMI gate, on IST1 (IST_NMI). */
void ap_idt_set_nmi(const void *handler);

/* On a processor that runs rows in the boot CPU's place, the boot CPU
 * halted meanwhile (docs/cross-cpu.md "The matrix on another
 * processor"): the boot CPU's own GDT and IDT, so that every descriptor
 * and gate a scheme installs is the one it runs, with a TSS of its own (SEL_TSS_BOOT_PLACE),
 * whose IST stacks are `ist_stacks` (IST_COUNT * IST_STACK_BYTES bytes).
 * ist_stack_top() then answers for it, until desc_boot_place_back(),
 * on the boot CPU, gives the boot CPU's stacks back. */
void desc_take_boot_place(void *ist_stacks);
void desc_boot_place_back(void);
/* The other processors' IDT on this one: the boot CPU's, while it
 * halts for a processor in its place. idt_install() gives its own back. */
void ap_idt_install(void);

/* arch/desc_load.S: reloads CS with lretq (docs/long-mode.md: a 64-bit far jmp
 * differs between Intel and AMD) and the data segments. */
void segments_reload(uint16_t code_sel, uint16_t data_sel);

#endif
#endif
