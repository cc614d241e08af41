#include "arch/protected.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/timing.h"

struct pm_data pm __attribute__((aligned(4096)));

/* arch/protected.S */
int pm_trip(struct pm_data *d);
extern const char pm_exception_stubs[], pm_nmi_entry[];
extern const char pm_int_samples[], pm_int_triggers_table[], pm_code_end[];

#define FOUR_GIB (1ull << 32)
#define CR4_PCIDE (1ull << 17)
#define CR4_CET (1ull << 23)
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101

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

int pm_run(void)
{
	uint64_t fs_base = rdmsr(MSR_FS_BASE), gs_base = rdmsr(MSR_GS_BASE);
	unsigned i;

	tables_ready();
	pm.budget = wait_budget_ticks;
	pm.done = pm.timed_out = pm.faulted = 0;
	pm.fault_vector = pm.fault_error = pm.fault_eip = pm.fault_cs = 0;
	pm.arrived = pm.nmi_count = 0;
	for (i = 0; i < sizeof(pm.changed); i++)
		pm.changed[i] = 0;
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
	return (uint32_t)(uintptr_t)(pm_int_samples +
				     (vector - FIRST_IRQ_VECTOR) *
					     PM_INT_SAMPLE_STRIDE);
}

uint32_t pm_int_triggers(void)
{
	return (uint32_t)(uintptr_t)pm_int_triggers_table;
}
