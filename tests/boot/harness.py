"""The boot tests' harness: where runs live, the configs they are given,
launching QEMU (image/run.sh) and Bochs, reading what a run left, the
Boot entry type and the runner that walks a lane, timing each entry."""

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checks  # noqa: E402

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


# Every row checks and takes its samples twice: through the timed
# handlers (entry, exit, round_trip_timed) and the bare ones (round_trip).
PASSES = 2


# Seconds each boot of a run may take before image/run.sh kills it as
# hung, where the entry's env sets no BOOT_TIMEOUT of its own.
BOOT_LIMIT = "240"
# Seconds a Bochs run may take before image/bochs.sh kills it as hung.
BOCHS_LIMIT = "400"

# What each boot of the entry a lane is walking took, with its limit,
# for the entry's `time` line: one list a lane, as the two lanes run
# side by side; the firmware's share of each QEMU boot (image/run.sh's
# "firmware N s"); and the boots it made that no runner timed (the lab's
# machines, started here). And every entry's row, for the suite's table
# (docs/testing.md) and last lines.
lane_boots = threading.local()
entry_rows = []

# image/run.sh's line for each boot: its seconds, and the seconds from
# QEMU's start to irqlab's first line on COM1 ("-" where none came).
RUN_SH_BOOT = r"^boot \d+: (\d+) s"
RUN_SH_FIRMWARE = r"^boot \d+: \d+ s, firmware ([0-9.]+) s"


class EntryBoots:
    """The boots of the entry a lane is walking, shared with the threads
    the entry starts (entry_thread)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.timed, self.firmware, self.untimed = [], [], 0


def note_boots(log_path, limit, said, firmware=None):
    """Adds to the entry being walked each boot's seconds found in
    log_path by `said` (a pattern whose one group is the seconds), each
    with `limit`, and each firmware share `firmware` finds."""
    entry = getattr(lane_boots, "entry", None)
    if entry is None:
        return
    try:
        with open(log_path) as f:
            text = f.read()
    except OSError:
        return
    with entry.lock:
        entry.timed.extend((int(s), int(limit))
                           for s in re.findall(said, text, re.M))
        if firmware:
            entry.firmware.extend(
                float(s) for s in re.findall(firmware, text, re.M))


def launched(count=1):
    """Counts boots the entry being walked started itself (QEMU run by
    the test, not by image/run.sh or image/bochs.sh), for the budget."""
    entry = getattr(lane_boots, "entry", None)
    if entry is not None:
        with entry.lock:
            entry.untimed += count


def entry_thread(name, fn, *args):
    """A thread, guarded (check.thread), whose boots count as the
    entry's that started it."""
    entry = getattr(lane_boots, "entry", None)

    def in_entry(*a):
        lane_boots.entry = entry
        return fn(*a)
    return check.thread(name, in_entry, *args)


def run_env(run_dir, config, icount, cpu, machine, extra_env=None):
    """image/run.sh's environment for one run in `run_dir`."""
    env = dict(os.environ, RUN_DIR=run_dir,
               RESULTS_DIR=os.path.join(run_dir, "results"), CONFIG=config,
               ICOUNT=icount, BOOT_TIMEOUT=BOOT_LIMIT, CPU=cpu,
               MACHINE=machine)
    env.update(extra_env or {})
    return env


def run(name, icount, after_boot1=None, cpu="max", machine="q35",
        config=None, extra_env=None, before_boot1=None, run_dir=None,
        image=IMAGE):
    """One two-boot cycle of `image`. Returns (exit code, run dir,
    results dir)."""
    run_dir = run_dir or os.path.join(BUILD, name)
    results = os.path.join(run_dir, "results")
    os.makedirs(run_dir, exist_ok=True)
    subprocess.run(["rm", "-rf", results], check=True)
    config_text = config or CONFIG
    config = os.path.join(run_dir, "irqlab.cfg")
    with open(config, "w") as f:
        f.write(config_text)
    env = run_env(run_dir, config, icount, cpu, machine)
    if after_boot1:
        env["AFTER_BOOT1"] = after_boot1
    if before_boot1:
        env["BEFORE_BOOT1"] = before_boot1
    env.update(extra_env or {})
    with open(os.path.join(run_dir, "run.log"), "w") as log:
        rc = subprocess.run([os.path.join(ROOT, "image", "run.sh"), image],
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL).returncode
    note_boots(os.path.join(run_dir, "run.log"), env["BOOT_TIMEOUT"],
               RUN_SH_BOOT, RUN_SH_FIRMWARE)
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


def boot_seconds(run_dir, boot):
    """What run.sh said boot `boot` took."""
    with open(os.path.join(run_dir, "run.log")) as f:
        m = re.search(r"boot %d: (\d+) s" % boot, f.read())
    return int(m.group(1)) if m else None


def boot_processor_ms(run_dir, boot):
    """The processor time QEMU spent in boot `boot`, as run.sh said it:
    unlike its wall time, not stretched by whatever else the host runs."""
    with open(os.path.join(run_dir, "run.log")) as f:
        m = re.search(r"boot %d: QEMU's processor time (\d+) ms" % boot,
                      f.read())
    return int(m.group(1)) if m else None


def built_bochs(variable, built):
    """The Bochs the variable names, else the one `make bochs` built at
    build/<built>; None where neither is there to run."""
    path = os.environ.get(variable) or os.path.join(ROOT, "build", built)
    return path if os.access(path, os.X_OK) else None


def bochs_binary():
    """BOCHS, else make bochs's, else bochs on the PATH; None when none."""
    return built_bochs("BOCHS", "bochs/bin/bochs") or (
        None if os.environ.get("BOCHS") else shutil.which("bochs"))


def bochs_smp_binary():
    """BOCHS_SMP, else make bochs's: Bochs built with --enable-smp."""
    return built_bochs("BOCHS_SMP", "bochs/bin/bochs-smp")


def bochs_exact_binary():
    """BOCHS_EXACT, else make bochs's (or make bochs-exact's): Bochs built
    to count every instruction."""
    return built_bochs("BOCHS_EXACT", "bochs-exact/bin/bochs")


def run_bochs(label, bochs, model, config_text, cpus=1, cpu_options=""):
    """One image/bochs.sh run into build/boot-test/<label>, `cpu_options`
    added to its bochsrc's cpu line (BOCHS_CPU_OPTIONS): checks that
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
                     BOCHS_CPUS=str(cpus), BOCHS_CPU_OPTIONS=cpu_options,
                     RUN_DIR=run_dir, CONFIG=config, TIMEOUT=BOCHS_LIMIT,
                     RESULTS_DIR=os.path.join(run_dir, "results")),
            stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL).returncode
    note_boots(os.path.join(run_dir, "run.log"), BOCHS_LIMIT,
               r"^bochs \(.*\): (\d+) s")
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


def omitted_rows(log):
    """Rows a serial log says were omitted: those whose APIC mode did
    not come up (the source's first row is skipped with the reason, the
    others are said on the log only)."""
    return len(re.findall(r"^experiment \S+: omitted: ", log, re.M))


def check_every_plan_row(label, doc, run_dir):
    """The run measured every row of its plan, each once: the plan's rows
    (`plan: N rows` on the serial log, as its first part said it) are the
    results' experiment and gap rows, and no part was left unmeasured.
    image/bochs.sh runs a run in parts as Bochs runs of their own."""
    with open(os.path.join(run_dir, "serial.log"), "rb") as f:
        log = f.read().decode("latin-1")
    plan = re.search(r"plan: (\d+) rows", log)
    omitted = omitted_rows(log)
    names = [e["name"] for e in doc["experiments"]]
    check("%s: the results' experiment and gap rows, with the rows the log "
          "says were omitted for want of their APIC mode, are the plan's "
          "rows, each measured once, and no row is left unmeasured" % label,
          plan is not None
          and len(names) + len(doc["gap_method"]["rows"]) + omitted
          == int(plan.group(1)) and len(set(names)) == len(names)
          and doc["handoff"]["unmeasured_from_row"] is None,
          "%d experiments + %d gap rows + %d omitted in %s part(s), plan "
          "%s, unmeasured from %s" % (
              len(names), len(doc["gap_method"]["rows"]), omitted,
              doc["handoff"]["parts"], plan and int(plan.group(1)),
              doc["handoff"]["unmeasured_from_row"]))


class Boot:
    """One entry of a lane: a two-boot cycle of image/run.sh (or, with
    `perform`, a procedure of several), and the checks on what it left.
    `needs` names a tool the run cannot go without (tests/checks.py:
    skipped outside CI, failed under it)."""

    def __init__(self, name, checks=(), icount="", cpu="max", machine="q35",
                 config=None, env=None, before_boot1=None, after_boot1=None,
                 prepare=None, needs=None, busy_host=False, perform=None,
                 deep=False, beside=False, image=IMAGE):
        self.name, self.checks, self.needs = name, checks, needs
        # deep: a run folder deeper than a UNIX socket path may be (108
        # bytes), as a deep checkout's is: sockets must live elsewhere.
        self.deep = deep
        self.icount, self.cpu, self.machine = icount, cpu, machine
        self.config, self.env, self.prepare = config, env, prepare
        self.before_boot1, self.after_boot1 = before_boot1, after_boot1
        self.busy_host, self.perform = busy_host, perform
        # beside: a second emulator runs irqlab beside this one's boots
        # (Beside), as on a shared CI machine or a busy laptop.
        self.beside = beside
        # image: the disk image it boots, build/irqlab.img but where
        # `prepare` builds another (make run ENTRY=..., your_entry.py).
        self.image = image


class Beside:
    """A second emulator beside a boot: QEMU, plain TCG, -smp 2, running
    irqlab's own tiny run in a folder of its own, started again each
    time it ends, until stop(). `boots` counts the boots it began while
    the other ran, from its serial logs; `share` is the part of the
    other's time its emulator was running. How many boots fit is the
    host's speed; the share is not."""

    def __init__(self, name):
        self.run_dir = os.path.join(BUILD, name + "-beside")
        self.done = threading.Event()
        self.proc = None
        self.cycles = 0
        self.running = 0.0      # seconds its emulators ran, ended cycles
        self.began = self.ended = None
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        os.makedirs(self.run_dir, exist_ok=True)
        config = os.path.join(self.run_dir, "irqlab.cfg")
        with open(config, "w") as f:
            f.write(TINY)
        while not self.done.is_set():
            cycle = os.path.join(self.run_dir, "cycle-%d" % self.cycles)
            subprocess.run(["rm", "-rf", cycle], check=True)
            os.makedirs(cycle)
            env = run_env(cycle, config, "", "max", "q35",
                          {"SMP": "2", "TPM": "off"})
            with open(os.path.join(cycle, "run.log"), "w") as log:
                self.proc = subprocess.Popen(
                    [os.path.join(ROOT, "image", "run.sh"), IMAGE], env=env,
                    stdout=log, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL, start_new_session=True)
            self.cycles += 1
            since = time.monotonic()
            self.proc.wait()
            self.running += time.monotonic() - since

    def start(self):
        self.began = time.monotonic()
        self.thread.start()

    def stop(self):
        self.ended = time.monotonic()
        self.done.set()
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
        self.thread.join()

    def share(self):
        """The part of the time from start() to stop() its emulators ran."""
        return self.running / max(self.ended - self.began, 1e-9)

    def boots(self):
        """The boots it began: serial logs that reached phase A."""
        n = 0
        for k in range(self.cycles):
            cycle = os.path.join(self.run_dir, "cycle-%d" % k)
            for f in os.listdir(cycle) if os.path.isdir(cycle) else []:
                if re.match(r"boot\d+\.log$", f):
                    with open(os.path.join(cycle, f), "rb") as log:
                        n += b"phase A" in log.read()
        return n


class Outcome:
    """What one run left: run.sh's exit code, its folder, the results it
    collected, and its results.json where there is exactly one; and the
    boots a second emulator began beside it and the part of the time it
    ran (Beside), or None."""

    def __init__(self, name, rc, run_dir, results, beside=None):
        self.name, self.rc, self.run_dir, self.results = (name, rc, run_dir,
                                                          results)
        self.beside_boots, self.beside_share = beside or (None, None)
        try:
            self.doc, self.folders = load_results(results)
        except (OSError, ValueError):
            # One folder without a readable results.json: a discard note.
            self.doc, self.folders = None, result_folders(results)
        self.icount_doc = None

    def file(self, name):
        with open(os.path.join(self.results, self.folders[0], name)) as f:
            return f.read()


# U-Boot's EFI for QEMU, Debian's u-boot-qemu (image/install-deps.sh
# test): firmware that leaves SSE off (docs/run.md "The FPU and SSE").
U_BOOT_ROM = "/usr/lib/u-boot/qemu-x86_64/u-boot.rom"


def have(tool):
    """Why `tool` is missing, or None."""
    if tool == "virt-fw-vars":
        return None if shutil.which("virt-fw-vars") else \
            "virt-fw-vars (python3-virt-firmware, from bookworm-backports) " \
            "is not installed"
    if tool == "bochs":
        return None if bochs_binary() else \
            "no Bochs here: make bochs BOCHS_SOURCE=... builds it " \
            "(docs/emulators.md \"Bochs for anyone\"), or set BOCHS"
    if tool == "bochs-smp":
        return None if bochs_smp_binary() else \
            "no Bochs built with --enable-smp: make bochs BOCHS_SOURCE=... " \
            "builds it, or set BOCHS_SMP"
    if tool == "bochs-exact":
        return None if bochs_exact_binary() else \
            "no exact-count Bochs: make bochs BOCHS_SOURCE=... builds it, " \
            "or set BOCHS_EXACT"
    if tool == "u-boot":
        return None if os.path.exists(U_BOOT_ROM) else \
            "no U-Boot for QEMU (u-boot-qemu is not installed)"
    return "unknown tool %s" % tool


def boot(entry):
    """Makes the entry's run and returns its Outcome."""
    if entry.prepare:
        entry.prepare()
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
            for _ in range(2 if entry.busy_host else 0)]
    beside = Beside(entry.name) if entry.beside else None
    if beside:
        beside.start()
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
            run_dir=run_dir, image=entry.image)
    finally:
        for p in busy:
            p.kill()
            p.wait()
        if beside:
            beside.stop()
    return Outcome(entry.name, rc, run_dir, results,
                   (beside.boots(), beside.share()) if beside else None)


def walk(lane, outcomes):
    """Each entry in order: its run, then its checks, each guarded, so
    that one that raises fails by name and the rest still run. A line
    "time" says what each entry took, where the suite's time goes, and
    its margin: its slowest boot against that boot's limit."""
    only = os.environ.get("BOOT_ONLY")
    for entry in lane:
        # BOOT_ONLY=name,name: a developer's subset; never set under CI.
        if only and entry.name not in only.split(","):
            continue
        started = time.monotonic()
        boots = lane_boots.entry = EntryBoots()
        checks_before = getattr(check.here, "counted", 0)
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
        lane_boots.entry = None
        row = EntryRow(entry.name, time.monotonic() - started,
                       boots.timed, boots.untimed, boots.firmware,
                       getattr(check.here, "counted", 0) - checks_before)
        entry_rows.append(row)
        print(row.time_line())
        sys.stdout.flush()


class EntryRow:
    """What one entry took: its wall time, its boots (each timed one's
    seconds and limit, and those no runner timed), the firmware's share
    of its QEMU boots, and the checks it fed."""

    def __init__(self, name, seconds, timed, untimed, firmware, checks):
        self.name, self.seconds, self.timed = name, seconds, timed
        self.untimed, self.firmware, self.checks = untimed, firmware, checks

    def boots(self):
        return len(self.timed) + self.untimed

    def slowest(self):
        """(seconds, limit) of the boot closest to its limit, or None."""
        if not self.timed:
            return None
        return max(self.timed, key=lambda t: t[0] / t[1])

    def time_line(self):
        """The entry's `time` line: what it took, how many boots, and
        its slowest boot against that boot's limit. A limit of at least
        twice a boot's usual time leaves a margin of 50% or less."""
        if not self.slowest():
            return "time  %s: %.0f s, %d boot(s), none timed" % (
                self.name, self.seconds, self.boots())
        took, limit = self.slowest()
        return ("time  %s: %.0f s, %d boot(s); the slowest %d s of its %d s "
                "limit (%.0f%%)" % (self.name, self.seconds, self.boots(),
                                    took, limit, 100.0 * took / limit))

    def table_line(self):
        """Its row of docs/testing.md's table."""
        slowest = self.slowest()
        firmware = ("%.1f s" % (sum(self.firmware) / len(self.firmware))
                    if self.firmware else "-")
        return "| %s | %.0f | %d | %s | %s | %d |" % (
            self.name, self.seconds, self.boots(),
            "%d of %d s" % slowest if slowest else "-", firmware,
            self.checks)


TABLE_HEAD = ("| entry | seconds | boots | slowest boot of its limit "
              "| firmware, mean a boot | checks fed |\n"
              "|---|---|---|---|---|---|")


def timing_table(rows):
    """docs/testing.md's table: an entry a row, in the order they ran."""
    return "\n".join([TABLE_HEAD] + [r.table_line() for r in rows])


def closest_to_limits(count=5):
    """The suite's last lines on time: the entries whose slowest boot
    came closest to its limit, which a loaded host would kill first."""
    timed = [(r.slowest()[0] / r.slowest()[1], r) for r in entry_rows
             if r.slowest()]
    print("time  closest to their limits (a boot's time over its limit; "
          "at most 50%% leaves it twice its time): %d entries timed"
          % len(timed))
    for margin, r in sorted(timed, key=lambda t: -t[0])[:count]:
        print("time    %s: %d s of %d s (%.0f%%)" % (
            r.name, r.slowest()[0], r.slowest()[1], 100.0 * margin))
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
# A run under -icount that hands over once: only boot 1, the one that
# measures, counts instructions; phase C's boot runs plain TCG, ~15 s
# sooner (docs/testing.md "The firmware's start"). image/run.sh fails a
# run that measures again on a later boot, whose figures would be noise.
MEASURED_ONCE = {"ICOUNT_BOOTS": "1"}


def matrix_cells(section):
    """The matrix's cells by (sender, target), each a dict under its
    columns' names."""
    m = section.get("matrix", {})
    cols = m.get("columns", [])
    return {(c[0], c[1]): dict(zip(cols, c)) for c in m.get("cells", [])}
