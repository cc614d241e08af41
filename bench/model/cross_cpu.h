/* The arithmetic of the cross-CPU section (docs/cross-cpu.md): the bound
 * on two processors' TSC offset from a ping-pong, what a one-way figure
 * is once corrected by it and when it is too loose to show, and each
 * relation's median over the matrix. Plain C, host-built too. */
#ifndef IRQLAB_BENCH_MODEL_CROSS_CPU_H
#define IRQLAB_BENCH_MODEL_CROSS_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/results.h"

/* The offset of B's TSC against A's (B less A) lies in low .. high: in a
 * round where A read t0, B then read tb, and A then read t1 after seeing
 * B's answer, B's tb was taken between A's t0 and t1, so tb - t1 <=
 * offset <= tb - t0. Each round narrows the bound; high < low means the
 * TSCs moved apart during the rounds. */
struct skew_bound {
	int64_t low, high;
	uint32_t rounds;
};

void skew_bound_init(struct skew_bound *b);
void skew_bound_add(struct skew_bound *b, uint64_t t0, uint64_t tb,
		    uint64_t t1);

/* The largest half-width a one-way figure may carry, in per mille of its
 * median: beyond it the figure says more about the bound than the IPI. */
#define ONE_WAY_MAX_HALF_WIDTH_PERMILLE 250

/* Why a one-way figure with this bound and corrected median cannot be
 * shown (CELL_WHY_NONE: it can), as a matrix cell keeps it. */
enum cell_why skew_bound_why(const struct skew_bound *b, uint64_t median);
/* The same as a row's sentence, with the bound's figures, written into
 * why; NULL where it can be shown. */
const char *skew_bound_unusable(const struct skew_bound *b, uint64_t median,
				char *why, unsigned cap);

/* The target's TSC at its handler's entry, in the sender's time (the
 * bound's middle taken off), less the sender's TSC before its ICR write;
 * 0 where the correction takes it below zero (*clamped counts those). */
uint64_t one_way_corrected(uint64_t sent, uint64_t entered,
			   const struct skew_bound *b, uint32_t *clamped);

/* Whether a row of cross[] is a pair of the matrix kept in full (one of
 * its ipi-ack and ipi-oneway, with its distribution), whose medians its
 * cell has too; else it is a broadcast, or the one row that says why
 * the section did not run (sender and target the boot CPU). */
int cross_row_is_kept_pair(const struct cross_result *c);

/* The median of the pair medians of `kind`'s ok figures whose relation
 * is `relation`: the matrix's cells for ipi-ack and ipi-oneway, the
 * rows for the broadcasts; *pairs says how many went into it (0:
 * none). */
uint64_t cross_relation_median(const struct run_result *r, unsigned kind,
			       unsigned relation, uint32_t *pairs);
/* The same over the rows from a core of type `sender_core` to one of
 * type `target_core` (CPUID.1AH:EAX[31:24]), on a hybrid CPU. */
uint64_t cross_core_median(const struct run_result *r, unsigned kind,
			   unsigned sender_core, unsigned target_core,
			   uint32_t *pairs);
/* Whether any row names a core type: the CPU is hybrid. */
int cross_hybrid(const struct run_result *r);

/* The samples each pair of the matrix (and each broadcast row) takes:
 * a quarter of a row's, at least CROSS_MIN_SAMPLES (a row's own where
 * it has fewer), and at most CROSS_SECTION_SAMPLES over all the pairs.
 * That is what 8 processors' 56 pairs took at a row's default 10,000,
 * so more processors take fewer each and the section's time stays
 * bounded: it times at most 140,000 acknowledged samples (4,032 pairs
 * of 64 processors take 34 each) up to 7,000 pairs, and 20 a pair past
 * them (CROSS_MIN_SAMPLES), besides each pair's 10 warm-ups and,
 * where the TSC is invariant, 256 rounds of ping-pong (docs/cross-cpu.md
 * "The matrix"). */
#define CROSS_SECTION_SAMPLES 140000
#define CROSS_SAMPLES_DIVISOR 4
#define CROSS_MIN_SAMPLES 20
uint32_t cross_samples_per_pair(uint32_t row_samples, uint32_t pairs);

/* How many processors the full matrix takes at most under the cpus
 * key's value `cpus_key`: RESULTS_ALL_MATRIX_CPUS for cpus = all,
 * RESULTS_FULL_MATRIX_CPUS otherwise (docs/cross-cpu.md "Past 64"). */
uint32_t cross_full_most(uint32_t cpus_key);
/* Which of `n` processors, in topology order, take part in the full
 * matrix: every one up to `most`, else that many spread evenly over the
 * order (every second processor of 128, at 64), so that the heatmap
 * spans every package and cache, the boot CPU (`boot`) in place of the
 * one nearest it. full[i] says it; returns how many. */
uint32_t cross_full_choice(uint32_t n, uint32_t boot, uint32_t most,
			   uint8_t *full);
/* The processors a processor past the full matrix is measured against,
 * both ways: the boot CPU, then for each relation (enum cpu_relation,
 * closest first) the first processor in topology order that stands so
 * to it, each once. ids[] are the n processors' APIC IDs; p and boot
 * index them; out[] takes at most CPU_RELATION_COUNT. Returns how
 * many. */
uint32_t cross_partners(const struct topology *t, const uint32_t *ids,
			uint32_t n, uint32_t p, uint32_t boot, uint16_t *out);
/* Whether the pair of p and q, both past the full matrix, was measured
 * (both ways) with q, since q comes first and took p as a partner:
 * every part can tell, from the indices alone, which pairs p's own
 * turn leaves out. full[] is cross_full_choice's. */
int cross_pair_measured_before(const struct topology *t, const uint32_t *ids,
			       uint32_t n, const uint8_t *full, uint32_t boot,
			       uint32_t p, uint32_t q);
/* The most cells a section of `cpus` processors makes, the full matrix
 * taking at most `most` of them: every ordered pair of the full
 * matrix's, and two for each partner of each processor past it. */
uint32_t cross_cell_bound(uint32_t cpus, uint32_t most);

/* What the section takes in the handoff at most: a row kept in full
 * encoded, and a cell compressed as a 64-processor matrix compresses
 * whose medians spread evenly over a factor of ten, as plain TCG's
 * noise spreads them: 7.9 bytes a cell (tests/unit/test_serialize.c
 * holds both to it). */
#define CROSS_ROW_BYTES 48
#define CROSS_CELL_BYTES 9
/* The room part 1 keeps for a section of `cpus` processors (the matrix
 * takes at most RESULTS_MAX_MATRIX_CPUS), `most` of them in the full
 * matrix at most: its cells at most (cross_cell_bound), its rows kept
 * in full and their distributions. */
size_t cross_handoff_reserve(uint32_t cpus, uint32_t most);

/* A halted or MWAITing target may wake without an interrupt or a new
 * command at most once per TARGET_WAKEUPS_PER_INTERRUPTS interrupts it
 * took. Each such wake-up is a moment it was not waiting, so at most one
 * sample may have found it awake; at 1 in 100 those samples, faster
 * than the rest, can move the median by at most one percentile rank.
 * More, and the row times a target that does not wait. */
#define TARGET_WAKEUPS_PER_INTERRUPTS 100

/* Why a row whose target woke `wakeups` times without an interrupt while
 * taking `took` interrupts fails, written into why; NULL where within
 * the bound. */
const char *target_wakeups_past_bound(uint32_t wakeups, uint32_t took,
				      char *why, unsigned cap);

/* What the section's figures are under this clock (enum clock_kind):
 * only on hardware (or KVM) are they latencies. Under -icount QEMU runs
 * the vCPUs round-robin, so a figure between two of them is where its
 * scheduler switched, not what an IPI costs. */
const char *cross_figures_meaning(unsigned clock_kind);
/* Whether they are latencies: only on the TSC's ticks. Under an emulator
 * the processors take turns, and the figures are its scheduling. */
int cross_figures_are_latencies(unsigned clock_kind);
/* Whether row e's figures are not latencies: a row between CPUs (an
 * ipi-cpu-* source) under an emulator. The answer leaves such rows out,
 * and every table that shows them says what they are. */
int row_figures_not_latencies(const struct run_result *r,
			      const struct experiment_result *e);

#endif
