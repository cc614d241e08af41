#include <efi.h>
#include <efilib.h>

#include "efi/phase_c.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/serialize.h"
#include "bench/report/report.h"
#include "efi/console.h"
#include "efi/files.h"
#include "efi/handoff.h"
#include "efi/pages.h"
#include "efi/platform.h"
#include "efi/power.h"
#include "efi/runtime.h"
#include "efi/run_store.h"
#include "efi/volume.h"

/* The report page's template, written there by `make image` (web/). */
#define REPORT_TEMPLATE_PATH "\\EFI\\irqlab\\report.tpl"
/* The icount reference (docs/timing.md "The path length, checked"). */
#define PATH_REFERENCE_PATH "\\EFI\\irqlab\\icount.ref"

/* results.json, summary.txt and report.html into `dir`, each read back
 * and compared before it takes its name. Returns NULL, or why not. */
static const char *write_result_files(struct volume *v, const char *dir,
				      const struct run_result *r,
				      const struct report_context *ctx,
				      char *text, char *scratch, char *why,
				      size_t cap)
{
	struct text_buf tb;
	unsigned i;

	if (volume_mkdir_p(v, dir)) {
		fmt_snprintf(why, cap, "cannot create %s", dir);
		return why;
	}
	for (i = 0; i < report_output_count; i++) {
		const struct report_output *o = &report_outputs[i];
		char path[128], where[256];
		const char *err;
		int rc;

		tb_init(&tb, text, REPORT_TEXT_BYTES);
		rc = o->render(&tb, r, ctx);
		if (rc == REPORT_NOT_WRITTEN) {
			log_printf("%s not written: no report template (%s) on "
				   "the ESP\n", o->file, REPORT_TEMPLATE_PATH);
			continue;
		}
		if (rc) {
			fmt_snprintf(why, cap, "%s does not fit %u bytes", o->file,
				     REPORT_TEXT_BYTES);
			return why;
		}
		fmt_snprintf(path, sizeof(path), "%s\\%s", dir, o->file);
		err = volume_write_verified(v, path, tb.data, tb.len, scratch);
		if (err) {
			fmt_snprintf(why, cap, "%s: %s", path, err);
			return why;
		}
		volume_where(v, path, where, sizeof(where));
		log_printf("wrote and verified %s (%llu bytes)\n", where,
			   (unsigned long long)tb.len);
	}
	return NULL;
}

/* A boot killed while it deleted records leaves some of a run whose files
 * are written and verified. They are recognised by run id, length and
 * CRC against the run's blob on the ESP, and deleted, saying so; any that
 * cannot be deleted are set aside. */
static void forget_runs_kept(const struct volume *vol,
			       struct handoff_found *found, uint8_t *scratch)
{
	uint64_t run_id = 0;
	uint32_t crc = 0, i, n = 0, failed;
	int on_esp = 0;

	for (i = 0; i < found->n && volume_usable(vol); i++) {
		struct record_view v;

		found->rec[i].chosen = 0;
		if (found->rec[i].oversize ||
		    record_decode(found->rec[i].data, found->rec[i].len, &v) !=
			    RECORD_OK)
			continue;
		if (v.run_id != run_id || v.blob_crc != crc || i == 0) {
			run_id = v.run_id;
			crc = v.blob_crc;
			on_esp = run_store_holds(vol, &v, scratch);
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
			log_printf("phase C: %s belongs to a run already %s "
				   "(same run id, length and CRC)\n",
				   found->rec[i].name_ascii, volume_place(vol));
	failed = handoff_delete_chosen(found);
	log_printf("phase C: %u such record(s) deleted\n", n - failed);
	handoff_set_aside_undeletable(found);
}

/* What phase C works on: the records found, the run they hold, and the
 * buffers its files are written from. */
struct pending {
	struct volume *volume;
	struct platform *platform;	/* the run state's, for the tables */
	char *text;	/* REPORT_TEXT_BYTES, the run state's */
	struct handoff_found *found;
	struct handoff_item *items;
	struct handoff_report *report;
	struct report_catalog *catalog;
	int have_run;	/* the records hold a complete run, decoded in r */
	struct run_result *r;
	uint64_t run_id;
	uint8_t *blob;	/* RUN_FILE_BYTES */
	size_t blob_len;
	/* The last part of a run in parts, as its handoff carried it:
	 * written last of all, since a later boot knows its records by it
	 * (run_store_holds). */
	uint8_t *final_part;
	size_t final_part_len;
	char *scratch;	/* REPORT_TEXT_BYTES + 1 */
	char *html_template;
	char *path_text;	/* PATH_REFERENCE_MAX_BYTES */
	struct path_reference *path_reference;
	char path_problem[RESULTS_REASON_LEN];
	char dir[96];
};

static int pending_allocate(struct pending *pc, struct volume *volume,
			    struct run_state *run)
{
	*pc = (struct pending){
		.volume = volume,
		.platform = &run->platform,
		.found = pages_alloc(sizeof(*pc->found)),
		.items = pages_alloc(sizeof(*pc->items) * HANDOFF_SCAN_RECORDS),
		.report = pages_alloc(sizeof(*pc->report)),
		.catalog = pages_alloc(sizeof(*pc->catalog)),
		.r = pages_alloc(sizeof(*pc->r)),
		.blob = pages_alloc(RUN_FILE_BYTES),
		.scratch = pages_alloc(REPORT_TEXT_BYTES + 1),
		.html_template = pages_alloc(REPORT_TEMPLATE_BYTES),
		.path_text = pages_alloc(PATH_REFERENCE_MAX_BYTES),
		.path_reference = pages_alloc(sizeof(*pc->path_reference)),
	};
	if (!run->text)
		run->text = pages_alloc(REPORT_TEXT_BYTES);
	pc->text = run->text;
	return pc->found && pc->items && pc->report && pc->catalog && pc->r &&
		       pc->blob && pc->scratch && pc->text
		       ? 0
		       : -1;
}

/* irqlab's records in the store, less those of a run already on the ESP;
 * other tools' variables under its GUID are named and left alone.
 * Returns how many records are left to work on. */
static uint32_t find_records(struct pending *pc)
{
	struct handoff_found *found = pc->found;
	uint32_t i;

	handoff_find(found);
	for (i = 0; i < found->n_foreign && i < HANDOFF_FOREIGN_NAMES; i++)
		log_printf("phase C: variable %s under irqlab's GUID is not one "
			   "of its records: left alone\n", found->foreign[i]);
	if (found->n_foreign > HANDOFF_FOREIGN_NAMES)
		log_printf("phase C: and %u more such variables, left alone\n",
			   found->n_foreign - HANDOFF_FOREIGN_NAMES);
	if (found->n == 0)
		return 0;
	forget_runs_kept(pc->volume, found, (uint8_t *)pc->scratch);
	return found->n;
}

/* Reassembles the newest complete run from the records and decodes it;
 * a blob that does not decode marks the records it came from corrupt. */
static void select_run(struct pending *pc)
{
	struct handoff_found *found = pc->found;
	struct handoff_item *items = pc->items;
	enum decode_status ds;
	uint32_t i;

	log_printf("phase C: %u handoff record(s) found\n", found->n);
	for (i = 0; i < found->n; i++)
		items[i] = (struct handoff_item){
			.data = found->rec[i].data,
			.len = found->rec[i].oversize ? 0 : found->rec[i].len,
		};
	pc->have_run = handoff_select(items, found->n, pc->blob,
				      HANDOFF_MAX_BLOB, &pc->blob_len,
				      &pc->run_id);
	if (!pc->have_run)
		return;
	ds = results_decode(pc->blob, pc->blob_len, pc->r);
	if (ds == DECODE_OK && pc->r->run_id == pc->run_id)
		return;
	for (i = 0; i < found->n; i++)
		if (items[i].fate == FATE_USED) {
			items[i].fate = FATE_CORRUPT;
			fmt_snprintf(items[i].why, sizeof(items[i].why),
				     "results blob: %s",
				     ds != DECODE_OK ? decode_status_name(ds)
						     : "run id differs");
		}
	pc->have_run = 0;
}

/* A part that is not the run's last: kept on the ESP, its records
 * deleted, and `next` names the part phase A measures. Returns 1 when
 * kept; else the run ends with the rows it has. */
static int keep_part(struct pending *pc, struct next_run *next)
{
	struct run_result *r = pc->r;
	const char *err = run_store_write_blob(pc->volume, r, r->part, pc->blob,
					       pc->blob_len, pc->scratch);

	if (!err && !handoff_delete(pc->found)) {
		/* Rows all measured: the next part measures none of them,
		 * only the matrix's senders from matrix_next_sender. */
		uint16_t first = r->next_row ? r->next_row : r->plan_rows;

		log_printf("phase C: part %u of run %u kept %s: "
			   "the results did not all fit one handoff, so "
			   "the plan's rows from %u on are measured next, in "
			   "part %u\n", r->part, r->run_index,
			   volume_place(pc->volume), first, r->part + 1u);
		if (r->matrix_next_sender)
			log_printf("phase C: and the matrix between CPUs from "
				   "its sender %u on\n",
				   r->matrix_next_sender - 1u);
		log_status(STATUS_PART_KEPT, "run=%u part=%u next_row=%u "
			   "next_sender=%u", r->run_index, r->part, first,
			   r->matrix_next_sender);
		*next = (struct next_run){
			.id = r->run_id,
			.index = r->run_index,
			.part = (uint8_t)(r->part + 1),
			.first_row = first,
			.matrix_resume = r->matrix_next_sender,
		};
		return 1;
	}
	if (r->next_row)
		log_printf("phase C: part %u could not be kept (%s); the run "
			   "ends with the rows it has: the plan's rows from %u "
			   "on are never measured, and its files say so "
			   "first\n", r->part,
			   err ? err : "records not deleted", r->next_row);
	else
		log_printf("phase C: part %u could not be kept (%s); the run "
			   "ends with the pairs it has: the matrix's senders "
			   "from %u on are never measured, and its files say "
			   "so\n", r->part, err ? err : "records not deleted",
			   r->matrix_next_sender - 1u);
	return 0;
}

/* The last part of a run joined with the earlier ones on the ESP; the
 * blob becomes the whole run's, and the part's own is set aside first:
 * the join reads the earlier parts' files into the same buffer. */
static void join_parts(struct pending *pc)
{
	struct run_result *r = pc->r;
	const char *missing;

	pc->final_part = pages_alloc(HANDOFF_MAX_BLOB);
	if (pc->final_part) {
		CopyMem(pc->final_part, pc->blob, pc->blob_len);
		pc->final_part_len = pc->blob_len;
	}
	missing = run_store_join_parts(pc->volume, r, pc->blob);
	if (missing)
		log_printf("phase C: the run's earlier parts cannot be "
			   "joined (%s): its files hold the last part "
			   "alone, and say first that the plan's rows before "
			   "%u are not in them\n", missing, r->first_row);
	else
		log_printf("phase C: %u parts joined into one run\n", r->part);
	pc->blob_len = results_encode(r, pc->blob, RUN_FILE_BYTES);
}

/* The run's own blob beside its files, then, for a run in parts, the
 * last part's own: a later boot knows that part's records by it. */
static const char *keep_run_blobs(struct pending *pc)
{
	const char *err = run_store_write_blob(pc->volume, pc->r, 0, pc->blob,
					       pc->blob_len, pc->scratch);

	if (!err && pc->final_part)
		err = run_store_write_blob(pc->volume, pc->r, pc->r->part,
					   pc->final_part, pc->final_part_len,
					   pc->scratch);
	return err;
}

/* A run of a series that is not its last: kept on the ESP, its records
 * deleted, and `next` names the run phase A measures. Returns 1 when
 * kept; else the series stops here. */
static int keep_series_run(struct pending *pc, struct next_run *next)
{
	struct run_result *r = pc->r;
	const char *err = keep_run_blobs(pc);

	if (!err && !handoff_delete(pc->found)) {
		log_printf("phase C: run %u of %u kept %s; measuring run "
			   "%u\n", r->run_index, r->config.runs,
			   volume_place(pc->volume), r->run_index + 1);
		log_status(STATUS_RUN_KEPT, "run=%u runs=%u",
			   r->run_index, r->config.runs);
		*next = (struct next_run){
			.id = r->run_id,
			.index = (uint8_t)(r->run_index + 1),
		};
		return 1;
	}
	log_printf("phase C: run %u of %u could not be kept (%s); the "
		   "series stops here\n", r->run_index, r->config.runs,
		   err ? err : "records not deleted");
	return 0;
}

/* The icount reference on the stick, parsed, or why there is none. */
static void read_path_reference(struct pending *pc,
				struct report_context *ctx)
{
	INTN len;
	char why[RESULTS_REASON_LEN - 40];

	ctx->path_reference_problem = pc->path_problem;
	if (!volume_usable(pc->volume) || !pc->path_text || !pc->path_reference) {
		fmt_snprintf(pc->path_problem, sizeof(pc->path_problem),
			     "no room to read %s", PATH_REFERENCE_PATH);
		return;
	}
	len = volume_read(pc->volume, PATH_REFERENCE_PATH, pc->path_text,
			 PATH_REFERENCE_MAX_BYTES);
	if (len <= 0) {
		fmt_snprintf(pc->path_problem, sizeof(pc->path_problem),
			     "%s is not on the stick", PATH_REFERENCE_PATH);
		return;
	}
	if (path_reference_parse(pc->path_text, (size_t)len, pc->path_reference,
				 why, sizeof(why))) {
		fmt_snprintf(pc->path_problem, sizeof(pc->path_problem),
			     "%s refused: %s", PATH_REFERENCE_PATH, why);
		return;
	}
	ctx->path_reference = pc->path_reference;
}

/* What the reports say of the records, the run, the page's template, the
 * icount reference and the earlier runs of a series. */
static void build_context(struct pending *pc, struct report_context *ctx,
			  const struct run_result **runs)
{
	const char *names[HANDOFF_SCAN_RECORDS];
	uint32_t i;

	for (i = 0; i < pc->found->n; i++) {
		names[i] = pc->found->rec[i].name_ascii;
		if (pc->found->rec[i].oversize)
			fmt_snprintf(pc->items[i].why, sizeof(pc->items[i].why),
				     "larger than a record");
	}
	handoff_report_fill(pc->report, pc->items, names, pc->found->n);
	report_context_build(ctx, pc->catalog, pc->have_run ? pc->r : NULL,
			     pc->report);
	if (volume_usable(pc->volume) && pc->html_template) {
		INTN len = volume_read(pc->volume, REPORT_TEMPLATE_PATH,
				      pc->html_template, REPORT_TEMPLATE_BYTES);

		if (len > 0) {
			ctx->html_template = pc->html_template;
			ctx->html_template_len = (size_t)len;
		}
	}
	read_path_reference(pc, ctx);
	if (pc->have_run && pc->r->config.runs > 1) {
		ctx->runs = runs;
		ctx->n_runs = run_store_load_series(pc->volume, pc->r, runs,
						    pc->blob);
	}
}

/* The run's folder, its files and last its blob; or, with no complete
 * run, a note of what was discarded. Returns NULL, or why not. */
static void save_tables(struct pending *pc)
{
	char dir[128];

	/* main() identified the platform before phase C, for the SMBIOS
	 * UUID that names the machine on a lab's server. */
	fmt_snprintf(dir, sizeof(dir), "%s\\acpi", pc->dir);
	platform_save_tables(pc->volume, pc->platform, dir, pc->scratch);
}

static const char *write_files(struct pending *pc,
			       const struct report_context *ctx, char *why,
			       size_t cap)
{
	struct run_result *r = pc->r;
	const char *err;

	if (!volume_usable(pc->volume))
		return "cannot open the boot volume, and irqlab was not "
		       "booted from a lab's server";
	if (pc->have_run) {
		run_store_folder(pc->run_id, "", pc->dir, sizeof(pc->dir));
		err = write_result_files(pc->volume, pc->dir, r, ctx, pc->text,
					 pc->scratch, why, cap);
		/* The tables of the machine the run's files are written on,
		 * which measured it: in the run's own folder, so another
		 * machine's run never sits beside them (docs/reading.md
		 * "Reading the results"). Written with the files, so a run that never
		 * finished leaves no folder. */
		if (!err)
			save_tables(pc);
		/* Last: its presence says every file above was verified. The
		 * blob is encoded again: `blob` held the earlier runs of a
		 * series meanwhile. */
		if (!err) {
			pc->blob_len = results_encode(r, pc->blob, RUN_FILE_BYTES);
			err = pc->blob_len ? keep_run_blobs(pc)
					   : "the run's blob does not encode";
		}
		if (!err)
			err = volume_write_manifest(pc->volume, pc->dir,
						    pc->scratch);
		return err;
	}
	{
		/* Nothing presentable: leave a note of what was discarded. */
		struct text_buf tb;
		char path[128];

		run_store_folder(run_store_new_id(), "-discarded", pc->dir,
				 sizeof(pc->dir));
		tb_init(&tb, pc->text, REPORT_TEXT_BYTES);
		tb_printf(&tb, "irqlab found handoff records but no complete run.\n");
		report_discards(&tb, pc->report);
		fmt_snprintf(path, sizeof(path), "%s\\summary.txt", pc->dir);
		if (volume_mkdir_p(pc->volume, pc->dir))
			return "cannot create the discard folder";
		err = volume_write_verified(pc->volume, path, tb.data, tb.len,
					    pc->scratch);
		return err ? err : volume_write_manifest(pc->volume, pc->dir,
							 pc->scratch);
	}
}

/* With the files verified: the records deleted, and the summary shown,
 * whole on the serial port and one page on the console. Returns 0 when only records
 * that will not go were pending, so phase A measures (never a boot
 * loop); else 1. */
static int delete_and_show(struct pending *pc, const struct report_context *ctx)
{
	uint32_t n = pc->found->n, failed = handoff_delete(pc->found);
	struct text_buf tb;
	char where[256], copy[256], serial_said[200];

	log_printf("phase C: %u record(s) deleted%s\n", n - failed,
		   failed ? ", some deletions failed" : "");
	handoff_set_aside_undeletable(pc->found);
	if (!pc->have_run && failed == n) {
		log_printf("phase C: nothing else pending; measuring\n");
		return 0;
	}
	volume_where(pc->volume, pc->dir, where, sizeof(where));
	log_printf("results in %s\n", where);
	volume_copy_where(pc->volume, pc->dir, copy, sizeof(copy));
	if (copy[0])
		log_printf("%s\n", copy);
	log_status(STATUS_RESULTS, "folder=%s", files_last_component(pc->dir));
	log_write("\n");
	if (!pc->have_run) {
		log_write(pc->text);
		return 1;
	}
	tb_init(&tb, pc->text, REPORT_TEXT_BYTES);
	report_summary(&tb, pc->r, ctx);
	/* The serial port phase A would find (docs/run.md "A serial port
	 * that exists"), for the summary. */
	(void)platform_find_serial_now(serial_said, sizeof(serial_said));
	console_log_to_serial();
	log_write(tb.data);
	console_log_to_firmware();
	uefi_call_wrapper(ST->ConOut->ClearScreen, 1, ST->ConOut);
	tb_init(&tb, pc->text, REPORT_TEXT_BYTES);
	report_end_screen(&tb, pc->r, where);
	log_write(tb.data);
	return 1;
}

/* A marker without records: the last run did not hand its results over
 * (docs/run.md "No loop after a hang"). This boot says so and does not
 * measure; once someone has read it (a key), or where nobody waits at the
 * machine (finish = shutdown), the marker goes and the next boot
 * measures. */
static __attribute__((noreturn)) void say_unfinished(
	const struct handoff_found *found, const struct irqlab_config *c)
{
	const struct run_marker *m = &found->marker;
	char name[32];

	if (!found->marker_readable) {
		log_status(STATUS_UNFINISHED, "state=unreadable");
		log_printf("\nirqlab found the marker an earlier run set before "
			   "measuring, but cannot read it: that run did not hand "
			   "its results over.\n");
	} else {
		run_folder_name(m->run_id, name, sizeof(name));
		log_status(STATUS_UNFINISHED, "state=%s run=%s index=%u part=%u "
			   "first_row=%u", marker_state_name(m->state), name,
			   m->run_index, m->part, m->first_row);
		log_printf("\nThe last run (%s, run %u, part %u from plan row %u) "
			   "did not hand its results over.\n", name, m->run_index,
			   m->part, m->first_row);
		if (m->state == MARKER_NOT_STORED)
			log_printf("It measured, but the variable store did not "
				   "take the results: %s.\nThey were shown on "
				   "the screen and sent to the serial port.\n",
				   m->why);
		else
			log_printf("It stopped while measuring: the machine hung "
				   "or was switched off, or the firmware faulted "
				   "in a runtime call (then the results were shown "
				   "on the screen and sent to the serial port). "
				   "docs/run.md in irqlab's sources says what to "
				   "try.\n");
	}
	log_printf("irqlab does not measure on this boot. Press a key: the "
		   "next boot measures again. To go on past a row that hangs, "
		   "set start_row in irqlab.cfg to a later row.\n");
	if (c->finish == FINISH_SHUTDOWN || power_off_after(FINISH_COUNTDOWN_SECONDS))
		handoff_clear_mark();
	runtime_reset(EfiResetShutdown);
}

enum phase_c_outcome phase_c(struct volume *volume,
			     struct run_state *run,
			     struct next_run *next)
{
	static struct pending pc;
	const struct run_result *runs[CONFIG_MAX_RUNS + 1];
	struct report_context ctx;
	const char *err;
	char why[160];

	if (pending_allocate(&pc, volume, run)) {
		log_printf("phase C: out of memory\n");
		return PHASE_C_MEASURE;
	}
	if (find_records(&pc) == 0) {
		if (pc.found->marker_found)
			say_unfinished(pc.found, &run->config);
		return PHASE_C_MEASURE;
	}
	/* The records say phase B ended; its marker goes with them. */
	if (pc.found->marker_found)
		handoff_clear_mark();
	select_run(&pc);
	if (pc.have_run && (pc.r->next_row || pc.r->matrix_next_sender) &&
	    keep_part(&pc, next))
		return PHASE_C_MEASURE;
	if (pc.have_run && pc.r->part > 1)
		join_parts(&pc);
	if (pc.have_run && pc.r->run_index < pc.r->config.runs &&
	    keep_series_run(&pc, next))
		return PHASE_C_MEASURE;
	build_context(&pc, &ctx, runs);
	err = write_files(&pc, &ctx, why, sizeof(why));
	if (err)
		/* Keep the records: a later boot can try again. */
		log_printf("phase C: results NOT written (%s); records kept\n", err);
	else if (!delete_and_show(&pc, &ctx))
		return PHASE_C_MEASURE;
	power_off_when_done(&run->config);
	return PHASE_C_DONE;
}
