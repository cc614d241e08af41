/* Phase C (docs/run.md): the next boot, records pending. It writes the
 * result files, verifies them, deletes the records and powers off; or
 * keeps a part or an earlier run of a series on the ESP (or the lab's
 * server, docs/lab.md) and lets phase A measure the next one. */
#ifndef IRQLAB_EFI_PHASE_C_H
#define IRQLAB_EFI_PHASE_C_H

#include <efi.h>

#include "efi/run_state.h"
#include "efi/volume.h"

enum phase_c_outcome {
	PHASE_C_MEASURE,	/* phase A runs: `next` says which run */
	PHASE_C_DONE,		/* files written, or kept back: the boot ends */
};

/* Acts on irqlab's records, whatever the config says; `run` lends its
 * config and text buffer. Fills `next` when a series or a run in parts
 * goes on. */
enum phase_c_outcome phase_c(struct volume *volume,
			     struct run_state *run, struct next_run *next);

#endif
