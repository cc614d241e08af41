#include "bench/report/handoff_records.h"

void handoff_json(struct json_writer *w, const struct run_result *r,
		  const struct handoff_report *h)
{
	uint32_t i;

	json_key(w, "handoff");
	json_begin_object(w);
	/* "serial": the blob came on the serial port, and irqlab-rescue --blob wrote
	 * the files; nothing went through the variable store. */
	json_kv_string(w, "route",
		       config_handoff_names[config_hands_over_serial(&r->config)
					    ? HANDOFF_BY_SERIAL
					    : HANDOFF_BY_VARIABLES]);
	json_kv_uint(w, "records_used", h ? h->records_used : 0);
	/* Resets the run took to hand everything over (r->part), and the
	 * plan row it stopped at where its parts could not all be kept. */
	json_kv_uint(w, "parts", r->part ? r->part : 1);
	json_kv_uint_or_null(w, "unmeasured_from_row", r->next_row);
	json_kv_uint(w, "row_histograms", r->n_hists);
	json_key(w, "discarded");
	json_begin_array(w);
	for (i = 0; h && i < h->n_discarded; i++) {
		json_begin_object(w);
		json_kv_string(w, "variable", h->discarded[i].name);
		json_kv_string(w, "fate",
			       record_fate_name(h->discarded[i].fate));
		json_kv_string(w, "why", h->discarded[i].why);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

void handoff_summary(struct text_buf *tb, const struct run_result *r)
{
	if (!config_hands_over_serial(&r->config))
		return;
	tb_printf(tb, "Handed over on serial (handoff = serial): the whole "
		  "run in one blob on the serial port, from which irqlab-rescue "
		  "--blob makes these files; nothing was written to the "
		  "variable store, and no later boot took part.\n\n");
}

void report_discards(struct text_buf *tb, const struct handoff_report *h)
{
	uint32_t i;

	if (!h || !h->n_discarded)
		return;
	tb_printf(tb, "\nHandoff records discarded (never shown as results):\n");
	for (i = 0; i < h->n_discarded; i++)
		tb_printf(tb, "  %-16s %-8s %s\n", h->discarded[i].name,
			  record_fate_name(h->discarded[i].fate),
			  h->discarded[i].why);
}
