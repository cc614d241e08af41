/* A small general compressor for the handoff: an adaptive binary range
 * coder over an order-0 model of the bytes (each byte coded bit by bit
 * down a 256-node tree of probabilities that learn as they go). The
 * coder is the one LZMA uses (its specification's "range encoder":
 * 11-bit probabilities moved by 1/32 of the distance, a 32-bit range
 * renormalized a byte at a time, carries through a one-byte cache).
 *
 * Why this and not a library: the firmware build is freestanding, with
 * no C library and no red zone, and phase C, irqlab-rescue and the fuzz
 * harnesses must run the same decoder; zlib, lz4 or zstd would each be
 * a second build of someone else's code for the firmware. The results'
 * bytes are small LEB128 numbers (histogram counts, index gaps, figures'
 * steps) with little repetition at a distance, so an order-0 entropy
 * coder takes what LZ77 would (measured on a plain-TCG run of the
 * shipped matrix: 51427 bytes to 31 KB, as gzip -9 does) in ~100 lines
 * (docs/uefi-variables.md "Compact results"). */
#ifndef IRQLAB_BENCH_MODEL_RANGE_CODER_H
#define IRQLAB_BENCH_MODEL_RANGE_CODER_H

#include <stddef.h>
#include <stdint.h>

/* Compresses `n` bytes into `out`. Returns the compressed length, or 0
 * when it does not fit `cap`. With `out` NULL it only counts. */
size_t rc_compress(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

/* Decompresses exactly `out_len` bytes from `in`. Returns 0 when the
 * input held them and nothing more, -1 when it ran out or its first byte
 * is not the coder's 0, 1 when bytes are left over. */
int rc_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t out_len);

#endif
