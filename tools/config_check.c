/* irqlab-config: the config checked on the host, with the parser the
 * firmware runs (bench/model/config_parse.c), so that `make run` stops
 * on a config's errors before it boots, and each warning is said once.
 *
 *   irqlab-config FILE     the file's errors and warnings, a line each;
 *                          exit 1 where it has an error
 *   irqlab-config --names  every key, its default, and the numbers or
 *                          names it takes (`make names`) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/model/config_parse.h"

/* The firmware reads at most this much (docs/config.md). */
#define CONFIG_BYTES (16 * 1024)

static void print_names(void)
{
	struct irqlab_config c;
	char dflt[64];
	size_t i, n;

	config_defaults(&c);
	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];

		printf("%-18s default %s; ", k->name,
		       config_value_name(k, config_get(&c, k), dflt,
					 sizeof(dflt)));
		if (!k->choices) {
			printf("a number from %u to %u\n", k->min, k->max);
			continue;
		}
		printf("%s", k->list ? "a list of (or all):" : "one of:");
		for (n = 0; k->choices[n] && (k->list || n <= k->max); n++)
			printf(" %s", k->choices[n]);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	static char text[CONFIG_BYTES + 1], errors[8192], warnings[8192];
	struct config_problems p;
	struct irqlab_config c;
	size_t len;
	FILE *f;

	if (argc == 2 && !strcmp(argv[1], "--names")) {
		print_names();
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: irqlab-config FILE | --names\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	len = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (len > CONFIG_BYTES) {
		fprintf(stderr, "%s: over %d bytes: irqlab refuses it whole\n",
			argv[1], CONFIG_BYTES);
		return 1;
	}
	config_defaults(&c);
	config_problems_init(&p, errors, sizeof(errors), warnings,
			     sizeof(warnings));
	config_parse(&c, text, len, &p);
	if (p.n_warnings)
		fprintf(stderr, "%s: warning: %s", argv[1], warnings);
	if (p.n_errors) {
		fprintf(stderr, "%s: %u error(s), so irqlab would measure "
			"nothing; nothing is booted:\n%s", argv[1], p.n_errors,
			errors);
		return 1;
	}
	return 0;
}
