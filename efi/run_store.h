/* The runs on the ESP (docs/uefi-variables.md "Parts", docs/run.md):
 * each run's folder under RESULTS_ROOT, and beside its files the blobs
 * a series and a run in parts are joined from. */
#ifndef IRQLAB_EFI_RUN_STORE_H
#define IRQLAB_EFI_RUN_STORE_H

#include <efi.h>

#include "bench/model/records.h"
#include "bench/model/results.h"
#include "bench/report/report.h"
#include "efi/volume.h"

#define RESULTS_ROOT REPORT_RESULTS_ROOT
/* A run's blob joined from its parts can outgrow one handoff. */
#define RUN_FILE_BYTES (HANDOFF_MAX_BLOB * RESULTS_MAX_PARTS)

/* A new run's id, from the firmware's clock; 0 when it has none. */
uint64_t run_store_new_id(void);
/* The folder of run `run_id`, with `suffix` after its name. */
void run_store_folder(uint64_t run_id, const char *suffix, char *out,
		      size_t cap);
/* A blob beside the run's files. The run's own one (part 0): the series
 * reads earlier runs back from it, and a later boot recognises the
 * run's records by it; a final run writes it last, after its other
 * files. A part's: phase C joins the parts from them. */
const char *run_store_write_blob(struct volume *v,
				 const struct run_result *r, unsigned part,
				 const uint8_t *blob, size_t len, char *scratch);
/* The run `r`, the last of its parts, joined with the parts before it,
 * read back from where its files are kept. Returns NULL, or what is missing. */
const char *run_store_join_parts(const struct volume *v, struct run_result *r,
				 uint8_t *blob);
/* Whether the run a record belongs to is already kept (on the ESP or the lab's server): a
 * run-<k>.bin in its folder with the blob's length and CRC. */
int run_store_holds(const struct volume *vol, const struct record_view *v,
		    uint8_t *scratch);
/* The earlier runs of the series `r` ends, read back from where its files are kept, then
 * `r` itself. Returns how many `runs` holds. */
size_t run_store_load_series(const struct volume *v, const struct run_result *r,
			     const struct run_result **runs, uint8_t *blob);

#endif
