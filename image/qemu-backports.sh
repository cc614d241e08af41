#!/usr/bin/env bash
# qemu-backports.sh: x2APIC under TCG needs QEMU >= 8.1. Debian 12 ships
# 7.2; its backports suite has a newer one, and virt-fw-vars (python3-
# virt-firmware), which the boot tests use to plant variables in an OVMF
# store. As root on Debian 12, adds the backports suite -- from the same
# mirror and keyring this machine's apt already uses -- and installs both
# from it. Elsewhere it only reports.
set -euo pipefail

version=$(qemu-system-x86_64 --version 2>/dev/null |
	sed -n 's/^QEMU emulator version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
read -r major minor <<<"${version:-0 0}"
if { [ "$major" -gt 8 ] || { [ "$major" -eq 8 ] && [ "$minor" -ge 1 ]; }; } &&
   command -v virt-fw-vars >/dev/null; then
	exit 0
fi
. /etc/os-release
if [ "${VERSION_CODENAME:-}" != bookworm ]; then
	echo "irqlab: QEMU $major.$minor has no x2APIC under TCG; x2APIC rows will be skipped" >&2
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "irqlab: QEMU $major.$minor has no x2APIC under TCG; as root, image/qemu-backports.sh installs a newer one" >&2
	exit 0
fi

list=/etc/apt/sources.list.d/irqlab-bookworm-backports.sources
if [ ! -e "$list" ]; then
	# The mirror and keyring of the suite apt already uses for bookworm.
	stanza=$(awk -v RS= '/Suites:[^\n]*bookworm([ \n]|$)/ && /Types: deb([ \n]|$)/ { print; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	uri=$(printf '%s\n' "$stanza" | sed -n 's/^URIs: *\([^ ]*\).*/\1/p' | head -n 1)
	keyring=$(printf '%s\n' "$stanza" | sed -n 's/^Signed-By: *//p' | head -n 1)
	if [ -z "$uri" ]; then
		uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm main.*/\2/p' \
			/etc/apt/sources.list 2>/dev/null | head -n 1)
	fi
	if [ -z "$uri" ]; then
		echo "irqlab: no bookworm mirror found in the apt configuration; x2APIC rows will be skipped" >&2
		exit 0
	fi
	{
		echo "Types: deb"
		echo "URIs: $uri"
		echo "Suites: bookworm-backports"
		echo "Components: main"
		[ -n "$keyring" ] && echo "Signed-By: $keyring"
	} >"$list"
fi
export DEBIAN_FRONTEND=noninteractive
# Not fatal: without it the x2APIC rows are skipped, with their reason.
if ! { apt-get update -qq &&
       apt-get install -y -qq -t bookworm-backports qemu-system-x86 \
		python3-virt-firmware >/dev/null; }; then
	echo "irqlab: could not install QEMU and virt-fw-vars from bookworm-backports; x2APIC rows and the foreign-variable test will be skipped" >&2
	exit 0
fi
qemu-system-x86_64 --version | head -n 1
