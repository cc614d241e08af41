/* libFuzzer harness for JSON string escaping: machine names, firmware
 * vendors and reasons come from the machine, so any bytes must come out
 * as one valid JSON string (checked by the strict checker the unit tests
 * use, not by the writer's own idea of JSON). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/json.h"
#include "tests/unit/json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char in[4096], out[6 * 4096 + 64];
	struct json_writer w;
	struct text_buf tb;

	if (size >= sizeof(in))
		size = sizeof(in) - 1;
	memcpy(in, data, size);
	in[size] = '\0';
	tb_init(&tb, out, sizeof(out));
	json_init(&w, &tb);
	json_begin_object(&w);
	json_kv_string(&w, "s", in);
	json_end_object(&w);
	if (tb.overflow || !json_is_valid(out))
		abort();
	return 0;
}
