#include <efi.h>
#include <efilib.h>

#include "efi/http_link.h"

#include "arch/lib/fmt.h"
#include "efi/files.h"

/* EFI_HTTP_SERVICE_BINDING_PROTOCOL and EFI_HTTP_PROTOCOL (UEFI 2.10
 * §29.6.1, §29.6.2), which gnu-efi does not define: their GUIDs, and the
 * structures as the specification lays them out (its enums are C enums,
 * 32 bits). */
static EFI_GUID http_service_binding_guid = {
	0xbdc8e6af, 0xd9bc, 0x4379,
	{ 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c }
};
static EFI_GUID http_protocol_guid = {
	0x7a59b29b, 0x910b, 0x4171,
	{ 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b }
};

enum { HTTP_VERSION_11 = 1 };			/* EFI_HTTP_VERSION */
enum { HTTP_METHOD_GET = 0, HTTP_METHOD_PUT = 6 };	/* EFI_HTTP_METHOD */

struct http_v4_access_point {
	BOOLEAN use_default_address;
	EFI_IPv4_ADDRESS local_address, local_subnet;
	UINT16 local_port;
};

struct http_v6_access_point {
	EFI_IPv6_ADDRESS local_address;
	UINT16 local_port;
};

struct http_config {
	UINT32 version;
	UINT32 timeout_ms;
	BOOLEAN local_is_ipv6;
	void *access_point;	/* IPv4's or IPv6's, as local_is_ipv6 says */
};

struct http_request { UINT32 method; CHAR16 *url; };
struct http_response { UINT32 status_code; };
struct http_header { CHAR8 *name, *value; };

struct http_message {
	void *data;	/* a request, or a response, or NULL for more body */
	UINTN header_count;
	struct http_header *headers;
	UINTN body_length;
	void *body;
};

struct http_token {
	EFI_EVENT event;
	EFI_STATUS status;
	struct http_message *message;
};

struct efi_http;
typedef EFI_STATUS(EFIAPI *http_call)(struct efi_http *self, void *arg);

struct efi_http {
	http_call get_mode_data, configure, request, cancel, response;
	EFI_STATUS(EFIAPI *poll)(struct efi_http *self);
};

/* How long one exchange may wait on the network. */
#define EXCHANGE_MS 8000

int http_link_open(EFI_HANDLE image, const struct boot_origin *o,
		   struct http_link *l, char *folder, UINTN folder_cap)
{
	EFI_DEVICE_PATH *path = NULL;
	EFI_HANDLE nic = NULL, child = NULL;
	EFI_SERVICE_BINDING *binding = NULL;
	EFI_HANDLE device = files_loaded_device(image);
	const char *host;
	UINTN i;

	ZeroMem(l, sizeof(*l));
	if (!device || o->medium != BOOT_FROM_HTTP ||
	    (o->ip_version != 4 && o->ip_version != 6) ||
	    http_uri_split(o->uri, l->base, sizeof(l->base), folder,
			   folder_cap))
		return -1;
	/* The service binding sits on the NIC's handle, an ancestor of the
	 * one that loaded the image (MAC/IPv4/URI), as HTTP boot's own
	 * instance does (UEFI 2.10 §24.7). */
	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, device,
					&DevicePathProtocol, (void **)&path)) ||
	    EFI_ERROR(uefi_call_wrapper(BS->LocateDevicePath, 3,
					&http_service_binding_guid, &path,
					&nic)) ||
	    EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, nic,
					&http_service_binding_guid,
					(void **)&binding)) ||
	    EFI_ERROR(uefi_call_wrapper(binding->CreateChild, 2, binding,
					&child)) ||
	    EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, child,
					&http_protocol_guid, &l->http)))
		return -1;
	/* The address HTTP boot leased, as the loaded image's IP node
	 * holds it; where it holds none, the NIC's default. */
	l->ipv6 = o->ip_version == 6;
	CopyMem(&l->station, (void *)o->local_ip, sizeof(l->station));
	CopyMem(&l->subnet, (void *)o->subnet, sizeof(l->subnet));
	host = l->base + sizeof("http://") - 1;
	for (i = 0; host[i] && host[i] != '/' && i < sizeof(l->host) - 1; i++)
		l->host[i] = host[i];
	l->host[i] = '\0';
	return 0;
}

static VOID EFIAPI token_done(EFI_EVENT event, VOID *context)
{
	(void)event;
	*(volatile BOOLEAN *)context = TRUE;
}

/* Queues a request or response token and polls until it is done, or
 * cancels it after EXCHANGE_MS. */
static EFI_STATUS run_token(struct efi_http *h, http_call queue,
			    struct http_token *t)
{
	volatile BOOLEAN done = FALSE;
	EFI_STATUS st;
	UINTN ms;

	st = uefi_call_wrapper(BS->CreateEvent, 5, EVT_NOTIFY_SIGNAL,
			       TPL_CALLBACK, token_done, (void *)&done,
			       &t->event);
	if (EFI_ERROR(st))
		return st;
	t->status = EFI_NOT_READY;
	st = uefi_call_wrapper(queue, 2, h, t);
	for (ms = 0; !EFI_ERROR(st) && !done && ms < EXCHANGE_MS; ms++) {
		uefi_call_wrapper(h->poll, 1, h);
		uefi_call_wrapper(BS->Stall, 1, 1000);
	}
	if (!EFI_ERROR(st) && !done) {
		uefi_call_wrapper(h->cancel, 2, h, t);
		st = EFI_TIMEOUT;
	}
	uefi_call_wrapper(BS->CloseEvent, 1, t->event);
	return EFI_ERROR(st) ? st : t->status;
}

static int same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a | 0x20) != (*b | 0x20))
			return 0;
	return *a == *b;
}

/* Content-Length among a response's headers, -1 where there is none,
 * -2 where its value is no length (firmware/netboot.h
 * http_content_length: overflow included); whether Transfer-Encoding
 * says chunked; frees them all, as the caller must (UEFI 2.10
 * §29.6.2.6). */
static INT64 take_content_length(struct http_message *m, int *chunked)
{
	INT64 length = -1;
	UINTN i;

	for (i = 0; i < m->header_count; i++) {
		const char *v = (const char *)m->headers[i].value;

		if (v && m->headers[i].name &&
		    same_name((const char *)m->headers[i].name,
			      "Content-Length")) {
			length = http_content_length(v);
			if (length < 0)
				length = -2;
		}
		if (v && m->headers[i].name &&
		    same_name((const char *)m->headers[i].name,
			      "Transfer-Encoding") &&
		    same_name(v, "chunked"))
			*chunked = 1;
		if (m->headers[i].name)
			FreePool(m->headers[i].name);
		if (m->headers[i].value)
			FreePool(m->headers[i].value);
	}
	if (m->headers)
		FreePool(m->headers);
	m->headers = NULL;
	m->header_count = 0;
	return length;
}

/* One request on a fresh connection, its response's body into buf (up
 * to cap; with no buf, not read at all: a PUT's status is all it
 * tells), the connection closed after. A chunked body, which the
 * firmware hands over as it came (firmware/netboot.h
 * http_chunked_length), is read until its last chunk and decoded in
 * place; one of unknown length otherwise, until the firmware says it
 * has ended. Neither is ever taken as empty for want of a length. */
static EFI_STATUS exchange(const struct http_link *l, UINT32 method,
			   const char *path, const void *body, UINTN body_len,
			   void *buf, UINTN cap, UINTN *len, unsigned *status)
{
	struct efi_http *h = l->http;
	struct http_v4_access_point ap = { 0 };
	struct http_v6_access_point ap6 = { 0 };
	struct http_config config = { HTTP_VERSION_11, EXCHANGE_MS, l->ipv6,
				      l->ipv6 ? (void *)&ap6 : (void *)&ap };
	CHAR16 url[256];
	char text[256], length_text[24];
	struct http_header headers[2] = {
		{ (CHAR8 *)"Host", (CHAR8 *)l->host },
		{ (CHAR8 *)"Content-Length", (CHAR8 *)length_text },
	};
	struct http_request request = { method, url };
	struct http_response response = { 0 };
	struct http_message m = { &request, method == HTTP_METHOD_PUT ? 2 : 1,
				  headers, body_len, (void *)body };
	struct http_token t = { NULL, 0, &m };
	EFI_STATUS st;
	INT64 length;
	UINTN got, i;
	int chunked = 0;
	long data;

	*status = 0;
	*len = 0;
	/* IPv4's default address where the node holds none; IPv6's zero
	 * address lets the firmware choose (UEFI 2.10 §29.6.2.2). */
	ap.use_default_address = !(l->station[0] | l->station[1] |
				   l->station[2] | l->station[3]) ||
				 !l->subnet[0];
	CopyMem(&ap.local_address, l->station, 4);
	CopyMem(&ap.local_subnet, l->subnet, 4);
	CopyMem(&ap6.local_address, l->station, 16);
	/* A URL the request cannot hold is never cut to one it can: the
	 * caller says its length (efi/network_files.c). */
	if (fmt_snprintf(text, sizeof(text), "%s%s", l->base, path) >
	    HTTP_URL_MAX)
		return EFI_BAD_BUFFER_SIZE;
	for (i = 0; text[i] && i < HTTP_URL_MAX; i++)
		url[i] = (CHAR16)(unsigned char)text[i];
	url[i] = 0;
	fmt_snprintf(length_text, sizeof(length_text), "%llu",
		     (unsigned long long)body_len);
	uefi_call_wrapper(h->configure, 2, h, NULL);
	st = uefi_call_wrapper(h->configure, 2, h, &config);
	if (!EFI_ERROR(st))
		st = run_token(h, h->request, &t);
	if (EFI_ERROR(st))
		goto out;
	/* The status and headers first, no body: a response without one
	 * (PUT's 201) then ends here, where asking for a body would wait
	 * for the server to close. */
	m = (struct http_message){ &response, 0, NULL, 0, NULL };
	st = run_token(h, h->response, &t);
	*status = http_status_number(response.status_code);
	length = take_content_length(&m, &chunked);
	if (chunked)
		length = -1;	/* RFC 9112 §6.3: chunked overrides it */
	if (EFI_ERROR(st) && st != EFI_HTTP_ERROR)
		goto out;
	if (length == -2) {
		/* RFC 9112 §6.3 item 5: an invalid length is unrecoverable */
		st = EFI_PROTOCOL_ERROR;
		goto out;
	}
	got = 0;
	/* The body, as far as it fits: a message without data
	 * asks for more of the same response (§29.6.2.6). */
	while (buf && length != 0 && (length < 0 || got < (UINT64)length) &&
	       got < cap) {
		m = (struct http_message){ NULL, 0, NULL, cap - got,
					   (char *)buf + got };
		st = run_token(h, h->response, &t);
		if (EFI_ERROR(st) || !m.body_length)
			break;
		got += m.body_length;
		if (chunked && http_chunked_length(buf, got, 0) >= 0)
			break;
	}
	if (chunked && buf) {
		data = http_chunked_length(buf, got, 1);
		if (data >= 0) {
			got = (UINTN)data;
			st = EFI_SUCCESS;
		} else {
			st = got == cap ? EFI_BUFFER_TOO_SMALL
					: EFI_ERROR(st) ? st : EFI_DEVICE_ERROR;
		}
	}
	*len = got;
	if (*status == 404)
		st = EFI_NOT_FOUND;
	else if (*status < 200 || *status > 299)
		st = EFI_HTTP_ERROR;
	else if (!buf)
		st = EFI_SUCCESS;	/* a 2xx whatever its body */
	else if (chunked)
		;	/* whole and decoded, or why not, above */
	else if (length < 0 && got == cap)
		st = EFI_BUFFER_TOO_SMALL;	/* it may go on */
	else if (length < 0)
		/* the end of a body of unknown length: the driver's status
		 * when it ended, read as complete where anything came */
		st = got ? EFI_SUCCESS : st;
	else if (!EFI_ERROR(st) && (UINT64)length > cap)
		st = EFI_BUFFER_TOO_SMALL;
	else if (!EFI_ERROR(st) && got != (UINT64)length)
		st = EFI_DEVICE_ERROR;
out:
	uefi_call_wrapper(h->configure, 2, h, NULL);
	return st;
}

EFI_STATUS http_link_get(const struct http_link *l, const char *path,
			 void *buf, UINTN cap, UINTN *len, unsigned *status)
{
	return exchange(l, HTTP_METHOD_GET, path, NULL, 0, buf, cap, len,
			status);
}

EFI_STATUS http_link_put(const struct http_link *l, const char *path,
			 const void *data, UINTN len, unsigned *status)
{
	UINTN got;

	return exchange(l, HTTP_METHOD_PUT, path, data, len, NULL, 0, &got,
			status);
}
