"""The variable store scenarios: stores of other sizes and layouts, full or
unreadable, a kill in the middle of a deletion, faults and errors of the
runtime services, records nobody can delete, foreign variables and
corrupt records."""

import json
import os
import re
import shutil
import subprocess

import varstore
from harness import (BUILD, HERE, ROOT, STICK_REFERENCE, TPM_OFF, check,
                     load_results, result_folders, run, serial, statuses)
from row_checks import check_run_whole


OVMF_2M = {"OVMF_CODE": "/usr/share/OVMF/OVMF_CODE.fd",
           "OVMF_VARS": "/usr/share/OVMF/OVMF_VARS.fd", "TPM": "off"}
# Runs on one store: three take every path, a fresh store, one whose
# end other software's deleted variables filled (phase A makes the
# firmware reclaim) and one after the reclaim, on an end irqlab's own
# deleted records fill again; ten, a soak of that last state, are
# make test-long's (docs/testing.md).
STORE_CYCLES = 3
STORE_SOAK_CYCLES = 10
# The smallest matrix, one row, for the runs about the store: phase A
# makes room for the largest blob a handoff may carry (efi/handoff.c
# handoff_make_room: HANDOFF_MAX_BLOB, or the blind path's budget), not
# for the rows planned, so what these runs check, its reading of the
# store, its reclaim and the handoff's room, is the same for one row as
# for a full matrix, at a fraction of the boot.
STORE_MATRIX = ("schemes = direct\nsources = int\nvariants = none\n"
                "apic_modes = xapic\n")


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


def store_cycles(tiny, cycles=STORE_CYCLES):
    """`cycles` runs on one 2 MB store, as a machine keeps its own: each run is
    kept, or refused in phase A with its reason, never lost in phase B.
    Before the second, other software's deleted variables leave the store's
    end too small, so phase A must make the firmware reclaim."""
    store = os.path.join(BUILD, "store-2m", "vars.fd")
    subprocess.run(["rm", "-rf", os.path.dirname(store)], check=True)
    fill = "%s --fill 24000 deleted" % os.path.join(HERE, "varstore.py")
    outcomes, disagreed = [], []
    for n in range(1, cycles + 1):
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
          "front, none lost" % cycles,
          all(o in ("kept", "refused") for o in outcomes)
          and outcomes.count("kept") >= cycles - 1, str(outcomes))
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
            config=tiny + STORE_MATRIX + "simulate = store-unreadable\n")
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
    check("kill-mid-deletion: the next boot recognises the records left "
          "as a run already on the ESP, deletes them, and measures",
          rc2 == 0 and left > 0
          and log.count("belongs to a run already on the ESP") == left
          and "%d such record(s) deleted" % left in log
          and "no complete run" not in log
          and not any(f.endswith("-discarded") for f in folders)
          and len(folders) == 2
          and varstore.irqlab_records(keep["VARS_FILE"]) == [],
          "rc %d, %d records left, folders %s, log %s"
          % (rc2, left, folders, log[:1500]))


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


# What the firmware would say, made up: SetVariable out of the services
# offered after ExitBootServices (simulate = setvariable-not-offered).
NO_SETVARIABLE = "simulate = setvariable-not-offered\n"
# Every scheme and source with their histograms, under plain TCG: in
# UEFI variables more than one handoff holds, so a run in parts; on COM1
# one blob.
SERIAL_MATRIX = "variants = none\nhistograms = 1\nhandoff = serial\n"


def irqlab_writes(store):
    """What of irqlab's the store holds, live or deleted: every variable
    under its GUID (records, the marker, phase A's probes) and BootNext.
    EDK2's store is a log, so a write deleted since is still there."""
    with open(store, "rb") as f:
        image = f.read()
    return ["%s%s" % (v.name, "" if v.live else " (deleted)")
            for v in varstore.variables(image)
            if v.guid == varstore.IRQLAB_GUID or (
                v.guid == varstore.GLOBAL_GUID and v.name == "BootNext")]


def blob_lines(log):
    """The hex between the last blob lines phase B printed, or None."""
    m = re.findall(r"irqlab-results-blob-begin\n([0-9a-f\n]*)"
                   r"irqlab-results-blob-end", log)
    return m[-1].replace("\n", "") if m else None


def serial_handoff(tiny):
    """Firmware that offers no SetVariable after ExitBootServices, as its
    EFI_RT_PROPERTIES_TABLE would say (simulate = setvariable-not-offered).
    By default phase A refuses before measuring, saying why and naming
    handoff = serial. With handoff = serial the run measures in one boot,
    prints its whole blob on COM1, shows the headline and powers off;
    irqlab-rescue --blob writes the files from the captured serial log,
    and the store holds nothing of irqlab's (docs/run.md "Firmware that
    cannot keep results")."""
    rc1, refused, _ = run("serial-handoff/refused", "", extra_env=TPM_OFF,
                          config=tiny + STORE_MATRIX + NO_SETVARIABLE)
    log = serial(refused, 1)
    said = statuses(refused, 1, "runtime")
    left = irqlab_writes(os.path.join(refused, "vars.fd"))
    check("serial-handoff: by default, with SetVariable not offered, phase A "
          "refuses before measuring, saying so and naming handoff = serial, "
          "and writes nothing to the store",
          rc1 != 0 and said and said[-1].get("simulated") == "1"
          and not int(said[-1].get("supported", "0"), 16) & 0x40
          and "irqlab will not measure: the firmware's "
          "EFI_RT_PROPERTIES_TABLE says SetVariable is not offered" in log
          and "(handoff = serial in irqlab.cfg measures anyway" in log
          and "exiting boot services" not in log
          and not statuses(refused, 1, "store") and not left,
          "rc %d, runtime %s, left %s, log %s" % (rc1, said, left, log[-700:]))

    rc2, sent, results = run("serial-handoff/serial", "", extra_env=TPM_OFF,
                             config=tiny + NO_SETVARIABLE + SERIAL_MATRIX)
    log = serial(sent, 1)
    handed = statuses(sent, 1, "serial-handoff")
    hex_text = blob_lines(log)
    check("serial-handoff: with handoff = serial the run measures in one "
          "boot and prints its whole blob on COM1 between the blob lines, "
          "every histogram in it; nothing is handed over in variables",
          rc2 == 0 and len(handed) == 1 and handed[0]["dropped"] == "0"
          and hex_text is not None
          and len(hex_text) == 2 * int(handed[0]["bytes"]) > 0
          and "exiting boot services" in log
          and not statuses(sent, 1, "handed-over")
          and not os.path.exists(os.path.join(sent, "boot2.log")),
          "rc %d, %s, %s hex digits" % (
              rc2, handed, hex_text and len(hex_text)))
    left = irqlab_writes(os.path.join(sent, "vars.fd"))
    check("serial-handoff: the store holds nothing of irqlab's after the run, "
          "live or deleted: no record, no marker, no probe, no BootNext",
          rc2 == 0 and not left and not statuses(sent, 1, "store")
          and not statuses(sent, 1, "marker"), "left %s" % left)

    tool = os.path.join(ROOT, "build", "irqlab-rescue")
    out = os.path.join(sent, "rescued")
    subprocess.run(["rm", "-rf", out], check=True)
    rescued = subprocess.run([tool, "--reference", STICK_REFERENCE, "--blob",
                              os.path.join(sent, "boot1.log"), out],
                             capture_output=True, text=True)
    folders = result_folders(results)
    doc = load_results(results)[0] if len(folders) == 1 else None
    files = ("results.json", "summary.txt", "headline.txt", "run-1.bin")
    same = [f for f in files if folders
            and os.path.exists(os.path.join(out, folders[0], f))
            and open(os.path.join(out, folders[0], f), "rb").read()
            == open(os.path.join(results, folders[0], f), "rb").read()]
    check("serial-handoff: irqlab-rescue --blob on the captured serial log "
          "writes results.json, and the runner's folder is the same files",
          rescued.returncode == 0 and doc is not None
          and list(same) == list(files), "%s; same %s\n%s%s" % (
              folders, same, rescued.stdout[-600:], rescued.stderr[-600:]))
    summary = ""
    if folders:
        with open(os.path.join(results, folders[0], "summary.txt")) as f:
            summary = f.read()
    check("serial-handoff: results.json and summary.txt say the results came "
          "over serial, in one part with the rows' histograms, and that "
          "BootNext was not asked for",
          doc is not None and doc["handoff"]["route"] == "serial"
          and doc["config"]["handoff"] == "serial"
          and doc["handoff"]["parts"] == 1
          and doc["handoff"]["records_used"] == 0
          and doc["handoff"]["unmeasured_from_row"] is None
          and doc["boot_return"]["how"] == "not-asked"
          and doc["row_counts"]["experiments"]["ok"] > 0
          and doc["handoff"]["row_histograms"] > 0
          and "Handed over on serial (handoff = serial)" in summary,
          "%s %s %s" % (doc and doc["handoff"], doc and doc["boot_return"],
                        summary[:400]))
    shown = statuses(sent, 1, "results-shown")
    headline = ""
    if folders:
        with open(os.path.join(results, folders[0], "headline.txt")) as f:
            headline = f.read()
    resets = [r.get("method") for r in statuses(sent, 1, "reset")]
    check("serial-handoff: the end screen shows the headline: its page drawn "
          "on the framebuffer and sent to COM1, the same page as "
          "headline.txt, saying it was handed over on serial; then the "
          "firmware powers off",
          shown and int(shown[0]["lines"]) >= 10
          and headline and headline in log
          and "handed over on serial (handoff = serial)" in headline
          and "round trip, median" in headline
          and "irqlab-rescue --blob" in headline
          and resets == ["firmware"]
          and "QEMU exit 0" in open(os.path.join(sent, "run.log")).read(),
          "shown %s, resets %s, headline %s" % (shown, resets, headline))
    serial_elsewhere(tiny)


def serial_elsewhere(tiny):
    """handoff = serial where COM1 is not there (docs/run.md "A serial
    port that exists"). With the only UART a PCI 16550 that OVMF takes as
    its console and nothing describes (no SPCR, no legacy port), phase A
    refuses before measuring and says what it tried; with the only UART
    at COM2 (2F8H), phase B's log and the blob go there, and the run is
    whole."""
    config = tiny + STORE_MATRIX + "handoff = serial\n"
    rc, refused, _ = run("serial-handoff/no-uart", "", config=config,
                         extra_env=dict(TPM_OFF, SERIAL="pci"))
    log = serial(refused, 1)
    check("serial-handoff: with no UART irqlab can reach (a PCI 16550 "
          "alone, OVMF's console), phase A says it found none at COM1-COM4 "
          "and no SPCR, that the firmware drives one it does not locate, "
          "and refuses handoff = serial before measuring; nothing written "
          "to the store",
          rc != 0 and "phase A: serial: no serial port answers: no SPCR, "
          "and none at COM1-COM4 (I/O ports 3F8H, 2F8H, 3E8H, 2E8H); the "
          "firmware drives 1 serial port(s) (EFI_SERIAL_IO_PROTOCOL) but "
          "does not say where" in log
          and "irqlab will not measure: handoff = serial, but no serial "
          "port answers" in log and "exiting boot services" not in log
          and not irqlab_writes(os.path.join(refused, "vars.fd")),
          "rc %d, %s" % (rc, log[-700:]))
    rc, sent, results = run("serial-handoff/com2", "", config=config,
                            extra_env=dict(TPM_OFF, SERIAL="com2"))
    log = serial(sent, 1)
    doc = load_results(results)[0] if rc == 0 else None
    rows = doc["experiments"] if doc else []
    check("serial-handoff: with the only UART at COM2, phase B's log goes "
          "there, saying where and how it was found (no SPCR, the legacy "
          "ports probed), with the blob, from which the runner's "
          "irqlab-rescue writes every row, each ok",
          rc == 0 and "phase B: boot services exited, interrupts off; the "
          "log on COM2 (I/O port 2f8; no SPCR)" in log
          and blob_lines(log) is not None
          and rows and all(e["status"] == "ok" for e in rows),
          "rc %d, %d rows, %s" % (rc, len(rows), log[:400]))


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
    config = tiny + STORE_MATRIX
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


def store_nearly_full(o):
    """A store other software's live variables left with 30,000 bytes at
    its end (about 18,500 once OVMF's own boot-time writes took theirs):
    what is free beyond the reserve and the 4 MB store's largest
    variable (0x8400 bytes) holds fewer than 8 records, so the handoff
    takes its least, 8, whose room the store has: the run is kept, in
    smaller parts, never refused (docs/uefi-variables.md "The handoff's
    size"). Each later part's phase A finds the last part's deleted
    records at the store's end and makes the firmware reclaim them,
    with probes that leave only about a KiB behind ("Making room")."""
    boots = sorted(int(m.group(1)) for m in
                   (re.match(r"boot(\d+)\.log$", f)
                    for f in os.listdir(o.run_dir)) if m)
    rooms = [r for b in boots for r in statuses(o.run_dir, b, "store")]
    check("store-nearly-full: with 30000 bytes left at the store's end "
          "the handoff shrinks to its least, 8 records, and the run is "
          "kept",
          o.rc == 0 and o.doc is not None and rooms
          and rooms[0]["ok"] == "1" and int(rooms[0]["budget"]) == 8 * 988
          and o.doc["handoff"]["unmeasured_from_row"] is None,
          "rc %d %s" % (o.rc, rooms))
    check_run_whole("store-nearly-full", o.doc,
                    "".join(serial(o.run_dir, b) for b in boots))
    reclaims = [r for r in rooms[1:] if r.get("reclaimed") == "1"]
    check("store-nearly-full: each later part's phase A made the firmware "
          "reclaim the last part's deleted records and kept 8 records' "
          "room, the probes leaving under 2 KiB of the store behind",
          o.doc is not None and o.doc["handoff"]["parts"] >= 2
          and len(rooms) == o.doc["handoff"]["parts"] and reclaims
          and all(r["ok"] == "1" and int(r["budget"]) == 8 * 988
                  and int(r["end_free_after"]) >= int(r["needed"])
                  for r in rooms)
          and all(int(rooms[0]["end_free"]) - int(r["end_free_after"])
                  < 2048 for r in reclaims),
          str(rooms))


def store_full_refused(o):
    log = serial(o.run_dir, 1)
    room = statuses(o.run_dir, 1, "store")
    check("store-full: a store too full for the results is refused in phase "
          "A, on screen, before anything is measured",
          o.rc != 0 and room and room[-1]["ok"] == "0"
          and "irqlab will not measure: the variable store has" in log
          and "powering off in" in log
          and "exiting boot services" not in log, log[-600:])


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
    check("corrupt: the summary names each of the records, each with its "
          "CRC failure",
          corrupted and named == corrupted, "%s of %s\n%s"
          % (named, corrupted, summary))
    check("corrupt: corrupt records cleaned up",
          varstore.irqlab_records(os.path.join(o.run_dir, "vars.fd")) == [])
