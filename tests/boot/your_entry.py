"""Your own entry code (docs/your-entry.md): `make ENTRY=...` builds files
of known length into irqlab, and the boots measure them under -icount,
where each part must cost exactly its listing's instructions; files that
lose a register, the stack or fault fail by name while the rest of the
run is ok; and the build refuses what it must, naming the file and
line."""

import hashlib
import json
import os
import re
import subprocess

from harness import BUILD, ROOT, check, serial
from row_checks import qemu_has_tcg_x2apic

EXAMPLE = "docs/entry/linux-6.12-user.S"
FILES = "tests/boot/entry/"
# Each good file's name and its parts' lengths, known from its text (the
# example's: docs/your-entry.md "The worked example").
GOOD = ((EXAMPLE, "linux-6.12-user", 32, 21),
        (FILES + "nops-3-2.S", "nops-3-2", 3, 2),
        (FILES + "scratch-4-1.S", "scratch-4-1", 4, 1))
# Each bad file's name and a piece of the reason its rows must fail with.
BAD = ((FILES + "clobbers-rbx.S", "clobbers-rbx",
        "registers changed across INT 65: RBX"),
       (FILES + "unbalanced.S", "unbalanced",
        "the stack is unbalanced: the entry part pushes 8 bytes and the "
        "exit part pops 0"),
       (FILES + "ud2.S", "ud2",
        "yours-ud2's exit part, at +0x1: #UD vector 6"))
SOURCES = ("int", "ipi-self-xapic", "ipi-self-x2apic-selfipi")


def entry_build(name):
    return os.path.join(BUILD, name + "-build")


def entry_image(name):
    return os.path.join(entry_build(name), "irqlab.img")


def make_entry(name, files, target=None):
    """make with ENTRY=files in a build folder of the entry's own; the
    completed process (its output in stdout)."""
    build = os.path.relpath(entry_build(name), ROOT)
    targets = [target] if target else [build + "/irqlab.img",
                                       build + "/irqlab-rescue"]
    return own_make(["BUILD=" + build, "ENTRY=" + " ".join(files)]
                    + targets)


def own_make(args, timeout=None):
    """make with args, the completed process. A make of its own: not a
    sub-make of `make test`'s, whose jobserver its MAKEFLAGS would name;
    one job, so that a refusal's sentence is the last thing it prints."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", "-j1", "--no-print-directory"] + args,
                          cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=timeout)


def build_image(name, files):
    """The entry's image, or an exception whose text is make's."""
    done = make_entry(name, files)
    if done.returncode:
        raise RuntimeError("make ENTRY=... failed:\n" + done.stdout[-2000:]
                           + done.stderr[-2000:])


YOURS_CONFIG = ("schemes = direct, gate\nsources = " + ", ".join(SOURCES)
                + "\nvariants = cold, linux, "
                + ", ".join("yours-" + n for _, n, _, _ in GOOD)
                + "\nmatrix_cpus = 1\n")
FAULTS_CONFIG = ("schemes = direct\nsources = int, ipi-self-xapic\n"
                 "variants = yours-nops-3-2, "
                 + ", ".join("yours-" + n for _, n, _ in BAD) + "\n")


def prepare_good():
    build_image("your-entry", [f for f, _, _, _ in GOOD])


def prepare_bad():
    build_image("your-entry-faults",
                [GOOD[1][0]] + [f for f, _, _ in BAD])


def rows_of(o):
    return {e["name"]: e for e in (o.doc or {}).get("experiments", [])}


def medians(e):
    return [e[k]["median"] for k in ("entry", "exit", "round_trip")] \
        if e and e.get("status") == "ok" else None


def your_entry_figures(o):
    """Under -icount each good file's rows, on INT n, the xAPIC self-IPI
    and (where QEMU's TCG has x2APIC) the x2APIC self-IPI, on the boot CPU
    and again on CPU 1, measure direct's entry plus the entry part's
    listed instructions, its exit plus the exit part's, and its round
    trip plus both: to the instruction, as the listing counts them."""
    rows = rows_of(o)
    sources = SOURCES if qemu_has_tcg_x2apic() else SOURCES[:2]
    bad, seen = [], 0
    for _, name, entry, exit_ in GOOD:
        for source in sources:
            for cpu in ("", "@cpu1"):
                direct = medians(rows.get(source + "-direct" + cpu))
                yours = medians(rows.get(
                    source + "-direct+yours-" + name + cpu))
                want = direct and [direct[0] + entry, direct[1] + exit_,
                                   direct[2] + entry + exit_]
                seen += 1
                if not want or yours != want:
                    bad.append((name, source + cpu, yours, want))
        cold = medians(rows.get("int-direct+yours-%s+cold" % name))
        base = medians(rows.get("int-direct+cold"))
        seen += 1
        if not base or cold != [base[0] + entry, base[1] + exit_,
                                base[2] + entry + exit_]:
            bad.append((name, "cold", cold, base))
    check("your-entry: each of the %d files' %d rows (%s, on the boot CPU "
          "and on CPU 1, and INT n cold) measures direct's entry, exit and "
          "round trip plus exactly its parts' listed instructions "
          "(linux-6.12-user 32 and 21, nops-3-2 3 and 2, scratch-4-1 4 and "
          "1)" % (len(GOOD), seen, ", ".join(sources)),
          not bad and seen == len(GOOD) * (2 * len(sources) + 1), bad)


def your_entry_results(o):
    """results.json's yours: each file by name, its file's SHA-256 and
    its listing's counts; each of its rows set against direct, the gate
    and, on INT n, linux."""
    files = {f["name"]: f for f in (o.doc or {}).get("yours", [])}
    bad = []
    for path, name, entry, exit_ in GOOD:
        f = files.get(name, {})
        with open(os.path.join(ROOT, path), "rb") as text:
            sha = hashlib.sha256(text.read()).hexdigest()
        rows = f.get("rows", [])
        if f.get("file") != os.path.basename(path) or \
                f.get("sha256") != sha or \
                f.get("listing_instructions") != {"entry": entry,
                                                  "exit": exit_} or \
                not rows or any(
                    r["status"] != "ok" or not r["over_direct"] or
                    not r["over_gate"] or
                    (r["experiment"].startswith("int-") and
                     "@cpu" not in r["experiment"] and
                     not r["over_linux"]) for r in rows):
            bad.append((name, {k: f.get(k) for k in
                               ("file", "sha256", "listing_instructions")},
                        len(rows)))
    check("your-entry: results.json's yours names each of the %d files "
          "with its file's SHA-256 and its listing's counts, and sets each "
          "of its rows against direct, the gate's floor and, on the boot "
          "CPU's INT n, linux" % len(GOOD), not bad and len(files) == len(GOOD), bad)


# What each of results.json's comparisons of a file's row sets it
# against: the row it names, made from the file's row's own name.
AGAINST = (("over_direct", lambda row, name: row.replace("+yours-" + name,
                                                         "")),
           ("over_gate", lambda row, name: row.replace(
               "-direct+yours-" + name, "-gate")),
           ("over_linux", lambda row, name: row.replace("+yours-" + name,
                                                        "+linux")))
METRICS = ("entry", "exit", "round_trip")


def your_entry_overs(o):
    """Under -icount each of a file's rows in results.json's yours is set
    against the very rows a user reads it by: over_direct names the row
    without the file (warm for warm, cold for cold, CPU 1's for CPU
    1's) and is exactly the listing's entry, exit and their sum;
    over_gate and over_linux name the gate's and linux's row of the same
    source, cache state and CPU, each over exactly those rows' medians,
    and are null only where that row is not in the run, ok."""
    rows = rows_of(o)
    files = {f["name"]: f for f in (o.doc or {}).get("yours", [])}
    bad, seen = [], 0
    for _, name, entry, exit_ in GOOD:
        for r in files.get(name, {}).get("rows", []):
            mine = rows.get(r["experiment"])
            for key, base_of in AGAINST:
                base = rows.get(base_of(r["experiment"], name))
                over = r.get(key)
                seen += 1
                if not base or base.get("status") != "ok":
                    if over is not None:
                        bad.append((r["experiment"], key, "not null", over))
                    continue
                want = {m + "_median_over": mine[m]["median"]
                        - base[m]["median"] for m in METRICS}
                if key == "over_direct":
                    want = {"entry_median_over": entry,
                            "exit_median_over": exit_,
                            "round_trip_median_over": entry + exit_}
                got = over and {k: over.get(k) for k in want}
                if not over or over.get("row") != base["name"] or \
                        got != want:
                    bad.append((r["experiment"], key, over, base["name"],
                                want))
    check("your-entry: under -icount each file's row in results.json's "
          "yours is over direct's row of the same source, cache state and "
          "CPU by exactly its listing's entry, exit and their sum, and over "
          "the gate's and linux's rows by exactly their medians' "
          "differences, null only where that row is not in the run",
          not bad and seen >= 3 * len(GOOD) * 5, (seen, bad[:3]))
    lines = o.file("headline.txt").splitlines()
    wrong = []
    for k, (_, name, entry, exit_) in enumerate(GOOD, 1):
        line = [l for l in lines if l.startswith("yours %d " % k)]
        overs = re.findall(r"\(\+(\d+)\)", line[0]) if line else []
        if not overs or any(int(v) != entry + exit_ for v in overs):
            wrong.append((name, line, entry + exit_))
    check("your-entry: the end screen's line 'yours K' gives, for each "
          "file, in every source's cell, a round trip over direct of "
          "exactly its listing's entry and exit", not wrong, wrong)


def your_entry_reports(o):
    """summary.txt says "yours: NAME" for each file; the end screen
    (headline.txt) names the files by number and gives each its line of
    round trips over direct, within its 24 lines; report.html carries
    results.json's yours."""
    summary, headline, report = (o.file(n) for n in
                                 ("summary.txt", "headline.txt",
                                  "report.html"))
    names = "yours:   " + "  ".join("%d %s" % (k, n) for k, (_, n, _, _)
                                    in enumerate(GOOD, 1))
    lines = headline.splitlines()
    missing = ["summary.txt: yours: " + n for _, n, _, _ in GOOD
               if "yours: " + n not in summary]
    missing += [] if names in lines else ["headline.txt: " + names]
    missing += ["headline.txt: yours %d (+N)" % k
                for k in range(1, len(GOOD) + 1)
                if not any(line.startswith("yours %d " % k) and "(+" in line
                           for line in lines)]
    check("your-entry: summary.txt says 'yours: NAME' for each file; the "
          "end screen has the line '%s' and a line 'yours K' with a round "
          "trip over direct for each, in at most 24 lines; report.html "
          "holds the section's data" % names,
          not missing and len(lines) <= 24 and '"yours"' in report and
          "Your entry code" in summary, (missing, len(lines)))
    # Each table stands apart from the next: a blank line before the
    # schemes' table on the end screen and before summary.txt's rows.
    schemes = next((k for k, line in enumerate(lines)
                    if line.startswith("round trip, median")), None)
    yours_end = summary.find("\nexperiment ", summary.find("Your entry code"))
    check("your-entry: a blank line parts the yours table from the schemes' "
          "on the end screen, and from the rows' table in summary.txt",
          schemes is not None and schemes > 0 and lines[schemes - 1] == ""
          and yours_end > 0 and summary[yours_end - 1] == "\n",
          "%s; %r" % (lines[max(0, (schemes or 1) - 3):(schemes or 0) + 1],
                      summary[max(0, yours_end - 80):yours_end + 12]))


def your_entry_faults(o):
    """A file that loses RBX, one that pushes without popping and one
    that executes ud2: each of their rows fails with its named reason,
    and every other row of the run is ok."""
    rows = rows_of(o)
    bad = []
    for _, name, why in BAD:
        for source in ("int", "ipi-self-xapic"):
            e = rows.get("%s-direct+yours-%s" % (source, name), {})
            if e.get("status") != "failed" or why not in (e.get("reason")
                                                           or ""):
                bad.append((name, source, e.get("status"), e.get("reason")))
    others = [e["name"] for e in rows.values()
              if not any("+yours-" + n in e["name"] for _, n, _ in BAD)
              and e["status"] != "ok"]
    log = serial(o.run_dir, 1) if o.run_dir else ""
    check("your-entry-faults: clobbers-rbx fails naming RBX, unbalanced "
          "naming what each part moved RSP, ud2 naming #UD and where in "
          "its exit part, on INT n and the xAPIC self-IPI; every other "
          "row ok and no framework fault",
          not bad and not others and len(rows) > 2 * len(BAD) and
          "framework fault" not in log, (bad, others))


def your_entry_refusals():
    """What the build refuses, without booting: a syntax error named at
    the file's line, a file with its parts twice or not at all, and a
    fifth file."""
    target = os.path.relpath(os.path.join(entry_build("your-entry-refused"),
                                          "efi-obj", "yours.S.o"), ROOT)
    syntax = make_entry("your-entry-refused",
                        [FILES + "syntax-error.S"], target)
    check("your-entry-refused: an assembler error in a file of ENTRY is "
          "reported at the file's own line (syntax-error.S:5), and the "
          "build stops", syntax.returncode != 0 and
          FILES + "syntax-error.S:5: Error:" in syntax.stderr,
          syntax.stderr[-800:])
    # A section left open shows only once the file is assembled, when
    # its parts are counted (yours_files.h); the rest before.
    counts = os.path.relpath(os.path.join(entry_build("your-entry-refused"),
                                          "yours", "yours_files.h"), ROOT)
    for path, words, goal in (
            ("two-entries.S", "defines its parts more than once: "
             "YOUR_ENTRY on lines 2, 6", target),
            ("no-entry.S", "has no YOUR_ENTRY line", target),
            ("stray-code.S", "line 8: code outside YOUR_ENTRY ... YOUR_END",
             target),
            ("leaves-section.S", "its entry part ends in section .data",
             counts),
            ("leaves-section-exit.S", "its exit part ends in section .data",
             counts)):
        done = make_entry("your-entry-refused", [FILES + path], goal)
        check("your-entry-refused: %s is refused when it is built, with "
              "a sentence that names the file and says '%s'"
              % (path, words), done.returncode != 0 and
              "ENTRY=%s%s: %s" % (FILES, path, words) in done.stderr,
              done.stderr[-800:])
    # A config that selects none of the file's rows: make run stops
    # before it builds or boots, and says so.
    config = os.path.join(entry_build("your-entry-refused"), "none.cfg")
    os.makedirs(os.path.dirname(config), exist_ok=True)
    with open(config, "w") as f:
        f.write("samples = 200\nvariants = none\n")
    unselected = own_make(
        ["run", "BUILD=" + os.path.relpath(entry_build("your-entry-refused"),
                                           ROOT),
         "ENTRY=" + EXAMPLE, "CONFIG=" + config], timeout=120)
    check("your-entry-refused: make run ENTRY=... with a config whose "
          "variants = none stops before it builds or boots, saying the "
          "config selects none of the file's rows and what to add",
          unselected.returncode != 0 and "variants = none selects none of "
          "the rows of yours-" in unselected.stderr and "qemu" not in
          unselected.stdout.lower(), unselected.stderr[-800:])
    # And a config with an error, checked on the host by the firmware's
    # own parser: make run stops before it boots, with the bad value and
    # the nearest name of a misspelled key.
    with open(config, "w") as f:
        f.write("sample = 2000\nsamples = 20OO\n")
    erred = own_make(["run", "CONFIG=" + config], timeout=300)
    check("your-entry-refused: make run CONFIG=... whose config has an "
          "error stops before it boots, naming the bad value and, for a "
          "misspelled key, the key it is nearest",
          erred.returncode != 0 and "samples must be a number from 1 to "
          "1000000, not '20OO'" in erred.stderr and "did you mean "
          "'samples'?" in erred.stderr and "qemu" not in
          erred.stdout.lower(), erred.stderr[-800:])
    five = make_entry("your-entry-refused",
                      [EXAMPLE] + [f for f, _, _, _ in GOOD[1:]]
                      + [f for f, _, _ in BAD[:2]], target)
    check("your-entry-refused: five files are refused: at most 4 in a run",
          five.returncode != 0 and "at most 4" in five.stderr,
          five.stderr[-800:])
