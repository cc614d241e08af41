"""The icount reference: the full matrix under -icount shift=0, its
checks, and the pair of runs whose figures must agree exactly, with
each other and with tests/boot/reference/."""

import json
import os

import varstore
from figures import differences, figures
from harness import (PASSES, REFERENCE, ROOT, SAMPLES, WARMUP, check,
                     expected_config, experiment, load_results, statuses)
from row_checks import (check_gate, check_i386, check_mitigations,
                        check_primitives, check_schemes, check_self_ipis,
                        check_variants, qemu_has_tcg_x2apic, seed_rows_off)
from source_checks import (check_figure_relations, check_gap_method,
                           check_sources)
from store import check_store_agrees


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
    off = {s: seed_rows_off(doc, s) for s in sorted(seeds)}
    check("%s: every seed row's this_machine is the figure of the row it "
          "names (a primitive's block median, a round-trip median, an "
          "entry median over its baseline), null exactly where that row "
          "did not run ok" % name, not any(off.values()), str(off)[:600])
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
    # The full matrix in one handoff sized to the store, compressed
    # (docs/uefi-variables.md "The handoff's size"): one boot measures,
    # one writes, as `make run` does; its last records are the handoff's.
    parts = doc["handoff"]["parts"]
    handed = [h for boot in range(1, parts + 1)
              for h in statuses(run_dir, boot, "handed-over")]
    check("%s: the run went on after the exceptions and handed the full "
          "matrix over in one part, two boots, every record used" % name,
          parts == 1 and len(handed) == 1
          and not os.path.exists(os.path.join(run_dir, "boot3.log"))
          and all(h["run"] == "1" and h["runs"] == "1"
                  and int(h["bytes"]) > 0 for h in handed)
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
    # The reference must be this build's (the next check), and two runs
    # of one build agree exactly: no HPET tick of leeway across builds.
    diff = differences(reference, figures(docs[0]))
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
          "of this build's run at the reference's path length",
          path.get("state") == "compared"
          and path.get("reference_build") == docs[0].get("build")
          and path.get("compared") == len(ok) and path.get("equal") == len(ok)
          and path.get("differences") == [],
          "%d ok rows: %s" % (len(ok), str(path)[:400]))


def icount_checks(o):
    o.icount_doc = check_icount_run(o.name, o.rc, o.run_dir, o.results)
