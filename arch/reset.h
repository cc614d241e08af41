/* A reset without the firmware, for when ResetSystem returned, faulted,
 * or may not be called: the ways Linux tries in turn
 * (arch/x86/kernel/reboot.c, docs/run.md "When the firmware fails"). */
#ifndef IRQLAB_ARCH_RESET_H
#define IRQLAB_ARCH_RESET_H

#include <stdint.h>

/* The chipset's reset control register (port 0xCF9, a hard reset), then
 * the keyboard controller's reset line (command 0xFE), then a triple
 * fault; each said on the log first. `tsc_hz` times the pauses. */
__attribute__((noreturn)) void reset_by_ports(uint64_t tsc_hz);

#endif
