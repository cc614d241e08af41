#include "bench/run/other_cpus.h"

#include "apic/ap_interrupt.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/vectors.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/results.h"
#include "bench/model/topology.h"
#include "bench/run/counters.h"

/* After INIT the SDM waits 10 ms before a SIPI; parked processors need
 * no SIPI, but the wait lets an INIT still in flight land before the
 * first row. */
#define INIT_SETTLE_US 10000

/* The processors phase B started once, which the cross-CPU rows start
 * again: each one's slot in ap_cpus, APIC id, MADT index and relation to
 * the boot CPU. */
static struct {
	const struct ap_area *area;
	uint64_t tsc_hz;
	uint32_t own;
	uint32_t listed, own_index;	/* the MADT's, and the boot CPU's place in it */
	uint32_t count;
	int running;
	int target;	/* the cross-CPU rows' target's slot; -1: none */
	uint32_t command;	/* what the last wake had them do */
	/* What the target's handler took between the last wake and
	 * sleep, and its wake-ups without an interrupt (arch/ap.h). */
	uint32_t last_took, last_wakeups;
	struct {
		uint32_t apic_id, index;
		uint8_t relation;
	} cpu[AP_MAX_CPUS];
} aps = { .target = -1 };
static const char *aps_missing = "the other processors were not started";
static struct topology run_topology;
#define CACHE_TYPE_NULL 0

/* The sharers of the deepest cache a deterministic-cache leaf (4, or
 * AMD's 8000_001DH) lists: EAX[25:14] + 1 of the subleaf whose level,
 * EAX[7:5], is highest; 0 where it lists none. */
static uint32_t llc_sharing_from(uint32_t leaf)
{
	uint32_t sharing = 0, level = 0, i;

	for (i = 0; i < 16; i++) {
		struct cpuid_regs c = cpuid(leaf, i);

		if ((c.eax & 0x1f) == CACHE_TYPE_NULL)
			break;
		if (((c.eax >> 5) & 7) >= level) {
			level = (c.eax >> 5) & 7;
			sharing = ((c.eax >> 14) & 0xfff) + 1;
		}
	}
	return sharing;
}

/* The boot CPU's topology leaves (bench/model/topology.h): 1FH where it
 * is, else 0BH; the last-level cache from leaf 4, or AMD's 8000_001DH
 * where TOPOEXT says it is there; AMD's own leaves where 0BH is not. */
static void topology_read(struct topology_leaves *l)
{
	uint32_t max = cpuid_max_leaf(0), ext = cpuid_max_leaf(0x80000000);
	uint32_t leaf = max >= 0x1f && cpuid(0x1f, 0).ebx ? 0x1f :
			max >= 0x0b && cpuid(0x0b, 0).ebx ? 0x0b : 0;
	int topoext = ext >= 0x80000001 &&
		      (cpuid(0x80000001, 0).ecx & CPUID_80000001_ECX_TOPOEXT);
	unsigned i;

	*l = (struct topology_leaves){ 0 };
	for (i = 0; leaf && i < TOPOLOGY_MAX_LEVELS; i++) {
		struct cpuid_regs c = cpuid(leaf, i);

		if (((c.ecx >> 8) & 0xff) == 0)
			break;
		l->level_eax[i] = c.eax;
		l->level_ecx[i] = c.ecx;
		l->n_levels = (uint8_t)(i + 1);
	}
	if (max >= 4)
		l->llc_sharing = llc_sharing_from(4);
	if (!l->llc_sharing && topoext && ext >= 0x8000001d)
		l->llc_sharing = llc_sharing_from(0x8000001d);
	if (topoext && ext >= 0x8000001e)
		l->amd_threads_per_core =
			((cpuid(0x8000001e, 0).ebx >> 8) & 0xff) + 1;
	if (ext >= 0x80000008)
		l->amd_apic_id_size = (cpuid(0x80000008, 0).ecx >> 12) & 0xf;
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
static int start_one(const struct ap_area *area, uint32_t apic_id,
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
	tsc_pause_us(tsc_hz, INIT_SETTLE_US);
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
 * says which did not start, and keeps those that did in `aps`. Returns
 * how many did, or -1 with *why set where none was tried. */
static int start_all(const struct madt_info *m, uint32_t listed, uint32_t own,
		     const struct ap_area *area, uint64_t tsc_hz,
		     uint32_t absent_tried, const char **why)
{
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
			aps.cpu[slot].apic_id = id;
			aps.cpu[slot].index = i;
			aps.cpu[slot].relation = (uint8_t)topology_relation(
				&run_topology, own, id);
			slot++;
			started++;
		} else {
			log_printf("other CPUs: CPU %u, APIC id %u%s: did not "
				   "start\n", i, id,
				   i < listed ? "" : " (listed absent)");
		}
	}
	aps.area = area;
	aps.tsc_hz = tsc_hz;
	aps.own = own;
	aps.count = slot;
	aps.running = 1;
	return started;
}

/* The closest processor that started: the cross-CPU rows' target. */
static int pick_target(void)
{
	int best = -1;
	uint32_t s;

	for (s = 0; s < aps.count; s++)
		if (best < 0 || aps.cpu[s].relation < aps.cpu[best].relation)
			best = (int)s;
	return best;
}

/* How long the boot CPU waits for an AP to take a command. */
#define COMMAND_WAIT_US 100000

/* Sends a fixed IPI to `apic_id`, untimed. */
static void send_fixed(uint32_t apic_id, uint8_t vector)
{
	int x2apic = lapic->mode == LAPIC_X2APIC;

	if (x2apic)
		weak_wrmsr_fence();
	lapic_icr_write(x2apic, apic_id, APIC_ICR_LEVEL_ASSERT | vector);
}

/* Commands every running AP and waits until each took it, waking the
 * halted ones; returns how many did not in time. */
static uint32_t command_all(uint32_t command)
{
	uint32_t s, late = 0;
	uint64_t end;

	ap_reply_ack_only = 1;
	ap_reply_x2apic = lapic->mode == LAPIC_X2APIC;
	for (s = 0; s < aps.count; s++) {
		ap_cpus[s].command = command;
		/* The store before the load of `waiting`: ap_wait
		 * (arch/ap.c) stores `waiting` and then reads the command,
		 * and without a full fence on both sides each could read
		 * the other's old value and the AP halt with no IPI coming
		 * (SDM vol. 3A §9.2.3.4). */
		mfence();
		if (ap_cpus[s].waiting && !ap_cpus[s].fault)
			send_fixed(aps.cpu[s].apic_id, WAKE_VECTOR);
	}
	end = tsc_open() + aps.tsc_hz / 1000000 * COMMAND_WAIT_US;
	for (s = 0; s < aps.count; s++) {
		while (ap_cpus[s].state != command && !ap_cpus[s].fault &&
		       tsc_open() < end)
			__asm__ volatile("pause");
		if (ap_cpus[s].state != command)
			late++;
	}
	return late;
}

/* INIT to each processor the MADT lists but this one: wait-for-SIPI.
 * Returns how many INITs could not be sent. */
static uint32_t init_all(const struct madt_info *m, uint32_t listed,
			 uint32_t own, uint32_t *parked)
{
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
	tsc_pause_us(aps.tsc_hz, INIT_SETTLE_US);
	return stuck;
}

/* The faults the APs recorded since they were last started. */
static uint32_t faults_logged(void)
{
	uint32_t s, faults = 0;

	for (s = 0; s < aps.count; s++)
		if (ap_cpus[s].fault) {
			faults++;
			log_printf("other CPUs: CPU %u, APIC id %u: exception "
				   "%u; it parked itself\n", aps.cpu[s].index,
				   aps.cpu[s].apic_id, ap_cpus[s].fault - 1);
		}
	return faults;
}

void other_cpus_park(const struct madt_info *m, enum acpi_status madt_status,
		     const struct ap_area *area, struct run_result *r)
{
	const char *not_started;
	int started;
	struct topology_leaves leaves;
	char relations[96];
	uint32_t own, parked, stuck, listed, absent;
	const char *why;

	topology_read(&leaves);
	topology_decode(&leaves, &r->machine.topology);
	run_topology = r->machine.topology;

	if (madt_status != ACPI_OK) {
		record_probe(r, PROBE_OTHER_CPUS, PROBE_ABSENT, "no usable MADT: "
			     "the other processors are left as they are");
		aps_missing = "no usable MADT";
		return;
	}
	listed = m->cpu_count < MADT_MAX_CPUS ? m->cpu_count : MADT_MAX_CPUS;
	if (listed <= 1) {
		record_probe(r, PROBE_OTHER_CPUS, PROBE_ABSENT,
			     "the MADT lists this processor alone");
		log_status(STATUS_OTHER_CPUS, "listed=%u parked=0", listed);
		aps_missing = "the MADT lists this processor alone";
		return;
	}
	why = lapic_enable(lapic_firmware_mode());
	if (why) {
		record_probe(r, PROBE_OTHER_CPUS, PROBE_QUIRK, "not parked: %s",
			     why);
		aps_missing = "the local APIC did not come up";
		return;
	}
	own = lapic_own_id();
	aps.tsc_hz = r->tsc_hz;
	aps.listed = listed;
	for (aps.own_index = 0; aps.own_index < listed &&
				m->cpu_apic_id[aps.own_index] != own;
	     aps.own_index++)
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
		(void)command_all(AP_QUIET);
	stuck = init_all(m, listed, own, &parked);
	aps.running = 0;
	aps.target = pick_target();
	if (started <= 0)
		aps_missing = started < 0 ? not_started
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
			     aps.target >= 0 ? "; the cross-CPU rows' target: "
					     : "",
			     aps.target >= 0 ? cpu_relation_name(
				     aps.cpu[aps.target].relation) : "",
			     aps.target >= 0 ? " CPU" : "");
	if (m->cpu_count > MADT_MAX_CPUS)
		log_printf("other CPUs: %u listed, the first %u parked\n",
			   m->cpu_count, MADT_MAX_CPUS);
}

const char *other_cpus_unavailable(void)
{
	return aps.target < 0 ? aps_missing : 0;
}

uint32_t other_cpus_target_apic_id(void)
{
	return aps.target < 0 ? 0 : aps.cpu[aps.target].apic_id;
}

int other_cpus_target_waiting(void)
{
	uint64_t end = tsc_open() + aps.tsc_hz / 1000000 * COMMAND_WAIT_US;
	const struct ap_cpu *t = &ap_cpus[aps.target];

	while (!t->waiting && !t->fault && tsc_open() < end)
		__asm__ volatile("pause");
	return t->waiting;
}

/* Starts the processors that started in phase B again, each from
 * wait-for-SIPI into the slot it had (the same trampoline and stack). */
static uint32_t start_again(void)
{
	uint32_t s, late = 0;

	for (s = 0; s < aps.count; s++)
		if (other_cpus_start_one(s))
			late++;
	return late;
}

const char *other_cpus_wake(uint32_t command)
{
	static char why[96];

	if (aps.target < 0)
		return aps_missing;
	if (!aps.running) {
		uint32_t late = start_again();

		aps.running = 1;
		if (late) {
			fmt_snprintf(why, sizeof(why), "%u of the %u other "
				     "processors did not start again", late,
				     aps.count);
			return why;
		}
	}
	aps.command = command;
	if (command_all(command)) {
		fmt_snprintf(why, sizeof(why), "an AP did not take the "
			     "command to wait (%u)", command);
		return why;
	}
	return 0;
}

/* Runs work(slot) on the processor in `slot`, which waits quiet or
 * after its last work, and waits until it returned; it then waits quiet
 * again. Returns how it ended (enum pin_outcome in counters.h). */
static int run_and_wait(uint32_t slot, void (*work)(void *arg))
{
	struct ap_cpu *ap = &ap_cpus[slot];
	uint64_t end = tsc_open() + aps.tsc_hz;

	other_cpus_run(slot, work, (void *)(uintptr_t)slot);
	while (!ap->done && !ap->fault && tsc_open() < end)
		__asm__ volatile("pause");
	ap->command = AP_QUIET;
	return ap->fault ? PIN_FAULTED : ap->done ? PIN_RETURNED
						  : PIN_TIMED_OUT;
}

/* The processors pinned since they last started, by slot. */
static uint8_t pinned_now[AP_MAX_CPUS];

/* Its clock pinned as the boot CPU's, once it started: it runs rows or
 * sends IPIs from now on (counters_pin_here). */
static void pin_started(uint32_t slot)
{
	int outcome = run_and_wait(slot, counters_pin_here);

	/* One still pinning is never put back: the restore could race it. */
	pinned_now[slot] = outcome != PIN_TIMED_OUT;
	counters_note_started(slot, (uint8_t)(aps.cpu[slot].index + 1),
			      outcome);
}

/* What the pin changed put back, before INIT parks it: INIT leaves the
 * MSRs as they are. One that faulted parked itself and runs nothing;
 * one that did not start again has nothing to put back. */
static void unpin_before_init(uint32_t slot)
{
	int restored;

	if (!pinned_now[slot])
		return;
	pinned_now[slot] = 0;
	restored = !ap_cpus[slot].fault &&
		   run_and_wait(slot, counters_unpin_here) == PIN_RETURNED;
	counters_note_parked((uint8_t)(aps.cpu[slot].index + 1), restored);
}

void other_cpus_sleep(const char *source)
{
	static const char *const states[] = { "?", "quiet", "spin", "halt",
					      "mwait" };
	const struct ap_cpu *t;
	uint32_t late, faults, s, took = 0, target_took;

	if (!aps.running || aps.target < 0)
		return;
	t = &ap_cpus[aps.target];
	target_took = t->interrupts;
	aps.last_took = target_took;
	aps.last_wakeups = t->wakeups_without_interrupt;
	for (s = 0; s < aps.count; s++)
		took += ap_cpus[s].interrupts;
	late = command_all(AP_QUIET);
	faults = faults_logged();
	for (s = 0; s < aps.count; s++)
		unpin_before_init(s);
	for (s = 0; s < aps.count; s++)
		(void)lapic_send_init(aps.cpu[s].apic_id);
	tsc_pause_us(aps.tsc_hz, INIT_SETTLE_US);
	aps.running = 0;
	log_status(STATUS_CROSS_CPU, "source=%s mode=%s target=%u relation=%s "
		   "state=%s took=%u target_took=%u wakeups=%u faults=%u "
		   "late=%u",
		   source, lapic->name, aps.cpu[aps.target].apic_id,
		   cpu_relation_name(aps.cpu[aps.target].relation),
		   states[aps.command < 5 ? aps.command : 0], took,
		   target_took, aps.last_wakeups, faults, late);
}

uint32_t other_cpus_target_wakeups(uint32_t *target_took)
{
	*target_took = aps.last_took;
	return aps.last_wakeups;
}

uint32_t other_cpus_started(void)
{
	return aps.target < 0 ? 0 : aps.count;
}

uint32_t other_cpus_apic_id(uint32_t slot)
{
	return aps.cpu[slot].apic_id;
}

uint32_t other_cpus_index(uint32_t slot)
{
	return aps.cpu[slot].index;
}

uint32_t other_cpus_own_apic_id(void)
{
	return aps.own;
}

void other_cpus_run(uint32_t slot, void (*work)(void *arg), void *arg)
{
	struct ap_cpu *ap = &ap_cpus[slot];

	ap->work = work;
	ap->work_arg = arg;
	ap->done = 0;
	ap->command = AP_RUN;
}

int other_cpus_finish(uint32_t slot)
{
	struct ap_cpu *ap = &ap_cpus[slot];
	/* A run's work is bounded by its own waits; this is their sum's
	 * bound, generous. */
	uint64_t end = tsc_open() + aps.tsc_hz * 10;

	while (!ap->done && !ap->fault && tsc_open() < end)
		__asm__ volatile("pause");
	ap->command = AP_SPIN;
	return ap->done ? 0 : -1;
}

uint32_t other_cpus_fault(uint32_t slot)
{
	return ap_cpus[slot].fault;
}

uint32_t other_cpus_listed(uint32_t *own_index)
{
	*own_index = aps.own_index;
	return aps.listed;
}

int other_cpus_slot_of(uint32_t index)
{
	uint32_t s;

	for (s = 0; aps.target >= 0 && s < aps.count; s++)
		if (aps.cpu[s].index == index)
			return (int)s;
	return -1;
}

int other_cpus_start_one(uint32_t slot)
{
	ap_trampoline_prepare(aps.area->page);
	ap_alive = 0;
	if (!start_one(aps.area, aps.cpu[slot].apic_id, slot, aps.tsc_hz))
		return -1;
	pin_started(slot);
	return 0;
}

void other_cpus_park_one(uint32_t slot)
{
	unpin_before_init(slot);
	(void)lapic_send_init(aps.cpu[slot].apic_id);
	tsc_pause_us(aps.tsc_hz, INIT_SETTLE_US);
}

void other_cpus_send(uint32_t apic_id, uint8_t vector)
{
	send_fixed(apic_id, vector);
}
