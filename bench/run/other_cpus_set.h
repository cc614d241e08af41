/* The processors phase B started, which then wait in irqlab's loop
 * (arch/ap.c) for the rows that use them: what their start-up
 * (bench/run/other_cpus.c) keeps and their command channel
 * (bench/run/other_cpus_command.c) reads. One set a run. */
#ifndef IRQLAB_BENCH_RUN_OTHER_CPUS_SET_H
#define IRQLAB_BENCH_RUN_OTHER_CPUS_SET_H

#include <stdint.h>

#include "arch/ap.h"
#include "bench/model/topology.h"

struct other_cpus_area;

struct other_cpus {
	const struct other_cpus_area *area;
	uint64_t tsc_hz;
	struct topology topology;	/* the boot CPU's leaves, decoded */
	uint32_t own;		/* the boot CPU's APIC id */
	/* The MADT's count, and the boot CPU's place in it. */
	uint32_t listed, own_index;
	/* The processors tried, by slot in ap_cpus (the trampoline's
	 * table), and how many of them started in phase B. */
	uint32_t count, started;
	int target;	/* the cross-CPU rows' target's slot; -1: none */
	uint32_t command;	/* what the last wake told the target */
	uint32_t mode;	/* the local APIC mode the running ones are in */
	/* Starts sent to several processors at once, this boot, and the
	 * most starts any one processor took. */
	uint32_t rounds, most_starts;
	/* What the target's handler took between the last wake and
	 * sleep, and its wake-ups without an interrupt (arch/ap.h). */
	uint32_t last_took, last_wakeups;
	/* Pinned since they last started (counters_pin_here), by slot. */
	uint8_t pinned[AP_MAX_CPUS];
	struct {
		uint32_t apic_id, index;
		uint8_t relation;
		uint8_t ok;	/* it started in phase B */
		uint8_t up;	/* in ap_wait since its last start */
		/* INIT sent and no start since: in wait-for-SIPI, where
		 * the firmware's SMIs cannot gather it */
		uint8_t init_left;
		uint16_t starts;	/* this boot */
	} cpu[AP_MAX_CPUS];
	/* Each one's own counts (struct ap_cpu) when the last row woke them,
	 * so that what a row reports is its own. */
	struct {
		uint32_t interrupts, halts, mwaits, wakeups;
	} base[AP_MAX_CPUS];
};

extern struct other_cpus started_cpus;

#endif
