#include "bench/run/other_cpu_matrix.h"

#include "apic/ap_interrupt.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/primitives.h"
#include "arch/timing.h"
#include "bench/model/apic_reach.h"
#include "bench/model/axes.h"
#include "bench/run/counters.h"
#include "bench/run/experiment.h"
#include "bench/run/other_cpus.h"

/* The processor in the boot CPU's place: its slot (-1: none) and the
 * APIC mode it arrived in. */
static int in_place = -1;
static uint32_t in_place_mode;

/* Its stack for the rows, deeper than an AP's own, and its IST stacks
 * (its TSS in the boot CPU's place, arch/desc.h). */
#define OTHER_CPU_MATRIX_STACK_BYTES (64 * 1024)
static uint8_t rows_stack[OTHER_CPU_MATRIX_STACK_BYTES]
	__attribute__((aligned(64)));
static uint8_t ist_stacks[IST_COUNT * IST_STACK_BYTES]
	__attribute__((aligned(64)));
/* The boot CPU's line while it halts: ap_wake, its wake-up's handler
 * then, counts it there through GS (`wakes`). */
static struct ap_cpu boot_halts;
/* Set by the processor in place once its row returned, before it wakes
 * the boot CPU. */
static volatile uint32_t row_finished;

size_t other_cpu_matrix_choose(const struct irqlab_config *c,
			       uint8_t *cpus, size_t cap)
{
	uint32_t own_index, listed = other_cpus_listed(&own_index);
	uint32_t own_type = cpu_core_type() >> CPUID_1A_EAX_CORE_TYPE_SHIFT;
	uint32_t index;
	uint8_t seen[OTHER_CPU_MATRIX_MAX_CPUS + 1];	/* core types taken */
	size_t n = 0, n_seen = 0, k;

	/* Past the MADT's list only a number can name one: its rows then
	 * say there is no such processor. */
	for (index = 0; index < ROW_CPU_MAX && n < cap &&
			(index < listed || index < 31);
	     index++) {
		int slot = other_cpus_slot_of(index);
		uint32_t type = slot < 0 ? 0 : ap_cpus[slot].core_type >>
					    CPUID_1A_EAX_CORE_TYPE_SHIFT;
		int named = index < 31 && ((c->matrix_cpus >> (index + 1)) & 1);
		int automatic = (c->matrix_cpus & 1) && own_type && type &&
				type != own_type;

		for (k = 0; automatic && k < n_seen; k++)
			if (seen[k] == type)
				automatic = 0;
		if (index == own_index)
			continue;
		if (c->matrix_cpus == CONFIG_ALL ? slot >= 0
						 : named || automatic) {
			cpus[n++] = (uint8_t)(index + 1);
			if (type && n_seen < sizeof(seen))
				seen[n_seen++] = (uint8_t)type;
		}
	}
	return n;
}

int other_cpu_matrix_takes(const struct plan_row *p,
			   const struct irqlab_config *c)
{
	uint8_t kind = p->source ? p->source->kind : 0;

	if (p->kind != ROW_EXPERIMENT || p->inject || p->inject_smi ||
	    !p->source || p->id.cpu)
		return 0;
	/* The core rows: INT n and the self-IPIs under each scheme, and a
	 * file of yours (docs/your-entry.md) on them, warm. */
	if (c->matrix_cpus_rows == 0)
		return (!p->entry ||
			variant_kind_of(p->entry->id) == VARIANT_KIND_YOURS) &&
		       !p->cache &&
		       (kind == SOURCE_RAISED_BY_INSTRUCTION ||
			kind == SOURCE_SELF_IPI);
	return kind != SOURCE_OTHER_CPU && p->source->ack != SOURCE_ACK_PIC8259;
}

/* Rows [from, to) that the processors in `cpus` run again, each copy
 * with the processor in its id and its baseline's, appended to `out`;
 * those past `cap` counted in *unplanned. */
static size_t add_copies(struct plan_row *out, size_t n, size_t cap,
			 const struct plan_row *rows, size_t from, size_t to,
			 const uint8_t *cpus, size_t n_cpus,
			 const struct irqlab_config *c, size_t *unplanned)
{
	size_t k, i;

	for (k = 0; k < n_cpus; k++)
		for (i = from; i < to; i++) {
			struct plan_row *row = &out[n];

			if (!other_cpu_matrix_takes(&rows[i], c))
				continue;
			if (n == cap) {
				(*unplanned)++;
				continue;
			}
			*row = rows[i];
			row->id.cpu = row->baseline.cpu = cpus[k];
			row_name(&row->id, row->name, sizeof(row->name));
			n++;
		}
	return n;
}

/* The copies of the rows before the switch to x2APIC go just before
 * it, the x2APIC rows' after them, since the switch is one-way. */
size_t other_cpu_matrix_plan(struct plan_row *rows, size_t n, size_t cap,
			     const struct irqlab_config *c, size_t *unplanned)
{
	static struct plan_row before[PLAN_MAX_ROWS];
	uint8_t cpus[OTHER_CPU_MATRIX_MAX_CPUS];
	size_t n_cpus = other_cpu_matrix_choose(c, cpus,
						OTHER_CPU_MATRIX_MAX_CPUS),
	       split, out = 0, i;

	if (!n_cpus)
		return n;
	for (split = 0; split < n && rows[split].mode != LAPIC_X2APIC; split++)
		;
	for (i = 0; i < n; i++)
		before[i] = rows[i];
	for (i = 0; i < split; i++)
		rows[out++] = before[i];
	/* The boot CPU's own rows after the switch keep their room (n is
	 * at most cap): only copies are left out where the plan is full. */
	out = add_copies(rows, out, cap - (n - split), before, 0, split, cpus,
			 n_cpus, c, unplanned);
	for (i = split; i < n; i++)
		rows[out++] = before[i];
	return add_copies(rows, out, cap, before, split, n, cpus, n_cpus, c,
			  unplanned);
}

void other_cpu_matrix_release(void)
{
	if (in_place < 0)
		return;
	other_cpus_restart_one((uint32_t)in_place);
	in_place = -1;
}

/* Why the processor for row p cannot take the place, or NULL once it
 * has it. */
static const char *take_place(const struct plan_row *p)
{
	static char why[RESULTS_REASON_LEN];
	uint32_t index = p->id.cpu - 1u, own_index;
	uint32_t listed = other_cpus_listed(&own_index);
	int slot = other_cpus_slot_of(index);

	if (!lapic)
		return "the local APIC is not enabled";
	if (index >= listed) {
		fmt_snprintf(why, sizeof(why), "the MADT lists %u processors; "
			     "there is no CPU %u", listed, index);
		return why;
	}
	if (slot < 0) {
		char untried[RESULTS_REASON_LEN];

		if (other_cpus_untried_why(index, untried, sizeof(untried)))
			fmt_snprintf(why, sizeof(why), "CPU %u, not started in "
				     "phase B's xAPIC mode: %s", index, untried);
		else
			fmt_snprintf(why, sizeof(why), "CPU %u did not start in "
				     "phase B", index);
		return why;
	}
	/* Its start and the boot CPU's wake-up name it in the ICR: 8 bits
	 * in xAPIC mode (bench/model/apic_reach.h). */
	if (apic_reach_ipi_why(other_cpus_apic_id((uint32_t)slot),
			       lapic->mode == LAPIC_X2APIC, why, sizeof(why)))
		return why;
	if (slot == in_place && in_place_mode == lapic->mode)
		return 0;
	other_cpu_matrix_release();
	/* It waits in irqlab's loop, in the boot CPU's mode, since phase B
	 * started it or since its start again after rows here; one whose
	 * start again did not come is tried again alone. */
	if (other_cpus_take((uint32_t)slot)) {
		fmt_snprintf(why, sizeof(why), "CPU %u, APIC id %u: did not "
			     "start again", index, other_cpus_apic_id(slot));
		return why;
	}
	in_place = slot;
	in_place_mode = lapic->mode;
	log_printf("other CPUs: CPU %u, APIC id %u, takes the boot CPU's "
		   "place (%s)\n", index, other_cpus_apic_id(slot), lapic->name);
	return 0;
}

/* What the processor in place takes from the boot CPU, and the row. */
struct row_call {
	const struct plan_row *p;
	struct run_result *r;
	const struct irqlab_config *c;
	struct bench_buffers *b;
	uint64_t cr4, fs_base, gs_base, kernel_gs_base;
	uint32_t boot_apic_id;
	/* Where the processor's own instrument floor goes, on its first
	 * row; NULL after. */
	struct sample_stats *floor;
};

static void run_row(void *arg)
{
	struct row_call *call = arg;

	if (call->floor) {
		experiment_floor(tsc_floor_sample, 0, call->c, call->b,
				 call->floor);
		log_printf("other CPUs: CPU %u: instrument floor min %llu "
			   "median %llu\n", call->p->id.cpu - 1u,
			   (unsigned long long)call->floor->min,
			   (unsigned long long)call->floor->median);
	}
	experiment_run(call->p, call->r, call->c, call->b);
}

/* Where the floor of the row's processor goes, with its core type, if
 * it has no entry yet. */
static struct sample_stats *floor_wanted(const struct plan_row *p,
					 struct run_result *r)
{
	struct other_cpu *f;
	uint32_t i;

	for (i = 0; i < r->n_other_cpus; i++)
		if (r->other_cpu[i].cpu == p->id.cpu)
			return 0;
	if (r->n_other_cpus >= RESULTS_MAX_OTHER_CPUS)
		return 0;
	f = &r->other_cpu[r->n_other_cpus++];
	*f = (struct other_cpu){
		.cpu = p->id.cpu,
		.core_type = (uint8_t)(ap_cpus[in_place].core_type >>
				     CPUID_1A_EAX_CORE_TYPE_SHIFT) };
	return &f->floor;
}

/* On the processor in place: the boot CPU's tables, control register
 * and bases, the row on the deeper stack, then the boot CPU woken. Its
 * own GDT, TSS and IDT are not put back: INIT parks it after, and the
 * next row that needs it among the others starts it again. */
static void in_place_of_boot(void *arg)
{
	struct row_call *call = arg;

	desc_take_boot_place(ist_stacks);
	write_cr4(call->cr4);
	wrmsr(MSR_FS_BASE, call->fs_base);
	wrmsr(MSR_GS_BASE, call->gs_base);
	wrmsr(MSR_KERNEL_GS_BASE, call->kernel_gs_base);
	ap_call_on_stack(run_row, call, rows_stack + sizeof(rows_stack));
	row_finished = 1;
	other_cpus_send(call->boot_apic_id, WAKE_VECTOR);
}

void other_cpu_matrix_run(const struct plan_row *p, struct run_result *r,
			  const struct irqlab_config *c,
			  struct bench_buffers *b)
{
	const char *why = take_place(p);
	struct row_call call = { p, r, c, b, read_cr4(), rdmsr(MSR_FS_BASE),
				 rdmsr(MSR_GS_BASE),
				 rdmsr(MSR_KERNEL_GS_BASE),
				 other_cpus_own_apic_id(), 0 };
	const struct ap_cpu *ap;
	struct experiment_result *e;
	uint32_t wakes;

	if (why) {
		(void)experiment_open(p, r, why);
		return;
	}
	ap = &ap_cpus[in_place];
	call.floor = floor_wanted(p, r);
	/* The boot CPU halts on the other processors' IDT, whose handler
	 * only counts, so that nothing of its own runs (under -icount, not
	 * one instruction) while the row is measured elsewhere. */
	ap_reply_ack_only = 1;
	ap_reply_x2apic = lapic->mode == LAPIC_X2APIC;
	row_finished = 0;
	counters_elsewhere(1);
	ap_idt_install();
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)&boot_halts);
	wakes = boot_halts.wakes;
	other_cpus_run((uint32_t)in_place, in_place_of_boot, &call);
	/* Until the row finished and its wake-up was taken here, so that
	 * none is left pending for the boot CPU's own IDT. */
	while ((!row_finished || boot_halts.wakes == wakes) && !ap->fault)
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	/* And until the processor said its work returned (ap_wait's done):
	 * the next row's command must not meet this row's late `done`. */
	while (!ap->done && !ap->fault)
		__asm__ volatile("pause" ::: "memory");
	wrmsr(MSR_GS_BASE, call.gs_base);
	idt_install();
	desc_boot_place_back();
	counters_elsewhere(0);
	if (ap->fault) {
		/* In in_place_of_boot, before the boot CPU's tables. */
		e = experiment_open(p, r, 0);
		e->status = EXP_FAILED;
		fmt_snprintf(e->reason, sizeof(e->reason), "CPU %u: exception %u "
			     "before the row began; it parked itself",
			     p->id.cpu - 1u, ap->fault - 1);
		log_printf("experiment %s: failed: %s\n", p->name, e->reason);
		other_cpu_matrix_release();
	}
}
