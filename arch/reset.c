#include "arch/reset.h"

#include "arch/cpu.h"
#include "arch/lib/log.h"

#define RESET_CONTROL_PORT 0xcf9
/* Reset control register bits (Intel PCH datasheets, "RST_CNT"): a write
 * with RST_CPU set starts the reset SYS_RST and FULL_RST say. */
#define RST_SYS 0x02
#define RST_CPU 0x04
#define RST_FULL 0x08
#define KBC_STATUS_PORT 0x64
#define KBC_INPUT_FULL 0x02
#define KBC_PULSE_RESET 0xfe

void reset_by_ports(uint64_t tsc_hz)
{
	uint8_t keep;
	unsigned i, polls;

	cli();
	log_status(STATUS_RESET, "method=port-0xcf9");
	keep = inb(RESET_CONTROL_PORT) & (uint8_t)~(RST_SYS | RST_CPU | RST_FULL);
	/* SYS_RST first, then RST_CPU on top: the edge starts the reset. */
	outb(RESET_CONTROL_PORT, keep | RST_SYS);
	tsc_pause_us(tsc_hz, 50);
	outb(RESET_CONTROL_PORT, keep | RST_SYS | RST_CPU | RST_FULL);
	tsc_pause_us(tsc_hz, 100000);

	log_status(STATUS_RESET, "method=keyboard-controller");
	for (i = 0; i < 10; i++) {
		for (polls = 0; polls < 0x10000 &&
				(inb(KBC_STATUS_PORT) & KBC_INPUT_FULL); polls++)
			tsc_pause_us(tsc_hz, 2);
		outb(KBC_STATUS_PORT, KBC_PULSE_RESET);
		tsc_pause_us(tsc_hz, 50000);
	}

	/* An empty IDT: the next exception cannot be delivered, and the
	 * double fault neither, which resets the processor (SDM vol. 3A
	 * §6.15, interrupt 8). */
	log_status(STATUS_RESET, "method=triple-fault");
	{
		static const struct {
			uint16_t limit;
			uint64_t base;
		} __attribute__((packed)) none = { 0, 0 };

		lidt(&none);
		__asm__ volatile("int3");
	}
	for (;;)
		hlt();
}
