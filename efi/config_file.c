#include <efi.h>
#include <efilib.h>

#include "efi/config_file.h"
#include "efi/files.h"
#include "efi/network_files.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"

/* What reading irqlab.cfg found wrong, kept for the whole boot. */
static struct {
	char errors[2048], warnings[1024];
	struct config_problems p;
} config_read;

/* A problem list that filled its buffer says so, with the full count. */
static void log_problems(const char *kind, const struct text_buf *tb,
			 unsigned count)
{
	log_printf("config: %u %s in %s:\n%s", count, kind, CONFIG_PATH, tb->data);
	if (tb->overflow)
		log_printf("config: (the list above is cut short; %u %s in all)\n",
			   count, kind);
}

/* From the server irqlab was PXE- or HTTP-booted from: the machine's own file,
 * named by its MAC (boot_origin_mac_name), else the lab's. Returns the
 * length read or -1, and says which file it read. */
static INTN read_from_server(EFI_HANDLE image, char *text, UINTN cap)
{
	struct boot_origin o;
	struct lab_server server;
	char mac[100], path[256], from[300];
	INTN n = -1;

	if (files_boot_origin(image, &o) || o.medium == BOOT_FROM_DISK ||
	    lab_server_open(image, &server))
		return -1;
	boot_origin_mac_name(&o, mac, sizeof(mac));
	fmt_snprintf(path, sizeof(path), "%sirqlab-%s.cfg", server.folder, mac);
	if (mac[0])
		n = lab_server_read(&server, path, text, cap);
	if (n < 0) {
		fmt_snprintf(path, sizeof(path), "%sirqlab.cfg", server.folder);
		n = lab_server_read(&server, path, text, cap);
	}
	if (n >= 0) {
		lab_server_url(&server, path, from, sizeof(from));
		log_printf("config: read from the server irqlab was booted "
			   "from: %s\n", from);
	}
	return n;
}

/* Reads irqlab.cfg whole, or refuses it: a file over CONFIG_MAX_BYTES is
 * an error, never read in part. */
const struct config_problems *config_file_load(EFI_FILE_HANDLE root,
					       EFI_HANDLE image,
					       struct irqlab_config *c)
{
	static char text[CONFIG_MAX_BYTES + 1], described[2048];
	struct config_problems *p = &config_read.p;
	struct text_buf tb;
	INTN n;

	config_defaults(c);
	config_problems_init(p, config_read.errors, sizeof(config_read.errors),
			     config_read.warnings, sizeof(config_read.warnings));
	n = root ? files_read(root, CONFIG_PATH, text, sizeof(text)) : -1;
	if (n < 0)
		n = read_from_server(image, text, sizeof(text));
	if (n < 0) {
		log_printf("config: %s not found, using defaults\n", CONFIG_PATH);
		return p;
	}
	if (n > CONFIG_MAX_BYTES) {
		tb_printf(&p->errors, "the file is larger than %u bytes: refused "
			  "whole, not read in part\n", CONFIG_MAX_BYTES);
		p->n_errors++;
	} else {
		config_parse(c, text, (size_t)n, p);
	}
	if (p->n_warnings)
		log_problems("warning(s)", &p->warnings, p->n_warnings);
	if (p->n_errors)
		log_problems("error(s)", &p->errors, p->n_errors);
	tb_init(&tb, described, sizeof(described));
	config_describe(c, &tb);
	log_printf("config: %s\n", described);
	return p;
}
