/* Where irqlab was loaded from and what a lab calls the machine
 * (firmware/netboot.c, docs/lab.md), from device paths as OVMF builds
 * them for its network boot options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/netboot.h"

/* PciRoot(0x0)/Pci(0x2,0x0): the NIC's place. */
#define PCI_ROOT 0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0, 0, 0, 0
#define PCI_2_0 0x01, 0x01, 0x06, 0x00, 0x00, 0x02
/* MAC(525400123456,0x1): 32 bytes of address, padded, then IfType. */
#define MAC_NODE 0x03, 0x0b, 0x25, 0x00, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0x01
/* IPv4(0.0.0.0,0x0,DHCP,0.0.0.0,0.0.0.0,0.0.0.0): OVMF's PXE option, the
 * 27-byte node; then 10.0.2.15 from 10.0.2.2, as after DHCP. */
#define IPV4_DHCP 0x03, 0x0c, 0x1b, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define IPV4_LEASED 0x03, 0x0c, 0x1b, 0x00, 10, 0, 2, 15, 10, 0, 2, 2, 0, 0, \
	0x45, 0, 0x11, 0, 0, 10, 0, 2, 2, 255, 255, 255, 0
#define END 0x7f, 0xff, 0x04, 0x00

static void ovmf_pxe_option_is_a_pxe_boot_from_its_mac(void **state)
{
	static const uint8_t path[] = { PCI_ROOT, PCI_2_0, MAC_NODE, IPV4_DHCP,
					END };
	struct boot_origin o;
	char name[64];

	(void)state;
	assert_int_equal(boot_origin_read(path, sizeof(path), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_PXE);
	assert_int_equal(o.if_type, 1);
	assert_int_equal(o.mac_len, 6);
	assert_int_equal(o.ip_version, 4);
	boot_origin_mac_name(&o, name, sizeof(name));
	assert_string_equal(name, "52-54-00-12-34-56");
	assert_string_equal(o.uri, "");
}

static void leased_addresses_are_read(void **state)
{
	static const uint8_t path[] = { PCI_ROOT, PCI_2_0, MAC_NODE,
					IPV4_LEASED, END };
	static const uint8_t local[4] = { 10, 0, 2, 15 };
	static const uint8_t remote[4] = { 10, 0, 2, 2 };
	static const uint8_t mask[4] = { 255, 255, 255, 0 };
	struct boot_origin o;

	(void)state;
	assert_int_equal(boot_origin_read(path, sizeof(path), &o), 0);
	assert_memory_equal(o.local_ip, local, 4);
	assert_memory_equal(o.remote_ip, remote, 4);
	assert_memory_equal(o.subnet, mask, 4);
}

/* UEFI HTTP boot: a URI node after the IP node (UEFI 2.10 §10.3.5.23),
 * its text not NUL-terminated in the node. */
static void a_uri_node_makes_it_http_boot(void **state)
{
	static const uint8_t path[] = { PCI_ROOT, PCI_2_0, MAC_NODE, IPV4_DHCP,
		0x03, 0x18, 0x1e, 0x00, 'h', 't', 't', 'p', ':', '/', '/',
		'1', '0', '.', '0', '.', '2', '.', '2', '/', 'i', 'r', 'q',
		'l', 'a', 'b', '.', 'e', 'f', 'i', END };
	struct boot_origin o;

	(void)state;
	assert_int_equal(boot_origin_read(path, sizeof(path), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_HTTP);
	assert_string_equal(o.uri, "http://10.0.2.2/irqlab.efi");
}

/* IPv6 PXE: the 60-byte node, its local address first. */
static void an_ipv6_node_is_read(void **state)
{
	uint8_t path[12 + 6 + 37 + 60 + 4] = { PCI_ROOT, PCI_2_0, MAC_NODE,
					       0x03, 0x0d, 60, 0 };
	static const uint8_t end[4] = { END };
	struct boot_origin o;

	(void)state;
	path[12 + 6 + 37 + 4] = 0xfe;
	path[12 + 6 + 37 + 5] = 0x80;
	memcpy(path + sizeof(path) - 4, end, 4);
	assert_int_equal(boot_origin_read(path, sizeof(path), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_PXE);
	assert_int_equal(o.ip_version, 6);
	assert_int_equal(o.local_ip[0], 0xfe);
	assert_int_equal(o.local_ip[1], 0x80);
}

/* A stick: PciRoot/Pci/HD(...)/\EFI\BOOT\BOOTX64.EFI, no MAC node; and
 * a NIC's own path, a MAC node with no IP after it, is no boot from it
 * either. */
static void a_disk_or_a_bare_nic_is_no_network_boot(void **state)
{
	static const uint8_t disk[] = { PCI_ROOT, PCI_2_0, 0x04, 0x01, 0x2a,
		0x00, 1, 0, 0, 0, 0x00, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
		0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
		15, 16, 0x02, 0x02, END };
	static const uint8_t nic[] = { PCI_ROOT, PCI_2_0, MAC_NODE, END };
	struct boot_origin o;

	(void)state;
	assert_int_equal(boot_origin_read(disk, sizeof(disk), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_DISK);
	assert_int_equal(o.mac_len, 0);
	assert_int_equal(boot_origin_read(nic, sizeof(nic), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_DISK);
}

static void malformed_paths_are_refused(void **state)
{
	static const uint8_t short_node[] = { PCI_ROOT, 0x01, 0x01, 0x02,
					      0x00, END };
	static const uint8_t past_end[] = { PCI_ROOT, 0x01, 0x01, 0x40, 0x00,
					    END };
	static const uint8_t no_end[] = { PCI_ROOT, PCI_2_0 };
	static const uint8_t short_mac[] = { PCI_ROOT, 0x03, 0x0b, 0x08, 0x00,
					     0x52, 0x54, 0x00, 0x12, END };
	static const uint8_t short_ipv4[] = { MAC_NODE, 0x03, 0x0c, 0x08, 0x00,
					      10, 0, 2, 15, END };
	struct boot_origin o;

	(void)state;
	assert_int_equal(boot_origin_read(short_node, sizeof(short_node), &o),
			 -1);
	assert_int_equal(boot_origin_read(past_end, sizeof(past_end), &o), -1);
	assert_int_equal(boot_origin_read(no_end, sizeof(no_end), &o), -1);
	assert_int_equal(boot_origin_read(short_mac, sizeof(short_mac), &o),
			 -1);
	assert_int_equal(boot_origin_read(short_ipv4, sizeof(short_ipv4), &o),
			 -1);
}

/* The nodes as UEFI before 2.4 built them: IPv4 in 19 bytes and IPv6 in
 * 43, without the gateway and mask; the addresses where they are now. */
static void the_older_ip_nodes_are_read(void **state)
{
	static const uint8_t v4[] = { MAC_NODE, 0x03, 0x0c, 19, 0x00, 10, 0, 2,
				      15, 10, 0, 2, 2, 0, 0, 0x45, 0, 0x11,
				      0, 0, END };
	uint8_t v6[37 + 43 + 4] = { MAC_NODE, 0x03, 0x0d, 43, 0 };
	static const uint8_t end[4] = { END };
	struct boot_origin o;

	(void)state;
	assert_int_equal(boot_origin_read(v4, sizeof(v4), &o), 0);
	assert_int_equal(o.ip_version, 4);
	assert_int_equal(o.remote_ip[3], 2);
	v6[37 + 4 + 16] = 0xfd;	/* the remote address's first byte */
	memcpy(v6 + sizeof(v6) - 4, end, 4);
	assert_int_equal(boot_origin_read(v6, sizeof(v6), &o), 0);
	assert_int_equal(o.ip_version, 6);
	assert_int_equal(o.remote_ip[0], 0xfd);
}

/* A URI longer than the field is cut and stays terminated; an IP node
 * before any MAC node is no network boot. */
static void a_long_uri_is_cut_and_an_ip_node_alone_is_no_boot(void **state)
{
	uint8_t path[37 + 4 + 300 + 4] = { MAC_NODE, 0x03, 0x18,
					   (4 + 300) & 0xff, (4 + 300) >> 8 };
	static const uint8_t ip_first[] = { IPV4_LEASED, MAC_NODE, END };
	static const uint8_t end[4] = { END };
	struct boot_origin o;

	(void)state;
	memset(path + 37 + 4, 'u', 300);
	memcpy(path + sizeof(path) - 4, end, 4);
	assert_int_equal(boot_origin_read(path, sizeof(path), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_HTTP);
	assert_int_equal(strlen(o.uri), BOOT_ORIGIN_URI_MAX - 1);
	assert_int_equal(boot_origin_read(ip_first, sizeof(ip_first), &o), 0);
	assert_int_equal(o.medium, BOOT_FROM_DISK);
	assert_int_equal(o.ip_version, 0);
}

/* DHCP options (RFC 2132): pads skipped, the server identifier (54)
 * found after another option, a missing one and a cut one refused. */
static void dhcp_options_are_found_by_code(void **state)
{
	static const uint8_t options[] = { 0, 0, 53, 1, 5, 54, 4, 10, 0, 2, 2,
					   255, 54, 4, 9, 9, 9, 9 };
	static const uint8_t cut[] = { 53, 1, 5, 54, 4, 10, 0 };
	uint8_t ip[4] = { 0 };

	(void)state;
	assert_int_equal(dhcp_option(options, sizeof(options), 54, ip, 4), 4);
	assert_memory_equal(ip, ((uint8_t[]){ 10, 0, 2, 2 }), 4);
	/* the end option ends the search: the 54 after it is not read */
	assert_int_equal(dhcp_option(options + 11, 7, 54, ip, 4), -1);
	assert_int_equal(dhcp_option(options, sizeof(options), 67, ip, 4), -1);
	assert_int_equal(dhcp_option(cut, sizeof(cut), 54, ip, 4), -1);
}

/* Option 66 names the TFTP server where it is a dotted IPv4 address,
 * with or without a counted NUL; a host name, a fifth part, a part over
 * 255 or an empty part is no address, and `out` is left alone. */
static void option_66_names_the_server_by_address(void **state)
{
	static const uint8_t plain[] = { 53, 1, 5, 66, 8, '1', '0', '.', '0',
					 '.', '2', '.', '4', 255 };
	static const uint8_t counted_nul[] = { 66, 12, '1', '9', '2', '.', '1',
					       '6', '8', '.', '1', '.', '9',
					       0, 255 };
	static const char *const refused[] = { "lab-server", "10.0.2.4.5",
					       "10.0.2.256", "10..2.4", "10.0.2.",
					       "1000.0.2.4", "10.0.2" };
	uint8_t ip[4] = { 0 }, option[40];
	size_t i, n;

	(void)state;
	assert_int_equal(dhcp_tftp_server(plain, sizeof(plain), ip), 0);
	assert_memory_equal(ip, ((uint8_t[]){ 10, 0, 2, 4 }), 4);
	assert_int_equal(dhcp_tftp_server(counted_nul, sizeof(counted_nul), ip),
			 0);
	assert_memory_equal(ip, ((uint8_t[]){ 192, 168, 1, 9 }), 4);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		n = strlen(refused[i]);
		option[0] = 66;
		option[1] = (uint8_t)n;
		memcpy(option + 2, refused[i], n);
		option[2 + n] = 255;
		memset(ip, 7, sizeof(ip));
		assert_int_equal(dhcp_tftp_server(option, n + 3, ip), -1);
		assert_memory_equal(ip, ((uint8_t[]){ 7, 7, 7, 7 }), 4);
	}
	assert_int_equal(dhcp_tftp_server(plain, 3, ip), -1);
}

/* The machine's folder: the SMBIOS UUID, its first three fields stored
 * little-endian (DSP0134 §7.2.1), as dmidecode prints it; the MAC where
 * the UUID is all 00h (not present) or all FFh (not set) or not given. */
static void the_machine_is_named_by_uuid_else_mac(void **state)
{
	static const uint8_t path[] = { MAC_NODE, IPV4_DHCP, END };
	static const uint8_t uuid[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44,
					  0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb,
					  0xcc, 0xdd, 0xee, 0xff };
	uint8_t unset[16];
	struct boot_origin o, none = { 0 };
	char name[64];

	(void)state;
	assert_int_equal(boot_origin_read(path, sizeof(path), &o), 0);
	assert_int_equal(lab_machine_name(uuid, &o, name, sizeof(name)), 0);
	assert_string_equal(name, "00112233-4455-6677-8899-aabbccddeeff");
	memset(unset, 0xff, sizeof(unset));
	assert_int_equal(lab_machine_name(unset, &o, name, sizeof(name)), 0);
	assert_string_equal(name, "mac-52-54-00-12-34-56");
	memset(unset, 0, sizeof(unset));
	assert_int_equal(lab_machine_name(unset, &o, name, sizeof(name)), 0);
	assert_string_equal(name, "mac-52-54-00-12-34-56");
	assert_int_equal(lab_machine_name(NULL, &o, name, sizeof(name)), 0);
	assert_string_equal(name, "mac-52-54-00-12-34-56");
	assert_int_equal(lab_machine_name(NULL, &none, name, sizeof(name)), -1);
	assert_string_equal(name, "");
	/* A name cut by a small buffer stays terminated. */
	assert_int_equal(lab_machine_name(uuid, &o, name, 9), 0);
	assert_string_equal(name, "00112233");
}

/* A stick's path under \EFI\irqlab\ as the lab's server names it: run
 * folders in the machine's folder, the rest beside the boot file. */
static void files_are_named_on_the_server_as_a_lab_files_them(void **state)
{
	char out[96];

	(void)state;
	assert_int_equal(lab_server_path("results\\run-20261205-091500\\results.json",
					 "irqlab/", "mac-52-54-00-12-34-56",
					 out, sizeof(out)), 0);
	assert_string_equal(out, "irqlab/mac-52-54-00-12-34-56/"
				 "run-20261205-091500/results.json");
	assert_int_equal(lab_server_path("results\\run-1\\acpi\\APIC.bin", "",
					 "m", out, sizeof(out)), 0);
	assert_string_equal(out, "m/run-1/acpi/APIC.bin");
	assert_int_equal(lab_server_path("report.tpl", "lab/", "m", out,
					 sizeof(out)), 0);
	assert_string_equal(out, "lab/report.tpl");
	/* Climbing, empty components, odd characters, no machine, no room. */
	assert_int_equal(lab_server_path("results\\..\\x", "", "m", out,
					 sizeof(out)), -1);
	assert_int_equal(lab_server_path("results\\run-1\\\\x", "", "m", out,
					 sizeof(out)), -1);
	assert_int_equal(lab_server_path("results\\run 1\\x", "", "m", out,
					 sizeof(out)), -1);
	assert_int_equal(lab_server_path("results\\run-1\\x", "", "", out,
					 sizeof(out)), -1);
	assert_int_equal(lab_server_path("results\\run-1\\x", "", "..", out,
					 sizeof(out)), -1);
	assert_int_equal(lab_server_path("report.tpl", "", "m", out, 10), -1);
	assert_int_equal(lab_server_path("report.tpl", "", "m", out, 11), 0);
}

/* HTTP boot's URI: the server's base and the boot file's folder. */
static void an_http_uri_splits_into_server_and_folder(void **state)
{
	char base[32], folder[16];

	(void)state;
	assert_int_equal(http_uri_split("http://10.77.0.1/irqlab.efi", base,
					sizeof(base), folder, sizeof(folder)),
			 0);
	assert_string_equal(base, "http://10.77.0.1/");
	assert_string_equal(folder, "");
	assert_int_equal(http_uri_split("HTTP://lab:8080/a/b/irqlab.efi", base,
					sizeof(base), folder, sizeof(folder)),
			 0);
	assert_string_equal(base, "HTTP://lab:8080/");
	assert_string_equal(folder, "a/b/");
	/* Refused: https, no host, no path, a folder or base too long. */
	assert_int_equal(http_uri_split("https://lab/irqlab.efi", base,
					sizeof(base), folder, sizeof(folder)),
			 -1);
	assert_int_equal(http_uri_split("http:///irqlab.efi", base,
					sizeof(base), folder, sizeof(folder)),
			 -1);
	/* A control character is no ':' or '/', whatever its bit 5. */
	assert_int_equal(http_uri_split("http:/\x0flab/irqlab.efi", base,
					sizeof(base), folder, sizeof(folder)),
			 -1);
	assert_int_equal(http_uri_split("http\x1a//lab/irqlab.efi", base,
					sizeof(base), folder, sizeof(folder)),
			 -1);
	assert_int_equal(http_uri_split("http://lab", base, sizeof(base),
					folder, sizeof(folder)), -1);
	assert_int_equal(http_uri_split("http://lab/0123456789abcdef/x.efi",
					base, sizeof(base), folder,
					sizeof(folder)), -1);
	assert_int_equal(http_uri_split("http://lab/a/x.efi", base, 11, folder,
					sizeof(folder)), -1);
	assert_int_equal(http_uri_split("http://lab/a/x.efi", base, 12, folder,
					sizeof(folder)), 0);
}

/* An IPv6 literal host in HTTP boot's URI (RFC 3986 §3.2.2): its
 * colons are the host's, not a port's. */
static void an_http_uri_with_an_ipv6_host_splits(void **state)
{
	char base[48], folder[16];

	(void)state;
	assert_int_equal(http_uri_split("http://[2001:db8:1ab::1]/lab/x.efi",
					base, sizeof(base), folder,
					sizeof(folder)), 0);
	assert_string_equal(base, "http://[2001:db8:1ab::1]/");
	assert_string_equal(folder, "lab/");
}

/* DHCPv6's options: 16-bit codes and lengths, big-endian; the zeros
 * that fill the rest of the firmware's 1024-byte buffer are empty
 * options, passed over. */
static void dhcpv6_options_are_found_by_code(void **state)
{
	static const uint8_t options[] = {
		0, 1, 0, 2, 0xaa, 0xbb,		/* client id, 2 bytes */
		0, 59, 0, 5, 't', 'f', 't', 'p', ':',	/* boot file URL */
		0, 0, 0, 0, 0, 0, 0, 0,		/* the buffer's fill */
	};
	static const uint8_t cut[] = { 0, 59, 0, 9, 't', 'f' };
	uint8_t out[8];

	(void)state;
	assert_int_equal(dhcp6_option(options, sizeof(options), 59, out,
				      sizeof(out)), 5);
	assert_memory_equal(out, "tftp:", 5);
	assert_int_equal(dhcp6_option(options, sizeof(options), 1, out, 1), 2);
	assert_int_equal(out[0], 0xaa);
	assert_int_equal(dhcp6_option(options, sizeof(options), 16, out,
				      sizeof(out)), -1);
	assert_int_equal(dhcp6_option(cut, sizeof(cut), 59, out, sizeof(out)),
			 -1);
}

/* IPv6 text both ways: RFC 4291 §2.2's forms in, RFC 5952 §4's out (the
 * longest zero run compressed, the first of two equal ones, a single
 * zero group left as "0"). */
static void ipv6_addresses_are_read_and_written(void **state)
{
	static const struct {
		const char *in, *out;
	} ok[] = {
		{ "2001:db8:1ab::1", "2001:db8:1ab::1" },
		{ "2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1" },
		{ "::", "::" },
		{ "::1", "::1" },
		{ "fe80::", "fe80::" },
		{ "1:0:0:2:0:0:0:3", "1:0:0:2::3" },
		{ "1:0:0:2:0:0:3:4", "1::2:0:0:3:4" },
		{ "1:2:3:4:5:6:0:8", "1:2:3:4:5:6:0:8" },
		{ "1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0" },
	};
	static const char *const refused[] = {
		"", ":", ":1::", "1:::2", "1::2::3", "12345::1", "1:2:3:4:5:6:7",
		"1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "1:", "g::1",
		"::10.0.0.1", "1:2:3:4:5:6:7:8:",
	};
	uint8_t a[16], b[16];
	char text[48];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(ipv6_parse(ok[i].in, strlen(ok[i].in), a), 0);
		ipv6_text(a, text, sizeof(text));
		assert_string_equal(text, ok[i].out);
		assert_int_equal(ipv6_parse(text, strlen(text), b), 0);
		assert_memory_equal(a, b, 16);
	}
	assert_int_equal(ipv6_parse("2001:db8::1", 11, a), 0);
	assert_memory_equal(a, ((uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0,
					     0, 0, 0, 0, 0, 0, 0, 0, 1 }), 16);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_int_equal(ipv6_parse(refused[i], strlen(refused[i]), a),
				 -1);
}

/* PXE over IPv6's boot file URL: the server by its address in
 * brackets, and the boot file's folder; a name, a port, IPv4 or another
 * scheme is refused. The URL's length is the option's, not a NUL. */
static void a_tftp_url_names_the_server_and_folder(void **state)
{
	static const char *const refused[] = {
		"tftp://lab/irqlab.efi", "tftp://[2001:db8::1]:69/irqlab.efi",
		"tftp://10.77.0.1/irqlab.efi", "http://[2001:db8::1]/x.efi",
		"tftp://[2001:db8::1]", "tftp://[]/x.efi",
		"tftp://[2001:db8::1/x.efi", "tftp://[2001:db8::1]/a/b/c/x.efi",
	};
	static const char counted[] = "tftp://[::1]/a/x.efiGARBAGE/";
	uint8_t server[16];
	char folder[6];
	size_t i;

	(void)state;
	assert_int_equal(tftp_url_split("TFTP://[2001:db8:1ab::1]/irqlab.efi",
					35, server, folder, sizeof(folder)), 0);
	assert_memory_equal(server, ((uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, 1,
						  0xab, 0, 0, 0, 0, 0, 0, 0, 0,
						  0, 1 }), 16);
	assert_string_equal(folder, "");
	assert_int_equal(tftp_url_split(counted, 20, server, folder,
					sizeof(folder)), 0);
	assert_string_equal(folder, "a/");
	assert_int_equal(server[15], 1);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_int_equal(tftp_url_split(refused[i], strlen(refused[i]),
						server, folder,
						sizeof(folder)), -1);
}

/* EFI_HTTP_STATUS_CODE's values to the numbers a server sent. */
static void http_status_codes_are_numbered(void **state)
{
	static const unsigned pairs[][2] = {
		{ 0, 0 }, { 1, 100 }, { 2, 101 }, { 3, 200 }, { 4, 201 },
		{ 7, 204 }, { 9, 206 }, { 10, 300 }, { 15, 305 }, { 16, 307 },
		{ 17, 400 }, { 20, 403 }, { 21, 404 }, { 30, 413 },
		{ 34, 417 }, { 35, 500 }, { 40, 505 }, { 41, 0 },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		assert_int_equal(http_status_number(pairs[i][0]), pairs[i][1]);
}

/* A Content-Length is its digits' value; anything else, an overflow
 * past INT64_MAX included, is no length (RFC 9112 §6.3 item 5). */
static void a_content_length_is_digits_that_fit(void **state)
{
	(void)state;
	assert_int_equal(http_content_length("0"), 0);
	assert_int_equal(http_content_length("4194304"), 4194304);
	assert_true(http_content_length("9223372036854775807") ==
		    INT64_MAX);
	assert_int_equal(http_content_length("9223372036854775808"), -1);
	assert_int_equal(http_content_length("99999999999999999999"), -1);
	assert_int_equal(http_content_length(""), -1);
	assert_int_equal(http_content_length("-1"), -1);
	assert_int_equal(http_content_length("12 "), -1);
	assert_int_equal(http_content_length("1,2"), -1);
}

/* A chunked config as the lab's relay sends it (tests/boot/http_relay.py),
 * with an extension and a trailer: whole only once its last chunk and
 * the empty line are in; decoded in place. */
static void a_chunked_body_is_decoded_once_whole(void **state)
{
	static const char whole[] =
		"10\r\nsamples = 200\nwa\r\n"
		"5;ext=1\r\nrmup \r\n"
		"4\r\n= 1\n\r\n"
		"0\r\nX-Trailer: yes\r\n\r\n";
	uint8_t b[sizeof(whole)];
	size_t n = sizeof(whole) - 1, cut;

	(void)state;
	memcpy(b, whole, n);
	assert_int_equal(http_chunked_length(b, n, 0), 25);
	/* every shorter prefix is not whole yet */
	for (cut = 0; cut < n; cut++)
		assert_int_equal(http_chunked_length(b, cut, 0), -1);
	assert_int_equal(http_chunked_length(b, n, 1), 25);
	assert_memory_equal(b, "samples = 200\nwarmup = 1\n", 25);

	memcpy(b, "0\r\n\r\n", 5);	/* an empty body */
	assert_int_equal(http_chunked_length(b, 5, 1), 0);
	memcpy(b, "zz\r\n", 4);	/* not a size */
	assert_int_equal(http_chunked_length(b, 4, 0), -1);
	memcpy(b, "3\r\nabcd\r\n0\r\n\r\n", 15);	/* longer than said */
	assert_int_equal(http_chunked_length(b, 15, 0), -1);
	memcpy(b, "ffffffffffffffffff\r\n", 20);	/* past size_t */
	assert_int_equal(http_chunked_length(b, 20, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ovmf_pxe_option_is_a_pxe_boot_from_its_mac),
		cmocka_unit_test(leased_addresses_are_read),
		cmocka_unit_test(a_uri_node_makes_it_http_boot),
		cmocka_unit_test(an_ipv6_node_is_read),
		cmocka_unit_test(a_disk_or_a_bare_nic_is_no_network_boot),
		cmocka_unit_test(malformed_paths_are_refused),
		cmocka_unit_test(the_older_ip_nodes_are_read),
		cmocka_unit_test(a_long_uri_is_cut_and_an_ip_node_alone_is_no_boot),
		cmocka_unit_test(dhcp_options_are_found_by_code),
		cmocka_unit_test(option_66_names_the_server_by_address),
		cmocka_unit_test(the_machine_is_named_by_uuid_else_mac),
		cmocka_unit_test(files_are_named_on_the_server_as_a_lab_files_them),
		cmocka_unit_test(an_http_uri_splits_into_server_and_folder),
		cmocka_unit_test(http_status_codes_are_numbered),
		cmocka_unit_test(an_http_uri_with_an_ipv6_host_splits),
		cmocka_unit_test(dhcpv6_options_are_found_by_code),
		cmocka_unit_test(ipv6_addresses_are_read_and_written),
		cmocka_unit_test(a_tftp_url_names_the_server_and_folder),
		cmocka_unit_test(a_content_length_is_digits_that_fit),
		cmocka_unit_test(a_chunked_body_is_decoded_once_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
