/* libFuzzer harness for irqlab.cfg parsing (phase A and phase C both run
 * it): any bytes must parse without a crash, every key must end within
 * its limits, and the description of the result must fit its buffer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench/model/config_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char errors[1024], warnings[1024], described[1024];
	struct config_problems p;
	struct irqlab_config c;
	struct text_buf db;
	size_t i;

	config_defaults(&c);
	config_problems_init(&p, errors, sizeof(errors), warnings,
			     sizeof(warnings));
	config_parse(&c, (const char *)data, size, &p);
	for (i = 0; i < config_key_count; i++) {
		uint32_t v = config_get(&c, &config_keys[i]);

		if (v < config_keys[i].min || v > config_keys[i].max)
			abort();
	}
	tb_init(&db, described, sizeof(described));
	config_describe(&c, &db);
	if (db.overflow)
		abort();
	return 0;
}
