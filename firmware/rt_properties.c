#include "firmware/rt_properties.h"

#include "arch/lib/le.h"

#define RT_PROPERTIES_BYTES 8

int rt_properties_read(const uint8_t *table, size_t available,
		       uint32_t *supported)
{
	uint16_t length;

	if (!table || available < RT_PROPERTIES_BYTES)
		return -1;
	length = (uint16_t)le_get(table + 2, 2);
	if (le_get(table, 2) != RT_PROPERTIES_VERSION ||
	    length < RT_PROPERTIES_BYTES)
		return -1;
	*supported = (uint32_t)le_get(table + 4, 4);
	return 0;
}

/* Said after each refusal: the choice that measures anyway. */
#define MEASURE_ANYWAY " (handoff = serial in irqlab.cfg measures anyway: " \
		       "the results go to COM1, for irqlab-rescue --blob)"

const char *rt_properties_refusal(uint32_t supported, int over_serial)
{
	if (over_serial)
		return 0;
	if (!(supported & RT_SUPPORTED_SET_VARIABLE))
		return "the firmware's EFI_RT_PROPERTIES_TABLE says SetVariable "
		       "is not offered after ExitBootServices: the results could "
		       "not be handed over to the next boot" MEASURE_ANYWAY;
	if (!(supported & RT_SUPPORTED_QUERY_VARIABLE_INFO))
		return "the firmware's EFI_RT_PROPERTIES_TABLE says "
		       "QueryVariableInfo is not offered after ExitBootServices: "
		       "phase B could not check the store's room before writing"
		       MEASURE_ANYWAY;
	if (!(supported & RT_SUPPORTED_RESET_SYSTEM))
		return "the firmware's EFI_RT_PROPERTIES_TABLE says ResetSystem "
		       "is not offered after ExitBootServices: the measured "
		       "machine could not be brought back to write the files"
		       MEASURE_ANYWAY;
	return 0;
}
