#include "arch/serial.h"

#include "arch/cpu.h"

#define COM1 0x3f8
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

#define UART_DIVISOR_115200 1
/* A transmitter that never drains must not hang the run: at 115200 baud a
 * byte takes ~87 us, far less than this many status polls. */
#define UART_TX_POLLS 100000

static int serial_present;

int serial_init(void)
{
	/* No UART at COM1 reads back 0xff from every register. */
	outb(COM1 + UART_SCRATCH, 0x5a);
	if (inb(COM1 + UART_SCRATCH) != 0x5a)
		return serial_present = 0;
	outb(COM1 + UART_IER, 0);	/* polled: no UART interrupts */
	outb(COM1 + UART_LCR, UART_LCR_DLAB);
	outb(COM1 + UART_DATA, UART_DIVISOR_115200);
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, UART_LCR_8N1);
	outb(COM1 + UART_FCR, 0x07);	/* enable and clear FIFOs */
	outb(COM1 + UART_MCR, UART_MCR_DTR_RTS);
	return serial_present = 1;
}

static void put_byte(char c)
{
	int polls = UART_TX_POLLS;

	while (!(inb(COM1 + UART_LSR) & UART_LSR_THRE) && --polls)
		;
	outb(COM1 + UART_DATA, (uint8_t)c);
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
