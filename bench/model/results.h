/* The data model of one run: what phase B measures, what the handoff
 * carries across the reset, and what phase C writes; the queries the
 * reports ask of it, and the joining of a run measured in parts. Its
 * enums and their names are in bench/model/names.h, what its clock is in
 * bench/model/clock.h: both come with this header, since every reader of
 * a run_result needs them. Plain C only. */
#ifndef IRQLAB_BENCH_MODEL_RESULTS_H
#define IRQLAB_BENCH_MODEL_RESULTS_H

#include <stdint.h>

#include "bench/model/axes.h"
#include "bench/model/clock.h"
#include "bench/model/config.h"
#include "bench/model/mitigations.h"
#include "bench/model/names.h"
#include "bench/model/topology.h"
#include "bench/model/stats.h"

#define RESULTS_MAX_EXPERIMENTS 255
#define RESULTS_NAME_LEN 56
/* A row's name (row_name): a source, a scheme, a variant of up to 30
 * characters (a file of yours, docs/your-entry.md), a cache state and
 * the processor. A label only: the blob carries the row's id. */
#define RESULTS_ROW_NAME_LEN 96
#define RESULTS_REASON_LEN 128
#define RESULTS_WARNINGS_LEN 240

/* The machine the run measured: what identifies it, and what its
 * figures depend on. */
struct machine_info {
	char cpu_vendor[13];
	char brand[49];
	char hypervisor[13]; /* CPUID 0x40000000 signature, "" on bare metal */
	char acpi_oem_id[7]; /* the MADT's OEM ID, "" without one */
	uint32_t family, model, stepping;
	uint32_t microcode;	/* IA32_BIOS_SIGN_ID (Intel) or PATCH_LEVEL
				 * (AMD), 0 where unknown */
	/* What moves the core clock against the TSC (docs/timing.md "TSC
	 * ticks are not cycles"): the invariant-TSC bit, turbo (Intel) or
	 * core performance boost (AMD), hardware P-states (HWP), and the
	 * boot CPU's core type on a hybrid part (CPUID 1AH). */
	uint8_t invariant_tsc;
	uint8_t boost;		/* enum boost_state */
	uint8_t hwp;		/* enum hwp_state */
	uint8_t core_type;	/* CPUID 1AH EAX[31:24]; 0 when not hybrid */
	char fw_vendor[RESULTS_NAME_LEN * 2];
	uint32_t fw_revision;
	uint32_t uefi_revision;
	uint64_t llc_bytes;	/* last-level cache per CPUID, 0 if unknown */
	/* SMBIOS type 1: "" where the firmware has none */
	char system_vendor[48];
	char system_product[48];
	char system_version[48];
	/* From the ACPI MADT; madt_found 0 means the rest are unknown. */
	uint8_t madt_found;
	uint64_t lapic_address;
	uint32_t ioapic_count;
	uint32_t lapic_count;
	/* What the mitigation rule reads (bench/model/mitigations.h). */
	struct mitigation_bits mitigation;
	/* Where processors sit (bench/model/topology.h), from the boot
	 * CPU's leaves, and the relation of each other processor the MADT
	 * lists to it, counted by enum cpu_relation. */
	struct topology topology;
	uint16_t relation_count[CPU_RELATION_COUNT];
};

/* One row of the plan (struct row_id): the checks done before timing,
 * what disturbed it, and its raw figures. */
struct experiment_result {
	struct row_id id;
	/* The row it is compared with: the same source and APIC pass under
	 * its CPU mode's floor scheme, or the entry variants' baseline, or
	 * its own warm row; a floor row's and a self-test's is its own id. */
	struct row_id baseline;
	char name[RESULTS_ROW_NAME_LEN];	/* row_name(&id), a label only */
	uint8_t status;		/* enum exp_status */
	uint8_t vector;
	uint8_t apic_mode;	/* local APIC mode during the row: 0 none,
				 * 1 xAPIC, 2 x2APIC */
	char reason[RESULTS_REASON_LEN];	/* for skipped / failed */
	uint32_t delivered;	/* interrupts the handler counted */
	uint32_t extra;		/* a repeating source's interrupts beyond
				 * one per sample, not in `delivered` */
	/* Correctness checks done before timing: vectors delivered and
	 * reported as themselves, and interrupts after which every general
	 * register and RFLAGS were intact. */
	uint16_t vectors_verified;
	uint32_t register_checks;
	/* Samples thrown away because an SMI or NMI landed in their batch
	 * (and taken again), and how many batches that was. */
	uint32_t discarded;
	uint32_t discarded_batches;
	/* The core clock against the TSC's over each kept batch, lowest
	 * and highest, in thousandths (APERF/MPERF); 0 where not measured.
	 * Apart by more than FREQUENCY_STABLE_PERMILLE: UNSTABLE
	 * (frequency). */
	uint32_t clock_ratio_low, clock_ratio_high;
	/* A row whose target halts or MWAITs between samples: the times
	 * its wait ended with neither an interrupt nor a new command
	 * (docs/cross-cpu.md "Wake-ups without an interrupt"). */
	uint32_t target_wakeups;
	/* A row between CPUs: samples whose answer came only after the
	 * sample's own wait (WAIT_BUDGET_MS) ran out, but within
	 * OTHER_CPU_LATE_MS, its processor waiting for a host core under an
	 * emulator: measured as they were, counted here
	 * (docs/cross-cpu.md "Waits for another processor"). */
	uint32_t late;
	/* Raw deltas, before the instrument floor is taken off. */
	struct sample_stats metric[METRIC_COUNT];
};

/* Each row keeps the histograms of entry, exit and round trip, each at
 * most this many bytes encoded (hist_encode: about 3 bytes a bucket). */
#define ROW_HIST_METRICS 3
#define ROW_HIST_BYTES 384

/* The distribution of one row's entry, exit or round trip (the first
 * ROW_HIST_METRICS metrics), raw and hist_encode'd, in TSC ticks or, from
 * ROW_HIST_CYCLES on, in the counted pass's core cycles. They are a list
 * of their own, so that rows without one cost the handoff nothing: a row
 * keeps none where its histogram needs more than ROW_HIST_BYTES, or the
 * handoff's budget has no room left (results_fit_histograms). */
struct row_histogram {
	uint8_t row;		/* its experiment's index in exp[] */
	uint8_t metric;		/* enum metric_id, or ROW_HIST_CYCLES + it */
	uint16_t len;
	uint8_t bytes[ROW_HIST_BYTES];
};
/* A row's kinds of histogram: the ROW_HIST_METRICS in TSC ticks, then
 * the same in core cycles from ROW_HIST_CYCLES on. */
#define ROW_HIST_CYCLES ROW_HIST_METRICS
#define ROW_HIST_KINDS (2 * ROW_HIST_METRICS)
#define RESULTS_MAX_ROW_HISTS (RESULTS_MAX_EXPERIMENTS * ROW_HIST_KINDS)

/* One row's counted pass (docs/timing.md "Core cycles"), raw, before the
 * counted floors: entry, exit and both round trips in core cycles
 * (cycles[], by enum metric_id), and the round trip through the bare
 * handlers in instructions retired, the path length -icount gives. A
 * list of its own, as the histograms are, so that a run without
 * counters costs the handoff nothing. */
struct counted_row {
	uint8_t row;		/* its experiment's index in exp[] */
	struct sample_stats cycles[METRIC_COUNT];
	struct sample_stats instructions;
};
/* Buffers of the counted pass: the core-cycle metrics, then this. */
#define COUNTED_INSTRUCTIONS METRIC_COUNT
#define COUNTED_METRICS (METRIC_COUNT + 1)

#define RESULTS_MAX_PRIMITIVES 32
#define PRIMITIVE_BLOCK_REPS 1024

/* One primitive micro-benchmark: ticks per block of
 * PRIMITIVE_BLOCK_REPS repetitions, raw; and core cycles per block from
 * the counted pass, raw (count 0 where it did not run). */
struct primitive_result {
	char name[RESULTS_NAME_LEN];
	uint8_t status;		/* enum exp_status */
	char reason[RESULTS_REASON_LEN];
	struct sample_stats block;
	struct sample_stats cycles_block;
};

#define RESULTS_MAX_GAPS 12
#define GAP_HIST_BYTES 384	/* a sparse histogram, encoded */

/* The gap method (seed 000, Ingo Molnar): a TSC loop interrupted by a
 * periodic LAPIC timer handled by one scheme. */
struct gap_result {
	uint8_t scheme;		/* enum scheme_id */
	uint8_t status;		/* enum exp_status */
	char reason[RESULTS_REASON_LEN];
	uint64_t loop_median;	/* an undisturbed loop iteration, raw */
	uint64_t threshold;	/* deltas above it are gaps */
	struct sample_stats gaps;	/* raw deltas, loop included */
	/* The timer's interrupts delivered while the loop ran, and the gaps
	 * beyond them: stalls no interrupt of the timer's made (SMIs, a
	 * host's preemption), which the high percentiles then include. */
	uint32_t interrupts;
	uint32_t stalls;
	uint8_t noise_moved;	/* the SMI or NMI count moved during the loop */
	/* hist_len 0 on an ok row: the histogram did not fit
	 * GAP_HIST_BYTES, and the row keeps its percentiles only */
	uint16_t hist_len;
	uint8_t hist[GAP_HIST_BYTES];	/* hist_encode of the gaps */
	/* The counted pass's loop iteration and gaps, in core cycles, raw
	 * (docs/timing.md "Core cycles"); count 0 where it did not run. */
	uint64_t cycles_loop_median;
	struct sample_stats cycles_gaps;
};

/* What one platform probe found (PROBE_LIST), in run_result's probe[]. */
struct probe_result {
	uint8_t state;		/* enum probe_state */
	char detail[RESULTS_REASON_LEN];
};

/* A broadcast row's target. */
#define CROSS_ALL_TARGETS 0xffffffffu

/* The section's rows in full: the two broadcast rows, and for each
 * relation the first pair whose ipi-ack ran ok, both its kinds, kept
 * with its distribution; or the one row that says why the section did
 * not run. Every pair's medians are in the matrix (struct matrix_cell). */
#define RESULTS_MAX_CROSS (2 + 2 * CPU_RELATION_COUNT)
#define RESULTS_MAX_CROSS_HISTS CPU_RELATION_COUNT

/* The matrix between CPUs (docs/cross-cpu.md "The matrix"): the boot
 * CPU and every other processor the section takes, in topology order,
 * up to 512 (arch/desc.h's DESC_OTHER_CPUS). By default (cpus = auto)
 * up to 64 of them take part in the full matrix, every ordered pair of
 * them as its two medians (4,032 cells at most); each processor past
 * those is measured against the boot CPU and one processor of each
 * relation, both ways (docs/cross-cpu.md "Past 64"). cpus = all takes
 * up to 128 into the full matrix (16,256 cells, in parts): what the
 * handoff's RESULTS_MAX_PARTS parts carry ("The full matrix on
 * request"). */
#define RESULTS_MAX_MATRIX_CPUS 512
#define RESULTS_FULL_MATRIX_CPUS 64
#define RESULTS_ALL_MATRIX_CPUS 128
#define RESULTS_MAX_CELLS                                                   \
	(RESULTS_ALL_MATRIX_CPUS * (RESULTS_ALL_MATRIX_CPUS - 1) +             \
	 (RESULTS_MAX_MATRIX_CPUS - RESULTS_ALL_MATRIX_CPUS) * 2 *             \
		 CPU_RELATION_COUNT)

/* A processor of the matrix: its APIC ID, its core type on a hybrid
 * CPU (CPUID.1AH:EAX[31:24]; 0 elsewhere), and whether it is one of the
 * full matrix's (1) or measured against a few (0). */
struct matrix_cpu {
	uint32_t apic_id;
	uint8_t core;
	uint8_t full;
};

/* One ordered pair of the matrix: the ipi-ack and ipi-oneway medians
 * (CROSS_ACK, CROSS_ONE_WAY), each with its status and, where not ok,
 * its reason (enum cell_why). */
struct matrix_cell {
	uint16_t sender, target;	/* indices into matrix_cpu[] */
	uint8_t relation;		/* enum cpu_relation */
	uint8_t ack_status, one_way_status;	/* enum exp_status */
	uint8_t ack_why, one_way_why;		/* enum cell_why */
	/* Samples measured as they were, past the sample's wait. */
	uint16_t late;
	/* TSC ticks; 0 where not ok. */
	uint32_t ack, one_way;
	/* The one-way figures' offset bound: half its width, in ticks
	 * (struct cross_result's skew_low .. skew_high). */
	uint32_t offset_plus_minus;
};

/* One row of the cross-CPU section (docs/cross-cpu.md), of a kind in
 * CROSS_KIND_LIST. */
struct cross_result {
	uint8_t kind;		/* enum cross_kind */
	uint8_t status;		/* enum exp_status */
	uint8_t relation;	/* enum cpu_relation; a broadcast's: the
				 * farthest target's */
	uint8_t apic_mode;	/* enum lapic_mode */
	uint32_t sender;	/* APIC ids; target CROSS_ALL_TARGETS for */
	uint32_t target;	/* the broadcast rows */
	uint32_t targets;	/* the acknowledgements each sample waits for */
	/* Samples whose acknowledgements came past the sample's wait, and
	 * were measured as they were (experiment_result's `late`). */
	uint32_t late;
	/* Hybrid CPUs: each end's core type, CPUID.1AH:EAX[31:24] (20H
	 * an Atom, efficiency core; 40H a Core, performance core); 0 where
	 * not hybrid (core_type_name). */
	uint8_t sender_core, target_core;
	/* ONE_WAY: the target's TSC less the sender's, bounded by a
	 * ping-pong (docs/cross-cpu.md "One way"): it lies in
	 * skew_low .. skew_high ticks; the figures are corrected by the
	 * middle, so each is good to +- half the width. */
	int64_t skew_low, skew_high;
	char reason[RESULTS_REASON_LEN];
	struct sample_stats time;	/* TSC ticks, raw */
};

/* A processor that ran rows in the boot CPU's place (docs/cross-cpu.md
 * "The matrix on another processor"): its core type, and its instrument
 * floor, measured there: a P-core and an E-core need not read the TSC
 * at one cost. */
#define RESULTS_MAX_OTHER_CPUS 4
struct other_cpu {
	uint8_t cpu;		/* as struct row_id's cpu: MADT index + 1 */
	/* CPUID.1AH:EAX[31:24] as it read it (20H Atom, 40H Core, SDM vol.
	 * 2A) on a hybrid CPU; 0 elsewhere, as machine.core_type. */
	uint8_t core_type;
	struct sample_stats floor;	/* raw, as run_result's floor */
};

/* The core clock of each processor that ran rows in the boot CPU's
 * place or took part in the section between CPUs (docs/timing.md
 * "Pinning the frequency"): pinned as the boot CPU was, or not and why,
 * whether LFENCE serialises there, and APERF/MPERF over a known loop
 * once pinned. The boot CPU's own are its probes. */
#define RESULTS_MAX_CPU_CLOCKS (RESULTS_MAX_MATRIX_CPUS + RESULTS_MAX_OTHER_CPUS)
struct cpu_clock {
	/* MADT index + 1, as struct other_cpu's, but any started processor
	 * may have one: past 254 where the MADT lists that many. */
	uint16_t cpu;
	uint8_t pin;		/* enum cpu_pin_state, as it was last pinned */
	uint8_t fence;		/* enum cpu_fence_state */
	/* 1 where what the pin changed was put back on it before each INIT
	 * that parked it; 0 where it faulted first. */
	uint8_t restored;
	/* enum cpu_turbo_state, the worst over its starts. */
	uint8_t turbo;
	/* APERF/MPERF in thousandths over a known loop after the pin, as
	 * it was last started; 0 where the boot CPU found none. */
	uint32_t ratio_milli;
	uint32_t starts;	/* how many times it was started and pinned */
};

/* A dispatch scheme's footprint in this build: carried in the handoff,
 * since only the binary that ran knows its code's size. */
#define RESULTS_MAX_SCHEMES 24
struct scheme_footprint {
	uint8_t scheme;		/* enum scheme_id */
	uint32_t stub_bytes;	/* one vector's stub */
	uint32_t code_bytes;	/* all of the scheme's timed code */
	uint32_t data_bytes;	/* descriptors it adds */
};

/* One run, or one part of it, as phase B measured it and phase C
 * reports it. */
struct run_result {
	uint64_t run_id;	/* also names the results folder; the first
				 * run's, for every run of a series */
	uint8_t run_index;	/* 1 .. config.runs */
	/* The build that measured: 16 hex digits of the hash of its code
	 * (docs/timing.md "The path length, checked"). */
	char build[17];
	struct machine_info machine;
	struct irqlab_config config;	/* every key, as the run used it */
	/* What irqlab.cfg had that was ignored (unknown keys), "" if nothing:
	 * fits one string-table entry of the handoff. */
	char config_warnings[RESULTS_WARNINGS_LEN];
	uint64_t tsc_hz;
	uint8_t tsc_method;	/* enum tsc_method */
	/* An independent calibration against a timer, as a cross-check of
	 * the above; 0 when none could be made. */
	uint64_t tsc_hz_check;
	uint8_t tsc_check_method;	/* enum tsc_method */
	/* Whether MSR_SMI_COUNT could be watched (Intel only). */
	uint8_t smi_count_watched;
	/* How LFENCE was made (or found) dispatch-serialising. */
	char fence_note[RESULTS_REASON_LEN];
	uint8_t clock_kind;	/* enum clock_kind */
	uint8_t boot_return;	/* enum boot_return */
	uint16_t boot_current;	/* Boot#### the run was started from */
	/* Whether phase B showed its progress on the framebuffer, and if not,
	 * why (it then went to serial only). */
	uint8_t progress_on_screen;
	char display_note[RESULTS_REASON_LEN];
	struct probe_result probe[PROBE_COUNT];
	/* Back-to-back fenced reads: its min is the floor taken off figures. */
	struct sample_stats floor;
	/* The same around the timed handler's two timestamps: less the
	 * floor, what they add to METRIC_ROUND_TRIP_TIMED. */
	struct sample_stats instrument;
	uint32_t n_experiments;
	struct experiment_result exp[RESULTS_MAX_EXPERIMENTS];
	uint32_t n_primitives;
	struct primitive_result prim[RESULTS_MAX_PRIMITIVES];
	uint32_t n_gaps;
	struct gap_result gap[RESULTS_MAX_GAPS];
	uint32_t n_schemes;
	struct scheme_footprint scheme[RESULTS_MAX_SCHEMES];
	uint32_t n_hists;
	struct row_histogram hist[RESULTS_MAX_ROW_HISTS];
	/* The counted pass (docs/timing.md "Core cycles"): its floors,
	 * measured as the TSC's are (back-to-back reads of the cycle counter,
	 * the handler's two counted timestamps, back-to-back reads of the
	 * instructions counter), count 0 where it did not run; and each
	 * row's figures. What counted them is the performance-counters
	 * probe's detail, and the clock's kind says whether an emulator's. */
	struct sample_stats cycles_floor, cycles_instrument, instructions_floor;
	/* Rows whose counted figures were dropped: the PMU's enables
	 * changed during their pass (bench/run/counters.h). */
	uint32_t counted_disturbed;
	uint32_t n_counted;
	struct counted_row counted[RESULTS_MAX_EXPERIMENTS];
	/* The processors rows ran on in the boot CPU's place. */
	uint32_t n_other_cpus;
	struct other_cpu other_cpu[RESULTS_MAX_OTHER_CPUS];
	/* The clocks of the processors in other_cpu[] and of those the
	 * section between CPUs took (cross[], below). */
	uint32_t n_cpu_clocks;
	struct cpu_clock cpu_clock[RESULTS_MAX_CPU_CLOCKS];
	/* The cross-CPU section, measured in part 1 after the primitives. */
	uint32_t n_cross;
	struct cross_result cross[RESULTS_MAX_CROSS];
	/* The distribution of the first acknowledged pair of each relation
	 * that ran ok (docs/cross-cpu.md "In the handoff"): `row` indexes
	 * cross[], `metric` is 0. */
	uint32_t n_cross_hists;
	struct row_histogram cross_hist[RESULTS_MAX_CROSS_HISTS];
	/* The matrix between CPUs: its processors, the started ones the
	 * cpus key chose but the matrix did not take (past its 512), the
	 * samples each pair took, its cells (turn by turn in topology order:
	 * a full matrix processor's as its sender, one past it with its
	 * partners, both ways), and the cells a handoff too small for them
	 * all left out, the last sender's first (results_fit_histograms). */
	uint32_t n_matrix_cpus;
	struct matrix_cpu matrix_cpu[RESULTS_MAX_MATRIX_CPUS];
	uint32_t matrix_left_out;
	uint32_t matrix_samples;
	uint32_t n_cells;
	struct matrix_cell cell[RESULTS_MAX_CELLS];
	uint32_t cells_dropped;
	/* The matrix in parts (docs/cross-cpu.md "In the handoff"): the
	 * sender this part's matrix resumed at, and the one the next part
	 * resumes at, each as its index + 1; 0: from the first (part 1),
	 * and none to come. */
	uint16_t matrix_resume, matrix_next_sender;
	/* A run whose rows and histograms outgrow one handoff is measured in
	 * parts, a reset apart (docs/uefi-variables.md "Parts"): part `part`
	 * (from 1) took the plan's rows from first_row up to next_row, 0
	 * when it reached the end. Phase C joins the parts into one run. */
	uint8_t part;
	uint16_t first_row;
	uint16_t next_row;
	/* The experiment and gap rows the plan had, measured or not, as
	 * phase B's "plan: N rows" says (bench/model/row_counts.h). */
	uint16_t plan_rows;
	/* The other processors' starts (docs/cross-cpu.md "Starting the
	 * other processors"): how many times phase B started some at once,
	 * and the most starts any one of them took, summed and the largest
	 * over the parts. */
	uint32_t cpu_start_rounds, cpu_starts_most;
	/* The section between CPUs, part 1's, from its wake to its last
	 * park: the machine's time in TSC ticks (0: it did not run). */
	uint64_t cross_ticks;
};

/* Parts one run may take, a reset each. */
#define RESULTS_MAX_PARTS 8

/* Appends part `more`'s rows, gaps and histograms to `into` (part 1 and
 * the parts after it so far), and the matrix's cells where it resumed
 * the matrix, and takes over its end. Returns 0, or -1
 * when a table would overflow (nothing is changed then). */
int results_join_part(struct run_result *into, const struct run_result *more);

/* Sets what a platform probe found, its detail formatted: it records,
 * and probes nothing itself. */
void record_probe(struct run_result *r, enum probe_id id,
		  enum probe_state state, const char *format, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether the counted pass ran: it did where it measured its cycle
 * floor. */
enum counted_state results_counted_state(const struct run_result *r);

/* Experiment `row`'s counted figures, or NULL. */
const struct counted_row *results_counted(const struct run_result *r,
					  uint32_t row);

/* The histogram of experiment `row`'s `metric`, or NULL. */
const struct row_histogram *results_row_histogram(const struct run_result *r,
						  uint32_t row, unsigned metric);

/* The instrument floor (its min) of the processor row e ran on: the
 * boot CPU's, or the other processor's where it was measured there. */
uint64_t row_floor(const struct run_result *r,
		   const struct experiment_result *e);
/* ... and its core type: machine.core_type, or the other processor's
 * (0 where it never ran a row). */
uint8_t row_core_type(const struct run_result *r,
		      const struct experiment_result *e);
/* Whether ok row e's entry median is above its round trip's: they come
 * from separate passes (the timed and the bare handlers), so this says
 * they are not one interrupt's parts here, and every report flags it. */
int row_entry_above_round_trip(const struct experiment_result *e);
/* The experiment of that row, or NULL. */
const struct experiment_result *results_find(const struct run_result *r,
					     const struct row_id *row);
/* Whether a row has a baseline other than itself to be compared with. */
int results_has_baseline(const struct experiment_result *e);

/* Run ids are the firmware clock at the start of the run, YYYYMMDDhhmmss,
 * so folder names sort by time and are readable on any FAT driver. */
uint64_t run_id_from_time(unsigned year, unsigned month, unsigned day,
			  unsigned hour, unsigned minute, unsigned second);
/* Folder name for a run id: YYYYMMDD-hhmmss. */
void run_folder_name(uint64_t run_id, char *out, size_t cap);

#endif
