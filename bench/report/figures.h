/* What the report writers (results.json, summary.txt, the end screen)
 * derive from a run alike, so they cannot disagree: overheads against a
 * baseline, the spread across a series, footprints in cache lines. */
#ifndef IRQLAB_BENCH_REPORT_FIGURES_H
#define IRQLAB_BENCH_REPORT_FIGURES_H

#include <stddef.h>
#include <stdint.h>

#include "arch/lib/fmt.h"
#include "bench/model/mitigations.h"
#include "bench/model/results.h"
#include "bench/report/report.h"

/* The fences every timestamp uses (docs/timing.md), in words. */
extern const char report_fence_method[];

/* A mean in milli-units, net of the floor. */
int64_t net_mean_milli(uint64_t mean_milli, uint64_t floor);
/* EFI_SYSTEM_TABLE.Hdr.Revision as "2.70" or "2.3.1". */
void uefi_revision_text(uint32_t rev, char *out, size_t cap);
/* The ok baseline of an ok row, or NULL when there is nothing to compare. */
const struct experiment_result *comparable_baseline(
	const struct run_result *r, const struct experiment_result *e);
/* The gate's floor (scheme "gate") of an ok long-mode scheme row on the
 * same source and APIC pass, or NULL: none ran ok, or the row is a
 * variant, a cache state, a self-test or the gate's own. */
const struct experiment_result *gate_floor_of(
	const struct run_result *r, const struct experiment_result *e);
/* A row run on another processor (its id's cpu): the boot CPU's row of
 * the same id, where both ran ok; else NULL (docs/cross-cpu.md "The
 * matrix on another processor"). */
const struct experiment_result *boot_twin(const struct run_result *r,
					  const struct experiment_result *e);
/* Row e's TSC median of metric k, net of the floor of the processor it
 * ran on (row_floor). */
int64_t row_net_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k);
/* Why another processor's clock is as it is (struct cpu_clock,
 * docs/timing.md "Pinning the frequency"), in words: where it was not
 * pinned for the boot CPU's reason, that reason (its frequency-pin
 * probe). */
void cpu_clock_reason(const struct run_result *r, const struct cpu_clock *c,
		      char *out, size_t cap);
/* Its APERF/MPERF ratio's standing: "measured"; "absent on the boot
 * CPU" (its aperf-mperf probe found none); or "did not advance here"
 * where the boot CPU's did. */
const char *cpu_clock_ratio_note(const struct run_result *r,
				 const struct cpu_clock *c);
/* The name of the boot CPU's row of e's id: "int-fred" for
 * "int-fred@cpu2". */
void boot_row_name(const struct experiment_result *e, char *out, size_t cap);
/* Row e's median of metric k over its boot twin's, each net of the
 * floor of the processor it ran on. */
int64_t net_over_boot(const struct run_result *r,
		      const struct experiment_result *e,
		      const struct experiment_result *boot, unsigned k);
/* A mitigation row's twin in the cold cache state, or NULL. */
const struct experiment_result *cold_twin(const struct run_result *r,
					  const struct experiment_result *e);
/* The INT n rows of the one comparison docs/mitigations.md "FRED" names:
 * the IDT with Linux's set (int-direct+linux) and FRED with its own
 * (int-fred-linux); either NULL where it did not run. Returns whether
 * both ran ok, with FRED's round trip less the IDT's in *fred_less_idt,
 * net of nothing: the floor is the same on both. */
int idt_against_fred(const struct run_result *r,
		     const struct experiment_result **idt,
		     const struct experiment_result **fred,
		     int64_t *fred_less_idt);
/* Linux's decisions on the run's machine (bench/model/mitigations.h). */
void report_linux_choices(const struct run_result *r,
			  struct linux_choices *out);
/* The steps the linux variant ran: Linux's set (choices->steps), or
 * under simulate = linux-every-step every step the CPU could run, with
 * why_not[step] naming each it could not (NULL for the others, and
 * for every step of Linux's own set). */
uint32_t report_linux_steps(const struct run_result *r,
			    const struct linux_choices *choices,
			    const char *why_not[LINUX_STEPS]);
const char *linux_step_name(unsigned step);
/* "PTI, VERW" for the steps the linux variant ran, "none" for none. */
void linux_steps_text(uint32_t steps, char *out, size_t cap);
/* A row's median of metric `k` over its baseline's. */
int64_t median_over(const struct experiment_result *e,
		    const struct experiment_result *base, unsigned k);
/* The figures a report leads with (docs/timing.md "Core cycles"): core
 * cycles where the counted pass measured them on a real CPU's counters
 * (the clock is TSC ticks); else the TSC's. An emulator's counters,
 * whose cycle is an instruction step, never lead. */
int report_leads_with_cycles(const struct run_result *r);
/* The unit of the figures it leads with: "core cycles", or the clock's. */
const char *lead_unit(const struct run_result *r);
/* What the counted pass's cycle counter counts: "core cycles" on a real
 * CPU, the emulator's instruction steps under an emulator. */
const char *counted_cycles_unit(const struct run_result *r);
/* Row e's median of metric k, net of its floor, in the figures the
 * report leads with; INT64_MIN where the row has none there. */
int64_t lead_median(const struct run_result *r,
		    const struct experiment_result *e, unsigned k);
/* ... and over its baseline's, INT64_MIN where either has none. */
int64_t lead_median_over(const struct run_result *r,
			 const struct experiment_result *e,
			 const struct experiment_result *base, unsigned k);
/* Row e's counted median of metric k in core cycles, net of the cycle
 * floor, a real CPU's or an emulator's; INT64_MIN where it has none. */
int64_t counted_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k);
/* ... and over its baseline's, INT64_MIN where either has none. */
int64_t counted_median_over(const struct run_result *r,
			    const struct experiment_result *e,
			    const struct experiment_result *base, unsigned k);
/* 64-byte lines `bytes` spans at the least. */
uint32_t cache_lines(uint32_t bytes);
/* The catalog's words for a primitive; empty ones for an unknown name. */
const struct primitive_entry *primitive_info(const struct report_context *ctx,
					     const char *name);
/* The round-trip median of `name` in run `k` of a series, net of that
 * run's floor, or INT64_MIN when it did not run ok there. */
int64_t run_median(const struct report_context *ctx, size_t k,
		   const struct row_id *row);
/* Spread of the per-run medians, and whether it exceeds the tolerance
 * (percent of the smallest median). Returns 0 when some run lacks it. */
int run_spread(const struct report_context *ctx, const struct row_id *row,
	       uint32_t pct, int64_t *spread, int *unstable);
/* Gap figures net of one undisturbed loop iteration. */
int64_t net_of_loop(uint64_t gap, const struct gap_result *g);
/* The name of the row `e` is compared with; "" for a self-test, which
 * has none. */
void baseline_name(const struct experiment_result *e, char *out, size_t cap);
/* (check - primary) / primary TSC frequency, in parts per million. */
int64_t tsc_disagreement_ppm(const struct run_result *r);

#endif
