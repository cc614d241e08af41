/* The application processors: the trampoline a SIPI starts them in
 * (arch/ap_start.S), and what each does once in long mode. Shared by C
 * and assembly. */
#ifndef IRQLAB_ARCH_AP_H
#define IRQLAB_ARCH_AP_H

/* The trampoline's data block: offsets from the start of its page,
 * filled in by ap_trampoline_prepare for the page it is copied to. */
#define AP_GDTR 0x200		/* limit (2 bytes), base (4) */
#define AP_FAR32 0x208		/* offset (4), selector (2) */
#define AP_FAR64 0x210		/* offset (4), selector (2) */
#define AP_CR3 0x218
#define AP_CR4 0x21c
#define AP_EFER 0x220		/* 8 bytes */
#define AP_STACK 0x228		/* 8: the top of the next AP's stack */
#define AP_ENTRY 0x230		/* 8: ap_main */
#define AP_GDT 0x240		/* four descriptors */
#define AP_DATA_END 0x260

#define AP_SEL_CODE32 0x08
#define AP_SEL_DATA32 0x10
#define AP_SEL_CODE64 0x18

#define AP_STACK_BYTES (16 * 1024)

#ifndef __ASSEMBLER__

#include <stdint.h>

/* Why the APs cannot be started with this page and these tables, or
 * NULL: the trampoline's page must lie below 1 MiB, and the page
 * tables below 4 GiB (a 32-bit MOV to CR3 loads them). */
const char *ap_start_unsupported(const void *page);
/* Copies the trampoline to `page` and fills in its data block. */
void ap_trampoline_prepare(void *page);
/* The stack the next AP to start takes. */
void ap_trampoline_set_stack(void *page, uint64_t top);
/* APs that reached long mode and ap_main since the count was zeroed. */
extern volatile uint32_t ap_alive;

#endif
#endif
