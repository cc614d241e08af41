#include "bench/run/other_cpus.h"

#include "apic/lapic.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/results.h"

/* After INIT the SDM waits 10 ms before a SIPI; parked processors need
 * no SIPI, but the wait lets an INIT still in flight land before the
 * first row. */
#define INIT_SETTLE_US 10000

void other_cpus_park(const struct madt_info *m, enum acpi_status madt_status,
		     struct run_result *r)
{
	uint32_t own, i, parked = 0, stuck = 0, listed;
	const char *why;

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
	log_status(STATUS_OTHER_CPUS, "listed=%u parked=%u stuck=%u mode=%s",
		   listed, parked, stuck, lapic->name);
	results_probe(r, PROBE_OTHER_CPUS, stuck ? PROBE_QUIRK : PROBE_OK,
		      "%u other processor(s) parked with INIT in wait-for-SIPI"
		      "%s%s", parked, stuck ? "; INIT not sent to " : "",
		      stuck ? "some" : "");
	if (m->cpu_count > MADT_MAX_CPUS)
		log_printf("other CPUs: %u listed, the first %u parked\n",
			   m->cpu_count, MADT_MAX_CPUS);
}
