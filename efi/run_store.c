#include <efi.h>
#include <efilib.h>

#include "efi/run_store.h"
#include "efi/pages.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/serialize.h"

uint64_t run_store_new_id(void)
{
	EFI_TIME t;

	if (EFI_ERROR(uefi_call_wrapper(RT->GetTime, 2, &t, NULL)))
		return 0;
	return run_id_from_time(t.Year, t.Month, t.Day, t.Hour, t.Minute,
				t.Second);
}

void run_store_folder(uint64_t run_id, const char *suffix, char *out,
		      size_t cap)
{
	char name[32];

	run_folder_name(run_id, name, sizeof(name));
	fmt_snprintf(out, cap, "%s\\%s%s", RESULTS_ROOT, name, suffix);
}

/* Run `index`'s blob, as run-<index>.bin; or, with `part`, that part's
 * as its handoff carried it, run-<index>-part-<part>.bin. */
static void blob_path(uint64_t run_id, unsigned index, unsigned part,
		      char *out, size_t cap)
{
	char dir[96];

	run_store_folder(run_id, "", dir, sizeof(dir));
	if (part)
		fmt_snprintf(out, cap, "%s\\run-%u-part-%u.bin", dir, index,
			     part);
	else
		fmt_snprintf(out, cap, "%s\\run-%u.bin", dir, index);
}

const char *run_store_write_blob(struct volume *v,
				 const struct run_result *r, unsigned part,
				 const uint8_t *blob, size_t len, char *scratch)
{
	char dir[96], path[128];

	if (!volume_usable(v))
		return "cannot open the boot volume";
	run_store_folder(r->run_id, "", dir, sizeof(dir));
	if (volume_mkdir_p(v, dir))
		return "cannot create the results folder";
	blob_path(r->run_id, r->run_index, part, path, sizeof(path));
	return volume_write_verified(v, path, blob, len, scratch);
}

const char *run_store_join_parts(const struct volume *v, struct run_result *r,
				 uint8_t *blob)
{
	struct run_result *joined = pages_alloc(sizeof(*joined));
	struct run_result *part = pages_alloc(sizeof(*part));
	static char why[160];
	unsigned p;

	if (!joined || !part || !volume_usable(v))
		return "no memory or no boot volume to join the parts";
	for (p = 1; p < r->part; p++) {
		struct run_result *into = p == 1 ? joined : part;
		char path[128];
		INTN len;

		blob_path(r->run_id, r->run_index, p, path, sizeof(path));
		len = volume_read(v, path, blob, RUN_FILE_BYTES);
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

int run_store_holds(const struct volume *vol, const struct record_view *v,
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
			len = volume_read(vol, path, scratch, HANDOFF_MAX_BLOB + 1);
			if (len == (INTN)v->blob_len &&
			    crc32(scratch, (size_t)len) == v->blob_crc)
				return 1;
		}
	}
	return 0;
}

size_t run_store_load_series(const struct volume *v, const struct run_result *r,
			     const struct run_result **runs, uint8_t *blob)
{
	size_t n = 0;
	unsigned k;

	for (k = 1; k < r->run_index && volume_usable(v); k++) {
		struct run_result *earlier = pages_alloc(sizeof(*earlier));
		char path[128];
		INTN len;

		blob_path(r->run_id, k, 0, path, sizeof(path));
		len = volume_read(v, path, blob, RUN_FILE_BYTES);
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
