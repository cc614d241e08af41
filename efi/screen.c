#include <efi.h>
#include <efilib.h>

#include "efi/screen.h"

#include "arch/lib/fmt.h"
#include "efi/screen_font.h"

void screen_find(struct screen *s)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;

	*s = (struct screen){ 0 };
	if (EFI_ERROR(uefi_call_wrapper(BS->LocateProtocol, 3,
					&GraphicsOutputProtocol, NULL,
					(void **)&gop)) ||
	    !gop || !gop->Mode || !gop->Mode->Info) {
		fmt_snprintf(s->why_not, sizeof(s->why_not),
			     "no Graphics Output Protocol");
		return;
	}
	info = gop->Mode->Info;
	if (info->PixelFormat != PixelBlueGreenRedReserved8BitPerColor &&
	    info->PixelFormat != PixelRedGreenBlueReserved8BitPerColor) {
		fmt_snprintf(s->why_not, sizeof(s->why_not),
			     "the GOP has no linear 32-bit framebuffer "
			     "(pixel format %u%s)", (unsigned)info->PixelFormat,
			     info->PixelFormat == PixelBltOnly ? ", BLT only" : "");
		return;
	}
	s->base = (volatile uint32_t *)(uintptr_t)gop->Mode->FrameBufferBase;
	s->bytes = gop->Mode->FrameBufferSize;
	s->width = info->HorizontalResolution;
	s->height = info->VerticalResolution;
	s->stride = info->PixelsPerScanLine;
	s->bgr = info->PixelFormat == PixelBlueGreenRedReserved8BitPerColor;
	if (!s->base || (uint64_t)s->stride * s->height * 4 > s->bytes) {
		fmt_snprintf(s->why_not, sizeof(s->why_not),
			     "the GOP's framebuffer is smaller than its mode");
		return;
	}
	/* The font drawn larger on large screens: 8 x 16 stays readable up
	 * to about 1600 pixels across. */
	s->scale = (uint8_t)(s->width / 1600 + 1);
	if (s->scale > 4)
		s->scale = 4;
	s->usable = 1;
}

static uint32_t pixel(const struct screen *s, uint32_t rgb)
{
	if (s->bgr)
		return rgb;
	return ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff);
}

void screen_fill(const struct screen *s, unsigned x, unsigned y, unsigned w,
		 unsigned h, uint32_t rgb)
{
	uint32_t p = pixel(s, rgb);
	unsigned i, j;

	if (!s->usable)
		return;
	for (j = y; j < y + h && j < s->height; j++)
		for (i = x; i < x + w && i < s->width; i++)
			s->base[(uint64_t)j * s->stride + i] = p;
}

unsigned screen_cell_width(const struct screen *s)
{
	return SCREEN_FONT_WIDTH * (s->scale ? s->scale : 1);
}

unsigned screen_cell_height(const struct screen *s)
{
	return SCREEN_FONT_HEIGHT * (s->scale ? s->scale : 1);
}

unsigned screen_cols(const struct screen *s)
{
	return s->width / screen_cell_width(s);
}

unsigned screen_rows(const struct screen *s)
{
	return s->height / screen_cell_height(s);
}

static void glyph(const struct screen *s, unsigned col, unsigned row, char c,
		  uint32_t fg, uint32_t bg)
{
	const uint8_t *bits;
	unsigned x0 = col * screen_cell_width(s), y0 = row * screen_cell_height(s);
	unsigned i, j, k = s->scale;

	if (c < SCREEN_FONT_FIRST || c >= SCREEN_FONT_FIRST + SCREEN_FONT_GLYPHS)
		c = '?';
	bits = screen_font[c - SCREEN_FONT_FIRST];
	for (j = 0; j < SCREEN_FONT_HEIGHT * k; j++)
		for (i = 0; i < SCREEN_FONT_WIDTH * k; i++)
			s->base[(uint64_t)(y0 + j) * s->stride + x0 + i] =
				bits[j / k] & (0x80 >> (i / k)) ? fg : bg;
}

void screen_text(const struct screen *s, unsigned col, unsigned row,
		 unsigned width, const char *text, uint32_t fg, uint32_t bg)
{
	uint32_t f = pixel(s, fg), b = pixel(s, bg);
	unsigned i;

	if (!s->usable || row >= screen_rows(s))
		return;
	for (i = 0; i < width && col + i < screen_cols(s); i++) {
		char c = *text ? *text++ : ' ';

		glyph(s, col + i, row, c, f, b);
	}
}
