#include "efi/progress.h"

#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/run/runner.h"

#define MARGIN 2	/* cells */
#define ROW_TITLE 1
#define ROW_WARNING 3
#define ROW_STEP 5
#define ROW_TIME 6
#define ROW_COUNTS 7
#define ROW_BAR 9
#define ROW_SAY 11
#define END_LINE_MAX 100	/* a page line's characters */

#define BACKGROUND SCREEN_RGB(0, 0, 48)
#define TEXT SCREEN_RGB(224, 224, 224)
#define WARNING SCREEN_RGB(255, 208, 64)
#define BAR_DONE SCREEN_RGB(0, 192, 0)
#define BAR_LEFT SCREEN_RGB(72, 72, 88)

static struct {
	const struct screen *screen;
	uint64_t tsc_hz, start;
} shown;

static unsigned text_width(void)
{
	unsigned cols = screen_cols(shown.screen);

	return cols > 2 * MARGIN ? cols - 2 * MARGIN : 0;
}

static void line(unsigned row, const char *text, uint32_t colour)
{
	screen_text(shown.screen, MARGIN, row, text_width(), text, colour,
		    BACKGROUND);
}

/* m:ss from TSC ticks. */
static void minutes(char *out, size_t cap, uint64_t ticks)
{
	uint64_t s = shown.tsc_hz ? ticks / shown.tsc_hz : 0;

	fmt_snprintf(out, cap, "%llu:%02llu", (unsigned long long)(s / 60),
		     (unsigned long long)(s % 60));
}

static void show(const struct bench_progress *p)
{
	uint64_t elapsed = tsc_close() - shown.start;
	unsigned cw = screen_cell_width(shown.screen);
	unsigned ch = screen_cell_height(shown.screen);
	unsigned bar = text_width() * cw, done;
	char text[160], gone[16], left[16];

	minutes(gone, sizeof(gone), elapsed);
	if (p->done && p->done < p->total)
		minutes(left, sizeof(left),
			elapsed / p->done * (p->total - p->done));
	else
		fmt_snprintf(left, sizeof(left), "%s", p->done ? "0:00" : "?");
	/* Steps: the plan's rows, then the primitives
	 * (bench/model/row_counts.h). */
	if (p->name[0])
		fmt_snprintf(text, sizeof(text), "step %u of %u: %s",
			     p->done + 1, p->total, p->name);
	else if (p->done < p->total)
		fmt_snprintf(text, sizeof(text), "%u of %u steps done; the "
			     "rest in part %u, after a reset", p->done,
			     p->total, p->part + 1u);
	else
		fmt_snprintf(text, sizeof(text), "all %u steps done", p->total);
	line(ROW_STEP, text, TEXT);
	log_printf("progress: %s; ", text);
	fmt_snprintf(text, sizeof(text), "elapsed %s, about %s left", gone, left);
	line(ROW_TIME, text, TEXT);
	log_printf("%s; ", text);
	/* What the counts count (bench/model/row_counts.h): a later part
	 * has its own rows only, and part 1 took the primitives. */
	fmt_snprintf(text, sizeof(text), "ok %u   skipped %u   failed %u (%s)",
		     p->ok, p->skipped, p->failed,
		     p->part > 1 ? "this part's experiment and gap rows"
				 : "experiment and gap rows, primitives");
	line(ROW_COUNTS, text, TEXT);
	log_printf("%s\n", text);
	done = p->total ? (unsigned)((uint64_t)bar * p->done / p->total) : 0;
	screen_fill(shown.screen, MARGIN * cw, ROW_BAR * ch, done, ch, BAR_DONE);
	screen_fill(shown.screen, MARGIN * cw + done, ROW_BAR * ch, bar - done, ch,
		    BAR_LEFT);
}

void progress_start(const struct screen *s, uint64_t tsc_hz, int over_serial)
{
	shown.screen = s;
	shown.tsc_hz = tsc_hz;
	shown.start = tsc_close();
	screen_fill(s, 0, 0, s->width, s->height, BACKGROUND);
	line(ROW_TITLE, "irqlab: what an interrupt costs on entry and exit",
	     TEXT);
	line(ROW_WARNING, over_serial
		 ? "Measuring. The results go to COM1 at the end (handoff = "
		   "serial); do not power off."
		 : "Measuring. The machine resets by itself; do not power off.",
	     WARNING);
	bench_progress_hook = show;
}

void progress_say(const char *what)
{
	line(ROW_SAY, what, WARNING);
}

#define ROW_PAGE 1	/* the page's first line */

static unsigned page_lines;

unsigned progress_show_page(const char *text)
{
	char line_text[END_LINE_MAX];
	unsigned row = ROW_PAGE, n;

	if (!shown.screen || !shown.screen->usable)
		return 0;
	screen_fill(shown.screen, 0, 0, shown.screen->width,
		    shown.screen->height, BACKGROUND);
	while (*text && row + 2 < screen_rows(shown.screen)) {
		for (n = 0; text[n] && text[n] != '\n' && n < END_LINE_MAX - 1; n++)
			line_text[n] = text[n];
		line_text[n] = '\0';
		line(row++, line_text, TEXT);
		text += n;
		while (*text && *text != '\n')	/* beyond the screen's width */
			text++;
		if (*text == '\n')
			text++;
	}
	page_lines = row;
	return row - ROW_PAGE;
}

void progress_page_say(const char *what)
{
	if (shown.screen && shown.screen->usable)
		line(page_lines + 1, what, WARNING);
}

void progress_hold(unsigned seconds, const char *then)
{
	char text[80];

	for (; seconds > 0; seconds--) {
		fmt_snprintf(text, sizeof(text), "The machine %s in %u s.", then,
			     seconds);
		progress_page_say(text);
		tsc_pause_us(shown.tsc_hz, 1000000u);
	}
}
