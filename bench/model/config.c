#include "bench/model/config.h"

const char *const config_finish_names[] = { "shutdown", "wait-key" };
const char *const config_handoff_names[] = { "variables", "serial" };
const char *const config_simulate_names[] = {
#define SIMULATE_NAME(id, name) name,
	SIMULATE_LIST(SIMULATE_NAME)
#undef SIMULATE_NAME
	NULL
};
const char *const config_cpu_names[] = {
	"auto", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11",
	"12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23",
	"24", "25", "26", "27", "28", "29", "30", NULL
};
const char *const config_matrix_rows_names[] = { "core", "all" };

const struct config_key config_keys[] = {
#define CONFIG_ROW(key, dflt, lo, hi, names, list)                         \
	{ #key, offsetof(struct irqlab_config, key), dflt, lo, hi, names,   \
	  list },
	CONFIG_KEYS(CONFIG_ROW)
#undef CONFIG_ROW
};
const size_t config_key_count = sizeof(config_keys) / sizeof(config_keys[0]);

void config_defaults(struct irqlab_config *c)
{
	size_t i;

	for (i = 0; i < config_key_count; i++)
		config_set(c, &config_keys[i], config_keys[i].dflt);
}

int config_selects(uint32_t value, const char *const *names,
		   const char *name)
{
	unsigned i;

	if (value == CONFIG_ALL)
		return 1;
	for (i = 0; names[i]; i++)
		if (str_eq(names[i], name))
			return (value >> i) & 1;
	return 0;
}

const char *config_value_name(const struct config_key *k, uint32_t v,
			      char *buf, size_t cap)
{
	struct text_buf tb;
	unsigned i;

	if (k->list) {
		if (v == CONFIG_ALL)
			return "all";
		if (!v)
			return "none";
		tb_init(&tb, buf, cap);
		for (i = 0; k->choices[i]; i++)
			if ((v >> i) & 1)
				tb_printf(&tb, "%s%s", tb.len ? "," : "",
					  k->choices[i]);
		return buf;
	}
	if (k->choices && v <= k->max)
		return k->choices[v];
	fmt_snprintf(buf, cap, "%u", v);
	return buf;
}

void config_describe(const struct irqlab_config *c, struct text_buf *tb)
{
	char number[CONFIG_VALUE_MAX];
	size_t i;

	for (i = 0; i < config_key_count; i++)
		tb_printf(tb, "%s%s=%s", i ? " " : "", config_keys[i].name,
			  config_value_name(&config_keys[i],
					    config_get(c, &config_keys[i]),
					    number, sizeof(number)));
}
