"""What must repeat bit for bit under -icount shift=0, taken out of a
results.json: the floor and the instrument, every row's status, figures
(entry, exit, both round trips) and histograms, every overhead against
a baseline, the primitives and the gap method. Code addresses in fault
reasons are left out: they move whenever the code does, and are not
figures."""

import json
import re
import sys

RIP = re.compile(r"(?<=[RE]IP )0x[0-9a-f]+")


def _reason(row):
    reason = row.get("reason")
    return RIP.sub("0x...", reason) if reason else reason


def figures(doc):
    return {
        # The build that measured (docs/timing.md "The path length,
        # checked"): not a figure, so no comparison looks at it.
        "build": doc.get("build"),
        "floor": doc["method"]["floor"],
        "instrument_in_handler": doc["method"]["instrument_in_handler"],
        "experiments": [
            {"name": e["name"], "status": e["status"], "reason": _reason(e),
             "delivered": e.get("delivered"),
             "entry": e.get("entry"), "exit": e.get("exit"),
             "round_trip": e.get("round_trip"),
             "round_trip_timed": e.get("round_trip_timed"),
             "histograms": e.get("histograms")}
            for e in doc["experiments"]],
        "against_baseline": [
            dict(c, name=c["experiment"]) for c in doc["against_baseline"]],
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
# interrupt path) moves these rows' figures by up to one HPET tick: what
# is timed from the trigger read (entry and both round trips, and so
# their histograms' bins and the overheads over a baseline), never the
# exit, which starts in the handler. Two runs of one build still agree
# exactly.
PHASE_DEPENDENT_SOURCES = ("ioapic-level",)
HPET_TICK_INSTRUCTIONS = 10
FROM_THE_TRIGGER = ("entry", "round_trip", "round_trip_timed")


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


def _phase_dependent(section, name, across_builds):
    return (across_builds and section in ("experiments", "against_baseline")
            and name.startswith(PHASE_DEPENDENT_SOURCES))


def _same_row(section, w, h, phase_dependent):
    """A row the same: exactly, or for a row timed against the HPET
    across builds, its trigger-timed figures within one HPET tick (an
    overhead within two: its baseline may move too), its histograms
    holding the same counts, and everything else exact."""
    if not phase_dependent or not (w and h):
        return _same(w, h)
    for k, v in w.items():
        if k in FROM_THE_TRIGGER:
            ok = _same(v, h.get(k), HPET_TICK_INSTRUCTIONS)
        elif k == "histograms":
            ok = _histogram_counts(v) == _histogram_counts(h.get(k))
        elif section == "against_baseline" and k.endswith("_median_over") \
                and not k.startswith("exit"):
            ok = _same(v, h.get(k), 2 * HPET_TICK_INSTRUCTIONS)
        else:
            ok = _same(v, h.get(k))
        if not ok:
            return False
    return True


def _histogram_counts(histograms):
    return {m: sum(b[2] for b in bins) if bins else bins
            for m, bins in (histograms or {}).items()}


def changed(expected, got, across_builds=False):
    """What differs between two figures() results, as (section, name,
    got, expected): the run-wide figures under section "run". Across
    builds, rows of a free-running clock may move by one of its ticks;
    their status and delivered count must still match exactly."""
    out = []
    for key in ("floor", "instrument_in_handler"):
        if key in expected and not _same(expected[key], got.get(key)):
            out.append(("run", key, got.get(key), expected[key]))
    for section, key in (("experiments", "name"), ("primitives", "name"),
                         ("gap_method", "scheme"), ("against_baseline", "name")):
        if section not in expected:
            continue
        want = {r[key]: r for r in expected[section]}
        have = {r[key]: r for r in got.get(section, [])}
        for name in sorted(set(want) | set(have)):
            w, h = want.get(name), have.get(name)
            if not _same_row(section, w, h,
                             _phase_dependent(section, name, across_builds)):
                out.append((section, name, h, w))
    return out


def differences(expected, got, across_builds=False):
    """changed(), one readable line each."""
    return ["%s %s: %s, reference %s" % c
            for c in changed(expected, got, across_builds)]


if __name__ == "__main__":
    # figures.py RESULTS_JSON > reference: records a new reference.
    with open(sys.argv[1]) as f:
        json.dump(figures(json.load(f)), sys.stdout, indent=1, sort_keys=True)
        print()
