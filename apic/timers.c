#include "apic/timers.h"

#include "arch/cpu.h"

#define PIT_CHANNEL0 0x40
#define PIT_COMMAND 0x43
#define PIT_CH0_LOHI_MODE0 0x30	/* channel 0, lobyte/hibyte, mode 0 */

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

static uint64_t rd(const struct hpet *h, unsigned reg)
{
	return *(volatile uint64_t *)(h->base + reg);
}

static void wr(const struct hpet *h, unsigned reg, uint64_t v)
{
	*(volatile uint64_t *)(h->base + reg) = v;
}

void hpet_init(struct hpet *h, uint64_t address)
{
	uint64_t cap;

	h->base = (volatile uint8_t *)(uintptr_t)address;
	cap = rd(h, HPET_CAP);
	h->period_fs = (uint32_t)(cap >> 32);
	h->timers = (uint8_t)(((cap >> 8) & 0x1f) + 1);
	/* Counting, and no legacy replacement route: every timer goes where
	 * its own route field says. */
	wr(h, HPET_CONFIG, (rd(h, HPET_CONFIG) & ~HPET_LEGACY_ROUTE) | HPET_ENABLE);
}

uint64_t hpet_route_cap(const struct hpet *h, unsigned timer)
{
	return rd(h, HPET_TIMER_CONFIG(timer)) >> HPET_TN_ROUTE_CAP_SHIFT;
}

void hpet_arm_level(const struct hpet *h, unsigned timer, unsigned gsi,
		    uint64_t ticks)
{
	uint64_t cfg = rd(h, HPET_TIMER_CONFIG(timer));

	cfg &= ~(0x1full << HPET_TN_ROUTE_SHIFT);
	cfg |= HPET_TN_LEVEL | HPET_TN_ENABLE |
	       ((uint64_t)gsi << HPET_TN_ROUTE_SHIFT);
	wr(h, HPET_TIMER_COMPARATOR(timer), rd(h, HPET_COUNTER) + ticks);
	wr(h, HPET_TIMER_CONFIG(timer), cfg);
}

void hpet_clear(const struct hpet *h, unsigned timer)
{
	wr(h, HPET_STATUS, 1ull << timer);
}

void hpet_disarm(const struct hpet *h, unsigned timer)
{
	wr(h, HPET_TIMER_CONFIG(timer),
	   rd(h, HPET_TIMER_CONFIG(timer)) & ~HPET_TN_ENABLE);
	hpet_clear(h, timer);
}
