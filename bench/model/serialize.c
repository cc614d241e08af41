#include "bench/model/serialize.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include "bench/model/wire.h"

/* Strings are written once, in a table ahead of the fields, and each
 * field refers to its string by index (bench/model/wire.h): reasons and
 * primitive names repeat. A row travels as its ids, never its name
 * (WIRE_ROW). */

/* --- the layout ----------------------------------------------------------
 *
 * One description of the handoff, walked by both the encoder and the
 * decoder: a run is its header fields, then its lists (experiments,
 * primitives, gap rows, scheme footprints, histograms, counted rows,
 * cross-CPU rows and their kept distributions, other processors'
 * floors, processors' clocks), each its count in LEB128 (row histograms
 * outnumber a byte) and that many items of their own fields. */

enum wire {
	WIRE_FIXED,	/* `bytes` little-endian bytes */
	WIRE_VAR,	/* unsigned LEB128 */
	WIRE_STRING,	/* an index into the string table */
	WIRE_ROW,	/* an experiment's id and baseline (struct row_id):
			 * source, scheme, variant, cache state, then
			 * x2apic_repeat, selftest and whether a processor
			 * other than the boot CPU ran it in one byte, that
			 * processor where one did, then the
			 * baseline's scheme, variant and cache state; the
			 * baseline shares the rest. Its name is made again
			 * by row_name() */
	WIRE_STATS,	/* struct sample_stats: every stats_fields entry, LEB128;
			 * each figure after the first as its step up from the
			 * one before (min <= p1 <= ... <= max), which is small */
	WIRE_CONFIG,	/* struct irqlab_config: every config_keys entry, LEB128 */
	WIRE_BYTES,	/* raw bytes; their count is the field just before */
};

struct field {
	uint8_t wire;		/* enum wire */
	uint8_t bytes;		/* WIRE_FIXED: bytes on the wire */
	uint16_t size;		/* bytes of the C field */
	uint32_t offset;
	uint64_t limit;		/* valid values are below it; 0: any */
};

#define FIELD_OF(type, f, wire_kind, n, lim)                                \
	{ wire_kind, n, sizeof(((type *)0)->f), offsetof(type, f), lim }
#define FIXED(type, f, n) FIELD_OF(type, f, WIRE_FIXED, n, 0)
#define ENUM(type, f, count) FIELD_OF(type, f, WIRE_FIXED, 1, count)
#define VAR(type, f) FIELD_OF(type, f, WIRE_VAR, 0, 0)
#define STRING(type, f) FIELD_OF(type, f, WIRE_STRING, 0, 0)
#define STATS(type, f) FIELD_OF(type, f, WIRE_STATS, 0, 0)

static const struct field run_fields[] = {
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
	FIELD_OF(struct run_result, part, WIRE_FIXED, 1, RESULTS_MAX_PARTS + 1),
	VAR(struct run_result, first_row),
	VAR(struct run_result, next_row),
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
	FIXED(struct cross_result, sender_core, 1),
	FIXED(struct cross_result, target_core, 1),
	FIXED(struct cross_result, skew_low, 8),
	FIXED(struct cross_result, skew_high, 8),
	STRING(struct cross_result, reason),
	STATS(struct cross_result, time),
};

static const struct field other_cpu_fields[] = {
	FIXED(struct other_cpu, cpu, 1),
	FIXED(struct other_cpu, core_type, 1),
	STATS(struct other_cpu, floor),
};

static const struct field cpu_clock_fields[] = {
	FIXED(struct cpu_clock, cpu, 1),
	ENUM(struct cpu_clock, pin, CPU_PIN_STATE_COUNT),
	ENUM(struct cpu_clock, fence, CPU_FENCE_STATE_COUNT),
	FIELD_OF(struct cpu_clock, restored, WIRE_FIXED, 1, 2),
	VAR(struct cpu_clock, ratio_milli),
	VAR(struct cpu_clock, starts),
};

static const struct field scheme_fields[] = {
	ENUM(struct scheme_footprint, scheme, SCHEME_COUNT),
	VAR(struct scheme_footprint, stub_bytes),
	VAR(struct scheme_footprint, code_bytes),
	VAR(struct scheme_footprint, data_bytes),
};

#define FIELDS(table) table, sizeof(table) / sizeof(table[0])

/* WIRE_ROW's flags bit: a byte with the processor follows; the boot
 * CPU's rows, nearly all, cost nothing for it. */
#define ROW_ON_OTHER_CPU 0x80
_Static_assert(SELFTEST_END <= ROW_ON_OTHER_CPU >> 1,
	       "a self-test's id leaves the flags' top bit free");

struct list {
	uint32_t count_offset;	/* of the uint32_t count in run_result */
	uint32_t items_offset;	/* of the array */
	uint32_t item_size;
	uint32_t max;
	const struct field *fields;
	size_t n_fields;
};

static const struct list run_lists[] = {
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
	{ offsetof(struct run_result, n_other_cpus),
	  offsetof(struct run_result, other_cpu), sizeof(struct other_cpu),
	  RESULTS_MAX_OTHER_CPUS, FIELDS(other_cpu_fields) },
	{ offsetof(struct run_result, n_cpu_clocks),
	  offsetof(struct run_result, cpu_clock), sizeof(struct cpu_clock),
	  RESULTS_MAX_CPU_CLOCKS, FIELDS(cpu_clock_fields) },
};

/* A C integer field of 1, 2, 4 or 8 bytes. */
static uint64_t load(const void *at, unsigned size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)at;
	case 2:
		return *(const uint16_t *)at;
	case 4:
		return *(const uint32_t *)at;
	default:
		return *(const uint64_t *)at;
	}
}

static void store(void *at, unsigned size, uint64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)at = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)at = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)at = (uint32_t)v;
		break;
	default:
		*(uint64_t *)at = v;
	}
}

static int fits_field(uint64_t v, unsigned size)
{
	return size >= 8 || v < (1ull << (8 * size));
}

/* A baseline travels as its scheme, variant and cache state: it has its row's
 * source and APIC pass, and a self-test is its own. */
static int baseline_encodable(const struct experiment_result *e)
{
	return e->baseline.source == e->id.source &&
	       e->baseline.x2apic_repeat == e->id.x2apic_repeat &&
	       e->baseline.selftest == e->id.selftest &&
	       e->baseline.cpu == e->id.cpu &&
	       (e->id.selftest == SELFTEST_ABSENT ||
		row_id_eq(&e->baseline, &e->id));
}

/* --- encoding ----------------------------------------------------------- */

static void put_fields(struct writer *w, const void *base,
		       const struct field *f, size_t n)
{
	const char *b = base;
	size_t i, k;

	for (i = 0; i < n; i++, f++) {
		const char *at = b + f->offset;

		switch (f->wire) {
		case WIRE_FIXED:
			wire_put_uint(w, load(at, f->size), f->bytes);
			break;
		case WIRE_VAR:
			wire_put_var(w, load(at, f->size));
			break;
		case WIRE_STRING:
			wire_put_str(w, at, f->size);
			break;
		case WIRE_ROW: {
			const struct experiment_result *e = (const void *)base;

			wire_put_uint(w, e->id.source, 1);
			wire_put_uint(w, e->id.scheme, 1);
			wire_put_uint(w, e->id.variant, 1);
			wire_put_uint(w, e->id.cache, 1);
			wire_put_uint(w, (uint64_t)e->id.x2apic_repeat |
					    (uint64_t)e->id.selftest << 1 |
					    (e->id.cpu ? ROW_ON_OTHER_CPU : 0),
				      1);
			if (e->id.cpu)
				wire_put_uint(w, e->id.cpu, 1);
			wire_put_uint(w, e->baseline.scheme, 1);
			wire_put_uint(w, e->baseline.variant, 1);
			wire_put_uint(w, e->baseline.cache, 1);
			break;
		}
		case WIRE_STATS: {
			uint64_t before = 0;

			for (k = 0; k < stats_field_count; k++) {
				uint64_t v = stats_get((const void *)at,
						       &stats_fields[k]);

				if (stats_fields[k].kind != STATS_FIELD_FIGURE) {
					wire_put_var(w, v);
					continue;
				}
				/* modulo 2^64, so out-of-order figures still
				 * come back exactly */
				wire_put_var(w, v - before);
				before = v;
			}
			break;
		}
		case WIRE_CONFIG:
			for (k = 0; k < config_key_count; k++)
				wire_put_var(w, config_get((const void *)at,
						      &config_keys[k]));
			break;
		case WIRE_BYTES:
			wire_put_bytes(w, at, (size_t)load(b + f[-1].offset, f[-1].size));
			break;
		}
	}
}

static void encode_fields(struct writer *w, const struct run_result *r)
{
	const char *base = (const char *)r;
	size_t l, i;

	put_fields(w, r, FIELDS(run_fields));
	for (l = 0; l < sizeof(run_lists) / sizeof(run_lists[0]); l++) {
		const struct list *L = &run_lists[l];
		uint32_t n = (uint32_t)load(base + L->count_offset, 4);

		wire_put_var(w, n);	/* row histograms outnumber a byte */
		for (i = 0; i < n; i++)
			put_fields(w, base + L->items_offset + i * L->item_size,
				   L->fields, L->n_fields);
	}
}

/* Whether every count and length fits what the decoder will accept. */
static int encodable(const struct run_result *r)
{
	uint32_t i;

	for (i = 0; i < r->n_experiments && i < RESULTS_MAX_EXPERIMENTS; i++)
		if (!row_id_valid(&r->exp[i].id) ||
		    !row_id_valid(&r->exp[i].baseline) ||
		    !baseline_encodable(&r->exp[i]))
			return 0;
	if (r->n_experiments > RESULTS_MAX_EXPERIMENTS ||
	    r->n_primitives > RESULTS_MAX_PRIMITIVES ||
	    r->n_gaps > RESULTS_MAX_GAPS || r->n_schemes > RESULTS_MAX_SCHEMES)
		return 0;
	for (i = 0; i < r->n_gaps; i++)
		if (r->gap[i].hist_len > GAP_HIST_BYTES)
			return 0;
	if (r->n_hists > RESULTS_MAX_ROW_HISTS ||
	    r->n_counted > RESULTS_MAX_EXPERIMENTS ||
	    r->n_cross > RESULTS_MAX_CROSS ||
	    r->n_cross_hists > RESULTS_MAX_CROSS_HISTS ||
	    r->n_other_cpus > RESULTS_MAX_OTHER_CPUS ||
	    r->n_cpu_clocks > RESULTS_MAX_CPU_CLOCKS)
		return 0;
	for (i = 0; i < r->n_hists; i++)
		if (r->hist[i].len > ROW_HIST_BYTES)
			return 0;
	return 1;
}

uint32_t results_fit_histograms(struct run_result *r, uint8_t *scratch,
				size_t cap, size_t *len)
{
	uint32_t dropped = 0;

	while ((*len = results_encode(r, scratch, cap)) == 0 && r->n_hists) {
		r->n_hists--;
		dropped++;
	}
	return dropped;
}

size_t results_encode(const struct run_result *r, uint8_t *out, size_t cap)
{
	static struct dict dict;
	struct writer w = { out, cap, 0, 0, &dict, 1 };
	uint32_t i;

	if (!encodable(r))
		return 0;
	dict.n = 0;
	dict.full = 0;
	encode_fields(&w, r);	/* pass 1: collect the strings */
	if (dict.full)
		return 0;
	w.collecting = 0;
	wire_put_uint(&w, RESULTS_BLOB_VERSION, 2);
	wire_put_var(&w, dict.n);
	for (i = 0; i < dict.n; i++) {
		wire_put_uint(&w, dict.len[i], 1);	/* a field is < 256 bytes */
		wire_put_bytes(&w, dict.s[i], dict.len[i]);
	}
	encode_fields(&w, r);	/* pass 2: the fields */
	return w.overflow || dict.full ? 0 : w.len;
}

/* --- decoding ----------------------------------------------------------- */

/* Reads the fields into `base`. Returns DECODE_OK, or why not. */
static enum decode_status get_fields(struct reader *r, void *base,
				     const struct field *f, size_t n)
{
	char *b = base;
	int fits = 1;
	size_t i, k;

	for (i = 0; i < n; i++, f++) {
		char *at = b + f->offset;
		uint64_t v = 0;

		switch (f->wire) {
		case WIRE_FIXED:
			v = wire_get_uint(r, f->bytes);
			break;
		case WIRE_VAR:
			v = wire_get_var(r);
			break;
		case WIRE_STRING:
			fits &= wire_get_str(r, at, f->size);
			continue;
		case WIRE_ROW: {
			struct experiment_result *e = (void *)base;
			uint64_t flags;

			e->id.source = (uint8_t)wire_get_uint(r, 1);
			e->id.scheme = (uint8_t)wire_get_uint(r, 1);
			e->id.variant = (uint8_t)wire_get_uint(r, 1);
			e->id.cache = (uint8_t)wire_get_uint(r, 1);
			flags = wire_get_uint(r, 1);
			e->id.x2apic_repeat = (uint8_t)(flags & 1);
			e->id.selftest = (uint8_t)((flags & ~ROW_ON_OTHER_CPU) >> 1);
			e->id.cpu = flags & ROW_ON_OTHER_CPU ?
					    (uint8_t)wire_get_uint(r, 1) : 0;
			e->baseline = e->id;
			e->baseline.scheme = (uint8_t)wire_get_uint(r, 1);
			e->baseline.variant = (uint8_t)wire_get_uint(r, 1);
			e->baseline.cache = (uint8_t)wire_get_uint(r, 1);
			if (r->truncated)
				continue;
			if (!row_id_valid(&e->id) || !row_id_valid(&e->baseline) ||
			    (e->id.selftest != SELFTEST_ABSENT &&
			     !row_id_eq(&e->baseline, &e->id)))
				return DECODE_BAD_VALUE;
			row_name(&e->id, e->name, sizeof(e->name));
			continue;
		}
		case WIRE_STATS:
			for (k = 0, v = 0; k < stats_field_count; k++) {
				uint64_t s = wire_get_var(r);

				/* a figure is its step from the one before, v */
				if (stats_fields[k].kind == STATS_FIELD_FIGURE) {
					v += s;
					s = v;
				}

				if (stats_fields[k].kind == STATS_FIELD_COUNT &&
				    s > UINT32_MAX)
					r->overlong = 1;
				stats_set((void *)at, &stats_fields[k], s);
			}
			continue;
		case WIRE_CONFIG:
			for (k = 0; k < config_key_count; k++) {
				uint64_t c = wire_get_var(r);

				if (c > UINT32_MAX)
					r->overlong = 1;
				config_set((void *)at, &config_keys[k], (uint32_t)c);
			}
			continue;
		case WIRE_BYTES:
			v = load(b + f[-1].offset, f[-1].size);
			if (r->truncated)
				return DECODE_TRUNCATED;
			if (v > f->size)
				return DECODE_BAD_VALUE;
			if (v > r->len - r->pos)
				return DECODE_TRUNCATED;
			for (k = 0; k < v; k++)
				at[k] = (char)r->p[r->pos++];
			continue;
		}
		if (!fits_field(v, f->size))
			r->overlong = 1;
		if (f->limit && v >= f->limit && !r->truncated)
			return DECODE_BAD_VALUE;
		store(at, f->size, v);
	}
	if (r->truncated)
		return DECODE_TRUNCATED;
	return fits && !r->overlong ? DECODE_OK : DECODE_BAD_VALUE;
}

enum decode_status results_decode(const uint8_t *in, size_t len,
				  struct run_result *out)
{
	static struct reader r;
	enum decode_status status;
	char *base = (char *)out;
	size_t l;
	uint32_t i;

	r = (struct reader){ .p = in, .len = len };
	*out = (struct run_result){ 0 };
	if (wire_get_uint(&r, 2) != RESULTS_BLOB_VERSION)
		return r.truncated ? DECODE_TRUNCATED : DECODE_BAD_VERSION;
	if (!wire_get_string_table(&r))
		return DECODE_BAD_VALUE;
	status = get_fields(&r, out, FIELDS(run_fields));
	if (status != DECODE_OK)
		return status;
	for (l = 0; l < sizeof(run_lists) / sizeof(run_lists[0]); l++) {
		const struct list *L = &run_lists[l];
		uint64_t n = wire_get_var(&r);

		if (r.truncated)
			return DECODE_TRUNCATED;
		if (n > L->max)
			return DECODE_BAD_VALUE;
		store(base + L->count_offset, 4, n);
		for (i = 0; i < (uint32_t)n; i++) {
			status = get_fields(&r, base + L->items_offset +
							i * L->item_size,
					    L->fields, L->n_fields);
			if (status != DECODE_OK)
				return status;
		}
	}
	return r.pos == len ? DECODE_OK : DECODE_TRAILING;
}

const char *decode_status_name(enum decode_status s)
{
	switch (s) {
	case DECODE_OK:
		return "ok";
	case DECODE_TRUNCATED:
		return "truncated";
	case DECODE_BAD_VERSION:
		return "unknown format version";
	case DECODE_BAD_VALUE:
		return "value out of range";
	case DECODE_TRAILING:
		return "trailing bytes";
	}
	return "unknown";
}
