#!/usr/bin/env python3
"""reference-to-stick.py REFERENCE_JSON OUT: the icount reference as the
stick carries it (docs/timing.md "The path length, checked"): the build
that recorded it, and each row that ended ok with its round trip, net
of the floor, in instructions under QEMU -icount shift=0. Phase C and
irqlab-rescue compare a run of that same build with it, and name one of
another build as such."""

import json
import sys


def main():
    with open(sys.argv[1]) as f:
        reference = json.load(f)
    build = reference.get("build")
    lines = ["# irqlab icount reference: round trip, net of the floor, in",
             "# instructions under QEMU -icount shift=0 (docs/timing.md)"]
    # A reference that names no build is carried as it is: phase C then
    # refuses it, and says so.
    lines.append("build " + build if build else "# no build named")
    for row in reference["experiments"]:
        if row["status"] == "ok" and row.get("round_trip"):
            lines.append("row %s %d" % (row["name"],
                                        row["round_trip"]["median"]))
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
