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

/* The table's bytes: Version (2), Length (2), RuntimeServicesSupported
 * (4). Returns 0 and the mask, or -1 for a table too short or of a
 * version irqlab does not know (then it goes by the services alone). */
int rt_properties_read(const uint8_t *table, size_t available,
		       uint32_t *supported);

/* Why a run cannot go ahead with these services after ExitBootServices
 * (phase B hands over with SetVariable after QueryVariableInfo, and
 * resets with ResetSystem), or NULL when it can. */
const char *rt_properties_refusal(uint32_t supported);

#endif
