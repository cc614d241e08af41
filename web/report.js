/* One run's report: the answer first (each scheme's round trip, entry and
 * exit, and its overhead against `direct`, per source), then the charts,
 * then every row and the machine. Everything comes from the run's
 * results.json, embedded in the page; README "Reading the figures" says
 * what the figures mean. */
"use strict";

const METRICS = [["round_trip", "round trip"], ["entry", "entry"],
  ["exit", "exit"]];

/* "8 ok, 4 skipped" and ", N failed" where any failed: one kind of row
 * of results.json's row_counts. */
function statusWords(s) {
  return s.ok + " ok, " + s.skipped + " skipped" +
    (s.failed ? ", " + s.failed + " failed" : "");
}

/* The one count of rows (results.json's row_counts, README "Reading the
 * results"): the experiment rows lead, each other kind counted on its
 * own, each saying what it counts. */
function rowCounts(doc) {
  const c = doc.row_counts, e = c.experiments;
  const others = [];
  if (c.gap_rows.total)
    others.push(c.gap_rows.total + " gap rows (" + statusWords(c.gap_rows) +
      ")");
  if (c.primitives.total)
    others.push(c.primitives.total + " primitives (" +
      statusWords(c.primitives) + ")");
  if (c.between_cpus.total)
    others.push(c.between_cpus.total + (c.between_cpus.total === 1 ?
      " row" : " rows") + " between CPUs (" + statusWords(c.between_cpus) +
      ")");
  return el("p", { class: "counts", id: "counts" },
    el("span", { class: "ok" }, e.ok + " ok"),
    el("span", { class: "skipped" }, e.skipped + " skipped"),
    el("span", { class: "failed" }, e.failed + " failed"),
    "of the " + e.total + " experiment rows" + (c.i386_rows ? " (" +
      c.i386_rows + " in i386 mode)" : "") +
      " (a timeout counts as failed).",
    el("br"),
    (others.length ? "Counted apart: " + others.join(", ") + ". " : "") +
    (c.plan_rows ? "The plan had " + c.plan_rows + " rows, its " +
      "experiment and gap rows, measured or not" + (c.left_out ? " (" +
      c.left_out + " left no row: their APIC mode did not come up, or " +
      "the results table was full)" : "") +
      "; with the primitives, " + c.plan_steps + " steps." : "") +
    (c.parts > 1 ? " Measured in " + c.parts + " parts, a reset apart." :
      ""));
}

function header(page, doc) {
  const m = doc.machine, c = doc.clock;
  // What of the plan no file of this run has: first, in red.
  if (doc.row_counts.missing.length)
    page.append(el("div", { class: "alarm", id: "missing-rows" },
      "Not all measured: " + doc.row_counts.missing.join("; ") + "."));
  page.append(el("h1", {}, "irqlab on " + (m.brand || m.cpu_vendor)));
  page.append(el("p", { class: "sub" },
    m.cpu_vendor + ", family " + m.family + " model " + m.model +
    " stepping " + m.stepping +
    (m.hypervisor ? ", hypervisor " + m.hypervisor : ", no hypervisor") +
    "; firmware " + doc.firmware.vendor + " (UEFI " +
    doc.firmware.uefi_revision + "); run " + doc.run_id));
  page.append(el("div", { class: "unit", id: "unit" },
    "Clock: " + c.kind + ". Figures are " + c.unit +
    (c.figures_are_tsc_ticks && c.tsc_hz ? "; the TSC runs at " +
      (c.tsc_hz / 1e6).toFixed(1) + " MHz (" + c.tsc_hz_method +
      "), so nanoseconds are given beside ticks." : ".") +
    (leadsWithCycles(doc) ? " The answer is in core cycles, from the " +
      "performance counters in a pass of their own." :
      " Core cycles: " + (c.cycles ? c.cycles.state + " (" +
        c.cycles.counters + ")" : "not measured") +
      (c.cycles && c.cycles.state === "measured" && !c.figures_are_tsc_ticks
        ? "; the emulator's counters: a cycle is an instruction step, " +
          "not a cycle" : "") + ".")));
  // What the config had that was ignored: at the top, where it is read.
  if (doc.config_warnings)
    page.append(el("div", { class: "warning", id: "config-warnings" },
      "Config warnings (the run went on without these lines): " +
      doc.config_warnings));
  page.append(rowCounts(doc));
}

function overheads(doc) {
  const over = new Map();
  for (const a of doc.against_baseline)
    over.set(a.experiment, a);
  return over;
}

/* The answer, one table: a block of rows per source. */
function answer(page, doc) {
  section(page, "The answer",
    "Each scheme's median round trip (through handlers that take no " +
    "timestamps), entry and exit, and how much more each costs than " +
    "direct, the dedicated handler per vector, on the same source.");
  answerTable(page, doc, "long", "direct", "headline");
}

/* Your entry code (docs/your-entry.md), what a run of `make run
 * ENTRY=...` was made for: each file, what its listing holds, and each
 * of its rows against direct, the gate's floor, Linux's set and the
 * first file, in the figures the answer leads with. */
function yoursSection(page, doc) {
  const files = doc.yours || [];
  if (!files.length)
    return;
  const cycles = leadsWithCycles(doc);
  const overKey = (key) => (cycles ? "cycles_" : "") + key + "_median_over";
  section(page, "Your entry code",
    "Each file of ENTRY, assembled around direct's handler: its median " +
    "round trip, entry and exit, net of the floor, then each over the " +
    "same source's direct row, the gate's floor there, Linux's set " +
    "(linux, INT n only) and the first file. Unit: " + files[0].unit + ".");
  for (const f of files) {
    page.append(el("h3", { id: "yours-" + f.name }, "yours: " + f.name));
    page.append(el("p", { class: "note" }, f.file + " (SHA-256 " +
      f.sha256 + "): " + f.words + ". Its listing holds " +
      f.listing_instructions.entry + " instructions in the entry part and " +
      f.listing_instructions.exit + " in the exit part."));
    const over = (a, key) => (a && a[overKey(key)] !== null &&
      a[overKey(key)] !== undefined ? signed(a[overKey(key)]) : "");
    const rows = f.rows.map((r) => {
      const row = [r.experiment];
      if (r.status !== "ok")
        return row.concat([{ text: r.status + ": " + (r.reason || ""),
          cls: "why " + r.status, attrs: { colspan: 9 } }]);
      // A median the lead clock lacks is null: a blank cell.
      const fig = (v) => (v === null || v === undefined ? "" : v);
      return row.concat([fig(r.round_trip_median), fig(r.entry_median),
        fig(r.exit_median)].concat(METRICS.map(([key]) =>
        ({ text: over(r.over_direct, key),
          attrs: { "data-row": r.experiment, "data-metric": key +
            "_over_direct" } })), [over(r.over_gate, "round_trip"),
        over(r.over_linux, "round_trip"), over(r.over_first, "round_trip")]));
    });
    page.append(table(["row", "round trip", "entry", "exit",
      "round trip vs direct", "entry vs direct", "exit vs direct",
      "round trip above gate", "round trip vs linux",
      "round trip vs the first file"], rows, { id: "yours-table-" +
      f.name }));
  }
}

/* The seeds' i386 entry code, run in 32-bit protected mode: its own
 * table, against i386-direct. */
function i386Answer(page, doc) {
  if (!headlineGroups(doc, "protected-32").length)
    return;
  section(page, "The i386 schemes, in 32-bit protected mode",
    "The entry code the threads proposed for i386, as they wrote it, " +
    "each against i386-direct on the same source; these figures do not " +
    "compare with the long-mode table's rows (docs/protected-mode.md).");
  answerTable(page, doc, "protected-32", "i386-direct", "i386-headline");
}

/* Whether the answer is in core cycles: counted on a real CPU's
 * counters, never an emulator's, whose cycle is an instruction step
 * (docs/timing.md "Core cycles"). */
function leadsWithCycles(doc) {
  return doc.clock.lead_unit === "core cycles";
}

/* Each scheme's distance above the gate's floor, by row name. */
function aboveGate(doc) {
  return new Map((doc.above_gate || []).map((a) => [a.experiment, a]));
}

function answerTable(page, doc, cpuMode, floorName, id) {
  const over = overheads(doc), above = aboveGate(doc), rows = [];
  // Rows between CPUs whose figures are an emulator's scheduling, not
  // latencies (results.json's "latencies"), stay out of the answer, named
  // below it; an entry above its round trip is flagged where it stands.
  const leftOut = [], flagged = [];
  // The gate's floor (docs/long-mode.md), where it ran: one column more.
  const gated = cpuMode === "long" && above.size > 0;
  const cycles = leadsWithCycles(doc);
  const c = cycles ? null : doc.clock;
  const figures = (e) => (cycles ? e.cycles || {} : e);
  const overKey = (key) => (cycles ? "cycles_" : "") + key + "_median_over";
  for (const [source, group] of headlineGroups(doc, cpuMode)) {
    if (group.some((e) => e.latencies === false)) {
      leftOut.push([source, group.find((e) => e.between_cpus)]);
      continue;
    }
    for (const e of group) {
      const a = over.get(e.name);
      const row = [source, e.scheme];
      if (e.status !== "ok") {
        row.push({ text: e.status + ": " + (e.reason || ""), cls: "why " +
          e.status, attrs: { colspan: gated ? 7 : 6 } });
        rows.push(row);
        continue;
      }
      const flag = e.entry_above_round_trip;
      if (flag)
        flagged.push(e.name + " (entry " + median(figures(e).entry) +
          ", round trip " + median(figures(e).round_trip) + ")");
      for (const [key] of METRICS)
        row.push({ text: withNs(median(figures(e)[key]), c),
          cls: flag && key === "entry" ? "flagged" : undefined,
          attrs: { "data-row": e.name, "data-metric": key,
            title: flag && key === "entry" ? "entry above its round trip"
              : undefined } });
      for (const [key] of METRICS) {
        const v = a ? a[overKey(key)] : null;
        row.push(e.name === e.baseline ? "" : {
          text: v === null || v === undefined ? "" : signed(v),
          attrs: { "data-row": e.name, "data-metric": key + "_over" } });
      }
      if (gated) {
        const g = above.get(e.name);
        const v = g ? g[overKey("round_trip")] : null;
        row.push({ text: v === null || v === undefined ? "" : signed(v),
          attrs: { "data-row": e.name,
            "data-metric": "round_trip_above_gate" } });
      }
      rows.push(row);
    }
  }
  const unit = cycles ? " (core cycles)" : "";
  page.append(table(["source", "scheme", "round trip" + unit, "entry", "exit",
    "round trip vs " + floorName, "entry vs " + floorName,
    "exit vs " + floorName].concat(gated ? ["round trip above gate"] : []),
  rows, { id: id }));
  if (flagged.length)
    page.append(el("p", { class: "note flagged", id: id + "-flagged" },
      "Flagged: an entry above its round trip, so the two are not one " +
      "interrupt's parts here (they come from separate passes, the timed " +
      "and the bare handlers): " + flagged.join(", ") + "."));
  if (leftOut.length)
    page.append(el("p", { class: "note", id: id + "-left-out" },
      "Left out of this table: " + leftOut.map(([s]) => s).join(", ") +
      " (rows between CPUs): " + leftOut[0][1].between_cpus + ". They are " +
      "under Between CPUs and Every row."));
}

/* A chart per source where two schemes or more ran beside direct; where
 * none did (a config of direct alone), the section says so rather than
 * stand empty. */
function overheadCharts(page, doc) {
  const over = overheads(doc);
  const charted = headlineGroups(doc).map(([source, group]) => [source,
    group.filter((e) => e.status === "ok" && e.name !== e.baseline &&
      over.has(e.name))]).filter(([, rows]) => rows.length >= 2);
  section(page, "Overheads against direct", charted.length ?
    "Median entry, exit and round trip less direct's, per scheme, for " +
    "each source that runs every scheme. Unit: " + doc.clock.unit + "." :
    "No source ran two schemes or more beside direct (config: schemes = " +
    ((doc.config || {}).schemes || "all") + "), so there is nothing to chart; " +
    "the answer above has each figure.");
  for (const [source, rows] of charted) {
    barChart(page, { title: source + ": over direct", unit: doc.clock.unit,
      axis: unitName(doc.clock.unit) + " over direct" },
    rows.map((e) => e.scheme), METRICS.map(([key, label]) => ({
      label: label,
      values: rows.map((e) => over.get(e.name)[key + "_median_over"]),
    })));
  }
}

/* Each row's histograms of entry, exit and round trip, the schemes of one
 * source overlaid. A row whose histogram the handoff could not carry
 * (results.json says null) is drawn from its percentiles instead. Where
 * every scheme's histogram is one bucket, a table gives each scheme's
 * median, the figure results.json holds, never the bucket's lower edge
 * (a bucket [63,64] of samples that were all 64 read 63). */
function distributionCharts(page, doc) {
  const unit = doc.clock.unit;
  section(page, "Distributions",
    "Each row's histogram of round trip, entry and exit, with the schemes " +
    "of one source overlaid. Buckets are one tick wide below 64 and about " +
    "3% wide above. Unit: " + unit + ". Where every scheme's " +
    "histogram is a single bucket (as under -icount), a table gives each " +
    "scheme's median, in place of a chart of single bars.");
  let withoutHistogram = 0;
  const single = [];
  const oneBucket = (e, key) => e.histograms[key].length === 1;
  for (const [source, group] of headlineGroups(doc)) {
    const rows = group.filter((e) => e.status === "ok");
    if (!rows.length)
      continue;
    for (const [key, label] of METRICS) {
      const has = rows.filter((e) => e.histograms && e.histograms[key]);
      withoutHistogram += rows.length - has.length;
      if (has.length && has.every((e) => oneBucket(e, key)))
        single.push([source, label, { text: oneBucketFigures(has, key),
          cls: "l" }]);
      else if (has.length)
        histogramChart(page, { title: source + ": " + label, unit: unit,
          axis: unitName(unit), width: 540 }, has.map((e) => ({
          label: e.scheme, bins: e.histograms[key] })));
      else if (rows.length > 1)
        percentileChart(page, { title: source + ": " + label +
          " (percentiles)", unit: unit, axis: unitName(unit) },
        rows.map((e) => ({ label: e.scheme,
          values: PERCENTILES.map((p) => Math.max(e[key][p], 1)) })));
    }
  }
  if (single.length)
    page.append(table(["source", "figure", "each scheme's median (" +
      unitName(unit) + "); every sample of each in one bucket"], single,
    { id: "one-bucket" }));
  if (withoutHistogram)
    page.append(el("p", { class: "note", id: "histograms-left-out" },
      withoutHistogram + " row metric(s) have no histogram: the handoff's " +
      "variable budget had no room left for them (the serial log says so); " +
      "their percentiles are in the tables."));
}

/* The one-bucket table's cell: each scheme and its median, or where
 * results.json holds no median, its bucket's range, called a bucket. */
function oneBucketFigures(rows, key) {
  const cell = el("span");
  rows.forEach((e, i) => {
    const b = bin(e.histograms[key][0]), m = median(e[key]);
    if (i)
      cell.append(", ");
    cell.append(el("span", { "data-row": e.name, "data-metric": key },
      m === null || m === undefined ? e.scheme + ": bucket " + b.from +
        "-" + b.to : e.scheme + " " + m));
  });
  return cell;
}

function gapSection(page, doc) {
  const g = doc.gap_method;
  section(page, "The gap method (seed 000)", g.method + ".");
  const ok = g.rows.filter((r) => r.status === "ok");
  page.append(table(["scheme", "status", "gaps", "median cost", "p90",
    "loop iteration"], g.rows.map((r) => [r.scheme,
    { text: r.status, cls: r.status }, r.gaps || "",
    r.cost ? withNs(r.cost.median, doc.clock) : r.reason || "",
    r.cost ? r.cost.p90 : "", r.loop_iteration || ""])));
  if (ok.length)
    histogramChart(page, { title: "What an interrupt cost the " +
      "interrupted loop", unit: doc.clock.unit,
    axis: unitName(doc.clock.unit) },
    ok.map((r) => ({ label: r.scheme, bins: r.histogram })));
}

/* Entry variants, mitigations, cache states and the i386 variants: each
 * row against the row it varies, a chart per family, so each chart's
 * names are few and short. */
function variantSection(page, doc) {
  section(page, "Against each row's baseline",
    "Entry variants (seeds 002, 003), the mitigations, cache states (seed " +
    "000) and the i386 variants, each against the row it varies: a chart " +
    "per family. Unit: " + doc.clock.unit + ".");
  const over = overheads(doc), unit = doc.clock.unit;
  // Files of yours have their own section before the answer.
  const shown = doc.experiments.filter((e) => e.variant &&
    !e.variant.startsWith("yours-") && e.status === "ok" &&
    over.has(e.name));
  for (const [family, rows] of variantFamilies(doc, shown)) {
    const [shared, names] = withoutSharedParts(rows.map((e) => e.name));
    const series = METRICS.map(([key, label]) => ({ label: label,
      values: rows.map((e) => over.get(e.name)[key + "_median_over"]) }));
    // Bars of no length say nothing: a line says so (cache states under
    // -icount, where a flushed line costs no instruction).
    if (series.every((s) => s.values.every((v) => v === 0))) {
      page.append(el("p", { class: "note" }, family + ": each row's " +
        "entry, exit and round trip equal its baseline's (+0 " +
        unitName(unit) + "): " + rows.map((e) => e.name).join(", ") + "."));
      continue;
    }
    barChart(page, { title: family + (shared ? " (" + shared + ")" : ""),
      unit: unit, axis: unitName(unit) + " over its baseline" }, names,
    series);
  }
}

/* The varied rows by family: the entry variants (warm, then cold), the
 * mitigations the mitigations section names and Linux's set (warm, then
 * cold), each cache state alone (a row whose variant is its cache
 * state), and the i386 variants (32-bit protected mode); each family's
 * rows in the matrix's order. */
function variantFamilies(doc, rows) {
  const m = doc.mitigations, mitigation = new Set();
  for (const r of m ? m.rows.concat(m.linux ? [m.linux] : []) : [])
    mitigation.add(r.experiment);
  const families = new Map();
  const add = (name, e) => {
    if (!families.has(name))
      families.set(name, []);
    families.get(name).push(e);
  };
  for (const e of rows) {
    const cold = e.cache && e.variant !== e.cache;
    // A cold row's warm one: its name less "+cold".
    const warm = cold ? e.name.slice(0, -e.cache.length - 1) : e.name;
    if (e.cpu_mode === "protected-32")
      add("i386 variants", e);
    else if (e.cache && e.variant === e.cache)
      add("cache state: " + e.cache, e);
    else if (mitigation.has(warm))
      add(cold ? "mitigations, " + e.cache : "mitigations", e);
    else
      add(cold ? "entry variants, " + e.cache : "entry variants", e);
  }
  const order = (name) => ["entry variants", "mitigations",
    "cache state", "i386"].findIndex((f) => name.startsWith(f));
  return [...families].sort((a, b) => order(a[0]) - order(b[0]));
}

/* Names less what every one of them shares: a leading part up to a "+"
 * and a trailing part from one ("int-direct+" of "int-direct+gs-swapgs",
 * "+thrash" of "int-call+thrash"). Returns [the shared parts, as
 * "int-direct+...", the names left]. */
function withoutSharedParts(names) {
  const parts = names.map((n) => n.split("+"));
  let head = 0, tail = 0;
  const min = Math.min(...parts.map((p) => p.length));
  while (head < min - 1 && parts.every((p) => p[head] === parts[0][head]))
    head++;
  while (tail < min - 1 - head && parts.every((p) =>
    p[p.length - 1 - tail] === parts[0][parts[0].length - 1 - tail]))
    tail++;
  if (names.length < 2 || (!head && !tail))
    return ["", names];
  const first = parts[0];
  const shared = first.slice(0, head).concat(["..."],
    first.slice(first.length - tail)).join("+");
  return [shared, parts.map((p) => p.slice(head, p.length - tail)
    .join("+"))];
}

/* docs/mitigations.md: each sequence over its baseline, warm and cold,
 * whether this CPU needs it and the bit that says so, and Linux's set
 * here; a bar chart of the warm deltas. */
function mitigationSection(page, doc) {
  const m = doc.mitigations;
  if (!m || !m.rows.length)
    return;
  section(page, "Mitigations",
    "Each speculative-execution mitigation's sequence on the interrupt " +
    "path, over its baseline, warm and cold (gate, handler and descriptor " +
    "flushed before each sample); whether this CPU needs it, by " +
    m.rule + "'s rule" + (m.arch_capabilities ? " (IA32_ARCH_CAPABILITIES " +
      m.arch_capabilities + ")" : " (no IA32_ARCH_CAPABILITIES)") +
    ". Unit: " + m.unit + ".");
  const figures = (r) => r && r.status === "ok" && r.round_trip_median_over !==
    undefined ? [signed(r.entry_median_over), signed(r.exit_median_over),
      signed(r.round_trip_median_over)] :
    [{ text: r ? r.status + (r.reason ? ": " + r.reason : "") : "not run",
      cls: "why " + (r ? r.status : ""), attrs: { colspan: 3 } }];
  page.append(table(["sequence", "+entry", "+exit", "+round trip",
    "cold +entry", "+exit", "+round trip", "this CPU"],
  m.rows.map((r) => [r.variant].concat(figures(r), figures(r.cold),
    [{ text: r.decision + ": " + r.why, cls: "why" }])), { id: "mitigations" }));
  // Nothing taken: the row is its patched jump sites alone, "sites
  // only"; their cost stands on a line of its own (docs/mitigations.md).
  if (m.linux)
    page.append(el("p", { class: "note", id: "linux-set" },
      "Linux on this CPU (" + m.linux.steps +
      (m.linux.sites_only ? ": sites only" : "") + "): " +
      (m.linux.status === "ok" && m.linux.round_trip_median_over !==
        undefined ? signed(m.linux.entry_median_over) + " entry, " +
        signed(m.linux.exit_median_over) + " exit, " +
        signed(m.linux.round_trip_median_over) + " round trip over " +
        m.linux.baseline : m.linux.status + ": " + (m.linux.reason || "")) +
      "; " + m.linux.label + "."));
  if (m.linux && m.linux.status === "ok" && m.linux.sites)
    page.append(el("p", { class: "note", id: "linux-sites" },
      m.linux.sites.words.replace(/^./, (ch) => ch.toUpperCase()) + "."));
  const f = m.idt_against_fred;
  if (f && f.fred_less_idt !== null && f.fred_less_idt !== undefined)
    page.append(el("p", { class: "note", id: "idt-against-fred" },
      f.label + ": " + f.idt_row.experiment + " " + f.idt_row.round_trip + ", " +
      f.fred_row.experiment + " " + f.fred_row.round_trip + ", FRED " +
      signed(f.fred_less_idt) + "."));
  else if (f && f.fred_row)
    page.append(el("p", { class: "note", id: "idt-against-fred" },
      "IDT against FRED not compared: " + f.fred_row.experiment + " " +
      f.fred_row.status + (f.fred_row.reason ? ": " + f.fred_row.reason :
        "") + "."));
  page.append(table(["decision", "needed", "on every interrupt", "why"],
    m.decisions.map((d) => [d.name, d.needed ? "yes" : "no",
      d.per_interrupt ? "yes" : "no", { text: d.why, cls: "why" }]),
  { id: "linux-decisions" }));
  const ran = m.rows.filter((r) => r.status === "ok" &&
    r.round_trip_median_over !== undefined);
  if (ran.length)
    barChart(page, { title: "each mitigation over its baseline",
      unit: m.unit, axis: unitName(m.unit) + " over its baseline" },
    ran.map((r) => r.variant), METRICS.map(([key, label]) => ({
      label: label,
      values: ran.map((r) => r[key + "_median_over"]),
    })));
}

function primitivesSection(page, doc) {
  const p = doc.primitives;
  section(page, "Primitives", "Blocks of " + p.reps_per_block +
    " repetitions; the median block and its cost per repetition.");
  page.append(table(["primitive", "seed", "status", "median block",
    "per repetition", "what"], p.rows.map((r) => [r.name, r.seed,
    { text: r.status, cls: r.status },
    r.block ? withNs(r.block.median, doc.clock) : "",
    r.median_per_rep !== undefined ? r.median_per_rep : "",
    { text: r.status === "ok" ? r.description : r.reason, cls: "why" }])));
}

/* Between CPUs (docs/cross-cpu.md): each relation's median, why rows
 * were not measured, and the acknowledged matrix as a heatmap by APIC
 * id, its colour from the fastest pair (green) to the slowest (red). */
function crossCpuSection(page, doc) {
  const x = doc.cross_cpu;
  if (!x || !x.rows.length)
    return;
  section(page, "Between CPUs", "In " + x.unit + ": " + x.figures + ".");
  const byRelation = [];
  for (const [kind, rels] of Object.entries(x.by_relation))
    for (const [rel, v] of Object.entries(rels))
      byRelation.push([kind, rel, withNs(v.median, doc.clock), v.rows]);
  if (byRelation.length)
    page.append(table(["kind", "relation", "median", "rows"], byRelation,
      { id: "cross-relations" }));
  const reasons = new Map();
  for (const r of x.rows.filter((r) => r.status !== "ok")) {
    const why = r.kind + ": " + r.status + ": " + r.reason;
    reasons.set(why, (reasons.get(why) || 0) + 1);
  }
  for (const [why, n] of reasons)
    page.append(el("p", { class: "note" }, why + " (" + n + " row(s))"));
  const m = x.matrix;
  if (!m || m.cpus.length < 2)
    return;
  const ack = m.columns.indexOf("ipi-ack");
  const cells = new Map(m.cells.map((c) => [c[0] + ">" + c[1], c]));
  /* The full matrix's processors; those past it are measured against a
   * few each (docs/cross-cpu.md "Past 64"), listed after the heatmap. */
  const full = m.cpus.filter((c) => c.full);
  const isFull = new Set(full.map((c) => c.apic_id));
  const medians = m.cells.filter((c) => isFull.has(c[0]) &&
    isFull.has(c[1])).map((c) => c[ack])
    .filter((v) => typeof v === "number");
  const lo = Math.min(...medians), hi = Math.max(...medians);
  /* Past 16 processors the figures go into each cell's title, and the
   * cells shrink to squares: 64 x 64 stays within the page, and past 64
   * (cpus = all) smaller ones keep 128 x 128 within it. */
  const small = full.length > 16;
  const heat = el("table", { id: "cross-heatmap",
    class: !small ? "heat" : full.length > 64 ? "heat-small heat-tiny"
      : "heat-small" });
  heat.append(el("tr", {}, el("th", {}, "sender \\ target"),
    ...full.map((c, k) => el("th", { title: "APIC id " + c.apic_id },
      small && k % 8 ? "" : String(c.apic_id)))));
  full.forEach((s, i) => {
    const tr = el("tr", {}, el("th", {}, String(s.apic_id)));
    full.forEach((t, j) => {
      const c = cells.get(s.apic_id + ">" + t.apic_id);
      if (!c || typeof c[ack] !== "number") {
        tr.append(el("td", { title: c ? c[ack] : "" },
          i === j ? "-" : "?"));
        return;
      }
      const f = hi > lo ? (c[ack] - lo) / (hi - lo) : 0;
      /* a package's or a last-level cache's edge, drawn */
      const edge = j > 0 && (t.package !== full[j - 1].package ||
        t.llc !== full[j - 1].llc) ? " edge" : "";
      tr.append(el("td", { "data-sender": s.apic_id,
        "data-target": t.apic_id, "data-relation": c[2],
        class: edge.trim(),
        title: s.apic_id + " -> " + t.apic_id + ": " + c[ack] + " (" +
          c[2] + ")",
        style: "background: hsl(" + Math.round(120 * (1 - f)) +
          ", 70%, 80%)" }, small ? "" : String(c[ack])));
    });
    heat.append(tr);
  });
  page.append(el("h3", {}, "ipi-ack medians, sender (row) to target " +
    "(column), in topology order (ascending APIC id: package, last-level " +
    "cache, core), " + m.samples_per_pair + " samples a pair"), heat);
  if (small)
    page.append(el("p", { class: "note" }, "Green is the fastest pair (" +
      lo + "), red the slowest (" + hi + "); each cell's title gives " +
      "its figure and relation."));
  /* What the matrix lacks: pairs measured that no handoff could hold,
   * and senders a run in parts never reached. */
  if (m.cells_dropped)
    page.append(el("p", { class: "note", id: "cross-dropped" },
      m.cells_dropped + " pair(s) of the last senders were measured but " +
      "did not fit the handoff: not in the matrix."));
  if (m.unfinished_from_sender !== null &&
    m.unfinished_from_sender !== undefined)
    page.append(el("p", { class: "note", id: "cross-unfinished" },
      "The matrix stopped before its sender " +
      (m.unfinished_from_sender + 1) + " of " + m.cpus.length +
      ": its later senders were never measured."));
  const past = m.cpus.filter((c) => !c.full);
  if (!past.length)
    return;
  const figure = (c) => c && typeof c[ack] === "number" ? String(c[ack])
    : "?";
  page.append(el("h3", {}, past.length + " processors past the full " +
    "matrix of " + full.length + ", each against the boot CPU and one " +
    "processor of each relation: ipi-ack medians to and from"),
  table(["APIC id", "against: relation, APIC id, to / from"],
    past.map((p) => [String(p.apic_id), m.cells
      .filter((c) => c[0] === p.apic_id)
      .map((c) => c[2] + " " + c[1] + ": " + figure(c) + " / " +
        figure(cells.get(c[1] + ">" + p.apic_id))).join("; ")]),
    { id: "cross-past-full" }));
}

/* The rows run again on other processors, each in the boot CPU's place
 * (docs/cross-cpu.md "The matrix on another processor"): P against E
 * on a hybrid CPU, side by side, as medians over the boot CPU's. */
function otherCpusSection(page, doc) {
  const rows = doc.matrix_on_other_cpus || [];
  if (!rows.length)
    return;
  section(page, "On other processors", "Rows run again on another " +
    "processor while the boot CPU halts: its medians over the boot " +
    "CPU's, in " + doc.clock.unit + ", each net of the floor measured " +
    "on its own processor.");
  page.append(table(["row", "CPU", "core type", "boot CPU's", "entry",
    "exit", "round trip", "status"], rows.map((r) => [r.row, r.cpu,
    r.core_type, r.boot_core_type || "", r.entry_over_boot ?? "",
    r.exit_over_boot ?? "", r.round_trip_over_boot ?? "",
    { text: r.status === "ok" ? r.status : r.status + ": " + r.reason,
      cls: r.status }]), { id: "other-cpus" }));
}

function footprintSection(page, doc) {
  section(page, "Footprint", "Each scheme's code, from the binary.");
  page.append(table(["scheme", "seed", "stub bytes", "code bytes",
    "cache lines", "data bytes", "what"], doc.schemes.map((s) => [s.name,
    s.seed, s.stub_bytes, s.code_bytes, s.code_cache_lines, s.data_bytes,
    { text: s.description, cls: "why" }])));
}

function seedsSection(page, doc) {
  section(page, "The seed threads",
    "Each thread's own figures beside this machine's, and its claim.");
  for (const [key, s] of Object.entries(doc.seeds)) {
    page.append(el("h3", {}, s.title));
    page.append(el("p", { class: "note" }, "Claim: " + s.claim +
      ". Verdict: " + s.verdict + "."));
    if (s.rows)
      page.append(table(["", "from", "figure", "this machine",
        "the thread (" + (s.seed_figures || "") + ")"],
      s.rows.map((r) => [r.label, r.from, r.figure,
        r.this_machine === null || r.this_machine === undefined ? "" :
          r.this_machine, r.seed || ""]), { "data-seed": key }));
  }
}

/* Each row's path length against the icount reference on the stick
 * (docs/timing.md "The path length, checked"). */
function pathLengthSection(page, doc) {
  const p = doc.path_length;
  if (!p)
    return;
  section(page, "Path length against the emulator",
    p.state === "compared" ?
      "Instructions per round trip here equal QEMU -icount's for " +
      p.equal + " of " + p.compared + " rows; counts from " +
      p.counts_from + "." :
      "Not compared (" + p.state + "): " + p.reason + ".");
  if (p.state === "compared" && p.differences.length)
    page.append(table(["row", "here", "reference", "difference"],
      p.differences.map((d) => [d.row, d.here, d.reference,
        signed(d.here - d.reference)]), { id: "path-length" }));
}

/* Every row, folded: a reference to open, not a page to scroll past. */
function allRows(page, doc) {
  section(page, "Every row", doc.experiments.length + " rows, each with " +
    "its checks and medians; open to read.");
  page.append(el("details", { id: "every-row" }, el("summary", {},
    "every row"), table(["row", "status", "vectors", "register checks",
    "round trip", "entry", "exit", "p99 round trip", "why"],
  doc.experiments.map((e) => [e.name, { text: e.status, cls: e.status },
    e.vectors_verified, e.register_checks, median(e.round_trip) ?? "",
    e.entry_above_round_trip
      ? { text: median(e.entry), cls: "flagged",
        attrs: { title: "entry above its round trip" } }
      : median(e.entry) ?? "", median(e.exit) ?? "",
    e.round_trip ? e.round_trip.p99 : "",
    { text: e.entry_above_round_trip ? "entry above its round trip: " +
      "the figures are not one interrupt's (Between CPUs says why)" +
      (e.reason ? "; " + e.reason : "") : e.reason || "", cls: "why" }]))));
}

function details(page, doc) {
  section(page, "Machine, firmware, clock and method");
  page.append(el("pre", {}, JSON.stringify({
    machine: doc.machine, firmware: doc.firmware, clock: doc.clock,
    method: doc.method, config: doc.config,
    config_warnings: doc.config_warnings, boot_return: doc.boot_return,
    display: doc.display,
  }, null, 2)));
}

(function main() {
  const doc = irqlabData(), page = document.getElementById("page");
  document.title = "irqlab report: " + (doc.machine.brand ||
    doc.machine.cpu_vendor);
  header(page, doc);
  yoursSection(page, doc);
  answer(page, doc);
  i386Answer(page, doc);
  overheadCharts(page, doc);
  distributionCharts(page, doc);
  gapSection(page, doc);
  variantSection(page, doc);
  mitigationSection(page, doc);
  primitivesSection(page, doc);
  crossCpuSection(page, doc);
  otherCpusSection(page, doc);
  footprintSection(page, doc);
  seedsSection(page, doc);
  pathLengthSection(page, doc);
  allRows(page, doc);
  details(page, doc);
  tableOfContents(page, document.getElementById("counts"));
})();
