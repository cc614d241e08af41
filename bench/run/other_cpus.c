#include "bench/run/other_cpus.h"

#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/results.h"
#include "bench/model/topology.h"

/* After INIT the SDM waits 10 ms before a SIPI; parked processors need
 * no SIPI, but the wait lets an INIT still in flight land before the
 * first row. */
#define INIT_SETTLE_US 10000

#define AMD_TOPOEXT (1u << 22)	/* CPUID 8000_0001H ECX */
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
		      (cpuid(0x80000001, 0).ecx & AMD_TOPOEXT);
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

	ap_trampoline_set_stack(area->page, (uint64_t)(uintptr_t)area->stacks +
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

/* Starts each listed processor but this one, where the area allows;
 * says which did not start. Returns how many did, or -1 with *why set
 * where none was tried. */
static int start_all(const struct madt_info *m, uint32_t listed, uint32_t own,
		     const struct ap_area *area, uint64_t tsc_hz,
		     const char **why)
{
	uint32_t i, slot = 0;
	int started = 0;

	*why = ap_start_unsupported(area->page);
	if (!*why && area->stack_count < listed)
		*why = "no stacks were set aside for them";
	if (*why)
		return -1;
	ap_trampoline_prepare(area->page);
	ap_alive = 0;
	for (i = 0; i < listed; i++) {
		if (m->cpu_apic_id[i] == own)
			continue;
		if (start_one(area, m->cpu_apic_id[i], slot++, tsc_hz))
			started++;
		else
			log_printf("other CPUs: CPU %u, APIC id %u: did not "
				   "start\n", i, m->cpu_apic_id[i]);
	}
	return started;
}

void other_cpus_park(const struct madt_info *m, enum acpi_status madt_status,
		     const struct ap_area *area, struct run_result *r)
{
	const char *not_started;
	int started;
	struct topology_leaves leaves;
	char relations[96];
	uint32_t own, i, parked = 0, stuck = 0, listed;
	const char *why;

	topology_read(&leaves);
	topology_decode(&leaves, &r->machine.topology);

	if (madt_status != ACPI_OK) {
		results_probe(r, PROBE_OTHER_CPUS, PROBE_ABSENT, "no usable MADT: "
			      "the other processors are left as they are");
		return;
	}
	listed = m->cpu_count < MADT_MAX_CPUS ? m->cpu_count : MADT_MAX_CPUS;
	if (listed <= 1) {
		results_probe(r, PROBE_OTHER_CPUS, PROBE_ABSENT,
			      "the MADT lists this processor alone");
		log_status(STATUS_OTHER_CPUS, "listed=%u parked=0", listed);
		return;
	}
	why = lapic_enable(lapic_firmware_mode());
	if (why) {
		results_probe(r, PROBE_OTHER_CPUS, PROBE_QUIRK, "not parked: %s",
			      why);
		return;
	}
	own = lapic_own_id();
	relate(m, listed, own, r, relations, sizeof(relations));
	started = start_all(m, listed, own, area, r->tsc_hz, &not_started);
	if (started < 0)
		log_printf("other CPUs: not started: %s\n", not_started);
	for (i = 0; i < listed; i++) {
		if (m->cpu_apic_id[i] == own)
			continue;
		if (lapic_send_init(m->cpu_apic_id[i]))
			stuck++;
		else
			parked++;
	}
	tsc_pause_us(r->tsc_hz, INIT_SETTLE_US);
	log_printf("other CPUs: %u of the %u the MADT lists sent INIT, into "
		   "wait-for-SIPI%s\n", parked, listed - 1,
		   stuck ? "; some INITs were never sent" : "");
	log_status(STATUS_OTHER_CPUS, "listed=%u started=%d parked=%u stuck=%u "
		   "mode=%s relations=%s", listed, started < 0 ? 0 : started,
		   parked, stuck, lapic->name, relations);
	if (started < 0)
		results_probe(r, PROBE_OTHER_CPUS, stuck ? PROBE_QUIRK : PROBE_OK,
			      "not started (%s); %u parked with INIT in "
			      "wait-for-SIPI%s; from this one: %s", not_started,
			      parked, stuck ? "; INIT not sent to some" : "",
			      relations);
	else
		results_probe(r, PROBE_OTHER_CPUS,
			      stuck || (uint32_t)started < listed - 1 ?
				      PROBE_QUIRK : PROBE_OK,
			      "%d of %u started into long mode, then parked with "
			      "INIT in wait-for-SIPI%s; from this one: %s",
			      started, listed - 1,
			      stuck ? "; INIT not sent to some" : "", relations);
	if (m->cpu_count > MADT_MAX_CPUS)
		log_printf("other CPUs: %u listed, the first %u parked\n",
			   m->cpu_count, MADT_MAX_CPUS);
}
