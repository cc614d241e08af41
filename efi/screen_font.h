/* The console font phase B draws with: printable ASCII, 8 x 16 pixels,
 * one byte per pixel row, the leftmost pixel in the top bit. The table is
 * generated at build time from a Linux console font (image/font-to-c.py),
 * never drawn by hand. */
#ifndef IRQLAB_EFI_SCREEN_FONT_H
#define IRQLAB_EFI_SCREEN_FONT_H

#include <stdint.h>

#define SCREEN_FONT_WIDTH 8
#define SCREEN_FONT_HEIGHT 16
#define SCREEN_FONT_FIRST 0x20	/* ' ' */
#define SCREEN_FONT_GLYPHS (0x7f - SCREEN_FONT_FIRST)

extern const uint8_t screen_font[SCREEN_FONT_GLYPHS][SCREEN_FONT_HEIGHT];

#endif
