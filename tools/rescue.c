/* irqlab-rescue: results left in the variable store, written as files on
 * any Linux machine. When the machine did not come back to the stick
 * after phase B (docs/run.md), irqlab's records wait in the store; Linux
 * shows them in efivarfs. This reads them, from there or from a folder of
 * copies, and writes the same results.json and summary.txt phase C
 * would: the same decoder and writers, the same catalog. It deletes the
 * records only when asked, and only after the files are read back.
 *
 *   irqlab-rescue [--delete] [--stick DIR] [--template FILE] SOURCE [DEST]
 *     SOURCE  /sys/firmware/efi/efivars, or a folder of copies of its
 *             IrqlabRecordNN-<guid> files (4 bytes of attributes, then
 *             the record, as efivarfs shows them)
 *     DEST    where the run's folder goes (default: results)
 *     --stick the stick's results folder (\EFI\irqlab\results, mounted
 *             or copied): a run measured in parts keeps its earlier
 *             parts there (docs/uefi-variables.md "Parts"), and the
 *             records hold only its last; they are joined as phase C
 *             joins them, and any part not found is named.
 *
 *   irqlab-rescue [options] --blob SERIAL.log [--blob PART2.log ...] [DEST]
 *     the blob phase B printed on COM1, from the serial log as captured
 *     (or the hex alone): a run handed over on serial (handoff = serial),
 *     or an emulator's whose reset never reaches phase C, one a part. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/model/records.h"
#include "bench/model/serialize.h"
#include "bench/report/report.h"
#include "firmware/varstore.h"

#define GUID "5f2b0c1e-8a4d-4c6b-9b1f-3e7a2d9c4f61"
#define ATTRIBUTE_BYTES 4	/* efivarfs prefixes each file with them */

struct found {
	char path[512];
	char name[32];
	uint8_t data[RECORD_MAX_BYTES + 1];
	size_t len;
};

static struct found found[HANDOFF_SCAN_RECORDS];
/* A run in parts: the parts joined so far, and the one being read. */
/* A whole run's blob: its parts joined, as phase C writes run-<k>.bin
 * (efi/run_store.h RUN_FILE_BYTES), or one run handed over on serial
 * whole (handoff = serial). */
#define RUN_BLOB_BYTES (HANDOFF_MAX_BLOB * RESULTS_MAX_PARTS)
static struct run_result joined, part;
static uint8_t part_blob[RUN_BLOB_BYTES];
static uint8_t joined_blob[RUN_BLOB_BYTES];
/* An emulator's parts, one --blob file each (join_blob_files); a serial
 * handoff's one blob is a whole run. */
static uint8_t parts_blob[RESULTS_MAX_PARTS][RUN_BLOB_BYTES];
static size_t parts_blob_len[RESULTS_MAX_PARTS];
static struct handoff_item items[HANDOFF_SCAN_RECORDS];
static uint8_t blob[RUN_BLOB_BYTES];
static struct run_result run;
static char text[REPORT_TEXT_BYTES], back[REPORT_TEXT_BYTES + 1];
static char html_template[REPORT_TEMPLATE_BYTES];
static char path_text[PATH_REFERENCE_MAX_BYTES];
static struct path_reference path_reference;
static char path_problem[RESULTS_REASON_LEN];

/* The icount reference the stick carries (--reference FILE), into ctx,
 * or why there is none: phase C reads the same file from the stick, so
 * both write the same path_length. */
static void read_path_reference(const char *file, struct report_context *ctx)
{
	char why[80];
	FILE *f;
	size_t len;

	ctx->path_reference_problem = path_problem;
	if (!file) {
		snprintf(path_problem, sizeof(path_problem),
			 "no icount reference given (--reference)");
		return;
	}
	f = fopen(file, "rb");
	len = f ? fread(path_text, 1, sizeof(path_text), f) : 0;
	if (f)
		fclose(f);
	if (!len) {
		snprintf(path_problem, sizeof(path_problem), "%.80s cannot be "
			 "read", file);
		return;
	}
	if (path_reference_parse(path_text, len, &path_reference, why,
				 sizeof(why))) {
		snprintf(path_problem, sizeof(path_problem), "%.40s refused: "
			 "%.60s", file, why);
		return;
	}
	ctx->path_reference = &path_reference;
}

/* "IrqlabRecordNN-<guid>": irqlab's records, and nothing else. */
static int is_record(const char *file, char *name)
{
	if (strncmp(file, "IrqlabRecord", 12) || file[12] < '0' ||
	    file[12] > '9' || file[13] < '0' || file[13] > '9' ||
	    strcmp(file + 14, "-" GUID))
		return 0;
	memcpy(name, file, 14);
	name[14] = '\0';
	return 1;
}

static size_t find_records(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d) {
		fprintf(stderr, "irqlab-rescue: cannot read %s: %s%s\n", dir,
			strerror(errno), errno == ENOENT &&
			!strcmp(dir, "/sys/firmware/efi/efivars") ?
			" (this Linux was not booted with UEFI: give the "
			"machine's variable store, make rescue VARS=file.fd, "
			"or a folder of the records' copies, SOURCE=dir)" : "");
		exit(1);
	}
	while ((e = readdir(d)) && n < HANDOFF_SCAN_RECORDS) {
		struct found *f = &found[n];
		uint8_t raw[ATTRIBUTE_BYTES + RECORD_MAX_BYTES + 1];
		FILE *in;
		size_t len;

		if (!is_record(e->d_name, f->name))
			continue;
		snprintf(f->path, sizeof(f->path), "%s/%s", dir, e->d_name);
		in = fopen(f->path, "rb");
		if (!in)
			continue;
		len = fread(raw, 1, sizeof(raw), in);
		fclose(in);
		f->len = len > ATTRIBUTE_BYTES ? len - ATTRIBUTE_BYTES : 0;
		if (f->len > RECORD_MAX_BYTES)
			f->len = 0;	/* larger than a record: corrupt */
		memcpy(f->data, raw + ATTRIBUTE_BYTES, f->len);
		n++;
	}
	closedir(d);
	return n;
}

/* The GUID string's bytes in memory order (UEFI spec, EFI_GUID: the
 * first three fields little-endian), as a variable store holds it. */
static void guid_bytes(const char *text, uint8_t out[16])
{
	static const int at[16] = { 6, 4, 2, 0, 11, 9, 16, 14,
				    19, 21, 24, 26, 28, 30, 32, 34 };
	unsigned i;

	for (i = 0; i < 16; i++) {
		char two[3] = { text[at[i]], text[at[i] + 1], 0 };

		out[i] = (uint8_t)strtoul(two, NULL, 16);
	}
}

/* An OVMF VARS file's live irqlab records (--vars FILE), read through
 * the same store walk phase A uses (firmware/varstore.c): the name in
 * UCS-2 is "IrqlabRecordNN", the GUID irqlab's. */
static struct {
	uint8_t guid[16];
	size_t n;
} in_store;

static void note_record(void *ctx, const struct varstore_variable *v)
{
	struct found *f = &found[in_store.n];
	char name[32], file[96];
	unsigned i;

	(void)ctx;
	if (!v->live || in_store.n >= HANDOFF_SCAN_RECORDS ||
	    memcmp(v->guid, in_store.guid, 16) || v->name_bytes > 2 * 31)
		return;
	for (i = 0; 2 * i + 1 < v->name_bytes && v->name[2 * i]; i++)
		name[i] = v->name[2 * i + 1] ? '?' : (char)v->name[2 * i];
	name[i] = 0;
	snprintf(file, sizeof(file), "%s-" GUID, name);
	if (!is_record(file, f->name))
		return;
	snprintf(f->path, sizeof(f->path), "(the store)");
	f->len = v->data_bytes <= RECORD_MAX_BYTES ? v->data_bytes : 0;
	memcpy(f->data, v->data, f->len);
	in_store.n++;
}

static size_t find_records_in_store(const char *vars)
{
	static uint8_t image[16 << 20];
	struct varstore_usage u;
	enum varstore_status st;
	FILE *f = fopen(vars, "rb");
	size_t len = f ? fread(image, 1, sizeof(image), f) : 0;

	if (f)
		fclose(f);
	if (!len) {
		fprintf(stderr, "irqlab-rescue: cannot read %s\n", vars);
		exit(1);
	}
	guid_bytes(GUID, in_store.guid);
	in_store.n = 0;
	st = varstore_each(image, len, &u, note_record, NULL);
	if (st != VARSTORE_OK) {
		fprintf(stderr, "irqlab-rescue: %s is not an EDK2 variable store "
			"irqlab can read (status %d)\n", vars, (int)st);
		exit(1);
	}
	return in_store.n;
}

/* The lines phase B puts around the blob it prints on COM1
 * (efi/phase_b.c log_blob). */
#define BLOB_BEGIN "irqlab-results-blob-begin"
#define BLOB_END "irqlab-results-blob-end"

/* A file read whole, NUL-terminated, into memory of its own (to free);
 * NULL when it cannot be read. */
static char *read_whole(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *text = malloc(cap), *more;

	if (!f || !text) {
		if (f)
			fclose(f);
		free(text);
		return NULL;
	}
	while ((got = fread(text + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 < cap)
			continue;
		more = realloc(text, cap * 2);
		if (!more) {
			free(text);
			fclose(f);
			return NULL;
		}
		text = more;
		cap *= 2;
	}
	fclose(f);
	text[n] = '\0';
	*len = n;
	return text;
}

/* A blob as phase B prints it on COM1 (--blob FILE), under
 * serial_results = 1 or handoff = serial: a whole serial log, whose last
 * blob between irqlab-results-blob-begin and -end is read; or the hex
 * alone, as image/bochs.sh cuts it out. Other characters between the
 * digits (line ends, a terminal's CRs) are skipped. Returns its length,
 * 0 when the file holds none. */
static size_t read_blob_hex(const char *file, uint8_t *out, size_t cap)
{
	size_t len = 0, n = 0, blobs = 0;
	char *text = read_whole(file, &len);
	const char *at, *from = text, *end = text + len;
	int high = -1;

	if (!text)
		return 0;
	/* A NUL on the line (a terminal's padding) would end the search. */
	for (n = 0; n < len; n++)
		if (!text[n])
			text[n] = ' ';
	n = 0;
	for (at = text; (at = strstr(at, BLOB_BEGIN)); at++) {
		from = at + strlen(BLOB_BEGIN);
		blobs++;
	}
	if (blobs) {
		end = strstr(from, BLOB_END);
		if (!end) {
			fprintf(stderr, "irqlab-rescue: %s: the blob after its "
				"last %s has no %s: cut short\n", file,
				BLOB_BEGIN, BLOB_END);
			free(text);
			return 0;
		}
		if (blobs > 1)
			printf("irqlab-rescue: %s holds %zu blobs; reading the "
			       "last\n", file, blobs);
	}
	for (at = from; at < end && n < cap; at++) {
		int c = *at, v = c >= '0' && c <= '9' ? c - '0'
				 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (v < 0)
			continue;
		if (high < 0) {
			high = v;
		} else {
			out[n++] = (uint8_t)(high << 4 | v);
			high = -1;
		}
	}
	free(text);
	return n;
}

/* Writes and reads back one file; returns 0 when they match. */
static int write_verified(const char *path, const void *data, size_t len)
{
	FILE *out = fopen(path, "wb");
	size_t got;

	if (!out || fwrite(data, 1, len, out) != len || fclose(out)) {
		fprintf(stderr, "irqlab-rescue: cannot write %s\n", path);
		return -1;
	}
	out = fopen(path, "rb");
	got = out ? fread(back, 1, len + 1, out) : 0;
	if (out)
		fclose(out);
	if (got != len || memcmp(back, data, len)) {
		fprintf(stderr, "irqlab-rescue: %s reads back different\n", path);
		return -1;
	}
	printf("irqlab-rescue: wrote and verified %s (%zu bytes)\n", path, len);
	return 0;
}

/* Part `p` of run `r`'s index, as phase C kept it beside the run's files
 * on the stick (run-<k>-part-<p>.bin in its folder), into `part`.
 * Returns 0, or -1 when it is not there or is not that part. */
static int read_part(const char *stick, const char *folder,
		     const struct run_result *r, unsigned p)
{
	char path[600];
	FILE *in;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s/run-%u-part-%u.bin", stick, folder,
		 r->run_index, p);
	in = fopen(path, "rb");
	if (!in)
		return -1;
	len = fread(part_blob, 1, sizeof(part_blob), in);
	fclose(in);
	return results_decode(part_blob, len, &part) == DECODE_OK &&
			       part.run_id == r->run_id && part.part == p ?
		       0 : -1;
}

/* The one join of a run measured in parts, whichever way its parts came:
 * `more`, as part p (from 2), goes on `joined`, parts 1 to p - 1, as
 * phase C joins them (results_join_part). It must continue them: the
 * same build, from the plan row where they stopped. A part measured as
 * a run of its own (an emulator's, started at start_row) calls itself
 * part 1: it becomes part p here. Returns 0, or -1 with why printed. */
static int join_next_part(struct run_result *joined,
			  const struct run_result *more, unsigned p)
{
	if (strcmp(joined->build, more->build) || !joined->next_row ||
	    more->first_row != joined->next_row) {
		printf("irqlab-rescue: part %u does not continue the parts "
		       "before it: build %s from plan row %u, where they are "
		       "build %s and stopped at row %u\n", p, more->build,
		       more->first_row, joined->build, joined->next_row);
		return -1;
	}
	if (results_join_part(joined, more)) {
		printf("irqlab-rescue: part %u overflows one run's tables\n", p);
		return -1;
	}
	joined->part = (uint8_t)p;
	return 0;
}

/* Joins the earlier parts of run `r` found on the stick with `r`, the
 * last, into `joined`. Returns how many parts are missing; each is
 * named. */
static unsigned join_parts(const char *stick, const char *folder,
			   const struct run_result *r)
{
	unsigned p, missing = 0;

	for (p = 1; p < r->part; p++) {
		if (!stick || read_part(stick, folder, r, p)) {
			printf("irqlab-rescue: part %u of %u is missing: no "
			       "run-%u-part-%u.bin in %s/%s\n", p, r->part,
			       r->run_index, p, stick ? stick : "(no --stick)",
			       folder);
			missing++;
			continue;
		}
		if (p == 1)
			joined = part;
		else if (join_next_part(&joined, &part, p))
			missing++;
	}
	if (!missing && join_next_part(&joined, r, r->part))
		missing++;
	return missing;
}

/* The parts an emulator's runner measured as runs of their own, one
 * blob file each, in plan order (image/bochs.sh: its reset never reaches
 * phase C): the first into `run` and its bytes into `blob`, each part's
 * bytes into parts_blob[] to be kept beside the files, and the rest
 * joined onto `run`. Returns 0, or -1 with why printed. */
static int join_blob_files(const char *const *files, unsigned n)
{
	unsigned p;

	for (p = 1; p <= n; p++) {
		struct run_result *into = p == 1 ? &run : &part;
		enum decode_status ds;
		size_t len = read_blob_hex(files[p - 1], parts_blob[p - 1],
					   sizeof(parts_blob[p - 1]));

		parts_blob_len[p - 1] = len;
		ds = len ? results_decode(parts_blob[p - 1], len, into)
			 : DECODE_TRUNCATED;
		if (ds != DECODE_OK) {
			fprintf(stderr, "irqlab-rescue: %s holds no blob that "
				"decodes (%s)\n", files[p - 1],
				decode_status_name(ds));
			return -1;
		}
		if (p > 1 && join_next_part(&run, &part, p))
			return -1;
	}
	return 0;
}

/* efivarfs files are immutable until their flag is cleared. */
static int delete_record(const char *path)
{
	int fd = open(path, O_RDONLY), flags;

	if (fd >= 0) {
		if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 &&
		    (flags & FS_IMMUTABLE_FL)) {
			flags &= ~FS_IMMUTABLE_FL;
			ioctl(fd, FS_IOC_SETFLAGS, &flags);
		}
		close(fd);
	}
	return unlink(path);
}

int main(int argc, char **argv)
{
	static struct handoff_report report;
	static struct report_catalog catalog;
	const char *names[HANDOFF_SCAN_RECORDS];
	const char *source, *dest = "results";
	struct report_context ctx;
	struct text_buf tb;
	char dir[512], folder[32], path[600];
	size_t n, i, blob_len = 0;
	uint64_t run_id = 0;
	int delete = 0, arg = 1;
	enum decode_status ds;

	const char *template_path = NULL, *stick = NULL, *reference = NULL;
	const char *vars = NULL, *blob_files[RESULTS_MAX_PARTS];
	unsigned n_blobs = 0;
	const uint8_t *run_blob = blob;
	size_t run_blob_len;
	int in_parts = 0;

	for (; arg < argc && argv[arg][0] == '-'; arg++) {
		if (!strcmp(argv[arg], "--delete"))
			delete = 1;
		else if (!strcmp(argv[arg], "--template") && arg + 1 < argc)
			template_path = argv[++arg];
		else if (!strcmp(argv[arg], "--stick") && arg + 1 < argc)
			stick = argv[++arg];
		else if (!strcmp(argv[arg], "--reference") && arg + 1 < argc)
			reference = argv[++arg];
		else if (!strcmp(argv[arg], "--vars") && arg + 1 < argc)
			vars = argv[++arg];
		else if (!strcmp(argv[arg], "--blob") && arg + 1 < argc &&
			 n_blobs < RESULTS_MAX_PARTS)
			blob_files[n_blobs++] = argv[++arg];
		else
			break;
	}
	if (arg >= argc && !vars && !n_blobs) {
		fprintf(stderr, "usage: irqlab-rescue [--delete] [--stick DIR] "
			"[--template report-template.html] [--reference "
			"icount.ref] SOURCE [DEST]\n"
			"       irqlab-rescue [options] --vars OVMF_VARS.fd "
			"[DEST]\n"
			"       irqlab-rescue [options] --blob SERIAL.log "
			"[--blob PART2.log ...] [DEST]\n");
		return 2;
	}
	if ((vars || n_blobs) && delete) {
		fprintf(stderr, "irqlab-rescue: --delete needs the records in "
			"efivarfs; a VARS or blob file is read, never changed\n");
		return 2;
	}
	source = vars ? vars : n_blobs ? blob_files[0] : argv[arg++];
	if (arg < argc)
		dest = argv[arg];
	if (n_blobs) {
		/* The run's blob itself, as an emulator's phase B printed it:
		 * no records to select from; a run in parts, one blob a
		 * part. */
		if (join_blob_files(blob_files, n_blobs))
			return 1;
		blob_len = parts_blob_len[0];
		memcpy(blob, parts_blob[0], blob_len);
		n = 0;
		goto decoded;
	}
	n = vars ? find_records_in_store(vars) : find_records(source);
	if (!n) {
		printf("irqlab-rescue: no irqlab records in %s\n", source);
		return 1;
	}
	for (i = 0; i < n; i++) {
		items[i] = (struct handoff_item){ .data = found[i].data,
						  .len = found[i].len };
		names[i] = found[i].name;
	}
	if (!handoff_select(items, n, blob, sizeof(blob), &blob_len, &run_id)) {
		handoff_report_fill(&report, items, names, n);
		tb_init(&tb, text, sizeof(text));
		tb_printf(&tb, "irqlab-rescue: %zu records, but no complete run.\n",
			  n);
		report_discards(&tb, &report);
		fputs(tb.data, stdout);
		return 1;
	}
	ds = results_decode(blob, blob_len, &run);
	if (ds != DECODE_OK || run.run_id != run_id) {
		fprintf(stderr, "irqlab-rescue: the run's blob does not decode (%s); "
			"a run measured by a build with ENTRY= is read only by "
			"that build's rescue: make rescue ENTRY=<its files>\n",
			ds != DECODE_OK ? decode_status_name(ds) : "run id differs");
		return 1;
	}
decoded:
	handoff_report_fill(&report, items, names, n);
	report_context_build(&ctx, &catalog, &run, &report);
	read_path_reference(reference, &ctx);
	if (template_path) {
		FILE *f = fopen(template_path, "rb");

		ctx.html_template_len = f ? fread(html_template, 1,
						  sizeof(html_template), f) : 0;
		if (f)
			fclose(f);
		ctx.html_template = ctx.html_template_len ? html_template : NULL;
		if (!ctx.html_template)
			fprintf(stderr, "irqlab-rescue: cannot read %s: no "
				"report.html\n", template_path);
	}
	run_folder_name(run.run_id, folder, sizeof(folder));
	snprintf(dir, sizeof(dir), "%s/%s", dest, folder);
	mkdir(dest, 0755);
	/* As make collect: a results folder is never overwritten. */
	if (mkdir(dir, 0755)) {
		fprintf(stderr, "irqlab-rescue: %s %s: not overwritten; give "
			"another DEST\n", dir, errno == EEXIST ? "exists"
			: "cannot be created");
		return 1;
	}
	run_blob_len = blob_len;
	if (n_blobs > 1) {
		printf("irqlab-rescue: %u parts joined into one run\n", n_blobs);
		in_parts = 1;
	} else if (run.part > 1) {
		if (join_parts(stick, folder, &run)) {
			printf("irqlab-rescue: part %u of a run measured in parts: "
			       "these files hold this part alone\n", run.part);
		} else {
			printf("irqlab-rescue: %u parts joined into one run\n",
			       run.part);
			in_parts = 1;
			run = joined;
		}
	}
	/* The files phase C writes: the whole run's blob, and each part's
	 * own beside it. */
	if (in_parts) {
		run_blob_len = results_encode(&run, joined_blob,
					      sizeof(joined_blob));
		run_blob = joined_blob;
		if (!run_blob_len) {
			fprintf(stderr, "irqlab-rescue: the joined run does not "
				"encode\n");
			return 1;
		}
	}
	if (config_hands_over_serial(&run.config))
		printf("irqlab-rescue: a run handed over on serial (handoff = "
		       "serial): its one blob holds the whole run\n");
	if (run.next_row)
		printf("irqlab-rescue: the run stopped at plan row %u: its later "
		       "parts were never measured\n", run.next_row);
	if (run.config.runs > 1)
		printf("irqlab-rescue: run %u of a series of %u: the earlier runs "
		       "are on the stick (run-<k>.bin); these files hold this run "
		       "alone\n", run.run_index, run.config.runs);
	/* The files phase C writes, rendered the same way. */
	for (i = 0; i < report_output_count; i++) {
		const struct report_output *o = &report_outputs[i];

		int rc;

		tb_init(&tb, text, sizeof(text));
		rc = o->render(&tb, &run, &ctx);
		if (rc == REPORT_NOT_WRITTEN)
			continue;
		if (rc) {
			fprintf(stderr, "irqlab-rescue: %s too large\n", o->file);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, o->file);
		if (write_verified(path, tb.data, tb.len))
			return 1;
	}
	snprintf(path, sizeof(path), "%s/run-%u.bin", dir, run.run_index);
	if (write_verified(path, run_blob, run_blob_len))
		return 1;
	/* This part's blob; an emulator's run, every part's (the stick
	 * already holds a stick run's earlier parts). */
	for (i = n_blobs > 1 ? 1 : run.part; in_parts && i <= run.part; i++) {
		snprintf(path, sizeof(path), "%s/run-%u-part-%zu.bin", dir,
			 run.run_index, i);
		if (n_blobs > 1 ? write_verified(path, parts_blob[i - 1],
						  parts_blob_len[i - 1])
				: write_verified(path, blob, blob_len))
			return 1;
	}
	/* A store file or a blob is only ever read (docs/real-machine.md): no --delete to offer there. */
	if (vars || n_blobs) {
		printf("irqlab-rescue: %s was read, never changed\n", source);
		return 0;
	}
	if (!delete) {
		printf("irqlab-rescue: %zu record(s) left in %s (--delete removes "
		       "them; make rescue DELETE=1)\n", n, source);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (delete_record(found[i].path))
			fprintf(stderr, "irqlab-rescue: could not delete %s: %s\n",
				found[i].path, strerror(errno));
		else
			printf("irqlab-rescue: deleted %s\n", found[i].name);
	return 0;
}
