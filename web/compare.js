/* Several runs side by side (tools/compare.py fills the data): one table
 * with a column per run, as seed 000's machine columns, then the charts
 * overlaid per run. Runs whose units differ never share a chart. */
"use strict";

function findRow(doc, name) {
  return (doc.experiments || []).find((e) => e.name === name);
}

/* Whether a run's config chose this scheme and source (tools/compare.py
 * selected): a row it lacks is then "missing", else "not selected". */
function selected(doc, scheme, source) {
  const config = doc.config || {};
  const names = (key) => {
    const value = config[key] === undefined ? "all" : String(config[key]);
    return value === "all" ? null : value.split(",");
  };
  const chosen = (key, name) => names(key) === null ||
    names(key).includes(name);
  // i386-direct runs wherever an i386 scheme or variant does.
  const i386 = names("schemes") === null ||
    names("schemes").some((n) => n.startsWith("i386-")) ||
    names("variants") === null ||
    names("variants").some((n) => n === "ds-es" || n === "pda-gs");
  return (chosen("schemes", scheme) || scheme === "direct" ||
    (scheme === "i386-direct" && i386)) &&
    chosen("sources", source.split("@")[0]);
}

function compareTable(page, data, cpuMode, id) {
  const runs = data.runs, rows = [];
  for (const [source, scheme, name] of unionRows(runs, cpuMode)) {
    const row = [source, scheme];
    runs.forEach((r, i) => {
      const e = findRow(r.doc, name);
      if (!e) {
        row.push({ text: selected(r.doc, scheme, source) ? "missing" :
          "not selected", cls: "why" });
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
  // Each run's column names its unit: runs in different units are
  // side by side here, never in one chart.
  page.append(table(["source", "scheme"].concat(runs.map((r, i) =>
    "run " + (i + 1) + " (" + unitName(r.unit) + ")")), rows, { id }));
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

/* Per unit group and CPU mode, a chart per source: every scheme any run
 * has there, the union of the runs' rows, a bar per run that has it. */
function charts(page, data) {
  const byUnit = new Map();
  data.runs.forEach((r, i) => {
    if (!byUnit.has(r.unit))
      byUnit.set(r.unit, []);
    byUnit.get(r.unit).push(Object.assign({ index: i }, r));
  });
  for (const [unit, runs] of byUnit)
    for (const cpuMode of ["long", "protected-32"]) {
      const sources = new Map();
      for (const r of runs)
        for (const [source, group] of headlineGroups(r.doc, cpuMode)) {
          if (!sources.has(source))
            sources.set(source, []);
          for (const e of group)
            if (!sources.get(source).includes(e.scheme))
              sources.get(source).push(e.scheme);
        }
      const drawn = [...sources].filter(([, schemes]) => schemes.length > 1);
      if (!drawn.length)
        continue;
      section(page, "Round trips, per run: " + unit +
        (cpuMode === "long" ? "" : ", the i386 rows"),
        "Each scheme's median round trip, one bar per run that has it; " +
        "where a run has none, the bar's place says why (skipped, failed, " +
        "missing, not selected).");
      for (const [source, schemes] of drawn) {
        const rowOf = (r, s) => r.doc.experiments.find((x) =>
          x.scheme === s && x.source + (x.apic_mode === "x2apic" ?
            "@x2apic" : "") === source && !x.variant &&
          !x.name.startsWith("selftest-"));
        barChart(page, { title: source + (cpuMode === "long" ? "" :
          " (i386)"), unit: unit, axis: unitName(unit) },
        schemes, runs.map((r) => ({
          label: "run " + (r.index + 1),
          values: schemes.map((s) => {
            const e = rowOf(r, s);
            return e && e.status === "ok" ? median(e.round_trip) : null;
          }),
          gaps: schemes.map((s) => {
            const e = rowOf(r, s);
            return e ? e.status : selected(r.doc, s, source) ? "missing" :
              "not selected";
          }),
        })));
      }
    }
}

/* Files of your own entry code (docs/your-entry.md, tools/compare.py
 * print_yours): a table per file, its rows in every run that measured
 * it, each cell the figure and its round trip over that run's direct
 * row; above it, which file each run measured (SHA-256). */
function yoursTables(page, data) {
  const names = [];
  for (const r of data.runs)
    for (const f of r.doc.yours || [])
      if (!names.includes(f.name))
        names.push(f.name);
  if (!names.length)
    return;
  section(page, "Your entry code, per run",
    "Each file of ENTRY: median round trip (entry/exit), then its round " +
    "trip over the same run's direct row.");
  for (const name of names) {
    const files = data.runs.map((r) => (r.doc.yours || []).find((f) =>
      f.name === name));
    const first = files.find((f) => f);
    page.append(el("h3", { id: "compare-yours-" + name }, "yours: " + name));
    page.append(el("ul", { class: "note" }, ...files.map((f, i) =>
      el("li", {}, "run " + (i + 1) + ": " + (!f ? "not in this run" :
        f === first ? f.file + ", SHA-256 " + f.sha256 :
        f.sha256 === first.sha256 ? "the same file" :
        f.file + ", SHA-256 " + f.sha256 + ": NOT the same file")))));
    const rows = [];
    for (const f of files)
      for (const r of f ? f.rows : [])
        if (!rows.includes(r.experiment))
          rows.push(r.experiment);
    page.append(table(["row"].concat(data.runs.map((r, i) => "run " +
      (i + 1) + " (" + unitName(r.unit) + ")")), rows.map((x) =>
      [x].concat(files.map((f, i) => {
        const row = f && f.rows.find((r) => r.experiment === x);
        if (!row)
          return { text: f ? "not measured" : "not in this run", cls: "why" };
        const e = findRow(data.runs[i].doc, x);
        if (!e || row.status !== "ok")
          return { text: row.status, cls: "why " + row.status };
        const over = row.over_direct &&
          row.over_direct.round_trip_median_over;
        return { text: median(e.round_trip) + " (" + median(e.entry) + "/" +
          median(e.exit) + ")" + (over === null || over === undefined ? "" :
          " " + signed(over)), attrs: { "data-run": i, "data-row": x } };
      }))), { id: "compare-yours-table-" + name }));
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
    "have reads \u201cnot selected\u201d where its config did not choose " +
    "it, else \u201cmissing\u201d; a file of yours a run did not build " +
    "in reads \u201cnot in this run\u201d.");
  compareTable(page, data, "long", "compare-table");
  if (unionRows(data.runs, "protected-32").length) {
    section(page, "The i386 schemes, in 32-bit protected mode, per run",
      "The threads' i386 entry code, each against i386-direct on the same " +
      "source; these figures do not compare with the long-mode table's " +
      "rows (docs/protected-mode.md).");
    compareTable(page, data, "protected-32", "compare-i386-table");
  }
  yoursTables(page, data);
  charts(page, data);
})();
