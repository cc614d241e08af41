#include "apic/timers.h"

#include "arch/cpu.h"

#define PIT_CHANNEL0 0x40
#define PIT_COMMAND 0x43
#define PIT_CH0_LOHI_MODE0 0x30	/* channel 0, lobyte/hibyte, mode 0 */
#define PIT_CH0_LATCH 0x00	/* channel 0, counter latch command */

void pit_oneshot(uint16_t count)
{
	outb(PIT_COMMAND, PIT_CH0_LOHI_MODE0);
	outb(PIT_CHANNEL0, (uint8_t)count);
	outb(PIT_CHANNEL0, (uint8_t)(count >> 8));	/* counting starts */
}

void pit_stop(void)
{
	/* Writing the mode word alone drives OUT low, and mode 0 does not
	 * count until a count is written: IRQ 0 stays quiet. A count would
	 * end with OUT held high, which on machines where the HPET can only
	 * route to the PIT's GSI (QEMU's pc) keeps a level line asserted. */
	outb(PIT_COMMAND, PIT_CH0_LOHI_MODE0);
}

uint16_t pit_latch_read(void)
{
	uint8_t lo, hi;

	outb(PIT_COMMAND, PIT_CH0_LATCH);
	lo = inb(PIT_CHANNEL0);
	hi = inb(PIT_CHANNEL0);
	return (uint16_t)(lo | (hi << 8));
}

/* 32-bit accesses only, as Linux makes them: AMD's HPET is 32 bits wide,
 * and a 64-bit access need not be atomic anywhere (IA-PC HPET 1.0a
 * §2.4.7). */
static uint32_t rd(const struct hpet *h, unsigned reg)
{
	return *(volatile uint32_t *)(h->base + reg);
}

static void wr(const struct hpet *h, unsigned reg, uint32_t v)
{
	*(volatile uint32_t *)(h->base + reg) = v;
}

uint64_t hpet_capabilities(uint64_t address)
{
	volatile uint32_t *cap = (volatile uint32_t *)(uintptr_t)address;

	return cap[0] | (uint64_t)cap[1] << 32;
}

uint32_t hpet_counter(const struct hpet *h)
{
	return rd(h, HPET_COUNTER);
}

/* The whole counter from 32-bit reads: the high half again until it
 * held across the low one. */
static uint64_t hpet_counter64(const struct hpet *h)
{
	uint32_t hi, lo;

	do {
		hi = rd(h, HPET_COUNTER + 4);
		lo = rd(h, HPET_COUNTER);
	} while (hi != rd(h, HPET_COUNTER + 4));
	return (uint64_t)hi << 32 | lo;
}

void hpet_init(struct hpet *h, uint64_t address)
{
	uint64_t cap = hpet_capabilities(address);
	unsigned t;

	h->base = (volatile uint8_t *)(uintptr_t)address;
	h->period_fs = (uint32_t)(cap >> 32);
	h->timers = (uint8_t)(((cap >> 8) & 0x1f) + 1);
	/* Every comparator quiet first: firmware may leave one enabled, or
	 * delivering by FSB (MSI), as edk2's HPET driver prefers. */
	for (t = 0; t < h->timers; t++) {
		wr(h, HPET_TIMER_CONFIG(t), rd(h, HPET_TIMER_CONFIG(t)) &
			      ~(uint32_t)(HPET_TN_ENABLE | HPET_TN_FSB_ENABLE));
		wr(h, HPET_STATUS, 1u << t);
	}
	/* Counting, and no legacy replacement route: every timer goes where
	 * its own route field says. */
	wr(h, HPET_CONFIG, (rd(h, HPET_CONFIG) & ~(uint32_t)HPET_LEGACY_ROUTE) |
				   (uint32_t)HPET_ENABLE);
}

uint64_t hpet_route_cap(const struct hpet *h, unsigned timer)
{
	return rd(h, HPET_TIMER_CONFIG(timer) + 4);
}

void hpet_arm_level(const struct hpet *h, unsigned timer, unsigned gsi,
		    uint64_t ticks)
{
	uint32_t cfg = rd(h, HPET_TIMER_CONFIG(timer));
	uint64_t when = hpet_counter64(h) + ticks;

	cfg &= ~(0x1fu << HPET_TN_ROUTE_SHIFT) &
	       ~(uint32_t)HPET_TN_FSB_ENABLE;
	cfg |= (uint32_t)(HPET_TN_LEVEL | HPET_TN_ENABLE) |
	       (gsi << HPET_TN_ROUTE_SHIFT);
	/* The high half first: a 32-bit HPET (AMD's) ignores it. */
	wr(h, HPET_TIMER_COMPARATOR(timer) + 4, (uint32_t)(when >> 32));
	wr(h, HPET_TIMER_COMPARATOR(timer), (uint32_t)when);
	wr(h, HPET_TIMER_CONFIG(timer), cfg);
}

void hpet_clear(const struct hpet *h, unsigned timer)
{
	wr(h, HPET_STATUS, 1u << timer);
}

void hpet_disarm(const struct hpet *h, unsigned timer)
{
	wr(h, HPET_TIMER_CONFIG(timer),
	   rd(h, HPET_TIMER_CONFIG(timer)) & ~(uint32_t)HPET_TN_ENABLE);
	hpet_clear(h, timer);
}
