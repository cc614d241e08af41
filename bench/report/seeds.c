#include "bench/report/seeds.h"

#include "arch/lib/fmt.h"
#include "bench/model/catalog.h"
#include "bench/model/results.h"
#include "bench/report/baselines.h"
#include "bench/report/lead_figures.h"

/* Where a row's figure comes from. */
enum figure_kind {
	ROUND_TRIP,	/* an experiment's round-trip median */
	ENTRY_OVER,	/* an experiment's entry median over its baseline's */
	PER_BLOCK,	/* a primitive's median per 1024 repetitions */
};

struct seed_row {
	const char *label;
	uint8_t kind;
	uint8_t primitive;	/* PER_BLOCK: its enum primitive_id */
	struct row_id row;	/* the others: the experiment */
	const char *seed;	/* the thread's own figure for it */
};

/* A primitive's row, and an experiment's, by its ids. */
#define PRIM(label, id, seed)                                               \
	{ label, PER_BLOCK, PRIMITIVE_##id, { 0 }, seed }
#define EXPERIMENT_IN(label, kind, source, scheme, variant, cache, seed)    \
	{ label, kind, 0,                                                   \
	  { SOURCE_##source, SCHEME_##scheme, VARIANT_##variant,             \
	    VARIANT_##cache, 0, 0, 0 },                                        \
	  seed }
#define EXPERIMENT(label, kind, source, scheme, variant, seed)              \
	EXPERIMENT_IN(label, kind, source, scheme, variant, ABSENT, seed)

#define NOT_RUN INT64_MIN

struct seed_section {
	const char *id;
	const char *title;
	const char *seed_column;	/* what the thread's figures are */
	const char *claim;
	const struct seed_row *rows;
	unsigned n_rows;
	unsigned claim_rows;	/* the first rows, which the claim reads */
	/* Judges the claim from the rows' figures. */
	int (*holds)(const int64_t *f);
};

/* A PER_BLOCK row's primitive, by the name its result carries. */
static const char *primitive_name(const struct seed_row *row)
{
	return catalog_primitives[row->primitive].name;
}

static int64_t figure(const struct run_result *r, const struct seed_row *row)
{
	uint64_t floor = r->floor.min;
	uint32_t i;

	if (row->kind == PER_BLOCK) {
		for (i = 0; i < r->n_primitives; i++)
			if (str_eq(r->prim[i].name, primitive_name(row)))
				return r->prim[i].status == EXP_OK ?
					       net_of_floor(r->prim[i].block.median,
							    floor) : NOT_RUN;
		return NOT_RUN;
	}
	{
		const struct experiment_result *e = results_find(r, &row->row);
		const struct experiment_result *base;

		if (!e || e->status != EXP_OK)
			return NOT_RUN;
		/* In core cycles where the CPU's counters measured them. */
		if (row->kind == ROUND_TRIP)
			return lead_median(r, e, METRIC_ROUND_TRIP);
		base = comparable_baseline(r, e);
		return base ? lead_median_over(r, e, base, METRIC_ENTRY)
			    : NOT_RUN;
	}
}

/* seed 000: push %cs costs about what push $imm does (within 20%). */
static int seed000_holds(const int64_t *f) { return f[1] * 5 <= f[0] * 6; }
/* seed 001: call16 stubs beat push-jmp and cs-selector. */
static int seed001_holds(const int64_t *f) { return f[2] < f[0] && f[2] < f[1]; }
/* seed 002: a same-value DS load (with its movl) is cheap: <= 8 ticks. */
static int seed002_holds(const int64_t *f) { return f[0] <= 8 * 1024; }
/* seed 003: a GS reload whose descriptor line missed costs more than one
 * whose descriptor shares the CS line. */
static int seed003_holds(const int64_t *f) { return f[2] > f[1]; }
/* seed 004: a cached IO-APIC costs less per IRQ than an uncached one. */
static int seed004_holds(const int64_t *f) { return f[2] < f[1]; }

/* The thread timed i386 code: its rows come first and carry the claim;
 * the long-mode stand-ins follow, labelled. */
static const struct seed_row seed000_rows[] = {
	PRIM("TEST1 push $-255 (i386)", PUSH_IMM_I386,
	  "1024 / 1092 / 1028"),
	PRIM("TEST2 push %cs (i386)", PUSH_CS,
	  "1157 / 1085 / 1166"),
	PRIM("TEST3 the vector from %cs (i386)",
	  CS_VECTOR_I386, "3527 / 6622 / 5192"),
	PRIM("TEST1, long mode: push $imm", PUSH_IMM, ""),
	PRIM("TEST2, long mode: mov %cs; push", CS_PUSH, ""),
	PRIM("TEST3, long mode", CS_VECTOR, ""),
};
/* Alexander measured i386 kernels, with hpa's 4-byte stubs: the i386
 * rows of the 32-bit phase come first and carry the claim. */
static const struct seed_row seed001_rows[] = {
	EXPERIMENT("push-jmp stubs (i386, INT n)",
	  ROUND_TRIP, INT, I386_PUSH_JMP, ABSENT, "0.69% CPU"),
	EXPERIMENT("cs-selector (i386, INT n)",
	  ROUND_TRIP, INT, I386_CS_SELECTOR, ABSENT, "0.69% CPU"),
	EXPERIMENT("hpa's 4-byte call16 stubs (i386, INT n)",
	  ROUND_TRIP, INT, I386_CALL16, ABSENT, "0.64% CPU"),
	EXPERIMENT("hpa's 3-byte call16 stubs (i386, INT n)",
	  ROUND_TRIP, INT, I386_CALL16_3BYTE, ABSENT, ""),
	EXPERIMENT("cs-selector, just push %cs (i386, INT n)",
	  ROUND_TRIP, INT, I386_CS_SELECTOR_PUSH_CS, ABSENT, ""),
	EXPERIMENT("push-jmp stubs (i386, self-IPI)",
	  ROUND_TRIP, IPI_SELF_XAPIC, I386_PUSH_JMP, ABSENT, ""),
	EXPERIMENT("cs-selector (i386, self-IPI)",
	  ROUND_TRIP, IPI_SELF_XAPIC, I386_CS_SELECTOR, ABSENT, ""),
	EXPERIMENT("4-byte call16 stubs (i386, self-IPI)",
	  ROUND_TRIP, IPI_SELF_XAPIC, I386_CALL16, ABSENT, ""),
	EXPERIMENT("long mode: push-jmp stubs (INT n)",
	  ROUND_TRIP, INT, PUSH_JMP, ABSENT, ""),
	EXPERIMENT("long mode: cs-selector (INT n)",
	  ROUND_TRIP, INT, CS_SELECTOR, ABSENT, ""),
	EXPERIMENT("long mode: call rel32 stubs (INT n)",
	  ROUND_TRIP, INT, CALL, ABSENT, ""),
	EXPERIMENT("long mode: push-jmp stubs (self-IPI)",
	  ROUND_TRIP, IPI_SELF_XAPIC, PUSH_JMP, ABSENT, ""),
	EXPERIMENT("long mode: cs-selector (self-IPI)",
	  ROUND_TRIP, IPI_SELF_XAPIC, CS_SELECTOR, ABSENT, ""),
	EXPERIMENT("long mode: call rel32 stubs (self-IPI)",
	  ROUND_TRIP, IPI_SELF_XAPIC, CALL, ABSENT, ""),
};
static const struct seed_row seed002_rows[] = {
	PRIM("movl $SEL,%eax; movl %eax,%ds x1024",
	  DS_MOV32, "3/load AthlonXP, <=6 Celeron"),
	PRIM("movw $SEL,%ax; movw %ax,%ds x1024",
	  DS_MOV16, "-22/IRQ on Celeron (stall)"),
	PRIM("conditional reload x1024",
	  DS_CONDITIONAL, "-1/IRQ AthlonXP, -22 Celeron"),
	EXPERIMENT("entry: DS/ES reload, movl", ENTRY_OVER, INT, DIRECT, SEG_MOV32, ""),
	EXPERIMENT("entry: DS/ES reload, movw", ENTRY_OVER, INT, DIRECT, SEG_MOV16, ""),
	EXPERIMENT("entry: conditional reload",
	  ENTRY_OVER, INT, DIRECT, SEG_CONDITIONAL, ""),
	EXPERIMENT("entry: DS/ES saved and reloaded (i386)",
	  ENTRY_OVER, INT, I386_DIRECT, DS_ES, ""),
};
static const struct seed_row seed003_rows[] = {
	EXPERIMENT("entry: GS selector reload",
	  ENTRY_OVER, INT, DIRECT, GS_SELECTOR, "9 ns/syscall (Core Duo 1 GHz)"),
	EXPERIMENT("entry: the PDA's %gs saved and reloaded (i386)",
	  ENTRY_OVER, INT, I386_DIRECT, PDA_GS, ""),
	EXPERIMENT("  descriptor in the CS line, GDT cold",
	  ENTRY_OVER, INT, DIRECT, GS_SELECTOR_PACKED_COLD, ""),
	EXPERIMENT("  descriptor on its own line, GDT cold",
	  ENTRY_OVER, INT, DIRECT, GS_SELECTOR_SPREAD_COLD,
	  "25-35 ns/syscall (P-M)"),
	EXPERIMENT("entry: swapgs pair", ENTRY_OVER, INT, DIRECT, GS_SWAPGS, ""),
	EXPERIMENT("entry: rdgsbase/wrgsbase",
	  ENTRY_OVER, INT, DIRECT, GS_WRGSBASE, ""),
	PRIM("swapgs x1024", SWAPGS, ""),
	PRIM("wrgsbase x1024", WRGSBASE, ""),
	PRIM("wrmsr GS_BASE x1024", WRMSR_GSBASE, ""),
};
static const struct seed_row seed004_rows[] = {
	EXPERIMENT("XT-PIC", ROUND_TRIP, PIC8259, DIRECT, ABSENT, "18733-23057"),
	EXPERIMENT("IO-APIC uncached",
	  ROUND_TRIP, IOAPIC_LEVEL, DIRECT, ABSENT, "4711-32680"),
	EXPERIMENT("IO-APIC cached",
	  ROUND_TRIP, IOAPIC_LEVEL_VALUE_CACHED, DIRECT, ABSENT, "~900-1600"),
	EXPERIMENT_IN("IO-APIC cached, caches thrashed", ROUND_TRIP,
	  IOAPIC_LEVEL_VALUE_CACHED, DIRECT, ABSENT, THRASH, "~1700-2800"),
};

#define ROWS(a) a, sizeof(a) / sizeof(a[0])
static const struct seed_section sections[] = {
	{ "seed_000", "Seed 000: van Heukelum's TEST1-3, per 1024 repetitions",
	  "cycles: Opteron / Xeon E5345 / Athlon XP",
	  "reading %cs costs about what pushing a constant does (TEST2 within "
	  "20% of TEST1)", ROWS(seed000_rows), 2, seed000_holds },
	{ "seed_001", "Seed 001: push-jmp, cs-selector and call stubs, round "
		      "trip (medians)",
	  "CPU spent on interrupts, 8-way Xeon",
	  "hpa's 4-byte call16 stubs are the fastest of the three on i386",
	  ROWS(seed001_rows), 3, seed001_holds },
	{ "seed_002", "Seed 002: segment register loads (FreeBSD, Bruce Evans)",
	  "cycles", "a same-value DS load is not slow (movl + load <= 8 "
		    "ticks)", ROWS(seed002_rows), 1, seed002_holds },
	{ "seed_003", "Seed 003: the GS reload and its GDT line (i386-pda)",
	  "the thread's figures",
	  "a GS reload costs a GDT cache miss unless its descriptor shares "
	  "the CS line", ROWS(seed003_rows), 3, seed003_holds },
	{ "seed_004", "Seed 004: cost per IRQ by interrupt controller (round "
		      "trip, medians)",
	  "cycles/IRQ, Athlon64 2 GHz",
	  "a cached IO-APIC costs less per IRQ than an uncached one",
	  ROWS(seed004_rows), 3, seed004_holds },
};
#undef ROWS

static const char *verdict(const struct run_result *r,
			   const struct seed_section *s, const int64_t *f)
{
	unsigned i;

	for (i = 0; i < s->claim_rows; i++)
		if (f[i] == NOT_RUN)
			return "not measured";
	/* Under emulation the figures are instruction counts or host noise:
	 * neither has caches, MMIO latency or pipeline stalls to judge. */
	if (r->clock_kind != CLOCK_TSC_TICKS)
		return "not judged (figures are not cycles here)";
	return s->holds(f) ? "confirmed on this machine"
			   : "not confirmed on this machine";
}

#define MAX_ROWS 16

/* A section of primitives is in the TSC's unit (the counted pass times
 * interrupts, not blocks); one of experiment rows in the unit the report
 * leads with. */
static const char *section_unit(const struct run_result *r,
				const struct seed_section *s)
{
	unsigned i;

	for (i = 0; i < s->n_rows; i++)
		if (s->rows[i].kind == PER_BLOCK)
			return clock_kind_unit(r->clock_kind);
	return lead_unit(r);
}

static void figures_of(const struct run_result *r,
		       const struct seed_section *s, int64_t *f)
{
	unsigned i;

	for (i = 0; i < s->n_rows && i < MAX_ROWS; i++)
		f[i] = figure(r, &s->rows[i]);
}

void seeds_json(struct json_writer *w, const struct run_result *r)
{
	size_t k;
	unsigned i;

	json_key(w, "seeds");
	json_begin_object(w);
	for (k = 0; k < sizeof(sections) / sizeof(sections[0]); k++) {
		const struct seed_section *s = &sections[k];
		int64_t f[MAX_ROWS];

		figures_of(r, s, f);
		json_key(w, s->id);
		json_begin_object(w);
		json_kv_string(w, "title", s->title);
		json_kv_string(w, "claim", s->claim);
		json_kv_string(w, "verdict", verdict(r, s, f));
		json_kv_string(w, "unit", section_unit(r, s));
		json_kv_string(w, "seed_figures", s->seed_column);
		json_key(w, "rows");
		json_begin_array(w);
		for (i = 0; i < s->n_rows; i++) {
			json_begin_object(w);
			json_kv_string(w, "label", s->rows[i].label);
			char from[RESULTS_ROW_NAME_LEN];

			if (s->rows[i].kind == PER_BLOCK)
				fmt_snprintf(from, sizeof(from), "%s",
					     primitive_name(&s->rows[i]));
			else
				row_name(&s->rows[i].row, from, sizeof(from));
			json_kv_string(w, "from", from);
			json_kv_string(w, "figure",
				       s->rows[i].kind == ROUND_TRIP ? "round trip median"
				       : s->rows[i].kind == ENTRY_OVER
					       ? "entry median over its baseline"
					       : "median per 1024 repetitions");
			json_key(w, "this_machine");
			if (f[i] == NOT_RUN)
				json_null(w);
			else
				json_int(w, f[i]);
			json_kv_string(w, "seed", s->rows[i].seed);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_object(w);
}

void seeds_summary(struct text_buf *tb, const struct run_result *r)
{
	size_t k;
	unsigned i;

	for (k = 0; k < sizeof(sections) / sizeof(sections[0]); k++) {
		const struct seed_section *s = &sections[k];
		int64_t f[MAX_ROWS];

		figures_of(r, s, f);
		tb_printf(tb, "\n%s\n", s->title);
		tb_printf(tb, "%-40s %12s   %s\n", "", "this machine",
			  s->seed_column);
		for (i = 0; i < s->n_rows; i++) {
			char v[24];

			if (f[i] == NOT_RUN)
				fmt_snprintf(v, sizeof(v), "not run");
			else
				fmt_snprintf(v, sizeof(v), "%lld", (long long)f[i]);
			tb_printf(tb, "%-40s %12s   %s\n", s->rows[i].label, v,
				  s->rows[i].seed);
		}
		tb_printf(tb, "figures in %s; verdict: %s (claim: %s)\n",
			  section_unit(r, s), verdict(r, s, f), s->claim);
	}
}
