#!/usr/bin/env bash
# `make dist-check`: installs the .deb the way a user does, in a clean Debian 12 root with no Swift in it, and
# uses it there: `pushcheck run` on a copy of Suites/, `pushcheck serve` against curl, man, bash/zsh/fish
# completions. The root is made by mmdebstrap (variant minbase: Essential + Priority:required + apt, about what
# the debian:12 container image holds) from the same Debian mirror the host's apt uses; its tarball is cached in
# CACHE_DIR for a week. Exits non-zero, saying why, when no root can be made.
# Usage: dist-check.sh PUSHCHECK.deb CACHE_DIR
set -euo pipefail
deb=$(realpath "$1") cache=$2
cd "$(dirname "$0")/../.."
started=$(date +%s)
fail() { echo "dist-check: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (chroot, mount); run as root or with sudo"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing (make dist-deps installs it)"

# The root's apt sources: the host's Debian 12 entries (deb822 .sources or one-line .list files), else
# mmdebstrap's default (deb.debian.org with bookworm-updates and bookworm-security). The host's
# Check-Valid-Until/Check-Date settings go along: a frozen snapshot mirror needs them inside too.
mirrors=()
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$file" ] && grep -Eq '^[^#]*bookworm' "$file" && grep -Eq '^[^#]*debian' "$file" && mirrors+=("$file")
done
aptopts=()
for option in Acquire::Check-Valid-Until Acquire::Check-Date; do
  value=$(apt-config dump "$option" | sed -n "s/^$option \"\(.*\)\";$/\1/p")
  [ -n "$value" ] && aptopts+=("--aptopt=$option \"$value\"")
done
key=$( { echo minbase; for m in "${mirrors[@]}"; do cat "$m"; done; printf '%s\n' "${aptopts[@]}"; } | sha256sum | cut -c1-12)
mkdir -p "$cache"
tarball="$cache/bookworm-minbase-$key.tar"
bootstrap="cached ($(basename "$tarball"))"
if [ ! -s "$tarball" ] || [ -n "$(find "$tarball" -mtime +7)" ]; then
  echo "dist-check: making a clean Debian 12 root with mmdebstrap (mirrors: ${mirrors[*]:-mmdebstrap default})"
  t0=$(date +%s)
  rm -f "$cache"/bookworm-minbase-*.tar
  if ! mmdebstrap --quiet --mode=root --variant=minbase --format=tar "${aptopts[@]}" bookworm "$tarball.tmp" \
      "${mirrors[@]}" >"$cache/mmdebstrap.log" 2>&1; then
    tail -n 20 "$cache/mmdebstrap.log" >&2
    rm -f "$tarball.tmp"
    fail "mmdebstrap could not make a Debian 12 root (log above, full log in $cache/mmdebstrap.log)"
  fi
  mv "$tarball.tmp" "$tarball"
  bootstrap="made in $(($(date +%s) - t0)) s ($(du -h "$tarball" | cut -f1))"
fi

work=$(mktemp -d /tmp/pushcheck-dist-check.XXXXXX)
root=$work/root
cleanup() {
  for m in "$root/dev/pts" "$root/dev" "$root/proc"; do mountpoint -q "$m" && umount -l "$m"; done
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # through the EXIT trap: no mount is left behind
mkdir "$root"
tar -C "$root" -xf "$tarball"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"  # apt's terminal log
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
install -m 0644 "$deb" "$root/tmp/"
mkdir -p "$root/root/project"
cp -r Suites "$root/root/project/Suites"
rm -rf "$root/root/project/Suites/__snapshots__/"*.new 2>/dev/null || true

# Everything below runs inside the root, with a clean environment: no /opt/swift there, nothing on PATH but
# the root's own directories.
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
  DEBIAN_FRONTEND=noninteractive DEB="/tmp/$(basename "$deb")" /bin/bash -euo pipefail -c "$(cat Tests/dist/in-root.sh)"
echo "dist-check: passed in $(($(date +%s) - started)) s (Debian 12 root $bootstrap)"
