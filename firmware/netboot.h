/* Where irqlab was loaded from, and what a lab's server calls the
 * machine (docs/lab.md). A network boot leaves it in the loaded image's
 * device path (UEFI 2.10 §10.3.5): a MAC address node, then an IPv4 or
 * IPv6 node, and for HTTP boot a URI node; a stick's path has a hard
 * drive and a file path node instead. */
#ifndef IRQLAB_FIRMWARE_NETBOOT_H
#define IRQLAB_FIRMWARE_NETBOOT_H

#include <stddef.h>
#include <stdint.h>

enum boot_medium {
	BOOT_FROM_DISK = 0,	/* no MAC address node: a stick, a disk */
	BOOT_FROM_PXE = 1,	/* MAC and IP, no URI: TFTP (PXE) */
	BOOT_FROM_HTTP = 2,	/* MAC, IP and a URI: UEFI HTTP boot */
};

#define BOOT_ORIGIN_URI_MAX 256

struct boot_origin {
	uint8_t medium;		/* enum boot_medium */
	uint8_t if_type;	/* the MAC node's IfType (RFC 1700: 1 Ethernet) */
	uint8_t mac_len;	/* the address's bytes in mac[] */
	uint8_t ip_version;	/* 4 or 6, 0 where no IP node follows */
	uint8_t mac[32];
	/* The node's local and remote addresses: IPv4's in the first 4
	 * bytes. Zero where the firmware recorded none (OVMF's PXE option
	 * holds 0.0.0.0: DHCP gives them only when it boots). */
	uint8_t local_ip[16];
	uint8_t remote_ip[16];
	/* An IPv4 node's subnet mask (UEFI 2.4 on), else zero. */
	uint8_t subnet[4];
	/* HTTP boot's URI, as the node holds it (not NUL-terminated there),
	 * cut at BOOT_ORIGIN_URI_MAX - 1. */
	char uri[BOOT_ORIGIN_URI_MAX];
};

/* Reads a device path of at most `available` bytes up to its end node
 * (type 7FH, subtype FFH). Returns 0, or -1 for a malformed path: a node
 * shorter than its header or than its subtype's fields, or one past
 * `available`, or no end node. */
int boot_origin_read(const uint8_t *path, size_t available,
		     struct boot_origin *out);

/* The MAC address as a lab names it: lowercase hex pairs joined by '-'
 * ("52-54-00-12-34-56"; pxelinux's names put the ARP type, "01-", first,
 * which irqlab's leave out). Empty
 * where there is none. */
void boot_origin_mac_name(const struct boot_origin *o, char *out, size_t cap);

/* DHCP option `code` in a DHCPv4 packet's options, the bytes after its
 * magic cookie (RFC 2132 §2: pad 0, end 255, else code, length, value):
 * copies up to `cap` bytes of its value to `out` and returns its length,
 * or -1 where it is absent or the options run past `len`. */
int dhcp_option(const uint8_t *options, size_t len, uint8_t code,
		uint8_t *out, size_t cap);

/* The TFTP server a DHCP packet names by address in option 66 ("TFTP
 * server name", RFC 2132 §9.4), as QEMU's user networking names one with
 * tftp-server-name: copies its four bytes to `out` and returns 0, or -1
 * where the option is absent or is not a dotted IPv4 address (a host
 * name is not looked up). */
int dhcp_tftp_server(const uint8_t *options, size_t len, uint8_t out[4]);

/* DHCPv6 option `code` among a DHCPv6 message's options (RFC 8415
 * §21.1: a 16-bit code and length, big-endian, then the value): copies
 * up to `cap` bytes of its value to `out` and returns its length, or -1
 * where it is absent or the options run past `len`. */
int dhcp6_option(const uint8_t *options, size_t len, uint16_t code,
		 uint8_t *out, size_t cap);

/* An IPv6 address in text (RFC 4291 §2.2: eight groups of up to four
 * hex digits, one "::" for a run of zero groups; the dotted IPv4 tail is
 * not taken), `len` characters of it, into its 16 bytes. Returns 0, or
 * -1 where it is not one. */
int ipv6_parse(const char *text, size_t len, uint8_t out[16]);

/* An IPv6 address as RFC 5952 §4 writes it: lowercase, no leading
 * zeros, the longest run of two or more zero groups (the first of
 * equals) as "::". */
void ipv6_text(const uint8_t addr[16], char *out, size_t cap);

/* A PXE boot over IPv6's boot file URL (DHCPv6 option 59, RFC 5970
 * §3.1), "tftp://[ADDRESS]/PATH", `len` characters of it: the server's
 * address into `server` and the boot file's folder into `folder` (empty,
 * or ending in '/'). Returns 0, or -1 for another scheme, a host that is
 * a name (irqlab looks up none) or has a port (the PXE base code's TFTP
 * speaks to port 69), or a folder that does not fit. */
int tftp_url_split(const char *url, size_t len, uint8_t server[16],
		   char *folder, size_t folder_cap);

/* HTTP boot's URI split for a lab (docs/lab.md): "http://HOST[:PORT]/"
 * (HOST a name, an IPv4 address, or an IPv6 one in brackets, RFC 3986
 * §3.2.2) into `base`, and the boot file's folder, the path between the
 * first '/' and the last, into `folder` (empty, or ending in '/'), as a
 * PXE boot file's folder is. Returns 0, or -1 for another scheme (https
 * is not spoken), an empty host, a URI without a path, or where a part
 * does not fit. */
int http_uri_split(const char *uri, char *base, size_t base_cap,
		   char *folder, size_t folder_cap);

/* A Content-Length header's value (RFC 9110 §8.6: 1*DIGIT), or -1 where
 * it is not one: empty, a character other than a digit, or past
 * INT64_MAX, which a length of a body cannot be. */
int64_t http_content_length(const char *value);

/* The longest URL the machine asks for over HTTP: its request's URL is
 * a CHAR16[256] (efi/http_link.c). */
#define HTTP_URL_MAX 255

/* The HTTP status number (RFC 9110 §15) of an EFI_HTTP_STATUS_CODE (UEFI
 * 2.10 §29.6.2.2: 0 unsupported, then 100, 101, 200-206, 300-305, 307,
 * 400-417, 500-505 in order), or 0 where it is none of them. */
unsigned http_status_number(unsigned code);

/* The machine's folder on the lab's server: the SMBIOS system UUID
 * (`uuid`, NULL where the firmware gives none; DSP0134 §7.2.1) in its
 * canonical text, else "mac-" and the MAC address's name. Returns 0, or
 * -1 where there is neither. */
int lab_machine_name(const uint8_t *uuid, const struct boot_origin *o,
		     char *out, size_t cap);

/* The lab's name on its server for a file irqlab keeps under
 * \EFI\irqlab\ on a stick, `rel` being the rest of its path: the run
 * folders under results\ go into the machine's folder, the rest (the
 * report template, the icount reference) is read from the boot file's
 * `folder` itself; '\' becomes '/'. "results\run-X\results.json" on
 * machine M is "<folder>M/run-X/results.json" (docs/lab.md). Returns 0,
 * or -1 where a component is empty, "." or "..", or holds a character
 * other than a letter, a digit, '.', '_' or '-' (the server's remap
 * refuses such names, image/serve.sh), or where `out` is too small. */
int lab_server_path(const char *rel, const char *folder, const char *machine,
		    char *out, size_t cap);

/* A body sent with the chunked transfer coding (RFC 9112 §7.1), as the
 * firmware's HTTP protocol hands it over: not decoded (edk2's HttpDxe
 * passes the chunks through; its HTTP boot decodes them itself). Returns
 * the length of its data, and with `decode` moves the data to the start
 * of `body` in place; -1 where the last chunk has not come yet, or the
 * chunk framing is malformed. */
long http_chunked_length(uint8_t *body, size_t len, int decode);

#endif
