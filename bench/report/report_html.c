/* report.html: the page's template (web/) with results.json in its data
 * slot. The firmware draws nothing; the page's own scripts do. */
#include "bench/report/report_html.h"

#include "bench/report/results_json.h"

/* Where the data slot starts in the template, or -1. */
static long data_slot(const char *t, size_t len)
{
	size_t slot = sizeof(REPORT_DATA_SLOT) - 1, i, k;

	for (i = 0; i + slot <= len; i++) {
		for (k = 0; k < slot && t[i + k] == REPORT_DATA_SLOT[k]; k++)
			;
		if (k == slot)
			return (long)i;
	}
	return -1;
}

static void put_bytes(struct text_buf *tb, const char *p, size_t n)
{
	while (n--)
		tb_putc(tb, *p++);
}

int report_html(struct text_buf *tb, const struct run_result *r,
		const struct report_context *ctx)
{
	const char *t = ctx->html_template;
	size_t len = ctx->html_template_len;
	long at = t ? data_slot(t, len) : -1;
	size_t after;

	if (at < 0)
		return REPORT_NOT_WRITTEN;
	after = (size_t)at + sizeof(REPORT_DATA_SLOT) - 1;
	put_bytes(tb, t, (size_t)at);
	/* The JSON writer escapes '<' in strings (json_escape), so nothing
	 * in it can end the <script> element it lands in. */
	if (report_json(tb, r, ctx))
		return -1;
	put_bytes(tb, t + after, len - after);
	return tb->overflow ? -1 : 0;
}
