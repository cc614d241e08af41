#include "bench/run/other_cpus.h"

#include "apic/ap_interrupt.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/cpu_topology.h"
#include "arch/desc.h"
#include "arch/vectors.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/apic_reach.h"
#include "bench/model/results.h"
#include "bench/model/topology.h"
#include "bench/run/counters.h"
#include "bench/run/counters_pin.h"
#include "bench/run/other_cpus_set.h"

/* The SDM's start-up (vol. 3A §9.4.4.1, "Typical BSP Initialization
 * Sequence"; §8.4.4.1 in older editions): INIT, 10 ms, a SIPI, 200 us,
 * and a second SIPI, which an AP already past wait-for-SIPI ignores
 * (§9.4.3). irqlab sends each step to every processor it starts before
 * the next step, so that they start together, as Linux has since 6.5
 * (its parallel bring-up: the INIT-SIPI-SIPI of every AP sent first,
 * then each waited for). The wait that follows ends as soon as all
 * arrived; OTHER_CPU_LATE_MS bounds it for one that never does. The 10
 * ms also let an INIT that parks processors land before the next
 * row. */
#define INIT_SETTLE_US 10000
#define SIPI_SETTLE_US 200

struct other_cpus started_cpus = { .target = -1 };
static const char *missing_why = "the other processors were not started";
/* Why the last processor xAPIC mode cannot name was not started; and
 * each such one's APIC id + 1, by MADT index (0: it was tried). */
static char beyond_why[RESULTS_REASON_LEN];
static uint32_t untried_id[MADT_MAX_CPUS];

/* Waits `us` on the TSC, a PAUSE a turn: under -icount the vCPUs take
 * turns, and TCG hands the turn on at a PAUSE (bench/run/
 * other_cpus_command.c). Nothing is timed across it. */
static void settle_us(uint64_t tsc_hz, uint64_t us)
{
	uint64_t end = tsc_open() + tsc_hz / 1000000 * us;

	while (tsc_open() < end)
		__asm__ volatile("pause" ::: "memory");
}

/* Where each listed processor sits from this one, counted by relation,
 * and the same as a status token: "same-llc:1/other-package:2". */
static void relate(const struct madt_info *m, uint32_t listed, uint32_t own,
		   struct run_result *r, char *text, size_t cap)
{
	struct text_buf tb;
	uint32_t i;
	unsigned k;

	for (k = 0; k < CPU_RELATION_COUNT; k++)
		r->machine.relation_count[k] = 0;
	for (i = 0; i < listed; i++)
		if (m->cpu_apic_id[i] != own)
			r->machine.relation_count[topology_relation(
				&r->machine.topology, own,
				m->cpu_apic_id[i])]++;
	tb_init(&tb, text, cap);
	for (k = 0; k < CPU_RELATION_COUNT; k++)
		if (r->machine.relation_count[k])
			tb_printf(&tb, "%s%s:%u", tb.len ? "/" : "",
				  cpu_relation_name(k),
				  r->machine.relation_count[k]);
	if (!tb.len)
		tb_printf(&tb, "none");
}

/* Each AP's local APIC, in the boot CPU's mode, as it arrives. */
static void local_apic_on_arrival(void)
{
	if (lapic)
		(void)lapic_enable((enum lapic_mode)lapic->mode);
}

/* The APIC id of each slot, the trampoline's table; which slots a start
 * wants, and each one's count of arrivals before it. */
static uint32_t slot_apic_id[AP_MAX_CPUS];
static uint8_t wanted[AP_MAX_CPUS];
static uint32_t arrivals_before[AP_MAX_CPUS];
/* INITs that could not be sent (xAPIC's Delivery Status never idle). */
static uint32_t init_unsent;

static int arrived(uint32_t slot)
{
	return ap_arrivals[slot] != arrivals_before[slot];
}

/* Whether every wanted slot arrived, waiting up to `us`. */
static int all_arrived_within(uint64_t us)
{
	const struct other_cpus *o = &started_cpus;
	uint64_t end = tsc_open() + o->tsc_hz / 1000000 * us;
	uint32_t s;

	for (s = 0; s < o->count; s++)
		while (wanted[s] && !arrived(s)) {
			if (tsc_open() >= end)
				return 0;
			__asm__ volatile("pause" ::: "memory");
		}
	return 1;
}

/* Starts the slots marked in `wanted` together (INIT_SETTLE_US above):
 * INIT to each, one 10 ms wait, a SIPI to each, 200 us, a second SIPI to
 * each not yet there, then one wait for all. Each that arrived is up.
 * One that did not is named, and gets an INIT, so that it cannot arrive
 * unseen later. Returns how many did not arrive. */
static uint32_t start_wanted(const char *what)
{
	struct other_cpus *o = &started_cpus;
	uint8_t vector = (uint8_t)((uintptr_t)o->area->page >> 12);
	uint32_t s, n = 0, missing = 0, came = 0;
	uint64_t t0;

	ap_trampoline_prepare(o->area->page);
	ap_trampoline_set_cpus(o->area->page, slot_apic_id, o->count,
			       o->area->stacks);
	for (s = 0; s < o->count; s++) {
		if (!wanted[s])
			continue;
		ap_slot_ready(s);
		arrivals_before[s] = ap_arrivals[s];
		if (lapic_send_init(o->cpu[s].apic_id)) {
			wanted[s] = 0;
			missing++;
			init_unsent++;
			log_printf("other CPUs: CPU %u, APIC id %u: the INIT "
				   "could not be sent\n", o->cpu[s].index,
				   o->cpu[s].apic_id);
		} else {
			n++;
			o->cpu[s].init_left = 1;
		}
	}
	if (!n)
		return missing;
	settle_us(o->tsc_hz, INIT_SETTLE_US);
	t0 = tsc_open();
	for (s = 0; s < o->count; s++)
		if (wanted[s])
			(void)lapic_send_sipi(o->cpu[s].apic_id, vector);
	if (!all_arrived_within(SIPI_SETTLE_US))
		for (s = 0; s < o->count; s++)
			if (wanted[s] && !arrived(s))
				(void)lapic_send_sipi(o->cpu[s].apic_id,
						      vector);
	(void)all_arrived_within((uint64_t)OTHER_CPU_LATE_MS * 1000);
	for (s = 0; s < o->count; s++) {
		if (!wanted[s])
			continue;
		wanted[s] = 0;
		if (arrived(s)) {
			came++;
			o->cpu[s].up = 1;
			o->cpu[s].init_left = 0;
			if (++o->cpu[s].starts > o->most_starts)
				o->most_starts = o->cpu[s].starts;
			continue;
		}
		(void)lapic_send_init(o->cpu[s].apic_id);
		missing++;
		log_printf("other CPUs: CPU %u, APIC id %u%s: did not %s\n",
			   o->cpu[s].index, o->cpu[s].apic_id,
			   o->cpu[s].index < o->listed ? "" : " (listed absent)",
			   what);
	}
	o->rounds++;
	log_printf("other CPUs: start %u: %u processor%s at once (INIT, 10 ms, "
		   "SIPI, SIPI), %u arrived, the last %llu us after the first "
		   "SIPI\n", o->rounds, n, n == 1 ? "" : "s", came,
		   (unsigned long long)(
			   (tsc_open() - t0) / (o->tsc_hz / 1000000 ?
						o->tsc_hz / 1000000 : 1)));
	if (ap_trampoline_strays(o->area->page))
		log_printf("other CPUs: %u processor(s) arrived whose APIC id "
			   "no slot holds; parked in the trampoline\n",
			   ap_trampoline_strays(o->area->page));
	return missing;
}

/* The closest processor that started: the cross-CPU rows' target. */
static int pick_target(void)
{
	struct other_cpus *o = &started_cpus;
	int best = -1;
	uint32_t s;

	for (s = 0; s < o->count; s++)
		if (o->cpu[s].ok &&
		    (best < 0 || o->cpu[s].relation < o->cpu[best].relation))
			best = (int)s;
	return best;
}

/* Every listed processor but this one, and (simulate = ap-absent) the
 * absent ones, numbered on after them, each a slot; all started
 * together and parked, halted, in ap_wait. Returns how many started, or
 * -1 with *why set where none was tried. */
static int start_all(const struct madt_info *m, uint32_t listed, uint32_t own,
		     const struct other_cpus_area *area, uint32_t absent_tried,
		     const char **why)
{
	struct other_cpus *o = &started_cpus;
	uint32_t i, s, count = 0;

	*why = ap_start_unsupported(area->page);
	if (!*why && area->stack_count < listed)
		*why = "no stacks were set aside for them";
	if (*why)
		return -1;
	ap_on_arrival = local_apic_on_arrival;
	for (i = FIRST_IRQ_VECTOR; i < 256; i++)
		ap_idt_set_gate((uint8_t)i, i == APIC_SPURIOUS_VECTOR ?
					    (const void *)ap_spurious :
				    i == WAKE_VECTOR ? (const void *)ap_wake :
						       (const void *)ap_interrupt);
	ap_trampoline_prepare(area->page);
	ap_idt_set_nmi((const void *)ap_nmi);
	for (i = 0; i < listed + absent_tried && count < area->stack_count &&
		    count < AP_MAX_CPUS;
	     i++) {
		uint32_t id = i < listed ? m->cpu_apic_id[i]
					 : m->absent_apic_id[i - listed];

		if (id == own)
			continue;
		/* xAPIC mode, the firmware's, cannot name it: a start would
		 * reach another processor (docs/controllers.md "Processors
		 * beyond APIC ID 254"). */
		if (apic_reach_ipi_why(id, lapic->mode == LAPIC_X2APIC,
				       beyond_why, sizeof(beyond_why))) {
			log_printf("other CPUs: CPU %u: not started: %s\n", i,
				   beyond_why);
			if (i < listed)
				untried_id[i] = id + 1;
			continue;
		}
		slot_apic_id[count] = id;
		o->cpu[count].apic_id = id;
		o->cpu[count].index = i;
		o->cpu[count].relation = (uint8_t)topology_relation(
			&o->topology, own, id);
		wanted[count] = 1;
		count++;
	}
	o->area = area;
	o->own = own;
	o->count = count;
	o->mode = lapic->mode;
	(void)start_wanted("start");
	o->started = 0;
	for (s = 0; s < count; s++) {
		o->cpu[s].ok = o->cpu[s].up;
		o->started += o->cpu[s].ok;
	}
	return (int)o->started;
}

void other_cpus_start_and_park(const struct madt_info *m,
			       enum acpi_status madt_status,
			       const struct other_cpus_area *area,
			       struct run_result *r)
{
	struct other_cpus *o = &started_cpus;
	const char *not_started;
	int started;
	struct cpuid_topology_words words;
	struct topology_leaves leaves;
	char relations[96];
	uint32_t own, parked = 0, stuck, listed, absent, late = 0, s;
	const char *why;

	cpu_topology_read(&words);
	topology_extract(&words, &leaves);
	topology_decode(&leaves, &r->machine.topology);
	o->topology = r->machine.topology;

	if (madt_status != ACPI_OK) {
		record_probe(r, PROBE_OTHER_CPUS, PROBE_ABSENT, "no usable MADT: "
			     "the other processors are left as they are");
		missing_why = "no usable MADT";
		return;
	}
	listed = m->cpu_count < MADT_MAX_CPUS ? m->cpu_count : MADT_MAX_CPUS;
	if (listed <= 1) {
		record_probe(r, PROBE_OTHER_CPUS, PROBE_ABSENT,
			     "the MADT lists this processor alone");
		log_status(STATUS_OTHER_CPUS, "listed=%u parked=0", listed);
		missing_why = "the MADT lists this processor alone";
		return;
	}
	why = lapic_enable(lapic_firmware_mode());
	if (why) {
		record_probe(r, PROBE_OTHER_CPUS, PROBE_QUIRK, "not parked: %s",
			     why);
		missing_why = "the local APIC did not come up";
		return;
	}
	own = lapic_own_id();
	o->tsc_hz = r->tsc_hz;
	o->listed = listed;
	for (o->own_index = 0; o->own_index < listed &&
				m->cpu_apic_id[o->own_index] != own;
	     o->own_index++)
		;
	relate(m, listed, own, r, relations, sizeof(relations));
	absent = m->absent_count < MADT_MAX_ABSENT ? m->absent_count
						   : MADT_MAX_ABSENT;
	if (m->absent_count)
		log_printf("other CPUs: the MADT lists %u more, neither enabled "
			   "nor online-capable (absent): not started%s\n",
			   m->absent_count,
			   config_simulates(&r->config, SIMULATE_AP_ABSENT)
				   ? ", but for simulate = ap-absent" : "");
	started = start_all(m, listed, own, area,
			    config_simulates(&r->config, SIMULATE_AP_ABSENT) ?
				    absent : 0, &not_started);
	if (started < 0) {
		log_printf("other CPUs: not started: %s\n", not_started);
	} else {
		/* Parked until a row needs them: halted, interrupts on, in
		 * ap_wait, where only the wake-up IPI a command brings
		 * (other_cpus_command_one) ends the HLT. */
		late = other_cpus_command_all(o, AP_HALT);
		for (s = 0; s < o->count; s++)
			parked += o->cpu[s].up;
		parked -= late;
	}
	stuck = init_unsent + late;
	o->target = pick_target();
	if (started <= 0)
		missing_why = started < 0 ? not_started
					  : "no other processor started";
	log_printf("other CPUs: %u of the %u the MADT lists started at once "
		   "and parked, halted, in irqlab's loop until a row needs "
		   "them%s\n", parked, listed - 1,
		   stuck ? "; some did not take the command" : "");
	if (m->beyond_xapic_count)
		log_printf("other CPUs: %u of the %u the MADT lists have APIC ids "
			   "past xAPIC's %u (the first %u)%s\n",
			   m->beyond_xapic_count, listed, XAPIC_LAST_ID,
			   m->first_beyond_xapic,
			   lapic->mode == LAPIC_X2APIC
				   ? "; in x2APIC mode, the firmware's, each is "
				     "reached"
				   : "; in xAPIC mode, the firmware's, none is "
				     "started");
	log_status(STATUS_OTHER_CPUS, "listed=%u absent=%u started=%d "
		   "parked=%u stuck=%u mode=%s beyond_xapic=%u relations=%s "
		   "rounds=%u", listed, m->absent_count,
		   started < 0 ? 0 : started, parked, stuck, lapic->name,
		   m->beyond_xapic_count, relations, o->rounds);
	if (started < 0)
		record_probe(r, PROBE_OTHER_CPUS, PROBE_OK,
			     "not started (%s); from this one: %s",
			     not_started, relations);
	else
		record_probe(r, PROBE_OTHER_CPUS,
			     stuck || (uint32_t)started < listed - 1 ?
				     PROBE_QUIRK : PROBE_OK,
			     "%d of %u started into long mode at once, then "
			     "parked halted (HLT) until a row needs them%s; "
			     "from this one: %s%s%s%s",
			     started, listed - 1,
			     stuck ? "; some did not take the command" : "",
			     relations,
			     o->target >= 0 ? "; the cross-CPU rows' target: "
					     : "",
			     o->target >= 0 ? cpu_relation_name(
				     o->cpu[o->target].relation) : "",
			     o->target >= 0 ? " CPU" : "");
	if (m->cpu_count > MADT_MAX_CPUS)
		log_printf("other CPUs: %u listed, the first %u started\n",
			   m->cpu_count, MADT_MAX_CPUS);
}

const char *other_cpus_unavailable(void)
{
	return started_cpus.target < 0 ? missing_why : 0;
}

uint32_t other_cpus_target_apic_id(void)
{
	const struct other_cpus *o = &started_cpus;

	return o->target < 0 ? 0 : o->cpu[o->target].apic_id;
}

/* Its clock pinned as the boot CPU's, the first time since it started
 * that it runs anything (counters_pin_here). It then waits quiet. */
static void pin_started(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;
	enum work_outcome outcome;

	counters_pin_place(slot, o->topology.known
				       ? topology_place_of(&o->topology,
							   o->cpu[slot].apic_id)
						 .package
				       : 0);
	outcome = other_cpus_run_quietly(slot, counters_pin_here);

	/* One still pinning is never put back: the restore could race it. */
	o->pinned[slot] = outcome != WORK_TIMED_OUT;
	counters_note_started(slot, (uint16_t)(o->cpu[slot].index + 1),
			      outcome);
}

/* What the pin changed put back, before INIT or the park for good:
 * neither puts the MSRs back. One that faulted parked itself and runs
 * nothing. */
static void unpin(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;
	int restored;

	if (!o->pinned[slot])
		return;
	o->pinned[slot] = 0;
	restored = !ap_cpus[slot].fault &&
		   other_cpus_run_quietly(slot, counters_unpin_here) ==
			   WORK_RETURNED;
	counters_note_parked(slot, (uint16_t)(o->cpu[slot].index + 1),
			     restored);
}

/* The processors that started in phase B but are not in ap_wait now
 * (one whose start again after a row in the boot CPU's place did not
 * come), started again together and parked halted. NULL, or why not
 * all came. */
static const char *bring_up(void)
{
	struct other_cpus *o = &started_cpus;
	static char why[96];
	uint32_t s, n = 0, missing;

	for (s = 0; s < o->count; s++) {
		wanted[s] = o->cpu[s].ok && !o->cpu[s].up;
		n += wanted[s];
	}
	if (!n)
		return 0;
	missing = start_wanted("start again");
	for (s = 0; s < o->count; s++)
		if (o->cpu[s].ok && o->cpu[s].up &&
		    ap_cpus[s].command == AP_QUIET)
			other_cpus_command_one(o, s, AP_HALT);
	if (!missing)
		return 0;
	fmt_snprintf(why, sizeof(why), "%u of the %u other processors did not "
		     "start again", missing, o->started);
	return why;
}

/* The processor in `slot` told `command` (AP_*), pinned first if this
 * is its first work since it started; 0, or -1 where it did not take
 * it in time. */
static int hold(uint32_t slot, uint32_t command)
{
	struct other_cpus *o = &started_cpus;

	if (!o->pinned[slot])
		pin_started(slot);
	other_cpus_command_one(o, slot, command);
	return other_cpus_took(o, slot);
}

/* Each running processor's counts now: what a row reports from here on
 * is its own. */
static void take_bases(void)
{
	struct other_cpus *o = &started_cpus;
	uint32_t s;

	for (s = 0; s < o->count; s++) {
		const struct ap_cpu *a = &ap_cpus[s];

		o->base[s].interrupts = a->interrupts;
		o->base[s].halts = a->halts;
		o->base[s].mwaits = a->mwaits;
		o->base[s].wakeups = a->wakeups_without_interrupt;
	}
}

const char *other_cpus_wake(uint32_t command)
{
	struct other_cpus *o = &started_cpus;
	static char why[96];
	const char *down;

	if (o->target < 0)
		return missing_why;
	down = bring_up();
	if (!o->cpu[o->target].up)
		return down;
	o->command = command;
	if (hold((uint32_t)o->target, command)) {
		fmt_snprintf(why, sizeof(why), "the target did not take the "
			     "command to wait (%u)", command);
		return why;
	}
	take_bases();
	return 0;
}

const char *other_cpus_wake_parked(void)
{
	struct other_cpus *o = &started_cpus;
	const char *down;

	if (o->target < 0)
		return missing_why;
	down = bring_up();
	o->command = AP_HALT;
	take_bases();
	return down;
}

int other_cpus_hold(uint32_t slot, uint32_t command)
{
	return started_cpus.cpu[slot].up ? hold(slot, command) : -1;
}

/* The status line the cross-CPU rows' checks read: what the target was
 * told to do (`told`), and what it did since the wake, counted by
 * itself (arch/ap.h): the HLTs and MWAITs it served, read once it took
 * the command that parks it, so that every wait it entered has ended
 * and been counted; and what every running processor's handler took. */
void other_cpus_sleep(const char *source)
{
	static const char *const told[] = { "?", "quiet", "spin", "halt",
					    "mwait" };
	struct other_cpus *o = &started_cpus;
	const struct ap_cpu *t;
	uint32_t late = 0, faults, s, took = 0, target_took, ts;
	uint64_t end;

	if (o->target < 0 || !o->cpu[o->target].up)
		return;
	ts = (uint32_t)o->target;
	t = &ap_cpus[ts];
	target_took = t->interrupts - o->base[ts].interrupts;
	o->last_took = target_took;
	o->last_wakeups = t->wakeups_without_interrupt - o->base[ts].wakeups;
	for (s = 0; s < o->count; s++)
		if (o->cpu[s].up)
			took += ap_cpus[s].interrupts - o->base[s].interrupts;
	/* Parked again: the target always, so that its last wait ends and
	 * is counted; the others where a row set them going. */
	for (s = 0; s < o->count; s++)
		if (o->cpu[s].up &&
		    (s == ts || ap_cpus[s].command != AP_HALT))
			other_cpus_command_one(o, s, AP_HALT);
	end = tsc_open() + o->tsc_hz / 1000 * OTHER_CPU_LATE_MS;
	for (s = 0; s < o->count; s++) {
		const struct ap_cpu *a = &ap_cpus[s];

		while (o->cpu[s].up && a->taken != a->seq && !a->fault &&
		       tsc_open() < end)
			__asm__ volatile("pause" ::: "memory");
		late += o->cpu[s].up && a->taken != a->seq && !a->fault;
	}
	faults = other_cpus_faults_logged(o);
	log_status(STATUS_CROSS_CPU, "source=%s mode=%s target=%u relation=%s "
		   "told=%s halts=%u mwaits=%u took=%u target_took=%u "
		   "wakeups=%u faults=%u late=%u",
		   source, lapic->name, o->cpu[ts].apic_id,
		   cpu_relation_name(o->cpu[ts].relation),
		   told[o->command < 5 ? o->command : 0],
		   t->halts - o->base[ts].halts,
		   t->mwaits - o->base[ts].mwaits, took, target_took,
		   o->last_wakeups, faults, late);
}

uint32_t other_cpus_target_wakeups(uint32_t *target_took)
{
	*target_took = started_cpus.last_took;
	return started_cpus.last_wakeups;
}

/* Every running processor told `command` and each one's answer awaited;
 * how many did not take it. */
static uint32_t tell_all(uint32_t command)
{
	return other_cpus_command_all(&started_cpus, command);
}

void other_cpus_before_mode_switch(void)
{
	/* Out of HLT into a loop with interrupts off, which needs no IPI
	 * to take its next command: the wake-up IPI would cross APIC
	 * modes while the switch is under way. */
	(void)tell_all(AP_QUIET);
}

/* On a running processor: its local APIC in the boot CPU's mode. */
static void follow_mode(void *slot)
{
	(void)slot;
	(void)lapic_enable((enum lapic_mode)lapic->mode);
}

void other_cpus_after_mode_switch(int usable)
{
	struct other_cpus *o = &started_cpus;
	uint32_t s, followed = 0;

	if (!lapic || !usable) {
		log_printf("other CPUs: the local APIC's mode switch left it "
			   "unusable: the others stay in their quiet loop\n");
		return;
	}
	if (lapic->mode != o->mode) {
		for (s = 0; s < o->count; s++)
			if (o->cpu[s].up &&
			    other_cpus_run_quietly(s, follow_mode) ==
				    WORK_RETURNED)
				followed++;
		o->mode = lapic->mode;
		log_printf("other CPUs: %u followed the boot CPU into %s "
			   "mode, without a new start\n", followed, lapic->name);
	}
	(void)tell_all(AP_HALT);
}

void other_cpus_park_for_good(void)
{
	struct other_cpus *o = &started_cpus;
	uint32_t s, n = 0, late;

	for (s = 0; s < o->count; s++)
		n += o->cpu[s].up;
	if (!n)
		return;
	/* QUIET first: the clocks put back run as work (AP_RUN), which a
	 * processor takes from a loop that needs no wake-up IPI. */
	(void)tell_all(AP_QUIET);
	for (s = 0; s < o->count; s++)
		if (o->cpu[s].up)
			unpin(s);
	/* Halted in irqlab's loop, never INIT: the runtime services and
	 * the reset that follow may raise SMIs, whose rendezvous waits for
	 * every processor and cannot reach one in wait-for-SIPI (Linux
	 * 6.5's INIT at shutdown hung laptops so, and was reverted:
	 * docs/cross-cpu.md "Parked for good"). */
	late = tell_all(AP_PARKED);
	for (s = 0; s < o->count; s++)
		o->cpu[s].up = 0;
	log_printf("other CPUs: %u parked for good, halted with interrupts off"
		   " in irqlab's loop (%u late to say so), none put in "
		   "wait-for-SIPI; started %u time(s) at once this boot, %u "
		   "time(s) at most each\n", n, late, o->rounds, o->most_starts);
}

uint32_t other_cpus_left_in_init(void)
{
	const struct other_cpus *o = &started_cpus;
	uint32_t s, n = 0;

	for (s = 0; s < o->count; s++)
		n += o->cpu[s].init_left;
	return n;
}

void other_cpus_starts(uint32_t *rounds, uint32_t *most)
{
	*rounds = started_cpus.rounds;
	*most = started_cpus.most_starts;
}

uint32_t other_cpus_started(void)
{
	return started_cpus.target < 0 ? 0 : started_cpus.started;
}

uint32_t other_cpus_slots(void)
{
	return started_cpus.target < 0 ? 0 : started_cpus.count;
}

int other_cpus_ok(uint32_t slot)
{
	return started_cpus.cpu[slot].ok;
}

int other_cpus_up(uint32_t slot)
{
	return started_cpus.cpu[slot].up;
}

uint32_t other_cpus_apic_id(uint32_t slot)
{
	return started_cpus.cpu[slot].apic_id;
}

uint32_t other_cpus_index(uint32_t slot)
{
	return started_cpus.cpu[slot].index;
}

uint32_t other_cpus_own_apic_id(void)
{
	return started_cpus.own;
}

uint32_t other_cpus_listed(uint32_t *own_index)
{
	*own_index = started_cpus.own_index;
	return started_cpus.listed;
}

const char *other_cpus_untried_why(uint32_t index, char *buf, size_t cap)
{
	if (index >= MADT_MAX_CPUS || !untried_id[index])
		return 0;
	return apic_reach_ipi_why(untried_id[index] - 1, 0, buf, cap);
}

int other_cpus_slot_of(uint32_t index)
{
	struct other_cpus *o = &started_cpus;
	uint32_t s;

	for (s = 0; o->target >= 0 && s < o->count; s++)
		if (o->cpu[s].index == index && o->cpu[s].ok)
			return (int)s;
	return -1;
}

int other_cpus_take(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;

	if (!o->cpu[slot].ok)
		return -1;
	if (!o->cpu[slot].up) {
		wanted[slot] = 1;
		if (start_wanted("start again"))
			return -1;
	}
	return hold(slot, AP_QUIET);
}

void other_cpus_restart_one(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;

	unpin(slot);
	o->cpu[slot].up = 0;
	(void)bring_up();
}
