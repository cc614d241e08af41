/* The end screen: what a person reads at the machine, within 80 x 25
 * (END_SCREEN_COLS x END_SCREEN_LINES, a line left for the prompt): the
 * machine, the clock and its unit, the counts, each scheme's round trip
 * and its overhead against `direct` for INT n and one self-IPI, and the
 * folder the files are in. headline.txt is the same page. */
#ifndef IRQLAB_BENCH_REPORT_END_SCREEN_H
#define IRQLAB_BENCH_REPORT_END_SCREEN_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"

#define END_SCREEN_COLS 79
#define END_SCREEN_LINES 24
/* Where the runs' folders are on the stick (efi/run_store.h). */
#define REPORT_RESULTS_ROOT "\\EFI\\irqlab\\results"

/* Without a folder (NULL), phase B's page: the results were not kept,
 * the store having refused them, or under handoff = serial they are on
 * COM1 alone, for irqlab-rescue --blob. */
void report_end_screen(struct text_buf *tb, const struct run_result *r,
		       const char *folder);
/* headline.txt: the end screen's page, naming the run's folder on the
 * stick (a serial handoff's: phase B's page, naming COM1), for the
 * runners to print first (docs/reading.md "Reading the results").
 * 0, or -1 where `tb` was too small. */
int report_headline(struct text_buf *tb, const struct run_result *r,
		    const struct report_context *ctx);

#endif
