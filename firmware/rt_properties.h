/* EFI_RT_PROPERTIES_TABLE (UEFI spec §4.6.2): which runtime services the
 * firmware still offers after ExitBootServices. A firmware that does not
 * publish the table offers them all. */
#ifndef IRQLAB_FIRMWARE_RT_PROPERTIES_H
#define IRQLAB_FIRMWARE_RT_PROPERTIES_H

#include <stddef.h>
#include <stdint.h>

#define RT_PROPERTIES_VERSION 1
/* RuntimeServicesSupported bits irqlab's run depends on. */
#define RT_SUPPORTED_GET_VARIABLE 0x0010u
#define RT_SUPPORTED_SET_VARIABLE 0x0040u
#define RT_SUPPORTED_RESET_SYSTEM 0x0400u
#define RT_SUPPORTED_QUERY_VARIABLE_INFO 0x2000u
/* Every service UEFI 2.8 defines a bit for (bits 0-13): what a firmware
 * that publishes no table offers. */
#define RT_SUPPORTED_ALL 0x3fffu

/* The table's bytes: Version (2), Length (2), RuntimeServicesSupported
 * (4). Returns 0 and the mask, or -1 for a table too short or of a
 * version irqlab does not know (then it goes by the services alone). */
int rt_properties_read(const uint8_t *table, size_t available,
		       uint32_t *supported);

/* Why a run cannot go ahead with these services after ExitBootServices,
 * or NULL when it can. Handing over in UEFI variables, phase B needs
 * QueryVariableInfo and SetVariable for the records and ResetSystem to
 * come back to phase C; each refusal names handoff = serial, which
 * measures anyway. With `over_serial` (handoff = serial) the results go
 * to COM1 and none of them is needed: the run powers off through
 * ResetSystem where it is offered, and halts where it is not
 * (docs/run.md "Firmware that cannot keep results"). */
const char *rt_properties_refusal(uint32_t supported, int over_serial);

#endif
