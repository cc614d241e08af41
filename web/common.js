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

/* The charts' fonts: the library's own size, set here so that the
 * room a label needs is measured in the font it is drawn in. */
const FONT = "12px system-ui, sans-serif";
const AXIS_TITLE_FONT = "bold " + FONT;
const BAR_LABEL_FONT = "10px system-ui, sans-serif";

/* Axis steps of 1, 2 and 5 times a power of ten, up to 5e15: the
 * figures are whole counts, and a list that stops short of them leaves
 * an axis with no values at all (a cross-CPU row's tens of millions of
 * host-time ticks outgrew one that ended at a million). */
const WHOLE_STEPS = [];
for (let p = 1; p <= 1e15; p *= 10)
  WHOLE_STEPS.push(p, 2 * p, 5 * p);

const measurer = document.createElement("canvas").getContext("2d");

/* How wide a text is in a font, in CSS pixels, as a canvas draws it. */
function textWidth(text, font) {
  measurer.font = font;
  return measurer.measureText(String(text)).width;
}

/* A figure as an axis or a bar label prints it: digits grouped. */
function number(v) {
  return Number.isInteger(v) ? v.toLocaleString("en-US") : String(v);
}

/* An axis' values as printed; a split the library filtered out (null)
 * stays unprinted. */
function numbers(u, splits) {
  return splits.map((v) => (v === null || v === undefined ? null :
    number(v)));
}

/* A font at the canvas's pixel ratio, for text a hook draws itself. */
function canvasFont(font) {
  return font.replace(/(\d+)px/, (m, px) => Math.round(px * uPlot.pxRatio) +
    "px");
}

/* The room a horizontal axis keeps between its values: the wider of its
 * ends' values and a gap, so no two values meet however many digits
 * they have (the library's fixed 50 px let eight-digit values run into
 * each other). */
function valueSpace(u, axisIdx, min, max) {
  return Math.max(40, 16 + Math.max(textWidth(number(Math.round(min)), FONT),
    textWidth(number(Math.round(max)), FONT)));
}

/* A vertical axis' width: its widest value and its ticks (the library
 * adds its title's line). */
function verticalAxisSize(u, values) {
  return Math.ceil(Math.max(24, ...(values || [])
    .filter((v) => v !== null && v !== undefined)
    .map((v) => textWidth(v, FONT)))) + 20;
}

/* A chart's box: its title, then the unit its figures are in, in full
 * (the axes give its name); data-points says how many data points it was
 * given and data-kind what it draws, for the browser test. */
function chartBox(parent, o, points, kind) {
  const box = el("div", { class: "chart", "data-points": points,
    "data-kind": kind, style: "width: " + o.width + "px" });
  box.append(el("div", { class: "title" }, o.title));
  if (o.unit)
    box.append(el("div", { class: "caption" }, "Unit: " + o.unit + "."));
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

/* Grouped horizontal bars: a group per category, a bar per series, each
 * bar's figure beside its end, and where a series has no figure the
 * reason (its gaps[i]: "skipped", "missing") in the bar's place. The
 * categories' names run level down the left, the axis as wide as the
 * longest, so a long name takes room and never another's place.
 * o: {title, unit (in full, for the caption), axis (the value axis'
 * title, naming the unit), width}. uPlot takes one x array for every
 * series, so each bar has its own slot on the (vertical) x scale, and
 * half a slot is left empty between groups. */
function barChart(parent, o, categories, series) {
  o = Object.assign({ width: 540 }, o);
  const n = series.length, stride = n + 0.5, slot = 13;
  const slots = categories.length * stride - 0.5;
  const xs = [];
  for (let i = 0; i < categories.length; i++)
    for (let j = 0; j < n; j++)
      xs.push(i * stride + j);
  const data = [xs];
  series.forEach((s, j) => {
    const ys = xs.map(() => null);
    s.values.forEach((v, i) => {
      ys[i * n + j] = v === undefined ? null : v;
    });
    data.push(ys);
  });
  const figures = series.flatMap((s) => s.values)
    .filter((v) => v !== null && v !== undefined);
  const gaps = series.flatMap((s) => s.values.map((v, i) =>
    (v === null || v === undefined) && s.gaps ? s.gaps[i] : null))
    .filter((g) => g);
  // Bars stand on zero, or their lengths would lie; beyond the longest
  // each way, room for its figure, and right of zero for a gap's reason.
  const lo = Math.min(0, ...figures), hi = Math.max(0, ...figures);
  const figureRoom = 6 + Math.max(0, ...figures.map((v) =>
    textWidth(number(v), BAR_LABEL_FONT)));
  const gapRoom = 6 + Math.max(0, ...gaps.map((g) =>
    textWidth(g, BAR_LABEL_FONT)));
  const names = Math.ceil(Math.max(...categories.map((c) =>
    textWidth(c, FONT)))) + 12;
  // Right of the plot, room for half the last value under the axis,
  // centred on the plot's edge at most (a value with as many digits as
  // any the axis can reach).
  const right = 8 + Math.ceil(textWidth(number(Math.ceil(hi * 1.5 + 1)),
    FONT) / 2);
  const left = lo < 0 ? figureRoom : 0;
  const rightRoom = Math.max(hi > 0 ? figureRoom : 0, gaps.length ?
    gapRoom : 0);
  const plot = Math.max(60, o.width - names - right - left - rightRoom);
  const perPx = (hi - lo || 1) / plot;
  const range = [lo - left * perPx, Math.max(hi + rightRoom * perPx,
    lo + (hi - lo || 1) * 1.02)];
  const box = chartBox(parent, o, countPoints(series), "bars");
  const middle = (i) => i * stride + (n - 1) / 2;
  const labels = (u) => {
    const ctx = u.ctx;
    ctx.save();
    ctx.font = canvasFont(BAR_LABEL_FONT);
    ctx.textBaseline = "middle";
    series.forEach((s, j) => s.values.forEach((v, i) => {
      const y = u.valToPos(i * stride + j, "x", true);
      const gap = v === null || v === undefined;
      const text = gap ? s.gaps && s.gaps[i] : number(v);
      if (!text)
        return;
      const away = (gap || v >= 0 ? 3 : -3) * uPlot.pxRatio;
      ctx.textAlign = gap || v >= 0 ? "left" : "right";
      ctx.fillStyle = gap ? "#8a6d00" : "#333";
      ctx.fillText(text, u.valToPos(gap ? 0 : v, "y", true) + away, y);
    }));
    ctx.restore();
  };
  new uPlot({
    width: o.width, height: Math.round(slots * slot) + 8 + 52,
    padding: [8, right, 0, 0],
    scales: {
      x: { time: false, ori: 1, dir: -1, range: [-0.5, slots - 0.5] },
      y: { ori: 0, range: () => range },
    },
    axes: [
      {
        side: 3, font: FONT, size: names, gap: 4, ticks: { size: 4 },
        grid: { show: false },
        splits: () => categories.map((_, i) => middle(i)),
        values: (u, splits) => splits.map((s) =>
          categories[Math.round((s - (n - 1) / 2) / stride)] || ""),
      },
      {
        side: 2, label: o.axis, font: FONT, labelFont: AXIS_TITLE_FONT,
        size: 30, labelSize: 22, space: valueSpace, incrs: WHOLE_STEPS,
        values: numbers,
      },
    ],
    series: [{}].concat(series.map((s, j) => ({
      label: s.label, fill: PALETTE[j % PALETTE.length],
      stroke: PALETTE[j % PALETTE.length],
      paths: uPlot.paths.bars({ size: [0.8, 40], align: 0 }),
      points: { show: false },
    }))),
    legend: { live: false },
    hooks: { draw: [labels] },
  }, data, box);
  return box;
}

/* Each series' percentiles (min .. max) as a line: the rows' distributions
 * overlaid, each from the statistics results.json keeps. o: {title,
 * unit, axis, width}. */
function percentileChart(parent, o, series) {
  o = Object.assign({ width: 540 }, o);
  const xs = PERCENTILES.map((_, i) => i);
  const box = chartBox(parent, o, countPoints(series), "percentiles");
  new uPlot({
    width: o.width, height: 280,
    scales: { x: { time: false }, y: { distr: 3 } },
    axes: [
      { font: FONT, splits: () => xs,
        values: (u, s) => s.map((i) => PERCENTILES[i] || "") },
      { label: o.axis, font: FONT, labelFont: AXIS_TITLE_FONT,
        size: verticalAxisSize,
        values: numbers },
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

/* The values a logarithmic axis prints: 1, 2 and 5 times each power of
 * ten in range, each only where it clears the last one printed. */
function logValues(u, splits) {
  let last = -Infinity;
  return splits.map((s) => {
    if (s === null || s === undefined)
      return null;
    const text = number(s), w = textWidth(text, FONT);
    const x = u.valToPos(s, "x");
    if (x - w / 2 < last + 8)
      return null;
    last = x + w / 2;
    return text;
  });
}

/* Log-linear histograms overlaid as steps. Where the figures span more
 * than a factor of 50 (a cross-CPU row's tail), the x axis is
 * logarithmic, on which the buckets, about 3% wide, are all one width.
 * o: {title, unit, axis, width}. */
function histogramChart(parent, o, series) {
  o = Object.assign({ width: 1100 }, o);
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
  const log = xs[0] > 0 && xs[xs.length - 1] / xs[0] > 50;
  const box = chartBox(parent, o, points, "histogram");
  new uPlot({
    // Right of the plot, room for half the last value under the axis: at
    // most a digit more than the largest edge (a logarithmic scale ends
    // on the next power of ten).
    width: o.width, height: 300,
    padding: [8, 8 + Math.ceil(textWidth(number(xs[xs.length - 1] * 10),
      FONT) / 2), 0, 0],
    scales: { x: log ? { time: false, distr: 3 } : { time: false } },
    axes: [
      log ? { label: o.axis, font: FONT, labelFont: AXIS_TITLE_FONT,
        splits: (u, i, min, max) => WHOLE_STEPS.filter((v) => v >= min &&
          v <= max), values: logValues } :
        { label: o.axis, font: FONT, labelFont: AXIS_TITLE_FONT,
          space: valueSpace, incrs: WHOLE_STEPS,
          values: numbers },
      { label: "samples", font: FONT, labelFont: AXIS_TITLE_FONT,
        incrs: WHOLE_STEPS, size: verticalAxisSize,
        values: numbers },
    ],
    series: [{}].concat(series.map((s, j) => ({
      label: s.label, stroke: PALETTE[j % PALETTE.length], width: 2,
      paths: uPlot.paths.stepped({ align: 1 }), points: { show: false },
    }))),
    legend: { live: false },
  }, data, box);
  return box;
}

/* A unit's name, for an axis: its words before any bracket or "that"
 * clause ("instructions" of "instructions (QEMU -icount path length, not
 * cycles)", "emulator TSC ticks" of "emulator TSC ticks that do not
 * count each instruction (...)"); the chart's caption gives it in full.
 * tools/compare.py's unit_name is the same rule. */
function unitName(unit) {
  return String(unit || "ticks").split(/ \(| that /)[0];
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
