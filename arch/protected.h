/* The 32-bit protected-mode phase (docs/protected-mode.md): irqlab leaves
 * long mode, runs one job under a 32-bit GDT and an IDT of 32-bit
 * interrupt gates, and comes back. The i386 schemes (arch/dispatch/
 * i386.h) are measured there, as seeds 000-003 wrote them.
 *
 * Everything the 32-bit side touches is in one block, struct pm_data,
 * below 4 GiB: its own code reaches it through %fs, whose descriptor
 * base is the block (the 32-bit code holds no address of its own, as in
 * arch/compat.S). The offsets are shared by C and assembly. */
#ifndef IRQLAB_ARCH_PROTECTED_H
#define IRQLAB_ARCH_PROTECTED_H

#include "arch/vectors.h"

/* The 32-bit GDT (SDM vol. 3 §3.4.5). Entries from FIRST_IRQ_VECTOR up
 * are the cs-selector scheme's, one flat code descriptor per vector. */
#define PM_SEL_CODE	0x08	/* flat 32-bit code */
#define PM_SEL_DATA	0x10	/* flat data: DS, ES, SS, GS */
#define PM_SEL_CALL16	0x18	/* code based so call16's stubs lie in its
				 * first 64 KiB (arch/dispatch/i386_call16.S) */
#define PM_SEL_OWN	0x20	/* data based at struct pm_data: %fs */
#define PM_SEL_PERCPU	0x28	/* the i386 PDA's %gs (seed 003) */
#define PM_GDT_ENTRIES	256

/* What one trip does. */
#define PM_JOB_SWEEP	1	/* each vector from 32 once: as itself? */
#define PM_JOB_REGISTERS 2	/* registers and flags across INT n */
#define PM_JOB_SAMPLES	3	/* timed samples */

/* How the samples and the sweep raise their interrupt (0: a source the
 * 32-bit phase does not raise). */
#define PM_TRIGGER_INT	1	/* INT n */
#define PM_TRIGGER_IPI	2	/* xAPIC self-IPI: a write to ICR low */
#define PM_TRIGGER_TIMER 3	/* local APIC one-shot: LVT, then TMICT */

/* The points of a trip's mode switches where the self-test raises INT 2
 * (arch/protected.S checks the count): on the way out, one in 64-bit
 * mode and two in protected mode (paging off; the 32-bit GDT loaded);
 * on the way back, two in protected mode (the switches' IDT loaded;
 * long mode's GDT loaded) and one in compatibility mode. */
#define PM_SWITCH_NMI_WINDOWS 6

/* Samples per trip: one noise batch (arch/noise.h). */
#define PM_SAMPLES_MAX	1000
#define PM_STACK_BYTES	8192
/* Strides of the 32-bit trigger tables in arch/protected.S. */
#define PM_INT_SAMPLE_STRIDE 64
#define PM_INT_TRIGGER_STRIDE 4

/* The register check's verdict bytes (PM_CHANGED + i). */
#define PM_CHECKED_REGISTERS 13	/* EAX..EBP, EFLAGS, DS ES FS GS SS */

/* struct pm_data, offset by offset. */
#define PM_GDT		0			/* u64[256] */
#define PM_IDT		2048			/* u64[256]: 32-bit gates */
#define PM_DELIVERED	4096			/* u32[256] */
#define PM_SWEEP_LAST	5120			/* u8[256] */
#define PM_ENTRY	5376			/* u64: handler's timestamps */
#define PM_EXIT		5384
#define PM_TRIGGER_TSC	5392			/* u64: the INT blocks' reads */
#define PM_RESUME_TSC	5400
#define PM_BUDGET	5408			/* u64: ticks a wait may take */
#define PM_DEADLINE	5416			/* u64 */
#define PM_SAVED_GDTR	5424			/* 10 bytes, long mode's */
#define PM_SAVED_IDTR	5440			/* 10 bytes */
#define PM_GDTR		5456			/* 6 bytes, the 32-bit GDT */
#define PM_IDTR		5464			/* 6 bytes */
#define PM_SAVED_CR3	5472			/* u32 */
#define PM_RETURN64	5476			/* u32: where long mode resumes */
#define PM_SELF		5480			/* u32: this block's address */
#define PM_JOB		5484			/* u32: PM_JOB_* */
#define PM_TRIGGER	5488			/* u32: PM_TRIGGER_* */
#define PM_VECTOR	5492			/* u32 */
#define PM_COUNT	5496			/* u32: samples or checks */
#define PM_INT_SAMPLE	5500			/* u32: INT n sample block */
#define PM_INT_TRIGGERS	5504			/* u32: bare INT n table */
#define PM_ICR		5508			/* u32: ICR low's (TMICT's) address */
#define PM_ICR_VALUE	5512			/* u32: without the vector (the
						 * timer's count) */
#define PM_EOI		5516			/* u32: EOI's address, or 0 */
#define PM_FAULT_ONCE	5520			/* u32: #UD in the next dispatch */
#define PM_DONE		5524			/* u32: samples or checks done */
#define PM_TIMED_OUT	5528			/* u32 */
#define PM_FAULTED	5532			/* u32 */
#define PM_FAULT_VECTOR	5536			/* u32 */
#define PM_FAULT_ERROR	5540			/* u32 */
#define PM_FAULT_EIP	5544			/* u32 */
#define PM_FAULT_CS	5548			/* u32 */
#define PM_ARRIVED	5552			/* u32 */
#define PM_LAST_VECTOR	5556			/* u32 */
#define PM_NMI_COUNT	5560			/* u32 */
#define PM_CHANGED	5564			/* u8[16] */
#define PM_LVT		5580			/* u32: LVT timer's address */
#define PM_SWITCH_IDT	5584			/* u8[48]: the switches' IDT */
#define PM_SWITCH_IDTR	5632			/* 10 bytes */
#define PM_SWITCH_NMI_TEST 5648			/* u32: INT 2 in each window */
#define PM_COUNTER	5652			/* u32: RDPMC's ECX, counted */
#define PM_WAIT_SAMPLE	5656			/* u32: the wait's sample code */
#define PM_SWITCH_NMIS	5660			/* u32: NMIs the switches took */
#define PM_SAMPLES	5664			/* struct pm_sample[] */
#define PM_SAMPLE_BYTES	32
#define PM_STACK	(PM_SAMPLES + PM_SAMPLE_BYTES * PM_SAMPLES_MAX)
#define PM_STACK_TOP	(PM_STACK + PM_STACK_BYTES)
#define PM_DATA_BYTES	PM_STACK_TOP

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

/* One sample: the trigger side's two reads and the handler's two. */
struct pm_sample {
	uint64_t trigger;
	uint64_t entry;
	uint64_t exit;
	uint64_t resume;
};
_Static_assert(sizeof(struct pm_sample) == PM_SAMPLE_BYTES, "pm_sample");

struct __attribute__((packed, aligned(16))) pm_data {
	uint64_t gdt[PM_GDT_ENTRIES];
	uint64_t idt[256];
	uint32_t delivered[256];
	uint8_t sweep_last[256];	/* the last vector seen per trigger */
	uint64_t entry, exit;
	uint64_t trigger_tsc, resume_tsc;
	uint64_t budget, deadline;
	uint8_t saved_gdtr[16];
	uint8_t saved_idtr[16];
	uint8_t gdtr[8];
	uint8_t idtr[8];
	uint32_t saved_cr3;
	uint32_t return64;
	uint32_t self;
	/* the job */
	uint32_t job, trigger, vector, count;
	uint32_t int_sample, int_triggers;
	uint32_t icr, icr_value, eoi;
	uint32_t fault_once;
	/* what came back */
	uint32_t done, timed_out;
	uint32_t faulted, fault_vector, fault_error, fault_eip, fault_cs;
	uint32_t arrived, last_vector, nmi_count;
	uint8_t changed[16];
	uint32_t lvt;
	/* The IDT the mode switches run under (docs/protected-mode.md "NMIs
	 * during the switches"): vector 2's gate in both formats, the
	 * 32-bit one in bytes 16-23 and the 64-bit one in bytes 32-47. */
	uint8_t switch_idt[48];
	uint8_t switch_idtr[16];
	uint32_t switch_nmi_test;
	/* The counted pass (docs/timing.md "Core cycles"): the counter the
	 * counted reads take, and which wait the samples call. */
	uint32_t counter;
	uint32_t wait_sample;
	/* Vector 2's entries in the switches' IDT (build_switch_idt) taken
	 * since boot: a trip's own INT 2s under the self-test, or an NMI. */
	uint32_t switch_nmis;
	struct pm_sample samples[PM_SAMPLES_MAX];
	uint8_t stack[PM_STACK_BYTES];
};

#define PM_CHECK(field, off) \
	_Static_assert(offsetof(struct pm_data, field) == (off), #field)
PM_CHECK(idt, PM_IDT);
PM_CHECK(delivered, PM_DELIVERED);
PM_CHECK(sweep_last, PM_SWEEP_LAST);
PM_CHECK(entry, PM_ENTRY);
PM_CHECK(exit, PM_EXIT);
PM_CHECK(trigger_tsc, PM_TRIGGER_TSC);
PM_CHECK(budget, PM_BUDGET);
PM_CHECK(deadline, PM_DEADLINE);
PM_CHECK(saved_gdtr, PM_SAVED_GDTR);
PM_CHECK(saved_idtr, PM_SAVED_IDTR);
PM_CHECK(gdtr, PM_GDTR);
PM_CHECK(idtr, PM_IDTR);
PM_CHECK(saved_cr3, PM_SAVED_CR3);
PM_CHECK(return64, PM_RETURN64);
PM_CHECK(self, PM_SELF);
PM_CHECK(job, PM_JOB);
PM_CHECK(trigger, PM_TRIGGER);
PM_CHECK(vector, PM_VECTOR);
PM_CHECK(count, PM_COUNT);
PM_CHECK(int_sample, PM_INT_SAMPLE);
PM_CHECK(int_triggers, PM_INT_TRIGGERS);
PM_CHECK(icr, PM_ICR);
PM_CHECK(switch_idt, PM_SWITCH_IDT);
PM_CHECK(switch_idtr, PM_SWITCH_IDTR);
PM_CHECK(switch_nmi_test, PM_SWITCH_NMI_TEST);
PM_CHECK(counter, PM_COUNTER);
PM_CHECK(wait_sample, PM_WAIT_SAMPLE);
PM_CHECK(switch_nmis, PM_SWITCH_NMIS);
PM_CHECK(eoi, PM_EOI);
PM_CHECK(fault_once, PM_FAULT_ONCE);
PM_CHECK(done, PM_DONE);
PM_CHECK(faulted, PM_FAULTED);
PM_CHECK(fault_cs, PM_FAULT_CS);
PM_CHECK(arrived, PM_ARRIVED);
PM_CHECK(nmi_count, PM_NMI_COUNT);
PM_CHECK(changed, PM_CHANGED);
PM_CHECK(lvt, PM_LVT);
PM_CHECK(samples, PM_SAMPLES);
PM_CHECK(stack, PM_STACK);
_Static_assert(sizeof(struct pm_data) == PM_DATA_BYTES, "pm_data");

/* The one block; its job fields are set by the caller of pm_run. */
extern struct pm_data pm;

/* NULL when this machine can leave long mode and come back now, else
 * why not (code, data or page tables above 4 GiB, PCID in use). */
const char *pm_unsupported(void);

/* How a gate's selector is chosen. */
enum pm_gate_segment {
	PM_GATES_FLAT,		/* PM_SEL_CODE */
	PM_GATES_PER_VECTOR,	/* selector = vector * 8 (cs-selector) */
	PM_GATES_CALL16,	/* PM_SEL_CALL16, based at `base` */
};

/* Points the 32-bit gates of vectors 32-255 at `targets` (IRQ_VECTORS
 * addresses), and the call16 segment's base at `base`. */
void pm_set_gates(const uint64_t *targets, enum pm_gate_segment segment,
		  uint64_t base);
/* Points one vector's gate at a flat handler. */
void pm_set_gate(uint8_t vector, const void *target);

/* Clears the counts a job leaves behind. */
void pm_reset_counts(void);

/* Makes the trip: leaves long mode, runs pm's job, comes back. Returns
 * 0, or -1 when an exception ended the job (pm.fault_* say which); the
 * round trip is whole either way. */
int pm_run(void);
/* Raises INT 2 at each point of the mode switches where an NMI could
 * come, in every trip from now on: the self-test of the switches' IDT
 * (simulate = nmi-in-switch). */
void pm_test_switch_nmis(int on);
/* The self-test's tally as a status line (docs/status-lines.md): the
 * trips made with it on, and the entries of the switches' NMI handlers
 * since boot, PM_SWITCH_NMI_WINDOWS a trip where each INT 2 was taken. */
void pm_switch_nmi_status(void);

/* "#UD (vector 6) at EIP 0x..., CS 0x..., error 0x0, in 32-bit protected
 * mode": the exception that ended the last trip. */
void pm_describe_fault(char *out, size_t len);

/* The 32-bit sample blocks and bare triggers of INT n, per vector. */
uint32_t pm_int_sample_for(uint8_t vector);
uint32_t pm_int_triggers(void);

#endif
#endif
