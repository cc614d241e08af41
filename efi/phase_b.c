#include <efi.h>
#include <efilib.h>

#include "efi/phase_b.h"
#include "apic/pic8259.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/dispatch/schemes.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/noise.h"
#include "arch/paging.h"
#include "firmware/memory_map.h"
#include "arch/primitives.h"
#include "arch/protected.h"
#include "bench/model/serialize.h"
#include "bench/report/report.h"
#include "bench/run/apic_mode.h"
#include "bench/run/counters.h"
#include "bench/run/counters_pin.h"
#include "bench/run/cross_cpu.h"
#include "bench/run/other_cpus.h"
#include "bench/run/runner.h"
#include "bench/run/probes.h"
#include "efi/console.h"
#include "efi/handoff.h"
#include "efi/progress.h"
#include "efi/runtime.h"

/* The run being measured; the fault hook (fatal_persist) has no other
 * way to reach it. */
static struct run_state *run;
/* CR0 and CR4 as the firmware left them, once phase B took the x87 and
 * SSE state (fpu_take): given back before the firmware runs again. */
static struct fpu_control firmware_fpu;
static int fpu_taken;

/* Room part 1 keeps for the primitives, which run after its rows: about
 * 70 bytes each encoded. A misjudgement only costs histograms, which
 * give way last (persist_and_reset). */
#define PRIMITIVES_RESERVE 2048

/* Whether the run so far fits one handoff (bench_run_all's test). Part
 * 1 keeps room for the primitives and the section between CPUs, but at
 * most half the handoff: a matrix larger than that keeps its first
 * senders' cells, the last ones giving way whole and counted
 * (results_fit_histograms), and part 1 still measures rows. */
static int fits_one_handoff(const struct run_result *r)
{
	size_t keep = PRIMITIVES_RESERVE +
		      cross_cpu_handoff_reserve(&run->config);

	if (keep > run->handoff_budget / 2)
		keep = run->handoff_budget / 2;
	return results_fit(r, run->handoff_budget - (r->part == 1 ? keep : 0));
}

/* What the run still writes once the section is done: its time, the
 * starts' counts and the clocks put back, each a few bytes more or
 * less once compressed. */
#define AFTER_SECTION_SLACK 64

/* Whether the run so far fits the whole handoff: the section between
 * CPUs comes last, and takes what the rows left. */
static int fits_whole_handoff(const struct run_result *r)
{
	return results_fit(r, run->handoff_budget - AFTER_SECTION_SLACK);
}

/* How long the page of results stays up before the machine resets, when
 * the store refused them, or powers off after a serial handoff: long
 * enough to photograph where someone waits at the machine (finish =
 * wait-key), a moment otherwise. */
#define NOT_KEPT_HOLD_SECONDS 120
#define NOT_KEPT_HOLD_UNATTENDED 5

/* The store refused the results: they go to COM1 and to the screen, the
 * marker says so for the next boot (which then does not measure again),
 * and the machine resets. */
static __attribute__((noreturn)) void results_not_kept(
	struct run_result *r, const struct report_context *ctx, const char *err)
{
	struct run_marker marker = {
		.state = MARKER_NOT_STORED, .run_id = r->run_id,
		.run_index = r->run_index, .part = r->part,
		.first_row = r->first_row,
	};
	struct text_buf tb;
	char why[120];
	unsigned lines;

	log_printf("phase B: results NOT persisted: %s\n"
		   "phase B: the results follow on serial only\n", err);
	log_status(STATUS_SERIAL_ONLY, "reason=%s", err);
	log_write("\n");
	tb_init(&tb, run->text, REPORT_TEXT_BYTES);
	report_summary(&tb, r, ctx);
	log_write(tb.data);
	fmt_snprintf(marker.why, sizeof(marker.why), "%s", err);
	if (!runtime_lost())
		handoff_mark(&marker, why, sizeof(why));
	tb_init(&tb, run->text, REPORT_TEXT_BYTES);
	report_end_screen(&tb, r, NULL);
	lines = progress_show_page(tb.data);
	log_status(STATUS_SHOWN, "lines=%u", lines);
	progress_hold(r->config.finish == FINISH_WAIT_KEY
			      ? NOT_KEPT_HOLD_SECONDS : NOT_KEPT_HOLD_UNATTENDED,
		      "resets");
	runtime_reset(EfiResetWarm);
}

/* The blob as handed over, in hex on COM1, 32 bytes a line, for an
 * emulator whose phase C does not run (image/bochs.sh): irqlab-rescue
 * --blob writes the same files from it that phase C would. Its end line
 * comes even when there is no blob (len 0): the runner waits for it. */
static void log_blob(const uint8_t *blob, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char line[2 * 32 + 2];
	size_t i, k = 0;

	log_printf("irqlab-results-blob-begin\n");
	for (i = 0; i < len; i++) {
		line[k++] = hex[blob[i] >> 4];
		line[k++] = hex[blob[i] & 15];
		if (k == 2 * 32 || i + 1 == len) {
			line[k++] = '\n';
			line[k] = 0;
			log_write(line);
			k = 0;
		}
	}
	log_printf("irqlab-results-blob-end\n");
}

/* handoff = serial (docs/run.md "Firmware that cannot keep results"):
 * the whole run's blob on COM1 for irqlab-rescue --blob, nothing written
 * to the variable store, the headline's page on the screen and on COM1,
 * and the machine powered off, never reset: with no marker in the store
 * a reset could start the same run again. */
static __attribute__((noreturn)) void hand_over_on_serial(
	struct run_result *r, const struct report_context *ctx)
{
	struct text_buf tb;
	uint32_t dropped;
	size_t len;
	unsigned lines;

	/* The blob may be as large as a run's parts joined; only past that
	 * do the last rows' histograms give way, as in a handoff. */
	dropped = results_fit_histograms(r, run->blob, run->handoff_budget,
					 &len);
	if (dropped)
		log_printf("handoff: the histograms of %u row(s) do not fit the "
			   "%u bytes of a serial blob; those rows keep their "
			   "percentiles only\n", dropped, run->handoff_budget);
	progress_say("Measured. The results go to COM1 (handoff = serial).");
	log_printf("phase B: handoff = serial: the results follow on COM1 as "
		   "one blob, %llu bytes; irqlab-rescue --blob on this serial "
		   "log writes the files. Nothing was written to the variable "
		   "store.\n", (unsigned long long)len);
	log_blob(run->blob, len);
	log_status(STATUS_SERIAL_HANDOFF, "run=%u bytes=%llu dropped=%u",
		   r->run_index, (unsigned long long)len, dropped);
	if (len == 0) {
		/* Beyond what any blob carries: the summary instead. */
		log_printf("phase B: the results do not encode within %u "
			   "bytes; their summary follows\n\n",
			   run->handoff_budget);
		tb_init(&tb, run->text, REPORT_TEXT_BYTES);
		report_summary(&tb, r, ctx);
		log_write(tb.data);
	}
	tb_init(&tb, run->text, REPORT_TEXT_BYTES);
	report_end_screen(&tb, r, NULL);
	log_write("\n");
	log_write(tb.data);
	lines = progress_show_page(tb.data);
	log_status(STATUS_SHOWN, "lines=%u", lines);
	progress_hold(r->config.finish == FINISH_WAIT_KEY
			      ? NOT_KEPT_HOLD_SECONDS : NOT_KEPT_HOLD_UNATTENDED,
		      "powers off");
	runtime_power_off(run->reset_offered);
	/* Never a reset: nothing in the store says this run measured, and
	 * the boot after a reset could measure it again. */
	progress_page_say("The firmware did not power the machine off. The "
			  "results are on COM1: switch it off now.");
	log_status(STATUS_RESET, "method=halt type=shutdown");
	log_printf("irqlab: the results are on COM1: switch the machine off "
		   "now\n");
	for (;;) {
		cli();
		hlt();
	}
}

/* Stores what the run has and resets into phase C. When the store does
 * not take it, results_not_kept. */
static __attribute__((noreturn)) void persist_and_reset(void)
{
	struct run_result *r = run->result;
	size_t len;
	uint32_t dropped;
	static struct report_catalog catalog;
	struct report_context ctx;
	uint64_t store_free = 0;
	char why[200];
	const char *err;

	/* The firmware's clock settings back before anything else; then
	 * the SMI counter's, whose PerfMonV2 enable counters_unpin's put
	 * back included. */
	counters_unpin();
	noise_finish();
	/* Once: a fault after it comes back here (fatal_persist), and
	 * LDMXCSR would raise #UD where the firmware's CR4.OSFXSR is 0. */
	if (fpu_taken) {
		fpu_taken = 0;
		fpu_give_back(&firmware_fpu);
	}
	report_context_build(&ctx, &catalog, r, NULL);
	if (config_hands_over_serial(&r->config))
		hand_over_on_serial(r, &ctx);
	/* The store's budget is fixed (docs/uefi-variables.md); the rows'
	 * histograms are what gives way, and the results say which. */
	dropped = results_fit_histograms(r, run->blob, run->handoff_budget,
					 &len);
	if (dropped)
		log_printf("handoff: the histograms of %u row(s) do not fit the "
			   "%u bytes the variable store may take; those rows "
			   "keep their percentiles only\n", dropped,
			   run->handoff_budget);
	if (r->cells_dropped)
		log_printf("handoff: %u pair(s) of the matrix between CPUs, "
			   "its last senders', do not fit either; they are "
			   "left out, and the reports say so\n",
			   r->cells_dropped);
	if (r->config.serial_results)
		log_blob(run->blob, len);
	if (len == 0) {
		fmt_snprintf(why, sizeof(why), "results do not fit %u bytes",
			     run->handoff_budget);
		err = why;
	} else {
		if (config_simulates(&r->config, SIMULATE_STORE_FILLS))
			log_printf("phase B: %u variables written to fill the "
				   "store (simulate = store-fills)\n",
				   handoff_fill_store(len));
		err = handoff_store(run->blob, len, r->run_id, &store_free, why,
				    sizeof(why));
	}
	if (err && runtime_lost())
		err = runtime_lost();
	if (err) {
		progress_say("The results could not be kept: they go to the screen "
			     "and the serial port.");
		results_not_kept(r, &ctx, err);
	}
	/* Phase C clears it too, should this fail. */
	handoff_clear_mark();
	progress_say("Results handed over; resetting.");
	log_printf("phase B: run %u of %u, %llu bytes handed over in "
		   "%llu record(s); resetting into phase C\n", r->run_index,
		   r->config.runs, (unsigned long long)len,
		   (unsigned long long)records_needed(len));
	log_status(STATUS_HANDED_OVER, "run=%u runs=%u bytes=%llu "
		   "records=%llu store_free=%llu", r->run_index,
		   r->config.runs, (unsigned long long)len,
		   (unsigned long long)records_needed(len),
		   (unsigned long long)store_free);
	runtime_reset(EfiResetWarm);
}

static void fatal_persist(const struct fault_info *f)
{
	char what[160], said[200];

	fault_describe(f, what, sizeof(what));
	fmt_snprintf(said, sizeof(said), "irqlab faulted (%s); keeping what "
		     "the run has.", what);
	progress_say(said);
	log_printf("phase B: framework fault; persisting what the run has\n");
	persist_and_reset();
}

static int paging_taken_over;

/* What take_over_paging mapped, for the log and the results. */
struct mapped {
	uint64_t wb, uc;	/* bytes */
	uint32_t split;		/* 2 MiB ranges mapped in 4 KiB pages */
};

static enum page_cache cache_of(enum map_kind k)
{
	return k == MAP_WB ? PAGE_WB : PAGE_UC_MINUS;
}

/* One 2 MiB range as the memory map and the MTRRs say: one large page,
 * or 4 KiB pages where its parts differ. */
static int map_large_range(struct paging *pg, const struct memory_map *m,
			   const struct mtrr_view *mtrr, uint64_t start,
			   struct mapped *n)
{
	enum map_kind k = memory_map_kind(m, mtrr, start, LARGE_PAGE_SIZE);
	uint64_t a;

	if (k == MAP_NONE)
		return 0;
	if (k != MAP_SPLIT) {
		*(k == MAP_WB ? &n->wb : &n->uc) += LARGE_PAGE_SIZE;
		return paging_map_as(pg, start, start + LARGE_PAGE_SIZE,
				     LARGE_PAGE_SIZE, cache_of(k));
	}
	n->split++;
	for (a = start; a < start + LARGE_PAGE_SIZE; a += PAGE_SIZE) {
		k = memory_map_kind(m, mtrr, a, PAGE_SIZE);
		if (k == MAP_NONE)
			continue;
		*(k == MAP_WB ? &n->wb : &n->uc) += PAGE_SIZE;
		if (paging_map_as(pg, a, a + PAGE_SIZE, PAGE_SIZE, cache_of(k)))
			return -1;
	}
	return 0;
}

/* irqlab's identity map (docs/long-mode.md "Page attributes"): the low
 * 4 GiB whole and every range the memory map lists above it, write-back
 * where the map says memory is, uncached (UC-) for MMIO, non-WB runtime
 * descriptors and holes, in 4 KiB pages where a 2 MiB page would span
 * two types by the map or by the MTRRs. What it made goes into `found`
 * for the page tables' probe. */
static void take_over_paging(struct phase_b_found *found)
{
	const struct memory_map m = { (const uint8_t *)run->map, run->map_size,
				      run->desc_size };
	struct mtrr_view mtrr;
	struct mapped n = { 0 };
	struct paging pg;
	uint64_t a;
	UINTN off;

	platform_read_mtrrs(&mtrr);
	if (paging_init(&pg, run->page_pool, run->page_pool_pages))
		goto fail;
	for (a = 0; a < (4ull << 30); a += LARGE_PAGE_SIZE)
		if (map_large_range(&pg, &m, &mtrr, a, &n))
			goto fail;
	for (off = 0; off < run->map_size; off += run->desc_size) {
		EFI_MEMORY_DESCRIPTOR *d =
			(EFI_MEMORY_DESCRIPTOR *)((uint8_t *)run->map + off);
		uint64_t end = d->PhysicalStart + d->NumberOfPages * PAGE_SIZE;

		for (a = d->PhysicalStart & ~(LARGE_PAGE_SIZE - 1); a < end;
		     a += LARGE_PAGE_SIZE)
			if (a >= (4ull << 30) &&
			    map_large_range(&pg, &m, &mtrr, a, &n))
				goto fail;
	}
	/* A framebuffer above 4 GiB need not be in the memory map: UC-,
	 * which an MTRR's WC makes write-combining. */
	if (run->screen.usable &&
	    (uint64_t)(uintptr_t)run->screen.base + run->screen.bytes > (4ull << 30) &&
	    paging_map_as(&pg, (uint64_t)(uintptr_t)run->screen.base,
			  (uint64_t)(uintptr_t)run->screen.base +
				  run->screen.bytes,
			  LARGE_PAGE_SIZE, PAGE_UC_MINUS))
		goto fail;
	paging_activate(&pg);
	paging_taken_over = 1;
	log_printf("phase B: own page tables, %llu of %llu pool pages used: "
		   "%llu MiB write-back, %llu MiB uncached, %u 2 MiB ranges in "
		   "4 KiB pages\n", (unsigned long long)pg.pool.used,
		   (unsigned long long)run->page_pool_pages,
		   (unsigned long long)(n.wb >> 20), (unsigned long long)(n.uc >> 20),
		   n.split);
	found->own_page_tables = 1;
	found->wb_bytes = n.wb;
	found->uc_bytes = n.uc;
	found->split = n.split;
	found->pool_used = pg.pool.used;
	found->pool_pages = run->page_pool_pages;
	return;
fail:
	log_printf("phase B: page-table pool too small; keeping firmware's\n");
	found->pool_pages = run->page_pool_pages;
}

/* simulate = cet-shadow-stack: the page phase A set aside made a
 * supervisor shadow-stack page in the firmware's tables, with a
 * supervisor shadow-stack token at its top: the token's own address,
 * busy bit 0 (SDM vol. 1 ch. 17, "Supervisor Shadow Stack Token").
 * Returns the token, or NULL with why the firmware's state cannot be
 * made up here. */
static uint64_t *shadow_stack_token(const char **why)
{
	uint8_t *page = run->shadow_stack_pages;
	uint64_t *token;

	if (!cpu_has(X86_FEATURE_SHSTK)) {
		*why = "CPUID.7.0:ECX[7] (CET shadow stacks) is 0";
		return 0;
	}
	if (!page) {
		*why = "phase A had no page for the shadow stack";
		return 0;
	}
	/* Written before the page becomes a shadow-stack page, which
	 * ordinary stores may not write. */
	token = (uint64_t *)(void *)(page + PAGE_SIZE) - 1;
	*token = (uint64_t)(uintptr_t)token;
	*why = paging_shadow_stack_page((uint64_t)(uintptr_t)page,
					page + PAGE_SIZE,
					SHADOW_STACK_PAGES - 1);
	return *why ? 0 : token;
}

void phase_b(struct run_state *measured)
{
	struct phase_b_found found = { 0 };
	uint64_t *token = 0;

	run = measured;
	cli();
	if (config_simulates(&run->config, SIMULATE_CET_SHADOW_STACK)) {
		token = shadow_stack_token(&found.shadow_stack_not_made);
		found.shadow_stack_token = token;
		/* Here, in a function that never returns: the shadow stack
		 * holds none of the return addresses above it. */
		if (token)
			cpu_shadow_stack_on(token);
	}
	/* CET off first, before gdt_install reloads CS with a far return
	 * built by hand (arch/desc_load.S): with supervisor shadow stacks
	 * on, a far RET pops CS, LIP and SSP from the shadow stack and
	 * raises #CP where they do not match (SDM vol. 2B, RET's operation
	 * with shadow stacks), and the firmware's IDT would take it. */
	found.cet_was_on = (uint8_t)cpu_cet_clear(&found.s_cet);
	/* Before anything may use the x87 or SSE (docs/run.md "The FPU
	 * and SSE"): phase A refused a processor that cannot. */
	fpu_take(&firmware_fpu);
	fpu_taken = 1;
	console_log_to_serial();
	log_printf("phase B: boot services exited, interrupts off; the log "
		   "on %s\n", run->serial_said);
	if (!fpu_state_as_uefi(firmware_fpu.cr0, firmware_fpu.cr4))
		log_printf("phase B: the x87 and SSE made irqlab's: CR0 %llx, "
			   "CR4 %llx as the firmware left them, not as UEFI "
			   "requires (2.10, section 2.3.4); given back before "
			   "it runs again\n", (unsigned long long)firmware_fpu.cr0,
			   (unsigned long long)firmware_fpu.cr4);
	gdt_install(run->ist_stacks);
	exceptions_install();
	idt_install();
	exceptions_set_fatal_hook(fatal_persist);
	runtime_guard_on(&run->config, run->result->tsc_hz);
	log_printf("phase B: own GDT/TSS/IDT loaded\n");
	take_over_paging(&found);
	progress_start(&run->screen, run->result->tsc_hz,
		       config_hands_over_serial(&run->config));
	schemes_own_paging = paging_taken_over;
	pic8259_mask_all();
	primitives_enable_fsgsbase();
	run->lines = probes_run(&found, &(struct probe_tables){
		.madt = &run->platform.madt,
		.madt_status = run->platform.madt_status,
		.hpet = &run->platform.hpet,
		.hpet_status = run->platform.hpet_status,
		.dmar = &run->platform.dmar,
		.dmar_status = run->platform.dmar_status,
	}, &run->other_cpus, run->result);
	counters_pin(run->result);
	pm_test_switch_nmis(config_simulates(&run->config,
					     SIMULATE_NMI_IN_SWITCH));
	bench_measure_floor(run->result, &run->config, &run->buffers);
	log_printf("phase B: instrument floor min %llu median %llu (%s)\n",
		   (unsigned long long)run->result->floor.min,
		   (unsigned long long)run->result->floor.median,
		   clock_kind_name(run->result->clock_kind));
	/* A serial handoff is one part, whatever the results take. */
	bench_run_all(run->result, &run->config, &run->buffers, &run->lines,
		      run->result->part < RESULTS_MAX_PARTS &&
				      !config_hands_over_serial(&run->config)
			      ? fits_one_handoff : NULL);
	if (run->result->part == 1)
		bench_run_primitives(run->result, &run->config, &run->buffers,
				     &run->lines);
	/* The section in part 1, and where it did not fit there, from the
	 * sender it stopped at in the parts after: once their rows are all
	 * measured, else it waits for the part that ends them. */
	if (run->result->part > 1 && run->result->matrix_resume &&
	    run->result->next_row)
		run->result->matrix_next_sender = run->result->matrix_resume;
	else if (run->result->part == 1 || run->result->matrix_resume)
		bench_run_cross_cpu(run->result, &run->config, &run->buffers,
				    run->result->part < RESULTS_MAX_PARTS &&
						    !config_hands_over_serial(
							    &run->config)
					    ? fits_whole_handoff
					    : NULL);
	if (config_simulates(&run->config, SIMULATE_NMI_IN_SWITCH))
		pm_switch_nmi_status();
	/* The other processors, parked halted since phase B started them,
	 * into wait-for-SIPI with their clocks put back, and this boot's
	 * starts into the results. */
	other_cpus_park_for_good();
	other_cpus_starts(&run->result->cpu_start_rounds,
			  &run->result->cpu_starts_most);
	persist_and_reset();
}
