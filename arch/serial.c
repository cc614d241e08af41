#include "arch/serial.h"

#include "arch/cpu.h"

#define UART_DATA 0	/* RBR/THR; divisor low when DLAB=1 */
#define UART_IER 1	/* interrupt enable; divisor high when DLAB=1 */
#define UART_FCR 2
#define UART_LCR 3
#define   UART_LCR_8N1 0x03
#define   UART_LCR_DLAB 0x80
#define UART_MCR 4
#define   UART_MCR_DTR_RTS 0x03
#define UART_LSR 5
#define   UART_LSR_THRE 0x20	/* transmit holding register empty */
#define UART_SCRATCH 7

/* A transmitter that never drains must not hang the run: at 115200 baud a
 * byte takes ~87 us, far less than this many status polls. */
#define UART_TX_POLLS 100000

const struct serial_port serial_legacy[SERIAL_LEGACY_PORTS] = {
	{ .base = 0x3f8, .divisor = 1 },
	{ .base = 0x2f8, .divisor = 1 },
	{ .base = 0x3e8, .divisor = 1 },
	{ .base = 0x2e8, .divisor = 1 },
};

static struct serial_port in_use = { .base = 0x3f8, .divisor = 1 };
static int serial_present;

static void put_reg(const struct serial_port *p, unsigned reg, uint8_t v)
{
	if (!p->mmio)
		outb((uint16_t)(p->base + reg), v);
	else if (p->wide)
		*(volatile uint32_t *)(uintptr_t)(p->base + reg * 4) = v;
	else
		*(volatile uint8_t *)(uintptr_t)(p->base + reg) = v;
}

static uint8_t get_reg(const struct serial_port *p, unsigned reg)
{
	if (!p->mmio)
		return inb((uint16_t)(p->base + reg));
	if (p->wide)
		return (uint8_t)*(volatile uint32_t *)(uintptr_t)(p->base +
								 reg * 4);
	return *(volatile uint8_t *)(uintptr_t)(p->base + reg);
}

int serial_answers(const struct serial_port *p)
{
	put_reg(p, UART_SCRATCH, 0x5a);
	if (get_reg(p, UART_SCRATCH) != 0x5a)
		return 0;
	put_reg(p, UART_SCRATCH, 0xa5);
	return get_reg(p, UART_SCRATCH) == 0xa5;
}

void serial_use(const struct serial_port *port)
{
	in_use = *port;
}

int serial_init(void)
{
	const struct serial_port *p = &in_use;

	if (!serial_answers(p))
		return serial_present = 0;
	put_reg(p, UART_IER, 0);	/* polled: no UART interrupts */
	if (p->divisor) {
		put_reg(p, UART_LCR, UART_LCR_DLAB);
		put_reg(p, UART_DATA, (uint8_t)p->divisor);
		put_reg(p, UART_IER, (uint8_t)(p->divisor >> 8));
	}
	put_reg(p, UART_LCR, UART_LCR_8N1);
	put_reg(p, UART_FCR, 0x07);	/* enable and clear FIFOs */
	put_reg(p, UART_MCR, UART_MCR_DTR_RTS);
	return serial_present = 1;
}

static void put_byte(char c)
{
	int polls = UART_TX_POLLS;

	while (!(get_reg(&in_use, UART_LSR) & UART_LSR_THRE) && --polls)
		;
	put_reg(&in_use, UART_DATA, (uint8_t)c);
}

void serial_write(const char *s, size_t n)
{
	size_t i;

	if (!serial_present)
		return;
	for (i = 0; i < n; i++) {
		if (s[i] == '\n')
			put_byte('\r');
		put_byte(s[i]);
	}
}
