/* The runtime services irqlab calls (UEFI spec §8): SetVariable,
 * QueryVariableInfo and ResetSystem. In phase B each call runs under the
 * exception guard (arch/exceptions.h): a fault in the firmware's code is
 * caught, and runtime services are not called again after it; a reset
 * the firmware does not make is made through the ports (arch/reset.h).
 * Before phase B they are called as they are. docs/run.md "When the
 * firmware fails" tells the whole story. */
#ifndef IRQLAB_EFI_RUNTIME_H
#define IRQLAB_EFI_RUNTIME_H

#include <efi.h>

#include "bench/model/config.h"

/* Phase B, once its IDT is loaded: calls go under the guard, and the
 * config's simulated firmware failures (setvariable-error,
 * setvariable-fault, reset-returns) apply from now on. */
void runtime_guard_on(const struct irqlab_config *c, uint64_t tsc_hz);

/* Why runtime services are no longer called, or NULL while they are. */
const char *runtime_lost(void);

EFI_STATUS runtime_set_variable(CHAR16 *name, EFI_GUID *guid,
				UINT32 attributes, UINTN size,
				const void *data);
EFI_STATUS runtime_query_variable_info(UINT32 attributes, UINT64 *max_storage,
				       UINT64 *remaining, UINT64 *max_variable);
/* ResetSystem; should it return, fault or be lost, the ports. */
__attribute__((noreturn)) void runtime_reset(EFI_RESET_TYPE type);

/* The end of a serial handoff (docs/run.md "Firmware that cannot keep
 * results"): ResetSystem's shutdown where `offered`. Returns, having said
 * why, only where the machine is still on: not offered, returned,
 * faulted or lost. No reset is tried. */
void runtime_power_off(int offered);

/* What a call returns once runtime services are lost. */
#define RUNTIME_LOST_STATUS EFI_ABORTED

#endif
