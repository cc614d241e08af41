/* The other processors' interrupt handler (apic/ap_interrupt.S,
 * docs/controllers.md "The cross-CPU rows"): the same for every vector
 * 32-255 on every AP. It sends the EOI, then answers as the words below
 * say, which the boot CPU sets before it sends: with ap_reply_ack_only
 * 0, the fixed IPI ap_reply_icr (vector and delivery) back to APIC id
 * ap_reply_dest; with 1, one more count in ap_acks. ap_reply_x2apic
 * says which mode the APs' local APICs are in. */
#ifndef IRQLAB_APIC_AP_INTERRUPT_H
#define IRQLAB_APIC_AP_INTERRUPT_H

#include <stdint.h>

extern volatile uint32_t ap_reply_icr, ap_reply_dest, ap_reply_x2apic;
extern volatile uint32_t ap_reply_ack_only, ap_acks;
void ap_interrupt(void);
/* The same for an NMI, which takes no EOI; on the AP's IST1 stack. */
void ap_nmi(void);
void ap_spurious(void);
/* The wake-up IPI's: an EOI and one more `wakes` in the processor's
 * struct ap_cpu (arch/ap.h), through GS. */
void ap_wake(void);

#endif
