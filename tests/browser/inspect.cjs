// inspect.cjs PAGE SCREENSHOT: opens PAGE in headless Chromium and prints,
// as JSON, what a reader's browser saw: console errors, uncaught errors,
// every request beyond the page itself, each chart box (the data points
// it was given, whether its canvas holds any ink), each figure cell, and
// saves a full-page screenshot. pages_test.py judges it.
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
      const canvas = box.querySelector("canvas");
      let inked = 0;
      if (canvas) {
        const d = canvas.getContext("2d")
          .getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < d.length; i += 4)
          if (d[i])
            inked++;
      }
      const title = box.querySelector(".title");
      return { title: title ? title.textContent : "",
        points: Number(box.dataset.points), canvas: !!canvas, inked };
    }));
    out.cells = await page.$$eval("td[data-row]", (tds) => tds.map((td) => ({
      table: td.closest("table").id, run: td.dataset.run,
      row: td.dataset.row, metric: td.dataset.metric,
      text: td.textContent })));
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
