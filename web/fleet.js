/* A lab's machines side by side (tools/fleet.py fills the data and
 * computes every cell): per topic, a table with a column per group of
 * machines (one CPU model, one unit), then each group opened to a column
 * per machine. The page draws; it computes no figure. */
"use strict";

function groupName(g, i) {
  return "group " + (i + 1) + ": " + g.cpu_model + " (" +
    unitName(g.unit) + ")";
}

function topicSection(page, data, topic) {
  section(page, topic.title, "Each group's cell: the median of its " +
    "machines' round trips (a machine's own figure), their range in " +
    "brackets, how many of the machines that measured the row had it ok, " +
    "and how many did not select it. Open a group " +
    "for its machines' figures: round trip (entry/exit).");
  page.append(table(["row"].concat(data.groups.map(groupName)),
    topic.rows.map((r) => [r.row].concat(r.groups.map((text, i) =>
      ({ text, attrs: { "data-row": r.row, "data-group": i } })))),
    { id: "fleet-" + topic.topic, class: "fleet" }));
  data.groups.forEach((g, i) => {
    const box = el("details", { class: "fleet-group" },
      el("summary", {}, groupName(g, i) + ", " + g.machines.length +
        " machine(s)"));
    box.append(table(["row"].concat(g.machines.map((m) => m.machine)),
      topic.rows.map((r) => [r.row].concat(r.machines[i].map((text, j) =>
        ({ text, attrs: { "data-row": r.row, "data-machine":
          g.machines[j].machine } })))),
      { id: "fleet-" + topic.topic + "-group-" + i }));
    page.append(box);
  });
}

(function main() {
  const data = irqlabData(), page = document.getElementById("page");
  const title = "irqlab: " + data.machines + " machines, " + data.runs +
    " runs";
  document.title = title;
  page.append(el("h1", {}, title));
  page.append(el("p", { class: "note" }, "Each machine's latest run; " +
    "every run is in fleet.db beside this page (docs/lab.md). Machines " +
    "are grouped by CPU model and unit: figures in different units are " +
    "never in one group."));
  page.append(table(["group", "CPU model", "unit", "machine", "run",
    "clock"], data.groups.flatMap((g, i) => g.machines.map((m) =>
    ["group " + (i + 1), g.cpu_model, g.unit, m.machine, m.run, m.clock])),
  { id: "fleet-machines" }));
  if (data.problems.length)
    page.append(el("div", { class: "unit", id: "problems" },
      ...data.problems.map((p) => el("div", {}, p))));
  for (const topic of data.topics)
    topicSection(page, data, topic);
  tableOfContents(page, document.getElementById("fleet-machines"));
})();
