#include <efi.h>
#include <efilib.h>

#include "efi/power.h"
#include "arch/lib/log.h"
#include "efi/runtime.h"

#define STOP_COUNTDOWN_SECONDS 10

/* The count is redrawn in place on the console. */
int power_off_after(unsigned seconds)
{
	int key_pressed = 0;
	EFI_EVENT timer = NULL, events[2];
	EFI_INPUT_KEY key;
	unsigned left;

	if (!EFI_ERROR(uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER, 0, NULL,
					 NULL, &timer)) &&
	    !EFI_ERROR(uefi_call_wrapper(BS->SetTimer, 3, timer, TimerPeriodic,
					 10000000))) {	/* 1 s, in 100 ns */
		events[0] = ST->ConIn->WaitForKey;
		events[1] = timer;
		for (left = seconds; left > 0; left--) {
			UINTN index = 1;

			log_printf("\rirqlab: press a key to power off (powering "
				   "off in %3u s) ", left);
			uefi_call_wrapper(BS->WaitForEvent, 3, 2, events, &index);
			if (index == 0) {
				uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2,
						  ST->ConIn, &key);
				key_pressed = 1;
				break;
			}
		}
		log_printf("\n");
	}
	return key_pressed;
}

void stop_visibly(const char *why)
{
	log_printf("\nirqlab will not measure: %s\n", why);
	power_off_after(STOP_COUNTDOWN_SECONDS);
	runtime_reset(EfiResetShutdown);
}

void power_off_when_done(const struct irqlab_config *c)
{
	if (c->finish == FINISH_WAIT_KEY)
		power_off_after(FINISH_COUNTDOWN_SECONDS);
	runtime_reset(EfiResetShutdown);
}
