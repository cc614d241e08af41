/* irqlab: the three-phase run (docs/run.md).
 *   phase A  boot services up, no pending records: identify, allocate,
 *            ExitBootServices
 *   phase B  irqlab owns the machine: descriptor tables, paging,
 *            experiments, results into UEFI variables, reset
 *   phase C  next boot, records pending: write the result files, verify
 *            them, delete the records, shut down */
#include <efi.h>
#include <efilib.h>

#include "apic/pic8259.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/dispatch/i386.h"
#include "arch/dispatch/schemes.h"
#include "arch/dispatch/variants.h"
#include "arch/exceptions.h"
#include "arch/noise.h"
#include "arch/paging.h"
#include "arch/primitives.h"
#include "bench/model/config.h"
#include "bench/run/runner.h"
#include "arch/lib/fmt.h"
#include "bench/report/report.h"
#include "bench/model/serialize.h"
#include "bench/run/sources.h"
#include "efi/console.h"
#include "efi/files.h"
#include "efi/handoff.h"
#include "efi/progress.h"
#include "efi/screen.h"
#include "arch/lib/log.h"
#include "efi/platform.h"

#define CONFIG_PATH "\\EFI\\irqlab\\irqlab.cfg"
/* The report page's template, written there by `make image` (web/). */
#define REPORT_TEMPLATE_PATH "\\EFI\\irqlab\\report.tpl"
#define RESULTS_ROOT "\\EFI\\irqlab\\results"
#define ACPI_COPY_DIR "\\EFI\\irqlab\\acpi"
#define TEXT_BYTES REPORT_TEXT_BYTES
/* Room for descriptors the ExitBootServices dance itself may add. */
#define MEMORY_MAP_SLACK_DESCRIPTORS 16

void fpu_state_for_firmware(void);	/* arch/firmware_abi.S */

/* Everything phase B uses, allocated in phase A. */
struct run_state {
	EFI_HANDLE image;
	struct irqlab_config config;
	struct run_result *result;
	struct bench_buffers buffers;
	void *ist_stacks;
	void *page_pool;
	size_t page_pool_pages;
	uint8_t *blob;
	char *text;
	EFI_MEMORY_DESCRIPTOR *map;
	UINTN map_cap, map_size, map_key, desc_size;
	UINT32 desc_version;
	struct platform platform;
	struct screen screen;	/* the framebuffer phase B shows progress on */
};

static struct run_state run;

static void *alloc_pages(UINTN bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	UINTN pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages,
					EfiLoaderData, pages, &a)))
		return NULL;
	return (void *)(uintptr_t)a;
}

/* Page tables below 4 GiB where the firmware has room: the way back from
 * the 32-bit phase loads CR3 with a 32-bit MOV (docs/protected-mode.md).
 * Anywhere else, the i386 rows say so and the rest runs. */
static void *alloc_pages_below_4g(UINTN bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0xffffffffull;
	UINTN pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4,
					AllocateMaxAddress, EfiLoaderData,
					pages, &a)))
		return alloc_pages(bytes);
	return (void *)(uintptr_t)a;
}

/* What reading irqlab.cfg found wrong: errors stop the run in phase A,
 * warnings go into the results. */
static struct {
	char errors[2048], warnings[1024];
	struct config_problems p;
} config_read;

/* A problem list that filled its buffer says so, with the full count. */
static void log_problems(const char *kind, const struct text_buf *tb,
			 unsigned count)
{
	log_printf("config: %u %s in %s:\n%s", count, kind, CONFIG_PATH, tb->data);
	if (tb->overflow)
		log_printf("config: (the list above is cut short; %u %s in all)\n",
			   count, kind);
}

/* Reads irqlab.cfg whole, or refuses it: a file over CONFIG_MAX_BYTES is
 * an error, never read in part. */
static void load_config(EFI_FILE_HANDLE root, struct irqlab_config *c)
{
	static char text[CONFIG_MAX_BYTES + 1], described[2048];
	struct config_problems *p = &config_read.p;
	struct text_buf tb;
	INTN n;

	config_defaults(c);
	config_problems_init(p, config_read.errors, sizeof(config_read.errors),
			     config_read.warnings, sizeof(config_read.warnings));
	n = root ? files_read(root, CONFIG_PATH, text, sizeof(text)) : -1;
	if (n < 0) {
		log_printf("config: %s not found, using defaults\n", CONFIG_PATH);
		return;
	}
	if (n > CONFIG_MAX_BYTES) {
		tb_printf(&p->errors, "the file is larger than %u bytes: refused "
			  "whole, not read in part\n", CONFIG_MAX_BYTES);
		p->n_errors++;
	} else {
		config_parse(c, text, (size_t)n, p);
	}
	if (p->n_warnings)
		log_problems("warning(s)", &p->warnings, p->n_warnings);
	if (p->n_errors)
		log_problems("error(s)", &p->errors, p->n_errors);
	tb_init(&tb, described, sizeof(described));
	config_describe(c, &tb);
	log_printf("config: %s\n", described);
}

#define STOP_COUNTDOWN_SECONDS 10
#define FINISH_COUNTDOWN_SECONDS 120

/* Waits for a key, counting down so an unattended run still ends, then
 * powers off. The count is redrawn in place on the console. */
static void power_off_after(unsigned seconds)
{
	EFI_EVENT timer = NULL, events[2];
	EFI_INPUT_KEY key;
	unsigned left;

	if (!EFI_ERROR(uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER, 0, NULL,
					 NULL, &timer)) &&
	    !EFI_ERROR(uefi_call_wrapper(BS->SetTimer, 3, timer, TimerPeriodic,
					 10000000))) {	/* 1 s, in 100 ns */
		events[0] = ST->ConIn->WaitForKey;
		events[1] = timer;
		for (left = seconds; left > 0; left--) {
			UINTN index = 1;

			log_printf("\rirqlab: press a key to power off (powering "
				   "off in %3u s) ", left);
			uefi_call_wrapper(BS->WaitForEvent, 3, 2, events, &index);
			if (index == 0) {
				uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2,
						  ST->ConIn, &key);
				break;
			}
		}
		log_printf("\n");
	}
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0,
			  NULL);
}

/* Ends a run that cannot measure where a person sees it: the reason on
 * screen and serial, a countdown that a key cuts short, then power off.
 * Never a silent return to the firmware's next boot option. */
static void stop_visibly(const char *why)
{
	log_printf("\nirqlab will not measure: %s\n", why);
	power_off_after(STOP_COUNTDOWN_SECONDS);
}

static uint64_t current_run_id(void)
{
	EFI_TIME t;

	if (EFI_ERROR(uefi_call_wrapper(RT->GetTime, 2, &t, NULL)))
		return 0;
	return run_id_from_time(t.Year, t.Month, t.Day, t.Hour, t.Minute,
				t.Second);
}

static void finish(const struct irqlab_config *c)
{
	if (c->finish == FINISH_WAIT_KEY)
		power_off_after(FINISH_COUNTDOWN_SECONDS);
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0,
			  NULL);
}

/* ---------------------------------------------------------------- phase C */

static void folder_for(uint64_t run_id, const char *suffix, char *out,
		       size_t cap)
{
	char name[32];

	run_folder_name(run_id, name, sizeof(name));
	fmt_snprintf(out, cap, "%s\\%s%s", RESULTS_ROOT, name, suffix);
}

/* Each scheme's footprint in this binary, for the reports (they take
 * the words from bench/model/catalog.c). */
static void note_scheme_footprints(struct run_result *r)
{
	size_t i;

	for (i = 0; i < dispatch_scheme_count && r->n_schemes < RESULTS_MAX_SCHEMES;
	     i++) {
		const struct dispatch_scheme *s = &dispatch_schemes[i];
		struct scheme_footprint *f = &r->scheme[r->n_schemes++];

		fmt_snprintf(f->name, sizeof(f->name), "%s", s->name);
		f->stub_bytes = s->stub_bytes;
		f->code_bytes = (uint32_t)(s->code[HANDLER_TIMED].code_end -
					   s->code[HANDLER_TIMED].code_start);
		f->data_bytes = s->data_bytes;
	}
	for (i = 0; i < i386_scheme_count && r->n_schemes < RESULTS_MAX_SCHEMES;
	     i++) {
		const struct i386_scheme *s = &i386_schemes[i];
		struct scheme_footprint *f = &r->scheme[r->n_schemes++];

		fmt_snprintf(f->name, sizeof(f->name), "%s", s->name);
		f->stub_bytes = s->stub_bytes;
		f->code_bytes = (uint32_t)(s->code[HANDLER_TIMED].code_end -
					   s->code[HANDLER_TIMED].code_start);
		f->data_bytes = s->data_bytes;
	}
}

static const char *write_result_files(EFI_FILE_HANDLE root, const char *dir,
				      const struct run_result *r,
				      const struct report_context *ctx,
				      char *scratch, char *why, size_t cap)
{
	struct text_buf tb;
	unsigned i;

	if (files_mkdir_p(root, dir)) {
		fmt_snprintf(why, cap, "cannot create %s", dir);
		return why;
	}
	for (i = 0; i < report_output_count; i++) {
		const struct report_output *o = &report_outputs[i];
		char path[128];
		const char *err;
		int rc;

		tb_init(&tb, run.text, TEXT_BYTES);
		rc = o->render(&tb, r, ctx);
		if (rc == REPORT_NOT_WRITTEN) {
			log_printf("%s not written: no report template (%s) on "
				   "the ESP\n", o->file, REPORT_TEMPLATE_PATH);
			continue;
		}
		if (rc) {
			fmt_snprintf(why, cap, "%s does not fit %u bytes", o->file,
				     TEXT_BYTES);
			return why;
		}
		fmt_snprintf(path, sizeof(path), "%s\\%s", dir, o->file);
		err = files_write_verified(root, path, tb.data, tb.len, scratch);
		if (err) {
			fmt_snprintf(why, cap, "%s: %s", path, err);
			return why;
		}
		log_printf("wrote and verified %s (%llu bytes)\n", path,
			   (unsigned long long)tb.len);
	}
	return NULL;
}

/* A repeated series (config runs > 1) in progress: phase C of a run that
 * is not the last sets this, and phase A measures the next run. */
static struct {
	uint64_t id;	/* the first run's id, which names the folder */
	uint8_t next;	/* the index of the run to measure */
	/* A run in parts (docs/uefi-variables.md "Parts"): the part to
	 * measure next, 0 for a whole run, and the plan row it starts at. */
	uint8_t part;
	uint16_t first_row;
} series;

/* A run's blob joined from its parts can outgrow one handoff. */
#define RUN_FILE_BYTES (HANDOFF_MAX_BLOB * RESULTS_MAX_PARTS)

/* Run `index`'s blob, as run-<index>.bin; or, with `part`, that part's
 * as its handoff carried it, run-<index>-part-<part>.bin. */
static void blob_path(uint64_t run_id, unsigned index, unsigned part,
		      char *out, size_t cap)
{
	char dir[96];

	folder_for(run_id, "", dir, sizeof(dir));
	if (part)
		fmt_snprintf(out, cap, "%s\\run-%u-part-%u.bin", dir, index,
			     part);
	else
		fmt_snprintf(out, cap, "%s\\run-%u.bin", dir, index);
}

/* A blob beside the run's files (blob_path). The run's own one: the
 * series reads earlier runs back from it, and a later boot recognises the
 * run's records by it; a final run writes it last, after its other
 * files. A part's: phase C joins the parts from them. */
static const char *write_blob(EFI_FILE_HANDLE root, const struct run_result *r,
			      unsigned part, const uint8_t *blob, size_t len,
			      char *scratch)
{
	char dir[96], path[128];

	if (!root)
		return "cannot open the boot volume";
	folder_for(r->run_id, "", dir, sizeof(dir));
	if (files_mkdir_p(root, dir))
		return "cannot create the results folder";
	blob_path(r->run_id, r->run_index, part, path, sizeof(path));
	return files_write_verified(root, path, blob, len, scratch);
}

/* The run `r`, the last of its parts, joined with the parts before it,
 * read back from the ESP. Returns NULL, or what is missing. */
static const char *join_earlier_parts(EFI_FILE_HANDLE root,
				      struct run_result *r, uint8_t *blob)
{
	struct run_result *joined = alloc_pages(sizeof(*joined));
	struct run_result *part = alloc_pages(sizeof(*part));
	static char why[160];
	unsigned p;

	if (!joined || !part || !root)
		return "no memory or no boot volume to join the parts";
	for (p = 1; p < r->part; p++) {
		struct run_result *into = p == 1 ? joined : part;
		char path[128];
		INTN len;

		blob_path(r->run_id, r->run_index, p, path, sizeof(path));
		len = files_read(root, path, blob, RUN_FILE_BYTES);
		if (len <= 0 ||
		    results_decode(blob, (size_t)len, into) != DECODE_OK ||
		    into->run_id != r->run_id || into->part != p ||
		    (p > 1 && results_join_part(joined, part))) {
			fmt_snprintf(why, sizeof(why), "part %u (%s) is missing "
				     "or unreadable", p, path);
			return why;
		}
	}
	if (results_join_part(joined, r))
		return "the parts overflow one run's tables";
	*r = *joined;
	return NULL;
}

/* Whether the run a record belongs to is already on the ESP: a
 * run-<k>.bin in its folder with the blob's length and CRC. */
static int run_on_esp(EFI_FILE_HANDLE root, const struct record_view *v,
		      uint8_t *scratch)
{
	unsigned k;

	for (k = 1; k <= CONFIG_MAX_RUNS; k++) {
		unsigned p;

		/* p == 0: the run's own blob; then each part's. */
		for (p = 0; p <= RESULTS_MAX_PARTS; p++) {
			char path[128];
			INTN len;

			blob_path(v->run_id, k, p, path, sizeof(path));
			len = files_read(root, path, scratch, HANDOFF_MAX_BLOB + 1);
			if (len == (INTN)v->blob_len &&
			    crc32(scratch, (size_t)len) == v->blob_crc)
				return 1;
		}
	}
	return 0;
}

/* Records that cannot be deleted are set aside: reported, dropped from
 * what phase C works on, and their names left to them, since phase B
 * writes its records past every name they hold. Returns how many. */
static uint32_t set_aside_undeletable(struct handoff_found *found)
{
	uint32_t i, kept = 0;

	for (i = 0; i < found->n; i++) {
		const char *name = found->rec[i].name_ascii;
		unsigned seq = (unsigned)(name[12] - '0') * 10 +
			       (unsigned)(name[13] - '0');

		if (!found->rec[i].undeletable) {
			if (kept != i)
				found->rec[kept] = found->rec[i];
			kept++;
			continue;
		}
		/* Dropped from `found` only: it was tried already. */
		log_printf("phase C: %s cannot be deleted: set aside, never read "
			   "into a run; records are written past it\n", name);
		if (seq + 1 > handoff_first_name)
			handoff_first_name = seq + 1;
	}
	i = found->n - kept;
	found->n = kept;
	return i;
}

/* A boot killed while it deleted records leaves some of a run whose files
 * are written and verified. They are recognised by run id, length and
 * CRC against the run's blob on the ESP, and deleted, saying so; any that
 * cannot be deleted are set aside. */
static void forget_runs_on_esp(EFI_FILE_HANDLE root,
			       struct handoff_found *found, uint8_t *scratch)
{
	uint64_t run_id = 0;
	uint32_t crc = 0, i, n = 0, failed;
	int on_esp = 0;

	for (i = 0; i < found->n && root; i++) {
		struct record_view v;

		found->rec[i].chosen = 0;
		if (found->rec[i].oversize ||
		    record_decode(found->rec[i].data, found->rec[i].len, &v) !=
			    RECORD_OK)
			continue;
		if (v.run_id != run_id || v.blob_crc != crc || i == 0) {
			run_id = v.run_id;
			crc = v.blob_crc;
			on_esp = run_on_esp(root, &v, scratch);
		}
		if (on_esp) {
			found->rec[i].chosen = 1;
			n++;
		}
	}
	if (n == 0)
		return;
	for (i = 0; i < found->n; i++)
		if (found->rec[i].chosen)
			log_printf("phase C: %s belongs to a run already on the ESP "
				   "(same run id, length and CRC)\n",
				   found->rec[i].name_ascii);
	failed = handoff_delete_chosen(found);
	log_printf("phase C: %u such record(s) deleted\n", n - failed);
	set_aside_undeletable(found);
}

/* The earlier runs of the series `r` ends, read back from the ESP. */
static size_t load_earlier_runs(EFI_FILE_HANDLE root, const struct run_result *r,
				const struct run_result **runs, uint8_t *blob)
{
	size_t n = 0;
	unsigned k;

	for (k = 1; k < r->run_index && root; k++) {
		struct run_result *earlier = alloc_pages(sizeof(*earlier));
		char path[128];
		INTN len;

		blob_path(r->run_id, k, 0, path, sizeof(path));
		len = files_read(root, path, blob, RUN_FILE_BYTES);
		if (!earlier || len <= 0 ||
		    results_decode(blob, (size_t)len, earlier) != DECODE_OK ||
		    earlier->run_id != r->run_id) {
			log_printf("phase C: run %u of the series is missing or "
				   "unreadable (%s)\n", k, path);
			continue;
		}
		runs[n++] = earlier;
	}
	runs[n++] = r;
	return n;
}

/* Returns 0 when no records are pending, or when they were an earlier
 * run of a series (so phase A should run). */
static int phase_c(EFI_FILE_HANDLE root, const struct irqlab_config *c)
{
	struct handoff_found *found = alloc_pages(sizeof(*found));
	struct handoff_item *items = alloc_pages(sizeof(*items) * 64);
	struct handoff_report *report = alloc_pages(sizeof(*report));
	struct report_catalog *catalog = alloc_pages(sizeof(*catalog));
	struct run_result *r = alloc_pages(sizeof(*r));
	const struct run_result *runs[CONFIG_MAX_RUNS + 1];
	uint8_t *blob = alloc_pages(RUN_FILE_BYTES);
	char *scratch = alloc_pages(TEXT_BYTES + 1);
	char *html_template = alloc_pages(REPORT_TEMPLATE_BYTES);
	char dir[96], why[160];
	struct report_context ctx;
	const char *err = NULL;
	size_t blob_len = 0, final_part_len = 0;
	uint8_t *final_part = NULL;
	uint64_t run_id = 0;
	int have_run;
	uint32_t i;

	if (!run.text)
		run.text = alloc_pages(TEXT_BYTES);
	if (!found || !items || !report || !catalog || !r || !blob || !scratch ||
	    !run.text) {
		log_printf("phase C: out of memory\n");
		return 0;
	}
	handoff_find(found);
	for (i = 0; i < found->n_foreign && i < HANDOFF_FOREIGN_NAMES; i++)
		log_printf("phase C: variable %s under irqlab's GUID is not one "
			   "of its records: left alone\n", found->foreign[i]);
	if (found->n_foreign > HANDOFF_FOREIGN_NAMES)
		log_printf("phase C: and %u more such variables, left alone\n",
			   found->n_foreign - HANDOFF_FOREIGN_NAMES);
	if (found->n == 0)
		return 0;
	forget_runs_on_esp(root, found, (uint8_t *)scratch);
	if (found->n == 0)
		return 0;

	log_printf("phase C: %u handoff record(s) found\n", found->n);
	for (i = 0; i < found->n; i++)
		items[i] = (struct handoff_item){
			.data = found->rec[i].data,
			.len = found->rec[i].oversize ? 0 : found->rec[i].len,
		};
	have_run = handoff_select(items, found->n, blob, HANDOFF_MAX_BLOB,
				  &blob_len, &run_id);
	if (have_run) {
		enum decode_status ds = results_decode(blob, blob_len, r);

		if (ds != DECODE_OK || r->run_id != run_id) {
			for (i = 0; i < found->n; i++)
				if (items[i].fate == FATE_USED) {
					items[i].fate = FATE_CORRUPT;
					fmt_snprintf(items[i].why, sizeof(items[i].why),
						     "results blob: %s",
						     ds != DECODE_OK ? decode_status_name(ds)
								     : "run id differs");
				}
			have_run = 0;
		}
	}
	if (have_run && r->next_row) {
		err = write_blob(root, r, r->part, blob, blob_len, scratch);
		if (!err && !handoff_delete(found)) {
			log_printf("phase C: part %u of run %u kept on the ESP: "
				   "the results did not all fit one handoff, so "
				   "the rows from %u on are measured next\n",
				   r->part, r->run_index, r->next_row);
			log_status(STATUS_PART_KEPT, "run=%u part=%u next_row=%u",
				   r->run_index, r->part, r->next_row);
			series.id = r->run_id;
			series.next = r->run_index;
			series.part = (uint8_t)(r->part + 1);
			series.first_row = r->next_row;
			return 0;
		}
		log_printf("phase C: part %u could not be kept (%s); the run "
			   "ends with the rows it has\n", r->part,
			   err ? err : "records not deleted");
		err = NULL;
	}
	if (have_run && r->part > 1) {
		const char *missing = join_earlier_parts(root, r, blob);

		if (missing)
			log_printf("phase C: the run's earlier parts cannot be "
				   "joined (%s): its files hold the last part "
				   "alone\n", missing);
		else
			log_printf("phase C: %u parts joined into one run\n",
				   r->part);
		/* This part's own blob is written last of all: a later boot
		 * knows its records by it (run_on_esp). */
		final_part = alloc_pages(HANDOFF_MAX_BLOB);
		if (final_part) {
			CopyMem(final_part, blob, blob_len);
			final_part_len = blob_len;
		}
		blob_len = results_encode(r, blob, RUN_FILE_BYTES);
	}
	if (have_run && r->run_index < r->config.runs) {
		err = write_blob(root, r, 0, blob, blob_len, scratch);
		if (!err && final_part)
			err = write_blob(root, r, r->part, final_part, final_part_len,
					      scratch);
		if (!err && !handoff_delete(found)) {
			log_printf("phase C: run %u of %u kept on the ESP; "
				   "measuring run %u\n", r->run_index,
				   r->config.runs, r->run_index + 1);
			log_status(STATUS_RUN_KEPT, "run=%u runs=%u",
				   r->run_index, r->config.runs);
			series.id = r->run_id;
			series.next = (uint8_t)(r->run_index + 1);
			series.part = 0;
			series.first_row = 0;
			return 0;
		}
		log_printf("phase C: run %u of %u could not be kept (%s); the "
			   "series stops here\n", r->run_index, r->config.runs,
			   err ? err : "records not deleted");
		err = NULL;
	}

	{
		const char *names[HANDOFF_SCAN_RECORDS];

		for (i = 0; i < found->n; i++) {
			names[i] = found->rec[i].name_ascii;
			if (found->rec[i].oversize)
				fmt_snprintf(items[i].why, sizeof(items[i].why),
					     "larger than a record");
		}
		handoff_report_fill(report, items, names, found->n);
	}


	report_context_build(&ctx, catalog, have_run ? r : NULL, report);
	if (root && html_template) {
		INTN len = files_read(root, REPORT_TEMPLATE_PATH, html_template,
				      REPORT_TEMPLATE_BYTES);

		if (len > 0) {
			ctx.html_template = html_template;
			ctx.html_template_len = (size_t)len;
		}
	}
	if (have_run && r->config.runs > 1) {
		ctx.runs = runs;
		ctx.n_runs = load_earlier_runs(root, r, runs, blob);
	}
	if (!root) {
		err = "cannot open the boot volume";
	} else if (have_run) {
		folder_for(run_id, "", dir, sizeof(dir));
		err = write_result_files(root, dir, r, &ctx, scratch, why,
					 sizeof(why));
		/* Last: its presence says every file above was verified. The
		 * blob is encoded again: `blob` held the earlier runs of a
		 * series meanwhile. */
		if (!err) {
			blob_len = results_encode(r, blob, RUN_FILE_BYTES);
			err = blob_len ? write_blob(root, r, 0, blob, blob_len,
							scratch)
				       : "the run's blob does not encode";
		}
		if (!err && final_part)
			err = write_blob(root, r, r->part, final_part, final_part_len,
					      scratch);
	} else {
		/* Nothing presentable: leave a note of what was discarded. */
		struct text_buf tb;
		char path[128];

		folder_for(current_run_id(), "-discarded", dir, sizeof(dir));
		tb_init(&tb, run.text, TEXT_BYTES);
		tb_printf(&tb, "irqlab found handoff records but no complete run.\n");
		report_discards(&tb, report);
		fmt_snprintf(path, sizeof(path), "%s\\summary.txt", dir);
		if (files_mkdir_p(root, dir))
			err = "cannot create the discard folder";
		else
			err = files_write_verified(root, path, tb.data, tb.len,
						   scratch);
	}

	if (err) {
		/* Keep the records: a later boot can try again. */
		log_printf("phase C: results NOT written (%s); records kept\n", err);
	} else {
		uint32_t n = found->n, failed = handoff_delete(found);

		log_printf("phase C: %u record(s) deleted%s\n", n - failed,
			   failed ? ", some deletions failed" : "");
		set_aside_undeletable(found);
		if (!have_run && failed == n) {
			/* Only records that will not go: never a boot loop. */
			log_printf("phase C: nothing else pending; measuring\n");
			return 0;
		}
		log_printf("results in %s\n", dir);
		log_status(STATUS_RESULTS, "folder=%s", files_last_component(dir));
		log_write("\n");
		if (have_run) {
			struct text_buf tb;

			/* The whole summary to COM1, one screen to the console. */
			tb_init(&tb, run.text, TEXT_BYTES);
			report_summary(&tb, r, &ctx);
			console_log_to_serial();
			log_write(tb.data);
			console_log_to_firmware();
			uefi_call_wrapper(ST->ConOut->ClearScreen, 1, ST->ConOut);
			tb_init(&tb, run.text, TEXT_BYTES);
			report_end_screen(&tb, r, dir);
			log_write(tb.data);
		} else {
			log_write(run.text);
		}
	}
	finish(c);
	return 1;
}

/* ---------------------------------------------------------------- phase B */

/* Room part 1 keeps for the primitives, which run after its rows: about
 * 70 bytes each encoded. A misjudgement only costs histograms, which
 * give way last (persist_and_reset). */
#define PRIMITIVES_RESERVE 2048

/* Whether the run so far fits one handoff (bench_run_all's test). */
static int fits_one_handoff(const struct run_result *r)
{
	static uint8_t trial[HANDOFF_MAX_BLOB];
	size_t cap = HANDOFF_MAX_BLOB - (r->part == 1 ? PRIMITIVES_RESERVE : 0);

	return results_encode(r, trial, cap) != 0;
}

/* Stores what the run has and resets into phase C. Without a handoff the
 * results go to the serial log and the machine powers off instead, so a
 * real machine does not measure again in a loop. */
static void persist_and_reset(void)
{
	struct run_result *r = run.result;
	size_t len;
	uint32_t dropped;
	static struct report_catalog catalog;
	struct report_context ctx;
	struct text_buf tb;
	uint64_t store_free = 0;
	char why[200];
	const char *err;

	fpu_state_for_firmware();
	report_context_build(&ctx, &catalog, r, NULL);
	if (r->config.serial_results) {
		tb_init(&tb, run.text, TEXT_BYTES);
		if (!report_json(&tb, r, &ctx)) {
			log_printf("irqlab-results-json-begin\n");
			log_write(tb.data);
			log_printf("\nirqlab-results-json-end\n");
		}
	}
	/* The store's budget is fixed (docs/uefi-variables.md); the rows'
	 * histograms are what gives way, and the results say which. */
	dropped = results_fit_histograms(r, run.blob, HANDOFF_MAX_BLOB, &len);
	if (dropped)
		log_printf("handoff: the histograms of %u row(s) do not fit the "
			   "%u bytes the variable store may take; those rows "
			   "keep their percentiles only\n", dropped,
			   HANDOFF_MAX_BLOB);
	if (len == 0) {
		fmt_snprintf(why, sizeof(why), "results do not fit %u bytes",
			     HANDOFF_MAX_BLOB);
		err = why;
	} else {
		err = handoff_store(run.blob, len, r->run_id, &store_free, why,
				    sizeof(why));
	}
	if (!err) {
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
		uefi_call_wrapper(RT->ResetSystem, 4, EfiResetWarm, EFI_SUCCESS,
				  0, NULL);
	} else {
		progress_say("The results could not be kept: they go to the serial "
			     "port, and the machine powers off.");
		log_printf("phase B: results NOT persisted: %s\n"
			   "phase B: the results follow on serial only\n", err);
		log_status(STATUS_SERIAL_ONLY, "reason=%s", err);
		log_write("\n");
		tb_init(&tb, run.text, TEXT_BYTES);
		report_summary(&tb, r, &ctx);
		log_write(tb.data);
		uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown,
				  EFI_SUCCESS, 0, NULL);
	}
	for (;;)
		hlt();
}

static void fatal_persist(const struct fault_info *f)
{
	(void)f;
	log_printf("phase B: framework fault; persisting what the run has\n");
	persist_and_reset();
}

static int paging_taken_over;

static void take_over_paging(void)
{
	struct paging pg;
	UINTN off;

	/* The low 4 GiB in full covers the APICs, HPET and firmware flash;
	 * above that, every region the memory map lists, which includes
	 * all EFI_MEMORY_RUNTIME ones. */
	if (paging_init(&pg, run.page_pool, run.page_pool_pages) ||
	    paging_map_identity(&pg, 0, 4ull << 30))
		goto fail;
	for (off = 0; off < run.map_size; off += run.desc_size) {
		EFI_MEMORY_DESCRIPTOR *d =
			(EFI_MEMORY_DESCRIPTOR *)((uint8_t *)run.map + off);
		uint64_t end = d->PhysicalStart + d->NumberOfPages * PAGE_SIZE;

		if (end > (4ull << 30) &&
		    paging_map_identity(&pg, d->PhysicalStart, end))
			goto fail;
	}
	/* A framebuffer above 4 GiB need not be in the memory map. */
	if (run.screen.usable &&
	    (uint64_t)(uintptr_t)run.screen.base + run.screen.bytes > (4ull << 30) &&
	    paging_map_identity(&pg, (uint64_t)(uintptr_t)run.screen.base &
					     ~(uint64_t)(PAGE_SIZE - 1),
				(uint64_t)(uintptr_t)run.screen.base +
					run.screen.bytes))
		goto fail;
	paging_activate(&pg);
	paging_taken_over = 1;
	log_printf("phase B: own page tables, %llu of %llu pool pages used\n",
		   (unsigned long long)pg.pool.used,
		   (unsigned long long)run.page_pool_pages);
	return;
fail:
	log_printf("phase B: page-table pool too small; keeping firmware's\n");
}

static void phase_b(void)
{
	cli();
	console_log_to_serial();
	log_printf("phase B: boot services exited, interrupts off\n");
	gdt_install(run.ist_stacks);
	exceptions_install();
	idt_install();
	exceptions_set_fatal_hook(fatal_persist);
	log_printf("phase B: own GDT/TSS/IDT loaded\n");
	take_over_paging();
	progress_start(&run.screen, run.result->tsc_hz);
	schemes_own_paging = paging_taken_over;
	pic8259_mask_all();
	primitives_enable_fsgsbase();
	sources_init(&run.platform.madt, run.platform.madt_status,
		     &run.platform.hpet, run.platform.hpet_status);
	fmt_snprintf(run.result->fence_note, sizeof(run.result->fence_note), "%s",
		     fences_prepare());
	{
		const char *why = noise_init();

		run.result->smi_count_watched = !why;
		log_printf("phase B: SMI count %s%s\n", why ? "not watched: " : "watched",
			   why ? why : "");
	}

	bench_measure_floor(run.result, &run.config, &run.buffers);
	log_printf("phase B: instrument floor min %llu median %llu (%s)\n",
		   (unsigned long long)run.result->floor.min,
		   (unsigned long long)run.result->floor.median,
		   clock_kind_name(run.result->clock_kind));
	bench_run_all(run.result, &run.config, &run.buffers,
		      run.result->part < RESULTS_MAX_PARTS ? fits_one_handoff
							   : NULL);
	if (run.result->part == 1)
		bench_run_primitives(run.result, &run.config, &run.buffers);
	persist_and_reset();
}

/* ---------------------------------------------------------------- phase A */

static uint64_t memory_map_top(void)
{
	uint64_t top = 4ull << 30;
	UINTN off;

	for (off = 0; off < run.map_size; off += run.desc_size) {
		EFI_MEMORY_DESCRIPTOR *d =
			(EFI_MEMORY_DESCRIPTOR *)((uint8_t *)run.map + off);
		uint64_t end = d->PhysicalStart + d->NumberOfPages * PAGE_SIZE;

		if (end > top)
			top = end;
	}
	return top;
}

static EFI_STATUS read_memory_map(void)
{
	run.map_size = run.map_cap;
	return uefi_call_wrapper(BS->GetMemoryMap, 5, &run.map_size, run.map,
				 &run.map_key, &run.desc_size, &run.desc_version);
}

/* Sizes the map buffer with slack, since allocating it changes the map. */
static int allocate_memory_map(void)
{
	EFI_STATUS st;

	run.map_cap = 0;
	run.map = NULL;
	st = read_memory_map();
	if (st != EFI_BUFFER_TOO_SMALL)
		return -1;
	run.map_cap = run.map_size +
		      MEMORY_MAP_SLACK_DESCRIPTORS * run.desc_size;
	run.map = alloc_pages(run.map_cap);
	return run.map && !EFI_ERROR(read_memory_map()) ? 0 : -1;
}

static int allocate_run(void)
{
	const struct irqlab_config *c = &run.config;
	unsigned k;

	run.result = alloc_pages(sizeof(*run.result));
	run.blob = alloc_pages(HANDOFF_MAX_BLOB);
	if (!run.text)	/* phase C may have allocated it already */
		run.text = alloc_pages(TEXT_BYTES);
	run.ist_stacks = alloc_pages(IST_COUNT * IST_STACK_BYTES);
	run.buffers.floor = alloc_pages(
		(c->floor_samples > c->primitive_blocks ? c->floor_samples
							 : c->primitive_blocks) *
		sizeof(uint64_t));
	for (k = 0; k < METRIC_COUNT; k++)
		if (!(run.buffers.metric[k] =
			      alloc_pages(c->samples * sizeof(uint64_t))))
			return -1;
	if (!run.result || !run.blob || !run.text || !run.ist_stacks ||
	    !run.buffers.floor || allocate_memory_map())
		return -1;
	/* The final map can only grow by the slack; plan tables for it. */
	run.page_pool_pages = paging_pool_pages(memory_map_top()) + 8;
	run.page_pool = alloc_pages_below_4g(run.page_pool_pages * PAGE_SIZE);
	return run.page_pool ? 0 : -1;
}

/* The thrash cache state writes twice the last-level cache; where CPUID
 * does not say how large that is, 32 MiB covers most. Without the memory
 * the thrash rows are skipped, with that reason. */
#define THRASH_DEFAULT_BYTES (32ull << 20)
#define THRASH_MAX_BYTES (128ull << 20)

static void allocate_thrash_buffer(uint64_t llc_bytes)
{
	uint64_t bytes = llc_bytes ? 2 * llc_bytes : THRASH_DEFAULT_BYTES;
	uint8_t *buffer;

	if (bytes > THRASH_MAX_BYTES)
		bytes = THRASH_MAX_BYTES;
	buffer = alloc_pages(bytes);
	if (buffer)
		cache_set_thrash_buffer(buffer, bytes);
}

static EFI_STATUS exit_boot_services(void)
{
	EFI_STATUS st = EFI_INVALID_PARAMETER;
	int tries;

	/* Nothing may print or allocate between the last GetMemoryMap and
	 * ExitBootServices: either would change the map key. A stale key
	 * gives EFI_INVALID_PARAMETER, and the map is simply read again. */
	for (tries = 0; tries < 8 && st == EFI_INVALID_PARAMETER; tries++) {
		st = read_memory_map();
		if (EFI_ERROR(st))
			return st;
		st = uefi_call_wrapper(BS->ExitBootServices, 2, run.image,
				       run.map_key);
	}
	return st;
}

/* Raw copies of the ACPI tables irqlab read, so what it saw of the
 * machine can be checked (and replayed by the parser tests) offline. */
static void save_acpi_tables(EFI_FILE_HANDLE root, const struct platform *p)
{
	char *scratch = run.text;
	unsigned i;

	if (!root || files_mkdir_p(root, ACPI_COPY_DIR))
		return;
	for (i = 0; i < sizeof(p->tables) / sizeof(p->tables[0]); i++) {
		const struct acpi_sdt_header *t = p->tables[i];
		char path[64];

		if (!t || t->length > TEXT_BYTES)
			continue;
		fmt_snprintf(path, sizeof(path), "%s\\%.4s.bin", ACPI_COPY_DIR,
			     t->signature);
		if (files_write_verified(root, path, t, t->length, scratch))
			log_printf("phase A: could not save %s\n", path);
	}
	if (p->smbios && p->smbios_length <= TEXT_BYTES &&
	    files_write_verified(root, ACPI_COPY_DIR "\\SMBIOS.bin", p->smbios,
				 p->smbios_length, scratch))
		log_printf("phase A: could not save the SMBIOS table\n");
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

/* A run that will not go ahead must not bring the next boot back here. */
static void forget_boot_next(void)
{
	uefi_call_wrapper(RT->SetVariable, 5, L"BootNext", &EfiGlobalVariable,
			  0, 0, NULL);
}

static EFI_STATUS phase_a(EFI_FILE_HANDLE root)
{
	struct run_result *r;
	struct platform *platform = &run.platform;
	struct handoff_room room;
	char why[200];
	EFI_STATUS st;

	if (allocate_run()) {
		stop_visibly("phase A cannot allocate the run's buffers");
		return EFI_OUT_OF_RESOURCES;
	}
	r = run.result;
	*r = (struct run_result){
		.run_id = series.next ? series.id : current_run_id(),
		.run_index = series.next ? series.next : 1,
		.part = series.part ? series.part : 1,
		.first_row = series.part ? series.first_row : 0,
	};
	r->config = run.config;
	note_scheme_footprints(r);
	config_warnings_note(&config_read.p, r->config_warnings,
			     sizeof(r->config_warnings));
	platform_identify(ST, &r->machine, platform);
	allocate_thrash_buffer(r->machine.llc_bytes);
	save_acpi_tables(root, platform);
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
	/* BootNext is written before the store's room is measured, so the
	 * room is what phase B will find. */
	come_back_here(r);
	screen_find(&run.screen);
	r->progress_on_screen = run.screen.usable;
	fmt_snprintf(r->display_note, sizeof(r->display_note), "%s",
		     run.screen.why_not);
	if (run.screen.usable)
		log_printf("phase A: phase B shows its progress on the %ux%u "
			   "framebuffer\n", run.screen.width, run.screen.height);
	else
		log_printf("phase A: phase B's progress goes to serial only: %s\n",
			   run.screen.why_not);
	/* A run whose results cannot be kept is worse than none. */
	if (handoff_make_room(&room, why, sizeof(why))) {
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
	if (room.reclaimed && room.store_seen)
		log_printf("phase A: variable store: %llu bytes free at its end "
			   "after the reclaim\n", (unsigned long long)room.end_free);
	if (!room.store_seen)
		log_printf("phase A: variable store not readable; %llu bytes free "
			   "counting deleted variables; %u blind round(s) of %llu "
			   "bytes reclaimed it; a run needs %llu\n",
			   (unsigned long long)room.free_boot, room.rounds,
			   (unsigned long long)room.probe_bytes,
			   (unsigned long long)room.needed);
	log_status(STATUS_STORE, "ok=1 seen=%u end_free=%llu reclaimed=%u "
		   "end_free_after=%llu needed=%llu",
		   room.store_seen, (unsigned long long)room.end_free_before,
		   room.reclaimed, (unsigned long long)room.end_free,
		   (unsigned long long)room.needed);

	log_printf("phase A: exiting boot services\n");
	st = exit_boot_services();
	if (EFI_ERROR(st)) {
		forget_boot_next();
		log_printf("phase A: ExitBootServices failed (0x%llx)\n",
			   (unsigned long long)st);
		stop_visibly("the firmware did not let irqlab take the machine "
			     "over (ExitBootServices failed)");
		return st;
	}
	phase_b();
	return EFI_ABORTED; /* not reached: phase B ends in a reset */
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_FILE_HANDLE root;

	InitializeLib(image, systab);
	console_log_to_firmware();
	run.image = image;
	/* The boot manager's 5-minute watchdog (docs/uefi-variables.md). */
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
	log_printf("irqlab: interrupt entry/exit cost, bare metal\n");

	root = files_open_root(image);
	load_config(root, &run.config);
	/* Records from an earlier run are kept whatever the config says. */
	if (phase_c(root, &run.config))
		return EFI_SUCCESS;
	if (config_read.p.n_errors)
		stop_visibly("\\EFI\\irqlab\\irqlab.cfg has the errors listed "
			     "above; fix them, or delete the file to run with "
			     "the defaults");
	return phase_a(root);
}
