#include <efi.h>
#include <efilib.h>

#include "efi/phase_a.h"

#include "arch/ap.h"
#include "arch/desc.h"
#include "arch/dispatch/i386.h"
#include "arch/dispatch/schemes.h"
#include "arch/dispatch/variants.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/paging.h"
#include "bench/report/report.h"
#include "bench/run/runner.h"
#include "efi/build_id.h"
#include "efi/files.h"
#include "firmware/memory_map.h"
#include "firmware/netboot.h"
#include "firmware/rt_properties.h"
#include "arch/cpu.h"
#include "efi/handoff.h"
#include "efi/pages.h"
#include "efi/phase_b.h"
#include "efi/power.h"
#include "efi/run_store.h"

/* Page-table pages beyond what the memory map needs: a PML5 root, the
 * framebuffer above 4 GiB, and what the map gains before phase B. */
#define PAGE_POOL_SPARE 16
/* Room for descriptors the ExitBootServices dance itself may add. */
#define MEMORY_MAP_SLACK_DESCRIPTORS 16

/* One scheme's footprint in this binary, from its timed assembly. */
static void note_footprint(struct run_result *r, uint8_t scheme,
			   const struct scheme_code *timed, uint32_t stub_bytes,
			   uint32_t data_bytes)
{
	if (r->n_schemes < RESULTS_MAX_SCHEMES)
		r->scheme[r->n_schemes++] = (struct scheme_footprint){
			.scheme = scheme,
			.stub_bytes = stub_bytes,
			.code_bytes = (uint32_t)(timed->code_end -
						 timed->code_start),
			.data_bytes = data_bytes,
		};
}

/* Every scheme's footprint, long mode's and i386's, for the reports. */
static void note_scheme_footprints(struct run_result *r)
{
	size_t i;

	for (i = 0; i < dispatch_scheme_count; i++)
		note_footprint(r, dispatch_schemes[i].id,
			       &dispatch_schemes[i].code[HANDLER_TIMED],
			       dispatch_schemes[i].stub_bytes,
			       dispatch_schemes[i].data_bytes);
	for (i = 0; i < i386_scheme_count; i++)
		note_footprint(r, i386_schemes[i].id,
			       &i386_schemes[i].code[HANDLER_TIMED],
			       i386_schemes[i].stub_bytes,
			       i386_schemes[i].data_bytes);
}

static EFI_STATUS read_memory_map(struct run_state *run)
{
	run->map_size = run->map_cap;
	return uefi_call_wrapper(BS->GetMemoryMap, 5, &run->map_size, run->map,
				 &run->map_key, &run->desc_size, &run->desc_version);
}

/* Sizes the map buffer with slack, since allocating it changes the map. */
static int allocate_memory_map(struct run_state *run)
{
	EFI_STATUS st;

	run->map_cap = 0;
	run->map = NULL;
	st = read_memory_map(run);
	if (st != EFI_BUFFER_TOO_SMALL)
		return -1;
	run->map_cap = run->map_size +
		      MEMORY_MAP_SLACK_DESCRIPTORS * run->desc_size;
	run->map = pages_alloc(run->map_cap);
	return run->map && !EFI_ERROR(read_memory_map(run)) ? 0 : -1;
}

static int allocate_run(struct run_state *run)
{
	const struct irqlab_config *c = &run->config;
	unsigned k;

	run->result = pages_alloc(sizeof(*run->result));
	/* A serial handoff carries the whole run in one blob, as large as
	 * a run's parts joined (docs/run.md "Firmware that cannot keep
	 * results"). */
	run->blob = pages_alloc(config_hands_over_serial(c) ? RUN_FILE_BYTES
							    : HANDOFF_MAX_BLOB);
	if (!run->text)	/* phase C may have allocated it already */
		run->text = pages_alloc(REPORT_TEXT_BYTES);
	run->ist_stacks = pages_alloc(IST_COUNT * IST_STACK_BYTES);
	/* None is a reason phase B gives, not a failure. */
	if (config_simulates(c, SIMULATE_CET_SHADOW_STACK))
		run->shadow_stack_pages =
			pages_alloc(SHADOW_STACK_PAGES * PAGE_SIZE);
	run->buffers.floor = pages_alloc(
		(c->floor_samples > c->primitive_blocks ? c->floor_samples
							 : c->primitive_blocks) *
		sizeof(uint64_t));
	for (k = 0; k < METRIC_COUNT; k++)
		if (!(run->buffers.metric[k] =
			      pages_alloc(c->samples * sizeof(uint64_t))))
			return -1;
	for (k = 0; k < COUNTED_METRICS; k++)
		if (!(run->buffers.counted[k] =
			      pages_alloc(c->samples * sizeof(uint64_t))))
			return -1;
	if (!run->result || !run->blob || !run->text || !run->ist_stacks ||
	    !run->buffers.floor || allocate_memory_map(run))
		return -1;
	/* Tables for the extents the map holds, as phase B will map them;
	 * the final map can only grow by the slack, so some spare. */
	{
		const struct memory_map m = { (const uint8_t *)run->map,
					      run->map_size, run->desc_size };
		struct mtrr_view mtrr;

		platform_read_mtrrs(&mtrr);
		run->page_pool_pages = memory_map_table_pages(&m, &mtrr) +
				       PAGE_POOL_SPARE;
	}
	run->page_pool = pages_alloc_below_4g(run->page_pool_pages * PAGE_SIZE);
	return run->page_pool ? 0 : -1;
}

/* The other processors' trampoline page and stacks, for as many as the
 * MADT lists, the absent ones too: phase B gives each processor it
 * tries a slot and a stack before it starts them all together
 * (simulate = ap-absent tries the absent ones). Without them the
 * processors are only parked. */
static void allocate_ap_area(struct run_state *run)
{
	const struct platform *p = &run->platform;
	uint32_t cpus = p->madt_status == ACPI_OK ? p->madt.cpu_count : 0;
	uint32_t absent = p->madt_status == ACPI_OK ? p->madt.absent_count : 0;

	run->other_cpus = (struct other_cpus_area){ 0 };
	if (cpus > MADT_MAX_CPUS)
		cpus = MADT_MAX_CPUS;
	if (cpus <= 1)
		return;
	cpus += absent < MADT_MAX_ABSENT ? absent : MADT_MAX_ABSENT;
	run->other_cpus.page = pages_alloc_below_1m(PAGE_SIZE);
	run->other_cpus.stacks = pages_alloc((UINTN)cpus * AP_STACK_BYTES);
	run->other_cpus.stack_count = run->other_cpus.stacks ? cpus : 0;
}

/* The thrash cache state writes twice the last-level cache; where CPUID
 * does not say how large that is, 32 MiB covers most. Large server parts
 * have LLCs of hundreds of MiB, so up to 2 GiB is asked for, and less,
 * halving, where the firmware cannot give it; the results say when the
 * buffer is below twice the LLC. Without any, the thrash rows are
 * skipped, with that reason. */
#define THRASH_DEFAULT_BYTES (32ull << 20)
#define THRASH_MAX_BYTES (2ull << 30)
#define THRASH_MIN_BYTES (8ull << 20)

static void allocate_thrash_buffer(struct run_result *r)
{
	uint64_t llc = r->machine.llc_bytes;
	uint64_t want = llc ? 2 * llc : THRASH_DEFAULT_BYTES, bytes;
	uint8_t *buffer = NULL;

	if (want > THRASH_MAX_BYTES)
		want = THRASH_MAX_BYTES;
	for (bytes = want; !buffer && bytes >= THRASH_MIN_BYTES; bytes /= 2)
		buffer = pages_alloc(bytes);
	if (!buffer) {
		record_probe(r, PROBE_THRASH_BUFFER, PROBE_ABSENT, "no %llu MiB "
			     "to be had: the thrash rows are skipped",
			     (unsigned long long)(THRASH_MIN_BYTES >> 20));
		return;
	}
	bytes *= 2;	/* the loop halved once past the one it got */
	cache_set_thrash_buffer(buffer, bytes);
	record_probe(r, PROBE_THRASH_BUFFER,
		     llc && bytes < 2 * llc ? PROBE_QUIRK : PROBE_OK,
		     "%llu MiB%s%s (last-level cache %llu MiB)",
		     (unsigned long long)(bytes >> 20),
		     llc && bytes < 2 * llc ? ", less than twice the LLC: the "
					      "thrash rows may not evict all "
					      "of it" : "",
		     llc ? "" : ", CPUID does not size the LLC",
		     (unsigned long long)(llc >> 20));
}

static EFI_STATUS exit_boot_services(struct run_state *run)
{
	EFI_STATUS st = EFI_INVALID_PARAMETER;
	int tries;

	/* Nothing may print or allocate between the last GetMemoryMap and
	 * ExitBootServices: either would change the map key. A stale key
	 * gives EFI_INVALID_PARAMETER, and the map is simply read again. */
	for (tries = 0; tries < 8 && st == EFI_INVALID_PARAMETER; tries++) {
		st = read_memory_map(run);
		if (EFI_ERROR(st))
			return st;
		st = uefi_call_wrapper(BS->ExitBootServices, 2, run->image,
				       run->map_key);
	}
	return st;
}

/* Brings the resets back to the boot option irqlab was started from,
 * even when that was a one-time choice in the firmware's boot menu:
 * BootNext is used for the next boot only, and BootOrder and the
 * Boot#### options stay untouched (UEFI spec §3.1.2, §3.3). */
static void come_back_here(struct run_result *r)
{
	const UINT32 attributes = EFI_VARIABLE_NON_VOLATILE |
				  EFI_VARIABLE_BOOTSERVICE_ACCESS |
				  EFI_VARIABLE_RUNTIME_ACCESS;
	UINT16 current = 0;
	UINTN size = sizeof(current);

	if (EFI_ERROR(uefi_call_wrapper(RT->GetVariable, 5, L"BootCurrent",
					&EfiGlobalVariable, NULL, &size,
					&current)) ||
	    size != sizeof(current)) {
		r->boot_return = BOOT_RETURN_NO_BOOT_CURRENT;
		log_printf("phase A: the firmware does not say which boot option "
			   "started irqlab (no BootCurrent). After the reset, boot "
			   "the stick again: the results wait in the variable "
			   "store until irqlab runs once more.\n");
		return;
	}
	r->boot_current = current;
	if (EFI_ERROR(uefi_call_wrapper(RT->SetVariable, 5, L"BootNext",
					&EfiGlobalVariable, attributes,
					sizeof(current), &current))) {
		r->boot_return = BOOT_RETURN_REFUSED;
		log_printf("phase A: the firmware refused BootNext. After the "
			   "reset, boot the stick again: the results wait in the "
			   "variable store until irqlab runs once more.\n");
		return;
	}
	r->boot_return = BOOT_RETURN_BOOT_NEXT;
	log_printf("phase A: BootNext = Boot%04X, the option irqlab started "
		   "from: the reset comes back here (BootOrder untouched)\n",
		   current);
}

/* A run that will not go ahead must not bring the next boot back here,
 * nor leave a marker that says it is measuring. */
static void forget_boot_next(void)
{
	uefi_call_wrapper(RT->SetVariable, 5, L"BootNext", &EfiGlobalVariable,
			  0, 0, NULL);
	handoff_clear_mark();
}

/* EFI_RT_PROPERTIES_TABLE_GUID (UEFI spec §4.6.2). */
static EFI_GUID rt_properties_guid = {
	0xeb66918a, 0x7eef, 0x402a,
	{ 0x84, 0x2e, 0x93, 0x1d, 0x21, 0xc3, 0x8a, 0xe9 }
};

/* Whether the runtime services phase B needs are offered after
 * ExitBootServices, as EFI_RT_PROPERTIES_TABLE says (every one where
 * the firmware publishes none, or one of a version irqlab does not
 * know); with simulate = setvariable-not-offered, SetVariable taken out
 * of it. Said in the results, the status line and the log alike; notes
 * in `run` whether ResetSystem is offered. Returns NULL, or why the run
 * cannot go ahead. */
static const char *runtime_services_offered(struct run_state *run,
					    struct run_result *r)
{
	const uint8_t *table = NULL;
	uint32_t supported = RT_SUPPORTED_ALL;
	int taken = config_simulates(&r->config,
				     SIMULATE_SETVARIABLE_NOT_OFFERED);
	const char *kind;
	char said[200];
	struct text_buf tb;
	UINTN i;

	for (i = 0; i < ST->NumberOfTableEntries; i++)
		if (CompareGuid(&ST->ConfigurationTable[i].VendorGuid,
				&rt_properties_guid) == 0)
			table = ST->ConfigurationTable[i].VendorTable;
	tb_init(&tb, said, sizeof(said));
	if (!table) {
		kind = "0";
		tb_printf(&tb, "no EFI_RT_PROPERTIES_TABLE: every runtime "
			  "service is offered (UEFI spec section 4.6.2)");
	} else if (rt_properties_read(table, 8, &supported)) {
		kind = "unknown-version";
		supported = RT_SUPPORTED_ALL;
		tb_printf(&tb, "an EFI_RT_PROPERTIES_TABLE of a version irqlab "
			  "does not know: going by the services");
	} else {
		kind = "1";
		tb_printf(&tb, "EFI_RT_PROPERTIES_TABLE: RuntimeServicesSupported "
			  "0x%x", supported);
	}
	if (taken) {
		supported &= ~RT_SUPPORTED_SET_VARIABLE;
		tb_printf(&tb, "; simulate = setvariable-not-offered: read as "
			  "0x%x, without SetVariable", supported);
		/* The probe's detail is short: what was simulated first. */
		record_probe(r, PROBE_RUNTIME, PROBE_SIMULATED, "simulate = "
			     "setvariable-not-offered: read as 0x%x, without "
			     "SetVariable (the firmware's table: %s)", supported,
			     table ? kind : "none");
	} else {
		record_probe(r, PROBE_RUNTIME, PROBE_OK, "%s", said);
	}
	run->reset_offered = (supported & RT_SUPPORTED_RESET_SYSTEM) != 0;
	log_status(STATUS_RUNTIME, "table=%s supported=0x%x simulated=%u",
		   kind, supported, taken);
	log_printf("phase A: %s\n", said);
	return rt_properties_refusal(supported,
				     config_hands_over_serial(&r->config));
}

/* The "measuring" marker: set before phase B, so that a boot after a
 * hang does not measure again (docs/run.md "No loop after a hang"). */
static const char *mark_measuring(const struct run_result *r, char *why,
				  size_t cap)
{
	const struct run_marker m = {
		.state = MARKER_MEASURING, .run_id = r->run_id,
		.run_index = r->run_index, .part = r->part,
		.first_row = r->first_row,
	};

	return handoff_mark(&m, why, cap);
}

/* Where irqlab was loaded from: a network boot is said, with the NIC's
 * MAC and the folder a lab's server files this machine's runs under
 * (docs/lab.md); a disk says nothing. */
static void note_boot_origin(const struct run_state *run)
{
	const struct platform *p = &run->platform;
	struct boot_origin o;
	char mac[100], machine[64];

	if (files_boot_origin(run->image, &o) || o.medium == BOOT_FROM_DISK)
		return;
	boot_origin_mac_name(&o, mac, sizeof(mac));
	lab_machine_name(p->has_system_uuid ? p->system_uuid : NULL, &o,
			 machine, sizeof(machine));
	log_printf("phase A: loaded over the network (%s, IPv%u) through the "
		   "NIC with MAC %s; a lab's server files this machine's runs "
		   "under %s\n", o.medium == BOOT_FROM_HTTP ? "HTTP boot" : "PXE",
		   o.ip_version, mac, machine);
	if (o.medium == BOOT_FROM_HTTP)
		log_printf("phase A: from %s\n", o.uri);
}

/* The machine and its tables; with simulate = turbo-off, the clock
 * controls read while turbo is off as a firmware would leave it
 * (docs/timing.md "Pinning the frequency"), then turbo back on. */
static void identify_platform(struct run_result *r, struct platform *platform)
{
	uint64_t misc_enable;
	int turbo_off = config_simulates(&r->config, SIMULATE_TURBO_OFF) &&
			cpu_turbo_off_simulated(&misc_enable);

	platform_identify(ST, &r->machine, platform);
	if (!turbo_off)
		return;
	cpu_misc_enable_put_back(misc_enable);
	log_printf("phase A: turbo read as %s with IA32_MISC_ENABLE[38] set "
		   "(simulate = turbo-off), then put back\n",
		   boost_state_name(r->machine.boost));
}

/* handoff = serial (docs/run.md "Firmware that cannot keep results"):
 * nothing is written to the store, no BootNext, no marker, no probe to
 * make room; the whole run is one part, its blob as large as a run's
 * parts joined, and phase B prints it on COM1 and powers off. */
static void hand_over_on_serial(struct run_state *run)
{
	run->handoff_budget = RUN_FILE_BYTES;
	log_printf("phase A: handoff = serial: nothing is written to the "
		   "variable store (no BootNext, no marker, no room made); the "
		   "run is one part, its results go to COM1 whole (up to %u "
		   "bytes of blob) for irqlab-rescue --blob, and the machine "
		   "powers off%s\n", run->handoff_budget,
		   run->reset_offered ? "" : " (ResetSystem is not offered: "
		   "it halts, to be switched off)");
}

/* ExitBootServices, then phase B, which never returns; what is left of
 * the handoff phase A prepared is taken back where it fails. */
static EFI_STATUS take_over(struct run_state *run)
{
	EFI_STATUS st;

	log_printf("phase A: exiting boot services\n");
	st = exit_boot_services(run);
	if (EFI_ERROR(st)) {
		/* A serial handoff wrote nothing to take back. */
		if (!config_hands_over_serial(&run->config))
			forget_boot_next();
		log_printf("phase A: ExitBootServices failed (0x%llx)\n",
			   (unsigned long long)st);
		stop_visibly("the firmware did not let irqlab take the machine "
			     "over (ExitBootServices failed)");
		return st;
	}
	phase_b(run);
}

EFI_STATUS phase_a(struct run_state *run,
		   const struct config_problems *config_problems,
		   const struct next_run *next)
{
	struct run_result *r;
	struct platform *platform = &run->platform;
	struct handoff_room room;
	char why[200];
	int serial = config_hands_over_serial(&run->config);

	if (allocate_run(run)) {
		stop_visibly("phase A cannot allocate the run's buffers");
		return EFI_OUT_OF_RESOURCES;
	}
	r = run->result;
	*r = (struct run_result){
		.run_id = next->index ? next->id : run_store_new_id(),
		.run_index = next->index ? next->index : 1,
		.part = next->part ? next->part : 1,
		.first_row = next->part ? next->first_row
					: (uint16_t)run->config.start_row,
		.matrix_resume = next->part ? next->matrix_resume : 0,
	};
	r->config = run->config;
	fmt_snprintf(r->build, sizeof(r->build), "%s", build_id());
	note_scheme_footprints(r);
	config_warnings_note(config_problems, r->config_warnings,
			     sizeof(r->config_warnings));
	identify_platform(r, platform);
	note_boot_origin(run);
	allocate_ap_area(run);
	allocate_thrash_buffer(r);
	log_printf("phase A: %s family %u model %u stepping %u \"%s\"%s%s\n",
		   r->machine.cpu_vendor, r->machine.family, r->machine.model,
		   r->machine.stepping, r->machine.brand,
		   r->machine.hypervisor[0] ? ", hypervisor " : "",
		   r->machine.hypervisor);
	log_printf("phase A: firmware %s rev 0x%x; ACPI MADT %s\n",
		   r->machine.fw_vendor, r->machine.fw_revision,
		   r->machine.madt_found ? "found" : "not found");
	platform_tsc_frequency(platform, r);
	r->clock_kind = (uint8_t)bench_detect_clock(&r->machine);
	log_printf("phase A: TSC %llu Hz (%s); figures will be %s\n",
		   (unsigned long long)r->tsc_hz, tsc_method_name(r->tsc_method),
		   clock_kind_unit(r->clock_kind));
	{
		/* Phase B owns CR0 and CR4 and makes the x87 and SSE state
		 * its own (fpu_take); only a processor without SSE cannot
		 * be (docs/run.md "The FPU and SSE"). */
		uint64_t cr0 = read_cr0(), cr4 = read_cr4();
		const char *no_sse = fpu_state_unsupported();

		log_printf("phase A: x87 and SSE: CR0 %llx, CR4 %llx: %s\n",
			   (unsigned long long)cr0, (unsigned long long)cr4,
			   no_sse ? no_sse
			   : fpu_state_as_uefi(cr0, cr4)
				   ? "as UEFI requires (2.10, section 2.3.4)"
				   : "not as UEFI requires (2.10, section "
				     "2.3.4: "
				     "CR0.MP and NE set, EM and TS clear, "
				     "CR4.OSFXSR and OSXMMEXCPT set): phase B "
				     "makes them so for itself and gives them "
				     "back");
		if (no_sse) {
			stop_visibly(no_sse);
			return EFI_UNSUPPORTED;
		}
	}
	/* Where the log and a serial handoff go once boot services are
	 * gone: a serial handoff with nowhere to go would measure, then
	 * lose the run (docs/run.md "A serial port that exists"). */
	if (platform_find_serial(platform->rsdp, run->serial_said,
				 sizeof(run->serial_said)))
		log_printf("phase A: serial: %s\n", run->serial_said);
	else if (serial) {
		log_printf("phase A: serial: %s\n", run->serial_said);
		stop_visibly("handoff = serial, but no serial port answers "
			     "for the results to go to (see the line above); "
			     "set handoff = variables, or connect one");
		return EFI_UNSUPPORTED;
	} else {
		log_printf("phase A: serial: %s; the log after ExitBootServices "
			   "goes nowhere\n", run->serial_said);
	}
	{
		const char *refused = runtime_services_offered(run, r);

		if (refused) {
			stop_visibly(refused);
			return EFI_UNSUPPORTED;
		}
	}
	/* BootNext and the marker are written before the store's room is
	 * measured, so the room is what phase B will find. A serial
	 * handoff writes nothing to the store. */
	if (serial) {
		r->boot_return = BOOT_RETURN_NOT_ASKED;
	} else {
		come_back_here(r);
		if (mark_measuring(r, why, sizeof(why))) {
			forget_boot_next();
			stop_visibly(why);
			return EFI_OUT_OF_RESOURCES;
		}
	}
	screen_find(&run->screen);
	r->progress_on_screen = run->screen.usable;
	fmt_snprintf(r->display_note, sizeof(r->display_note), "%s",
		     run->screen.why_not);
	if (run->screen.usable)
		log_printf("phase A: phase B shows its progress on the %ux%u "
			   "framebuffer\n", run->screen.width, run->screen.height);
	else
		log_printf("phase A: phase B's progress goes to serial only: %s\n",
			   run->screen.why_not);
	if (serial) {
		hand_over_on_serial(run);
		return take_over(run);
	}
	/* A run whose results cannot be kept is worse than none. */
	if (handoff_make_room(&room, config_simulates(&r->config,
						      SIMULATE_STORE_UNREADABLE),
			      r->config.handoff_kib &&
					      r->config.handoff_kib < HANDOFF_MIN_RECORDS
				      ? HANDOFF_MIN_RECORDS : r->config.handoff_kib,
			      why, sizeof(why))) {
		forget_boot_next();
		log_status(STATUS_STORE, "ok=0 free=%llu end_free=%llu needed=%llu",
			   (unsigned long long)room.free_boot,
			   (unsigned long long)room.end_free,
			   (unsigned long long)room.needed);
		stop_visibly(why);
		return EFI_OUT_OF_RESOURCES;
	}
	if (room.store_seen)
		log_printf("phase A: variable store: %llu bytes free at its end, "
			   "where runtime writes go; a run needs %llu%s\n",
			   (unsigned long long)room.end_free_before,
			   (unsigned long long)room.needed,
			   room.reclaimed ? "; a probe write made the firmware "
					    "reclaim deleted space" : "");
	if (room.store_seen)
		log_printf("phase A: a handoff may take %llu record(s), %u bytes "
			   "of results: %s\n",
			   (unsigned long long)records_needed(room.blob_budget),
			   room.blob_budget,
			   r->config.handoff_kib ? "capped by handoff_kib"
						 : "at most three quarters of "
						   "the store's free room beyond its "
						   "5 KiB reserve, leaving its largest "
						   "variable room");
	if (room.reclaimed && room.store_seen)
		log_printf("phase A: variable store: %llu bytes free at its end "
			   "after the reclaim\n", (unsigned long long)room.end_free);
	if (!room.store_seen)
		log_printf("phase A: variable store not readable; %llu bytes free "
			   "counting deleted variables; %u blind round(s) of %llu "
			   "bytes %s it; a handoff of %u bytes needs %llu%s\n",
			   (unsigned long long)room.free_boot, room.rounds,
			   (unsigned long long)room.probe_bytes,
			   room.guaranteed ? "reclaimed" : "(capped) probed",
			   room.blob_budget, (unsigned long long)room.needed,
			   room.guaranteed ? "" : "; not made sure: phase B "
			   "checks the room at runtime");
	if (room.resized)
		log_printf("phase A: the reclaim left %llu bytes at the store's "
			   "end, less than its reading promised: the handoff "
			   "is sized again to %u bytes of results\n",
			   (unsigned long long)room.end_free, room.blob_budget);
	log_status(STATUS_STORE, "ok=1 seen=%u end_free=%llu reclaimed=%u "
		   "end_free_after=%llu needed=%llu budget=%u guaranteed=%u "
		   "resized=%u",
		   room.store_seen, (unsigned long long)room.end_free_before,
		   room.reclaimed, (unsigned long long)room.end_free,
		   (unsigned long long)room.needed, room.blob_budget,
		   room.guaranteed, room.resized);
	run->handoff_budget = room.blob_budget;
	return take_over(run);
}
