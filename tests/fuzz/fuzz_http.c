/* libFuzzer harness for what a lab's server sends the machine's network
 * code (firmware/netboot.c): a body in the chunked transfer coding, the
 * HTTP boot URI, a DHCP packet's options naming the TFTP server, an
 * EFI_HTTP_STATUS_CODE, a Content-Length header's value, and the
 * names the machine puts on the server
 * (docs/lab.md). The server may be any machine of the lab's network. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "firmware/netboot.h"

/* A text fits its buffer, NUL-terminated. */
static void terminated(const char *text, size_t cap)
{
	if (memchr(text, 0, cap) == NULL)
		abort();
}

/* lab_server_path's promise: no component empty, "." or "..", and only
 * letters, digits, '.', '_', '-' and the '/' between them. */
static void a_plain_path(const char *path)
{
	const char *p = path, *end;

	for (;;) {
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		if (end == p || (end - p == 1 && p[0] == '.') ||
		    (end - p == 2 && p[0] == '.' && p[1] == '.'))
			abort();
		for (; p < end; p++)
			if (!((*p >= '0' && *p <= '9') ||
			      (*p >= 'A' && *p <= 'Z') ||
			      (*p >= 'a' && *p <= 'z') || *p == '.' ||
			      *p == '_' || *p == '-'))
				abort();
		if (!*end)
			return;
		p = end + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy, *again, server[4];
	char *text, base[64], folder[32], path[96];
	long counted, decoded;
	int64_t length;
	unsigned status;

	/* Exact-size copies, so ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	again = malloc(size ? size : 1);
	text = malloc(size + 1);
	memcpy(copy, data, size);
	memcpy(again, data, size);
	memcpy(text, data, size);
	text[size] = 0;

	/* Counted and decoded agree, and the data fits the body. */
	counted = http_chunked_length(copy, size, 0);
	if (memcmp(copy, data, size))
		abort();	/* counting alone leaves the body as it came */
	decoded = http_chunked_length(again, size, 1);
	if (counted != decoded || counted < -1 || counted > (long)size)
		abort();

	if (http_uri_split(text, base, sizeof(base), folder,
			   sizeof(folder)) == 0) {
		terminated(base, sizeof(base));
		terminated(folder, sizeof(folder));
		if (strncasecmp(base, "http://", 7) ||
		    (folder[0] && folder[strlen(folder) - 1] != '/'))
			abort();
	}

	(void)dhcp_tftp_server(copy, size, server);

	memcpy(&status, data, size >= sizeof(status) ? sizeof(status) : 0);
	status = http_status_number(size >= sizeof(status) ? status : 0);
	if (status && (status < 100 || status > 599))
		abort();

	/* A length is the digits' value, or -1: never negative otherwise,
	 * never from anything but digits, and printed back the same. */
	length = http_content_length(text);
	if (length < -1)
		abort();
	if (length >= 0) {
		char again_text[24];

		snprintf(again_text, sizeof(again_text), "%lld",
			 (long long)length);
		if (strspn(text, "0123456789") != strlen(text) ||
		    strtoll(text, NULL, 10) != length ||
		    (text[0] != '0' && strcmp(again_text, text)))
			abort();
	}

	/* The bytes as a file's path on the stick and a machine's name:
	 * split at the first NUL, the server's path is plain or refused. */
	if (lab_server_path(text, "", text + strlen(text) + (strlen(text) < size),
			    path, sizeof(path)) == 0) {
		terminated(path, sizeof(path));
		a_plain_path(path);
	}
	free(text);
	free(again);
	free(copy);
	return 0;
}
