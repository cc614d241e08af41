/* How a boot ends where a person sees it: a countdown on the console
 * that a key cuts short, then power off (UEFI spec §8.5.1 ResetSystem). */
#ifndef IRQLAB_EFI_POWER_H
#define IRQLAB_EFI_POWER_H

#include "bench/model/config.h"

/* How long a boot that ends waits for someone at the machine. */
#define FINISH_COUNTDOWN_SECONDS 120

/* Waits for a key, counting down so an unattended run still ends.
 * Returns 1 when a key ended the wait, 0 when the count ran out. */
int power_off_after(unsigned seconds);
/* Ends a run that cannot measure: the reason on screen and serial, a
 * countdown, then power off. Never a silent return to the firmware's
 * next boot option. */
__attribute__((noreturn)) void stop_visibly(const char *why);
/* The end of a boot that wrote its results: as the config's `finish`
 * says, wait for a key or power off at once. */
__attribute__((noreturn)) void power_off_when_done(
	const struct irqlab_config *c);

#endif
