/* Phase A (docs/run.md): boot services up, no records pending. It
 * identifies the machine, allocates every buffer, brings the reset back
 * here through BootNext, makes sure the variable store has room for the
 * results, exits boot services and hands the run to phase B. */
#ifndef IRQLAB_EFI_PHASE_A_H
#define IRQLAB_EFI_PHASE_A_H

#include <efi.h>

#include "bench/model/config_parse.h"
#include "efi/run_state.h"

/* Measures the run `next` names, with `run->config` loaded. Returns only
 * when the run cannot go ahead, after saying why on screen. */
EFI_STATUS phase_a(struct run_state *run,
		   const struct config_problems *config_problems,
		   const struct next_run *next);

#endif
