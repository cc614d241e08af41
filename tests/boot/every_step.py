"""The linux mitigation variant with every step patched on, under QEMU's
icount and under Bochs: each step's site read from the listing, and the
instructions each adds."""

import os
import re

from harness import (ROOT, bochs_binary, bochs_exact_binary, check,
                     experiment, handler_kinds, run_bochs)


# The linux variant's steps (arch/mitigations.h LINUX_STEP_*), by the
# names the reports give them and the bits of the probe's "steps 0x..".
LINUX_STEP_BITS = {"LFENCE after swapgs": 0, "PTI with PCID": 1, "PTI": 2,
                   "IBRS": 3, "IBPB": 4, "VERW": 5}
# Each step's site in the listing told by what it jumps over: the CR3
# switch with the no-flush bit, the one without it, SPEC_CTRL (MSR 48H),
# PRED_CMD (MSR 49H), VERW, the fence.
LINUX_SITE_SIGNATURES = (("PTI with PCID", ("%cr3", "bts")),
                         ("PTI", ("%cr3",)), ("IBRS", ("$0x48,%ecx",)),
                         ("IBPB", ("$0x49,%ecx",)), ("VERW", ("verw",)),
                         ("LFENCE after swapgs", ("lfence",)))


def linux_sites_from_listing(function="variant_linux_set"):
    """Each patch site of the linux variant in build/irqlab-entry.lst:
    (step, entry or exit, the instructions its short jump skips), in the
    handler's order. A site is a two-byte short jump (EB) forward inside
    the handler; the entry's come before its one call, to irq_dispatch."""
    with open(os.path.join(ROOT, "build", "irqlab-entry.lst")) as f:
        text = f.read()
    body = text.split("<%s>:\n" % function, 1)[1].split("\n\n", 1)[0]
    code = []
    for line in body.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)", line)
        if m:
            code.append((int(m.group(1), 16), m.group(2).split(),
                         m.group(3)))
    sites = []
    for at, octets, _ in code:
        if octets[0] != "eb" or len(octets) != 2:
            continue
        target = at + 2 + int(octets[1], 16)
        skipped = [c for c in code if at < c[0] < target]
        said = " ".join(c[2] for c in skipped)
        step = next((name for name, words in LINUX_SITE_SIGNATURES
                     if all(w in said for w in words)), None)
        sites.append((step, "exit" if any(
            c[0] < at and c[2].startswith("call") for c in code) else
            "entry", len(skipped)))
    return sites


def linux_steps_over(sites, on):
    """(entry, exit) the linux variant adds over gs-swapgs with the steps
    `on` patched on: every site is one instruction, a jump or a NOP, and
    each step on adds what its site jumps over."""
    return tuple(sum(1 + (n if step in on else 0)
                     for step, where, n in sites if where == part)
                 for part in ("entry", "exit"))


# The linux variant and its baseline; verw too, as the summary's
# mitigation section is drawn where a sequence of its own ran.
EVERY_STEP_CONFIG = ("schemes = direct\nsources = int\n"
                     "variants = gs-swapgs, linux, verw\n"
                     "simulate = linux-every-step\n")


def check_every_step(name, doc, on, skipped, exact=True):
    """simulate = linux-every-step (docs/mitigations.md "Every step on"):
    the steps `on` are patched on and their set-up runs, the register
    check passes, each step in `skipped` is named with its CPUID bit, the
    reports say the set is not Linux's; under an exact count the row adds
    over gs-swapgs exactly the listing's instructions of the steps on."""
    sites = linux_sites_from_listing()
    check("%s: the listing's linux variant has its five entry and four "
          "exit sites, each told by what it jumps over" % name,
          [(s, w) for s, w, _ in sites] == [
              ("LFENCE after swapgs", "entry"), ("PTI with PCID", "entry"),
              ("PTI", "entry"), ("IBRS", "entry"), ("IBPB", "entry"),
              ("IBRS", "exit"), ("PTI with PCID", "exit"), ("PTI", "exit"),
              ("VERW", "exit")], str(sites))
    m = doc["mitigations"]
    linux = m["linux"] or {}
    row = experiment(doc, "int-direct+linux") or {}
    probe = doc["platform"].get("mitigations", {})
    bits = sum(1 << LINUX_STEP_BITS[s] for s in on)
    check("%s: every step this CPU can run is patched on (%s) and its "
          "set-up runs: the row is ok and keeps every register, the probe "
          "says simulated with steps 0x%x" % (name, ", ".join(on), bits),
          row.get("status") == "ok"
          and row.get("register_checks") == handler_kinds(doc) * 256
          and linux.get("steps") == ", ".join(
              s for s in LINUX_STEP_BITS if s in on)
          and linux.get("simulated") is True
          and probe.get("state") == "simulated"
          and probe.get("detail", "").startswith(
              "simulate = linux-every-step: steps 0x%x," % bits),
          "%s %s %s" % (row, linux, probe))
    got = {s["step"]: s["reason"] for s in linux.get("skipped_steps", [])}
    check("%s: the steps the CPU lacks are skipped, each naming its CPUID "
          "bit (%s), and the reports call the set every step, not Linux's"
          % (name, ", ".join(skipped) or "none"),
          sorted(got) == sorted(skipped)
          and all(r.startswith("CPUID") and r.endswith("is 0 on this CPU")
                  for r in got.values())
          and "simulate = linux-every-step" in linux.get("label", "")
          and "not the set" in linux.get("label", ""), str(linux)[:800])
    if exact:
        want = linux_steps_over(sites, on)
        check("%s: the row adds over gs-swapgs exactly its sites and the "
              "listing's instructions of each step on" % name,
              (linux.get("entry_median_over"),
               linux.get("exit_median_over")) == want,
              "want %d entry, %d exit; %s" % (want + (linux,)))


def linux_every_step_icount(o):
    """QEMU -icount -cpu max with simulate = linux-every-step: the fence,
    PTI's flushing switch and VERW run on; TCG offers no PCID, IBRS or
    IBPB."""
    check("linux-every-step: the run ended and wrote results.json",
          o.rc == 0 and o.doc is not None, "rc %s" % o.rc)
    if o.doc is None:
        return
    check_every_step("linux-every-step", o.doc,
                     ("LFENCE after swapgs", "PTI", "VERW"),
                     ("PTI with PCID", "IBRS", "IBPB"))
    summary = o.file("summary.txt")
    check("linux-every-step: summary.txt leads the row as every step on, "
          "and names each step skipped with its CPUID bit",
          "Every step on (LFENCE after swapgs, PTI, VERW)" in summary
          and "IBRS skipped: CPUID.80000008H:EBX[14] (IBRS) is 0" in summary
          and "PTI with PCID skipped: CPUID.1:ECX[17] (PCID) is 0" in summary,
          summary[-1500:])


def bochs_every_step(tiny):
    """Bochs wildcat_lake, which implements PCID, SPEC_CTRL and PRED_CMD,
    with simulate = linux-every-step: all six steps and their set-up run
    (the PCID tables, both SPEC_CTRL values), nothing skipped. Under the
    exact-count build (BOCHS_EXACT) the row adds the listing's path
    length; the provided build counts in chains, where entry and exit
    are no path lengths (docs/emulators.md "Two Bochs builds")."""
    doc, _ = run_bochs("bochs-every-step",
                       bochs_exact_binary() or bochs_binary(),
                       "wildcat_lake", tiny + EVERY_STEP_CONFIG)
    if doc is None:
        return
    exact = doc["clock"]["kind"] == "emulator"
    check_every_step("bochs-every-step", doc, tuple(LINUX_STEP_BITS), (),
                     exact=exact)
    if not exact:
        check.skip("bochs-every-step: the row's path length",
                   "this Bochs counts in chains; BOCHS_EXACT (make "
                   "bochs-exact) counts every instruction")
