#include "bench/model/blob_layout.h"

/* FIELD_OF(type, f, wire kind, bytes on the wire, limit): the entry of
 * `type`'s field `f`; the others are its common cases. */
#define FIELD_OF(type, f, wire_kind, n, lim)                                \
	{ wire_kind, n, sizeof(((type *)0)->f), offsetof(type, f), lim }
#define FIXED(type, f, n) FIELD_OF(type, f, WIRE_FIXED, n, 0)
#define ENUM(type, f, count) FIELD_OF(type, f, WIRE_FIXED, 1, count)
#define VAR(type, f) FIELD_OF(type, f, WIRE_VAR, 0, 0)
#define STRING(type, f) FIELD_OF(type, f, WIRE_STRING, 0, 0)
#define STATS(type, f) FIELD_OF(type, f, WIRE_STATS, 0, 0)

const struct field blob_run_fields[] = {
	FIXED(struct run_result, run_id, 8),
	FIXED(struct run_result, run_index, 1),
	STRING(struct run_result, machine.cpu_vendor),
	STRING(struct run_result, machine.brand),
	STRING(struct run_result, machine.hypervisor),
	STRING(struct run_result, machine.acpi_oem_id),
	FIXED(struct run_result, machine.family, 4),
	FIXED(struct run_result, machine.model, 4),
	FIXED(struct run_result, machine.stepping, 4),
	FIXED(struct run_result, machine.microcode, 4),
	FIELD_OF(struct run_result, machine.invariant_tsc, WIRE_FIXED, 1, 2),
	ENUM(struct run_result, machine.boost, BOOST_STATE_COUNT),
	ENUM(struct run_result, machine.hwp, HWP_STATE_COUNT),
	FIXED(struct run_result, machine.core_type, 1),
	STRING(struct run_result, machine.fw_vendor),
	FIXED(struct run_result, machine.fw_revision, 4),
	FIXED(struct run_result, machine.uefi_revision, 4),
	VAR(struct run_result, machine.llc_bytes),
	STRING(struct run_result, machine.system_vendor),
	STRING(struct run_result, machine.system_product),
	STRING(struct run_result, machine.system_version),
	FIXED(struct run_result, machine.madt_found, 1),
	FIXED(struct run_result, machine.lapic_address, 8),
	FIXED(struct run_result, machine.ioapic_count, 4),
	FIXED(struct run_result, machine.lapic_count, 4),
	FIXED(struct run_result, machine.mitigation.leaf1_ecx, 4),
	FIXED(struct run_result, machine.mitigation.leaf7_ebx, 4),
	FIXED(struct run_result, machine.mitigation.leaf7_edx, 4),
	FIXED(struct run_result, machine.mitigation.leaf7_2_edx, 4),
	FIXED(struct run_result, machine.mitigation.ext8_ebx, 4),
	FIXED(struct run_result, machine.mitigation.arch_capabilities, 8),
	FIELD_OF(struct run_result, machine.mitigation.arch_capabilities_read,
		 WIRE_FIXED, 1, 2),
	FIELD_OF(struct run_result, machine.topology.known, WIRE_FIXED, 1, 2),
	FIELD_OF(struct run_result, machine.topology.smt_shift, WIRE_FIXED, 1,
		 33),
	FIELD_OF(struct run_result, machine.topology.llc_shift, WIRE_FIXED, 1,
		 33),
	FIELD_OF(struct run_result, machine.topology.package_shift, WIRE_FIXED,
		 1, 33),
#define RELATION_FIELD(id, name)                                            \
	VAR(struct run_result, machine.relation_count[CPU_RELATION_##id]),
	CPU_RELATION_LIST(RELATION_FIELD)
#undef RELATION_FIELD
	FIELD_OF(struct run_result, config, WIRE_CONFIG, 0, 0),
	STRING(struct run_result, config_warnings),
	STRING(struct run_result, build),
	FIXED(struct run_result, tsc_hz, 8),
	ENUM(struct run_result, tsc_method, TSC_METHOD_COUNT),
	VAR(struct run_result, tsc_hz_check),
	ENUM(struct run_result, tsc_check_method, TSC_METHOD_COUNT),
	FIXED(struct run_result, smi_count_watched, 1),
	STRING(struct run_result, fence_note),
	ENUM(struct run_result, clock_kind, CLOCK_KIND_COUNT),
	ENUM(struct run_result, boot_return, BOOT_RETURN_COUNT),
	FIXED(struct run_result, boot_current, 2),
	FIXED(struct run_result, progress_on_screen, 1),
	STRING(struct run_result, display_note),
#define PROBE_FIELDS(id, name)                                              \
	ENUM(struct run_result, probe[PROBE_##id].state, PROBE_STATE_COUNT), \
	STRING(struct run_result, probe[PROBE_##id].detail),
	PROBE_LIST(PROBE_FIELDS)
#undef PROBE_FIELDS
	STATS(struct run_result, floor),
	STATS(struct run_result, instrument),
	STATS(struct run_result, cycles_floor),
	STATS(struct run_result, cycles_instrument),
	STATS(struct run_result, instructions_floor),
	VAR(struct run_result, counted_disturbed),
	FIELD_OF(struct run_result, part, WIRE_FIXED, 1, RESULTS_MAX_PARTS + 1),
	VAR(struct run_result, first_row),
	VAR(struct run_result, next_row),
	VAR(struct run_result, matrix_resume),
	VAR(struct run_result, matrix_next_sender),
	VAR(struct run_result, plan_rows),
	VAR(struct run_result, cpu_start_rounds),
	VAR(struct run_result, cpu_starts_most),
	VAR(struct run_result, cross_ticks),
	VAR(struct run_result, matrix_left_out),
	VAR(struct run_result, matrix_samples),
	VAR(struct run_result, cells_dropped),
};

static const struct field experiment_fields[] = {
	FIELD_OF(struct experiment_result, id, WIRE_ROW, 0, 0),
	ENUM(struct experiment_result, status, EXP_STATUS_COUNT),
	FIXED(struct experiment_result, vector, 1),
	ENUM(struct experiment_result, apic_mode, APIC_MODE_COUNT),
	STRING(struct experiment_result, reason),
	VAR(struct experiment_result, delivered),
	VAR(struct experiment_result, extra),
	VAR(struct experiment_result, vectors_verified),
	VAR(struct experiment_result, register_checks),
	VAR(struct experiment_result, discarded),
	VAR(struct experiment_result, discarded_batches),
	VAR(struct experiment_result, clock_ratio_low),
	VAR(struct experiment_result, clock_ratio_high),
	VAR(struct experiment_result, target_wakeups),
	VAR(struct experiment_result, late),
	STATS(struct experiment_result, metric[METRIC_ENTRY]),
	STATS(struct experiment_result, metric[METRIC_EXIT]),
	STATS(struct experiment_result, metric[METRIC_ROUND_TRIP]),
	STATS(struct experiment_result, metric[METRIC_ROUND_TRIP_TIMED]),
};
_Static_assert(METRIC_COUNT == 4, "experiment_fields lists every metric");

static const struct field primitive_fields[] = {
	STRING(struct primitive_result, name),
	ENUM(struct primitive_result, status, EXP_STATUS_COUNT),
	STRING(struct primitive_result, reason),
	STATS(struct primitive_result, block),
	STATS(struct primitive_result, cycles_block),
};

static const struct field gap_fields[] = {
	ENUM(struct gap_result, scheme, SCHEME_COUNT),
	ENUM(struct gap_result, status, EXP_STATUS_COUNT),
	STRING(struct gap_result, reason),
	VAR(struct gap_result, loop_median),
	VAR(struct gap_result, threshold),
	STATS(struct gap_result, gaps),
	VAR(struct gap_result, interrupts),
	VAR(struct gap_result, stalls),
	FIELD_OF(struct gap_result, noise_moved, WIRE_FIXED, 1, 2),
	FIELD_OF(struct gap_result, hist_len, WIRE_VAR, 0, GAP_HIST_BYTES + 1),
	FIELD_OF(struct gap_result, hist, WIRE_BYTES, 0, 0),
	VAR(struct gap_result, cycles_loop_median),
	STATS(struct gap_result, cycles_gaps),
};

static const struct field row_histogram_fields[] = {
	FIELD_OF(struct row_histogram, row, WIRE_FIXED, 1,
		 RESULTS_MAX_EXPERIMENTS),
	ENUM(struct row_histogram, metric, ROW_HIST_KINDS),
	FIELD_OF(struct row_histogram, len, WIRE_VAR, 0, ROW_HIST_BYTES + 1),
	FIELD_OF(struct row_histogram, bytes, WIRE_BYTES, 0, 0),
};

static const struct field counted_fields[] = {
	FIELD_OF(struct counted_row, row, WIRE_FIXED, 1,
		 RESULTS_MAX_EXPERIMENTS),
	STATS(struct counted_row, cycles[METRIC_ENTRY]),
	STATS(struct counted_row, cycles[METRIC_EXIT]),
	STATS(struct counted_row, cycles[METRIC_ROUND_TRIP]),
	STATS(struct counted_row, cycles[METRIC_ROUND_TRIP_TIMED]),
	STATS(struct counted_row, instructions),
};
_Static_assert(METRIC_COUNT == 4, "counted_fields lists every metric");

static const struct field cross_fields[] = {
	ENUM(struct cross_result, kind, CROSS_KIND_COUNT),
	ENUM(struct cross_result, status, EXP_STATUS_COUNT),
	ENUM(struct cross_result, relation, CPU_RELATION_COUNT),
	ENUM(struct cross_result, apic_mode, APIC_MODE_COUNT),
	VAR(struct cross_result, sender),
	VAR(struct cross_result, target),
	VAR(struct cross_result, targets),
	VAR(struct cross_result, late),
	FIXED(struct cross_result, sender_core, 1),
	FIXED(struct cross_result, target_core, 1),
	FIXED(struct cross_result, skew_low, 8),
	FIXED(struct cross_result, skew_high, 8),
	STRING(struct cross_result, reason),
	STATS(struct cross_result, time),
};

static const struct field matrix_cpu_fields[] = {
	VAR(struct matrix_cpu, apic_id),
	FIXED(struct matrix_cpu, core, 1),
	ENUM(struct matrix_cpu, full, 2),
};

/* A cell's indices are below n_matrix_cpus (serialize.c checks it),
 * and every cell is one pair of them. */
static const struct field cell_fields[] = {
	FIELD_OF(struct matrix_cell, sender, WIRE_VAR, 0,
		 RESULTS_MAX_MATRIX_CPUS),
	FIELD_OF(struct matrix_cell, target, WIRE_VAR, 0,
		 RESULTS_MAX_MATRIX_CPUS),
	ENUM(struct matrix_cell, relation, CPU_RELATION_COUNT),
	ENUM(struct matrix_cell, ack_status, EXP_STATUS_COUNT),
	ENUM(struct matrix_cell, one_way_status, EXP_STATUS_COUNT),
	ENUM(struct matrix_cell, ack_why, CELL_WHY_COUNT),
	ENUM(struct matrix_cell, one_way_why, CELL_WHY_COUNT),
	VAR(struct matrix_cell, late),
	VAR(struct matrix_cell, ack),
	VAR(struct matrix_cell, one_way),
	VAR(struct matrix_cell, offset_plus_minus),
};

static const struct field other_cpu_fields[] = {
	FIXED(struct other_cpu, cpu, 1),
	FIXED(struct other_cpu, core_type, 1),
	STATS(struct other_cpu, floor),
};

static const struct field cpu_clock_fields[] = {
	VAR(struct cpu_clock, cpu),
	ENUM(struct cpu_clock, pin, CPU_PIN_STATE_COUNT),
	ENUM(struct cpu_clock, fence, CPU_FENCE_STATE_COUNT),
	FIELD_OF(struct cpu_clock, restored, WIRE_FIXED, 1, 2),
	ENUM(struct cpu_clock, turbo, CPU_TURBO_STATE_COUNT),
	VAR(struct cpu_clock, ratio_milli),
	VAR(struct cpu_clock, starts),
};

static const struct field scheme_fields[] = {
	ENUM(struct scheme_footprint, scheme, SCHEME_COUNT),
	VAR(struct scheme_footprint, stub_bytes),
	VAR(struct scheme_footprint, code_bytes),
	VAR(struct scheme_footprint, data_bytes),
};

const size_t blob_run_field_count =
	sizeof(blob_run_fields) / sizeof(blob_run_fields[0]);

#define FIELDS(table) table, sizeof(table) / sizeof(table[0])

const struct blob_list blob_lists[] = {
	{ offsetof(struct run_result, n_experiments),
	  offsetof(struct run_result, exp), sizeof(struct experiment_result),
	  RESULTS_MAX_EXPERIMENTS, FIELDS(experiment_fields) },
	{ offsetof(struct run_result, n_primitives),
	  offsetof(struct run_result, prim), sizeof(struct primitive_result),
	  RESULTS_MAX_PRIMITIVES, FIELDS(primitive_fields) },
	{ offsetof(struct run_result, n_gaps),
	  offsetof(struct run_result, gap), sizeof(struct gap_result),
	  RESULTS_MAX_GAPS, FIELDS(gap_fields) },
	{ offsetof(struct run_result, n_schemes),
	  offsetof(struct run_result, scheme), sizeof(struct scheme_footprint),
	  RESULTS_MAX_SCHEMES, FIELDS(scheme_fields) },
	{ offsetof(struct run_result, n_hists),
	  offsetof(struct run_result, hist), sizeof(struct row_histogram),
	  RESULTS_MAX_ROW_HISTS, FIELDS(row_histogram_fields) },
	{ offsetof(struct run_result, n_counted),
	  offsetof(struct run_result, counted), sizeof(struct counted_row),
	  RESULTS_MAX_EXPERIMENTS, FIELDS(counted_fields) },
	{ offsetof(struct run_result, n_cross),
	  offsetof(struct run_result, cross), sizeof(struct cross_result),
	  RESULTS_MAX_CROSS, FIELDS(cross_fields) },
	{ offsetof(struct run_result, n_cross_hists),
	  offsetof(struct run_result, cross_hist), sizeof(struct row_histogram),
	  RESULTS_MAX_CROSS_HISTS, FIELDS(row_histogram_fields) },
	{ offsetof(struct run_result, n_matrix_cpus),
	  offsetof(struct run_result, matrix_cpu), sizeof(struct matrix_cpu),
	  RESULTS_MAX_MATRIX_CPUS, FIELDS(matrix_cpu_fields) },
	{ offsetof(struct run_result, n_cells),
	  offsetof(struct run_result, cell), sizeof(struct matrix_cell),
	  RESULTS_MAX_CELLS, FIELDS(cell_fields) },
	{ offsetof(struct run_result, n_other_cpus),
	  offsetof(struct run_result, other_cpu), sizeof(struct other_cpu),
	  RESULTS_MAX_OTHER_CPUS, FIELDS(other_cpu_fields) },
	{ offsetof(struct run_result, n_cpu_clocks),
	  offsetof(struct run_result, cpu_clock), sizeof(struct cpu_clock),
	  RESULTS_MAX_CPU_CLOCKS, FIELDS(cpu_clock_fields) },
};

const size_t blob_list_count = sizeof(blob_lists) / sizeof(blob_lists[0]);
