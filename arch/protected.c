#include "arch/protected.h"
#include "arch/desc.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/primitives.h"
#include "arch/timing.h"

struct pm_data pm __attribute__((aligned(4096)));

/* arch/protected.S */
int pm_trip(struct pm_data *d);
extern const char pm_exception_stubs[], pm_nmi_entry[];
extern const char pm_nmi_survived32[], pm_nmi_survived64[];
extern const char pm_int_samples[], pm_int_samples_counted[];
extern const char pm_int_triggers_table[], pm_code_end[];
extern const char pm_wait_sample[], pm_wait_sample_counted[];

#define FOUR_GIB (1ull << 32)
#define CR4_PCIDE (1ull << 17)
#define CR4_CET (1ull << 23)

/* 32-bit descriptors (SDM vol. 3 §3.4.5): flat, G=1, D/B=1, P=1, DPL 0,
 * accessed preset so the CPU never writes the table. */
#define DESC32_CODE 0x00cf9b000000ffffull	/* execute/read */
#define DESC32_DATA 0x00cf93000000ffffull	/* read/write */
#define GATE32_INTERRUPT 0x8eull		/* P, DPL 0, 32-bit interrupt gate */

static uint64_t based(uint64_t descriptor, uint32_t base)
{
	return descriptor | ((uint64_t)(base & 0xffffff) << 16) |
	       ((uint64_t)(base >> 24) << 56);
}

/* A 32-bit interrupt gate (SDM vol. 3 §6.11, Figure 6-2). */
static void set_gate32(uint8_t vector, uint32_t offset, uint16_t selector)
{
	pm.idt[vector] = (offset & 0xffffull) | ((uint64_t)selector << 16) |
			 (GATE32_INTERRUPT << 40) |
			 ((uint64_t)(offset >> 16) << 48);
}

static void set_table_pointer(uint8_t *out, uint16_t limit, const void *base)
{
	uint32_t b = (uint32_t)(uintptr_t)base;

	out[0] = (uint8_t)limit;
	out[1] = (uint8_t)(limit >> 8);
	out[2] = (uint8_t)b;
	out[3] = (uint8_t)(b >> 8);
	out[4] = (uint8_t)(b >> 16);
	out[5] = (uint8_t)(b >> 24);
}

/* The IDT both mode switches run under, from before long mode is left
 * until the 32-bit IDT is loaded, and from before the 32-bit GDT is left
 * until long mode's IDT is back: an NMI, which CLI does not hold off,
 * would otherwise meet an IDT of the other mode's format and
 * triple-fault (docs/protected-mode.md "NMIs during the switches").
 * Only vector 2 is there, in both formats at once: a 32-bit gate in
 * bytes 16-23 (8-byte entries) and a 64-bit one in bytes 32-47 (16-byte
 * entries). The 32-bit gate's selector, SEL_COMPAT_CS, is flat 32-bit
 * code in long mode's GDT and in the 32-bit one alike; the 64-bit gate's
 * is long mode's own. Each handler counts the NMI in pm.switch_nmis and
 * returns: it is survived, and the self-test can tell it was taken. */
static void build_switch_idt(void)
{
	uint8_t *idt = pm.switch_idt;
	uint32_t at32 = (uint32_t)(uintptr_t)pm_nmi_survived32;
	uint64_t at64 = (uint64_t)(uintptr_t)pm_nmi_survived64;
	unsigned i;

	for (i = 0; i < sizeof(pm.switch_idt); i++)
		idt[i] = 0;
	pm.gdt[SEL_COMPAT_CS / 8] = DESC32_CODE;
	/* 32-bit interrupt gate, vector 2: offset 15:0, selector, 0,
	 * type 0x8E (present, DPL 0, 32-bit interrupt gate), offset 31:16
	 * (SDM vol. 3A §6.11, Figure 6-2). */
	idt[16] = (uint8_t)at32;
	idt[17] = (uint8_t)(at32 >> 8);
	idt[18] = SEL_COMPAT_CS;
	idt[21] = 0x8e;
	idt[22] = (uint8_t)(at32 >> 16);
	idt[23] = (uint8_t)(at32 >> 24);
	/* 64-bit interrupt gate, vector 2, IST 0 (§6.14.1, Figure 6-8). */
	idt[32] = (uint8_t)at64;
	idt[33] = (uint8_t)(at64 >> 8);
	idt[34] = SEL_KERNEL_CS;
	idt[37] = 0x8e;
	for (i = 0; i < 6; i++)
		idt[38 + i] = (uint8_t)(at64 >> (16 + 8 * i));
	/* Limit 47 (both gates inside), base below 4 GiB: LIDT in 32-bit
	 * code reads the low 4 bytes of it, in 64-bit code all 8. */
	pm.switch_idtr[0] = sizeof(pm.switch_idt) - 1;
	pm.switch_idtr[1] = 0;
	for (i = 0; i < 8; i++)
		pm.switch_idtr[2 + i] =
			(uint8_t)((uint64_t)(uintptr_t)idt >> (8 * i));
}

/* The tables every trip shares: the GDT's own entries and the
 * cs-selector scheme's, and the exception gates. */
static void build_tables(void)
{
	unsigned v;

	pm.gdt[0] = 0;
	pm.gdt[PM_SEL_CODE / 8] = DESC32_CODE;
	pm.gdt[PM_SEL_DATA / 8] = DESC32_DATA;
	pm.gdt[PM_SEL_CALL16 / 8] = DESC32_CODE;
	pm.gdt[PM_SEL_OWN / 8] = based(DESC32_DATA, (uint32_t)(uintptr_t)&pm);
	pm.gdt[PM_SEL_PERCPU / 8] = DESC32_DATA;
	for (v = FIRST_IRQ_VECTOR; v < PM_GDT_ENTRIES; v++)
		pm.gdt[v] = DESC32_CODE;
	for (v = 0; v < EXCEPTION_VECTORS; v++)
		set_gate32((uint8_t)v, (uint32_t)(uintptr_t)(v == VECTOR_NMI ?
			   pm_nmi_entry : pm_exception_stubs + 16 * v),
			   PM_SEL_CODE);
	set_table_pointer(pm.gdtr, sizeof(pm.gdt) - 1, pm.gdt);
	set_table_pointer(pm.idtr, sizeof(pm.idt) - 1, pm.idt);
	build_switch_idt();
	pm.self = (uint32_t)(uintptr_t)&pm;
}

const char *pm_unsupported(void)
{
	static char why[120];

	if ((uint64_t)(uintptr_t)pm_code_end >= FOUR_GIB ||
	    (uint64_t)(uintptr_t)&pm + sizeof(pm) > FOUR_GIB)
		return "irqlab's code or data lies above 4 GiB, beyond 32-bit "
		       "protected mode";
	if (read_cr3() >= FOUR_GIB) {
		fmt_snprintf(why, sizeof(why), "the page tables lie above "
			     "4 GiB (CR3 0x%llx): a 32-bit MOV to CR3 cannot "
			     "reach them on the way back",
			     (unsigned long long)read_cr3());
		return why;
	}
	if (read_cr4() & CR4_PCIDE)
		return "CR4.PCIDE is set: paging cannot be turned off with it "
		       "(SDM vol. 3 §4.10.1)";
	/* irqlab never sets it; firmware that did would make the 32-bit
	 * code's indirect calls, which carry no ENDBR32, fault. */
	if (read_cr4() & CR4_CET)
		return "CR4.CET is set by the firmware: the 32-bit code's "
		       "indirect calls carry no ENDBR32 (SDM vol. 1 ch. 18)";
	return 0;
}

/* Before the first gate or descriptor is set: the trip's tables are
 * built once, and never again over what a row set. A run in parts can
 * begin its boot with an i386-call16 row, whose code segment's base
 * build_tables would otherwise reset to 0 before its first trip, and
 * the trip would run off into nowhere. */
static void tables_ready(void)
{
	if (!pm.self)
		build_tables();
}

void pm_set_gates(const uint64_t *targets, enum pm_gate_segment segment,
		  uint64_t base)
{
	unsigned v;

	tables_ready();
	pm.gdt[PM_SEL_CALL16 / 8] = based(DESC32_CODE, (uint32_t)base);
	for (v = FIRST_IRQ_VECTOR; v < 256; v++) {
		uint32_t target = (uint32_t)targets[v - FIRST_IRQ_VECTOR];

		if (segment == PM_GATES_CALL16)
			set_gate32((uint8_t)v, target - (uint32_t)base,
				   PM_SEL_CALL16);
		else
			set_gate32((uint8_t)v, target,
				   segment == PM_GATES_PER_VECTOR ?
					   (uint16_t)(v * 8) : PM_SEL_CODE);
	}
}

void pm_set_gate(uint8_t vector, const void *target)
{
	tables_ready();
	set_gate32(vector, (uint32_t)(uintptr_t)target, PM_SEL_CODE);
}

void pm_reset_counts(void)
{
	unsigned v;

	for (v = 0; v < 256; v++) {
		pm.delivered[v] = 0;
		pm.sweep_last[v] = 0;
	}
}

/* The self-test of the switches' IDT: whether it is on, and the trips
 * made with it on. */
static struct {
	uint32_t on, trips;
} switch_nmi_test;

void pm_test_switch_nmis(int on)
{
	switch_nmi_test.on = (uint32_t)!!on;
}

void pm_switch_nmi_status(void)
{
	log_status(STATUS_SWITCH_NMIS, "windows=%u trips=%u taken=%u",
		   PM_SWITCH_NMI_WINDOWS, switch_nmi_test.trips,
		   pm.switch_nmis);
}

int pm_run(void)
{
	uint64_t fs_base = rdmsr(MSR_FS_BASE), gs_base = rdmsr(MSR_GS_BASE);
	unsigned i;

	tables_ready();
	/* The counted pass (docs/timing.md "Core cycles") reads the counter
	 * pmc_counter names, and waits in its counts. */
	pm.budget = sample_counted ? wait_budget_counts : wait_budget_ticks;
	pm.counter = pmc_counter;
	pm.wait_sample = (uint32_t)(uintptr_t)(sample_counted
						       ? pm_wait_sample_counted
						       : pm_wait_sample);
	pm.done = pm.timed_out = pm.faulted = 0;
	pm.fault_vector = pm.fault_error = pm.fault_eip = pm.fault_cs = 0;
	pm.arrived = pm.nmi_count = 0;
	for (i = 0; i < sizeof(pm.changed); i++)
		pm.changed[i] = 0;
	pm.switch_nmi_test = switch_nmi_test.on;
	switch_nmi_test.trips += switch_nmi_test.on;
	(void)pm_trip(&pm);
	/* Loading %fs and %gs in the trip set their bases. */
	wrmsr(MSR_FS_BASE, fs_base);
	wrmsr(MSR_GS_BASE, gs_base);
	nmi_count += pm.nmi_count;
	return pm.faulted ? -1 : 0;
}

void pm_describe_fault(char *out, size_t len)
{
	fmt_snprintf(out, len, "%s vector %u, error code 0x%x, EIP 0x%x, "
		     "CS 0x%x, in 32-bit protected mode",
		     exception_name(pm.fault_vector), pm.fault_vector,
		     pm.fault_error, pm.fault_eip, pm.fault_cs);
}

uint32_t pm_int_sample_for(uint8_t vector)
{
	const char *samples = sample_counted ? pm_int_samples_counted
					     : pm_int_samples;

	return (uint32_t)(uintptr_t)(samples + (vector - FIRST_IRQ_VECTOR) *
						       PM_INT_SAMPLE_STRIDE);
}

uint32_t pm_int_triggers(void)
{
	return (uint32_t)(uintptr_t)pm_int_triggers_table;
}
