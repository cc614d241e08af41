"""What must repeat bit for bit under -icount shift=0, taken out of a
results.json: the floor, every row's status and figures, the primitives
and the gap method. Code addresses in fault reasons are left out: they
move whenever the code does, and are not figures."""

import json
import re
import sys

RIP = re.compile(r"RIP 0x[0-9a-f]+")


def _reason(row):
    reason = row.get("reason")
    return RIP.sub("RIP 0x...", reason) if reason else reason


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


def _same(expected, got):
    """Equal on every key the expected side has: a figure added to the
    results later is not a changed figure."""
    if isinstance(expected, dict) and isinstance(got, dict):
        return all(k in got and _same(v, got[k]) for k, v in expected.items())
    return expected == got


def differences(expected, got):
    """Human-readable differences between two figures() results."""
    out = []
    if not _same(expected["floor"], got["floor"]):
        out.append("floor %s, reference %s" % (got["floor"], expected["floor"]))
    for section, key in (("experiments", "name"), ("primitives", "name"),
                         ("gap_method", "scheme")):
        want = {r[key]: r for r in expected[section]}
        have = {r[key]: r for r in got[section]}
        for name in sorted(set(want) | set(have)):
            if not _same(want.get(name), have.get(name)):
                out.append("%s %s: %s, reference %s"
                           % (section, name, have.get(name), want.get(name)))
    return out


if __name__ == "__main__":
    # figures.py RESULTS_JSON > reference: records a new reference.
    with open(sys.argv[1]) as f:
        json.dump(figures(json.load(f)), sys.stdout, indent=1, sort_keys=True)
        print()
