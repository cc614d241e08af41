/* Exceptions and the experiment guard.
 *
 * An exception while an experiment runs under guard_run() fails that
 * experiment only: the handler records what happened and resumes at the
 * guard's landing point. Anywhere else it is a framework fault: it is
 * logged, the fatal hook tries to persist what the run has, and the
 * machine stops. */
#ifndef IRQLAB_ARCH_EXCEPTIONS_H
#define IRQLAB_ARCH_EXCEPTIONS_H

#define EXCEPTION_STUB_STRIDE 16

#ifndef __ASSEMBLER__

#include <stdint.h>

#include "arch/frame.h"
#include "arch/vectors.h"

struct fault_info {
	uint64_t vector, error_code, rip, cr2;
};

/* Points every exception gate at its stub (NMI, #DF, #MC on IST). */
void exceptions_install(void);

/* Runs fn(arg). Returns 0 when it returned normally, or 1 when an
 * exception ended it, with the details in *fault. */
int guard_run(void (*fn)(void *), void *arg, struct fault_info *fault);

/* An MSR that may not exist, read or written under the guard: 0, or -1
 * when the access raised an exception (#GP for an MSR the CPU lacks).
 * Not from inside another guard_run. */
int msr_read_guarded(uint32_t msr, uint64_t *value);
int msr_write_guarded(uint32_t msr, uint64_t value);

/* Called once for a framework fault, before the machine stops. */
void exceptions_set_fatal_hook(void (*hook)(const struct fault_info *));

extern uint64_t nmi_count;

/* Called from exception_common with the saved frame. */
void exception_dispatch(struct irq_frame *f);

/* "#GP", "#PF", ... for a vector below 32. */
const char *exception_name(unsigned vector);

/* "#UD vector 6, error code 0x0, RIP 0x..., CR2 0x0": how every failed
 * row states the exception that ended it. */
void fault_describe(const struct fault_info *f, char *out, unsigned cap);

/* arch/guard.S */
int guard_enter(void (*fn)(void *), void *arg);
extern uint64_t guard_saved_rsp;
extern char guard_recover[];

#endif
#endif
