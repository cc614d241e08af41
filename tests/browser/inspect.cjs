// inspect.cjs PAGE SCREENSHOT: opens PAGE in headless Chromium and prints,
// as JSON, what a reader's browser saw: console errors, uncaught errors,
// every request beyond the page itself, each chart box (the data points
// it was given, its canvas's ink, and of that the pixels in a series'
// colour, which only data draws: axes and labels are grey and black; the
// box of every text it shows, drawn on its canvas or laid out as its
// title, caption and legend), each figure cell, the one-bucket table of
// the distributions, each section's note, each cell of the cross-CPU heatmap, the rows of the
// table of rows on other processors, the text of each paragraph and box
// with an id, the page's width, its height and its contents' entries, and
// saves a full-page screenshot. pages_test.py judges it.
"use strict";
const path = require("path");
const puppeteer = require("puppeteer-core");

/* Runs in the page before its scripts: wraps the 2D context's fillText
 * to keep, on each canvas, every text drawn since the canvas was last
 * cleared whole, with its four corners in canvas pixels (the measured
 * ink box around the anchor, through the current transform), and the
 * alignment and angle it was drawn at. */
function recordCanvasText() {
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText, clearRect = proto.clearRect;
  proto.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && x + w >= this.canvas.width &&
        y + h >= this.canvas.height)
      this.canvas.__texts = [];
    return clearRect.apply(this, arguments);
  };
  proto.fillText = function (text, x, y) {
    const m = this.measureText(text), t = this.getTransform();
    const left = x - m.actualBoundingBoxLeft,
      right = x + m.actualBoundingBoxRight,
      top = y - m.actualBoundingBoxAscent,
      bottom = y + m.actualBoundingBoxDescent;
    const at = ([px, py]) => [t.a * px + t.c * py + t.e,
      t.b * px + t.d * py + t.f];
    (this.canvas.__texts = this.canvas.__texts || []).push({
      text: String(text), font: this.font, align: this.textAlign,
      baseline: this.textBaseline,
      angle: Math.round(Math.atan2(t.b, t.a) * 180 / Math.PI),
      quad: [[left, top], [right, top], [right, bottom], [left, bottom]]
        .map(at) });
    return fillText.apply(this, arguments);
  };
}

async function main() {
  const [file, shot] = process.argv.slice(2);
  const url = "file://" + path.resolve(file);
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  const out = { console_errors: [], page_errors: [], requests: [] };
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    page.on("console", (m) => {
      if (m.type() === "error")
        out.console_errors.push(m.text());
    });
    page.on("pageerror", (e) => out.page_errors.push(String(e)));
    page.on("request", (r) => {
      if (r.url() !== url)
        out.requests.push(r.url());
    });
    // Every text a chart's canvas draws, as it is drawn: its box from
    // the context's own measure and transform at that moment, so the
    // test sees where the library put each label, not where it meant to.
    await page.evaluateOnNewDocument(recordCanvasText);
    await page.goto(url, { waitUntil: "load" });
    out.title = await page.title();
    out.charts = await page.$$eval(".chart", (boxes) => boxes.map((box) => {
      /* global PALETTE: web/common.js, the series' colours */
      const colours = (typeof PALETTE === "undefined" ? [] : PALETTE)
        .map((h) => [1, 3, 5].map((k) => parseInt(h.substr(k, 2), 16)));
      const canvas = box.querySelector("canvas");
      let inked = 0, series = 0;
      if (canvas) {
        const d = canvas.getContext("2d")
          .getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < d.length; i += 4) {
          if (!d[i + 3])
            continue;
          inked++;
          if (d[i + 3] > 200 && colours.some((c) => Math.abs(c[0] - d[i]) <
              12 && Math.abs(c[1] - d[i + 1]) < 12 &&
              Math.abs(c[2] - d[i + 2]) < 12))
            series++;
        }
      }
      const title = box.querySelector(".title");
      const rect = (e) => {
        const r = e.getBoundingClientRect();
        return [r.left + scrollX, r.top + scrollY, r.right + scrollX,
          r.bottom + scrollY];
      };
      // The texts the page lays out itself (title, caption, legend):
      // their boxes as laid out, and the text the reader sees.
      const dom = [...box.querySelectorAll(".title, .caption, " +
        ".u-legend .u-label")].filter((e) => e.textContent.trim())
        .map((e) => {
          // The text's own extent, not its block's full width.
          const range = document.createRange();
          range.selectNodeContents(e);
          const r = range.getBoundingClientRect();
          return { text: e.textContent, where: "dom", box: [r.left + scrollX,
            r.top + scrollY, r.right + scrollX, r.bottom + scrollY] };
        });
      let texts = [];
      if (canvas) {
        // Canvas pixels to page pixels: the canvas's place and its
        // backing store's scale.
        const r = canvas.getBoundingClientRect();
        const sx = r.width / canvas.width, sy = r.height / canvas.height;
        texts = (canvas.__texts || []).map((t) => ({ text: t.text,
          where: "canvas", align: t.align, baseline: t.baseline,
          angle: t.angle, font: t.font,
          quad: t.quad.map(([x, y]) => [r.left + scrollX + x * sx,
            r.top + scrollY + y * sy]) }));
      }
      return { title: title ? title.textContent : "",
        caption: [...box.querySelectorAll(".caption")].map((c) =>
          c.textContent).join(" "),
        legend: [...box.querySelectorAll(".u-legend .u-label")].map((c) =>
          c.textContent),
        kind: box.dataset.kind || "",
        points: Number(box.dataset.points), canvas: !!canvas, inked,
        series, box: rect(box), canvas_box: canvas ? rect(canvas) : null,
        texts, dom };
    }));
    out.page_width = await page.evaluate(() =>
      document.documentElement.clientWidth);
    out.cells = await page.$$eval("td[data-row]", (tds) => tds.map((td) => ({
      table: td.closest("table").id, run: td.dataset.run,
      row: td.dataset.row, metric: td.dataset.metric,
      text: td.textContent })));
    // The distributions' one-bucket table: each line's cells, and each
    // figure in its last cell with the row and metric it names.
    out.one_bucket = await page.$$eval("#one-bucket tr", (trs) =>
      trs.slice(1).map((tr) => ({
        cells: [...tr.children].map((td) => td.textContent),
        figures: [...tr.querySelectorAll("span[data-row]")].map((s) =>
          ({ row: s.dataset.row, metric: s.dataset.metric,
            text: s.textContent })) })));
    // Each section's note, by the section heading's id.
    out.notes = await page.$$eval("h2[id]", (hs) => Object.fromEntries(
      hs.map((h) => [h.id, h.nextElementSibling &&
        h.nextElementSibling.matches("p.note") ?
        h.nextElementSibling.textContent : ""])));
    out.heat = await page.$$eval("td[data-sender]", (tds) => tds.map((td) =>
      ({ sender: Number(td.dataset.sender), target: Number(td.dataset.target),
        relation: td.dataset.relation, text: td.textContent,
        background: getComputedStyle(td).backgroundColor })));
    // The heatmap's extent, and the table of processors past the full
    // matrix, a line each.
    out.heat_box = await page.evaluate(() => {
      const t = document.getElementById("cross-heatmap");
      if (!t)
        return null;
      const r = t.getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom];
    });
    out.past_full = await page.$$eval("#cross-past-full tr", (trs) =>
      trs.slice(1).map((tr) => [...tr.children].map((td) => td.textContent)));
    out.other_cpus = await page.$$eval("#other-cpus tr", (trs) =>
      trs.slice(1).map((tr) => [...tr.children].map((td) => td.textContent)));
    out.texts = await page.$$eval("p[id], div[id]", (els) =>
      Object.fromEntries(els.map((e) => [e.id, e.textContent])));
    out.height = await page.evaluate(() =>
      document.documentElement.scrollHeight);
    out.contents = await page.$$eval("#contents a", (as) => as.length);
    await page.screenshot({ path: shot, fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
