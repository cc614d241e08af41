#!/usr/bin/env python3
"""stamp-build.py ELF [ID_FILE]: names a build by its code. Hashes the
linked binary's .text (SHA-256), writes the first 16 hex digits over
the zeros after the marker efi/build_id.c leaves in its data, and, with
ID_FILE, those digits there too (docs/timing.md "The path length,
checked")."""

import hashlib
import subprocess
import sys
import tempfile

MARKER = b"irqlab-build-id:"
DIGITS = 16


def main():
    elf = sys.argv[1]
    with tempfile.NamedTemporaryFile() as text:
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.text",
                        elf, text.name], check=True)
        digest = hashlib.sha256(open(text.name, "rb").read()).hexdigest()
    build = digest[:DIGITS].encode()
    with open(elf, "rb") as f:
        data = f.read()
    at = data.find(MARKER)
    if at < 0 or data.find(MARKER, at + 1) >= 0:
        sys.exit("stamp-build.py: %s holds the marker %s times, not once"
                 % (elf, data.count(MARKER)))
    at += len(MARKER)
    if data[at:at + DIGITS] != b"0" * DIGITS and data[at:at + DIGITS] != build:
        sys.exit("stamp-build.py: %s is stamped already, as another build"
                 % elf)
    with open(elf, "r+b") as f:
        f.seek(at)
        f.write(build)
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(build.decode() + "\n")


if __name__ == "__main__":
    main()
