/* irqlab.cfg on the ESP, read whole or refused (docs/config.md). */
#ifndef IRQLAB_EFI_CONFIG_FILE_H
#define IRQLAB_EFI_CONFIG_FILE_H

#include <efi.h>

#include "bench/model/config_parse.h"

#define CONFIG_PATH "\\EFI\\irqlab\\irqlab.cfg"

/* Fills `c` with the defaults and what the file sets, logging every
 * problem. Returns what reading it found wrong: errors stop the run in
 * phase A, warnings go into the results. Where the image's volume has
 * no such file and `image` was PXE-booted, the server's
 * irqlab-<MAC>.cfg is read, or else its irqlab.cfg (docs/lab.md). */
const struct config_problems *config_file_load(EFI_FILE_HANDLE root,
					       EFI_HANDLE image,
					       struct irqlab_config *c);

#endif
