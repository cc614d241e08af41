/* Phase B's progress, on the screen and on serial alike: which step of
 * how many, the time gone and an estimate of what remains, the counts so
 * far, a bar, and that the machine resets by itself. Without a usable
 * framebuffer it stays on serial. */
#ifndef IRQLAB_EFI_PROGRESS_H
#define IRQLAB_EFI_PROGRESS_H

#include <stdint.h>

#include "efi/screen.h"

/* Clears the screen to the progress page and plugs into the runner. */
void progress_start(const struct screen *s, uint64_t tsc_hz);
/* One line under the bar: what phase B does now. */
void progress_say(const char *what);

/* Replaces the progress with a page of text (lines split at '\n'), for
 * results that could not be handed over. Returns the lines drawn, 0
 * without a usable screen. */
unsigned progress_show_page(const char *text);
/* Counts `seconds` down on the page's last line ("resets in N s"). */
void progress_hold(unsigned seconds);

#endif
