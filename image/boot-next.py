#!/usr/bin/env python3
"""boot-next.py VARS SERIAL: sets BootNext in the OVMF variable store VARS
to the boot option of the disk whose serial number is SERIAL, as picking
that disk once in the firmware's boot menu does. BootOrder is left as it
is. Uses virt-fw-vars (python3-virt-firmware) to read and write the store.
"""

import json
import subprocess
import sys
import tempfile

GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"


def options(store):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(["virt-fw-vars", "-i", store, "--output-json",
                        out.name], check=True, capture_output=True)
        doc = json.load(open(out.name))
    for v in doc["variables"]:
        name = v["name"]
        if (v["guid"] == GLOBAL and name.startswith("Boot") and len(name) == 8
                and name[4:].isalnum() and name != "BootNext"):
            data = bytes.fromhex(v["data"])
            # EFI_LOAD_OPTION: attributes, path length, then the
            # description in UCS-2 (UEFI spec §3.1.3)
            desc = data[6:].decode("utf-16-le", "replace").split("\0")[0]
            yield int(name[4:], 16), desc


def main():
    store, serial = sys.argv[1], sys.argv[2]
    found = [n for n, desc in options(store) if serial in desc]
    if len(found) != 1:
        sys.exit("boot-next: no single boot option names %s: %s" %
                 (serial, list(options(store))))
    with tempfile.NamedTemporaryFile("w", suffix=".json") as plant:
        json.dump({"version": 2, "variables": [{
            "name": "BootNext", "guid": GLOBAL, "attr": 7,
            "data": found[0].to_bytes(2, "little").hex()}]}, plant)
        plant.flush()
        subprocess.run(["virt-fw-vars", "--inplace", store, "--set-json",
                        plant.name], check=True, capture_output=True)
    print("boot-next: BootNext = Boot%04X (%s)" % (found[0], serial))


if __name__ == "__main__":
    main()
