/* Reading irqlab.cfg: its "key = value" lines applied to a struct
 * irqlab_config (the keys are bench/model/config.h's CONFIG_KEYS), and
 * what the file got wrong, so that phase A can stop before it measures
 * or carry the warnings into the results. Plain C only. */
#ifndef IRQLAB_BENCH_MODEL_CONFIG_PARSE_H
#define IRQLAB_BENCH_MODEL_CONFIG_PARSE_H

#include <stddef.h>

#include "arch/lib/fmt.h"
#include "bench/model/config.h"

/* Bytes in one line of the file; a longer line is an error. */
#define CONFIG_MAX_LINE 256

/* What a config file got wrong, one line each. Errors (a bad value, a line
 * that is not "key = value", an overlong line, a NUL byte) stop the run
 * before it measures; warnings (an unknown key) are reported and the key
 * ignored. The counts are exact even when a text buffer fills up. */
struct config_problems {
	struct text_buf errors;
	struct text_buf warnings;
	unsigned n_errors, n_warnings;
};

void config_problems_init(struct config_problems *p, char *errors,
			  size_t errors_cap, char *warnings, size_t warnings_cap);

/* Applies the text on top of what `c` holds; a line with a problem
 * changes nothing. Returns the number of errors. */
unsigned config_parse(struct irqlab_config *c, const char *text, size_t len,
		      struct config_problems *p);

/* The warnings as one line ("line 3: ...; line 9: ..."), cut with the
 * count of the rest when `cap` is too small: never silently. */
void config_warnings_note(const struct config_problems *p, char *out,
			  size_t cap);

#endif
