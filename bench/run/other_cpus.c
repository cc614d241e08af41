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
#include "bench/model/results.h"
#include "bench/model/topology.h"
#include "bench/run/counters.h"
#include "bench/run/counters_pin.h"
#include "bench/run/other_cpus_set.h"

/* After INIT the SDM waits 10 ms before a SIPI; parked processors need
 * no SIPI, but the wait lets an INIT still in flight land before the
 * first row. */
#define INIT_SETTLE_US 10000

struct other_cpus started_cpus = { .target = -1 };
static const char *missing_why = "the other processors were not started";

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

/* The SDM's start-up (vol. 3A §9.4.4.1): INIT, 10 ms, SIPI, 200 us,
 * and a second SIPI if the processor has not started by then; then up
 * to START_WAIT_US for it to reach ap_main. */
#define SIPI_SETTLE_US 200
#define START_WAIT_US 100000

static int ap_reached_main(uint32_t before, uint64_t tsc_hz, uint64_t us)
{
	uint64_t end = tsc_open() + tsc_hz / 1000000 * us;

	while (ap_alive == before && tsc_open() < end)
		__asm__ volatile("pause");
	return ap_alive != before;
}

/* One processor, INIT-SIPI-SIPI into long mode on its own stack.
 * Returns whether it reached ap_main. */
static int start_one(const struct other_cpus_area *area, uint32_t apic_id,
		     uint32_t slot, uint64_t tsc_hz)
{
	uint8_t vector = (uint8_t)((uintptr_t)area->page >> 12);
	uint32_t before = ap_alive;
	unsigned sipi;

	ap_trampoline_set_slot(area->page, slot,
			       (uint64_t)(uintptr_t)area->stacks +
				       (uint64_t)(slot + 1) * AP_STACK_BYTES);
	if (lapic_send_init(apic_id))
		return 0;
	settle_us(tsc_hz, INIT_SETTLE_US);
	for (sipi = 0; sipi < 2; sipi++) {
		if (lapic_send_sipi(apic_id, vector))
			return 0;
		if (ap_reached_main(before, tsc_hz, SIPI_SETTLE_US))
			return 1;
	}
	return ap_reached_main(before, tsc_hz, START_WAIT_US);
}

/* Each AP's local APIC, in the boot CPU's mode, as it arrives. */
static void local_apic_on_arrival(void)
{
	if (lapic)
		(void)lapic_enable((enum lapic_mode)lapic->mode);
}

/* Starts each listed processor but this one, where the area allows;
 * says which did not start, and keeps those that did in started_cpus.
 * Returns how many did, or -1 with *why set where none was tried. */
static int start_all(const struct madt_info *m, uint32_t listed, uint32_t own,
		     const struct other_cpus_area *area, uint64_t tsc_hz,
		     uint32_t absent_tried, const char **why)
{
	struct other_cpus *o = &started_cpus;
	uint32_t i, slot = 0;
	int started = 0;

	*why = ap_start_unsupported(area->page);
	if (!*why && area->stack_count < listed)
		*why = "no stacks were set aside for them";
	if (*why)
		return -1;
	ap_on_arrival = local_apic_on_arrival;
	for (i = FIRST_IRQ_VECTOR; i < 256; i++)
		ap_idt_set_gate((uint8_t)i, i == APIC_SPURIOUS_VECTOR ?
						  (const void *)ap_spurious :
						  (const void *)ap_interrupt);
	ap_trampoline_prepare(area->page);
	ap_idt_set_nmi((const void *)ap_nmi);
	ap_alive = 0;
	/* The enabled ones, then (simulate = ap-absent) the absent ones,
	 * numbered on after them. */
	for (i = 0; i < listed + absent_tried; i++) {
		uint32_t id = i < listed ? m->cpu_apic_id[i]
					 : m->absent_apic_id[i - listed];

		if (id == own)
			continue;
		if (start_one(area, id, slot, tsc_hz)) {
			o->cpu[slot].apic_id = id;
			o->cpu[slot].index = i;
			o->cpu[slot].relation = (uint8_t)topology_relation(
				&o->topology, own, id);
			slot++;
			started++;
		} else {
			log_printf("other CPUs: CPU %u, APIC id %u%s: did not "
				   "start\n", i, id,
				   i < listed ? "" : " (listed absent)");
		}
	}
	o->area = area;
	o->tsc_hz = tsc_hz;
	o->own = own;
	o->count = slot;
	o->running = 1;
	return started;
}

/* The closest processor that started: the cross-CPU rows' target. */
static int pick_target(void)
{
	struct other_cpus *o = &started_cpus;
	int best = -1;
	uint32_t s;

	for (s = 0; s < o->count; s++)
		if (best < 0 || o->cpu[s].relation < o->cpu[best].relation)
			best = (int)s;
	return best;
}

/* INIT to each processor the MADT lists but this one: wait-for-SIPI.
 * Returns how many INITs could not be sent. */
static uint32_t init_all(const struct madt_info *m, uint32_t listed,
			 uint32_t own, uint32_t *parked)
{
	struct other_cpus *o = &started_cpus;
	uint32_t i, stuck = 0;

	*parked = 0;
	for (i = 0; i < listed; i++) {
		if (m->cpu_apic_id[i] == own)
			continue;
		if (lapic_send_init(m->cpu_apic_id[i]))
			stuck++;
		else
			(*parked)++;
	}
	settle_us(o->tsc_hz, INIT_SETTLE_US);
	return stuck;
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
	uint32_t own, parked, stuck, listed, absent;
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
	started = start_all(m, listed, own, area, r->tsc_hz,
			    config_simulates(&r->config, SIMULATE_AP_ABSENT) ?
				    absent : 0, &not_started);
	if (started < 0)
		log_printf("other CPUs: not started: %s\n", not_started);
	else
		(void)other_cpus_command_all(o, AP_QUIET);
	stuck = init_all(m, listed, own, &parked);
	o->running = 0;
	o->target = pick_target();
	if (started <= 0)
		missing_why = started < 0 ? not_started
					  : "no other processor started";
	log_printf("other CPUs: %u of the %u the MADT lists sent INIT, into "
		   "wait-for-SIPI%s\n", parked, listed - 1,
		   stuck ? "; some INITs were never sent" : "");
	log_status(STATUS_OTHER_CPUS, "listed=%u absent=%u started=%d "
		   "parked=%u stuck=%u mode=%s relations=%s", listed,
		   m->absent_count, started < 0 ? 0 : started, parked, stuck,
		   lapic->name, relations);
	if (started < 0)
		record_probe(r, PROBE_OTHER_CPUS, stuck ? PROBE_QUIRK : PROBE_OK,
			     "not started (%s); %u parked with INIT in "
			     "wait-for-SIPI%s; from this one: %s", not_started,
			     parked, stuck ? "; INIT not sent to some" : "",
			     relations);
	else
		record_probe(r, PROBE_OTHER_CPUS,
			     stuck || (uint32_t)started < listed - 1 ?
				     PROBE_QUIRK : PROBE_OK,
			     "%d of %u started into long mode, then parked with "
			     "INIT in wait-for-SIPI%s; from this one: %s%s%s%s",
			     started, listed - 1,
			     stuck ? "; INIT not sent to some" : "", relations,
			     o->target >= 0 ? "; the cross-CPU rows' target: "
					     : "",
			     o->target >= 0 ? cpu_relation_name(
				     o->cpu[o->target].relation) : "",
			     o->target >= 0 ? " CPU" : "");
	if (m->cpu_count > MADT_MAX_CPUS)
		log_printf("other CPUs: %u listed, the first %u parked\n",
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

/* Starts the processors that started in phase B again, each from
 * wait-for-SIPI into the slot it had (the same trampoline and stack). */
static uint32_t start_again(void)
{
	struct other_cpus *o = &started_cpus;
	uint32_t s, late = 0;

	for (s = 0; s < o->count; s++)
		if (other_cpus_start_one(s))
			late++;
	return late;
}

const char *other_cpus_wake(uint32_t command)
{
	struct other_cpus *o = &started_cpus;
	static char why[96];

	if (o->target < 0)
		return missing_why;
	if (!o->running) {
		uint32_t late = start_again();

		o->running = 1;
		if (late) {
			fmt_snprintf(why, sizeof(why), "%u of the %u other "
				     "processors did not start again", late,
				     o->count);
			return why;
		}
	}
	o->command = command;
	if (other_cpus_command_all(o, command)) {
		fmt_snprintf(why, sizeof(why), "an AP did not take the "
			     "command to wait (%u)", command);
		return why;
	}
	return 0;
}

/* Its clock pinned as the boot CPU's, once it started: it runs rows or
 * sends IPIs from now on (counters_pin_here). */
static void pin_started(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;
	enum work_outcome outcome = other_cpus_run_quietly(slot,
							   counters_pin_here);

	/* One still pinning is never put back: the restore could race it. */
	o->pinned[slot] = outcome != WORK_TIMED_OUT;
	counters_note_started(slot, (uint8_t)(o->cpu[slot].index + 1),
			      outcome);
}

/* What the pin changed put back, before INIT parks it: INIT leaves the
 * MSRs as they are. One that faulted parked itself and runs nothing;
 * one that did not start again has nothing to put back. */
static void unpin_before_init(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;
	int restored;

	if (!o->pinned[slot])
		return;
	o->pinned[slot] = 0;
	restored = !ap_cpus[slot].fault &&
		   other_cpus_run_quietly(slot, counters_unpin_here) ==
			   WORK_RETURNED;
	counters_note_parked((uint8_t)(o->cpu[slot].index + 1), restored);
}

/* The status line the cross-CPU rows' checks read: what the target was
 * told to do (`told`), and what it did, counted by itself (arch/ap.h):
 * the HLTs and MWAITs it served, read once it took AP_QUIET, so that
 * every wait it entered has ended and been counted. */
void other_cpus_sleep(const char *source)
{
	static const char *const told[] = { "?", "quiet", "spin", "halt",
					    "mwait" };
	struct other_cpus *o = &started_cpus;
	const struct ap_cpu *t;
	uint32_t late, faults, s, took = 0, target_took;

	if (!o->running || o->target < 0)
		return;
	t = &ap_cpus[o->target];
	target_took = t->interrupts;
	o->last_took = target_took;
	o->last_wakeups = t->wakeups_without_interrupt;
	for (s = 0; s < o->count; s++)
		took += ap_cpus[s].interrupts;
	late = other_cpus_command_all(o, AP_QUIET);
	faults = other_cpus_faults_logged(o);
	log_status(STATUS_CROSS_CPU, "source=%s mode=%s target=%u relation=%s "
		   "told=%s halts=%u mwaits=%u took=%u target_took=%u "
		   "wakeups=%u faults=%u late=%u",
		   source, lapic->name, o->cpu[o->target].apic_id,
		   cpu_relation_name(o->cpu[o->target].relation),
		   told[o->command < 5 ? o->command : 0], t->halts, t->mwaits,
		   took, target_took, o->last_wakeups, faults, late);
	for (s = 0; s < o->count; s++)
		unpin_before_init(s);
	for (s = 0; s < o->count; s++)
		(void)lapic_send_init(o->cpu[s].apic_id);
	settle_us(o->tsc_hz, INIT_SETTLE_US);
	o->running = 0;
}

uint32_t other_cpus_target_wakeups(uint32_t *target_took)
{
	*target_took = started_cpus.last_took;
	return started_cpus.last_wakeups;
}

uint32_t other_cpus_started(void)
{
	return started_cpus.target < 0 ? 0 : started_cpus.count;
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

int other_cpus_slot_of(uint32_t index)
{
	struct other_cpus *o = &started_cpus;
	uint32_t s;

	for (s = 0; o->target >= 0 && s < o->count; s++)
		if (o->cpu[s].index == index)
			return (int)s;
	return -1;
}

int other_cpus_start_one(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;

	ap_trampoline_prepare(o->area->page);
	ap_alive = 0;
	if (!start_one(o->area, o->cpu[slot].apic_id, slot, o->tsc_hz))
		return -1;
	pin_started(slot);
	return 0;
}

void other_cpus_park_one(uint32_t slot)
{
	struct other_cpus *o = &started_cpus;

	unpin_before_init(slot);
	(void)lapic_send_init(o->cpu[slot].apic_id);
	settle_us(o->tsc_hz, INIT_SETTLE_US);
}

