/* The one interrupt frame layout, shared by C and assembly.
 *
 * The CPU pushes SS, RSP, RFLAGS, CS, RIP (and an error code for some
 * exceptions) after aligning RSP down to 16 (SDM vol. 3 §6.14.2). Entry
 * code pushes a dummy error code where the CPU did not, then the vector,
 * then the general registers, so every path hands C the same layout. The
 * total is 176 bytes, a multiple of 16, so RSP is 16-byte aligned at the
 * `call` into C as the SysV ABI wants. */
#ifndef IRQLAB_ARCH_FRAME_H
#define IRQLAB_ARCH_FRAME_H

#define FRAME_R15	0
#define FRAME_R14	8
#define FRAME_R13	16
#define FRAME_R12	24
#define FRAME_R11	32
#define FRAME_R10	40
#define FRAME_R9	48
#define FRAME_R8	56
#define FRAME_RBP	64
#define FRAME_RDI	72
#define FRAME_RSI	80
#define FRAME_RDX	88
#define FRAME_RCX	96
#define FRAME_RBX	104
#define FRAME_RAX	112
#define FRAME_VECTOR	120	/* pushed by the entry stub */
#define FRAME_ERROR	128	/* CPU's error code, or 0 pushed by the stub */
#define FRAME_RIP	136	/* from here on: pushed by the CPU */
#define FRAME_CS	144
#define FRAME_RFLAGS	152
#define FRAME_RSP	160
#define FRAME_SS	168
#define FRAME_SIZE	176
/* Bytes the entry stub and CPU pushed before the general registers. */
#define FRAME_GPR_BYTES	FRAME_VECTOR

/* FRED's frame (docs/long-mode.md "FRED") is this one from FRAME_ERROR
 * up: the CPU pushes an error code for every event, so the entry only
 * pushes the vector slot. Above SS it adds the event data and a zero
 * quadword, which C never reads. The CS and SS slots carry more than the
 * selector: CS bits 17:16 the stack level, SS bits 18:16 the STI, #DB and
 * NMI state, and SS bits 63:32 the event information, of which these two
 * bytes name the event. */
#define FRAME_FRED_VECTOR	(FRAME_SS + 4)	/* bits 39:32 */
#define FRAME_FRED_TYPE		(FRAME_SS + 6)	/* bits 51:48, low nibble */

/* The i386 frame of the 32-bit protected-mode phase (arch/protected.S,
 * docs/protected-mode.md). An interrupt in ring 0 pushes only EFLAGS, CS
 * and EIP, and no error code (SDM vol. 3 §6.12.1, Figure 6-4); the entry
 * stub or its common code fills the vector slot below them, then the
 * general registers go below that, in the order of Linux's i386
 * SAVE_ALL. 44 bytes (FRAME32_SIZE). */
#define FRAME32_EBX	0
#define FRAME32_ECX	4
#define FRAME32_EDX	8
#define FRAME32_ESI	12
#define FRAME32_EDI	16
#define FRAME32_EBP	20
#define FRAME32_EAX	24
#define FRAME32_VECTOR	28	/* filled by the entry stub */
#define FRAME32_EIP	32	/* from here on: pushed by the CPU */
#define FRAME32_CS	36
#define FRAME32_EFLAGS	40
#define FRAME32_SIZE	44

#ifdef __ASSEMBLER__

/* Saves the general registers below an already-pushed vector slot; the
 * order is the reverse of the offsets above. */
.macro SAVE_GPRS
	push %rax	/* FRAME_RAX */
	push %rbx	/* FRAME_RBX */
	push %rcx	/* FRAME_RCX */
	push %rdx	/* FRAME_RDX */
	push %rsi	/* FRAME_RSI */
	push %rdi	/* FRAME_RDI */
	push %rbp	/* FRAME_RBP */
	push %r8	/* FRAME_R8 */
	push %r9	/* FRAME_R9 */
	push %r10	/* FRAME_R10 */
	push %r11	/* FRAME_R11 */
	push %r12	/* FRAME_R12 */
	push %r13	/* FRAME_R13 */
	push %r14	/* FRAME_R14 */
	push %r15	/* FRAME_R15 */
.endm

/* Restores the general registers, leaving RSP at FRAME_VECTOR. */
.macro RESTORE_GPRS
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rbp
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
.endm

/* Restores the general registers and drops the vector and error slots,
 * leaving RSP at the CPU's frame, ready for iretq. */
.macro RESTORE_GPRS_AND_DROP_SLOTS
	RESTORE_GPRS
	add $16, %rsp	/* FRAME_VECTOR and FRAME_ERROR */
.endm

/* The return from an IDT-delivered frame. */
.macro IDT_RETURN
	RESTORE_GPRS_AND_DROP_SLOTS
	iretq
.endm

/* The return from a FRED-delivered frame: ERETS (F2 0F 01 CA, spelled
 * out for assemblers that predate it) skips the error code itself. */
.macro FRED_RETURN
	RESTORE_GPRS
	add $8, %rsp	/* FRAME_VECTOR */
	.byte 0xf2, 0x0f, 0x01, 0xca
.endm

/* The i386 frame's registers, saved below its vector slot and restored,
 * leaving ESP at FRAME32_VECTOR. */
.macro SAVE_GPRS32
	pushl %eax	/* FRAME32_EAX */
	pushl %ebp	/* FRAME32_EBP */
	pushl %edi	/* FRAME32_EDI */
	pushl %esi	/* FRAME32_ESI */
	pushl %edx	/* FRAME32_EDX */
	pushl %ecx	/* FRAME32_ECX */
	pushl %ebx	/* FRAME32_EBX */
.endm

.macro RESTORE_GPRS32
	popl %ebx
	popl %ecx
	popl %edx
	popl %esi
	popl %edi
	popl %ebp
	popl %eax
.endm

/* The return from an i386 frame: the vector slot goes, IRET pops EIP,
 * CS and EFLAGS. */
.macro IDT32_RETURN
	RESTORE_GPRS32
	addl $4, %esp	/* FRAME32_VECTOR */
	iretl
.endm

#else

#include <stddef.h>
#include <stdint.h>

struct irq_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector;
	uint64_t error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

_Static_assert(offsetof(struct irq_frame, r15) == FRAME_R15, "frame");
_Static_assert(offsetof(struct irq_frame, r8) == FRAME_R8, "frame");
_Static_assert(offsetof(struct irq_frame, rbp) == FRAME_RBP, "frame");
_Static_assert(offsetof(struct irq_frame, rdi) == FRAME_RDI, "frame");
_Static_assert(offsetof(struct irq_frame, rsi) == FRAME_RSI, "frame");
_Static_assert(offsetof(struct irq_frame, rdx) == FRAME_RDX, "frame");
_Static_assert(offsetof(struct irq_frame, rcx) == FRAME_RCX, "frame");
_Static_assert(offsetof(struct irq_frame, rbx) == FRAME_RBX, "frame");
_Static_assert(offsetof(struct irq_frame, rax) == FRAME_RAX, "frame");
_Static_assert(offsetof(struct irq_frame, vector) == FRAME_VECTOR, "frame");
_Static_assert(offsetof(struct irq_frame, error_code) == FRAME_ERROR, "frame");
_Static_assert(offsetof(struct irq_frame, rip) == FRAME_RIP, "frame");
_Static_assert(offsetof(struct irq_frame, cs) == FRAME_CS, "frame");
_Static_assert(offsetof(struct irq_frame, rflags) == FRAME_RFLAGS, "frame");
_Static_assert(offsetof(struct irq_frame, rsp) == FRAME_RSP, "frame");
_Static_assert(offsetof(struct irq_frame, ss) == FRAME_SS, "frame");
_Static_assert(sizeof(struct irq_frame) == FRAME_SIZE, "frame");
_Static_assert(FRAME_SIZE % 16 == 0, "frame keeps RSP 16-byte aligned");


/* Only assembly reads the i386 frame; the struct keeps the offsets
 * above honest. */
struct irq_frame32 {
	uint32_t ebx, ecx, edx, esi, edi, ebp, eax;
	uint32_t vector;
	uint32_t eip, cs, eflags;
};

_Static_assert(offsetof(struct irq_frame32, ebx) == FRAME32_EBX, "frame32");
_Static_assert(offsetof(struct irq_frame32, ebp) == FRAME32_EBP, "frame32");
_Static_assert(offsetof(struct irq_frame32, eax) == FRAME32_EAX, "frame32");
_Static_assert(offsetof(struct irq_frame32, vector) == FRAME32_VECTOR, "frame32");
_Static_assert(offsetof(struct irq_frame32, eip) == FRAME32_EIP, "frame32");
_Static_assert(offsetof(struct irq_frame32, eflags) == FRAME32_EFLAGS, "frame32");
_Static_assert(sizeof(struct irq_frame32) == FRAME32_SIZE, "frame32");

#endif
#endif
