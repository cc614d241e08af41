/* Interrupt vector numbers, named once for C and assembly. The
 * architectural exceptions are SDM vol. 3 §6.3.1, Table 6-1; everything
 * from FIRST_IRQ_VECTOR on is free for interrupts. */
#ifndef IRQLAB_ARCH_VECTORS_H
#define IRQLAB_ARCH_VECTORS_H

#define VECTOR_DE	0	/* divide error */
#define VECTOR_DB	1	/* debug */
#define VECTOR_NMI	2
#define VECTOR_BP	3	/* INT3 */
#define VECTOR_OF	4	/* INTO */
#define VECTOR_BR	5	/* BOUND */
#define VECTOR_UD	6	/* invalid opcode */
#define VECTOR_NM	7	/* device not available */
#define VECTOR_DF	8	/* double fault, error code */
#define VECTOR_TS	10	/* invalid TSS, error code */
#define VECTOR_NP	11	/* segment not present, error code */
#define VECTOR_SS	12	/* stack fault, error code */
#define VECTOR_GP	13	/* general protection, error code */
#define VECTOR_PF	14	/* page fault, error code, CR2 */
#define VECTOR_MF	16	/* x87 error */
#define VECTOR_AC	17	/* alignment check, error code */
#define VECTOR_MC	18	/* machine check */
#define VECTOR_XM	19	/* SIMD error */
#define VECTOR_VE	20	/* virtualisation exception */
#define VECTOR_CP	21	/* control protection, error code */
#define VECTOR_HV	28	/* hypervisor injection (AMD) */
#define VECTOR_VC	29	/* VMM communication (AMD), error code */
#define VECTOR_SX	30	/* security exception (AMD), error code */

/* The local APIC's spurious-interrupt vector (SVR, apic/lapic.c): the
 * last one, and never acknowledged (SDM vol. 3 §11.9). */
#define APIC_SPURIOUS_VECTOR 0xff

#define EXCEPTION_VECTORS 32
#define FIRST_IRQ_VECTOR EXCEPTION_VECTORS	/* 0-31 are the exceptions */
#define IRQ_VECTORS (256 - FIRST_IRQ_VECTOR)

/* Whether delivering exception `v` pushes an error code (Table 6-1, the
 * "Error Code" column); usable in C and in assembler .if expressions. */
#define VECTOR_HAS_ERROR_CODE(v)                                            \
	((v) == VECTOR_DF || ((v) >= VECTOR_TS && (v) <= VECTOR_PF) ||      \
	 (v) == VECTOR_AC || (v) == VECTOR_CP || (v) == VECTOR_VC ||        \
	 (v) == VECTOR_SX)

#endif
