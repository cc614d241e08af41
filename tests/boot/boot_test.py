#!/usr/bin/env python3
"""QEMU and Bochs boot tests: boot the real image under OVMF and check
what happened on the guest, from the files it wrote, its serial log and
the variable store it left.

The runs are a table (FIRST_LANE and SECOND_LANE, at the end): each entry
is one run, its emulator, machine, CPU, config and store set-up, the tool
it needs, and the checks that apply to it. One runner walks each lane,
the two lanes side by side, one a core; checks across runs (AFTER) come
last. Adding a QEMU configuration is one entry. Prints one line per check
and ends with "boot: N passed, N failed"."""

import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import varstore  # noqa: E402
from checks import Checks  # noqa: E402
from figures import PHASE_DEPENDENT_SOURCES, differences, figures  # noqa: E402

BUILD = os.path.join(ROOT, "build", "boot-test")
IMAGE = os.path.join(ROOT, "build", "irqlab.img")
ICOUNT = "shift=0,align=off,sleep=off"
SAMPLES = 2345    # not the default, so the count proves the config was read
WARMUP = 100
PRIMITIVE_BLOCKS = 150
COLD_SAMPLES = 500
THRASH_SAMPLES = 20
GAP_SAMPLES = 700
CONFIG = ("samples = %d\nwarmup = %d\nprimitive_blocks = %d\n"
          "cold_samples = %d\nthrash_samples = %d\ngap_samples = %d\n"
          "selftest_fault = 1\nselftest_smi = 1\n"
          "colour = blue   # an unknown key: a warning in the results\n"
          % (SAMPLES, WARMUP, PRIMITIVE_BLOCKS, COLD_SAMPLES, THRASH_SAMPLES,
             GAP_SAMPLES))

# A tiny matrix, for runs that check behaviour, not figures.
# Without histograms: a tiny run under plain TCG has noisy ones, which
# would take it into parts (docs/uefi-variables.md); the runs that test
# parts say so themselves.
TINY = ("samples = 200\nwarmup = 10\ncold_samples = 20\n"
        "thrash_samples = 2\nprimitive_blocks = 5\ngap_samples = 50\n"
        "histograms = 0\n")
TINY_SAMPLES, TINY_WARMUP = 200, 10
# Under -icount two vCPUs run in turn, each spin costing the other's
# time: the run between CPUs there takes fewer samples, as few as the
# section's minimum of 20 (bench/run/cross_cpu.c), since the timed
# window a sample waits in cannot pause (arch/timing.S).
ICOUNT_CROSS_SAMPLES, ICOUNT_CROSS_WARMUP = 20, 2

check = Checks("boot")
# How many checks the suite counts under CI, where every tool is there
# (tests/checks.py): a helper that dies loses its checks, and this says
# so. A change that adds checks updates it.
CHECKS_UNDER_CI = 574

# Every row checks and takes its samples twice: through the timed
# handlers (entry, exit, round_trip_timed) and the bare ones (round_trip).
PASSES = 2


# Seconds each boot of a run may take before image/run.sh kills it as
# hung, where the entry's env sets no BOOT_TIMEOUT of its own.
BOOT_LIMIT = "240"


def run(name, icount, after_boot1=None, cpu="max", machine="q35",
        config=None, extra_env=None, before_boot1=None, run_dir=None):
    """One two-boot cycle. Returns (exit code, run dir, results dir)."""
    run_dir = run_dir or os.path.join(BUILD, name)
    results = os.path.join(run_dir, "results")
    os.makedirs(run_dir, exist_ok=True)
    subprocess.run(["rm", "-rf", results], check=True)
    config_text = config or CONFIG
    config = os.path.join(run_dir, "irqlab.cfg")
    with open(config, "w") as f:
        f.write(config_text)
    env = dict(os.environ, RUN_DIR=run_dir, RESULTS_DIR=results,
               CONFIG=config, ICOUNT=icount, BOOT_TIMEOUT=BOOT_LIMIT,
               CPU=cpu, MACHINE=machine)
    if after_boot1:
        env["AFTER_BOOT1"] = after_boot1
    if before_boot1:
        env["BEFORE_BOOT1"] = before_boot1
    env.update(extra_env or {})
    with open(os.path.join(run_dir, "run.log"), "w") as log:
        rc = subprocess.run([os.path.join(ROOT, "image", "run.sh"), IMAGE],
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL).returncode
    return rc, run_dir, results


def serial(run_dir, boot):
    with open(os.path.join(run_dir, "boot%d.log" % boot), "rb") as f:
        return f.read().decode("latin-1").replace("\r", "")


STATUS = re.compile(r"irqlab-status: ([a-z-]+) ?(.*)")


def statuses(run_dir, boot, event):
    """The guest's status lines of one event (docs/status-lines.md), each
    as a dict of its key=value details."""
    out = []
    for line in serial(run_dir, boot).splitlines():
        m = STATUS.search(line)
        if m and m.group(1) == event:
            out.append(dict(kv.split("=", 1) for kv in m.group(2).split()
                            if "=" in kv))
    return out


def result_folders(results):
    """The run folders collected (the ACPI tables' folder aside)."""
    if not os.path.isdir(results):
        return []
    return sorted(f for f in os.listdir(results) if f != "acpi")


def load_results(results):
    folders = result_folders(results)
    if len(folders) != 1:
        return None, folders
    with open(os.path.join(results, folders[0], "results.json")) as f:
        return json.load(f), folders


def handler_kinds(doc):
    """The handler kinds a row's register check ran through: the timed
    and bare ones, and the counted ones where the counters count
    (docs/timing.md "Core cycles")."""
    return PASSES + (doc["clock"]["cycles"]["state"] == "measured")


def experiment(doc, name):
    for e in doc["experiments"]:
        if e["name"] == name:
            return e
    return None


REFERENCE = os.path.join(HERE, "reference", "icount-figures.json")
# The same as the stick carries it (make image), for irqlab-rescue.
STICK_REFERENCE = os.path.join(ROOT, "build", "icount.ref")


def config_values(text):
    """key = value lines as results.json reports them."""
    values = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if "=" in line:
            key, value = (t.strip() for t in line.split("=", 1))
            try:
                values[key] = int(value, 0)
            except ValueError:
                values[key] = value
    return values


def expected_config():
    """The image's irqlab.cfg lists every key with its default; the test's
    config overrides some."""
    with open(os.path.join(ROOT, "image", "irqlab.cfg")) as f:
        values = config_values(f.read())
    values.update((k, v) for k, v in config_values(CONFIG).items()
                  if k in values)
    values["finish"] = "shutdown"   # the runner's (image/run.sh, FINISH)
    return values


SCHEMES_RUN = ("direct", "push-jmp", "push-jmp-ibt", "compact", "call",
               "cs-selector", "pf-cr2", "int3-byte")
# Long mode's INT n under icount, net of the floor (build/irqlab-entry.lst,
# docs/instruction-counts.md): direct enters in the INT, its register
# saves and the call up to the entry timestamp, 18, and leaves in the
# restores and iretq after the exit timestamp, 17.
LONG_DIRECT = (18, 17)
# What each scheme's entry adds to direct's, counted in the listing (exits
# are the same): its stub and its decoding of the vector, from an
# immediate, a return address, %cs, CR2 or RIP; pf-cr2 and int3-byte
# also take a second event delivery, which counts 0.
# The gate's floor (arch/dispatch/gate.S): INT n's bare round trip is
# the INT, the handler's count and flag, its jump to gate_ack, the
# compare and branch that find no acknowledgement, and iretq; its timed
# handlers push and pop RAX and RDX around their timestamps.
GATE_INT_ROUND_TRIP = 7
GATE_TIMED_SAVES = 4
LONG_ENTRY_OVER = {"push-jmp": 3, "push-jmp-ibt": 5, "compact": 7,
                   "call": 6, "cs-selector": 3, "pf-cr2": 13,
                   "int3-byte": 19}
# Each scheme's stub and the descriptors it adds, in bytes
# (arch/dispatch/schemes.h and schemes.c).
SCHEME_FOOTPRINTS = {
    "direct": (128, 0), "push-jmp": (8, 0), "push-jmp-ibt": (16, 0),
    "compact": (4, 0), "call": (8, 0), "cs-selector": (0, 224 * 8),
    "pf-cr2": (0, 0), "int3-byte": (2, 0), "gate": (128, 0),
}
# The CPUs QEMU's TCG models never have FRED; call16 cannot exist in long
# mode on any CPU.
SCHEMES_SKIPPED = {
    "fred": "CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU",
    "fred-linux": "CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU",
    "call16": "not applicable in long mode: Intel ignores 66h on CALL",
}


def qemu_has_tcg_x2apic():
    """QEMU offers x2APIC under TCG from 8.1 on (docs/toolchain.md)."""
    out = subprocess.run(["qemu-system-x86_64", "--version"],
                         capture_output=True, text=True).stdout
    major, minor = out.split("version ")[1].split(".")[:2]
    return (int(major), int(minor)) >= (8, 1)


IPI_SOURCES = {"ipi-self-xapic": "xapic",
               "ipi-self-x2apic-selfipi": "x2apic"}


def check_self_ipis(name, doc):
    """Every scheme takes self-IPIs in both APIC modes, each EOI'd."""
    x2apic = qemu_has_tcg_x2apic()
    for source, mode in IPI_SOURCES.items():
        rows = [experiment(doc, "%s-%s" % (source, s)) for s in SCHEMES_RUN]
        if mode == "x2apic" and not x2apic:
            e = experiment(doc, source + "-direct")
            check("%s: %s is skipped: QEMU before 8.1 has no TCG x2APIC"
                  % (name, source), e is not None
                  and e["status"] == "skipped"
                  and e["reason"] == "CPUID.1:ECX[21] (x2APIC) is 0", str(e))
            continue
        bad = [e for e in rows if e is None or e["status"] != "ok"
               or e["apic_mode"] != mode or e["vectors_verified"] != PASSES * 7
               or e["delivered"] != PASSES * (SAMPLES + WARMUP)]
        check("%s: every scheme takes %s on 7 vectors, EOI'd, ISR clear"
              % (name, source), not bad, str(bad))
        entry = {s: experiment(doc, "%s-%s" % (source, s))["entry"]["median"]
                 for s in SCHEMES_RUN if not bad}
        check("%s: %s keeps the order: direct shortest, pf-cr2 and "
              "int3-byte longest" % (name, source), not bad and all(
                  entry["direct"] < entry[s] for s in SCHEMES_RUN
                  if s != "direct") and all(
                  entry[s] > entry["cs-selector"]
                  for s in ("pf-cr2", "int3-byte")), str(entry))
    icr = experiment(doc, "ipi-self-x2apic-icr-direct")
    check("%s: the x2APIC ICR self-IPI runs where x2APIC does" % name,
          icr is not None and icr["status"] == ("ok" if x2apic else "skipped"),
          str(icr))


def check_schemes(name, doc):
    """Every scheme: correct in long mode, measured, and ordered as the
    design says under icount."""
    for scheme in SCHEMES_RUN:
        e = experiment(doc, "int-" + scheme)
        ok = (e is not None and e["status"] == "ok"
              and e["vectors_verified"] == PASSES * 224
              and e["register_checks"] == PASSES * 512
              and e["delivered"] == PASSES * (SAMPLES + WARMUP)
              + e["discarded"])
        check("%s: %s delivers vectors 32-255 as themselves, keeps every "
              "register and RFLAGS, and is measured" % (name, scheme), ok,
              str(e))
    for scheme, reason in SCHEMES_SKIPPED.items():
        e = experiment(doc, "int-" + scheme)
        check("%s: %s is skipped with its reason" % (name, scheme),
              e is not None and e["status"] == "skipped"
              and e["reason"].startswith(reason), str(e))

    entry = {s: experiment(doc, "int-" + s)["entry"]["median"]
             for s in SCHEMES_RUN
             if experiment(doc, "int-" + s)["status"] == "ok"}
    rt = {s: experiment(doc, "int-" + s)["round_trip"]["median"]
          for s in entry}
    out = {s: experiment(doc, "int-" + s)["exit"]["median"] for s in entry}
    check("%s: INT n's path lengths are the listing's: direct %d in and %d "
          "out, each scheme's entry over direct as counted, every exit "
          "direct's" % ((name,) + LONG_DIRECT),
          (entry.get("direct"), out.get("direct")) == LONG_DIRECT
          and {s: entry[s] - entry["direct"] for s in entry if s != "direct"}
          == LONG_ENTRY_OVER and set(out.values()) == {LONG_DIRECT[1]},
          "entry %s exit %s" % (entry, out))
    print("      %-13s %6s %6s   (instructions, net of the floor)" %
          ("scheme", "entry", "round"))
    for s in SCHEMES_RUN:
        if s in entry:
            print("      %-13s %6d %6d" % (s, entry[s], rt[s]))
    if len(entry) == len(SCHEMES_RUN):
        check("%s: direct has the shortest entry path" % name,
              all(entry["direct"] < entry[s] for s in SCHEMES_RUN
                  if s != "direct"), str(entry))
        check("%s: pf-cr2 and int3-byte pay a second event delivery" % name,
              all(entry[s] > entry[t] for s in ("pf-cr2", "int3-byte")
                  for t in ("push-jmp", "push-jmp-ibt", "compact", "call",
                            "cs-selector")), str(entry))
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    check("%s: each scheme's overhead over direct is reported" % name,
          all(comparison.get("int-" + s, {}).get("entry_median_over")
              == entry[s] - entry["direct"] for s in entry if s != "direct")
          and "int-direct" not in comparison, str(comparison))
    footprint = {s["name"]: s for s in doc["schemes"]}
    built = {s: (footprint.get(s, {}).get("stub_bytes"),
                 footprint.get(s, {}).get("data_bytes"))
             for s in SCHEME_FOOTPRINTS}
    check("%s: footprint from the binary for every scheme: each stub and "
          "descriptor size as built, its code at least its 224 stubs, "
          "direct's and the gate's exactly 224 handlers of 128 bytes" % name,
          built == SCHEME_FOOTPRINTS
          and footprint["direct"]["code_bytes"] == 224 * 128
          and footprint["gate"]["code_bytes"] == 224 * 128
          and all(footprint[s]["code_bytes"] > 0
                  and footprint[s]["code_bytes"] >= 224 * built[s][0]
                  for s in SCHEME_FOOTPRINTS), str(footprint))


# Under icount a block of 1024 repetitions costs exactly 1024 times the
# sequence's instruction count.
PRIMITIVE_INSTRUCTIONS = {"push-imm": 1, "cs-push": 2, "cs-vector": 8,
                          "ds-mov32": 2, "ds-mov16": 2, "ds-conditional": 3,
                          "swapgs": 1, "wrmsr-gsbase": 4, "iretq-self": 8,
                          # i386, in compatibility mode (arch/compat.S):
                          # seed 000's program as the thread wrote it
                          "push-imm-i386": 1, "push-cs": 1,
                          "cs-vector-i386": 8, "ds-mov32-i386": 2,
                          "ds-mov16-i386": 2, "gs-selector-i386": 2}


# The mitigations' sequences (arch/mitigations.h, .S), counted from the
# listing. The branch-history loop, called: the call, its push, two
# moves and call into the rounds; per round a call, the inner count,
# inner x (jmp, sub, jnz), and the outer sub and jnz; a return per call
# made; then jmp, lfence, pop and ret.
def bhb_clear(outer, inner):
    return 1 + 4 + outer * (1 + 1 + 3 * inner + 2) + (outer + 1) + 4


# The return-buffer fill: the count, then per pair of entries two calls,
# an add, a dec and a jnz, then the lfence (32 entries: 16 pairs).
RSB_FILL = 1 + 16 * 5 + 1
# PTI's switch each way: mov from CR3, and (or or), mov to CR3.
PTI_SWITCH = 3
WORKING_SET_PAGES = 32
# (entry, exit) each mitigation variant adds over its baseline under
# QEMU's TCG CPUs, which have no PCID, SPEC_CTRL or PRED_CMD.
MITIGATION_COST = {
    "touch": (0, WORKING_SET_PAGES), "pti-cr3": (PTI_SWITCH, PTI_SWITCH),
    "pti-cr3-touch": (PTI_SWITCH, PTI_SWITCH), "verw": (0, 1),
    "bhb-clear-5x5": (bhb_clear(5, 5), 0),
    "bhb-clear-12x7": (bhb_clear(12, 7), 0),
    "lfence-swapgs": (1, 0), "rsb-fill": (RSB_FILL, 0),
    # Linux's set on a CPU that needs nothing of it: its patched sites
    # each a short jump over its step, five on entry and four on exit.
    "linux": (5, 4),
}
MITIGATION_BASELINE = {"pti-cr3-touch": "touch", "lfence-swapgs": "gs-swapgs",
                       "linux": "gs-swapgs"}
# What TCG lacks, and the CPUID bit each skipped row names.
MITIGATION_SKIPPED = {"pti-cr3-pcid": "CPUID.1:ECX[17] (PCID) is 0",
                      "ibrs": "(IBRS", "ibpb": "(IBPB"}
MITIGATION_PRIMITIVES = {"mov-cr3": 1, "verw": 1,
                         "bhb-clear-5x5": bhb_clear(5, 5),
                         "bhb-clear-12x7": bhb_clear(12, 7),
                         "rsb-fill": RSB_FILL}


def check_mitigations(name, doc):
    """docs/mitigations.md under icount: each sequence adds exactly the
    listing's instructions over its baseline, warm and cold, keeping
    every register; what TCG lacks is skipped with its CPUID bit; the
    reports carry Linux's decisions for this CPU."""
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    for variant, (entry, exit_) in MITIGATION_COST.items():
        base = "int-direct+" + MITIGATION_BASELINE.get(variant, "none")
        for cold in ("", "+cold"):
            row = "int-direct+" + variant + cold
            e, c = experiment(doc, row), comparison.get(row, {})
            check("%s: %s adds exactly %d+%d instructions over %s and keeps "
                  "every register" % (name, row, entry, exit_, base + cold),
                  e is not None and e["status"] == "ok"
                  and e["register_checks"] == PASSES * 256
                  and c.get("baseline") == base + cold
                  and c.get("entry_median_over") == entry
                  and c.get("exit_median_over") == exit_, "%s %s" % (e, c))
    for variant, why in MITIGATION_SKIPPED.items():
        rows = [experiment(doc, "int-direct+" + variant + cold)
                for cold in ("", "+cold")]
        check("%s: %s is skipped, warm and cold, naming its CPUID bit"
              % (name, variant),
              all(e is not None and e["status"] == "skipped"
                  and e["reason"].startswith("CPUID")
                  and why in e["reason"] for e in rows), str(rows))
    prims = {p["name"]: p for p in doc["primitives"]["rows"]}
    for prim, per_rep in MITIGATION_PRIMITIVES.items():
        p = prims.get(prim, {})
        check("%s: primitive %s is %d instruction(s) per repetition"
              % (name, prim, per_rep),
              p.get("status") == "ok"
              and p["block"]["min"] == p["block"]["max"] == 1024 * per_rep,
              str(p))
    skipped = [prims.get(p, {}) for p in ("mov-cr3-noflush",
                                          "wrmsr-spec-ctrl", "wrmsr-pred-cmd")]
    check("%s: the PCID, SPEC_CTRL and PRED_CMD primitives are skipped, "
          "naming their CPUID bits" % name,
          all(p.get("status") == "skipped"
              and p.get("reason", "").startswith("CPUID") for p in skipped),
          str(skipped))
    m = doc["mitigations"]
    rows = {r["variant"]: r for r in m["rows"]}
    check("%s: the mitigation table has each sequence once, with its "
          "decision, its figures over its baseline and its cold twin's"
          % name,
          sorted(rows) == sorted((set(MITIGATION_COST)
                                  | set(MITIGATION_SKIPPED))
                                 - {"touch", "linux"})
          and all(r["why"] and r["decision"] for r in rows.values())
          and rows["verw"]["exit_median_over"] == 1
          and rows["verw"]["cold"]["exit_median_over"] == 1
          and rows["ibrs"]["status"] == "skipped", str(rows)[:800])
    decisions = {d["name"]: d for d in m["decisions"]}
    why = {n: d["why"] for n, d in decisions.items()}
    check("%s: Linux's decisions for -cpu max (AMD, FSGSBASE, none of the "
          "speculation bits): nothing on the interrupt path; the swapgs "
          "fence on kernel entries only, the return buffer filled on "
          "context switch under retpolines, the rest off; the set labelled "
          "as the defaults of %s" % (name, m["rule"]),
          len(decisions) == 7 and not any(d["per_interrupt"]
                                          for d in decisions.values())
          and all(why[n].startswith("off") for n in
                  ("PTI", "IBRS", "VERW", "BHB clear", "IBPB"))
          and why["LFENCE after swapgs"] == (
              "kernel entries only (FENCE_SWAPGS_KERNEL: FSGSBASE present; "
              "not X86_BUG_SWAPGS: not Intel)")
          and why["RSB fill"] == (
              "context switch and VM exit only, not interrupts "
              "(\"Mitigation: Retpolines; ... RSB filling\")")
          and m["linux"]["steps"] == "none" and m["rule"] == "Linux 6.12"
          and m["linux"]["simulated"] is False
          and m["linux"]["skipped_steps"] == []
          and "not what a given kernel does" in m["linux"]["label"]
          and m["linux"]["round_trip_median_over"] == 9, str(m)[:800])
    both = m["idt_against_fred"]
    check("%s: IDT against FRED is not compared where FRED cannot run, and "
          "says why" % name,
          both["idt_row"]["status"] == "ok" and both["fred_less_idt"] is None
          and both["fred_row"]["status"] == "skipped"
          and both["fred_row"]["reason"].startswith(SCHEMES_SKIPPED["fred"]),
          str(both))


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
              "listing's instructions of each step on: %d entry, %d exit"
              % ((name,) + want),
              (linux.get("entry_median_over"),
               linux.get("exit_median_over")) == want, str(linux))


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
                       os.environ.get("BOCHS_EXACT") or bochs_binary(),
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


def check_primitives(name, doc):
    rows = {p["name"]: p for p in doc["primitives"]["rows"]}
    for prim, per_rep in PRIMITIVE_INSTRUCTIONS.items():
        p = rows.get(prim, {})
        check("%s: primitive %s is %d instruction(s) per repetition"
              % (name, prim, per_rep),
              p.get("status") == "ok" and p["blocks"] == PRIMITIVE_BLOCKS
              and p["block"]["min"] == p["block"]["max"] == 1024 * per_rep,
              str(p))
    seed = {r["from"]: r for r in doc["seeds"]["seed_000"]["rows"]}
    check("%s: seed 000's TEST2 is push %%cs as the thread ran it (i386), "
          "its long-mode stand-in labelled beside it" % name,
          seed.get("push-cs", {}).get("this_machine") == 1024
          and "(i386)" in seed.get("push-cs", {}).get("label", "")
          and "long mode" in seed.get("cs-push", {}).get("label", ""),
          str(seed))
    lkgs = rows.get("lkgs", {})
    check("%s: LKGS is skipped with its CPUID bit where the CPU lacks it"
          % name, lkgs.get("status") == "skipped"
          and "CPUID.(7,1):EAX[18] (LKGS) is 0" in lkgs.get("reason", ""),
          str(lkgs))


# The i386 rows (docs/protected-mode.md), counted by hand from
# arch/dispatch/i386_*.S. i386-direct's entry is the trigger side's three
# instructions after its read and the INT, then pushl, seven pushes, the
# movl of the vector into ECX and the LFENCE before the handler's read:
# 14 between the reads, 10 net of the 5-instruction floor. Its exit is
# the handler's three after its read, seven pops, addl, iretl and the
# LFENCE before the resume read: 13, so 9 net.
I386_DIRECT = (10, 9)
# What each scheme's entry adds to i386-direct's (exits are the same):
# push-jmp a jmp and a notl; cs-selector TEST3's eight instructions and a
# notl in place of the pushl; push %cs a movzwl, shrl and movl; call16 a
# subl, movzwl, shrl, addl, movl; the 3-byte form a subl and an imull more.
I386_ENTRY_OVER = {"i386-push-jmp": 2, "i386-cs-selector": 8,
                   "i386-cs-selector-push-cs": 3, "i386-call16": 5,
                   "i386-call16-3byte": 7}
# i386-direct's entry variants: (entry, exit) instructions added.
I386_VARIANT_COST = {"ds-es": (5, 2), "pda-gs": (3, 1)}
I386_SCHEMES = ["i386-direct"] + sorted(I386_ENTRY_OVER)
# The sources the 32-bit phase raises, and the vectors each sweeps.
I386_SOURCES = (("int", 224), ("ipi-self-xapic", 223), ("lapic-oneshot", 223))


def check_i386(name, doc, exact):
    """Every i386 row ran in 32-bit protected mode and came back: each
    vector swept as itself through both kinds of handler, registers,
    flags and segment registers intact; the fault self-test failed only
    itself. With `exact` (an instruction-counting clock) every figure is
    the count above."""
    # INT n sweeps 32-255; the local APIC's sources stop below its
    # spurious vector (bench/run/i386_rows.c).
    for source, vectors in I386_SOURCES:
        rows = [experiment(doc, "%s-%s" % (source, s)) for s in I386_SCHEMES]
        check("%s: every i386 scheme under %s ran in 32-bit protected mode, "
              "all %d vectors arriving as themselves in both kinds of "
              "handler, registers intact" % (name, source, vectors),
              all(e is not None and e["status"] == "ok"
                  and e["cpu_mode"] == "protected-32"
                  and e["vectors_verified"] == PASSES * vectors
                  and e["register_checks"] == PASSES * 2 * 256
                  for e in rows),
              str([(e or {}).get("name") and (e["name"], e["status"],
                   e["reason"]) for e in rows]))
    for variant in I386_VARIANT_COST:
        e = experiment(doc, "int-i386-direct+" + variant)
        check("%s: i386-direct+%s keeps every register and segment register"
              % (name, variant), e is not None and e["status"] == "ok"
              and e["register_checks"] == PASSES * 256, str(e))
    fault = experiment(doc, "selftest-fault-i386")
    if fault is not None:
        check("%s: a #UD in a 32-bit handler fails only its row, and the "
              "run comes back to long mode" % name,
              fault["status"] == "failed"
              and fault["reason"].startswith("#UD vector 6,")
              and "in 32-bit protected mode" in fault["reason"], str(fault))
    if not exact:
        return
    direct = experiment(doc, "int-i386-direct")
    if direct is None or direct["status"] != "ok":
        return
    check("%s: i386-direct's entry and exit are %d and %d instructions"
          % (name, I386_DIRECT[0], I386_DIRECT[1]),
          (direct["entry"]["min"], direct["entry"]["max"],
           direct["exit"]["min"], direct["exit"]["max"])
          == (I386_DIRECT[0],) * 2 + (I386_DIRECT[1],) * 2,
          str((direct["entry"], direct["exit"])))
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    # Over INT n, as in long mode: the self-IPI's wait window (STI, NOP;
    # CLI); the timer's window less the INT it does without.
    for source, more_entry, more_exit in (
            ("int", 0, 0), ("ipi-self-xapic", WINDOW_ENTRY, WINDOW_EXIT),
            ("lapic-oneshot", WINDOW_ENTRY - 1, WINDOW_EXIT)):
        for scheme in I386_SCHEMES:
            row = "%s-%s" % (source, scheme)
            e = experiment(doc, row)
            want = (I386_DIRECT[0] + I386_ENTRY_OVER.get(scheme, 0)
                    + more_entry, I386_DIRECT[1] + more_exit)
            got = e and e["status"] == "ok" and (
                e["entry"]["median"], e["exit"]["median"])
            check("%s: %s enters in %d and leaves in %d instructions, "
                  "against i386-direct" % (name, row, want[0], want[1]),
                  got == want and e["baseline"] == "%s-i386-direct" % source
                  and (scheme == "i386-direct" or row in comparison),
                  str(got))
    for variant, (entry, exit_) in I386_VARIANT_COST.items():
        c = comparison.get("int-i386-direct+" + variant, {})
        check("%s: i386 %s adds exactly %d+%d instructions" % (name, variant,
                                                             entry, exit_),
              c.get("entry_median_over") == entry
              and c.get("exit_median_over") == exit_, str(c))
    seed = doc["seeds"]["seed_001"]["rows"]
    check("%s: seed 001 shows call16 beside push-jmp and cs-selector, the "
          "i386 rows first and the long-mode stand-ins labelled" % name,
          [r["from"] for r in seed[:3]] == ["int-i386-push-jmp",
                                            "int-i386-cs-selector",
                                            "int-i386-call16"]
          and all(r["this_machine"] is not None for r in seed[:5])
          and any("long mode" in r["label"] for r in seed), str(seed)[:600])


def check_gate(name, doc):
    """The gate's own floor (docs/long-mode.md "The gate's floor"): it
    passes the vector sweep and keeps every register, costs INT n only
    the listing's instructions, takes self-IPIs EOI'd, and every scheme
    stands above it by exactly its round trip less the gate's."""
    gate = experiment(doc, "int-gate")
    check("%s: the gate's floor delivers vectors 32-255 as themselves, "
          "keeps every register and RFLAGS, and is measured" % name,
          gate is not None and gate["status"] == "ok"
          and gate["vectors_verified"] == PASSES * 224
          and gate["register_checks"] == PASSES * 512
          and gate["delivered"] == PASSES * (SAMPLES + WARMUP)
          + gate["discarded"], str(gate))
    if gate is None or gate["status"] != "ok":
        return
    check("%s: the gate's INT n round trip is the listing's %d instructions"
          % (name, GATE_INT_ROUND_TRIP),
          gate["round_trip"]["median"] == GATE_INT_ROUND_TRIP,
          str(gate["round_trip"]))
    ipi = experiment(doc, "ipi-self-xapic-gate")
    check("%s: the gate's floor takes xAPIC self-IPIs on 7 vectors, EOI'd"
          % name, ipi is not None and ipi["status"] == "ok"
          and ipi["vectors_verified"] == PASSES * 7
          and ipi["delivered"] == PASSES * (SAMPLES + WARMUP), str(ipi))
    above = {a["experiment"]: a for a in doc["above_gate"]}
    want = {"int-" + s: median(doc, "int-" + s, "round_trip")
            - GATE_INT_ROUND_TRIP for s in SCHEMES_RUN}
    got = {row: above.get(row, {}).get("round_trip_median_over")
           for row in want}
    check("%s: every scheme's INT n stands above the gate's floor by its "
          "round trip less the gate's, all of them above it" % name,
          got == want and all(v > 0 for v in want.values()), str(got))
    gap = {g["scheme"]: g for g in doc["gap_method"]["rows"]}.get("gate", {})
    check("%s: the gap method cannot see the gate's interrupts under "
          "icount, and its row is skipped saying so: they arrived, none "
          "beyond the threshold" % name, gap.get("status") == "skipped"
          and "too cheap for the gap method to see" in gap.get("reason", ""),
          str(gap))


# Instructions each entry variant adds on entry and on exit (variants.S).
ENTRY_VARIANT_COST = {
    "seg-mov32": (3, 0), "seg-mov16": (3, 0), "seg-conditional": (3, 0),
    "gs-swapgs": (1, 1), "gs-wrgsbase": (4, 2), "gs-selector": (4, 2),
    "gs-selector-packed-cold": (4, 2), "gs-selector-spread-cold": (4, 2),
}
CACHE_STATES = {"cold": COLD_SAMPLES, "cold-control": COLD_SAMPLES,
                "thrash": THRASH_SAMPLES}


def check_variants(name, doc):
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    none = experiment(doc, "int-direct+none")
    check("%s: the entry-variant baseline ran and kept every register"
          % name, none is not None and none["status"] == "ok"
          and none["register_checks"] == PASSES * 256, str(none))
    for variant, (entry, exit_) in ENTRY_VARIANT_COST.items():
        row = "int-direct+" + variant
        e = experiment(doc, row)
        c = comparison.get(row, {})
        check("%s: %s adds exactly %d+%d instructions and keeps every "
              "register" % (name, variant, entry, exit_),
              e is not None and e["status"] == "ok"
              and e["register_checks"] == PASSES * 256
              and c.get("entry_median_over") == entry
              and c.get("exit_median_over") == exit_, "%s %s" % (e, c))
    lkgs = experiment(doc, "int-direct+gs-lkgs")
    check("%s: the LKGS entry variant is skipped with its CPUID bit" % name,
          lkgs is not None and lkgs["status"] == "skipped"
          and "CPUID.(7,1):EAX[18] (LKGS) is 0" in (lkgs["reason"] or ""),
          str(lkgs))
    for state, samples in CACHE_STATES.items():
        rows = [experiment(doc, "int-%s+%s" % (s, state)) for s in SCHEMES_RUN]
        check("%s: every scheme ran %s with its sample count" % (name, state),
              all(e is not None and e["status"] == "ok"
                  and e["samples"] == samples for e in rows), str(rows))
        # QEMU has no cache model: under icount the path is the same.
        check("%s: %s rows match their warm baselines under icount"
              % (name, state),
              all(comparison.get("int-%s+%s" % (s, state), {}).get(
                  "round_trip_median_over") == 0 for s in SCHEMES_RUN))


# Every source, with the modes it must run in. TSC-deadline is never
# offered under TCG (docs/toolchain.md).
EITHER_MODE_SOURCES = ("lapic-oneshot", "lapic-periodic", "ioapic-edge",
                       "ioapic-level", "pic8259")
XAPIC_ONLY_SOURCES = ("ioapic-level-uncached-nf", "ioapic-level-index-cached",
                      "ioapic-level-index-cached-nf",
                      "ioapic-level-value-cached",
                      "ioapic-level-value-cached-nf")
TSC_DEADLINE_REASON = "CPUID.1:ECX[24] (TSC-deadline) is 0"
# bench/run/sources.c source_check_vectors: both ends, both sides of the
# imm8 sign boundary, and a few between.
SOURCE_CHECK_VECTORS = 7
X2APIC_REASON = "CPUID.1:ECX[21] (x2APIC) is 0"


LEVEL_SKIP_REASON = "no HPET timer routes to an IO-APIC input that no ISA IRQ uses"


def check_sources(name, doc, samples, warmup, x2apic, level=True):
    """Every source is a row with a status, in both APIC modes; exactly
    the requested interrupts arrived on the right vector, EOI'd, with no
    spurious ones (a row is ok only then)."""
    def row_ok(row, mode):
        e = experiment(doc, row)
        # Checked on its own vector alone (pic8259) or on every one of
        # source_check_vectors, in both passes.
        vectors = 1 if row.startswith("pic8259") else SOURCE_CHECK_VECTORS
        return (e is not None and e["status"] == "ok"
                and e["apic_mode"] == mode
                and e["delivered"] == PASSES * (samples + warmup)
                and e["vectors_verified"] == PASSES * vectors), e

    modes = [("xapic", "")] + ([("x2apic", "@x2apic")] if x2apic else [])
    level_rows = [s for s in EITHER_MODE_SOURCES + XAPIC_ONLY_SOURCES
                  if s.startswith("ioapic-level")]
    for mode, suffix in modes:
        bad = [e for s in EITHER_MODE_SOURCES
               if level or s not in level_rows
               for ok, e in [row_ok("%s-direct%s" % (s, suffix), mode)]
               if not ok]
        check("%s: every external and timer source delivers exactly its "
              "samples and warm-up on its vector, after every check vector "
              "arrived as itself, in %s mode" % (name, mode), not bad,
              str(bad))
        e = experiment(doc, "lapic-tscdeadline-direct" + suffix)
        check("%s: TSC-deadline is skipped under TCG with its reason (%s)"
              % (name, mode), e is not None and e["status"] == "skipped"
              and e["reason"] == TSC_DEADLINE_REASON, str(e))
    if level:
        bad = [e for s in XAPIC_ONLY_SOURCES
               for ok, e in [row_ok("%s-direct" % s, "xapic")] if not ok]
        check("%s: the level line runs in every IO-APIC access mode" % name,
              not bad, str(bad))
    else:
        # QEMU's pc HPET routes only to GSI 2, the PIT's line.
        rows = [experiment(doc, "%s-direct" % s) for s in level_rows]
        check("%s: the level rows are skipped with the routing reason" % name,
              all(e is not None and e["status"] == "skipped"
                  and e["reason"].startswith(LEVEL_SKIP_REASON) for e in rows),
              str(rows))
    if not x2apic:
        rows = [experiment(doc, r) for r in
                ("ipi-self-x2apic-selfipi-direct", "ipi-self-x2apic-icr-direct")]
        check("%s: x2APIC sources are skipped with the CPUID reason" % name,
              all(e is not None and e["status"] == "skipped"
                  and e["reason"] == X2APIC_REASON for e in rows), str(rows))
        check("%s: no x2APIC rows of the other sources" % name,
              not [e for e in doc["experiments"]
                   if e["name"].endswith("@x2apic")])
    seed = doc["seeds"]["seed_004"]
    measured = [row["this_machine"] is not None for row in seed["rows"]]
    check("%s: seed 004's table has its four controllers, measured where "
          "they can be" % name, len(seed["rows"]) == 4 and measured[0]
          and all(measured[1:]) == level and any(measured[1:]) == level,
          str(seed))
    seqs = [p for p in doc["primitives"]["rows"]
            if p["name"].startswith("ioapic-seq-")]
    check("%s: the IO-APIC access sequences are timed in all six modes"
          % name, len(seqs) == 6 and all(p["status"] == "ok" for p in seqs),
          str(seqs))


def check_gap_method(name, doc):
    """Seed 000's gap method: every scheme interrupts a TSC loop, and the
    lost time keeps the schemes' order."""
    rows = {g["scheme"]: g for g in doc["gap_method"]["rows"]}
    ok = [rows.get(s, {}) for s in SCHEMES_RUN]
    check("%s: the gap method collected its gaps under every scheme" % name,
          all(g.get("status") == "ok" and g["gaps"] == GAP_SAMPLES
              and sum(b["count"] for b in g["histogram"]) == g["gaps"]
              for g in ok), str(ok)[:600])
    check("%s: under icount every gap was one of the timer's interrupts "
          "(one more may land after the last gap), no stall, no noise, "
          "no note" % name,
          all(g.get("stalls") == 0 and g.get("noise_during_loop") is False
              and g.get("note") is None
              and g.get("interrupts") in (g.get("gaps"), g.get("gaps", 0) + 1)
              for g in ok),
          str([(g.get("gaps"), g.get("interrupts"), g.get("stalls"),
                g.get("note")) for g in ok]))
    if all(g.get("status") == "ok" for g in ok):
        median = {s: rows[s]["cost"]["median"] for s in SCHEMES_RUN}
        check("%s: gap costs keep the order: direct least, int3-byte most"
              % name, all(median["direct"] < median[s] for s in SCHEMES_RUN
                          if s != "direct")
              and max(median.values()) == median["int3-byte"], str(median))
    check("%s: FRED and call16 gap rows are skipped, saying why: no FRED "
          "in CPUID, call16 not applicable in long mode" % name,
          rows.get("fred", {}).get("status") == "skipped"
          and rows["fred"].get("reason", "").startswith(SCHEMES_SKIPPED["fred"])
          and rows.get("call16", {}).get("status") == "skipped"
          and rows["call16"].get("reason", "").startswith(
              SCHEMES_SKIPPED["call16"]),
          "%s %s" % (rows.get("fred"), rows.get("call16")))


# The wait for an interrupt opens one instruction boundary (arch/timing.S
# WAIT_WINDOW): entry carries STI and NOP after the trigger, exit the CLI
# before the resume read. Under icount each is one instruction.
WINDOW_ENTRY = 2
WINDOW_EXIT = 1


def median(doc, row, metric):
    return experiment(doc, row)[metric]["median"]


def check_figure_relations(name, doc):
    """What README "Reading the figures" says each figure spans, checked
    exactly under icount."""
    instrument = doc["method"]["instrument_in_handler"]
    check("%s: the instrument inside a handler is measured, constant, and "
          "is its two timestamps" % name,
          instrument["min"] == instrument["max"] > 0, str(instrument))
    ok = [e for e in doc["experiments"] if e["status"] == "ok"
          and not e["source"].startswith(PHASE_DEPENDENT_SOURCES)]
    # The gate's floor saves nothing but what its timestamps clobber:
    # its timed handlers alone push and pop RAX and RDX around them
    # (arch/dispatch/gate.S).
    rows = [e for e in ok if e["scheme"] != "gate"]
    gates = [e for e in ok if e["scheme"] == "gate"]
    bad = [(e["name"], e["round_trip_timed"]["median"],
            e["round_trip"]["median"]) for e in rows
           if e["round_trip_timed"]["median"] - e["round_trip"]["median"]
           != instrument["median"]
           or e["round_trip_timed"]["min"] - e["round_trip"]["min"]
           != instrument["median"]]
    check("%s: every row's timed round trip exceeds its bare one by exactly "
          "the instrument (%d rows)" % (name, len(rows)),
          rows and not bad, str(bad))
    bad = [(e["name"], e["round_trip_timed"]["median"],
            e["round_trip"]["median"]) for e in gates
           if e["round_trip_timed"]["median"] - e["round_trip"]["median"]
           != instrument["median"] + GATE_TIMED_SAVES]
    check("%s: every gate row's timed round trip exceeds its bare one by "
          "the instrument and its %d saves and restores (%d rows)"
          % (name, GATE_TIMED_SAVES, len(gates)), gates and not bad, str(bad))
    bad = [e["name"] for e in rows
           if not e["entry"]["median"] + e["exit"]["median"]
           < e["round_trip"]["median"]]
    check("%s: entry and exit fit inside the bare round trip" % name,
          not bad, str(bad))

    # Where the timestamps sit, source by source: INT n has no harness;
    # a self-IPI adds the wait window (its ICR write is one instruction,
    # as INT n is); an x2APIC write first loads EDX:EAX (two moves).
    pairs = (("ipi-self-xapic-direct", WINDOW_ENTRY, WINDOW_EXIT),
             ("ipi-self-x2apic-selfipi-direct", WINDOW_ENTRY + 2, WINDOW_EXIT))
    for row, more_entry, more_exit in pairs:
        e = experiment(doc, row)
        if e is None or e["status"] != "ok":
            continue
        got = (median(doc, row, "entry") - median(doc, "int-direct", "entry"),
               median(doc, row, "exit") - median(doc, "int-direct", "exit"))
        check("%s: %s's entry and exit carry exactly the harness README "
              "names (+%d, +%d over INT n)" % (name, row, more_entry,
                                                more_exit),
              got == (more_entry, more_exit), str(got))

    # The gap method measures the bare handler as the interrupted loop
    # sees it: INT n's bare round trip without the INT instruction, plus
    # the xAPIC EOI path, which the self-IPI row carries beyond INT n's
    # (less its wait window).
    gaps = {g["scheme"]: g for g in doc["gap_method"]["rows"]}
    g = gaps.get("direct", {})
    if g.get("status") == "ok":
        rt_int = median(doc, "int-direct", "round_trip")
        eoi = (median(doc, "ipi-self-xapic-direct", "round_trip") - rt_int
               - WINDOW_ENTRY - WINDOW_EXIT)
        check("%s: gap(direct) = INT n's bare round trip - the INT + the "
              "EOI path (%d - 1 + %d)" % (name, rt_int, eoi),
              g["cost"]["min"] == g["cost"]["max"] == rt_int - 1 + eoi,
              str(g["cost"]))
        check("%s: the periodic timer's bare round trip is the gap plus "
              "its wait window" % name,
              median(doc, "lapic-periodic-direct", "round_trip")
              == g["cost"]["median"] + WINDOW_ENTRY + WINDOW_EXIT,
              str(experiment(doc, "lapic-periodic-direct")["round_trip"]))


def check_icount_run(name, rc, run_dir, results):
    if not check("%s: both boots completed" % name, rc == 0,
                 "run.sh exit %d, see %s" % (rc, run_dir)):
        return None
    try:
        doc, folders = load_results(results)
    except (OSError, ValueError) as e:
        check("%s: results.json parses" % name, False, str(e))
        return None
    if not check("%s: exactly one results folder" % name, doc is not None,
                 str(folders)):
        return None
    check("%s: results.json parses with schema irqlab-results v1" % name,
          doc.get("schema") == "irqlab-results"
          and doc.get("schema_version") == 1)
    check("%s: summary.txt written" % name, os.path.getsize(
        os.path.join(results, folders[0], "summary.txt")) > 0)
    check_store_agrees(name, run_dir)
    clock = doc["clock"]
    check("%s: figures labelled as icount instructions, not cycles" % name,
          clock["kind"] == "icount" and not clock["figures_are_cycles"]
          and "instructions" in clock["unit"], str(clock))
    smbios = doc["machine"]["smbios_system"]
    check("%s: the machine is named from SMBIOS (QEMU, its machine type)"
          % name, smbios["vendor"] == "QEMU"
          and smbios["version"].startswith("pc-q35-"), str(smbios))
    # QEMU offers no CPUID 15H: the PM timer gives the frequency, and
    # is its own check. icount shift=0 runs the TSC at 1 GHz.
    check("%s: the TSC frequency comes from the PM timer, 1 GHz within "
          "0.1%% as icount shift=0 runs it, and the check names that timer "
          "with no disagreement" % name,
          clock["tsc_hz_method"] == "acpi-pm-timer"
          and abs(clock["tsc_hz"] - 10**9) < 10**6
          and clock["tsc_hz_check_method"] == "acpi-pm-timer"
          and clock["tsc_hz_check"] == clock["tsc_hz"]
          and clock["tsc_hz_disagreement_ppm"] == 0, str(clock))
    check("%s: config reached the guest, every key in the results" % name,
          doc["config"] == expected_config(),
          "%s\n   expected %s" % (doc["config"], expected_config()))
    with open(os.path.join(results, folders[0], "summary.txt")) as f:
        summary = f.read()
    check("%s: an unknown key is a warning in results.json and summary.txt, "
          "and the run goes on" % name,
          "unknown key 'colour' ignored" in (doc.get("config_warnings") or "")
          and "warnings: line" in summary, str(doc.get("config_warnings")))

    e = experiment(doc, "int-direct")
    if check("%s: INT n experiment present and ok" % name,
             e is not None and e["status"] == "ok", str(e)):
        check("%s: sample count equals the configured one" % name,
              e["samples"] == SAMPLES, str(e["samples"]))
        check("%s: every INT n was delivered to its vector" % name,
              e["delivered"] == PASSES * (SAMPLES + WARMUP) + e["discarded"],
              str(e["delivered"]))
        # selftest_smi: the first batch looks disturbed by an SMI; it is
        # discarded, counted and taken again.
        check("%s: a disturbed batch is discarded, counted and retaken"
              % name, e["discarded"] == 1000 and e["discarded_batches"] == 1
              and e["samples"] == SAMPLES, str(e))
        rt, en, ex = e["round_trip"], e["entry"], e["exit"]
        # A dedicated handler is one path: under icount each metric is a
        # single value, and entry + exit fit inside the round trip.
        check("%s: icount figures have no spread" % name,
              all(m["min"] == m["max"] for m in (rt, en, ex)), str(rt))
        check("%s: entry and exit are positive and within the round trip"
              % name, 0 < en["min"] and 0 < ex["min"]
              and en["min"] + ex["min"] < rt["min"], str((en, ex, rt)))
    floor = doc["method"]["floor"]
    check("%s: instrument floor is constant under icount" % name,
          floor["min"] == floor["max"] and floor["samples"] > 0, str(floor))

    seeds = doc["seeds"]
    check("%s: all five seed sections, each judged or saying why not" % name,
          sorted(seeds) == ["seed_000", "seed_001", "seed_002", "seed_003",
                            "seed_004"]
          and all(s["verdict"] == "not judged (figures are not cycles here)"
                  for s in seeds.values()), str(seeds)[:600])
    check_gap_method(name, doc)
    check_figure_relations(name, doc)
    check_schemes(name, doc)
    check_gate(name, doc)
    check_self_ipis(name, doc)
    check_sources(name, doc, SAMPLES, WARMUP, qemu_has_tcg_x2apic())
    check_variants(name, doc)
    check_mitigations(name, doc)
    check_primitives(name, doc)
    check_i386(name, doc, exact=True)

    for selftest in ("selftest-fault", "selftest-fault-in-handler"):
        fault = experiment(doc, selftest)
        check("%s: %s fails only its own experiment" % (name, selftest),
              fault is not None and fault["status"] == "failed"
              and fault["reason"].startswith("#UD vector 6,")
              and "RIP 0x" in fault["reason"], str(fault))
    # The full matrix goes in parts, a boot each (docs/uefi-variables.md
    # "Parts"): every part hands over, the last one's records are the
    # handoff's.
    parts = doc["handoff"]["parts"]
    handed = [h for boot in range(1, parts + 1)
              for h in statuses(run_dir, boot, "handed-over")]
    check("%s: the run went on after the exceptions and handed over in "
          "each of its parts, every record used" % name,
          len(handed) == parts and all(h["run"] == "1" and h["runs"] == "1"
                                       and int(h["bytes"]) > 0
                                       for h in handed)
          and int(handed[-1]["records"]) == doc["handoff"]["records_used"],
          "%s, %s" % (handed, doc["handoff"]))

    before = varstore.irqlab_records(
        os.path.join(run_dir, "vars-after-boot1.fd"))
    after = varstore.irqlab_records(os.path.join(run_dir, "vars.fd"))
    bad = varstore.records_check(before)
    check("%s: phase B left records of at most 1 KiB, 16 KiB in all, each "
          "one's CRC and the reassembled blob's CRC holding" % name,
          len(before) > 0 and all(len(v.data) <= 1024 for v in before)
          and sum(len(v.data) for v in before) <= 16 * 1024 and bad is None,
          "%s %s" % (bad, [(v.name, len(v.data)) for v in before]))
    check("%s: handoff records deleted after phase C" % name,
          len(after) == 0, str([v.name for v in after]))
    return doc


def check_every_row_ends_well(label, rc, run_dir, results):
    """Both boots completed, and every row, gap row and primitive ended ok
    or skipped with a reason: none failed or timed out."""
    if not check("%s: both boots completed" % label, rc == 0,
                 "run.sh exit %d, see %s" % (rc, run_dir)):
        return None
    doc, folders = load_results(results)
    if not check("%s: one results folder" % label, doc is not None,
                 str(folders)):
        return None
    rows = (doc["experiments"] + doc["gap_method"]["rows"]
            + doc["primitives"]["rows"])
    bad = [(r.get("name", r.get("scheme")), r["status"], r.get("reason"))
           for r in rows if r["status"] not in ("ok", "skipped")
           or (r["status"] == "skipped" and not r.get("reason"))]
    check("%s: every row ok or skipped with a reason (%d rows)"
          % (label, len(rows)), not bad, str(bad))
    return doc


OVMF_2M = {"OVMF_CODE": "/usr/share/OVMF/OVMF_CODE.fd",
           "OVMF_VARS": "/usr/share/OVMF/OVMF_VARS.fd", "TPM": "off"}
STORE_CYCLES = 10


def store_agrees(run_dir):
    """Phase A reads the store's end from the flash; phase B's runtime
    QueryVariableInfo must find the same free space. Returns whether it
    did, and what both said."""
    room = statuses(run_dir, 1, "store")
    handed = statuses(run_dir, 1, "handed-over")
    return (bool(room and handed and room[-1].get("seen") == "1"
                 and room[-1]["end_free_after"] == handed[-1]["store_free"]),
            "%s %s" % (room, handed))


def check_store_agrees(label, run_dir):
    agrees, said = store_agrees(run_dir)
    return check("%s: phase A's reading of the store's end equals what "
                 "QueryVariableInfo says at runtime" % label, agrees, said)


def store_cycles(tiny):
    """Ten runs on one 2 MB store, as a machine keeps its own: each run is
    kept, or refused in phase A with its reason, never lost in phase B.
    Before the second, other software's deleted variables leave the store's
    end too small, so phase A must make the firmware reclaim."""
    store = os.path.join(BUILD, "store-2m", "vars.fd")
    subprocess.run(["rm", "-rf", os.path.dirname(store)], check=True)
    fill = "%s --fill 24000 deleted" % os.path.join(HERE, "varstore.py")
    outcomes, disagreed = [], []
    for n in range(1, STORE_CYCLES + 1):
        label = "store-2m/cycle-%d" % n
        rc, run_dir, results = run(
            label, "", config=tiny, before_boot1=fill if n == 2 else None,
            extra_env=dict(OVMF_2M, VARS_FILE=store))
        room = statuses(run_dir, 1, "store")
        kept = rc == 0 and len(result_folders(results)) == 1
        refused = (rc != 0 and room and room[-1]["ok"] == "0"
                   and "exiting boot services" not in serial(run_dir, 1))
        lost = statuses(run_dir, 1, "serial-only")
        outcomes.append("kept" if kept else "refused" if refused else
                        "LOST" if lost else "failed (rc %d)" % rc)
        if kept:
            agrees, said = store_agrees(run_dir)
            if not agrees:
                disagreed.append("%s: %s" % (label, said))
        if n == 2:
            check("store-2m: with the store's end too small, phase A made the "
                  "firmware reclaim, and the run was kept",
                  kept and room and room[-1]["reclaimed"] == "1"
                  and int(room[-1]["end_free"]) < int(room[-1]["needed"])
                  <= int(room[-1]["end_free_after"]), str(room))
    check("store-2m: %d runs on one 2 MB store: each kept or refused up "
          "front, none lost" % STORE_CYCLES,
          all(o in ("kept", "refused") for o in outcomes)
          and outcomes.count("kept") >= STORE_CYCLES - 1, str(outcomes))
    # One check for all the kept runs, so that the suite's count does not
    # depend on how many a full store refused.
    check("store-2m: in every kept run, phase A's reading of the store's "
          "end equals what QueryVariableInfo says at runtime",
          "kept" in outcomes and not disagreed, "; ".join(disagreed))


def store_unreadable(tiny):
    """A store whose layout irqlab cannot read (simulate =
    store-unreadable: the blind path, as for AMI or Insyde stores). With
    a 2 MB store filled to about 35000 bytes free (QueryVariableInfo's
    count), too little for a full handoff blind, phase A picks the smallest handoff, 8 records, instead of
    refusing, and the run is kept, in parts where it needs them. With
    the 4 MB store's 250 KB free, the probe is capped rather than
    rewriting half the store twice, says the room is not made sure, and
    phase B's own check at runtime keeps the run."""
    outcomes = []
    for label, env, fill in (
            ("small", OVMF_2M, "%s --fill 47000 live"
             % os.path.join(HERE, "varstore.py")),
            ("capped", TPM_OFF, None)):
        rc, run_dir, results = run(
            "store-unreadable-" + label, "", before_boot1=fill, extra_env=env,
            config=tiny + "schemes = direct\nvariants = none\n"
            "simulate = store-unreadable\n")
        room = statuses(run_dir, 1, "store")
        outcomes.append((rc, room[-1] if room else {},
                         len(result_folders(results))))
    (rc1, small, n1), (rc2, capped, n2) = outcomes
    check("store-unreadable: blind, with about 35000 bytes free, phase A takes "
          "8-record handoffs instead of refusing, makes sure of their room, "
          "and the run is kept",
          rc1 == 0 and n1 == 1 and small.get("seen") == "0"
          and small.get("budget") == str(8 * 988)
          and small.get("guaranteed") == "1", "rc %d, %s, %d folder(s)"
          % (rc1, small, n1))
    check("store-unreadable: blind, with the 4 MB store's room, the probe "
          "is capped, the room said not made sure, and the run is kept",
          rc2 == 0 and n2 == 1 and capped.get("seen") == "0"
          and capped.get("budget") == str(16 * 988)
          and capped.get("guaranteed") == "0", "rc %d, %s, %d folder(s)"
          % (rc2, capped, n2))


def kill_mid_deletion(tiny):
    """A boot killed while it deleted the records of a run whose files it
    had written: the next boot recognises the rest as that run's and
    deletes them, and measures, never calling them an incomplete run."""
    d = os.path.join(BUILD, "kill-mid-deletion")
    subprocess.run(["rm", "-rf", d], check=True)
    keep = {"VARS_FILE": os.path.join(d, "vars.fd"),
            "DISK_FILE": os.path.join(d, "disk.img"), "TPM": "off"}
    rc1, first, _ = run("kill-mid-deletion/first", "", config=tiny,
                        extra_env=keep)
    store = os.path.join(first, "vars-after-boot1.fd")
    if not check("kill-mid-deletion: the first run completed", rc1 == 0
                 and os.path.exists(store), "run.sh exit %d" % rc1):
        return
    shutil.copy(store, keep["VARS_FILE"])
    varstore.drop_records(keep["VARS_FILE"], 5)
    left = len(varstore.irqlab_records(keep["VARS_FILE"]))
    rc2, second, results = run("kill-mid-deletion/next", "", config=tiny,
                               extra_env=keep)
    log = serial(second, 1)
    folders = result_folders(results)
    check("kill-mid-deletion: the next boot recognises the %d records left "
          "as a run already on the ESP, deletes them, and measures" % left,
          rc2 == 0 and left > 0
          and log.count("belongs to a run already on the ESP") == left
          and "%d such record(s) deleted" % left in log
          and "no complete run" not in log
          and not any(f.endswith("-discarded") for f in folders)
          and len(folders) == 2
          and varstore.irqlab_records(keep["VARS_FILE"]) == [],
          "rc %d, folders %s, log %s" % (rc2, folders, log[:1500]))


def runtime_fault(tiny):
    """A runtime SetVariable that faults in the firmware (simulate =
    setvariable-fault hands it a non-canonical pointer): the fault is
    caught, runtime services are not called again, the results go to the
    screen and to COM1, and irqlab resets through port 0xCF9 itself. The
    next boot finds the "measuring" marker without records: it says the
    last run did not finish, does not measure, and clears the marker, so
    the boot after it measures again (docs/run.md)."""
    d = os.path.join(BUILD, "runtime-fault")
    subprocess.run(["rm", "-rf", d], check=True)
    keep = {"VARS_FILE": os.path.join(d, "vars.fd"),
            "DISK_FILE": os.path.join(d, "disk.img"), "TPM": "off"}
    rc1, faulted, _ = run("runtime-fault/faulted", "", extra_env=keep,
                          config=tiny + "simulate = setvariable-fault\n")
    lost = statuses(faulted, 1, "runtime-lost")
    shown = statuses(faulted, 1, "results-shown")
    resets = [r.get("method") for r in statuses(faulted, 1, "reset")]
    check("runtime-fault: the SetVariable fault (#GP) is caught and ends the "
          "use of runtime services; the results go to COM1 and a page of "
          "them to the screen; irqlab resets through port 0xCF9, never "
          "calling ResetSystem, and QEMU sees that reset",
          rc1 != 0 and lost == [{"service": "SetVariable", "vector": "13"}]
          and statuses(faulted, 1, "serial-only")
          and "round trip, median" in serial(faulted, 1)
          and shown and int(shown[0]["lines"]) >= 10
          and resets == ["port-0xcf9"]
          and "boot 1: " in open(os.path.join(faulted, "run.log")).read()
          and "QEMU exit 0" in open(os.path.join(faulted, "run.log")).read()
          and varstore.marker(keep["VARS_FILE"]) == "measuring",
          "rc %d, lost %s, shown %s, resets %s, marker %s"
          % (rc1, lost, shown, resets, varstore.marker(keep["VARS_FILE"])))
    rc2, after, _ = run("runtime-fault/next", "", config=tiny, extra_env=keep)
    unfinished = statuses(after, 1, "unfinished")
    check("runtime-fault: the next boot finds the marker without records, "
          "says the last run did not finish, does not measure, and clears "
          "the marker (finish = shutdown: nobody waits for a key)",
          rc2 != 0 and len(unfinished) == 1
          and unfinished[0].get("state") == "measuring"
          and unfinished[0].get("part") == "1"
          and "did not hand its results over" in serial(after, 1)
          and not statuses(after, 1, "store")
          and "exiting boot services" not in serial(after, 1)
          and statuses(after, 1, "marker") == [{"state": "cleared"}]
          and varstore.marker(keep["VARS_FILE"]) is None,
          "rc %d, unfinished %s, marker %s" % (
              rc2, unfinished, varstore.marker(keep["VARS_FILE"])))
    rc3, again, results = run("runtime-fault/again", "", config=tiny,
                              extra_env=keep)
    check("runtime-fault: the boot after that measures again and keeps its "
          "run; the marker phase A set is gone once phase B handed over",
          rc3 == 0 and len(result_folders(results)) == 1
          and [m["state"] for m in statuses(again, 1, "marker")]
          == ["measuring", "cleared"]
          and varstore.marker(keep["VARS_FILE"]) is None,
          "rc %d, folders %s, markers %s" % (
              rc3, result_folders(results), statuses(again, 1, "marker")))


def setvariable_error(o):
    """A runtime SetVariable the firmware refuses (simulate =
    setvariable-error: an attribute without BOOTSERVICE_ACCESS): no fault,
    so runtime services stay in use; the results go to COM1 and a page of
    them to the screen, and ResetSystem resets the machine."""
    gone = statuses(o.run_dir, 1, "serial-only")
    resets = [r.get("method") for r in statuses(o.run_dir, 1, "reset")]
    shown = statuses(o.run_dir, 1, "results-shown")
    check("setvariable-error: the refused SetVariable is named (0x%x, "
          "EFI_INVALID_PARAMETER), runtime services are not given up, the "
          "results reach COM1 and the screen, and the firmware's reset is "
          "used" % 0x8000000000000002,
          o.rc != 0 and gone
          and "serial-only reason=SetVariable of record 0 failed "
          "(0x8000000000000002)" in serial(o.run_dir, 1)
          and not statuses(o.run_dir, 1, "runtime-lost")
          and "round trip, median" in serial(o.run_dir, 1)
          and shown and int(shown[0]["lines"]) >= 10
          and resets == ["firmware"],
          "rc %d, %s, resets %s, shown %s" % (o.rc, gone, resets, shown))


def store_fills(tiny):
    """The store fills up between phase A's check and phase B's handoff
    (simulate = store-fills: phase B itself writes variables of a test
    GUID until a handoff no longer fits, as another writer would): phase
    B says the room is gone, shows the results, and rewrites the marker
    to say the run measured but was not stored, and why. The next boot
    says so, and does not measure."""
    d = os.path.join(BUILD, "store-fills")
    subprocess.run(["rm", "-rf", d], check=True)
    # The 2 MB build's 56 KiB store: a few dozen writes fill it.
    keep = dict(OVMF_2M, VARS_FILE=os.path.join(d, "vars.fd"),
                DISK_FILE=os.path.join(d, "disk.img"))
    config = tiny + "schemes = direct\nvariants = none\n"
    rc1, filled, _ = run("store-fills/filled", "", extra_env=keep,
                         config=config + "simulate = store-fills\n")
    markers = [m["state"] for m in statuses(filled, 1, "marker")]
    check("store-fills: with the store filled at runtime, phase B says the "
          "room is gone, shows the results, and the marker says the run "
          "was measured but not stored",
          rc1 != 0 and "at runtime" in serial(filled, 1)
          and statuses(filled, 1, "serial-only")
          and statuses(filled, 1, "results-shown")
          and markers == ["measuring", "not-stored"]
          and varstore.marker(keep["VARS_FILE"]) == "not-stored",
          "rc %d, markers %s, store's marker %s" % (
              rc1, markers, varstore.marker(keep["VARS_FILE"])))
    rc2, after, _ = run("store-fills/next", "", config=config, extra_env=keep)
    unfinished = statuses(after, 1, "unfinished")
    check("store-fills: the next boot says the last run measured but the "
          "store did not take its results, with the store's answer, and "
          "does not measure",
          rc2 != 0 and unfinished
          and unfinished[0].get("state") == "not-stored"
          and "the variable store did not take the results" in serial(after, 1)
          and "at runtime" in serial(after, 1)
          and "exiting boot services" not in serial(after, 1),
          "rc %d, %s" % (rc2, unfinished))


# The i386 rows of three sources under the two call16 schemes, with their
# baseline: plan rows 0-2 are long mode's direct rows, then per source
# i386-direct, i386-call16, i386-call16-3byte (bench/run/plan.c).
CALL16_SELECTION = ("schemes = i386-call16, i386-call16-3byte\n"
                    "sources = int, ipi-self-xapic, lapic-oneshot\n"
                    "variants = none\napic_modes = xapic\n")
CALL16_STARTS = {4: "int-i386-call16",
                 8: "ipi-self-xapic-i386-call16-3byte",
                 11: "lapic-oneshot-i386-call16-3byte"}


def call16_first(tiny):
    """A boot whose first trip to 32-bit protected mode is a call16 row,
    as a part that begins there: once, building the 32-bit tables on that
    first trip reset the call16 gates' segment base, and such a row
    failed with #UD at EIP 0xb0000 or hung (issue item 11). start_row
    makes the boot begin at each such row; every row from it must end
    ok."""
    for start, name in sorted(CALL16_STARTS.items()):
        label = "call16-first/row-%d" % start
        rc, run_dir, results = run(label, "", config=tiny + CALL16_SELECTION
                                   + "start_row = %d\n" % start,
                                   extra_env=TPM_OFF)
        steps = re.findall(r"progress: step (\d+) of \d+: ([a-z0-9-]+)",
                           serial(run_dir, 1))
        doc, _ = load_results(results) if rc == 0 else (None, None)
        rows = [(e["name"], e["status"]) for e in doc["experiments"]] \
            if doc else []
        check("call16-first: a boot that starts at plan row %d, %s, runs "
              "it first and ends every row from it ok" % (start, name),
              rc == 0 and steps[:1] == [(str(start + 1), name)]
              and rows and rows[0][0] == name
              and all(status == "ok" for _, status in rows)
              and len(rows) == 12 - start,
              "rc %d, first steps %s, rows %s" % (rc, steps[:2], rows))


UNDELETABLE = os.path.join(BUILD, "undeletable.json")


def plant_undeletable():
    """A record under irqlab's name with time-based authenticated
    attributes, which the firmware will not delete."""
    os.makedirs(BUILD, exist_ok=True)
    with open(UNDELETABLE, "w") as f:
        json.dump({"version": 2, "variables": [{
            "name": "IrqlabRecord07", "guid": str(varstore.IRQLAB_GUID),
            "attr": 0x27, "data": "68656c6c6f"}]}, f)


def undeletable_record(o):
    """A record the firmware will not delete: set aside, never read into
    a run, never a boot loop; the run writes its records past its name."""
    written = [v.name for v in varstore.irqlab_records(
        os.path.join(o.run_dir, "vars-after-boot1.fd"))]
    left = [v.name for v in varstore.irqlab_records(
        os.path.join(o.run_dir, "vars.fd"))]
    folders = [f for f in o.folders if not f.endswith("-discarded")]
    aside = "IrqlabRecord07 cannot be deleted: set aside"
    check("undeletable-record: set aside in both boots, the run measured "
          "and kept, its records named past it",
          o.rc == 0 and len(folders) == 1
          and aside in serial(o.run_dir, 1) and aside in serial(o.run_dir, 2)
          and "nothing else pending; measuring" in serial(o.run_dir, 1)
          and written[:1] == ["IrqlabRecord07"]
          and all(n > "IrqlabRecord07" for n in written[1:])
          and left == ["IrqlabRecord07"],
          "rc %d, folders %s, written %s, left %s" % (o.rc, folders, written,
                                                      left))


def full_esp(o):
    """No room on the ESP for the files: phase C says "disk full", keeps
    the records, and leaves no 0-byte or partial file behind."""
    rc, run_dir = o.rc, o.run_dir
    log = serial(run_dir, 2)
    listed = subprocess.run(
        ["mdir", "-/", "-b", "-i", os.path.join(run_dir, "disk.img") + "@@1M",
         "::/EFI/irqlab"], capture_output=True, text=True,
        env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    listing = listed.stdout
    left = [f for f in listing.splitlines()
            if f.startswith("::/EFI/irqlab/results/") and not f.endswith("/")]
    check("esp-full: phase C says disk full, keeps the records, and leaves "
          "no file in the results folder, so none 0-byte or partial",
          rc != 0 and "disk full" in log and "records kept" in log
          and varstore.irqlab_records(os.path.join(run_dir, "vars.fd"))
          and listed.returncode == 0
          and "::/EFI/irqlab/irqlab.cfg" in listing and not left,
          "rc %d, mdir %d\n%s\n%s%s" % (rc, listed.returncode, log[-600:],
                                        listing, listed.stderr))


def one_time_boot(o):
    """A stick booted once from the firmware's menu, the installed OS
    first in BootOrder: irqlab's BootNext brings the reset back to it, so
    phase C runs on the next boot anyway, and BootOrder stays as it was."""
    rc, run_dir, results = o.rc, o.run_dir, o.results
    before = varstore.boot_variables(os.path.join(run_dir,
                                                  "vars-after-boot0.fd"))
    after = varstore.boot_variables(os.path.join(run_dir, "vars.fd"))
    doc, folders = load_results(results)
    how = doc["boot_return"] if doc else None
    check("one-time-boot: the other disk boots by default; irqlab started "
          "once through BootNext came back by itself for phase C",
          rc == 0 and doc is not None
          and "the other disk booted" in serial(run_dir, 0)
          and "the other disk booted" not in serial(run_dir, 2)
          and statuses(run_dir, 2, "results")
          and how == {"how": "boot-next",
                      "boot_current": "Boot%04X" % int.from_bytes(
                          varstore.boot_variables(os.path.join(
                              run_dir, "vars-after-boot1.fd")).get(
                              "BootNext", b"\xff\xff"), "little")},
          "rc %d, %s, %s" % (rc, folders, how))
    check("one-time-boot: BootOrder and the boot options are unchanged, and "
          "BootNext is used up", before.get("BootOrder")
          and {k: v for k, v in after.items() if k != "BootNext"}
          == {k: v for k, v in before.items() if k != "BootNext"}
          and "BootNext" not in after,
          "before %s\nafter %s" % (sorted(before), sorted(after)))


def collect_sources(run_dir):
    """make collect reads an image file, a block device and a mounted
    stick alike, copies every run folder and acpi\\, and never
    overwrites a folder already there."""
    collect = os.path.join(ROOT, "image", "collect.sh")
    disk = os.path.join(BUILD, "collect", "disk.img")
    subprocess.run(["rm", "-rf", os.path.dirname(disk)], check=True)
    os.makedirs(os.path.dirname(disk))
    shutil.copy(os.path.join(run_dir, "disk.img"), disk)

    def collect_from(source, label):
        dest = os.path.join(BUILD, "collect", label)
        first = subprocess.run([collect, source, dest], capture_output=True,
                               text=True)
        again = subprocess.run([collect, source, dest], capture_output=True,
                               text=True)
        got = sorted(os.listdir(dest)) if os.path.isdir(dest) else []
        runs = got
        check("collect from %s: every run folder copied and named, with the "
              "tables its run read in its own acpi\\; a second collect "
              "overwrites nothing" % label,
              first.returncode == 0 and again.returncode == 0
              and len(runs) == 1
              and os.path.exists(os.path.join(dest, runs[0], "results.json"))
              and os.path.exists(os.path.join(dest, runs[0], "acpi",
                                              "APIC.bin"))
              and "copied %s" % runs[0] in first.stdout
              and "not overwritten" in again.stdout,
              first.stdout + first.stderr + again.stdout)

    collect_from(disk, "image-file")
    loop = subprocess.run(["losetup", "--find", "--show", "--partscan",
                           "--read-only", disk], capture_output=True,
                          text=True)
    if loop.returncode != 0:
        check.skip("collect from a block device and a mount point",
                   "losetup failed (%s)" % loop.stderr.strip())
        return
    device = loop.stdout.strip()
    try:
        collect_from(device, "loop-device")
    finally:
        subprocess.run(["losetup", "-d", device])
    mnt = os.path.join(BUILD, "collect", "mnt")
    os.makedirs(mnt)
    # the ESP starts 1 MiB in (image/mkimage.sh); partition device nodes
    # need udev, which a container may lack
    mounted = subprocess.run(["mount", "-o", "ro,loop,offset=1048576", disk,
                              mnt], capture_output=True, text=True)
    if mounted.returncode == 0:
        try:
            collect_from(mnt, "mount-point")
        finally:
            subprocess.run(["umount", mnt])
        return
    # No vfat here: the same tree, copied off the ESP, is what a mounted
    # stick shows, and takes the same path through collect.sh.
    print("note  mount failed (%s): collecting from the ESP's tree instead"
          % mounted.stderr.strip().splitlines()[0])
    subprocess.run(["mcopy", "-s", "-n", "-i", disk + "@@1M", "::/EFI", mnt],
                   check=True, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    collect_from(mnt, "mounted-tree")


def usb_writer():
    """make usb refuses what is not a whole removable or USB disk, and
    leaves the backup GPT header at the end of the device it wrote."""
    usb = os.path.join(ROOT, "image", "usb.sh")
    stick = os.path.join(BUILD, "usb", "stick.img")
    subprocess.run(["rm", "-rf", os.path.dirname(stick)], check=True)
    os.makedirs(os.path.dirname(stick))
    with open(stick, "wb") as f:
        f.truncate(96 << 20)    # a stick larger than the 64 MiB image
    refused = subprocess.run([usb, IMAGE, stick], input="yes\n",
                             capture_output=True, text=True)
    check("usb: a file is refused", refused.returncode != 0
          and "not a block device" in refused.stderr, refused.stderr)
    loop = subprocess.run(["losetup", "--find", "--show", stick],
                          capture_output=True, text=True)
    if loop.returncode != 0:
        check.skip("usb: writing a loop device",
                   "losetup failed (%s)" % loop.stderr.strip())
        return
    device = loop.stdout.strip()
    try:
        plain = subprocess.run([usb, IMAGE, device], input="yes\n",
                               capture_output=True, text=True)
        check("usb: a device that is not a whole disk (a loop device) is "
              "refused", plain.returncode != 0
              and "a loop device, not a whole disk" in plain.stderr,
              plain.stderr)
        no = subprocess.run([usb, IMAGE, device], input="no\n",
                            capture_output=True, text=True,
                            env=dict(os.environ, USB_TEST_ALLOW_LOOP="1"))
        wrote = subprocess.run([usb, IMAGE, device], input="yes\n",
                               capture_output=True, text=True,
                               env=dict(os.environ, USB_TEST_ALLOW_LOOP="1"))
        dump = subprocess.run(["sfdisk", "--dump", device],
                              capture_output=True, text=True).stdout
        last = re.search(r"last-lba: (\d+)", dump)
        check("usb: asks first, shows the device, writes, and moves the "
              "backup GPT header to the device's end",
              no.returncode != 0 and "not written" in no.stdout
              and wrote.returncode == 0 and "transport" in wrote.stdout
              and last and int(last.group(1)) == (96 << 20) // 512 - 34,
              "%s %s %s" % (wrote.stdout[-300:], wrote.stderr[-300:], dump))
        mine = os.path.join(os.path.dirname(stick), "mine.cfg")
        with open(mine, "w") as f:
            f.write("samples = 321\n")
        given = subprocess.run([usb, IMAGE, device, mine], input="yes\n",
                               capture_output=True, text=True,
                               env=dict(os.environ, USB_TEST_ALLOW_LOOP="1"))
        on_stick = subprocess.run(
            ["mtype", "-i", device + "@@1M", "::/EFI/irqlab/irqlab.cfg"],
            capture_output=True, text=True,
            env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        check("usb: CONFIG= puts that file on the stick as its irqlab.cfg",
              given.returncode == 0 and on_stick.stdout == "samples = 321\n",
              given.stdout[-300:] + given.stderr[-300:] + on_stick.stderr)
    finally:
        subprocess.run(["losetup", "-d", device])


# Phase B's progress page (efi/progress.c): its background, and the done
# part of its bar, a colour nothing else on it has.
PROGRESS_BACKGROUND = bytes((0, 0, 48))
PROGRESS_BAR_DONE = bytes((0, 192, 0))


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, size, _, pixels = data.split(b"\n", 3)
    width, height = map(int, size.split())
    return width, height, pixels


def no_display(o):
    """No display adapter, so no GOP: progress stays on serial, and the
    results say why."""
    display = o.doc["display"] if o.doc else None
    summary = o.file("summary.txt") if o.doc else ""
    check("no-display: progress goes to serial only, and results.json and "
          "summary.txt say why", o.rc == 0 and display is not None
          and display["progress_on_screen"] is False
          and "no Graphics Output Protocol" in display["why_not"]
          and "progress went to serial only" in summary
          and "progress: step 1 of" in serial(o.run_dir, 1),
          "rc %d, %s" % (o.rc, display))


# seed 004's IO-APIC access strategies: rows that need no xAPIC, run in
# x2APIC mode where the firmware locked it.
ACCESS_ROWS = ("ioapic-level-uncached-nf", "ioapic-level-index-cached",
               "ioapic-level-index-cached-nf", "ioapic-level-value-cached",
               "ioapic-level-value-cached-nf")


def platform_simulated(o):
    """A gated PIT and a firmware-locked x2APIC, simulated (no emulator
    has either), and an IOMMU (QEMU's intel-iommu): each probe says what
    it saw in results.json, the PIT's rows are skipped with the probe's
    reason instead of timing out, the xAPIC rows with the lock's, and
    seed 004's access rows run, ok, in x2APIC mode."""
    doc = o.doc or {}
    probes = doc.get("platform", {})
    rows = {e["name"]: e for e in doc.get("experiments", [])}
    check("platform-simulated: results.json names the gated PIT and the "
          "x2APIC lock as simulated, and the one VT-d unit with remapping "
          "off", o.rc == 0
          and probes.get("pit", {}).get("state") == "simulated"
          and "gated" in probes["pit"]["detail"]
          and probes.get("x2apic-lock", {}).get("state") == "simulated"
          and probes.get("interrupt-remapping", {}).get("state") == "ok"
          and "1 VT-d unit" in probes["interrupt-remapping"]["detail"],
          str(probes)[:900])
    pit_rows = [n for n in rows if n.startswith(("ioapic-edge", "pic8259"))]
    pmu = probes.get("performance-counters", {})
    check("platform-simulated: TCG has no performance counters and no "
          "APERF/MPERF: the counters are absent by CPUID or found not to "
          "count (AMD's, which no CPUID bit announces, fault), APERF/MPERF "
          "absent with CPUID's reason, no row carries a clock ratio or "
          "core cycles, and the report leads with the TSC's unit",
          (pmu.get("state") == "absent" or (
              pmu.get("state") == "quirk"
              and "do not count here" in pmu.get("detail", "")))
          and doc["clock"]["cycles"]["state"] == "skipped"
          and doc["clock"]["lead_unit"] == doc["clock"]["unit"]
          and doc["method"]["cycles_floor"] is None
          and all(e.get("cycles") is None for e in rows.values())
          and probes.get("aperf-mperf", {}).get("state") == "absent"
          and "CPUID.06H:ECX[0] is 0" in probes["aperf-mperf"]["detail"]
          and rows and all(e.get("clock_ratio_milli") is None
                           for e in rows.values())
          and probes.get("frequency-pin", {}).get("detail", "").startswith(
              "not pinned: CPUID 8000_0007H:EDX[9] and [7] are 0"),
          "%s %s" % (probes.get("performance-counters"),
                     probes.get("aperf-mperf")))
    check("platform-simulated: the PIT's rows (ioapic-edge, pic8259) are "
          "skipped with the probe's reason, none timed out or failed",
          pit_rows and all(
              rows[n]["status"] == "skipped"
              and ("gated" in rows[n]["reason"]
                   or "locked x2APIC" in rows[n]["reason"])
              for n in pit_rows)
          and any("gated" in rows[n]["reason"] for n in pit_rows),
          str([(n, rows[n]["status"], rows[n]["reason"]) for n in pit_rows]))
    xapic = [n for n in rows if rows[n]["status"] == "skipped"
             and "locked x2APIC" in (rows[n]["reason"] or "")]
    access = [rows.get(n + "-direct", {}) for n in ACCESS_ROWS]
    check("platform-simulated: the xAPIC pass is skipped for the lock, and "
          "seed 004's five access-strategy rows end ok in x2APIC mode",
          "ipi-self-xapic-direct" in xapic
          and all(a.get("status") == "ok" and a.get("apic_mode") == "x2apic"
                  for a in access),
          "skipped for the lock: %s; access rows %s" % (
              xapic, [(a.get("name"), a.get("status"), a.get("apic_mode"))
                      for a in access]))


def nmi_in_switch(o):
    """INT 2 at each point of the 32-bit trips' mode switches where an NMI
    could come (simulate = nmi-in-switch): the switches' IDT holds vector
    2 in both formats, so every trip survives them, where a 64-bit IDT
    read as a 32-bit one (or the reverse) triple-faulted and reset the
    machine, losing the run."""
    rows = [e for e in (o.doc or {}).get("experiments", [])
            if "-i386-" in e["name"]]
    check("nmi-in-switch: with INT 2 in every switch window the run is "
          "kept and every i386 row ends ok",
          o.rc == 0 and len(rows) >= 6
          and all(e["status"] == "ok" for e in rows),
          "rc %d, %s" % (o.rc, [(e["name"], e["status"], e.get("reason"))
                                for e in rows]))


def hpet_missing(label):
    """No HPET, or a table pointing at nothing: the probe says so and the
    level rows are skipped with its reason, never a timeout."""
    def checks(o):
        doc = o.doc or {}
        probe = doc.get("platform", {}).get("hpet", {})
        level = [e for e in doc.get("experiments", [])
                 if e["name"].startswith("ioapic-level")]
        want = {"hpet-off": ("absent", "no usable ACPI HPET table"),
                "hpet-nowhere": ("quirk", "the HPET")}[label]
        check("%s: the HPET probe says %s, and every level row is skipped "
              "with a reason, none timed out" % (label, want[0]),
              o.rc == 0 and probe.get("state") == want[0]
              and want[1] in probe.get("detail", "")
              and level and all(e["status"] == "skipped" and e["reason"]
                                for e in level),
              "%s; %s" % (probe, [(e["name"], e["status"], e["reason"])
                                  for e in level][:3]))
    checks.__name__ = "hpet_missing"
    return checks


HPET_NOWHERE = os.path.join(BUILD, "hpet-nowhere.bin")


def hpet_table_to_nowhere():
    """An ACPI HPET table whose timer block is at 0xFED00000 on a machine
    with the HPET off (nothing answers there): for -acpitable."""
    body = struct.pack("<I", 0x8086a201)
    body += struct.pack("<BBBBQ", 0, 64, 0, 0, 0xFED00000)
    body += struct.pack("<BHB", 0, 0x80, 0)
    table = bytearray(b"HPET" + struct.pack("<IBB", 36 + len(body), 1, 0)
                      + b"IRQLAB" + b"NOWHERE " + struct.pack("<I", 1)
                      + b"IRQL" + struct.pack("<I", 1) + body)
    table[9] = (-sum(table)) & 0xff
    os.makedirs(BUILD, exist_ok=True)
    with open(HPET_NOWHERE, "wb") as f:
        f.write(table)


def reset_returns(o):
    """A ResetSystem that returns (simulate = reset-returns: it is not
    called): irqlab resets through port 0xCF9 itself, the reset reaches
    phase C, and the results say the run simulated it."""
    resets = [r.get("method") for r in statuses(o.run_dir, 1, "reset")]
    config = o.doc["config"] if o.doc else {}
    check("no-display: with ResetSystem returning, phase B resets through "
          "port 0xCF9, phase C writes the files, and the config in "
          "results.json says reset-returns was simulated",
          o.rc == 0 and resets == ["port-0xcf9"]
          and statuses(o.run_dir, 1, "handed-over")
          and config.get("simulate") == "reset-returns",
          "rc %d, resets %s, simulate %s" % (o.rc, resets,
                                             config.get("simulate")))


def progress_screen():
    """Screendumps every second through the QEMU monitor while phase B
    measures: the screen shows the progress page, it changes, and the
    bar advances, where it used to freeze on "exiting boot services"."""
    name = "progress-screen"
    shots = os.path.join(BUILD, name, "shots")
    subprocess.run(["rm", "-rf", shots], check=True)
    os.makedirs(shots)
    # A short folder of its own: a socket's path must stay under 108 bytes.
    sock = os.path.join(tempfile.mkdtemp(prefix="irqlab-mon-"), "monitor.sock")
    config = ("samples = 5000\nwarmup = 10\ncold_samples = 50\n"
              "thrash_samples = 2\nprimitive_blocks = 20\n"
              "gap_samples = 300\nhistograms = 0\n")
    done = threading.Event()
    result = {}

    def measure():
        try:
            result["run"] = run(name, "", config=config,
                                extra_env={"TPM": "off", "MONITOR": sock})
        finally:
            done.set()

    runner = check.thread("progress-screen: the measuring run", measure)
    runner.start()
    n = 0
    while not done.wait(1.0):
        try:
            with socket.socket(socket.AF_UNIX) as mon:
                mon.settimeout(5)
                mon.connect(sock)
                mon.recv(4096)
                mon.sendall(b"screendump %s\n" % os.path.join(
                    shots, "shot-%03d.ppm" % n).encode())
                mon.recv(4096)
                n += 1
        except OSError:
            pass
    runner.join()
    rc, run_dir, results = result["run"]
    pages = []
    for shot in sorted(os.listdir(shots)):
        try:
            width, height, pixels = read_ppm(os.path.join(shots, shot))
        except (OSError, ValueError):
            continue
        if pixels[:3] == PROGRESS_BACKGROUND:
            bar = sum(1 for i in range(0, len(pixels), 3)
                      if pixels[i:i + 3] == PROGRESS_BAR_DONE)
            pages.append((shot, bar, pixels))
    bars = [bar for _, bar, _ in pages]
    check("progress-screen: the run completed, and %d screendumps show phase "
          "B's progress page" % len(pages), rc == 0 and len(pages) >= 2,
          "rc %d, %d shots, %d pages" % (rc, n, len(pages)))
    check("progress-screen: the screen changes and the bar advances while "
          "phase B measures", len(pages) >= 2
          and len({p for _, _, p in pages}) >= 2
          and bars == sorted(bars) and bars[-1] > bars[0], str(bars))


def boot_seconds(run_dir, boot):
    """What run.sh said boot `boot` took."""
    with open(os.path.join(run_dir, "run.log")) as f:
        m = re.search(r"boot %d: (\d+) s" % boot, f.read())
    return int(m.group(1)) if m else None


def other_cpus(tiny):
    """-smp 4 (two sockets of two cores): phase B sends each other
    processor the MADT lists an INIT, and QEMU's monitor then shows the
    three halted in wait-for-SIPI while phase B measures; the run takes
    about as long as with -smp 1, where firmware loops on the other vCPUs
    once took a host core each. Each sits where QEMU's topology says."""
    name = "other-cpus"
    sock = os.path.join(tempfile.mkdtemp(prefix="irqlab-mon-"), "monitor.sock")
    # The cross-CPU rows and section start the others again; the
    # cross-cpu run has them, and this one shows the others parked while
    # CPU 0 measures.
    config = (tiny + "schemes = direct\nvariants = none\ncpus = 0\n"
              + SINGLE_CPU_SOURCES)
    seen = {}
    result = {}
    done = threading.Event()

    def measure():
        try:
            result["run"] = run(name + "-4", "", config=config,
                                extra_env={"TPM": "off",
                                           "SMP": "4,sockets=2,cores=2",
                                           "MONITOR": sock})
        finally:
            done.set()

    alone = run(name + "-1", "", config=config, extra_env=TPM_OFF)
    runner = check.thread("other-cpus: the -smp 4 run", measure)
    runner.start()
    log = os.path.join(BUILD, name + "-4", "boot1.log")
    while not done.wait(0.2) and "cpus" not in seen:
        try:
            with open(log, "rb") as f:
                if b"irqlab-status: other-cpus" not in f.read():
                    continue
            with socket.socket(socket.AF_UNIX) as mon:
                mon.settimeout(5)
                mon.connect(sock)
                mon.recv(4096)
                mon.sendall(b"info registers -a\n")
                time.sleep(1.0)
                out = b""
                while True:
                    try:
                        chunk = mon.recv(65536)
                    except socket.timeout:
                        break
                    if not chunk:
                        break
                    out += chunk
                    if out.count(b"HLT=") >= 4:
                        break
                seen["cpus"] = out.decode("latin-1")
        except OSError:
            pass
    runner.join()
    rc, run_dir, _ = result["run"]
    parked = statuses(run_dir, 1, "other-cpus")
    # Each CPU's dump: "CPU#n", then its registers; after INIT a
    # processor holds the reset state (EIP fff0) and waits, halted, for
    # a SIPI (SDM vol. 3A §9.1.1, Table 9-1).
    dumps = re.split(r"\nCPU#", "\n" + seen.get("cpus", ""))[1:]
    states = [(bool(re.search(r"HLT=1", d)),
               bool(re.search(r"EIP=0000fff0", d))) for d in dumps]
    check("other-cpus: with -smp 4 phase B starts the 3 other processors "
          "into long mode (INIT-SIPI-SIPI, each reaching ap_main), parks "
          "them again (INIT), and QEMU's monitor shows CPUs 1-3 halted at "
          "the reset vector (wait-for-SIPI) while CPU 0 measures",
          rc == 0 and parked and parked[0].get("started") == "3"
          and parked[0].get("listed") == "4" and parked[0].get("parked") == "3"
          and parked[0].get("stuck") == "0" and len(states) == 4
          and states[0] != (True, True)
          and all(st == (True, True) for st in states[1:]),
          "rc %d, %s, HLT and EIP=fff0 per CPU %s" % (rc, parked, states))
    # QEMU numbers the APIC IDs socket by socket: CPU 1 shares CPU 0's
    # socket (and its last-level cache, a socket's), CPUs 2 and 3 are
    # the other socket's (bench/model/topology.c).
    folders = result_folders(os.path.join(run_dir, "results"))
    topology = None
    if folders:
        with open(os.path.join(run_dir, "results", folders[0],
                               "results.json")) as f:
            topology = json.load(f)["machine"]["topology"]
    check("other-cpus: where the 3 sit from CPU 0 follows the topology QEMU "
          "gives (-smp 4,sockets=2,cores=2): one behind the same last-level "
          "cache, two in the other package, in the status line and the "
          "results",
          parked and parked[0].get("relations")
          == "same-llc:1/other-package:2"
          and topology is not None and topology["package_shift"] == 1
          and topology["other_cpus"] == {"smt-sibling": 0, "same-llc": 1,
                                         "same-package": 0,
                                         "other-package": 2, "unknown": 0},
          "%s %s" % (parked, topology))
    one, four = boot_seconds(alone[1], 1), boot_seconds(run_dir, 1)
    check("other-cpus: the measuring boot takes about as long with -smp 4 as "
          "with -smp 1 (at most 1.5 times, plus 5 s)",
          alone[0] == 0 and one is not None and four is not None
          and four <= 1.5 * one + 5, "-smp 1: %s s, -smp 4: %s s" % (one, four))


CROSS_CPU_SOURCES = ("ipi-cpu-roundtrip", "ipi-cpu-roundtrip-halted",
                     "ipi-cpu-roundtrip-mwait", "ipi-cpu-nmi")
SINGLE_CPU_SOURCES = ("sources = int, ipi-self-xapic, ipi-self-x2apic-selfipi, "
                      "ipi-self-x2apic-icr, lapic-oneshot, lapic-periodic, "
                      "lapic-tscdeadline, ioapic-edge, ioapic-level, "
                      "pic8259\n")
CROSS_CPU_STATES = {"ipi-cpu-roundtrip": "spin",
                    "ipi-cpu-roundtrip-halted": "halt",
                    "ipi-cpu-roundtrip-mwait": "mwait",
                    "ipi-cpu-nmi": "spin"}


def cross_cpu(o):
    """-smp 4 (two sockets of two cores): each cross-CPU source runs in
    xAPIC and x2APIC mode against the closest other CPU (behind the same
    last-level cache), spinning, halted and in MWAIT. Every IPI sent
    arrives once and is answered once: the target's handler took exactly
    the interrupts CPU 0's handler counted, no AP faulted, every AP took
    each command, and phase C ran after they were parked again."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    lines = statuses(o.run_dir, 1, "cross-cpu")
    # The last line of a source in a mode is its measuring pass's.
    last = {}
    for line in lines:
        last[(line.get("source"), line.get("mode"))] = line
    per_row = (TINY_SAMPLES + TINY_WARMUP) * 2
    bad = []
    for source in CROSS_CPU_SOURCES:
        for mode, suffix in (("xapic", ""), ("x2apic", "@x2apic")):
            name = "%s-direct%s" % (source, suffix)
            row, line = rows.get(name), last.get((source, mode), {})
            # TCG's MWAIT with several vCPUs is a PAUSE: the target wakes
            # at once every time, and the row is skipped for what the
            # emulator lacks, saying so with the count.
            mwait = source == "ipi-cpu-roundtrip-mwait"
            if not (row and (row["status"] == "skipped"
                             and "it did not wait" in row["reason"]
                             and row["target_wakeups_without_interrupt"]
                             > per_row // 100
                             and line.get("wakeups") == str(
                                 row["target_wakeups_without_interrupt"])
                             if mwait else row["status"] == "ok")
                    and row["delivered"] == per_row
                    and line.get("took") == str(per_row)
                    and line.get("target_took") == str(per_row)
                    and line.get("faults") == "0" and line.get("late") == "0"
                    and line.get("relation") == "same-llc"
                    and line.get("told") == CROSS_CPU_STATES[source]):
                bad.append("%s: %s %s" % (name, row and (
                    row["status"], row.get("reason"), row["delivered"]),
                    line))
    check("cross-cpu: with -smp 4 each of the %d cross-CPU sources, in xAPIC "
          "and x2APIC mode, runs against the same-llc CPU, waiting as its "
          "row says: ok, but the MWAIT row, skipped because its target woke "
          "more than once per 100 interrupts without one (TCG's MWAIT does "
          "not wait), the count in results.json and the status line; CPU "
          "0's handler counted %d interrupts and the target's took exactly "
          "as many, with no fault and every command taken"
          % (len(CROSS_CPU_SOURCES), per_row),
          o.rc == 0 and not bad and len(lines) > 0, "; ".join(bad) or
          "rc %d, %d status lines" % (o.rc, len(lines)))
    # What the target did, counted by itself: every HLT or MWAIT it
    # served, read once it stopped waiting. Halted, each IPI ended one,
    # as did each wake-up without an interrupt, and the command that
    # ended the row may have ended one more; TCG's MWAIT returns at once,
    # so it served at least one per IPI; a spinning target served none.
    did = []
    for source in CROSS_CPU_SOURCES:
        for mode in ("xapic", "x2apic"):
            line = last.get((source, mode), {})
            halts, mwaits = (int(line.get(k, -1)) for k in ("halts",
                                                               "mwaits"))
            woke = per_row + int(line.get("wakeups", 0))
            told = CROSS_CPU_STATES[source]
            if not (woke <= halts <= woke + 1 and mwaits == 0
                    if told == "halt" else halts == 0 and mwaits >= per_row
                    if told == "mwait" else halts == 0 and mwaits == 0):
                did.append("%s %s: %s" % (source, mode, line))
    check("cross-cpu: each target did what it was told, by its own count: "
          "halted, its %d IPIs and each wake-up without an interrupt each "
          "ended one HLT (one more at most for the command that ended the "
          "row) and no MWAIT; in MWAIT, at least %d MWAITs and no HLT; "
          "spinning, neither" % (per_row, per_row),
          o.rc == 0 and not did, "; ".join(did))
    sweeps = [l for l in lines if l.get("took") == "1"]
    check("cross-cpu: the vector sweep fired each cross-CPU row's 7 vectors "
          "at the target one by one, each taken once there and answered",
          len(sweeps) == 7 * 2 * 2 * len(CROSS_CPU_SOURCES)
          and all(l.get("target_took") == "1" for l in sweeps),
          "%d single-interrupt lines of %d" % (len(sweeps), len(lines)))


def cross_cpu_section(o):
    """-smp 4: the cross-CPU section after the rows. The broadcasts reach
    the 3 others and wait for 3 acks; every ordered pair of the 4 CPUs
    has its acked row, in the relation QEMU's topology gives; the one-way
    rows carry a measured TSC offset bound and are skipped, since TCG
    offers no invariant TSC; the others' handlers took exactly the IPIs
    sent to them; summary.txt draws the matrix."""
    x = (o.doc or {}).get("cross_cpu", {})
    rows = x.get("rows", [])
    samples = TINY_SAMPLES // 4 + TINY_WARMUP
    pairs = {(r["sender"], r["target"]): r for r in rows
             if r["kind"] == "ipi-ack"}
    near = {(0, 1), (1, 0), (2, 3), (3, 2)}
    broadcasts = [r for r in rows if r["target"] == "all"]
    check("cross-cpu: the broadcast and the per-target loop each waited "
          "for the 3 others' acks, in every sample",
          len(broadcasts) == 2 and all(
              r["status"] == "ok" and r["targets"] == 3
              and r["samples"] == TINY_SAMPLES // 4
              for r in broadcasts), str(broadcasts))
    check("cross-cpu: each of the 12 ordered pairs of the 4 CPUs has its "
          "acked row, ok, same-llc within a socket and other-package "
          "across",
          len(pairs) == 12 and all(
              r["status"] == "ok" and r["relation"] ==
              ("same-llc" if k in near else "other-package")
              for k, r in pairs.items()),
          str([(k, r["status"], r["relation"], r.get("reason"))
               for k, r in pairs.items()]))
    one_way = [r for r in rows if r["kind"] == "ipi-oneway"]
    check("cross-cpu: the 12 one-way rows each carry a measured TSC offset "
          "bound (low <= high) and are skipped because TCG's TSC is not "
          "invariant, never shown",
          len(one_way) == 12 and all(
              r["status"] == "skipped" and "invariant TSC" in r["reason"]
              and r.get("tsc_offset")
              and r["tsc_offset"]["low"] <= r["tsc_offset"]["high"]
              and "time" not in r for r in one_way),
          str(one_way[:2]))
    took = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "cross-cpu"]
    # Each AP: 2 broadcast rows, and 3 senders' pair rows, every sample
    # and warm-up one IPI.
    want = 3 * (2 + 3) * samples
    check("cross-cpu: the other processors' handlers took exactly the %d "
          "IPIs the section sent them, none faulted" % want,
          len(took) == 1 and took[0].get("took") == str(want)
          and took[0].get("faults") == "0", str(took))
    summary = o.file("summary.txt") if o.folders else ""
    check("cross-cpu: summary.txt has the section, each relation's median "
          "and the 4 by 4 matrix",
          "Between CPUs" in summary and "ipi-ack medians, sender (row)" in
          summary and re.search(r"^ipi-ack\s+same-llc\s+\d+\s+4$",
                                summary, re.M)
          and re.search(r"^ipi-ack\s+other-package\s+\d+\s+8$",
                        summary, re.M), summary[-1500:])
    kept = [r for r in rows if "distribution" in r]
    check("cross-cpu: the first acknowledged pair of each relation (same-llc "
          "0 -> 1, other-package 0 -> 2) keeps its distribution, whose "
          "buckets count its %d samples, and no other pair does"
          % (TINY_SAMPLES // 4),
          [(r["relation"], r["sender"], r["target"]) for r in kept]
          == [("same-llc", 0, 1), ("other-package", 0, 2)]
          and all(r["kind"] == "ipi-ack" and sum(b[2] for b in r[
              "distribution"]) == r["samples"] for r in kept),
          str([(r["relation"], r["sender"], r["target"],
                r.get("samples")) for r in kept]))


def cross_cpu_fault(o):
    """-smp 4 with cpus = 0, 2, 3 and simulate = ap-fault: the matrix
    takes the boot CPU and the MADT's CPUs 2 and 3 (APIC ids 2 and 3),
    6 ordered pairs. The first other processor to send (APIC id 2) raises
    #UD instead: it is recorded with its CPU, it parks itself, the pairs
    it is part of from then on fail saying so, and every other pair and
    the run go on."""
    rows = (o.doc or {}).get("cross_cpu", {}).get("rows", [])
    pairs = {(r["sender"], r["target"]): r for r in rows
             if r["kind"] == "ipi-ack"}
    fails = {(2, 0), (2, 3), (3, 2)}
    log = serial(o.run_dir, 1) if o.run_dir else ""
    line = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "cross-cpu"]
    check("cross-cpu-fault: cpus = 0, 2, 3 takes 3 processors (6 ordered "
          "pairs); the #UD on APIC id 2 is logged with its CPU, fails the "
          "3 pairs it is part of from then on, with that reason, and the "
          "other 3 pairs and the run go on",
          o.rc == 0 and set(pairs) == {(0, 2), (0, 3), (2, 0), (2, 3),
                                       (3, 0), (3, 2)}
          and all((r["status"] == "failed"
                   and "APIC id 2 raised exception 6" in r["reason"])
                  if k in fails else r["status"] == "ok"
                  for k, r in pairs.items())
          and "CPU 2, APIC id 2: exception 6; it parked itself" in log
          and len(line) == 1 and line[0].get("faults") == "1",
          "rc %d, %s, %s" % (o.rc, [(k, r["status"], r.get("reason"))
                                    for k, r in pairs.items()], line))
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    boot, there = rows.get("int-direct"), rows.get("int-direct@cpu3")
    check("cross-cpu-fault: matrix_cpus = 3 runs int-direct again on CPU 3 "
          "(the other socket), in the boot CPU's place, ok with as many "
          "interrupts as the boot CPU's row; a processor that is not hybrid "
          "says so",
          boot and there and boot["status"] == "ok"
          and there["status"] == "ok" and there["on_cpu"] == 3
          and there["delivered"] == boot["delivered"]
          and there["core_type"] == "not-hybrid",
          str(there and (there["status"], there.get("reason"),
                         there["delivered"])))


# The rows the matrix_cpus tests run on another processor.
MATRIX_CPU_SOURCES = ("int", "ipi-self-xapic", "ipi-self-x2apic-icr")


def check_other_cpu_clocks(label, o, cpus):
    """Each processor in `cpus` (MADT indexes) that ran rows or sent IPIs
    has its own clock entry: under QEMU's TCG, which has no clock
    controls and no APERF/MPERF, not pinned for the boot CPU's reason,
    LFENCE as the boot CPU found it, no ratio; started at least once and
    put back before each INIT; the summary and the log say so for each."""
    doc = o.doc or {}
    clocks = {c["cpu"]: c for c in doc.get("clock", {}).get("other_cpus", [])}
    boot_pin = doc.get("platform", {}).get("frequency-pin", {})
    summary = o.file("summary.txt") if o.folders else ""
    log = serial(o.run_dir, 1) if o.run_dir else ""
    check("%s: each processor that ran rows or sent IPIs (CPU %s) is "
          "recorded not pinned, with the boot CPU's reason (%s), LFENCE "
          "'serialising' or 'in-order', no APERF/MPERF ratio, started and "
          "put back before INIT; summary.txt and the log say so for each"
          % (label, ", ".join(map(str, cpus)), boot_pin.get("detail")),
          set(clocks) == set(cpus)
          and boot_pin.get("state") == "absent"
          and boot_pin.get("detail", "").startswith("not pinned: ")
          and all(c["pinned"] is False and c["pin"] == "not-pinned"
                  and c["pin_reason"] == "as the boot CPU: "
                  + boot_pin["detail"]
                  and c["lfence"] in ("serialising", "in-order")
                  and c["aperf_mperf_milli"] is None
                  and c["aperf_mperf"] == "absent on the boot CPU"
                  and c["starts"] >= 1 and c["restored"] is True
                  for c in clocks.values())
          and all("CPU %d: as the boot CPU: not pinned: " % n in summary
                  and "other CPUs: CPU %d: clock not-pinned, LFENCE " % n
                  in log for n in cpus),
          str(list(clocks.values())))


def matrix_on_cpu1_icount(o):
    """-smp 2 under -icount, matrix_cpus = 1, 5: CPU 1 takes the boot
    CPU's place for INT n and the self-IPIs under every scheme, in xAPIC
    and x2APIC mode, while the boot CPU halts. Under -icount a halted
    vCPU runs nothing, so CPU 1's figures are its own path lengths: each
    must equal the boot CPU's, to the instruction. CPU 5 is not in the
    MADT: its rows are skipped, saying so."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    boot = [e for e in rows.values() if e["on_cpu"] is None
            and e["cpu_mode"] == "long"
            and e["source"] in MATRIX_CPU_SOURCES and e["status"] == "ok"]
    schemes = {e["scheme"] for e in boot if e["source"] == "int"}
    bad = []
    for e in boot:
        twin = rows.get(e["name"] + "@cpu1")
        if not twin or twin["status"] != "ok" or twin["on_cpu"] != 1 \
                or twin["delivered"] != e["delivered"] \
                or any(twin[k]["median"] != e[k]["median"]
                       for k in ("entry", "exit", "round_trip")):
            bad.append((e["name"], twin and (twin["status"],
                        twin.get("reason"), [twin.get(k, {}).get("median")
                        for k in ("entry", "exit", "round_trip")])))
    check("matrix-on-cpu1-icount: every boot-CPU row of INT n and the "
          "self-IPIs (%d rows, INT n under %d schemes) ran again on CPU 1, "
          "ok, with as many interrupts and entry, exit and round-trip "
          "medians equal to the boot CPU's to the instruction"
          % (len(boot), len(schemes)),
          o.rc == 0 and len(boot) >= 15 and len(schemes) >= 8 and not bad,
          "rc %s, %d rows: %s" % (o.rc, len(boot), bad[:6]))
    cpu5 = [e for e in rows.values() if e["on_cpu"] == 5]
    check("matrix-on-cpu1-icount: matrix_cpus names CPU 5, which the MADT "
          "of -smp 2 lacks: each of its rows is skipped saying the MADT "
          "lists 2 processors",
          len(cpu5) == len([e for e in rows.values()
                            if e["on_cpu"] is None
                            and e["cpu_mode"] == "long"
                            and e["source"] in MATRIX_CPU_SOURCES])
          and all(e["status"] == "skipped" and "the MADT lists 2 "
                  "processors; there is no CPU 5" in (e.get("reason") or "")
                  for e in cpu5),
          str([(e["name"], e["status"], e.get("reason")) for e in cpu5][:4]))
    side = [r for r in (o.doc or {}).get("matrix_on_other_cpus", [])
            if r["cpu"] == 1 and r["status"] == "ok"]
    log = serial(o.run_dir, 1) if o.run_dir else ""
    summary = o.file("summary.txt") if o.folders else ""
    check("matrix-on-cpu1-icount: results.json sets each CPU 1 row beside "
          "the boot CPU's with entry, exit and round trip 0 over it, in "
          "QEMU -icount's instructions; "
          "summary.txt has the section; the log says CPU 1 took the place "
          "in xAPIC and in x2APIC mode",
          len(side) == len(boot) and all(
              r["status"] == "ok" and r["entry_over_boot"] == 0
              and r["unit"].startswith("instructions (QEMU -icount")
              and r["exit_over_boot"] == 0 and r["round_trip_over_boot"] == 0
              for r in side)
          and "On other processors, each in the boot CPU's place" in summary
          and "CPU 1, APIC id 1, takes the boot CPU's place (xapic)" in log
          and "CPU 1, APIC id 1, takes the boot CPU's place (x2apic)" in log,
          str(side[:3]))
    check_other_cpu_clocks("matrix-on-cpu1-icount", o, [1])


def matrix_all_rows(o):
    """-smp 2, matrix_cpus = 1, matrix_cpus_rows = all: every long-mode
    row but the 8259's runs again on CPU 1 with the status the boot
    CPU's has, an ok one with as many interrupts: the entry variants, the
    cold state, the local APIC's timers and the IO-APIC's lines, routed
    to CPU 1 in both APIC modes. The 8259, which reaches the boot CPU's
    LINT0 alone, is not run there."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    boot = [e for e in rows.values() if e["on_cpu"] is None
            and e["cpu_mode"] == "long" and e["source"] != "pic8259"
            and not e["source"].startswith("ipi-cpu")]
    bad = [(e["name"], rows.get(e["name"] + "@cpu1", {}).get("status"),
            rows.get(e["name"] + "@cpu1", {}).get("reason"))
           for e in boot if e["name"] + "@cpu1" not in rows
           or rows[e["name"] + "@cpu1"]["status"] != e["status"]
           or e["status"] == "ok" and rows[e["name"] + "@cpu1"][
               "delivered"] != e["delivered"]]
    routed = [n for n in rows if n.startswith("ioapic-") and
              n.endswith("@cpu1") and rows[n]["status"] == "ok"]
    check("matrix-all-rows: each of the boot CPU's %d long-mode rows but "
          "the 8259's ran again on CPU 1 with the same status and, where "
          "ok, as many interrupts; IO-APIC rows routed to CPU 1 among them "
          "in both APIC modes; no 8259 row on CPU 1" % len(boot),
          o.rc == 0 and len(boot) >= 15 and not bad
          and any(n.endswith("@x2apic@cpu1") for n in routed)
          and any(not n.endswith("@x2apic@cpu1") for n in routed)
          and not any(n.startswith("pic8259") and "@cpu" in n for n in rows),
          "rc %s, %s, routed %s" % (o.rc, bad[:6], routed))


def cross_cpu_icount(o):
    """-smp 2,maxcpus=4 under -icount, with simulate = ap-absent: the two
    processors the MADT lists absent are named, tried as if there, each
    reported as not started, and the run goes on with the one that is.
    Under -icount the cross-CPU figures are QEMU's round-robin, so they
    are labelled scheduler artefacts and only counts are checked: each
    row's and the section's IPIs all arrive, exactly once."""
    parked = statuses(o.run_dir, 1, "other-cpus")
    log = serial(o.run_dir, 1)
    check("cross-cpu-icount: the MADT's 2 absent processors are named, "
          "tried under simulate = ap-absent, and each reported as not "
          "started; the present one starts",
          len(parked) == 1 and parked[0].get("listed") == "2"
          and parked[0].get("absent") == "2"
          and parked[0].get("started") == "1"
          and "CPU 2, APIC id 2 (listed absent): did not start" in log
          and "CPU 3, APIC id 3 (listed absent): did not start" in log,
          str(parked))
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    per_row = (ICOUNT_CROSS_SAMPLES + ICOUNT_CROSS_WARMUP) * 2
    line = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "ipi-cpu-roundtrip"][-1:]
    row = rows.get("ipi-cpu-roundtrip-direct")
    check("cross-cpu-icount: the cross-CPU row delivered its %d interrupts, "
          "the target took as many, and the row says its figures are "
          "scheduler artefacts" % per_row,
          o.rc == 0 and row and row["status"] == "ok"
          and row["delivered"] == per_row and line
          and line[0].get("target_took") == str(per_row)
          and line[0].get("target") == "1"
          and "scheduler artefacts" in row.get("between_cpus", ""),
          "%s %s" % (row and (row["status"], row.get("reason"),
                              row["delivered"], row.get("between_cpus")),
                     line))
    x = (o.doc or {}).get("cross_cpu", {})
    pairs = [r for r in x.get("rows", []) if r["kind"] == "ipi-ack"]
    section = [l for l in statuses(o.run_dir, 1, "cross-cpu")
               if l.get("source") == "cross-cpu"]
    samples = max(ICOUNT_CROSS_SAMPLES // 4, 20) + 10
    # The other CPU: the two broadcasts' and the boot CPU's pair's IPIs.
    check("cross-cpu-icount: the section's 2 ordered pairs and broadcasts "
          "are ok, the other CPU took exactly its %d IPIs, and the section "
          "says its figures are scheduler artefacts" % (3 * samples),
          len(pairs) == 2 and all(r["status"] == "ok" for r in pairs)
          and "scheduler artefacts" in x.get("figures", "")
          and len(section) == 1
          and section[0].get("took") == str(3 * samples),
          "%s %s %s" % (x.get("figures"), [(r["sender"], r["target"],
                                          r["status"]) for r in pairs],
                        section))
    check_other_cpu_clocks("cross-cpu-icount", o, [1])


def cross_cpu_alone(o):
    """-smp 1: no other processor, so each cross-CPU row is skipped with
    the MADT's word for it, never failed or faked."""
    rows = [e for e in (o.doc or {}).get("experiments", [])
            if e["name"].split("-direct")[0] in CROSS_CPU_SOURCES]
    check("cross-cpu: with -smp 1 the %d cross-CPU rows are skipped because "
          "the MADT lists CPU 0 alone" % (2 * len(CROSS_CPU_SOURCES)),
          len(rows) == 2 * len(CROSS_CPU_SOURCES)
          and all(e["status"] == "skipped" and "the MADT lists this "
                  "processor alone" in (e.get("reason") or "")
                  for e in rows), str([(e["name"], e["status"],
                                        e.get("reason")) for e in rows]))
    section = (o.doc or {}).get("cross_cpu", {}).get("rows", [])
    check("cross-cpu: with -smp 1 the cross-CPU section is one skipped row "
          "saying the MADT lists CPU 0 alone",
          len(section) == 1 and section[0]["status"] == "skipped"
          and "the MADT lists this processor alone" in section[0]["reason"],
          str(section))


def rescue(run_dir, results):
    """Records stranded in the store after boot 1, as Linux's efivarfs
    shows them: irqlab-rescue writes the same files phase C wrote, and
    deletes the records only when asked."""
    tool = os.path.join(ROOT, "build", "irqlab-rescue")
    efivars = os.path.join(BUILD, "rescue", "efivars")
    out = os.path.join(BUILD, "rescue", "results")
    subprocess.run(["rm", "-rf", os.path.dirname(efivars)], check=True)
    varstore.export_records(os.path.join(run_dir, "vars-after-boot1.fd"),
                            efivars)
    stranded = sorted(os.listdir(efivars))
    kept = subprocess.run([tool, "--reference", STICK_REFERENCE, efivars,
                           out], capture_output=True, text=True)
    folders = result_folders(results)
    same = bool(folders) and all(
        os.path.exists(os.path.join(out, folders[0], f))
        and open(os.path.join(results, folders[0], f), "rb").read()
        == open(os.path.join(out, folders[0], f), "rb").read()
        for f in ("results.json", "summary.txt", "run-1.bin"))
    check("rescue: %d stranded records give byte for byte the results.json, "
          "summary.txt and run-1.bin phase C wrote; kept unless asked"
          % len(stranded), kept.returncode == 0 and len(stranded) > 1
          and same and os.path.exists(os.path.join(out, folders[0],
                                                   "results.json"))
          and sorted(os.listdir(efivars)) == stranded,
          kept.stdout + kept.stderr)
    from_vars = subprocess.run(
        [tool, "--reference", STICK_REFERENCE, "--vars",
         os.path.join(run_dir, "vars-after-boot1.fd"), out + "-vars"],
        capture_output=True, text=True)
    same_vars = bool(folders) and all(
        os.path.exists(os.path.join(out + "-vars", folders[0], f))
        and open(os.path.join(results, folders[0], f), "rb").read()
        == open(os.path.join(out + "-vars", folders[0], f), "rb").read()
        for f in ("results.json", "summary.txt", "run-1.bin"))
    check("rescue --vars: the OVMF VARS file itself, read through the "
          "store walk phase A uses, gives the same files byte for byte",
          from_vars.returncode == 0 and same_vars,
          from_vars.stdout[-300:] + from_vars.stderr[-300:])
    again = subprocess.run([tool, "--reference", STICK_REFERENCE, efivars,
                            out], capture_output=True, text=True)
    check("rescue: a results folder that exists is never overwritten",
          again.returncode != 0 and "not overwritten" in again.stderr,
          again.stdout[-300:] + again.stderr[-300:])
    gone = subprocess.run([tool, "--delete", efivars, out + "-2"],
                          capture_output=True, text=True)
    check("rescue --delete: the records go once the files are verified",
          gone.returncode == 0 and os.listdir(efivars) == []
          and "wrote and verified" in gone.stdout, gone.stdout + gone.stderr)


def rescue_parts(results):
    """The last part of a run in parts, its records stranded in the store
    (made again from the part's own blob phase C kept): irqlab-rescue
    joins it with the earlier parts on the stick and writes byte for byte
    what phase C wrote; without the stick it names each missing part and
    writes the last part alone."""
    tool = os.path.join(ROOT, "build", "irqlab-rescue")
    folder = result_folders(results)[0]
    kept = os.path.join(results, folder)
    parts = sorted(int(m.group(1)) for m in
                   (re.match(r"run-1-part-(\d+)\.bin$", f)
                    for f in os.listdir(kept)) if m)
    with open(os.path.join(kept, "results.json")) as f:
        run_id = int(json.load(f)["run_id"].replace("-", ""))
    with open(os.path.join(kept, "run-1-part-%d.bin" % parts[-1]), "rb") as f:
        records = varstore.records_of(f.read(), run_id)
    work = os.path.join(BUILD, "rescue-parts")
    efivars = os.path.join(work, "efivars")
    subprocess.run(["rm", "-rf", work], check=True)
    varstore.write_efivars(efivars, [("IrqlabRecord%02d" % seq, record)
                                     for seq, record in enumerate(records)])
    joined = subprocess.run([tool, "--stick", results, "--reference",
                             STICK_REFERENCE, efivars,
                             os.path.join(work, "joined")],
                            capture_output=True, text=True)
    files = ["results.json", "summary.txt", "run-1.bin",
             "run-1-part-%d.bin" % parts[-1]]
    same = [f for f in files
            if os.path.exists(os.path.join(work, "joined", folder, f))
            and open(os.path.join(kept, f), "rb").read()
            == open(os.path.join(work, "joined", folder, f), "rb").read()]
    check("rescue-parts: the last of %d parts, from its records, joined with "
          "the earlier ones on the stick gives byte for byte the %s phase "
          "C wrote" % (len(parts), ", ".join(files)),
          joined.returncode == 0 and parts == list(range(1, len(parts) + 1))
          and len(parts) >= 2 and same == files
          and "%d parts joined" % len(parts) in joined.stdout,
          "%s %s\n%s%s" % (parts, same, joined.stdout, joined.stderr))
    alone = subprocess.run([tool, efivars, os.path.join(work, "alone")],
                           capture_output=True, text=True)
    with open(os.path.join(work, "alone", folder, "results.json")) as f:
        doc = json.load(f)
    check("rescue-parts: without the stick, each earlier part is named "
          "missing and the files hold the last part alone",
          alone.returncode == 0 and all(
              "part %d of %d is missing" % (p, len(parts)) in alone.stdout
              for p in parts[:-1]) and doc["handoff"]["parts"] == len(parts)
          and "these files hold this part alone" in alone.stdout,
          alone.stdout + alone.stderr)


def bochs_binary():
    """BOCHS, else bochs on the PATH; None when neither."""
    path = os.environ.get("BOCHS") or shutil.which("bochs")
    return path if path and os.access(path, os.X_OK) else None


def bochs_smp_binary():
    """BOCHS_SMP: Bochs built with --enable-smp; None without it."""
    path = os.environ.get("BOCHS_SMP")
    return path if path and os.access(path, os.X_OK) else None


def bochs_smp_runs(tiny):
    """Bochs with two processors (cpu: count=2), wildcat_lake (x2APIC,
    FRED) and ryzen: the other processor starts, every cross-CPU row runs
    ok or is skipped with a reason, in each APIC mode the model has; the
    spinning target's row under FRED too, where the boot CPU takes the
    answer by FRED event delivery; the section between CPUs measures
    both ordered pairs and the broadcasts."""
    bochs = bochs_smp_binary()
    per_row = (TINY_SAMPLES // 2 + TINY_WARMUP) * 2
    for model in ("wildcat_lake", "ryzen"):
        label = "bochs-smp-" + model
        doc, run_dir = run_bochs(label, bochs, model, tiny + (
            "samples = %d\nschemes = direct, fred\nvariants = none\n"
            "matrix_cpus = 1\nsources = int, %s\n" % (
                TINY_SAMPLES // 2, ", ".join(CROSS_CPU_SOURCES))), cpus=2)
        if doc is None:
            continue
        with open(os.path.join(run_dir, "serial.log"), "rb") as f:
            log = f.read().decode("latin-1")
        other = [dict(kv.split("=", 1) for kv in m.group(2).split()
                      if "=" in kv) for m in STATUS.finditer(log)
                 if m.group(1) == "other-cpus"]
        rows = [e for e in doc["experiments"]
                if e["source"] in CROSS_CPU_SOURCES]
        bad = [(e["name"], e["status"], e["reason"]) for e in rows
               if not (e["status"] == "ok" and e["delivered"] == per_row
                       or e["status"] == "skipped" and e["reason"])]
        ok = [e["name"] for e in rows if e["status"] == "ok"]
        fred = model == "wildcat_lake"
        check("%s: with 2 processors the other one starts; every cross-CPU "
              "row is ok with its %d interrupts or skipped with a reason, "
              "%s" % (label, per_row, "the spinning target's under FRED "
                      "and in x2APIC mode among the ok ones" if fred else
                      "the three waits among the ok ones"),
              other and other[0].get("listed") == "2"
              and other[0].get("started") == "1" and rows and not bad
              and (("ipi-cpu-roundtrip-fred@x2apic" in ok
                    or "ipi-cpu-roundtrip-fred" in ok)
                   and any(n.endswith("@x2apic") for n in ok) if fred
                   else all(any(n.startswith(src + "-direct") for n in ok)
                            for src in CROSS_CPU_SOURCES)),
              "%s %s ok %s" % (other, bad, ok))
        again = {e["name"]: e for e in doc["experiments"]
                 if e["on_cpu"] == 1 and e["source"] == "int"}
        want = ("int-direct@cpu1", "int-fred@cpu1") if fred else \
            ("int-direct@cpu1",)
        check("%s: matrix_cpus = 1: INT n runs again on the other processor "
              "in the boot CPU's place, ok with its %d interrupts: %s"
              % (label, per_row, ", ".join(want)),
              all(n in again and again[n]["status"] == "ok"
                  and again[n]["delivered"] == per_row for n in want),
              str([(n, e["status"], e.get("reason"), e["delivered"])
                   for n, e in again.items()]))
        x = doc.get("cross_cpu", {}).get("rows", [])
        check("%s: the section between CPUs measured both ordered pairs "
              "acknowledged and the two broadcasts, and labels its figures "
              "the emulator's" % label,
              len([r for r in x if r["kind"] == "ipi-ack"
                   and r["status"] == "ok"]) == 2
              and len([r for r in x if r["target"] == "all"
                       and r["status"] == "ok"]) == 2
              and "emulator" in doc["cross_cpu"]["figures"],
              str([(r["kind"], r["sender"], r["target"], r["status"],
                    r.get("reason")) for r in x]))
        waits = [e for e in rows if e["source"] in (
            "ipi-cpu-roundtrip-halted", "ipi-cpu-roundtrip-mwait")]
        said = [l for l in (dict(kv.split("=", 1) for kv in m.group(2).split()
                                 if "=" in kv) for m in STATUS.finditer(log)
                            if m.group(1) == "cross-cpu")
                if l.get("state") in ("halt", "mwait")]
        check("%s: the halted and MWAITing targets woke only for an "
              "interrupt or a new command: Bochs ends MWAIT on any store to "
              "the monitored line, and the target's own stores lie off it "
              "(every such row ok with 0 wake-ups without an interrupt in "
              "results.json, and 0 on each of its status lines)" % label,
              any(e["source"] == "ipi-cpu-roundtrip-mwait"
                  and e["status"] == "ok" for e in waits)
              and all(e["status"] == "ok"
                      and e["target_wakeups_without_interrupt"] == 0
                      for e in waits)
              and said and all(l.get("wakeups") == "0" for l in said),
              "%s %s" % ([(e["name"], e["status"], e["reason"],
                           e.get("target_wakeups_without_interrupt"))
                          for e in waits],
                         sorted({l.get("wakeups") for l in said})))
        one_way = [r for r in x if r["kind"] == "ipi-oneway"]
        check("%s: Bochs offers an invariant TSC, so both one-way rows go "
              "as far as the TSC offset's bound: measured (low <= high), "
              "and the figure shown within it or skipped for its width"
              % label, len(one_way) == 2 and all(
                  r.get("tsc_offset")
                  and r["tsc_offset"]["low"] <= r["tsc_offset"]["high"]
                  and (r["status"] == "ok" or "TSC offset is known to"
                       in (r.get("reason") or "")) for r in one_way),
              str(one_way))
        clocks = doc["clock"].get("other_cpus", [])
        pin = doc["platform"].get("frequency-pin", {})
        pinned = pin.get("state") == "ok"
        # The boot CPU's own ratio: once pinned, else over its probe's
        # loop; CPU 1 runs the same loop and must come within 2% of it.
        boot_ratio = re.search(r"core clock (?:then )?(\d+)/1000", pin.get(
            "detail", "") if pinned else doc["platform"].get(
                "aperf-mperf", {}).get("detail", ""))
        boot_ratio = int(boot_ratio.group(1)) if boot_ratio else None
        ratio = clocks[0]["aperf_mperf_milli"] if clocks else None
        check("%s: CPU 1, which ran rows and sent IPIs, has its own clock "
              "entry: pinned where the boot CPU was, else not pinned with "
              "the boot CPU's reason; its APERF/MPERF ratio within 2%% of "
              "the boot CPU's; started more than once and put back before "
              "every INIT" % label,
              [c["cpu"] for c in clocks] == [1]
              and pin.get("state") in ("ok", "absent")
              and clocks[0]["pinned"] is pinned
              and clocks[0]["pin_reason"] == (
                  "pinned as the boot CPU was" if pinned
                  else "as the boot CPU: " + pin["detail"])
              and boot_ratio and ratio
              and abs(ratio - boot_ratio) * 50 <= boot_ratio
              and clocks[0]["starts"] >= 2 and clocks[0]["restored"] is True,
              "%s; boot ratio %s; %s" % (pin, boot_ratio, clocks))


def run_bochs(label, bochs, model, config_text, cpus=1):
    """One image/bochs.sh run into build/boot-test/<label>: checks that
    phases A and B ran, and returns (results.json as parsed or None, run
    dir)."""
    run_dir = os.path.join(BUILD, label)
    subprocess.run(["rm", "-rf", run_dir], check=True)
    os.makedirs(run_dir)
    config = os.path.join(run_dir, "irqlab.cfg")
    with open(config, "w") as f:
        f.write(config_text)
    with open(os.path.join(run_dir, "run.log"), "w") as log:
        rc = subprocess.run(
            [os.path.join(ROOT, "image", "bochs.sh"), IMAGE],
            env=dict(os.environ, BOCHS=bochs, BOCHS_CPU=model,
                     BOCHS_CPUS=str(cpus),
                     RUN_DIR=run_dir, CONFIG=config, TIMEOUT="400",
                     RESULTS_DIR=os.path.join(run_dir, "results")),
            stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL).returncode
    doc = None
    if rc == 0:
        with open(os.path.join(run_dir, "results.json")) as f:
            doc = json.load(f)
    check("%s: phases A and B ran, results.json from serial" % label,
          doc is not None, "bochs.sh exit %d, see %s" % (rc, run_dir))
    if doc is not None:
        folder = os.path.join(run_dir, "results", doc["run_id"])
        with open(os.path.join(run_dir, "run.log")) as f:
            said = f.read()
        files = ("results.json", "summary.txt", "report.html",
                 "headline.txt")
        check("%s: a full run's folder, as phase C would write it from the "
              "blob (%s), and the runner ends with its headline and paths"
              % (label, ", ".join(files)),
              all(os.path.exists(os.path.join(folder, f)) for f in files)
              and "irqlab: run %s done" % doc["run_id"] in said
              and "irqlab: the report:   %s" % os.path.join(
                  folder, "report.html") in said, said[-600:])
    return doc, run_dir


def bochs_runs(tiny):
    """Bochs, a second emulator (docs/emulators.md): phases A and B under
    three of its CPU models, results cut from the serial log. Every row
    ends ok or skipped with a reason; wildcat_lake has x2APIC and the
    TSC-deadline timer, which QEMU's TCG cannot offer. Its table entry
    needs Bochs (have)."""
    bochs = bochs_binary()
    for model in ("wildcat_lake", "ryzen", "core2_penryn_t9600"):
        label = "bochs-" + model
        # wildcat_lake has FRED: its rows include the fault self-tests,
        # one of them raised under FRED.
        parts = run_bochs_in_parts(label, bochs, model, tiny + (
            "selftest_fault = 1\n" if model == "wildcat_lake" else ""))
        if not parts:
            continue
        doc = joined_parts(parts)
        # The serial log of the part that ran the self-tests, the last.
        run_dir = parts[-1][1]
        rows = (doc["experiments"] + doc["primitives"]["rows"]
                + doc["gap_method"]["rows"])
        bad = [(e.get("name") or e.get("scheme"), e["status"], e["reason"])
               for e in rows if not (e.get("name") or "").startswith(
                   "selftest-")
               and (e["status"] not in ("ok", "skipped")
                    or (e["status"] == "skipped" and not e["reason"]))]
        check("%s: every row ok or skipped with a reason (%d rows)"
              % (label, len(rows)), rows and not bad, str(bad[:5]))
        check_i386(label, doc, exact=False)
        probes = doc.get("platform", {})
        amd = model == "ryzen"
        pmu, ratio = (probes.get("performance-counters", {}),
                      probes.get("aperf-mperf", {}))
        ratios = [e.get("clock_ratio_milli") for e in doc["experiments"]
                  if e["status"] == "ok"]
        check("%s: the counters Bochs advertises are found not to count "
              "(never read as zero cycles); APERF/MPERF, which Bochs gives "
              "as the TSC, report a ratio of exactly 1 for every row" % label,
              pmu.get("state") == "quirk"
              and "do not count here" in pmu.get("detail", "")
              and doc["clock"]["cycles"]["state"] == "skipped"
              and all(e.get("cycles") is None for e in doc["experiments"])
              and ratio.get("state") == "ok"
              and "1000/1000" in ratio.get("detail", "")
              and ratios and all(x == {"low": 1000, "high": 1000,
                                       "unstable_frequency": False}
                                 for x in ratios),
              "%s; %s; %s" % (pmu, ratio, ratios[:3]))
        pin = probes.get("frequency-pin", {})
        check("%s: pinning the frequency is tried and recorded: set with the "
              "ratio that resulted (exactly 1 under Bochs), or not, with why"
              % label, pin.get("state") in ("ok", "absent")
              and ("1000/1000" in pin.get("detail", "")
                   if pin.get("state") == "ok"
                   else pin.get("detail", "").startswith("not pinned: ")),
              str(pin))
        smi, cet = probes.get("smi-count", {}), probes.get("cet", {})
        # No SMI can be raised here: AMD's counter 3 is proven to count by
        # retired instructions over a known loop before it is set to SMIs
        # received (docs/timing.md); on a Bochs whose counters do not
        # count (the counters probe says so) that proof fails, and the
        # SMI count is not watched, saying why.
        counting = pmu.get("state") == "ok"
        check("%s: CET found off and said so; the SMI counter %s" % (
            label, "watched through MSR_SMI_COUNT" if not amd else
            "AMD's counter 3, proven to count retired instructions over a "
            "loop before it was set to SMIs received, where the counters "
            "count; else not watched, saying counter 3 does not count or "
            "keep its event"),
              cet.get("state") == "ok" and "CR4.CET off" in cet.get("detail", "")
              and (smi.get("state") == "ok"
                   and "MSR_SMI_COUNT" in smi.get("detail", "") if not amd
                   else smi.get("state") == "ok" and re.search(
                       r"AMD counter 3, event 2BH \(SMIs received\), proven "
                       r"to count \(\d+ instructions over a loop of 100000\)",
                       smi.get("detail", "")) if counting
                   else smi.get("state") == "absent" and smi.get(
                       "detail", "").startswith("AMD's performance counter "
                                                "3 does not ")),
              "cet %s, smi %s" % (cet, smi))
        # An exact-count build reads "emulator"; the handler-chaining
        # build, whose TSC skips ahead, "emulator-coarse".
        check("%s: figures labelled an emulator's ticks, never cycles"
              % label, doc["clock"]["kind"] in ("emulator", "emulator-coarse")
              and not doc["clock"]["figures_are_cycles"], str(doc["clock"]))
        if model == "wildcat_lake":
            ok = {e["name"] for e in doc["experiments"] if e["status"] == "ok"}
            check("%s: the TSC-deadline timer and the x2APIC rows run here"
                  % label, {"lapic-tscdeadline-direct",
                            "ipi-self-x2apic-selfipi-direct"} <= ok,
                  str(sorted(ok)[:10]))
            lkgs = {p["name"]: p for p in doc["primitives"]["rows"]}.get(
                "lkgs", {})
            check("%s: LKGS runs: one instruction a repetition" % label,
                  lkgs.get("status") == "ok"
                  and round(lkgs.get("median_per_rep", 0)) == 1, str(lkgs))
            row = experiment(doc, "int-direct+gs-lkgs")
            check("%s: the LKGS entry variant runs and keeps every register"
                  % label, row is not None and row["status"] == "ok"
                  and row["register_checks"] == PASSES * 256, str(row))
            check_fred_under_bochs(label, doc, run_dir)


# What the counted instrument adds to each figure of a row, against the
# TSC's, under Bochs' counting PMU in the exact-count build, where both
# count instructions (docs/emulators.md "The counting PMU"):
# - each counted read loads ECX first (arch/timing.h PMC_OPEN_TO), so the
#   timed round trip, with its two reads in the handler, is 2 longer;
# - the gate pushes and pops RCX around its counted timestamps
#   (arch/dispatch/gate.S): entry and exit 1 longer each, 2 more timed;
# - the x2APIC MSR samples load ECX with the MSR again after the counted
#   read (arch/timing.S IPI_SAMPLE_MSR): entry and round trip 1 longer;
# - pf-cr2's gate fetch faults: Bochs ticks its TSC and its cycle
#   counter for it, but an instruction that faults does not retire.
def counted_over_tsc(e):
    """(cycles entry, exit, round trip, timed round trip) less the TSC's,
    and instructions retired per round trip less the TSC's."""
    x2apic = int(e["source"].startswith("ipi-self-x2apic"))
    gate = int(e["scheme"] == "gate")
    fault = int(e["scheme"] == "pf-cr2")
    return ((x2apic + gate, gate, x2apic, 2 + x2apic + 2 * gate),
            x2apic - fault)


COUNTED_SOURCES = ("int", "ipi-self-xapic", "ipi-self-x2apic-selfipi",
                   "lapic-oneshot", "lapic-periodic")


def bochs_counted_pass(tiny):
    """The counted pass (docs/timing.md "Core cycles") on the exact-count
    Bochs, whose PMU counts (docs/emulators.md "The counting PMU"), with
    no simulate switch: its real set-up on both vendors' models, Intel's
    architectural PMU (wildcat_lake) and AMD's core counters (ryzen).
    Every scheme runs, long mode's and i386's, so that each counted
    assembly does; every figure is pinned to the TSC's, which counts
    instructions there: a swapped counter, a counted timestamp that reads
    the TSC, or a wrong floor moves one of them."""
    bochs = os.environ["BOCHS_EXACT"]
    samples, warmup = 200, 10
    for model in ("wildcat_lake", "ryzen"):
        label = "bochs-counted-" + model
        intel = model == "wildcat_lake"
        doc, run_dir = run_bochs(
            label, bochs, model, tiny + "schemes = all\nsources = %s\n"
            "variants = none, gs-swapgs, ds-es, pda-gs\n%s" % (
                ", ".join(COUNTED_SOURCES),
                # Phase A then reads the clock controls with turbo off,
                # as a firmware setup option leaves it.
                "simulate = turbo-off\n" if intel else ""))
        if doc is None:
            continue
        probes = doc["platform"]
        pmu, pin = probes.get("performance-counters", {}), \
            probes.get("frequency-pin", {})
        check("%s: the counters probe programs the %s, finds them counting "
              "2 instructions a turn of its loop of 100000 (200010 with "
              "the reads), and the counted figures are the CPU's: measured"
              % (label, "fixed counters (PMU version 6, 48 bits)" if intel
                 else "core counters (the core extension, no PerfMonV2)"),
              pmu.get("state") == "ok"
              and pmu.get("detail", "").startswith(
                  "PMU version 6, 3 fixed counters of 48 bits: cycles on "
                  "fixed 1, instructions on fixed 0 " if intel else
                  "core extension yes, PerfMonV2 no, IRPerfCount ")
              and pmu["detail"].endswith("(200010 over a loop of 100000)")
              and doc["clock"]["cycles"]["state"] == "measured", str(pmu))
        check("%s: the frequency pin runs its real set-up and reads the "
              "ratio that resulted, exactly 1: %s" % (label, "turbo off "
                  "(IA32_MISC_ENABLE[38]) and IA32_PERF_CTL at the base "
                  "ratio 25" if intel else "the P-state fixed at P0"),
              pin.get("state") == "ok"
              and ("turbo off (IA32_MISC_ENABLE[38]), IA32_PERF_CTL at the "
                   "base ratio 25" in pin.get("detail", "") if intel
                   else "P-state fixed at P0" in pin.get("detail", ""))
              and "core clock then 1000/1000" in pin.get("detail", ""),
              str(pin))
        floors = doc["method"]
        check("%s: the counted floors are the TSC's and the ECX load each "
              "counted read adds: cycles %d, instructions %d"
              % (label, floors["floor"]["min"] + 1, floors["floor"]["min"] + 1),
              floors["cycles_floor"]["min"]
              == floors["instructions_floor"]["min"]
              == floors["floor"]["min"] + 1
              and floors["cycles_floor"]["max"]
              == floors["cycles_floor"]["min"], str(floors))
        # long mode's call16 alone is skipped, not applicable (schemes.c)
        rows = [e for e in doc["experiments"] if e["scheme"] != "call16"]
        ok = [e for e in rows if e["status"] == "ok"]
        bad = [(e["name"], e["status"], e["reason"], e["delivered"])
               for e in rows
               if not (e["status"] == "ok"
                       and e["delivered"] == 5 * (samples + warmup)
                       and e["cycles"]["state"] == "measured"
                       and e["instructions"]["state"] == "measured"
                       or e["status"] == "skipped"
                       and e["reason"].startswith("CPUID"))]
        check("%s: every row (%d) ran the counted pass or is skipped for a "
              "CPUID bit: ok with 5 passes of warm-up and samples delivered "
              "(the TSC's two, the counted three), core cycles and "
              "instructions measured" % (label, len(rows)),
              len(ok) >= (50 if intel else 40) and not bad, str(bad[:4]))
        wrong = []
        for e in ok:
            cycles, instructions = counted_over_tsc(e)
            got = (tuple(e["cycles"][k]["median"] - e[k]["median"]
                         for k in ("entry", "exit", "round_trip",
                                   "round_trip_timed")),
                   e["instructions"]["round_trip"]["median"]
                   - e["round_trip"]["median"])
            if got != (cycles, instructions) or any(
                    e["cycles"][k]["min"] != e["cycles"][k]["max"]
                    for k in ("entry", "exit", "round_trip")):
                wrong.append((e["name"], got, (cycles, instructions)))
        check("%s: on every ok row (%d), each counted figure is the TSC's "
              "(an instruction count here) plus exactly what the counted "
              "instrument adds (counted_over_tsc), every sample alike"
              % (label, len(ok)), ok and not wrong, str(wrong[:4]))
        # Phase B's results have no reference to compare with; the
        # folder irqlab-rescue wrote from the blob, as phase C would, has.
        with open(os.path.join(run_dir, "results", doc["run_id"],
                               "results.json")) as f:
            path = json.load(f)["path_length"]
        check("%s: the path length is compared from the counted pass, "
              "instructions retired: it equals the icount reference's for "
              "every row both ran (%s of %s)" % (
                  label, path.get("equal"), path.get("compared")),
              path.get("state") == "compared"
              and "performance counters" in path.get("counts_from", "")
              and path["compared"] >= (40 if intel else 35)
              and path["equal"] == path["compared"], str(path)[:600])
        gaps = [g for g in doc["gap_method"]["rows"] if g["status"] == "ok"]
        check("%s: the gap loop runs again on the cycle counter and finds "
              "each scheme's gaps as the TSC's loop does, every one alike; "
              "its undisturbed iteration 1 longer, for the ECX load of its "
              "counted read" % label,
              len(gaps) >= 8 and all(
                  g.get("cycles") and g["cycles"]["cost"] == g["cost"]
                  and g["cycles"]["loop_iteration"]
                  == g["loop_iteration"] + 1 for g in gaps),
              str([(g["scheme"], g["status"], g.get("cost"), g.get("cycles"))
                   for g in doc["gap_method"]["rows"]][:4]))
        schemes = {e["scheme"] for e in ok} | {
            e["variant"] for e in ok if e["variant"]}
        want = {"direct", "push-jmp", "compact", "call", "cs-selector",
                "pf-cr2", "int3-byte", "gate", "gs-swapgs", "i386-direct",
                "i386-push-jmp", "i386-cs-selector", "i386-call16",
                "i386-call16-3byte", "ds-es", "pda-gs"} | (
                    {"fred"} if intel else set())
        check("%s: the counted handlers of every scheme, long mode's and "
              "i386's, and of the entry variants ran, each keeping every "
              "register (3 handler kinds checked)" % label,
              want <= schemes
              and all(e["register_checks"] % 3 == 0 for e in ok),
              str(sorted(want - schemes)))
        prims = [p for p in doc["primitives"]["rows"] if p["status"] == "ok"
                 and p.get("cycles")]
        check("%s: every counted primitive block, net of its floor, is the "
              "TSC's" % label,
              len(prims) >= 15 and all(
                  p["cycles"]["block"]["median"] == p["block"]["median"]
                  for p in prims),
              str([(p["name"], p["block"]["median"],
                    p["cycles"]["block"]["median"]) for p in prims][:6]))
        clock = doc["clock"]
        check("%s: an emulator's counted cycles never lead: the answer stays "
              "in the emulator's unit" % label,
              clock["lead_unit"] == clock["unit"]
              and "core cycles" not in clock["lead_unit"], str(clock))
        if intel:
            with open(os.path.join(run_dir, "serial.log"), "rb") as f:
                log = f.read().decode("latin-1")
            # simulate = turbo-off: phase A read the clock controls with
            # IA32_MISC_ENABLE[38] set, which clears CPUID 06H:EAX[1].
            check("%s: with turbo turned off as firmware leaves it "
                  "(simulate = turbo-off), phase A reports turbo off, "
                  "read from IA32_MISC_ENABLE[38], not absent by CPUID"
                  % label, doc["machine"]["boost"] == "off"
                  and "phase A: turbo read as off with IA32_MISC_ENABLE[38] "
                  "set (simulate = turbo-off), then put back" in log,
                  doc["machine"]["boost"])
        else:
            smi = probes.get("smi-count", {})
            check("%s: AMD's SMI counter, counter 3, is proven to count "
                  "retired instructions over a loop before it is set to "
                  "SMIs received" % label, smi.get("state") == "ok"
                  and re.search(r"AMD counter 3, event 2BH \(SMIs received\), "
                                r"proven to count \((\d+) instructions over "
                                r"a loop of 100000\)", smi.get("detail", "")),
                  str(smi))


def bochs_cet(tiny):
    """simulate = cet-shadow-stack on Bochs wildcat_lake, which has CET
    shadow stacks (CPUID.7.0:ECX[7]): phase B begins with supervisor
    shadow stacks on and a valid SSP, as firmware using CET would leave
    them. CET must be cleared before the GDT's far return (a lretq the
    shadow stack holds no frame for, #CP into the firmware's IDT): the
    run then goes on and reports."""
    doc, _ = run_bochs("bochs-cet", bochs_binary(), "wildcat_lake", tiny +
                       "schemes = direct\nvariants = none\nsources = int\n"
                       "simulate = cet-shadow-stack\n")
    if doc is None:
        return
    cet = doc.get("platform", {}).get("cet", {})
    rows = doc["experiments"]
    check("bochs-cet: phase B found the simulated supervisor shadow stacks "
          "on (CR4.CET, IA32_S_CET.SH_STK_EN, an SSP at its token) and "
          "cleared them before the GDT's far return; the run went on and "
          "its rows are ok",
          cet.get("state") == "simulated"
          and re.match(r"CR4\.CET on, IA32_S_CET 0x1, SSP 0x[0-9a-f]*ff8 "
                       r"as firmware using CET leaves them: cleared before "
                       r"the GDT's far return$", cet.get("detail", ""))
          and rows and all(e["status"] == "ok" for e in rows),
          "%s %s" % (cet, [(e["name"], e["status"]) for e in rows]))


# The exact-count Bochs run (BOCHS_EXACT), filled in beside the main
# thread and compared with QEMU's icount run at the end.
bochs_exact = {}


def run_bochs_in_parts(label, bochs, model, config_text):
    """run_bochs, and again from the first row each run left unmeasured
    (start_row), until the plan is done: Bochs' reset never reaches
    phase C, so a run whose results fill the handoff stops at its first
    part. Returns [(results.json, run dir)], one per part."""
    parts, start = [], 0
    while len(parts) < 4:
        doc, run_dir = run_bochs(
            label if not parts else "%s-from-%d" % (label, start), bochs,
            model, config_text + ("start_row = %d\n" % start if start
                                  else ""))
        if doc is None:
            break
        parts.append((doc, run_dir))
        start = doc["handoff"].get("unmeasured_from_row")
        if not start:
            break
    return parts


def joined_parts(parts):
    """The parts' results as one document: every part's experiment and
    gap rows, and each row's overhead over a baseline that another part
    measured."""
    doc = json.loads(json.dumps(parts[0][0]))
    for later, _ in parts[1:]:
        for key in ("experiments", "against_baseline"):
            doc[key] += later[key]
        # Every part measures the primitives again: the first's stand.
        doc["gap_method"]["rows"] += later["gap_method"]["rows"]
        if (later["mitigations"].get("linux") or {}).get("status") == "ok":
            doc["mitigations"] = later["mitigations"]
    rows = {e["name"]: e for e in doc["experiments"]}
    have = {c["experiment"] for c in doc["against_baseline"]}
    for e in doc["experiments"]:
        base = rows.get(e["baseline"])
        if e["name"] in have or e["baseline"] == e["name"] or not base \
                or not e["status"] == base["status"] == "ok":
            continue
        doc["against_baseline"].append(dict(
            experiment=e["name"], baseline=e["baseline"], **{
                k + "_median_over": e[k]["median"] - base[k]["median"]
                for k in ("entry", "exit", "round_trip",
                          "round_trip_timed")}))
    return doc


def bochs_exact_run(tiny):
    """wildcat_lake under a Bochs built for exact instruction counts
    (image/build-bochs.sh), for the cross-check with QEMU's icount. Its
    table entry needs BOCHS_EXACT (have). With the counted pass its
    results take more than one handoff: each part is a run of its own
    (run_bochs_in_parts), and every row of the plan must be measured."""
    parts = run_bochs_in_parts("bochs-exact", os.environ["BOCHS_EXACT"],
                               "wildcat_lake", tiny)
    if not parts:
        return
    doc, run_dir = joined_parts(parts), parts[0][1]
    with open(os.path.join(run_dir, "serial.log"), "rb") as f:
        plan = re.search(rb"plan: (\d+) rows", f.read())
    check("bochs-exact: the parts (%d) together measured every row of the "
          "plan (%s), each once, the last part needing no other"
          % (len(parts), plan and int(plan.group(1))),
          plan and len(doc["experiments"]) + len(doc["gap_method"]["rows"])
          == int(plan.group(1))
          and len({e["name"] for e in doc["experiments"]})
          == len(doc["experiments"])
          and not parts[-1][0]["handoff"].get("unmeasured_from_row"),
          "%d experiments in %d parts" % (len(doc["experiments"]),
                                          len(parts)))
    if doc is not None:
        check("bochs-exact: its TSC counts every instruction, and the run "
              "says so: kind emulator, an instruction count",
              doc["clock"]["kind"] == "emulator"
              and "instruction count" in doc["clock"]["unit"],
              str(doc["clock"]))
        bochs_exact["doc"] = doc
        bochs_exact["log"] = os.path.join(run_dir, "serial.log")
        # Path lengths, which only this build's TSC gives: the chained
        # build's entry and exit are not.
        row, direct = experiment(doc, "int-fred"), experiment(doc, "int-direct")
        check("bochs-exact: fred's round trip is 3 instructions longer than "
              "direct's (sub, test, jnz, movzbl, mov against two pushes; add "
              "and ERETS against add and IRETQ)",
              row is not None and direct is not None
              and row["status"] == direct["status"] == "ok"
              and row["round_trip"]["median"]
              - direct["round_trip"]["median"] == 3,
              "%s %s" % (row, direct))
        over = {c["experiment"]: c for c in doc["against_baseline"]}.get(
            "int-direct+gs-lkgs", {})
        check("bochs-exact: the LKGS entry variant's exit is 3 instructions "
              "longer than its baseline's (swapgs, mov, lkgs)",
              over.get("exit_median_over") == 3, str(over))
        check_mitigations_under_bochs(doc)


# What wildcat_lake runs that QEMU's TCG CPUs cannot (arch/mitigations.h):
# PTI's switch with PCID and the no-flush bit (mov, bts, and or or, mov),
# SPEC_CTRL written with IBRS on entry and back on exit (three moves and
# wrmsr each), IBPB on entry (three moves and wrmsr).
BOCHS_MITIGATION_COST = {"pti-cr3-pcid": (4, 4), "ibrs": (4, 4),
                         "ibpb": (4, 0)}


def check_mitigations_under_bochs(doc):
    """docs/mitigations.md under Bochs wildcat_lake, which implements
    SPEC_CTRL, PRED_CMD and ARCH_CAPABILITIES: the rows TCG skips run,
    warm and cold, each adding the listing's instructions; the rule reads
    its ARCH_CAPABILITIES (0x1F) and takes VERW alone."""
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    kinds = handler_kinds(doc)
    for variant, (entry, exit_) in BOCHS_MITIGATION_COST.items():
        rows = ["int-direct+" + variant + cold for cold in ("", "+cold")]
        got = [(experiment(doc, r) or {}).get("status") for r in rows]
        over = [(comparison.get(r, {}).get("entry_median_over"),
                 comparison.get(r, {}).get("exit_median_over")) for r in rows]
        check("bochs-exact: %s runs, warm and cold, keeps every register "
              "through each handler kind (%d) and adds exactly %d+%d "
              "instructions" % (variant, kinds, entry, exit_),
              got == ["ok", "ok"] and over == [(entry, exit_)] * 2
              and all(experiment(doc, r)["register_checks"] == kinds * 256
                      for r in rows), "%s %s %s" % (got, over, [
                          experiment(doc, r)["register_checks"]
                          for r in rows]))
    prims = {p["name"]: p for p in doc["primitives"]["rows"]}
    want = {"mov-cr3-noflush": 1, "wrmsr-spec-ctrl": 4, "wrmsr-pred-cmd": 4}
    got = {n: (prims.get(n, {}).get("status"),
               prims.get(n, {}).get("median_per_rep")) for n in want}
    check("bochs-exact: the no-flush CR3 write, SPEC_CTRL and PRED_CMD "
          "primitives run, each the listing's instructions a repetition",
          got == {n: ("ok", float(v)) for n, v in want.items()}, str(got))
    probe = doc["platform"].get("mitigations", {})
    m = doc["mitigations"]
    decisions = {d["name"]: d for d in m["decisions"]}
    linux = m["linux"] or {}
    on = ("LFENCE after swapgs", "VERW")
    want = linux_steps_over(linux_sites_from_listing(), on)
    check("bochs-exact: the rule reads IA32_ARCH_CAPABILITIES 0x1f and "
          "takes the swapgs fence and VERW: PTI off (RDCL_NO), IBRS off "
          "(IBRS_ALL), the fence on (FSGSBASE, no PTI), VERW on (MDS_NO is "
          "0); Linux's set adds its five and four sites and the listing's "
          "LFENCE and VERW: %d entry, %d exit" % want,
          probe.get("state") == "ok" and m["arch_capabilities"] == "0x1f"
          and decisions["PTI"]["why"] == "off (RDCL_NO)"
          and decisions["IBRS"]["why"].startswith("off (IBRS_ALL")
          and decisions["LFENCE after swapgs"]["per_interrupt"]
          and decisions["VERW"]["per_interrupt"]
          and linux.get("steps") == ", ".join(on)
          and (linux.get("entry_median_over"),
               linux.get("exit_median_over")) == want,
          "%s %s %s" % (probe, decisions, linux))
    fred, plain = experiment(doc, "int-fred-linux"), experiment(doc, "int-fred")
    both = m["idt_against_fred"]
    check("bochs-exact: FRED with Linux's own set is FRED and its VERW site "
          "(a NOP, then VERW): 2 instructions more on the way out; the IDT "
          "with its set against it is stated as one comparison",
          fred is not None and plain is not None
          and fred["status"] == plain["status"] == "ok"
          and fred["exit"]["median"] - plain["exit"]["median"] == 2
          and fred["entry"]["median"] == plain["entry"]["median"]
          and both["fred_row"]["experiment"] == "int-fred-linux"
          and both["idt_row"]["experiment"] == "int-direct+linux"
          and both["fred_less_idt"] == both["fred_row"]["round_trip"]
          - both["idt_row"]["round_trip"], "%s %s %s" % (fred, plain, both))


def ioapic_version(log_path):
    with open(log_path, errors="replace") as f:
        m = re.search(r"IO-APIC(?: \d+)?: version (0x[0-9a-f]+)", f.read())
    return int(m.group(1), 16) if m else None


# Where the two emulators' path lengths may differ, and why. Each rule
# names the rows it covers and the difference, Bochs minus QEMU, in
# (entry, exit, round trip) or the single figure of a gap or primitive.
# What the edge-and-back EOI of a pre-0x20 IO-APIC adds to each access
# strategy's mask-unmask-EOI sequence, in instructions (apic/ioapic.c
# ioapic_level_eoi: two more redirection-entry writes, each as the
# strategy reaches IOREGSEL and IOWIN).
OLD_IOAPIC_EOI_EXTRA = {
    "ioapic-seq-uncached": 48, "ioapic-seq-uncached-nf": 46,
    "ioapic-seq-index-cached": 49, "ioapic-seq-index-cached-nf": 47,
    "ioapic-seq-value-cached": 46, "ioapic-seq-value-cached-nf": 44,
}
# Rows only Bochs can run, for what QEMU's TCG never offers: FRED, LKGS,
# the TSC-deadline timer. Every other row either emulator ran ok, the
# other ran ok too, and the cross-check compares it.
BOCHS_ONLY = re.compile(r"(^|-)fred(-linux)?(\+|$)|gs-lkgs|lapic-tscdeadline"
                        r"|^lkgs$"
                        r"|\+pti-cr3-pcid|\+ibrs|\+ibpb|^mov-cr3-noflush$"
                        r"|^wrmsr-spec-ctrl$|^wrmsr-pred-cmd$")


def explained_difference(kind, name, qemu_ioapic, bochs_ioapic):
    if "pf-cr2" in name:
        # The gate's fetch faults. Bochs' exception path counts the
        # instruction that faulted as one more (cpu.cc: the longjmp back
        # into the CPU loop ticks once); QEMU's icount counts only
        # instructions that completed.
        return ((1, 0, 1) if kind == "experiment" else 1,
                "Bochs counts the faulting gate fetch as an instruction")
    if "+linux" in name:
        # Linux's set is the CPU's own (docs/mitigations.md): on
        # wildcat_lake it takes the swapgs fence, one instruction on the
        # way in (FSGSBASE, no PTI), and VERW, one on the way out, where
        # QEMU's -cpu max needs neither.
        return ((1, 1, 2), "Linux's set differs: wildcat_lake's takes the "
                "swapgs fence and VERW")
    if kind == "primitive" and name in OLD_IOAPIC_EOI_EXTRA \
            and qemu_ioapic >= 0x20 > bochs_ioapic:
        # Version 0x20 has an EOI register; older IO-APICs (Bochs models
        # the 82093AA, 0x11) are cleared by switching the entry to edge
        # and back: another path through ioapic_level_eoi, its length
        # per sequence as each access strategy reaches the entry.
        return (1024 * OLD_IOAPIC_EOI_EXTRA[name],
                "IO-APIC version 0x%x on QEMU, 0x%x on Bochs: "
                "ioapic_level_eoi's edge-and-back EOI, %d instructions more "
                "a sequence" % (qemu_ioapic, bochs_ioapic,
                                OLD_IOAPIC_EOI_EXTRA[name]))
    return (0, None) if kind != "experiment" else ((0, 0, 0), None)


def cross_check_emulators(qemu_doc, qemu_log):
    """Every row both emulators run, figure by figure: QEMU -icount
    shift=0 against Bochs built for exact counts. Equal, or the
    difference is one explained_difference names exactly. The table goes
    to build/boot-test/emulators-cross-check.md."""
    if "doc" not in bochs_exact:
        check.skip("cross-check", "no exact-count Bochs (set BOCHS_EXACT; "
                   "make bochs-exact builds one)")
        return
    bochs_doc = bochs_exact["doc"]
    q_io, b_io = ioapic_version(qemu_log), ioapic_version(bochs_exact["log"])
    lines = ["| row | QEMU icount | Bochs | Bochs - QEMU | why |",
             "|---|---|---|---|---|"]
    unexplained, compared = [], 0

    def med(row, key):
        return (row.get(key) or {}).get("median")

    def compare(kind, name, q, b):
        nonlocal compared
        want, why = explained_difference(kind, name, q_io, b_io)
        got = tuple(y - x for x, y in zip(q, b)) if kind == "experiment" \
            else b[0] - q[0]
        compared += 1
        lines.append("| %s %s | %s | %s | %s | %s |" % (
            kind, name, q, b, got, why or ""))
        if want is not None and got != want:
            unexplained.append("%s %s: QEMU %s, Bochs %s" % (kind, name, q, b))

    uncompared = []

    def each(kind, key, section, figure):
        q_ok = {r[key]: r for r in section(qemu_doc) if r["status"] == "ok"}
        b_ok = {r[key]: r for r in section(bochs_doc) if r["status"] == "ok"}
        for name in sorted(set(q_ok) | set(b_ok)):
            if name in q_ok and name in b_ok:
                compare(kind, name, tuple(med(q_ok[name], k) for k in figure),
                        tuple(med(b_ok[name], k) for k in figure))
            elif not (name in b_ok and BOCHS_ONLY.search(name)):
                uncompared.append("%s %s ok under %s only" % (
                    kind, name, "QEMU" if name in q_ok else "Bochs"))

    each("experiment", "name", lambda d: d["experiments"],
         ("entry", "exit", "round_trip"))
    each("gap", "scheme", lambda d: d["gap_method"]["rows"], ("cost",))
    each("primitive", "name", lambda d: d["primitives"]["rows"], ("block",))
    with open(os.path.join(BUILD, "emulators-cross-check.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    check("cross-check: every row both emulators ran ok (%d) has the same "
          "path length under QEMU icount and exact-count Bochs, or the "
          "difference explained_difference states; every other row is one "
          "only Bochs can run" % compared,
          compared > 0 and not unexplained and not uncompared,
          "; ".join((unexplained + uncompared)[:8]))


def check_fred_under_bochs(label, doc, run_dir):
    """The fred scheme on a CPU that has FRED: its rows pass the checks
    every scheme passes, it takes the gap method, and an exception raised
    under it fails only its own row, through FRED's own entry."""
    fred = [e for e in doc["experiments"] if e["scheme"] == "fred"
            and not e["name"].startswith("selftest-")]
    names = {e["name"] for e in fred}
    check("%s: fred runs under INT n, both self-IPIs and the cache states, "
          "every row ok" % label,
          {"int-fred", "ipi-self-xapic-fred", "ipi-self-x2apic-selfipi-fred",
           "int-fred+cold"} <= names
          and all(e["status"] == "ok" for e in fred),
          str([(e["name"], e["status"], e["reason"]) for e in fred]))
    row = experiment(doc, "int-fred")
    check("%s: under FRED every vector 32-255 arrives as itself, and every "
          "register and RFLAGS survive" % label,
          row is not None and row["vectors_verified"] == PASSES * 224
          and row["register_checks"] == PASSES * 2 * 256, str(row))
    gap = {g["scheme"]: g for g in doc["gap_method"]["rows"]}.get("fred", {})
    check("%s: the gap method runs under fred" % label,
          gap.get("status") == "ok" and gap.get("gaps", 0) > 0, str(gap))
    fault = experiment(doc, "selftest-fault-in-fred")
    log = open(os.path.join(run_dir, "serial.log"),
               errors="replace").read()
    dumps = re.findall(r"registers: RIP (\w+) CS \w+ RFLAGS \w+ SS (\w+) "
                       r"CR4 (\w+)", log)
    # The dump of the fault under FRED: CR4.FRED (bit 32) on, and the SS
    # slot's event information naming a hardware exception (type 3), #UD.
    under_fred = [d for d in dumps if int(d[2], 16) >> 32 & 1
                  and int(d[1], 16) >> 32 & 0xff == 6
                  and int(d[1], 16) >> 48 & 0xf == 3]
    check("%s: #UD under FRED fails only its own row, with its register "
          "dump, through FRED's entry" % label,
          fault is not None and fault["status"] == "failed"
          and fault["reason"].startswith("#UD vector 6,") and under_fred
          and under_fred[0][0] in fault["reason"].lower(),
          "%s %s" % (fault, dumps))


# ---------------------------------------------------------------- the runs
#
# Every boot the suite makes is one entry of FIRST_LANE or SECOND_LANE
# below: its name, its emulator and machine, its config and store
# set-up, what it needs, and the checks that apply to what it left. One runner walks the table; two
# lanes run at once, one a core, since their runs share no files.


def store_room_reclaimed(o):
    room = statuses(o.run_dir, 1, "store")
    # OVMF reclaims a store this full itself while it starts; phase A
    # makes it reclaim where it has not (reclaimed=1).
    if check("store-4m-deleted: the 3000 bytes deleted variables left at "
             "the store's end are reclaimed, by the firmware at start-up or "
             "at phase A's asking, to what a run needs, and the run kept",
             o.rc == 0 and len(o.folders) == 1 and room
             and (room[-1]["reclaimed"] == "1"
                  or int(room[-1]["end_free"]) > 3000)
             and int(room[-1]["end_free_after"]) >= int(room[-1]["needed"]),
             "rc %d %s" % (o.rc, room)):
        check_store_agrees("store-4m-deleted", o.run_dir)


def store_full_refused(o):
    log = serial(o.run_dir, 1)
    room = statuses(o.run_dir, 1, "store")
    check("store-full: a store too full for the results is refused in phase "
          "A, on screen, before anything is measured",
          o.rc != 0 and room and room[-1]["ok"] == "0"
          and "irqlab will not measure: the variable store has" in log
          and "powering off in" in log
          and "exiting boot services" not in log, log[-600:])


def icount_pair(outcomes):
    """Two runs of one build under icount agree exactly, and with the
    stored reference."""
    docs = [outcomes.get(n) and outcomes[n].icount_doc
            for n in ("icount-a", "icount-b")]
    if not all(docs):
        check("two icount runs give identical figures", False, "a run failed")
        return
    check("two icount runs give identical figures",
          not differences(figures(docs[0]), figures(docs[1])),
          "; ".join(differences(figures(docs[0]), figures(docs[1]))))
    with open(REFERENCE) as f:
        reference = json.load(f)
    diff = differences(reference, figures(docs[0]), across_builds=True)
    check("icount figures equal the stored reference (%s)"
          % os.path.relpath(REFERENCE, ROOT), not diff,
          "%d differ: %s" % (len(diff), "; ".join(diff)))
    check("the stored reference names the build that measured these runs, "
          "so the stick compares them (make reference records it anew)",
          reference.get("build") == docs[0].get("build")
          and docs[0].get("build") and docs[0]["build"] != "0" * 16,
          "reference %s, this build %s" % (reference.get("build"),
                                           docs[0].get("build")))
    path = docs[0].get("path_length", {})
    ok = [e for e in docs[0]["experiments"] if e["status"] == "ok"]
    check("phase C read the stick's icount reference and found every ok row "
          "(%d) of this build's run at the reference's path length"
          % len(ok), path.get("state") == "compared"
          and path.get("reference_build") == docs[0].get("build")
          and path.get("compared") == len(ok) and path.get("equal") == len(ok)
          and path.get("differences") == [], str(path)[:400])


def icount_checks(o):
    o.icount_doc = check_icount_run(o.name, o.rc, o.run_dir, o.results)


def other_machine(x2apic, level):
    """An xAPIC-only CPU or the i440FX machine: behaviour, not figures."""
    def checks(o):
        if not check("%s: both boots completed" % o.name, o.rc == 0,
                     "run.sh exit %d, see %s" % (o.rc, o.run_dir)):
            return
        if not check("%s: one results folder" % o.name, o.doc is not None,
                     str(o.folders)):
            return
        check_sources(o.name, o.doc, 500, 20, x2apic(), level)
        bad = [e for e in o.doc["experiments"] if e["status"] == "failed"]
        check("%s: no experiment failed" % o.name, not bad, str(bad))
    return checks


def other_cpu(o):
    doc = check_every_row_ends_well(o.name, o.rc, o.run_dir, o.results)
    if doc:
        check_i386(o.name, doc, exact=False)


def noise(o):
    doc = check_every_row_ends_well(o.name, o.rc, o.run_dir, o.results)
    if not doc:
        return
    check("noise: figures are labelled TCG noise, never cycles",
          doc["clock"]["kind"] == "tcg-noise"
          and not doc["clock"]["figures_are_cycles"], str(doc["clock"]))
    # Noisy rows have wide histograms: more than one handoff holds.
    # The run goes in parts, a reset apart, joined by phase C.
    parts = statuses(o.run_dir, 2, "part-kept")
    folder = os.path.join(o.results, o.folders[0])
    ok_rows = [e for e in doc["experiments"] if e["status"] == "ok"]
    with_hist = [e for e in ok_rows if all(
        e["histograms"][k] for k in ("entry", "exit", "round_trip"))]
    check("noise: histograms that outgrow one handoff spread the run "
          "over resets, joined into one folder with every row",
          doc["handoff"]["parts"] >= 2 and parts
          and parts[0]["part"] == "1"
          and doc["handoff"]["unmeasured_from_row"] is None
          and os.path.exists(os.path.join(folder, "run-1-part-1.bin"))
          and len(with_hist) >= 0.9 * len(ok_rows) > 0
          and doc["handoff"]["row_histograms"] >= 3 * len(with_hist),
          "%s parts=%s, %d of %d ok rows with histograms"
          % (parts, doc["handoff"], len(with_hist), len(ok_rows)))
    gaps = [g for g in doc["gap_method"]["rows"] if g["status"] != "skipped"]
    # On a host this busy the loop can gather its gaps from stalls alone
    # before the timer fires in a row: the timer must be seen in some
    # row, and each row's count of stalls must add up.
    check("noise: gap rows on a noisy host end ok, never failed: one whose "
          "histogram outgrew %d bytes keeps its percentiles and says so, "
          "stalls beyond the timer's interrupts are counted and said, and "
          "the timer's interrupts are seen" % 384,
          gaps and any(g["interrupts"] > 0 for g in gaps) and all(
              g["status"] == "ok"
              and g["stalls"] == max(0, g["gaps"] - g["interrupts"])
              and (bool(g["histogram"]) or "percentiles only" in g["note"])
              and (not g["stalls"] or "stalls" in g["note"])
              for g in gaps),
          str([(g["scheme"], g["status"], g.get("note")) for g in gaps]))
    rescue_parts(o.results)


def runs_3(o):
    """runs = 3: three measuring boots, one reset apart, merged by the
    fourth. Under icount every run must give the same medians."""
    if not check("runs-3: four boots completed", o.rc == 0,
                 "run.sh exit %d, see %s" % (o.rc, o.run_dir)):
        return
    doc, folders = o.doc, o.folders
    rows = doc["runs"]["rows"] if doc else []
    check("runs-3: three runs merged into one folder, earlier runs kept "
          "on the ESP", doc is not None and doc["runs"]["count"] == 3
          and doc["config"]["runs"] == 3
          and os.path.exists(os.path.join(o.results, folders[0], "run-1.bin"))
          and os.path.exists(os.path.join(o.results, folders[0], "run-2.bin")),
          str(folders))
    ok_rows = [e for e in (doc or {}).get("experiments", [])
               if e["status"] == "ok"]
    check("runs-3: every ok row has its three run medians",
          len(rows) == len(ok_rows) > 0
          and all(len(r["round_trip_medians"]) == 3 for r in rows),
          "%d rows, %d ok experiments" % (len(rows), len(ok_rows)))
    check("runs-3: icount runs agree exactly: no spread, nothing unstable",
          rows and all(r["spread"] == 0 and not r["unstable"]
                       for r in rows), str(rows[:3]))
    check("runs-3: each intermediate run's records were deleted",
          [statuses(o.run_dir, n, "run-kept") for n in (2, 3)]
          == [[{"run": "1", "runs": "3"}], [{"run": "2", "runs": "3"}]]
          and varstore.irqlab_records(
              os.path.join(o.run_dir, "vars.fd")) == [])


def bad_config(o):
    """A config with an error stops in phase A, visibly: every problem on
    screen and serial, a countdown, power off; nothing is measured. The
    runner prints each problem with its line, naming the user's file."""
    log = serial(o.run_dir, 1)
    with open(os.path.join(o.run_dir, "run.log")) as f:
        said = f.read()
    mine = os.path.join(o.run_dir, "irqlab.cfg")
    check("bad-config: the runner names the user's config file and prints "
          "each of its three errors and its warning with its line, and says "
          "nothing was measured",
          "irqlab: 3 error(s) in %s:" % mine in said
          and "  line 1: samples must be a number" in said
          and "  line 4: schemes: unknown name 'fast'" in said
          and "  line 5: sources selects nothing" in said
          and "irqlab: 1 warning(s) in %s:" % mine in said
          and "  line 3: unknown key 'shade' ignored" in said
          and "nothing measured: fix the lines above in %s" % mine in said,
          said[-1500:])
    check("bad-config: the run stops in phase A with every problem said, "
          "then powers off by itself",
          o.rc != 0 and "irqlab will not measure" in log
          and "line 1: samples must be a number" in log
          and "line 3: unknown key 'shade' ignored" in log
          and "line 4: schemes: unknown name 'fast'" in log
          and "line 5: sources selects nothing" in log
          and "powering off in" in log
          and not statuses(o.run_dir, 1, "handed-over")
          and "exiting boot services" not in log, log[-800:])


def shipped_with_quick():
    """A copy of the shipped irqlab.cfg with quick = 1, one scheme and one
    source chosen below it (a user's edits); its variants = all stays."""
    with open(os.path.join(ROOT, "image", "irqlab.cfg")) as f:
        text = f.read()
    return (text.replace("\nquick = 0", "\nquick = 1")
            + "schemes = direct\nsources = int\n")


def quick(o):
    """quick = 1 in a copy of the shipped file, which sets every count:
    the quick counts are used all the same, and the runner says which."""
    doc = o.doc if o.rc == 0 else None
    if not check("quick: both boots completed, one results folder, from a "
                 "run folder %d bytes deep (a UNIX socket's path may not "
                 "pass 108): the TPM's socket lives elsewhere"
                 % len(os.path.abspath(o.run_dir)),
                 doc is not None and len(os.path.abspath(o.run_dir)) > 108,
                 "run.sh exit %d, see %s" % (o.rc, o.run_dir)):
        return
    with open(os.path.join(o.run_dir, "run.log")) as f:
        said = f.read()
    c = doc["config"]
    row = experiment(doc, "int-direct")
    check("quick: the shipped file's counts give way to the quick ones "
          "(samples 1000 after 100 warm-up, both passes delivered), and the "
          "runner prints the counts used",
          (c["samples"], c["warmup"], c["floor_samples"],
           c["primitive_blocks"], c["gap_samples"]) == (1000, 100, 200, 20, 200)
          and row is not None and row["delivered"] == PASSES * 1100
          and "irqlab: quick = 1: the counts used: samples=1000 warmup=100"
          in said, "%s %s %s" % (c, row and row["delivered"], said[-600:]))
    folder = os.path.join(o.results, doc["run_id"])
    ends = said.rstrip().splitlines()[-2:]
    check("quick: the runner ends with the headline, in at most 80 columns, "
          "and the paths of report.html and summary.txt",
          "irqlab: run %s done" % doc["run_id"] in said
          and "round trip, median, net of the floor" in said
          and all(len(line) <= 80 for line in said[said.index(
              "irqlab: run %s done" % doc["run_id"]):].splitlines()
              if not line.startswith("irqlab: "))
          and ends == ["irqlab: the report:   %s" % os.path.join(
              folder, "report.html"),
                       "irqlab: every figure: %s, results.json" % os.path.join(
              folder, "summary.txt")], "\n".join(ends))
    modes = {e["cpu_mode"] for e in doc["experiments"]}
    variants = {e["variant"] for e in doc["experiments"] if e["variant"]}
    check("quick: schemes = direct with variants = all runs direct's entry "
          "variants and cache states, and no i386 row: the i386 variants "
          "come in only where an i386 scheme is chosen or they are named",
          modes == {"long"} and {"gs-swapgs", "cold"} <= variants
          and not variants & {"ds-es", "pda-gs"},
          "%s %s" % (sorted(modes), sorted(variants)))


def selection(o):
    """Choosing what runs: two schemes, one source, no variants. Only
    those rows run; the choice is in the results."""
    doc = o.doc if o.rc == 0 else None
    if not check("selection: both boots completed, one results folder",
                 doc is not None, "run.sh exit %d, see %s"
                 % (o.rc, o.run_dir)):
        return
    names = sorted(e["name"] for e in doc["experiments"])
    check("selection: a config that selects two schemes and one source "
          "runs only those rows", names == ["int-direct", "int-push-jmp"]
          and not doc["gap_method"]["rows"]
          and all(e["status"] == "ok" for e in doc["experiments"]),
          str(names) + str(doc["gap_method"]["rows"][:2]))
    check("selection: the choice is in the results",
          doc["config"]["schemes"] == "direct,push-jmp"
          and doc["config"]["sources"] == "int"
          and doc["config"]["variants"] == "none"
          and doc["config"]["apic_modes"] == "all", str(doc["config"]))


FOREIGN_NAME = "IrqlabSomeOtherToolLeftThisVariableHere"
FOREIGN = os.path.join(BUILD, "foreign.json")


def plant_foreign():
    """Another tool's variable under irqlab's GUID, its name longer than
    a record's."""
    os.makedirs(BUILD, exist_ok=True)
    with open(FOREIGN, "w") as f:
        json.dump({"version": 2, "variables": [{
            "name": FOREIGN_NAME, "guid": str(varstore.IRQLAB_GUID),
            "attr": 7, "data": "68656c6c6f"}]}, f)


def foreign_variable(o):
    """Once it made every boot rerun phase C and never measure. Now it is
    reported, left alone, and the run measures."""
    left = [v.name for v in varstore.variables(open(
        os.path.join(o.run_dir, "vars.fd"), "rb").read())
        if v.live and v.guid == varstore.IRQLAB_GUID]
    check("foreign-variable: a foreign variable under irqlab's GUID is "
          "reported, left alone, and the run measures",
          o.rc == 0 and len(o.folders) == 1
          and not o.folders[0].endswith("-discarded")
          and statuses(o.run_dir, 1, "handed-over")
          and "is not one of its records: left alone" in serial(o.run_dir, 1)
          and left == [FOREIGN_NAME], "%s %s %s" % (o.rc, o.folders, left))


def secure_boot(o):
    """Secure Boot on, as on many a stranger's machine: the firmware
    refuses the unsigned image, and the runner says so instead of
    "hung"."""
    with open(os.path.join(o.run_dir, "run.log")) as f:
        log = f.read()
    check("secure-boot: the runner names Secure Boot when the firmware "
          "refuses the image", o.rc != 0 and "Secure Boot is on" in log
          and "Access Denied" in log and "hung" not in log, log[-600:])


def corrupt(o):
    folders = o.folders
    check("corrupt: phase C completed", o.rc == 0,
          "run.sh exit %d, see %s" % (o.rc, o.run_dir))
    check("corrupt: no results presented from corrupt records",
          len(folders) == 1 and folders[0].endswith("-discarded")
          and not os.path.exists(os.path.join(o.results, folders[0],
                                              "results.json")), str(folders))
    summary = ""
    if len(folders) == 1:
        with open(os.path.join(o.results, folders[0], "summary.txt")) as f:
            summary = f.read()
    corrupted = [v.name for v in varstore.irqlab_records(
        os.path.join(o.run_dir, "vars-after-boot1.fd"))]
    named = [n for n in corrupted
             if re.search(r"^  %s +corrupt +CRC mismatch$" % n, summary, re.M)]
    check("corrupt: the summary names each of the %d records, each with its "
          "CRC failure" % len(corrupted),
          corrupted and named == corrupted, "%s of %s\n%s"
          % (named, corrupted, summary))
    check("corrupt: corrupt records cleaned up",
          varstore.irqlab_records(os.path.join(o.run_dir, "vars.fd")) == [])


def cross_check(outcomes):
    """After both lanes: the exact-count Bochs run is on the second."""
    icount_a = outcomes.get("icount-a")
    if icount_a and icount_a.icount_doc:
        cross_check_emulators(icount_a.icount_doc,
                              os.path.join(BUILD, "icount-a", "boot1.log"))


class Boot:
    """One entry of a lane: a two-boot cycle of image/run.sh (or, with
    `perform`, a procedure of several), and the checks on what it left.
    `needs` names a tool the run cannot go without (tests/checks.py:
    skipped outside CI, failed under it)."""

    def __init__(self, name, checks=(), icount="", cpu="max", machine="q35",
                 config=None, env=None, before_boot1=None, after_boot1=None,
                 prepare=None, needs=None, busy_host=False, perform=None,
                 deep=False):
        self.name, self.checks, self.needs = name, checks, needs
        # deep: a run folder deeper than a UNIX socket path may be (108
        # bytes), as a deep checkout's is: sockets must live elsewhere.
        self.deep = deep
        self.icount, self.cpu, self.machine = icount, cpu, machine
        self.config, self.env, self.prepare = config, env, prepare
        self.before_boot1, self.after_boot1 = before_boot1, after_boot1
        self.busy_host, self.perform = busy_host, perform


class Outcome:
    """What one run left: run.sh's exit code, its folder, the results it
    collected, and its results.json where there is exactly one."""

    def __init__(self, name, rc, run_dir, results):
        self.name, self.rc, self.run_dir, self.results = (name, rc, run_dir,
                                                          results)
        try:
            self.doc, self.folders = load_results(results)
        except (OSError, ValueError):
            # One folder without a readable results.json: a discard note.
            self.doc, self.folders = None, result_folders(results)
        self.icount_doc = None

    def file(self, name):
        with open(os.path.join(self.results, self.folders[0], name)) as f:
            return f.read()


def have(tool):
    """Why `tool` is missing, or None."""
    if tool == "virt-fw-vars":
        return None if shutil.which("virt-fw-vars") else \
            "virt-fw-vars (python3-virt-firmware, from bookworm-backports) " \
            "is not installed"
    if tool == "bochs":
        return None if bochs_binary() else \
            "no Bochs here (set BOCHS, or put bochs on PATH)"
    if tool == "bochs-smp":
        return None if bochs_smp_binary() else \
            "no Bochs built with --enable-smp (set BOCHS_SMP)"
    if tool == "bochs-exact":
        path = os.environ.get("BOCHS_EXACT")
        return None if path and os.access(path, os.X_OK) else \
            "no exact-count Bochs (set BOCHS_EXACT; make bochs-exact " \
            "builds one)"
    return "unknown tool %s" % tool


def boot(entry):
    """Makes the entry's run and returns its Outcome."""
    if entry.prepare:
        entry.prepare()
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
            for _ in range(2 if entry.busy_host else 0)]
    try:
        run_dir = None
        if entry.deep:
            shallow = os.path.join(BUILD, "deep-", entry.name)
            run_dir = os.path.join(
                BUILD, "deep-" + "d" * max(1, 120 - len(shallow)), entry.name)
        rc, run_dir, results = run(
            entry.name, entry.icount, cpu=entry.cpu, machine=entry.machine,
            config=entry.config, extra_env=entry.env,
            before_boot1=entry.before_boot1, after_boot1=entry.after_boot1,
            run_dir=run_dir)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    return Outcome(entry.name, rc, run_dir, results)


def walk(lane, outcomes):
    """Each entry in order: its run, then its checks, each guarded, so
    that one that raises fails by name and the rest still run. A line
    "time" says what each entry took, where the suite's time goes, and
    the limit each of its boots had (a procedure's boots set their own)."""
    only = os.environ.get("BOOT_ONLY")
    for entry in lane:
        # BOOT_ONLY=name,name: a developer's subset; never set under CI.
        if only and entry.name not in only.split(","):
            continue
        started = time.monotonic()
        missing = entry.needs and have(entry.needs)
        if missing:
            check.skip(entry.name, missing)
            continue
        if entry.perform:
            check.guarded(entry.name, entry.perform)
        else:
            outcome = check.guarded(entry.name, boot, entry)
            if outcome is not None:
                outcomes[entry.name] = outcome
                for c in entry.checks:
                    check.guarded("%s: %s" % (entry.name, c.__name__), c,
                                  outcome)
        limit = "its boots' own" if entry.perform else "%s s a boot" % (
            (entry.env or {}).get("BOOT_TIMEOUT", BOOT_LIMIT))
        print("time  %s: %.0f s, limit %s" % (
            entry.name, time.monotonic() - started, limit))
        sys.stdout.flush()


# Fewer samples where a run checks behaviour, not figures.
SMALL = ("samples = 500\nwarmup = 20\ncold_samples = 50\n"
         "thrash_samples = 5\nprimitive_blocks = 10\n")
# A matrix that fits one handoff with room to spare, even with plain
# TCG's wide figures, for the tests of what happens around a run (the
# boot order, a rescue, a full disk, a series): every scheme and source
# in xAPIC mode, one entry variant and one cache state. A full matrix
# goes in parts (docs/uefi-variables.md "Parts").
ONE_HANDOFF = "variants = none, gs-swapgs, cold\napic_modes = xapic\n"
TPM_OFF = {"TPM": "off"}

# The first core: QEMU's configurations, the icount pair first.
FIRST_LANE = (
    # -icount shift=0: the full matrix, twice, figures compared exactly.
    Boot("icount-a", (icount_checks, cross_cpu_alone), icount=ICOUNT,
         config=CONFIG),
    Boot("icount-b", (icount_checks,), icount=ICOUNT, config=CONFIG),
    # An xAPIC-only CPU; the i440FX machine, plain TCG (its IDE disk makes
    # phase C slow under icount), with percentiles only (plain TCG's
    # noisy histograms would take it into parts).
    Boot("xapic-only", (other_machine(lambda: False, True),),
         icount=ICOUNT, cpu="max,-x2apic", config=SMALL),
    Boot("machine-pc", (other_machine(qemu_has_tcg_x2apic, False),),
         machine="pc", config=SMALL + "histograms = 0\n"),
    # Other CPU models, old and new, Intel and AMD: qemu64 has no RDTSCP,
    # as seed 000's Core 2 Xeons had none. Every row must end ok or
    # skipped with a reason.
    Boot("cpu-qemu64", (other_cpu,), icount=ICOUNT, cpu="qemu64",
         config=TINY),
    Boot("cpu-EPYC", (other_cpu,), icount=ICOUNT, cpu="EPYC", config=TINY),
    # Plain TCG on a busy host, as noisy as a real machine: waits are
    # bounded by time, not polls, and no row may fail or time out.
    Boot("noise", (noise,), config=SMALL, busy_host=True),
    Boot("runs-3", (runs_3,), icount=ICOUNT,
         config=SMALL + ONE_HANDOFF + "runs = 3\n"),
    Boot("nmi-in-switch", (nmi_in_switch,),
         config=TINY + CALL16_SELECTION.replace(
             "i386-call16, i386-call16-3byte", "i386-direct, i386-call16")
         + "simulate = nmi-in-switch\n", env=TPM_OFF),
    Boot("platform-simulated", (platform_simulated,),
         config=TINY + "schemes = direct\nvariants = none\n"
         "simulate = pit-gated, x2apic-locked\n",
         env={"TPM": "off", "QEMU_EXTRA": "-device intel-iommu"}),
    Boot("bad-config", (bad_config,),
         config="samples = lots\nruns = 2\nshade = 3\n"
         "schemes = direct, fast\nsources = ,\n"),
    Boot("quick", (quick,), icount=ICOUNT, config=shipped_with_quick(),
         deep=True),
    # Every step of the linux variant TCG can run, patched on.
    Boot("linux-every-step", (linux_every_step_icount,), icount=ICOUNT,
         config=TINY + EVERY_STEP_CONFIG, env=TPM_OFF),
    Boot("selection", (selection,), icount=ICOUNT,
         config=TINY + "schemes = direct, push-jmp\nsources = int\n"
         "variants = none\n"),
    # Four CPUs on two sockets: the cross-CPU rows, both APIC modes.
    Boot("cross-cpu", (cross_cpu, cross_cpu_section),
         config=TINY + "schemes = direct\nvariants = none\nsources = "
         + ", ".join(CROSS_CPU_SOURCES) + "\n",
         env={"TPM": "off", "SMP": "4,sockets=2,cores=2"}),
    # Two CPUs and two listed absent, under icount: counts only.
    Boot("cross-cpu-icount", (cross_cpu_icount,), icount=ICOUNT,
         config=TINY + "samples = %d\nwarmup = %d\n" % (
             ICOUNT_CROSS_SAMPLES, ICOUNT_CROSS_WARMUP)
         + "schemes = direct\nvariants = none\n"
         "sources = ipi-cpu-roundtrip\napic_modes = xapic\n"
         "simulate = ap-absent\n",
         # Under -icount the two vCPUs take turns: its boot took 162 and
         # 186 s on a quiet host, and passed 240 s on a loaded one.
         env={"TPM": "off", "SMP": "2,maxcpus=4", "ICOUNT_BOOTS": "1",
              "BOOT_TIMEOUT": "600"}),
    # Every long-mode row again on CPU 1, the IO-APIC routed to it.
    Boot("matrix-all-rows", (matrix_all_rows,),
         config=TINY + "schemes = direct, push-jmp\nvariants = gs-swapgs, "
         "cold\nsources = int, ipi-self-xapic, lapic-oneshot, "
         "lapic-periodic, ioapic-edge, ioapic-level, "
         "ioapic-level-value-cached, pic8259\nmatrix_cpus = 1\n"
         "matrix_cpus_rows = all\n", env={"TPM": "off", "SMP": "2"}),
    # Three of the four chosen, and the first other sender faults; the
    # INT n row again on the other socket's CPU 3.
    Boot("cross-cpu-fault", (cross_cpu_fault,),
         config=TINY + "schemes = direct\nvariants = none\nsources = int\n"
         "cpus = 0, 2, 3\nsimulate = ap-fault\nmatrix_cpus = 3\n",
         env={"TPM": "off", "SMP": "4,sockets=2,cores=2"}),
    Boot("foreign-variable", (foreign_variable,), config=SMALL,
         prepare=plant_foreign, needs="virt-fw-vars",
         before_boot1="virt-fw-vars --set-json %s --inplace" % FOREIGN),
    Boot("secure-boot", (secure_boot,), config=SMALL,
         env={"SECURE_BOOT": "1", "BOOT_TIMEOUT": "120"}),
    # A stranger's platform, made up where no emulator has it: a store of
    # unknown layout, a boot's first 32-bit trip at a call16 row, an NMI
    # in the mode switches, no HPET or one whose table points at nothing.
    Boot("store-unreadable", perform=lambda: store_unreadable(TINY)),
    Boot("call16-first", perform=lambda: call16_first(TINY)),
    Boot("hpet-off", (hpet_missing("hpet-off"),),
         config=TINY + "schemes = direct\nvariants = none\n",
         machine="q35,hpet=off", env=TPM_OFF),
    Boot("hpet-nowhere", (hpet_missing("hpet-nowhere"),),
         config=TINY + "schemes = direct\nvariants = none\n",
         machine="q35,hpet=off", prepare=hpet_table_to_nowhere,
         env={"TPM": "off", "QEMU_EXTRA": "-acpitable file=" + HPET_NOWHERE}),
    # Every handoff record has a bit flipped between the boots.
    Boot("corrupt", (corrupt,), config=SMALL,
         after_boot1="%s --corrupt" % os.path.join(HERE, "varstore.py")),
)

# The second core: the variable store and the ESP as a stranger's machine
# has them (plain TCG, tiny matrices, the 2 MB and 4 MB stores, no TPM),
# and Bochs.
SECOND_LANE = (
    Boot("progress-screen", perform=progress_screen),
    Boot("no-display", (no_display, reset_returns),
         config=TINY + "simulate = reset-returns\n",
         env={"TPM": "off", "VGA": "none"}),
    Boot("one-time-boot",
         (lambda o: collect_sources(o.run_dir),
          lambda o: rescue(o.run_dir, o.results), one_time_boot),
         config=TINY + ONE_HANDOFF, needs="virt-fw-vars",
         env={"TPM": "off", "ONE_TIME_BOOT": "1",
              "OTHER_DISK": os.path.join(ROOT, "build", "other-disk.img")}),
    Boot("usb", perform=usb_writer),
    Boot("store-2m", perform=lambda: store_cycles(TINY + ONE_HANDOFF)),
    Boot("bochs", perform=lambda: bochs_runs(TINY), needs="bochs"),
    Boot("bochs-counted", perform=lambda: bochs_counted_pass(TINY),
         needs="bochs-exact"),
    Boot("bochs-cet", perform=lambda: bochs_cet(TINY), needs="bochs"),
    Boot("bochs-every-step", perform=lambda: bochs_every_step(TINY),
         needs="bochs"),
    Boot("bochs-smp", perform=lambda: bochs_smp_runs(TINY),
         needs="bochs-smp"),
    Boot("bochs-exact", perform=lambda: bochs_exact_run(TINY),
         needs="bochs-exact"),
    Boot("kill-mid-deletion", perform=lambda: kill_mid_deletion(TINY)),
    Boot("runtime-fault", perform=lambda: runtime_fault(TINY)),
    Boot("store-fills", perform=lambda: store_fills(TINY)),
    Boot("setvariable-error", (setvariable_error,), env=TPM_OFF,
         config=TINY + "schemes = direct\nvariants = none\n"
         "simulate = setvariable-error\n"),
    Boot("other-cpus", perform=lambda: other_cpus(TINY)),
    Boot("undeletable-record", (undeletable_record,), config=TINY,
         env=TPM_OFF, prepare=plant_undeletable, needs="virt-fw-vars",
         before_boot1="virt-fw-vars --set-json %s --inplace" % UNDELETABLE),
    Boot("esp-full", (full_esp,), config=TINY + ONE_HANDOFF, env=TPM_OFF,
         after_boot1=os.path.join(HERE, "esp_fill.py")),
    # A 4 MB store whose end other software's deleted variables filled to
    # 3000 bytes: once phase A warned of it and phase B handed over fine.
    # Now the one rule sees the end as phase B will, after any reclaim.
    Boot("store-4m-deleted", (store_room_reclaimed,), config=TINY,
         env=TPM_OFF, before_boot1="%s --fill 3000 deleted"
         % os.path.join(HERE, "varstore.py")),
    # A store nearly full of other software's live variables: phase A
    # refuses, visibly, before measuring anything.
    Boot("store-full", (store_full_refused,), config=TINY, env=TPM_OFF,
         before_boot1="%s --fill 20000 live" % os.path.join(HERE,
                                                         "varstore.py")),
    # INT n and the self-IPIs under every scheme again on CPU 1, in the
    # boot CPU's place, under icount; and on a CPU the MADT lacks.
    Boot("matrix-on-cpu1-icount", (matrix_on_cpu1_icount,), icount=ICOUNT,
         config=TINY + "variants = none\nsources = "
         + ", ".join(MATRIX_CPU_SOURCES) + "\nmatrix_cpus = 1, 5\n",
         # Two vCPUs under -icount take turns, as cross-cpu-icount's do.
         env={"TPM": "off", "SMP": "2", "ICOUNT_BOOTS": "1",
              "BOOT_TIMEOUT": "600"}),
)

# Checks across runs, once both lanes are done.
AFTER = (icount_pair, cross_check)


def record_reference():
    """make reference: the icount run alone, its figures written as the
    reference with the build that measured them (docs/timing.md "The path
    length, checked"); every row whose figures changed is named, and
    must be explained in tests/boot/reference/EXPLAINED."""
    outcomes = {}
    walk([e for e in FIRST_LANE if e.name == "icount-a"], outcomes)
    doc = outcomes.get("icount-a") and outcomes["icount-a"].icount_doc
    if not doc:
        print("make reference: the icount run failed; nothing written")
        return 1
    with open(REFERENCE) as f:
        old = json.load(f)
    new = figures(doc)
    with open(REFERENCE, "w") as f:
        json.dump(new, f, indent=1, sort_keys=True)
        f.write("\n")
    print("reference: build %s (was %s); %d rows changed%s" % (
        new["build"], old.get("build"), len(differences(old, new)),
        "".join("\n  " + d for d in differences(old, new))))
    return 0


def main():
    if not os.path.exists(IMAGE):
        print("missing %s: run make image first" % IMAGE)
        return 1
    if sys.argv[1:] == ["--record-reference"]:
        return record_reference()
    outcomes = {}
    beside = check.thread("the second lane", walk, SECOND_LANE, outcomes)
    beside.start()
    check.guarded("the first lane", walk, FIRST_LANE, outcomes)
    beside.join()
    for after in () if os.environ.get("BOOT_ONLY") else AFTER:
        check.guarded(after.__name__, after, outcomes)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
