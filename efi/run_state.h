/* What the phases hand each other (docs/run.md): the run phase A
 * allocates and phase B measures, and what phase C decides the next run
 * is. */
#ifndef IRQLAB_EFI_RUN_STATE_H
#define IRQLAB_EFI_RUN_STATE_H

#include <efi.h>

#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/buffers.h"
#include "bench/run/other_cpus.h"
#include "bench/run/source_lines.h"
#include "efi/platform.h"
#include "efi/screen.h"

/* simulate = cet-shadow-stack's pages: the shadow stack's, and a page
 * directory and a page table to split a 1 GiB and a 2 MiB page. */
#define SHADOW_STACK_PAGES 3

/* Everything phase B uses, allocated in phase A. */
struct run_state {
	EFI_HANDLE image;
	struct irqlab_config config;
	struct run_result *result;
	struct bench_buffers buffers;
	void *ist_stacks;
	/* simulate = cet-shadow-stack: the shadow-stack page, then the
	 * page-table pages that splitting large pages around it may take
	 * (efi/phase_b.c); NULL otherwise. */
	uint8_t *shadow_stack_pages;
	struct other_cpus_area other_cpus;	/* bench/run/other_cpus.h */
	void *page_pool;
	size_t page_pool_pages;
	uint8_t *blob;
	char *text;	/* REPORT_TEXT_BYTES, for the writers; phase C's too */
	EFI_MEMORY_DESCRIPTOR *map;
	UINTN map_cap, map_size, map_key, desc_size;
	UINT32 desc_version;
	struct platform platform;
	struct screen screen;	/* the framebuffer phase B shows progress on */
	uint32_t handoff_budget;	/* the blob one handoff may carry */
	/* EFI_RT_PROPERTIES_TABLE offers ResetSystem (or there is none):
	 * a serial handoff's end powers off through it, else halts. */
	uint8_t reset_offered;
	/* The serial port phase A found, or what it tried (efi/platform.h
	 * platform_find_serial). */
	char serial_said[200];
	/* The interrupt lines phase B's probes found, which the rows use
	 * (bench/run/source_lines.h). */
	struct source_lines lines;
};

/* The run phase A is to measure, as phase C decided: all zero for a new
 * run; else the next run of a series (config runs > 1), or the next part
 * of a run that did not fit one handoff (docs/uefi-variables.md
 * "Parts"). */
struct next_run {
	uint64_t id;		/* the first run's id, which names the folder */
	uint8_t index;		/* the run to measure; 0 for a new series */
	uint8_t part;		/* the part to measure; 0 for a whole run */
	uint16_t first_row;	/* the plan row that part starts at */
	/* The matrix's sender it resumes at, + 1; 0: none */
	uint16_t matrix_resume;
};

#endif
