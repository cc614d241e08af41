#include "bench/report/report.h"

const struct report_output report_outputs[] = {
	{ "results.json", report_json },
	{ "summary.txt", report_summary },
	{ "report.html", report_html },
	{ "headline.txt", report_headline },
};

const size_t report_output_count =
	sizeof(report_outputs) / sizeof(report_outputs[0]);
