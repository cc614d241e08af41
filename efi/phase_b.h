/* Phase B (docs/run.md): irqlab owns the machine. Its own descriptor
 * tables and paging, the experiments, the results into UEFI variables,
 * and a reset into phase C. */
#ifndef IRQLAB_EFI_PHASE_B_H
#define IRQLAB_EFI_PHASE_B_H

#include "efi/run_state.h"

/* Right after ExitBootServices, with the run phase A allocated. Never
 * returns: it ends in a reset, or a power-off where the results could
 * not be kept. */
void phase_b(struct run_state *run) __attribute__((noreturn));

#endif
