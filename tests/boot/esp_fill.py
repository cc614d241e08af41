#!/usr/bin/env python3
"""esp_fill.py VARS: fills the ESP of the run whose variable store is VARS
(its disk.img beside it) until only LEAVE bytes stay free, as a stick
full of other files would be. Used between the boots, so phase C finds
no room for the result files."""

import os
import re
import subprocess
import sys
import tempfile

LEAVE = 100 * 1024


def free_bytes(disk):
    out = subprocess.run(["mdir", "-i", disk + "@@1M", "::/"], check=True,
                         capture_output=True, text=True,
                         env=dict(os.environ, MTOOLS_SKIP_CHECK="1")).stdout
    m = re.search(r"([\d ]+) bytes free", out)
    return int(m.group(1).replace(" ", ""))


def main():
    disk = os.path.join(os.path.dirname(sys.argv[1]), "disk.img")
    with tempfile.NamedTemporaryFile() as filler:
        filler.truncate(free_bytes(disk) - LEAVE)
        subprocess.run(["mcopy", "-o", "-i", disk + "@@1M", filler.name,
                        "::/filler.bin"], check=True,
                       env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    print("esp_fill: %d bytes left free on %s" % (free_bytes(disk), disk))


if __name__ == "__main__":
    main()
