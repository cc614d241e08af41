/* The i386 dispatch schemes, measured in the 32-bit protected-mode phase
 * (arch/protected.h, docs/protected-mode.md): the entry code seeds
 * 000-003 proposed, as they wrote it for i386. Each scheme is one
 * assembly file here and one row in i386.c, as the long-mode schemes are
 * (schemes.h); the 32-bit code shares the i386 frame (arch/frame.h) and
 * reaches its data through %fs. Shared by C and assembly. */
#ifndef IRQLAB_ARCH_DISPATCH_I386_H
#define IRQLAB_ARCH_DISPATCH_I386_H

#include "arch/frame.h"
#include "arch/protected.h"
#include "arch/timing.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

/* Stub strides and offsets, checked by the assembler with .org. */
#define I386_DIRECT_STRIDE 128	/* a whole handler per vector */
#define I386_CALL16_STRIDE 4	/* 66 E8 rel16 */
/* The 3-byte call16 stubs (seed 001): stub k is 66 E8 lo, and its rel16's
 * high byte 0x66 is the next stub's first byte, so every stub of a run
 * calls one target 0x6703 past the run's first stub. A byte holds 86
 * such stubs (0x66ff down to 0x6600, 3 apart); the next run of 86 calls
 * a target as much further on. */
#define I386_CALL16_OVERLAP_TARGET 0x6703
#define I386_CALL16_OVERLAP_RUN 86

#ifdef __ASSEMBLER__

/* An i386 scheme is assembled once per handler kind, as long mode's
 * (irq.h SCHEME_EACH_KIND): \timed 1 for the TSC's timestamps, 0 for
 * none, 2 for the counted pass's (docs/timing.md "Core cycles"). */
.macro SCHEME32_EACH_KIND body, name
	\body \name, 1
	\body \name\()_bare, 0
	\body \name\()_counted, 2
.endm

/* Every i386 scheme ends here once FRAME32_VECTOR holds the vector: the
 * entry timestamp, the dispatch, the exit timestamp and the return; with
 * \timed 0, the same without the timestamps (2: the counted ones). An
 * entry variant adds its work after the registers are saved (\entry)
 * and before they are restored (\exit), as in long mode (irq.h
 * DISPATCH_TAIL); ECX (EBP, counted) carries the vector past it. \dispatch is the scheme's own copy of
 * DISPATCH32_ROUTINE: a call16 scheme runs in a code segment of its own
 * base, where only its own code is reachable by a near call. */

.macro DISPATCH32_TAIL dispatch, timed=1, entry=NOTHING, exit=NOTHING
	/* The counted timestamps take ECX for RDPMC: the vector waits in
	 * EBP, which the frame holds, and TIMESTAMP32_ENTRY moves it back. */
	.if \timed == 2
	movl FRAME32_VECTOR(%esp), %ebp
	.else
	movl FRAME32_VECTOR(%esp), %ecx
	.endif
	\entry
	.if \timed
	TIMESTAMP32_ENTRY %fs:PM_ENTRY, %fs:PM_ENTRY + 4, \timed, %fs:PM_COUNTER
	.endif
	call \dispatch
	.if \timed
	TIMESTAMP32_EXIT %fs:PM_EXIT, %fs:PM_EXIT + 4, \timed, %fs:PM_COUNTER
	.endif
	\exit
	IDT32_RETURN
.endm

/* What long mode's irq_dispatch does, for the 32-bit phase: counts the
 * vector in ECX, marks the arrival, sends the xAPIC EOI when the source
 * needs one, and raises the in-handler fault of the self-test. Clobbers
 * EAX, which the frame holds. */
.macro DISPATCH32_ROUTINE name
\name:
	incl %fs:PM_DELIVERED(, %ecx, 4)
	movl %ecx, %fs:PM_LAST_VECTOR
	movl $1, %fs:PM_ARRIVED
	movl %fs:PM_EOI, %eax
	testl %eax, %eax
	jz 1f
	movl $0, (%eax)
1:	cmpl $0, %fs:PM_FAULT_ONCE
	jne 2f
	ret
2:	movl $0, %fs:PM_FAULT_ONCE
	ud2
.endm

/* Starts a scheme's 32-bit code: \id_code is the first byte, which a
 * call16 scheme's code segment is based at. */
.macro I386_CODE id
	GATE_TABLE \id\()_gates
	.section .text.irqlab.i386.\id, "ax"
	.code32
	.balign 64
	.globl \id\()_code, \id\()_code_end
\id\()_code:
.endm

.macro I386_CODE_END id
	DISPATCH32_ROUTINE \id\()_dispatch
\id\()_code_end:
	.code64
.endm

#else

#include <stddef.h>
#include <stdint.h>

struct i386_scheme {
	uint8_t id;		/* enum scheme_id (arch/matrix.h) */
	/* As long mode's (schemes.h), with no exception entry. */
	struct scheme_code code[HANDLER_KINDS];
	uint8_t segment;	/* enum pm_gate_segment */
	uint32_t stub_bytes;	/* per vector; 0 for none */
	uint32_t data_bytes;	/* descriptors it adds */
	/* The scheme the 32-bit phase's fault self-test runs under: one
	 * whose stubs reach a common path, as in long mode (schemes.h). */
	uint8_t fault_selftest;
};

extern const struct i386_scheme i386_schemes[];
extern const size_t i386_scheme_count;
/* i386-direct: the i386 rows' floor, as direct is long mode's. */
extern const struct i386_scheme *const i386_baseline;

/* i386-direct's entry variants (seeds 002 and 003): one handler each for
 * VARIANT_VECTOR, the direct handler plus the variant's work. */
struct i386_variant {
	uint8_t id;		/* enum variant_id (arch/matrix.h) */
	const void *handler[HANDLER_KINDS];
};

extern const struct i386_variant i386_variants[];
extern const size_t i386_variant_count;

/* Points the 32-bit gates at the scheme's handlers of one kind. */
void i386_install(const struct i386_scheme *s, enum handler_kind kind);
void i386_install_variant(const struct i386_variant *v, enum handler_kind kind);

/* NULL when the scheme's code can run in the 32-bit phase. */
const char *i386_unsupported(const struct i386_scheme *s);

#endif
#endif
