#include "bench/run/probes.h"

#include "arch/noise.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/run/apic_mode.h"
#include "bench/run/counters.h"
#include "bench/run/mitigation_probe.h"

/* What phase B found of CET, and what it did. */
static void record_cet(const struct phase_b_found *f, struct run_result *r)
{
	if (f->shadow_stack_token)
		record_probe(r, PROBE_CET, PROBE_SIMULATED,
			     "CR4.CET %s, IA32_S_CET 0x%llx, SSP 0x%llx as "
			     "firmware using CET leaves them: cleared before "
			     "the GDT's far return", f->cet_was_on ? "on" : "off",
			     (unsigned long long)f->s_cet,
			     (unsigned long long)(uintptr_t)f->shadow_stack_token);
	else if (f->shadow_stack_not_made)
		record_probe(r, PROBE_CET, PROBE_ABSENT,
			     "simulate = cet-shadow-stack not made up: %s; "
			     "CR4.CET %s", f->shadow_stack_not_made,
			     f->cet_was_on ? "on, cleared" : "off");
	else if (f->cet_was_on)
		record_probe(r, PROBE_CET, PROBE_QUIRK,
			     "the firmware left CR4.CET on (IA32_S_CET 0x%llx): "
			     "both cleared for the run, before the GDT's far "
			     "return", (unsigned long long)f->s_cet);
	else
		record_probe(r, PROBE_CET, PROBE_OK,
			     "CR4.CET off, as the firmware left it");
}

/* Whose page tables the rows run on; pf-cr2 needs irqlab's own. */
static void record_page_tables(const struct phase_b_found *f,
			       struct run_result *r)
{
	if (f->own_page_tables)
		record_probe(r, PROBE_PAGE_TABLES, PROBE_OK,
			     "%llu MiB write-back, %llu MiB uncached (UC-), %u "
			     "2 MiB ranges in 4 KiB pages; %llu of %llu pool "
			     "pages", (unsigned long long)(f->wb_bytes >> 20),
			     (unsigned long long)(f->uc_bytes >> 20), f->split,
			     (unsigned long long)f->pool_used,
			     (unsigned long long)f->pool_pages);
	else
		record_probe(r, PROBE_PAGE_TABLES, PROBE_QUIRK,
			     "the pool of %llu pages was too small: the "
			     "firmware's page tables stay, and pf-cr2 is "
			     "skipped", (unsigned long long)f->pool_pages);
}

/* Whether SMIs can be counted, to discard the batches one lands in. */
static void probe_smi_count(struct run_result *r)
{
	const char *why = noise_init();

	r->smi_count_watched = !why;
	log_printf("phase B: SMI count %s%s\n", why ? "not watched: " : "watched: ",
		   why ? why : noise_counter());
	record_probe(r, PROBE_SMI_COUNT, why ? PROBE_ABSENT : PROBE_OK, "%s",
		     why ? why : noise_counter());
}

struct source_lines probes_run(const struct phase_b_found *found,
			       const struct probe_tables *tables,
			       const struct other_cpus_area *other_cpus,
			       struct run_result *r)
{
	struct source_lines lines;

	record_cet(found, r);
	record_page_tables(found, r);
	lines = source_lines_probe(tables, r);
	fmt_snprintf(r->fence_note, sizeof(r->fence_note), "%s",
		     fences_prepare());
	probe_smi_count(r);
	other_cpus_start_and_park(tables->madt, tables->madt_status,
				  other_cpus, r);
	apic_mode_probe(r, tables->madt_status == ACPI_OK ? tables->madt : 0);
	mitigation_probe(r);
	counters_probe(r);
	return lines;
}
