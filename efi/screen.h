/* Text on the firmware's framebuffer after ExitBootServices: the GOP's
 * base, size, stride and pixel format are kept from phase A, and phase B
 * draws on the memory itself (UEFI spec §12.9: the framebuffer stays
 * valid once boot services are gone; the protocol does not). Text is in
 * cells of the console font, 8 x 16 pixels. */
#ifndef IRQLAB_EFI_SCREEN_H
#define IRQLAB_EFI_SCREEN_H

#include <efi.h>

struct screen {
	volatile uint32_t *base;
	uint64_t bytes;
	uint32_t width, height, stride;	/* pixels */
	uint8_t bgr;		/* blue in the low byte (the usual format) */
	uint8_t scale;		/* font pixels per screen pixel, for large screens */
	uint8_t usable;
	char why_not[96];	/* when not usable */
};

/* Phase A: keeps the GOP's framebuffer, when it has a linear one. */
void screen_find(struct screen *s);

#define SCREEN_RGB(r, g, b) (((uint32_t)(r) << 16) | ((g) << 8) | (b))
void screen_fill(const struct screen *s, unsigned x, unsigned y, unsigned w,
		 unsigned h, uint32_t rgb);
/* Text at cell (col, row), clipped to the screen; the rest of `width`
 * cells is cleared, so shorter text replaces longer. */
void screen_text(const struct screen *s, unsigned col, unsigned row,
		 unsigned width, const char *text, uint32_t fg, uint32_t bg);
unsigned screen_cols(const struct screen *s);
unsigned screen_rows(const struct screen *s);
/* A cell's size in pixels. */
unsigned screen_cell_width(const struct screen *s);
unsigned screen_cell_height(const struct screen *s);

#endif
