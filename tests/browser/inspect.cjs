// inspect.cjs PAGE SCREENSHOT: opens PAGE in headless Chromium and prints,
// as JSON, what a reader's browser saw: console errors, uncaught errors,
// every request beyond the page itself, each chart box (the data points
// it was given, its canvas's ink, and of that the pixels in a series'
// colour, which only data draws: axes and labels are grey and black),
// each figure cell, each cell of the cross-CPU heatmap, the rows of the
// table of rows on other processors, the page's height and its contents' entries, and
// saves a full-page screenshot. pages_test.py
// judges it.
"use strict";
const path = require("path");
const puppeteer = require("puppeteer-core");

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
      return { title: title ? title.textContent : "",
        points: Number(box.dataset.points), canvas: !!canvas, inked,
        series };
    }));
    out.cells = await page.$$eval("td[data-row]", (tds) => tds.map((td) => ({
      table: td.closest("table").id, run: td.dataset.run,
      row: td.dataset.row, metric: td.dataset.metric,
      text: td.textContent })));
    out.heat = await page.$$eval("td[data-sender]", (tds) => tds.map((td) =>
      ({ sender: Number(td.dataset.sender), target: Number(td.dataset.target),
        relation: td.dataset.relation, text: td.textContent,
        background: getComputedStyle(td).backgroundColor })));
    out.other_cpus = await page.$$eval("#other-cpus tr", (trs) =>
      trs.slice(1).map((tr) => [...tr.children].map((td) => td.textContent)));
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
