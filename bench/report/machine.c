#include "bench/report/machine.h"

/* EFI_SYSTEM_TABLE.Hdr.Revision as "2.70" or "2.3.1". */
static void uefi_revision_text(uint32_t rev, char *out, size_t cap)
{
	/* EFI_SYSTEM_TABLE.Hdr.Revision: major in the high 16 bits, minor
	 * in the low 16 as tens and units (2.70 is 70, 2.31 is 31). */
	unsigned minor = rev & 0xffff;

	if (minor % 10)
		fmt_snprintf(out, cap, "%u.%u.%u", rev >> 16, minor / 10,
			     minor % 10);
	else
		fmt_snprintf(out, cap, "%u.%u", rev >> 16, minor / 10);
}

/* The boot CPU's topology and where the MADT's other processors sit
 * from it (bench/model/topology.h); null where no leaf said. */
static void json_machine_topology(struct json_writer *w,
				  const struct machine_info *m)
{
	unsigned k;

	json_key(w, "topology");
	if (!m->topology.known) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_kv_uint(w, "smt_shift", m->topology.smt_shift);
	json_kv_uint(w, "llc_shift", m->topology.llc_shift);
	json_kv_uint(w, "package_shift", m->topology.package_shift);
	json_key(w, "other_cpus");
	json_begin_object(w);
	for (k = CPU_RELATION_SMT_SIBLING; k < CPU_RELATION_COUNT; k++)
		json_kv_uint(w, cpu_relation_name(k), m->relation_count[k]);
	json_end_object(w);
	json_end_object(w);
}

static void json_machine(struct json_writer *w, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char text[16];

	json_key(w, "machine");
	json_begin_object(w);
	json_kv_string(w, "cpu_vendor", m->cpu_vendor);
	json_kv_string(w, "brand", m->brand);
	json_kv_uint(w, "family", m->family);
	json_kv_uint(w, "model", m->model);
	json_kv_uint(w, "stepping", m->stepping);
	json_key(w, "microcode");
	if (m->microcode) {
		fmt_snprintf(text, sizeof(text), "0x%x", m->microcode);
		json_string(w, text);
	} else {
		json_null(w);
	}
	json_key(w, "invariant_tsc");
	json_bool(w, m->invariant_tsc);
	json_kv_string(w, "boost", boost_state_name(m->boost));
	json_kv_string(w, "hwp", hwp_state_name(m->hwp));
	json_kv_string(w, "core_type", core_type_name(m->core_type, text,
						      sizeof(text)));
	json_kv_string(w, "hypervisor", m->hypervisor);
	json_kv_string(w, "acpi_oem_id", m->acpi_oem_id);
	json_kv_uint(w, "llc_bytes", m->llc_bytes);
	json_machine_topology(w, m);
	json_key(w, "smbios_system");
	json_begin_object(w);
	json_kv_string(w, "vendor", m->system_vendor);
	json_kv_string(w, "product", m->system_product);
	json_kv_string(w, "version", m->system_version);
	json_end_object(w);
	json_key(w, "acpi_madt");
	if (m->madt_found) {
		json_begin_object(w);
		json_kv_uint(w, "lapic_address", m->lapic_address);
		json_kv_uint(w, "lapic_count", m->lapic_count);
		json_kv_uint(w, "ioapic_count", m->ioapic_count);
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_end_object(w);
}

static void json_boot_return(struct json_writer *w, const struct run_result *r)
{
	char text[16];

	json_key(w, "boot_return");
	json_begin_object(w);
	json_kv_string(w, "how", boot_return_name(r->boot_return));
	fmt_snprintf(text, sizeof(text), "Boot%04X", r->boot_current);
	json_kv_string(w, "boot_current",
		       r->boot_return == BOOT_RETURN_NO_BOOT_CURRENT ||
				       r->boot_return == BOOT_RETURN_NOT_ASKED
			       ? "" : text);
	json_end_object(w);
}

static void json_display(struct json_writer *w, const struct run_result *r)
{
	json_key(w, "display");
	json_begin_object(w);
	json_key(w, "progress_on_screen");
	json_bool(w, r->progress_on_screen);
	json_kv_string(w, "why_not", r->display_note);
	json_end_object(w);
}

/* What the probes found, each by name: its state and what it saw. */
static void json_probes(struct json_writer *w, const struct run_result *r)
{
	unsigned i;

	json_key(w, "platform");
	json_begin_object(w);
	for (i = 0; i < PROBE_COUNT; i++) {
		json_key(w, platform_probe_name(i));
		json_begin_object(w);
		json_kv_string(w, "state", probe_state_name(r->probe[i].state));
		json_kv_string(w, "detail", r->probe[i].detail);
		json_end_object(w);
	}
	json_end_object(w);
}

static void json_firmware(struct json_writer *w, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char text[32];

	json_key(w, "firmware");
	json_begin_object(w);
	json_kv_string(w, "vendor", m->fw_vendor);
	json_kv_uint(w, "revision", m->fw_revision);
	uefi_revision_text(m->uefi_revision, text, sizeof(text));
	json_kv_string(w, "uefi_revision", text);
	json_end_object(w);
}

void machine_json(struct json_writer *w, const struct run_result *r)
{
	json_machine(w, r);
	json_boot_return(w, r);
	json_display(w, r);
	json_probes(w, r);
	json_firmware(w, r);
}

/* Each probe that ran, a line each: its name, state and what it saw. */
static void summary_probes(struct text_buf *tb, const struct run_result *r)
{
	unsigned i, shown = 0;

	for (i = 0; i < PROBE_COUNT; i++) {
		const struct probe_result *p = &r->probe[i];

		if (p->state == PROBE_NOT_RUN)
			continue;
		tb_printf(tb, "%-10s %-19s %-9s %s\n",
			  shown++ ? "" : "platform", platform_probe_name(i),
			  probe_state_name(p->state), p->detail);
	}
}

/* The machine, the firmware, how it booted back and what the probes
 * found: what the figures below were measured on. */
void machine_summary(struct text_buf *tb, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char text[32];

	tb_printf(tb, "machine    %s family %u model %u stepping %u\n",
		  m->cpu_vendor, m->family, m->model, m->stepping);
	tb_printf(tb, "           \"%s\"\n", m->brand);
	tb_printf(tb, "system     %s / %s / %s (SMBIOS)\n",
		  m->system_vendor[0] ? m->system_vendor : "?",
		  m->system_product[0] ? m->system_product : "?",
		  m->system_version[0] ? m->system_version : "?");
	tb_printf(tb, "hypervisor %s\n", m->hypervisor[0] ? m->hypervisor : "none");
	tb_printf(tb, "LLC        %llu KiB (CPUID)\n",
		  (unsigned long long)(m->llc_bytes / 1024));
	if (m->madt_found)
		tb_printf(tb, "ACPI MADT  local APIC at 0x%llx, %u CPUs, %u IO-APICs\n",
			  (unsigned long long)m->lapic_address, m->lapic_count,
			  m->ioapic_count);
	else
		tb_printf(tb, "ACPI MADT  not found\n");
	uefi_revision_text(m->uefi_revision, text, sizeof(text));
	tb_printf(tb, "firmware   %s revision 0x%x, UEFI %s\n", m->fw_vendor,
		  m->fw_revision, text);
	tb_printf(tb, "boot       %s\n",
		  r->boot_return == BOOT_RETURN_BOOT_NEXT
			  ? "BootNext was set to the option irqlab started from"
		  : r->boot_return == BOOT_RETURN_NO_BOOT_CURRENT
			  ? "the firmware did not name the boot option "
			    "(no BootCurrent): the stick was booted again by hand"
		  : r->boot_return == BOOT_RETURN_REFUSED
			  ? "the firmware refused BootNext: the stick was booted "
			    "again by hand"
			  : "BootNext was not set: with handoff = serial no "
			    "later boot writes the files");
	if (!r->progress_on_screen)
		tb_printf(tb, "display    progress went to serial only: %s\n",
			  r->display_note);
	summary_probes(tb, r);
}
