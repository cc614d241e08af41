/* The local APIC in its two modes behind one small ops interface
 * (kvm-unit-tests lib/x86/apic.c): xAPIC through MMIO, x2APIC through
 * MSRs. The mode is chosen at run time; xAPIC runs first, because leaving
 * x2APIC needs the APIC disabled (docs/controllers.md). Register offsets are the
 * xAPIC ones; x2APIC maps them to MSR 0x800 + offset / 16. */
#ifndef IRQLAB_APIC_LAPIC_H
#define IRQLAB_APIC_LAPIC_H

#include "arch/vectors.h"

/* Registers (SDM vol. 3 §11.4.1, Table 11-1), with their fields. */
#define APIC_ID		0x020
#define APIC_LVR	0x030	/* version */
#define   APIC_LVR_DIRECTED_EOI	(1u << 24)
#define APIC_TPR	0x080
#define APIC_EOI	0x0b0
#define APIC_SVR	0x0f0
#define   APIC_SVR_ENABLE	(1u << 8)
#define   APIC_SVR_DIRECTED_EOI	(1u << 12)	/* only if LVR bit 24 */
			/* APIC_SPURIOUS_VECTOR: arch/vectors.h */
#define APIC_ISR	0x100	/* 8 registers, 0x10 apart */
#define APIC_TMR	0x180
#define APIC_IRR	0x200
#define APIC_ESR	0x280
#define APIC_ICR	0x300	/* x2APIC: one 64-bit MSR */
#define   APIC_ICR_LEVEL_ASSERT	(1u << 14)
#define   APIC_ICR_DEST_SELF	(1u << 18)	/* shorthand 01b, bits 19:18 */
#define   APIC_ICR_SEND_PENDING	(1u << 12)	/* xAPIC Delivery Status */
#define APIC_ICR2	0x310	/* xAPIC only */
#define APIC_LVT_CMCI	0x2f0	/* where IA32_MCG_CAP[10] says it exists */
#define APIC_LVT_TIMER	0x320
#define   APIC_LVT_TIMER_PERIODIC	(1u << 17)	/* mode, bits 18:17 */
#define   APIC_LVT_TIMER_TSC_DEADLINE	(2u << 17)
#define APIC_LVT_THERMAL 0x330
#define APIC_LVT_PERF	0x340
#define APIC_LVT_LINT0	0x350
#define   APIC_LVT_DELIVERY_EXTINT	(7u << 8)	/* bits 10:8 */
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370
#define   APIC_LVT_MASKED	(1u << 16)
#define APIC_TMICT	0x380	/* timer initial count */
#define APIC_TMCCT	0x390	/* timer current count */
#define APIC_TDCR	0x3e0	/* timer divide configuration */
#define   APIC_TDCR_DIVIDE_BY_1	0xb
#define APIC_SELF_IPI	0x3f0	/* x2APIC only: MSR 0x83F */

#define MSR_APIC_BASE	0x1b
#define   APIC_BASE_EXTD	(1ull << 10)	/* x2APIC mode */
#define   APIC_BASE_ENABLE	(1ull << 11)
#define   APIC_BASE_ADDR_MASK	0xffffffffff000ull
#define MSR_X2APIC_BASE	0x800
#define MSR_TSC_DEADLINE 0x6e0	/* IA32_TSC_DEADLINE, SDM vol. 3 §11.5.4.1 */

#ifndef __ASSEMBLER__

#include <stdint.h>

#include "arch/cpu.h"
#include "arch/matrix.h"

/* LAPIC_NONE, LAPIC_XAPIC, LAPIC_X2APIC: APIC_MODE_LIST (arch/matrix.h),
 * whose names the results use. */
#define AXIS_LAPIC_MODE(id, ...) LAPIC_##id,
enum lapic_mode { APIC_MODE_LIST(AXIS_LAPIC_MODE) };

struct lapic_ops {
	enum lapic_mode mode;
	const char *name;
	uint32_t (*read)(uint32_t reg);
	void (*write)(uint32_t reg, uint32_t value);
};

/* The mode now active, and its ops (NULL before lapic_enable). */
extern const struct lapic_ops *lapic;
extern volatile uint32_t *lapic_mmio;	/* xAPIC register page */

/* Writes the ICR for `apic_id`, physical destination: ICR high, then
 * ICR low, whose write sends, in xAPIC mode; one WRMSR in x2APIC mode
 * (SDM vol. 3A §11.6.1, §11.12.9). No fence and no wait: a caller that
 * is not timing fences first (weak_wrmsr_fence) and polls after; one
 * that sends as Linux does waits for an idle ICR first in xAPIC mode
 * (xapic_icr_wait_idle). */
static inline void lapic_icr_write(int x2apic, uint32_t apic_id,
				   uint32_t low)
{
	if (x2apic) {
		wrmsr(MSR_X2APIC_BASE + APIC_ICR / 16,
		      (uint64_t)apic_id << 32 | low);
		return;
	}
	lapic_mmio[APIC_ICR2 / 4] = apic_id << 24;
	lapic_mmio[APIC_ICR / 4] = low;
}

/* How many reads of the ICR a sender gives xapic_icr_wait_idle. */
#define APIC_ICR_IDLE_POLLS 100000

/* xAPIC mode: reads the ICR until its Delivery Status (bit 12) says the
 * last IPI has left (SDM vol. 3A §11.6.1), pausing between reads, as
 * Linux's xAPIC send path does before each ICR write
 * (apic_mem_wait_icr_idle, arch/x86/kernel/apic/ipi.c). x2APIC mode has
 * no such bit (§11.12.9), and Linux does not wait there. Gives up after
 * `budget` reads; returns the reads left of it once idle (at least 1),
 * 0 where it never was, so that several waits can share one budget. */
static inline unsigned xapic_icr_wait_idle(unsigned budget)
{
	for (; budget; budget--) {
		if (!(lapic_mmio[APIC_ICR / 4] & APIC_ICR_SEND_PENDING))
			return budget;
		__asm__ volatile("pause" ::: "memory");
	}
	return 0;
}

/* Switches the local APIC to `mode` and programs it: software-enabled
 * with the spurious vector, TPR 0, timer/LINT0/error/perf/thermal LVTs
 * masked. Returns NULL or why not. */
const char *lapic_enable(enum lapic_mode mode);

/* The timed EOI paths: called directly, not through the ops. */
void xapic_eoi(void);
void x2apic_eoi(void);

/* After an experiment: ISR clear and ESR zero. Returns NULL or what was
 * wrong, written into `why`. */
const char *lapic_check_quiet(char *why, unsigned cap);

/* After any experiment, however it ended: EOIs every interrupt still in
 * service, so the next one starts with the ISR empty. Returns how many
 * it ended (0 when there is no local APIC). */
unsigned lapic_settle(void);
/* INIT to the processor `apic_id`, into wait-for-SIPI. Returns 0, or -1
 * when the xAPIC never finished sending it, or, in xAPIC mode, where
 * `apic_id` is past what xAPIC can name (firmware/acpi.h): then nothing
 * is sent. */
int lapic_send_init(uint32_t apic_id);
/* A start-up IPI to `apic_id`: a processor in wait-for-SIPI starts in
 * real mode at page `vector` (SDM vol. 3A §9.4.4.1). Returns 0, or -1
 * as lapic_send_init. */
int lapic_send_sipi(uint32_t apic_id, uint8_t vector);
/* This processor's APIC ID, in the active mode. */
uint32_t lapic_own_id(void);
/* The mode IA32_APIC_BASE says the APIC is in now. */
enum lapic_mode lapic_firmware_mode(void);
/* Whether the local APIC has an LVT CMCI entry (masked by lapic_enable). */
int lapic_has_cmci(void);

#endif
#endif
