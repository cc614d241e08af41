#!/usr/bin/env python3
"""inline.py TEMPLATE PAGE NODE_MODULES OUT: one self-contained page.

Replaces each /*INLINE:name*/ in TEMPLATE with the file it names: the
charting library from NODE_MODULES (installed from web/package-lock.json
at build time, never kept in the repository), or a script or style sheet
of this folder; page.js stands for the page's own script, PAGE.js
(report, compare or fleet). The data slot, IRQLAB_RESULTS_JSON, stays for
phase C, tools/compare.py or tools/fleet.py to fill."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = {
    "uplot.js": "uplot/dist/uPlot.iife.min.js",
    "uplot.css": "uplot/dist/uPlot.min.css",
}
DATA_SLOT = "IRQLAB_RESULTS_JSON"


def main():
    template, page_name, node_modules, out = sys.argv[1:5]
    with open(template) as f:
        page = f.read()

    def inline(match):
        name = match.group(1)
        if name == "page.js":
            name = page_name + ".js"
        path = (os.path.join(node_modules, LIBRARY[name]) if name in LIBRARY
                else os.path.join(HERE, name))
        with open(path) as f:
            text = f.read()
        # Inside <script> or <style>, only "</" could end the element.
        if "</" in text:
            sys.exit("inline.py: %s holds '</', which would end its element"
                     % path)
        if DATA_SLOT in text:
            sys.exit("inline.py: %s holds the data slot's name" % path)
        return text

    page = re.sub(r"/\*INLINE:([\w.]+)\*/", inline, page)
    if page.count(DATA_SLOT) != 1:
        sys.exit("inline.py: %s must hold the data slot exactly once"
                 % template)
    with open(out, "w") as f:
        f.write(page)


if __name__ == "__main__":
    main()
