/* What the report and the comparison pages share: reading the embedded
 * data, building tables, and drawing charts with uPlot. Every chart box
 * says in data-points how many data points it was given, and every
 * figure cell names its row and metric (data-row, data-metric), so the
 * browser test can hold the page against results.json. */
"use strict";

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79",
  "#ad494a"];
const PERCENTILES = ["min", "p1", "median", "p90", "p99", "p99.9", "max"];

function irqlabData() {
  return JSON.parse(document.getElementById("irqlab-data").textContent);
}

/* el("td", {class: "l", "data-row": name}, "text", child, ...) */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {}))
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children)
    if (c !== undefined && c !== null)
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/* A cell: a plain value, or {text, cls, attrs}. */
function cell(tag, c) {
  if (c !== null && typeof c === "object" && !(c instanceof Node))
    return el(tag, Object.assign({ class: c.cls }, c.attrs || {}), c.text);
  return el(tag, typeof c === "number" ? {} : { class: "l" }, c);
}

function table(headers, rows, attrs) {
  const t = el("table", attrs);
  t.append(el("tr", {}, ...headers.map((h) => cell("th", h))));
  for (const r of rows)
    t.append(el("tr", {}, ...r.map((c) => cell("td", c))));
  return t;
}

function section(parent, title, note) {
  // An id from the title, for the contents (tableOfContents).
  const id = "s-" + title.toLowerCase().replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  parent.append(el("h2", { id: id }, title));
  if (note)
    parent.append(el("p", { class: "note" }, note));
}

function signed(v) {
  return v > 0 ? "+" + v : String(v);
}

/* A figure with its nanoseconds where the figures are TSC ticks and the
 * TSC frequency is known; never under an emulator. */
function withNs(v, clock) {
  if (v === null || v === undefined)
    return "";
  if (!clock || !clock.figures_are_tsc_ticks || !clock.tsc_hz)
    return String(v);
  return v + " (" + (v * 1e9 / clock.tsc_hz).toFixed(1) + " ns)";
}

function chartBox(parent, title, points) {
  const box = el("div", { class: "chart", "data-points": points });
  box.append(el("div", { class: "title" }, title));
  parent.append(box);
  return box;
}

function countPoints(series) {
  let n = 0;
  for (const s of series)
    for (const v of s.values)
      if (v !== null && v !== undefined)
        n++;
  return n;
}

/* Grouped bars: one group per category, one bar per series. uPlot takes
 * one x array for every series, so each bar gets its own x slot and the
 * axis names only each group's middle slot. */
function barChart(parent, title, categories, series, yLabel, width) {
  const n = series.length, stride = n + 1;
  const xs = [];
  for (let i = 0; i < categories.length * stride; i++)
    xs.push(i);
  const data = [xs];
  series.forEach((s, j) => {
    const ys = xs.map(() => null);
    s.values.forEach((v, i) => {
      ys[i * stride + j] = v === undefined ? null : v;
    });
    data.push(ys);
  });
  const box = chartBox(parent, title, countPoints(series));
  const middle = (i) => i * stride + (n - 1) / 2;
  new uPlot({
    width: width || 1100, height: 320,
    scales: {
      x: { time: false, range: [-1, xs.length - 1] },
      // Bars stand on zero, or their lengths would lie.
      y: { range: (u, min, max) => [Math.min(0, min), Math.max(0, max) * 1.1 || 1] },
    },
    axes: [
      {
        splits: () => categories.map((_, i) => middle(i)),
        values: (u, splits) => splits.map((s) =>
          categories[Math.round((s - (n - 1) / 2) / stride)] || ""),
        rotate: categories.length > 8 ? -30 : 0,
        // Room for the longest label at that slant, so none is cut.
        size: categories.length > 8 ? Math.max(90, 24 + 4 *
          Math.max(...categories.map((c) => String(c).length))) : 40,
      },
      { label: yLabel, size: 60 },
    ],
    series: [{}].concat(series.map((s, j) => ({
      label: s.label, fill: PALETTE[j % PALETTE.length],
      stroke: PALETTE[j % PALETTE.length],
      paths: uPlot.paths.bars({ size: [0.9, 60], align: 0 }),
      points: { show: false },
    }))),
    legend: { live: false },
  }, data, box);
  return box;
}

/* Each series' percentiles (min .. max) as a line: the rows' distributions
 * overlaid, each from the statistics results.json keeps. */
function percentileChart(parent, title, series, yLabel, width) {
  const xs = PERCENTILES.map((_, i) => i);
  const box = chartBox(parent, title, countPoints(series));
  new uPlot({
    width: width || 540, height: 280,
    scales: { x: { time: false }, y: { distr: 3 } },
    axes: [
      { splits: () => xs, values: (u, s) => s.map((i) => PERCENTILES[i] || "") },
      { label: yLabel, size: 60 },
    ],
    series: [{}].concat(series.map((s, j) => ({
      label: s.label, stroke: PALETTE[j % PALETTE.length], width: 2,
    }))),
    legend: { live: false },
  }, [xs].concat(series.map((s) => s.values)), box);
  return box;
}

/* A bin as results.json writes it: [from, to, count] in a row's
 * histograms, {from, to, count} in the gap method's; `to` inclusive. */
function bin(b) {
  return Array.isArray(b) ? { from: b[0], to: b[1], count: b[2] } : b;
}

/* Log-linear histograms overlaid as steps. */
function histogramChart(parent, title, series, xLabel, width) {
  series = series.map((s) => ({ label: s.label, bins: s.bins.map(bin) }));
  const edges = new Set();
  for (const s of series)
    for (const b of s.bins) {
      edges.add(b.from);
      edges.add(b.to + 1);
    }
  const xs = [...edges].sort((a, b) => a - b);
  const data = [xs];
  let points = 0;
  for (const s of series) {
    const ys = xs.map(() => 0);
    for (const b of s.bins) {
      ys[xs.indexOf(b.from)] = b.count;
      points++;
    }
    data.push(ys);
  }
  const box = chartBox(parent, title, points);
  // Integer data: ticks at whole numbers only.
  const whole = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000,
    1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];
  new uPlot({
    width: width || 1100, height: 300,
    scales: { x: { time: false } },
    axes: [{ label: xLabel, incrs: whole },
      { label: "samples", size: 60, incrs: whole }],
    series: [{}].concat(series.map((s, j) => ({
      label: s.label, stroke: PALETTE[j % PALETTE.length], width: 2,
      paths: uPlot.paths.stepped({ align: 1 }),
    }))),
    legend: { live: false },
  }, data, box);
  return box;
}

/* The figures' unit as a word for an axis: "instructions" from
 * "instructions (QEMU -icount path length, not cycles)". */
function unitWord(clock) {
  return (clock && clock.unit ? clock.unit : "ticks").split(" (")[0];
}

/* A contents list of the page's sections, put after `before`. */
function tableOfContents(page, before) {
  const items = [...page.querySelectorAll("h2[id]")].map((h) =>
    el("li", {}, el("a", { href: "#" + h.id }, h.textContent)));
  before.after(el("nav", { id: "contents" }, el("b", {}, "Contents"),
    el("ol", {}, ...items)));
}

function median(stats) {
  return stats ? stats.median : null;
}

/* The headline rows: each source's (and APIC mode's) plain scheme rows,
 * no entry variant or cache state, no self-test. */
function headlineGroups(doc, cpuMode = "long") {
  const groups = new Map();
  for (const e of doc.experiments) {
    if (e.variant || e.name.startsWith("selftest-") ||
        (e.cpu_mode || "long") !== cpuMode)
      continue;
    const key = e.source + (e.apic_mode === "x2apic" ? "@x2apic" : "");
    if (!groups.has(key))
      groups.set(key, []);
    groups.get(key).push(e);
  }
  return [...groups.entries()].filter(([, rows]) =>
    rows.some((e) => e.status === "ok"));
}
