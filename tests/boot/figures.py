"""What must repeat bit for bit under -icount shift=0, taken out of a
results.json: the floor, every row's status and figures, the primitives
and the gap method. Code addresses in fault reasons are left out: they
move whenever the code does, and are not figures."""

import json
import re
import sys

RIP = re.compile(r"(?<=[RE]IP )0x[0-9a-f]+")


def _reason(row):
    reason = row.get("reason")
    return RIP.sub("0x...", reason) if reason else reason


def figures(doc):
    return {
        "floor": doc["method"]["floor"],
        "experiments": [
            {"name": e["name"], "status": e["status"], "reason": _reason(e),
             "delivered": e.get("delivered"),
             "entry": e.get("entry"), "exit": e.get("exit"),
             "round_trip": e.get("round_trip")}
            for e in doc["experiments"]],
        "primitives": [
            {"name": p["name"], "status": p["status"], "block": p.get("block")}
            for p in doc["primitives"]["rows"]],
        "gap_method": [
            {"scheme": g["scheme"], "status": g["status"],
             "reason": _reason(g), "cost": g.get("cost"),
             "loop_iteration": g.get("loop_iteration")}
            for g in doc["gap_method"]["rows"]],
    }


# Rows timed against a free-running device clock: QEMU's HPET counts at
# 100 MHz, one tick per 10 ns, which is 10 instructions under
# -icount shift=0. Where in the wait loop its interrupt lands depends on
# the phase of that clock against everything the guest executed since
# boot, so any change to code that runs earlier (not timed, not in the
# interrupt path) moves these rows' figures by up to one HPET tick. Two
# runs of one build still agree exactly.
PHASE_DEPENDENT_SOURCES = ("ioapic-level",)
HPET_TICK_INSTRUCTIONS = 10


def _same(expected, got, tolerance=0):
    """Equal on every key the expected side has (a figure added to the
    results later is not a changed figure); numbers within `tolerance`."""
    if isinstance(expected, dict) and isinstance(got, dict):
        return all(k in got and _same(v, got[k], tolerance)
                   for k, v in expected.items())
    if (tolerance and isinstance(expected, (int, float))
            and isinstance(got, (int, float))
            and not isinstance(expected, bool)):
        return abs(expected - got) <= tolerance
    return expected == got


def _tolerance(section, name, across_builds):
    if (across_builds and section == "experiments"
            and name.startswith(PHASE_DEPENDENT_SOURCES)):
        return HPET_TICK_INSTRUCTIONS
    return 0


def differences(expected, got, across_builds=False):
    """Human-readable differences between two figures() results. Across
    builds, rows of a free-running clock may move by one of its ticks;
    their status and delivered count must still match exactly."""
    out = []
    if not _same(expected["floor"], got["floor"]):
        out.append("floor %s, reference %s" % (got["floor"], expected["floor"]))
    for section, key in (("experiments", "name"), ("primitives", "name"),
                         ("gap_method", "scheme")):
        want = {r[key]: r for r in expected[section]}
        have = {r[key]: r for r in got[section]}
        for name in sorted(set(want) | set(have)):
            tolerance = _tolerance(section, name, across_builds)
            w, h = want.get(name), have.get(name)
            exact = ("status", "reason", "delivered")
            if (not _same(w, h, tolerance) or (w and h and any(
                    w.get(k) != h.get(k) for k in exact if k in w))):
                out.append("%s %s: %s, reference %s"
                           % (section, name, have.get(name), want.get(name)))
    return out


if __name__ == "__main__":
    # figures.py RESULTS_JSON > reference: records a new reference.
    with open(sys.argv[1]) as f:
        json.dump(figures(json.load(f)), sys.stdout, indent=1, sort_keys=True)
        print()
