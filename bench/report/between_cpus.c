#include "bench/report/between_cpus.h"

#include "arch/lib/cpuid_bits.h"
#include "bench/model/cross_cpu.h"
#include "bench/report/stats_cells.h"

/* One median of the cross-CPU section, under `key`, with how many rows
 * it is the median of. */
static void json_cross_median(struct json_writer *w, const char *key,
			      uint64_t median, uint32_t rows)
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_uint(w, "median", median);
	json_kv_uint(w, "rows", rows);
	json_end_object(w);
}

/* One row between CPUs: its kind, sender, target and relation, each
 * end's core type (CPUID 1AH, hybrid CPUs), its status, the TSC offset
 * a one-way row was corrected by, and its time. */
static void json_cross_row(struct json_writer *w, const struct run_result *r,
			   uint32_t i)
{
	const struct cross_result *c = &r->cross[i];
	char core[8];
	unsigned k;

	json_begin_object(w);
	json_kv_string(w, "kind", cross_kind_name(c->kind));
	json_kv_uint(w, "sender", c->sender);
	if (c->target == CROSS_ALL_TARGETS)
		json_kv_string(w, "target", "all");
	else
		json_kv_uint(w, "target", c->target);
	json_kv_uint(w, "targets", c->targets);
	json_kv_uint(w, "late_samples", c->late);
	json_kv_string(w, "relation", cpu_relation_name(c->relation));
	json_kv_string(w, "sender_core",
		       core_type_name(c->sender_core, core, sizeof(core)));
	if (c->target != CROSS_ALL_TARGETS)
		json_kv_string(w, "target_core",
			       core_type_name(c->target_core, core,
					      sizeof(core)));
	json_kv_string(w, "apic_mode", apic_mode_name(c->apic_mode));
	json_status(w, c->status, c->reason);
	if (c->kind == CROSS_ONE_WAY && c->skew_low <= c->skew_high) {
		json_key(w, "tsc_offset");
		json_begin_object(w);
		json_kv_int(w, "low", c->skew_low);
		json_kv_int(w, "high", c->skew_high);
		json_kv_uint(w, "plus_minus",
			     (uint64_t)(c->skew_high - c->skew_low) / 2);
		json_end_object(w);
	}
	if (c->status == EXP_OK) {
		json_kv_uint(w, "samples", c->time.count);
		json_key(w, "time");
		json_figures(w, &c->time, 0);
	}
	/* The first ok pair of each relation keeps its buckets:
	 * [low, high, count], raw. */
	for (k = 0; k < r->n_cross_hists; k++)
		if (r->cross_hist[k].row == i) {
			json_key(w, "distribution");
			json_row_histogram(w, &r->cross_hist[k], 0);
		}
	json_end_object(w);
}

/* Each kind's median over the pairs of each relation. */
static void json_cross_by_relation(struct json_writer *w,
				   const struct run_result *r)
{
	uint32_t pairs;
	unsigned k, rel;

	json_key(w, "by_relation");
	json_begin_object(w);
	for (k = 0; k < CROSS_KIND_COUNT; k++) {
		json_key(w, cross_kind_name(k));
		json_begin_object(w);
		for (rel = 0; rel < CPU_RELATION_COUNT; rel++) {
			uint64_t m = cross_relation_median(r, k, rel, &pairs);

			if (pairs)
				json_cross_median(w, cpu_relation_name(rel), m,
						  pairs);
		}
		json_end_object(w);
	}
	json_end_object(w);
}

/* Hybrid CPUs: ipi-ack's median from each core type to each. */
static void json_cross_by_core_type(struct json_writer *w,
				    const struct run_result *r)
{
	static const uint8_t types[] = { CORE_TYPE_CORE, CORE_TYPE_ATOM };
	uint32_t pairs;
	unsigned k;

	json_key(w, "by_core_type");
	json_begin_object(w);
	for (k = 0; cross_hybrid(r) && k < 4; k++) {
		char a[8], b[8], key[24];
		uint64_t m = cross_core_median(r, CROSS_ACK, types[k / 2],
					       types[k % 2], &pairs);

		if (!pairs)
			continue;
		fmt_snprintf(key, sizeof(key), "%s->%s",
			     core_type_name(types[k / 2], a, sizeof(a)),
			     core_type_name(types[k % 2], b, sizeof(b)));
		json_cross_median(w, key, m, pairs);
	}
	json_end_object(w);
}

/* The cross-CPU section (docs/cross-cpu.md): each row by sender, target
 * and relation, then each kind's median over the pairs of a relation. */
void between_cpus_json(struct json_writer *w, const struct run_result *r)
{
	uint32_t i;
	unsigned k;

	json_key(w, "cross_cpu");
	json_begin_object(w);
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_kv_string(w, "figures", cross_figures_meaning(r->clock_kind));
	/* The section's time on the machine, from its wake to its last
	 * park: what a user waits for it (docs/cross-cpu.md). */
	json_key(w, "machine_time");
	json_begin_object(w);
	json_kv_uint(w, "ticks", r->cross_ticks);
	json_kv_uint(w, "ms", r->tsc_hz ? r->cross_ticks * 1000 / r->tsc_hz
					: 0);
	json_end_object(w);
	/* This run's starts of the other processors: each start sends
	 * every processor started its INIT, SIPI and SIPI together. */
	json_key(w, "starts");
	json_begin_object(w);
	json_kv_uint(w, "together", r->cpu_start_rounds);
	json_kv_uint(w, "most_per_processor", r->cpu_starts_most);
	json_end_object(w);
	json_key(w, "kinds");
	json_begin_object(w);
	for (k = 0; k < CROSS_KIND_COUNT; k++)
		json_kv_string(w, cross_kind_name(k), cross_kind_what(k));
	json_end_object(w);
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_cross; i++)
		json_cross_row(w, r, i);
	json_end_array(w);
	json_cross_by_relation(w, r);
	json_cross_by_core_type(w, r);
	json_end_object(w);
}

/* Whether a cross-CPU row before `i` has i's kind, status and reason:
 * a reason is said once, with how many rows it covers. */
static int same_reason_before(const struct run_result *r, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < i; j++)
		if (r->cross[j].kind == r->cross[i].kind &&
		    r->cross[j].status == r->cross[i].status &&
		    str_eq(r->cross[j].reason, r->cross[i].reason))
			return 1;
	return 0;
}

static uint32_t rows_with_reason(const struct run_result *r, uint32_t i)
{
	uint32_t j, n = 0;

	for (j = 0; j < r->n_cross; j++)
		n += r->cross[j].kind == r->cross[i].kind &&
		     r->cross[j].status == r->cross[i].status &&
		     str_eq(r->cross[j].reason, r->cross[i].reason);
	return n;
}

/* On a hybrid CPU: ipi-ack's median from each core type to each. */
static void summary_cross_cores(struct text_buf *tb, const struct run_result *r)
{
	static const uint8_t types[] = { CORE_TYPE_CORE, CORE_TYPE_ATOM };
	char a[8], b[8];
	uint32_t pairs;
	unsigned i, j;

	if (!cross_hybrid(r))
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			uint64_t m = cross_core_median(r, CROSS_ACK, types[i],
						       types[j], &pairs);
			char label[24];

			if (!pairs)
				continue;
			fmt_snprintf(label, sizeof(label), "%s->%s",
				     core_type_name(types[i], a, sizeof(a)),
				     core_type_name(types[j], b, sizeof(b)));
			tb_printf(tb, "%-22s %-14s %9llu %6u\n", "ipi-ack",
				  label, (unsigned long long)m, pairs);
		}
}

/* The matrix of acknowledged IPIs, sender (row) to target (column), by
 * APIC id, where two processors or more sent or took them. */
static void summary_ack_matrix(struct text_buf *tb,
			       const struct run_result *r)
{
	uint32_t i, j, n_cpus = 0;
	uint32_t cpus[16];

	for (i = 0; i < r->n_cross; i++) {
		const struct cross_result *c = &r->cross[i];
		uint32_t ids[2] = { c->sender, c->target };
		unsigned e;

		if (c->kind != CROSS_ACK || c->target == CROSS_ALL_TARGETS)
			continue;
		for (e = 0; e < 2; e++) {
			for (j = 0; j < n_cpus && cpus[j] != ids[e]; j++)
				;
			if (j == n_cpus && n_cpus < 16)
				cpus[n_cpus++] = ids[e];
		}
	}
	if (n_cpus < 2)
		return;
	tb_printf(tb, "  ipi-ack medians, sender (row) to target (column), "
		  "by APIC id:\n  %6s", "");
	for (j = 0; j < n_cpus; j++)
		tb_printf(tb, " %7u", cpus[j]);
	tb_printf(tb, "\n");
	for (i = 0; i < n_cpus; i++) {
		tb_printf(tb, "  %6u", cpus[i]);
		for (j = 0; j < n_cpus; j++) {
			const struct cross_result *hit = 0;
			uint32_t x;

			for (x = 0; x < r->n_cross; x++)
				if (r->cross[x].kind == CROSS_ACK &&
				    r->cross[x].sender == cpus[i] &&
				    r->cross[x].target == cpus[j])
					hit = &r->cross[x];
			if (hit && hit->status == EXP_OK)
				tb_printf(tb, " %7llu",
					  (unsigned long long)hit->time.median);
			else
				tb_printf(tb, " %7s", i == j ? "-" : "?");
		}
		tb_printf(tb, "\n");
	}
}

/* The cross-CPU section: each kind's median per relation, the
 * broadcasts, then the acknowledged matrix, sender by target. */
void between_cpus_summary(struct text_buf *tb, const struct run_result *r)
{
	uint32_t i, pairs;
	unsigned k, rel;

	if (!r->n_cross)
		return;
	tb_printf(tb, "\nBetween CPUs (%s): %s\n",
		  clock_kind_unit(r->clock_kind),
		  cross_figures_meaning(r->clock_kind));
	if (r->n_cross == 1 && r->cross[0].status != EXP_OK) {
		tb_printf(tb, "  %s: %s\n", exp_status_name(r->cross[0].status),
			  r->cross[0].reason);
		return;
	}
	tb_printf(tb, "%-22s %-14s %9s %6s\n", "kind", "relation", "median",
		  "rows");
	for (k = 0; k < CROSS_KIND_COUNT; k++)
		for (rel = 0; rel < CPU_RELATION_COUNT; rel++) {
			uint64_t m = cross_relation_median(r, k, rel, &pairs);

			if (pairs)
				tb_printf(tb, "%-22s %-14s %9llu %6u\n",
					  cross_kind_name(k),
					  cpu_relation_name(rel),
					  (unsigned long long)m, pairs);
		}
	summary_cross_cores(tb, r);
	for (i = 0; i < r->n_cross_hists; i++) {
		const struct cross_result *c = &r->cross[r->cross_hist[i].row];

		tb_printf(tb, "  %s: the distribution of APIC id %u -> %u is "
			  "kept (results.json)\n", cpu_relation_name(c->relation),
			  c->sender, c->target);
	}
	for (i = 0; i < r->n_cross; i++) {
		const struct cross_result *c = &r->cross[i];

		if (c->kind == CROSS_ONE_WAY && c->status == EXP_OK)
			tb_printf(tb, "  one way %u -> %u: median %llu, the "
				  "TSC offset known to +-%llu\n", c->sender,
				  c->target,
				  (unsigned long long)c->time.median,
				  (unsigned long long)(c->skew_high -
						       c->skew_low) / 2);
		else if (c->status != EXP_OK &&
			 !same_reason_before(r, i))
			tb_printf(tb, "  %s: %s (%u row(s)): %s\n",
				  cross_kind_name(c->kind),
				  exp_status_name(c->status),
				  rows_with_reason(r, i), c->reason);
	}
	summary_ack_matrix(tb, r);
}
