#include "arch/desc.h"
#include "arch/cpu.h"
#include "arch/vectors.h"

#include <stddef.h>

struct __attribute__((packed)) tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];	/* ist[0] is IST1 */
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
};
_Static_assert(sizeof(struct tss64) == 104, "64-bit TSS is 104 bytes");

struct __attribute__((packed)) idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;		/* bits 2:0 */
	uint8_t type_attr;	/* P, DPL, type */
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
};
_Static_assert(sizeof(struct idt_gate) == 16, "long-mode gate is 16 bytes");

struct __attribute__((packed)) table_pointer {
	uint16_t limit;
	uint64_t base;
};

#define GATE_PRESENT_DPL0_INTERRUPT 0x8e	/* P=1, DPL=0, type 0xE */

/* Code and data descriptors (SDM vol. 3 §3.4.5). The code descriptor has
 * L=1, D=0, P=1, DPL=0, type 0xB (execute/read, accessed preset so the CPU
 * never writes the GDT). */
#define DESC_CODE64	0x00209b0000000000ull
#define DESC_DATA	0x00cf93000000ffffull	/* flat read/write, accessed */
/* Flat 32-bit code: G=1, D=1, L=0, P=1, DPL=0, type 0xB. Under long mode
 * it runs in compatibility mode, with i386 instruction semantics (SDM
 * vol. 3 §5.2.1, vol. 1 §3.2.1). */
#define DESC_CODE32	0x00cf9b000000ffffull

static uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(64))) = {
	[SEL_NULL / 8] = 0,
	[SEL_KERNEL_CS / 8] = DESC_CODE64,	/* irqlab's code, ring 0 */
	[SEL_KERNEL_DS / 8] = DESC_DATA,	/* DS/ES/SS/FS/GS */
	[SEL_PERCPU / 8] = DESC_DATA,		/* what GS reloads load */
	[SEL_COMPAT_CS / 8] = DESC_CODE32,	/* the i386 primitives */
	/* [SEL_TSS / 8] and the slot after it: filled in at run time,
	 * since the TSS base is only known then. */
};

static struct tss64 tss __attribute__((aligned(64)));
/* The TSS of a processor in the boot CPU's place, and the TSS whose IST
 * tops ist_stack_top() gives: that of the processor running rows. */
static struct tss64 boot_place_tss __attribute__((aligned(64)));
static struct tss64 *rows_tss = &tss;
static struct idt_gate idt[256] __attribute__((aligned(4096)));
/* The other processors' IDT (arch/ap.h): their own, so that a scheme
 * the boot CPU installs never runs on them. */
static struct idt_gate ap_idt[256] __attribute__((aligned(4096)));
/* Each other processor's GDT, the boot CPU's first entries with a TSS
 * descriptor of its own (LTR marks a TSS busy, so none is shared), and
 * that TSS, whose IST1 is its NMI stack. */
static struct ap_desc {
	uint64_t gdt[FIRST_FREE_GDT_INDEX];
	struct tss64 tss;
} ap_desc[DESC_OTHER_CPUS] __attribute__((aligned(64)));

static void set_tss_descriptor(uint64_t *table, uint16_t selector,
			       uint64_t base, uint32_t limit)
{
	/* 64-bit available TSS, type 9, P=1 (SDM vol. 3 §8.2.3). */
	table[selector / 8] = (limit & 0xffffull) |
			      ((base & 0xffffffull) << 16) | (0x89ull << 40) |
			      ((uint64_t)(limit >> 16) << 48) |
			      (((base >> 24) & 0xffull) << 56);
	table[selector / 8 + 1] = base >> 32;
}

uint64_t ist_stack_top(unsigned ist)
{
	return rows_tss->ist[ist - 1];
}

static void tss_fill(struct tss64 *t, void *ist_stacks)
{
	unsigned i;

	for (i = 0; i < IST_COUNT; i++)
		t->ist[i] = (uint64_t)(uintptr_t)ist_stacks +
			    (uint64_t)(i + 1) * IST_STACK_BYTES;
	t->iomap_base = sizeof(*t);	/* no I/O bitmap */
}

static void gdt_load(uint16_t tss_selector)
{
	struct table_pointer p = { sizeof(gdt) - 1, (uint64_t)(uintptr_t)gdt };

	lgdt(&p);
	segments_reload(SEL_KERNEL_CS, SEL_KERNEL_DS);
	ltr(tss_selector);
}

void gdt_install(void *ist_stacks)
{
	tss_fill(&tss, ist_stacks);
	set_tss_descriptor(gdt, SEL_TSS, (uint64_t)(uintptr_t)&tss,
			   sizeof(tss) - 1);
	gdt_load(SEL_TSS);
}

void desc_take_boot_place(void *ist_stacks)
{
	/* LTR marks the descriptor busy (SDM vol. 3 §8.2.4): it is written
	 * afresh, available, each time a processor takes the place. */
	boot_place_tss = (struct tss64){ 0 };
	tss_fill(&boot_place_tss, ist_stacks);
	set_tss_descriptor(gdt, SEL_TSS_BOOT_PLACE,
			   (uint64_t)(uintptr_t)&boot_place_tss,
			   sizeof(boot_place_tss) - 1);
	rows_tss = &boot_place_tss;
	gdt_load(SEL_TSS_BOOT_PLACE);
	idt_install();
}

void desc_boot_place_back(void)
{
	rows_tss = &tss;
}

void gdt_set_code64(unsigned index)
{
	if (index >= FIRST_FREE_GDT_INDEX && index < GDT_ENTRIES)
		gdt[index] = DESC_CODE64;
}

void gdt_set_data(unsigned index)
{
	if (index >= FIRST_FREE_GDT_INDEX && index < GDT_ENTRIES)
		gdt[index] = DESC_DATA;
}

const void *gdt_entry(unsigned index)
{
	return &gdt[index % GDT_ENTRIES];
}

const void *idt_gate_entry(uint8_t vector)
{
	return &idt[vector];
}

void idt_gate_swap(uint8_t vector, struct idt_gate_bytes *bytes)
{
	struct idt_gate_bytes held;

	__builtin_memcpy(&held, &idt[vector], sizeof(held));
	__builtin_memcpy(&idt[vector], bytes, sizeof(held));
	*bytes = held;
}

void gdt_clear(unsigned index)
{
	if (index >= FIRST_FREE_GDT_INDEX && index < GDT_ENTRIES)
		gdt[index] = 0;
}

void idt_set_gate(uint8_t vector, const void *handler, uint8_t ist)
{
	idt_set_gate_selector(vector, handler, ist, SEL_KERNEL_CS);
}

static void gate_encode(struct idt_gate *gate, const void *handler,
			uint8_t ist, uint16_t selector)
{
	uint64_t a = (uint64_t)(uintptr_t)handler;

	*gate = (struct idt_gate){
		.offset_low = (uint16_t)a,
		.selector = selector,
		.ist = ist & 7,
		.type_attr = GATE_PRESENT_DPL0_INTERRUPT,
		.offset_mid = (uint16_t)(a >> 16),
		.offset_high = (uint32_t)(a >> 32),
	};
}

void idt_set_gate_selector(uint8_t vector, const void *handler, uint8_t ist,
			   uint16_t selector)
{
	gate_encode(&idt[vector], handler, ist, selector);
}

void ap_idt_set_gate(uint8_t vector, const void *handler)
{
	if (vector >= FIRST_IRQ_VECTOR)
		gate_encode(&ap_idt[vector], handler, 0, SEL_KERNEL_CS);
}

void ap_idt_prepare(const char *fault_stubs, unsigned stride)
{
	unsigned v;

	for (v = 0; v < FIRST_IRQ_VECTOR; v++)
		gate_encode(&ap_idt[v], fault_stubs + v * stride, 0,
			    SEL_KERNEL_CS);
}

void desc_load_on_this_cpu(uint32_t slot, uint64_t nmi_stack_top)
{
	struct ap_desc *d = &ap_desc[slot];
	struct table_pointer g = { sizeof(d->gdt) - 1,
				   (uint64_t)(uintptr_t)d->gdt };
	struct table_pointer i = { sizeof(ap_idt) - 1,
				   (uint64_t)(uintptr_t)ap_idt };
	unsigned k;

	for (k = 0; k < FIRST_FREE_GDT_INDEX; k++)
		d->gdt[k] = gdt[k];
	d->tss = (struct tss64){ .iomap_base = sizeof(d->tss) };
	d->tss.ist[IST_NMI - 1] = nmi_stack_top;
	set_tss_descriptor(d->gdt, SEL_TSS, (uint64_t)(uintptr_t)&d->tss,
			   sizeof(d->tss) - 1);
	lgdt(&g);
	segments_reload(SEL_KERNEL_CS, SEL_KERNEL_DS);
	ltr(SEL_TSS);
	lidt(&i);
}

void ap_idt_install(void)
{
	struct table_pointer i = { sizeof(ap_idt) - 1,
				   (uint64_t)(uintptr_t)ap_idt };

	lidt(&i);
}

void ap_idt_set_nmi(const void *handler)
{
	gate_encode(&ap_idt[2], handler, IST_NMI, SEL_KERNEL_CS);
}

void idt_install(void)
{
	struct table_pointer p = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	lidt(&p);
}
