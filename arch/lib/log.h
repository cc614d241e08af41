/* The progress log every floor writes to. Where the text goes is decided
 * at the top: phase A plugs in the firmware console, phase B the serial
 * port (efi/console.c). Before a sink is plugged in, text is dropped. */
#ifndef IRQLAB_ARCH_LIB_LOG_H
#define IRQLAB_ARCH_LIB_LOG_H

typedef void (*log_sink)(const char *text);

/* Status lines: fixed, machine-readable lines among the prose, which the
 * QEMU runner and the boot tests read (docs/status-lines.md):
 *   irqlab-status: EVENT key=value ...
 * The events, defined once: */
#define LOG_STATUS_PREFIX "irqlab-status:"
#define STATUS_STORE "store"	/* phase A: the variable store's room, made or not */
#define STATUS_RUNTIME "runtime"	/* phase A: the runtime services the firmware offers */
#define STATUS_MARKER "marker"	/* A, B: the "measuring" marker set, cleared or changed */
#define STATUS_RUNTIME_LOST "runtime-lost"	/* phase B: a runtime service faulted */
#define STATUS_SHOWN "results-shown"	/* phase B: the headline page drawn */
#define STATUS_RESET "reset"	/* phase B: how the machine is reset */
#define STATUS_OTHER_CPUS "other-cpus"	/* phase B: the other processors parked */
#define STATUS_CROSS_CPU "cross-cpu"	/* a cross-CPU row's target, and what it took */
#define STATUS_SWITCH_NMIS "switch-nmis"	/* phase B: the INT 2s the switches' self-test took */
#define STATUS_HANDED_OVER "handed-over"	/* phase B: records written, resetting */
#define STATUS_SERIAL_ONLY "serial-only"	/* phase B: the store could not take them */
#define STATUS_SERIAL_HANDOFF "serial-handoff"	/* phase B: handoff = serial, the blob on COM1 */
#define STATUS_RUN_KEPT "run-kept"	/* phase C: a run of a series kept on the ESP */
#define STATUS_PART_KEPT "part-kept"	/* phase C: a part of a run kept on the ESP */
#define STATUS_RESULTS "results"	/* phase C: the files are written and verified */
#define STATUS_UNFINISHED "unfinished"	/* phase C: a marker without records */

void log_set_sink(log_sink sink);

/* "irqlab-status: EVENT " and the formatted detail, one line. */
void log_status(const char *event, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void log_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log_write(const char *text);

#endif
