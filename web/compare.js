/* Several runs side by side (tools/compare.py fills the data): one table
 * with a column per run, as seed 000's machine columns, then the charts
 * overlaid per run. Runs whose units differ never share a chart. */
"use strict";

function findRow(doc, name) {
  return (doc.experiments || []).find((e) => e.name === name);
}

function compareTable(page, data, cpuMode, id) {
  const runs = data.runs, rows = [];
  for (const [source, scheme, name] of unionRows(runs, cpuMode)) {
    const row = [source, scheme];
    runs.forEach((r, i) => {
      const e = findRow(r.doc, name);
      if (!e) {
        row.push({ text: "missing", cls: "why" });
        return;
      }
      if (e.status !== "ok") {
        row.push({ text: e.status, cls: "why " + e.status });
        return;
      }
      row.push({ text: median(e.round_trip) + " (" + median(e.entry) + "/" +
        median(e.exit) + ")", attrs: { "data-run": i, "data-row": name } });
    });
    rows.push(row);
  }
  page.append(table(["source", "scheme"].concat(runs.map((r, i) =>
    "run " + (i + 1))), rows, { id }));
}

/* Headline rows of every run in one CPU mode, in the first run's order. */
function unionRows(runs, cpuMode) {
  const seen = new Set(), out = [];
  for (const r of runs)
    for (const [source, group] of headlineGroups(r.doc, cpuMode))
      for (const e of group)
        if (!seen.has(e.name)) {
          seen.add(e.name);
          out.push([source, e.scheme, e.name]);
        }
  return out;
}

function charts(page, data) {
  const byUnit = new Map();
  data.runs.forEach((r, i) => {
    if (!byUnit.has(r.unit))
      byUnit.set(r.unit, []);
    byUnit.get(r.unit).push(Object.assign({ index: i }, r));
  });
  for (const [unit, runs] of byUnit) {
    section(page, "Round trips, per run: " + unit,
      "Each scheme's median round trip, one bar per run.");
    const sources = new Map();
    for (const r of runs)
      for (const [source, group] of headlineGroups(r.doc))
        if (group.filter((e) => e.status === "ok").length > 1)
          sources.set(source, group.map((e) => e.scheme));
    for (const [source, schemes] of sources) {
      barChart(page, source, schemes, runs.map((r) => ({
        label: "run " + (r.index + 1),
        values: schemes.map((s) => {
          const e = r.doc.experiments.find((x) => x.scheme === s &&
            x.source + (x.apic_mode === "x2apic" ? "@x2apic" : "") ===
            source && !x.variant);
          return e && e.status === "ok" ? median(e.round_trip) : null;
        }),
      })), unit.split(" (")[0]);
    }
  }
}

(function main() {
  const data = irqlabData(), page = document.getElementById("page");
  document.title = "irqlab: " + data.runs.length + " runs compared";
  page.append(el("h1", {}, "irqlab: " + data.runs.length + " runs compared"));
  page.append(el("ol", {}, ...data.runs.map((r) =>
    el("li", {}, r.label + ": " + r.unit))));
  if (data.problems.length) {
    page.append(el("div", { class: "unit", id: "problems" },
      ...data.problems.map((p) => el("div", {}, p))));
  }
  section(page, "Each scheme, per run",
    "Median round trip, and in brackets entry/exit. A row a run does not " +
    "have reads missing.");
  compareTable(page, data, "long", "compare-table");
  if (unionRows(data.runs, "protected-32").length) {
    section(page, "The i386 schemes, in 32-bit protected mode, per run",
      "The threads' i386 entry code, each against i386-direct on the same " +
      "source; these figures do not compare with the long-mode table's " +
      "rows (docs/protected-mode.md).");
    compareTable(page, data, "protected-32", "compare-i386-table");
  }
  charts(page, data);
})();
