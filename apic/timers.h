/* The timers that raise irqlab's external interrupts: the 8254 PIT and
 * the HPET. */
#ifndef IRQLAB_APIC_TIMERS_H
#define IRQLAB_APIC_TIMERS_H

#include <stdint.h>

#define PIT_HZ 1193182u
/* Channel 0, mode 0 (interrupt on terminal count): IRQ 0 rises once when
 * `count` ticks have passed. */
void pit_oneshot(uint16_t count);
/* Channel 0 quiet: OUT low, not counting. */
void pit_stop(void);
/* Channel 0's count now, through the counter latch command. */
uint16_t pit_latch_read(void);

/* HPET registers (IA-PC HPET 1.0a, §2.3). */
#define HPET_CAP		0x000	/* 63:32 period in fs, 12:8 timers - 1 */
#define HPET_CONFIG		0x010
#define   HPET_ENABLE		(1ull << 0)
#define   HPET_LEGACY_ROUTE	(1ull << 1)
#define HPET_STATUS		0x020	/* write 1 to clear a level interrupt */
#define HPET_COUNTER		0x0f0
#define HPET_TIMER_CONFIG(n)	(0x100 + 0x20 * (n))
#define   HPET_TN_LEVEL		(1ull << 1)
#define   HPET_TN_ENABLE	(1ull << 2)
#define   HPET_TN_32BIT		(1ull << 8)
#define   HPET_TN_FSB_ENABLE	(1ull << 14)
#define   HPET_TN_ROUTE_SHIFT	9
#define   HPET_TN_ROUTE_CAP_SHIFT 32
#define HPET_TIMER_COMPARATOR(n) (0x108 + 0x20 * (n))

struct hpet {
	volatile uint8_t *base;
	uint32_t period_fs;
	uint8_t timers;
};

/* The general capabilities, read as two 32-bit halves: all-ones where
 * nothing answers. */
uint64_t hpet_capabilities(uint64_t address);
/* Quiets every comparator (interrupt and FSB delivery off), then counts. */
void hpet_init(struct hpet *h, uint64_t address);
/* The main counter's low 32 bits. */
uint32_t hpet_counter(const struct hpet *h);
uint64_t hpet_route_cap(const struct hpet *h, unsigned timer);
/* Arms `timer` to raise a level-triggered interrupt on IO-APIC input
 * `gsi` after `ticks`. */
void hpet_arm_level(const struct hpet *h, unsigned timer, unsigned gsi,
		    uint64_t ticks);
void hpet_clear(const struct hpet *h, unsigned timer);
void hpet_disarm(const struct hpet *h, unsigned timer);

#endif
