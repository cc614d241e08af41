/* irqlab: the story of one boot (docs/run.md).
 *   phase C  records pending from the boot before: write the result
 *            files, verify them, delete the records, power off; or keep
 *            a part or an earlier run of a series and measure the next
 *   phase A  boot services up: identify, allocate, ExitBootServices
 *   phase B  irqlab owns the machine: descriptor tables, paging,
 *            experiments, results into UEFI variables, reset
 * Each phase has its own file; what one hands the next is passed here. */
#include <efi.h>
#include <efilib.h>

#include "arch/lib/log.h"
#include "efi/config_file.h"
#include "efi/console.h"
#include "efi/volume.h"
#include "efi/phase_a.h"
#include "efi/phase_c.h"
#include "efi/platform.h"
#include "efi/power.h"
#include "efi/run_state.h"

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static struct run_state run;
	struct next_run next = { 0 };
	const struct config_problems *config_problems;
	struct volume volume;
	struct machine_info machine;

	InitializeLib(image, systab);
	console_log_to_firmware();
	run.image = image;
	/* The boot manager's 5-minute watchdog (docs/uefi-variables.md). */
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
	log_printf("irqlab: interrupt entry/exit cost, bare metal\n");

	/* The SMBIOS UUID names the machine on a lab's server. */
	platform_identify(ST, &machine, &run.platform);
	volume_open(image, run.platform.has_system_uuid
					   ? run.platform.system_uuid : NULL,
		    &volume);
	config_problems = config_file_load(volume.root, image, &run.config);
	/* Records from an earlier run are kept whatever the config says. */
	if (phase_c(&volume, &run, &next) == PHASE_C_DONE)
		return EFI_SUCCESS;
	if (config_problems->n_errors)
		stop_visibly(CONFIG_PATH " has the errors listed above; fix "
			     "them, or delete the file to run with the "
			     "defaults");
	return phase_a(&run, config_problems, &next);
}
