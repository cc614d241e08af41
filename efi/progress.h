/* Phase B's progress, on the screen and on serial alike: which step of
 * how many, the time gone and an estimate of what remains, the counts so
 * far, a bar, and that the machine resets by itself. Without a usable
 * framebuffer it stays on serial. */
#ifndef IRQLAB_EFI_PROGRESS_H
#define IRQLAB_EFI_PROGRESS_H

#include <stdint.h>

#include "efi/screen.h"

/* Clears the screen to the progress page and plugs into the runner;
 * its warning says how the run ends: a reset, or with `over_serial`
 * (handoff = serial) the results on COM1. */
void progress_start(const struct screen *s, uint64_t tsc_hz, int over_serial);
/* One line under the bar: what phase B does now. */
void progress_say(const char *what);

/* Replaces the progress with a page of text (lines split at '\n'), for
 * results that could not be handed over, or went to COM1 alone.
 * Returns the lines drawn, 0 without a usable screen. */
unsigned progress_show_page(const char *text);
/* One line under the page, where progress_hold counts down. */
void progress_page_say(const char *what);
/* Counts `seconds` down on the page's last line ("The machine `then`
 * in N s": resets, powers off). */
void progress_hold(unsigned seconds, const char *then);

#endif
