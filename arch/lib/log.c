#include "arch/lib/log.h"

#include "arch/lib/fmt.h"

static log_sink current_sink;

void log_set_sink(log_sink sink)
{
	current_sink = sink;
}

void log_write(const char *text)
{
	if (current_sink)
		current_sink(text);
}

void log_status(const char *event, const char *format, ...)
{
	char line[512];
	va_list ap;
	int n;

	n = fmt_snprintf(line, sizeof(line), LOG_STATUS_PREFIX " %s ", event);
	va_start(ap, format);
	fmt_vsnprintf(line + n, sizeof(line) - (size_t)n - 1, format, ap);
	va_end(ap);
	log_write(line);
	log_write("\n");
}

void log_printf(const char *format, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, format);
	fmt_vsnprintf(line, sizeof(line), format, ap);
	va_end(ap);
	log_write(line);
}
