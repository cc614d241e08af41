#include "firmware/netboot.h"

#include "arch/lib/fmt.h"

/* Device path node types and subtypes (UEFI 2.10 §10.3). */
#define DP_END 0x7f
#define DP_END_ENTIRE 0xff
#define DP_MESSAGING 0x03
#define DP_MSG_MAC 11
#define DP_MSG_IPV4 12
#define DP_MSG_IPV6 13
#define DP_MSG_URI 24
/* Each node's length: its 4-byte header and fields. IPv4's grew from 19
 * to 27 bytes (gateway and mask) and IPv6's from 43 to 60 in UEFI 2.4;
 * the addresses are where they were. */
#define DP_HEADER 4
#define DP_MAC_LEN (DP_HEADER + 33)
#define DP_IPV4_MIN (DP_HEADER + 15)
#define DP_IPV4_MASK 23		/* the subnet mask's offset, UEFI 2.4 on */
#define DP_IPV6_MIN (DP_HEADER + 39)

/* The bytes of a MAC node's address: 6 for Ethernet (IfType 1) and IEEE
 * 802 (6); else the 32 less the zeros the node pads it with. */
static uint8_t mac_bytes(const uint8_t *mac, uint8_t if_type)
{
	uint8_t n = 32;

	if (if_type == 1 || if_type == 6)
		return 6;
	while (n > 6 && !mac[n - 1])
		n--;
	return n;
}

/* An IP node's local and remote addresses, `width` bytes each (4 for
 * IPv4, 16 for IPv6), the first of its fields. */
static void read_addresses(const uint8_t *fields, unsigned width,
			   struct boot_origin *out)
{
	unsigned i;

	for (i = 0; i < width; i++) {
		out->local_ip[i] = fields[i];
		out->remote_ip[i] = fields[width + i];
	}
	out->ip_version = width == 4 ? 4 : 6;
}

int boot_origin_read(const uint8_t *path, size_t available,
		     struct boot_origin *out)
{
	size_t off = 0, i;

	*out = (struct boot_origin){ 0 };
	while (off + DP_HEADER <= available) {
		const uint8_t *n = path + off;
		size_t len = (size_t)n[2] | (size_t)n[3] << 8;

		if (len < DP_HEADER || len > available - off)
			return -1;
		if (n[0] == DP_END && n[1] == DP_END_ENTIRE)
			break;
		if (n[0] == DP_MESSAGING && n[1] == DP_MSG_MAC) {
			if (len < DP_MAC_LEN)
				return -1;
			for (i = 0; i < 32; i++)
				out->mac[i] = n[DP_HEADER + i];
			out->if_type = n[DP_HEADER + 32];
			out->mac_len = mac_bytes(out->mac, out->if_type);
			out->medium = BOOT_FROM_PXE;
		} else if (n[0] == DP_MESSAGING && n[1] == DP_MSG_IPV4 &&
			   out->mac_len) {
			if (len < DP_IPV4_MIN)
				return -1;
			read_addresses(n + DP_HEADER, 4, out);
			for (i = 0; i < 4 && len >= DP_IPV4_MASK + 4; i++)
				out->subnet[i] = n[DP_IPV4_MASK + i];
		} else if (n[0] == DP_MESSAGING && n[1] == DP_MSG_IPV6 &&
			   out->mac_len) {
			if (len < DP_IPV6_MIN)
				return -1;
			read_addresses(n + DP_HEADER, 16, out);
		} else if (n[0] == DP_MESSAGING && n[1] == DP_MSG_URI &&
			   out->mac_len) {
			for (i = 0; i < len - DP_HEADER &&
				    i < BOOT_ORIGIN_URI_MAX - 1; i++)
				out->uri[i] = (char)n[DP_HEADER + i];
			out->uri[i] = '\0';
			out->medium = BOOT_FROM_HTTP;
		}
		off += len;
	}
	if (off + DP_HEADER > available)
		return -1;	/* no end node */
	/* A MAC node alone is a NIC's own path, not a boot from it. */
	if (!out->ip_version && out->medium != BOOT_FROM_HTTP)
		out->medium = BOOT_FROM_DISK;
	return 0;
}

void boot_origin_mac_name(const struct boot_origin *o, char *out, size_t cap)
{
	struct text_buf tb;
	uint8_t i;

	tb_init(&tb, out, cap);
	for (i = 0; i < o->mac_len && i < sizeof(o->mac); i++)
		tb_printf(&tb, "%s%02x", i ? "-" : "", o->mac[i]);
}

int dhcp_option(const uint8_t *options, size_t len, uint8_t code,
		uint8_t *out, size_t cap)
{
	size_t at = 0, i;

	while (at < len && options[at] != 255) {
		uint8_t c = options[at], n;

		if (c == 0) {
			at++;
			continue;
		}
		if (at + 1 >= len || at + 2 + options[at + 1] > len)
			return -1;
		n = options[at + 1];
		if (c == code) {
			for (i = 0; i < n && i < cap; i++)
				out[i] = options[at + 2 + i];
			return n;
		}
		at += 2 + (size_t)n;
	}
	return -1;
}

int dhcp_tftp_server(const uint8_t *options, size_t len, uint8_t out[4])
{
	uint8_t name[64], ip[4] = { 0 };
	int n = dhcp_option(options, len, 66, name, sizeof(name));
	int i, part = 0, digits = 0;
	unsigned value = 0;

	if (n <= 0 || n > (int)sizeof(name))
		return -1;
	/* Some servers count a terminating NUL in the option's length. */
	if (name[n - 1] == '\0')
		n--;
	for (i = 0; i <= n; i++) {
		if (i < n && name[i] >= '0' && name[i] <= '9') {
			value = value * 10 + (unsigned)(name[i] - '0');
			if (++digits > 3 || value > 255)
				return -1;
		} else if ((i == n || name[i] == '.') && digits && part < 4) {
			ip[part++] = (uint8_t)value;
			value = 0;
			digits = 0;
		} else {
			return -1;
		}
	}
	if (part != 4)
		return -1;
	for (i = 0; i < 4; i++)
		out[i] = ip[i];
	return 0;
}

/* Whether the 16 bytes are all `v`: DSP0134 §7.2.1's "not present"
 * (00h) and "not set" (FFh). */
static int all_bytes(const uint8_t *p, uint8_t v)
{
	unsigned i;

	for (i = 0; i < 16; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

int lab_machine_name(const uint8_t *uuid, const struct boot_origin *o,
		     char *out, size_t cap)
{
	char mac[100];

	if (uuid && !all_bytes(uuid, 0x00) && !all_bytes(uuid, 0xff)) {
		/* SMBIOS 2.6 and later store the first three fields
		 * little-endian (DSP0134 §7.2.1), as dmidecode reads them. */
		fmt_snprintf(out, cap, "%02x%02x%02x%02x-%02x%02x-%02x%02x-"
			     "%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[3],
			     uuid[2], uuid[1], uuid[0], uuid[5], uuid[4],
			     uuid[7], uuid[6], uuid[8], uuid[9], uuid[10],
			     uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
		return 0;
	}
	boot_origin_mac_name(o, mac, sizeof(mac));
	if (!mac[0]) {
		if (cap)
			out[0] = '\0';
		return -1;
	}
	fmt_snprintf(out, cap, "mac-%s", mac);
	return 0;
}

/* A component the server's remap takes: letters, digits, '.', '_', '-',
 * and not "." or "..". Returns its length, or 0 where refused. */
static size_t component_ok(const char *s, char end)
{
	size_t n = 0;

	for (; s[n] && s[n] != end; n++) {
		char c = s[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	if (n == 0 || (n == 1 && s[0] == '.') ||
	    (n == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	return n;
}

static int put(char *out, size_t cap, size_t *at, const char *s, size_t n)
{
	if (*at + n >= cap)
		return -1;
	for (size_t i = 0; i < n; i++)
		out[(*at)++] = s[i];
	out[*at] = '\0';
	return 0;
}

int lab_server_path(const char *rel, const char *folder, const char *machine,
		    char *out, size_t cap)
{
	static const char results[] = "results\\";
	size_t at = 0, n, i;

	if (!cap)
		return -1;
	out[0] = '\0';
	for (i = 0; folder[i]; i++)
		;
	if (put(out, cap, &at, folder, i))
		return -1;
	for (i = 0; results[i] && rel[i] == results[i]; i++)
		;
	if (!results[i]) {
		rel += i;
		n = component_ok(machine, '\0');
		if (!n || put(out, cap, &at, machine, n) ||
		    put(out, cap, &at, "/", 1))
			return -1;
	}
	for (;;) {
		n = component_ok(rel, '\\');
		if (!n || put(out, cap, &at, rel, n))
			return -1;
		rel += n;
		if (!*rel)
			return 0;
		rel++;	/* the '\\' */
		if (put(out, cap, &at, "/", 1))
			return -1;
	}
}

int dhcp6_option(const uint8_t *options, size_t len, uint16_t code,
		 uint8_t *out, size_t cap)
{
	size_t at = 0, i;

	while (at + 4 <= len) {
		uint16_t c = (uint16_t)(options[at] << 8 | options[at + 1]);
		size_t n = (size_t)options[at + 2] << 8 | options[at + 3];

		if (at + 4 + n > len)
			return -1;
		if (c == code) {
			for (i = 0; i < n && i < cap; i++)
				out[i] = options[at + 4 + i];
			return (int)n;
		}
		at += 4 + n;
	}
	return -1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int ipv6_parse(const char *text, size_t len, uint8_t out[16])
{
	uint16_t group[8];
	int groups = 0, gap = -1, i;
	size_t at = 0;

	if (len >= 2 && text[0] == ':' && text[1] == ':') {
		gap = 0;
		at = 2;
	}
	while (at < len) {
		unsigned value = 0, digits = 0;

		while (at < len && hex_digit(text[at]) >= 0 && digits <= 4) {
			value = value << 4 | (unsigned)hex_digit(text[at++]);
			digits++;
		}
		if (!digits || digits > 4 || groups == 8)
			return -1;
		group[groups++] = (uint16_t)value;
		if (at == len)
			break;
		if (text[at++] != ':' || at == len)
			return -1;	/* another character, or a ':' last */
		if (text[at] == ':') {
			if (gap >= 0)
				return -1;	/* a second "::" */
			gap = groups;
			at++;
		}
	}
	if (gap < 0 ? groups != 8 : groups > 7)
		return -1;
	for (i = 0; i < 16; i++)
		out[i] = 0;
	for (i = 0; i < groups; i++) {
		/* The groups after the gap are the address's last ones. */
		int to = gap >= 0 && i >= gap ? 8 - groups + i : i;

		out[2 * to] = (uint8_t)(group[i] >> 8);
		out[2 * to + 1] = (uint8_t)group[i];
	}
	return 0;
}

void ipv6_text(const uint8_t addr[16], char *out, size_t cap)
{
	struct text_buf tb;
	int best = -1, best_len = 1, run = 0, i;

	for (i = 0; i < 8; i++) {
		run = addr[2 * i] | addr[2 * i + 1] ? 0 : run + 1;
		if (run > best_len) {
			best_len = run;
			best = i - run + 1;
		}
	}
	tb_init(&tb, out, cap);
	for (i = 0; i < 8; i++) {
		if (i == best) {
			tb_printf(&tb, "::");
			i += best_len - 1;
			continue;
		}
		tb_printf(&tb, "%s%x", i && i != best + best_len ? ":" : "",
			  (unsigned)(addr[2 * i] << 8 | addr[2 * i + 1]));
	}
}

/* Where the parts of "SCHEME://HOST/PATH" are (RFC 3986 §3), in `len`
 * characters or up to a NUL: the host from `host` to `path`, the path's
 * first '/' at `path` and its last at `last`. */
struct url_parts {
	size_t host, path, last;
};

static int url_split(const char *url, size_t len, const char *scheme,
		     struct url_parts *p)
{
	size_t i;

	/* The scheme's letters in either case (RFC 3986 §3.1); ':' and '/'
	 * as they are, never a control character that '| 0x20' would turn
	 * into one (0FH into '/', found by fuzzing). */
	for (i = 0; scheme[i]; i++) {
		char c = i < len ? url[i] : 0;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c | 0x20);
		if (c != scheme[i])
			return -1;
	}
	p->host = i;
	while (i < len && url[i] && url[i] != '/')
		i++;
	p->path = p->last = i;
	if (p->path == p->host || i >= len || url[i] != '/')
		return -1;
	for (; i < len && url[i]; i++)
		if (url[i] == '/')
			p->last = i;
	return 0;
}

/* The boot file's folder: the path between its first '/' and its last,
 * that one kept. */
static int url_folder(const char *url, const struct url_parts *p,
		      char *folder, size_t cap)
{
	size_t i;

	if (p->last - p->path > cap - 1)
		return -1;
	for (i = p->path + 1; i <= p->last; i++)
		folder[i - p->path - 1] = url[i];
	folder[p->last - p->path] = '\0';
	return 0;
}

int tftp_url_split(const char *url, size_t len, uint8_t server[16],
		   char *folder, size_t folder_cap)
{
	struct url_parts p;

	if (url_split(url, len, "tftp://", &p) ||
	    p.path - p.host < 4 || url[p.host] != '[' ||
	    url[p.path - 1] != ']' ||
	    ipv6_parse(url + p.host + 1, p.path - p.host - 2, server))
		return -1;
	return url_folder(url, &p, folder, folder_cap);
}

int http_uri_split(const char *uri, char *base, size_t base_cap,
		   char *folder, size_t folder_cap)
{
	struct url_parts p;
	size_t i;

	if (url_split(uri, (size_t)-1, "http://", &p) ||
	    p.path + 2 > base_cap || url_folder(uri, &p, folder, folder_cap))
		return -1;
	for (i = 0; i <= p.path; i++)
		base[i] = uri[i];
	base[i] = '\0';
	return 0;
}

int64_t http_content_length(const char *value)
{
	int64_t n = 0;

	if (!*value)
		return -1;
	for (; *value; value++) {
		if (*value < '0' || *value > '9' ||
		    n > (INT64_MAX - (*value - '0')) / 10)
			return -1;
		n = n * 10 + (*value - '0');
	}
	return n;
}

unsigned http_status_number(unsigned code)
{
	static const struct {
		unsigned first_code, first_number, count;
	} runs[] = {
		{ 1, 100, 2 }, { 3, 200, 7 }, { 10, 300, 6 }, { 16, 307, 1 },
		{ 17, 400, 18 }, { 35, 500, 6 },
	};
	unsigned i;

	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		if (code >= runs[i].first_code &&
		    code < runs[i].first_code + runs[i].count)
			return runs[i].first_number + code - runs[i].first_code;
	return 0;
}

/* The offset just past the CRLF that ends the line at `at`, or 0. */
static size_t past_line(const uint8_t *b, size_t len, size_t at)
{
	for (; at + 1 < len; at++)
		if (b[at] == '\r' && b[at + 1] == '\n')
			return at + 2;
	return 0;
}

long http_chunked_length(uint8_t *body, size_t len, int decode)
{
	size_t at = 0, out = 0;

	for (;;) {
		size_t size = 0, digits = 0, next;
		int d;

		while (at < len && (d = hex_digit((char)body[at])) >= 0) {
			if (size > ((size_t)-1 >> 4) || digits++ > 15)
				return -1;
			size = size << 4 | (size_t)d;
			at++;
		}
		/* the size, then extensions (";name=value") to the line's end */
		if (!digits || !(next = past_line(body, len, at)))
			return -1;
		if (at < len && body[at] != '\r' && body[at] != ';' &&
		    body[at] != ' ' && body[at] != '\t')
			return -1;
		at = next;
		if (size == 0) {
			/* trailer fields, each a line, then an empty line */
			while (at + 1 < len &&
			       !(body[at] == '\r' && body[at + 1] == '\n')) {
				if (!(next = past_line(body, len, at)))
					return -1;
				at = next;
			}
			if (at + 1 >= len)
				return -1;
			return (long)out;
		}
		if (size > len - at || len - at - size < 2 ||
		    body[at + size] != '\r' || body[at + size + 1] != '\n')
			return -1;
		if (decode)
			for (next = 0; next < size; next++)
				body[out + next] = body[at + next];
		out += size;
		at += size + 2;
	}
}
