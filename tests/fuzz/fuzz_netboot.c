/* libFuzzer harness for the loaded image's device path (firmware/
 * netboot.c): whatever the firmware built, read as the network boot it
 * may be, and the names a lab gives the machine from it; the same bytes
 * as DHCP and DHCPv6 options, and as PXE over IPv6's boot file URL. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/netboot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct boot_origin o;
	char name[64], folder[16], text[48];
	uint8_t *copy, value[8], server[16], again[16];
	int n;

	/* An exact-size copy, so ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (boot_origin_read(copy, size, &o) == 0) {
		if (o.mac_len > sizeof(o.mac) || o.medium > BOOT_FROM_HTTP ||
		    memchr(o.uri, 0, sizeof(o.uri)) == NULL ||
		    (o.medium == BOOT_FROM_HTTP && !o.mac_len))
			abort();
		boot_origin_mac_name(&o, name, sizeof(name));
		if (memchr(name, 0, sizeof(name)) == NULL)
			abort();
		if (lab_machine_name(size >= 16 ? copy : NULL, &o, name,
				     sizeof(name)) == 0 && !name[0])
			abort();	/* a name that names nothing */
	}
	/* The same bytes as a DHCP packet's options. */
	n = dhcp_option(copy, size, 54, value, sizeof(value));
	if (n > 255)
		abort();
	n = dhcp6_option(copy, size, 59, value, sizeof(value));
	if (n > 65535 || (n >= 0 && (size_t)n + 4 > size))
		abort();
	/* A URL taken is an address written back as RFC 5952 text that
	 * reads as the same address, and a folder that ends in '/'. */
	if (tftp_url_split((const char *)copy, size, server, folder,
			   sizeof(folder)) == 0) {
		n = (int)strlen(folder);
		if (n && folder[n - 1] != '/')
			abort();
		ipv6_text(server, text, sizeof(text));
		if (ipv6_parse(text, strlen(text), again) ||
		    memcmp(server, again, 16))
			abort();
	}
	free(copy);
	return 0;
}
