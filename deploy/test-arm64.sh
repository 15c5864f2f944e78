#!/usr/bin/env bash
# The release check for "runs on Raspberry Pi OS": the whole test suite in a minimal Debian
# arm64 root under qemu user emulation, bookworm (Raspberry Pi OS Bookworm's Python 3.11)
# or trixie (today's Raspberry Pi OS, Python 3.13). Optional and slow (about 40 minutes
# each); not part of CI.
#
#   ./kit test-arm64 [--release trixie] [--fresh] [--mirror URL] [-- PYTEST ARGS...]  (as root)
#
# The root is debootstrap's minbase with only the Debian packages the provisioning scripts
# install (deploy/lib.sh: UNIT_APT and HUB_APT; less python3-lgpio, which is in Raspberry
# Pi's archive, not Debian's: the tests use gpiozero's MockFactory). No font package: the
# screens' fonts ship in the kit. It comes from the Debian mirror this machine's apt uses
# and is kept in .arm64/ (gitignored), so a rerun skips debootstrap (≈4 min). A copy of
# this checkout in it runs `./kit test` (ruff, mypy, pytest), which installs what the suite
# needs there (xvfb, x11-apps) and the kit's venv from PyPI, like on a Pi.
#
# Options:
#   --release R   bookworm (default) or trixie: each its own root in .arm64/R
#   --fresh       build the root anew
#   --mirror URL  the Debian mirror (default: the bookworm one in /etc/apt/sources*,
#                 which serves trixie too)
#   -h, --help
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

FRESH=0 MIRROR="" PYTEST=() RELEASE=bookworm
while [ $# -gt 0 ]; do
    case "$1" in
        --release)
            [ $# -ge 2 ] || die "--release needs bookworm or trixie"
            case "$2" in bookworm|trixie) RELEASE=$2 ;; *) die "--release $2: bookworm or trixie" ;; esac
            shift 2
            ;;
        --fresh) FRESH=1; shift ;;
        --mirror) [ $# -ge 2 ] || die "--mirror needs a URL"; MIRROR=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; PYTEST=("$@"); break ;;
        *) PYTEST=("$@"); break ;;
    esac
done
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot and mounts need it)"
for tool in debootstrap qemu-aarch64-static update-binfmts; do
    command -v "$tool" >/dev/null || die "$tool missing (apt-get install debootstrap qemu-user-static binfmt-support)"
done

default_mirror() {
    # The URI of the first apt source for bookworm itself (not -security, -updates).
    local uri=""
    if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
        uri=$(awk 'tolower($1)=="uris:" {u=$2} tolower($1)=="suites:" {
                for (i = 2; i <= NF; i++) if ($i == "bookworm") { print u; exit } }' \
            /etc/apt/sources.list.d/*.sources)
    fi
    if [ -z "$uri" ]; then
        uri=$(awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|ftp):/) {
                if ($(i+1) == "bookworm") { print $i; exit } } }' \
            /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
    fi
    printf '%s' "$uri"
}
[ -n "$MIRROR" ] || MIRROR=$(default_mirror)
[ -n "$MIRROR" ] || die "no bookworm mirror in this machine's apt sources; give --mirror URL"

CACHE="$SRC/.arm64"
ROOTFS="$CACHE/$RELEASE"
PACKAGES=()
for pkg in "${UNIT_APT[@]}" "${HUB_APT[@]}"; do
    [ "$pkg" = python3-lgpio ] && continue
    [[ " ${PACKAGES[*]} " == *" $pkg "* ]] || PACKAGES+=("$pkg")
done
WANT="$RELEASE arm64 minbase + ${PACKAGES[*]}"

MOUNTED=() BINFMT_MOUNTED=0 BINFMT_ENABLED=0
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
    local m i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        m=${MOUNTED[i]}
        umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || true
    done
    if [ "$BINFMT_ENABLED" -eq 1 ]; then update-binfmts --disable qemu-aarch64 || true; fi
    if [ "$BINFMT_MOUNTED" -eq 1 ]; then umount /proc/sys/fs/binfmt_misc || true; fi
}
trap cleanup EXIT

# arm64 binaries run through qemu: the kernel's binfmt_misc hands them to it.
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    BINFMT_MOUNTED=1
fi
if ! grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
    update-binfmts --enable qemu-aarch64
    BINFMT_ENABLED=1
fi

mount_root() {
    local fs
    for fs in proc sys dev; do
        mkdir -p "$ROOTFS/$fs"
        case "$fs" in
            proc) mount -t proc proc "$ROOTFS/proc" ;;
            sys) mount -t sysfs sysfs "$ROOTFS/sys" ;;
            dev) mount --rbind /dev "$ROOTFS/dev"; mount --make-rslave "$ROOTFS/dev" ;;
        esac
        MOUNTED+=("$ROOTFS/$fs")
    done
}

in_root() {
    # RUMMIKUB_EMULATED: the suite skips the real-browser tests, which Chromium cannot run
    # under qemu's user-mode emulation (tests/conftest.py says why).
    chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb RUMMIKUB_EMULATED=qemu-aarch64 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# Never remove a root with something still mounted in it: rm would go through into /dev.
mounted_under=$(awk -v root="$ROOTFS" 'index($2, root) == 1 { print $2 }' /proc/mounts)
[ -z "$mounted_under" ] || die "still mounted under $ROOTFS: $mounted_under (umount -R them first)"

STARTED=$(date +%s)
BUILD=0
if [ "$FRESH" -eq 1 ] || [ "$(cat "$ROOTFS/.kit-root" 2>/dev/null)" != "$WANT" ]; then
    BUILD=1
    say "test-arm64: debootstrap $RELEASE arm64 (minbase) from $MIRROR"
    rm -rf "$ROOTFS" "$ROOTFS.new"
    mkdir -p "$CACHE"
    debootstrap --arch=arm64 --foreign --variant=minbase "$RELEASE" "$ROOTFS.new" "$MIRROR"
    cp /usr/bin/qemu-aarch64-static "$ROOTFS.new/usr/bin/"
    chroot "$ROOTFS.new" /debootstrap/debootstrap --second-stage
    # As in a container: package scripts start no services here (a Mosquitto on the host's
    # port 1883, say); the tests start their own.
    printf '#!/bin/sh\nexit 101\n' > "$ROOTFS.new/usr/sbin/policy-rc.d"
    chmod 0755 "$ROOTFS.new/usr/sbin/policy-rc.d"
    mv "$ROOTFS.new" "$ROOTFS"
else
    say "test-arm64: reusing $ROOTFS (--fresh to build it anew)"
fi

cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"  # name resolution, as on the Pi's network
mount_root

if [ "$BUILD" -eq 1 ]; then
    # The provisioning scripts' packages, the way lib.sh's apt_packages installs them.
    say "test-arm64: apt-get install ${PACKAGES[*]}"
    in_root apt-get update -qq
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${PACKAGES[@]}"
    printf '%s\n' "$WANT" > "$ROOTFS/.kit-root"
    say "test-arm64: root ready in $(( $(date +%s) - STARTED )) s"
fi

# pip reaches PyPI over HTTPS through this network: the root trusts the certificate
# authorities this machine added locally, the Debian way (ca-certificates regenerates the
# bundle from them whenever it is configured).
mkdir -p "$ROOTFS/usr/local/share/ca-certificates"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
fi
if [ -x "$ROOTFS/usr/sbin/update-ca-certificates" ]; then
    in_root update-ca-certificates >/dev/null
else
    mkdir -p "$ROOTFS/etc/ssl/certs"
    cp /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
fi

# A copy of this checkout at /opt/kit; its venv (.venv) is kept between runs.
KIT="$ROOTFS/opt/kit"
mkdir -p "$KIT"
find "$KIT" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./.arm64 --exclude=./artifacts \
    --exclude=.hypothesis --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.pytest_cache \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=./build -cf - . | tar -C "$KIT" -xf -

say "test-arm64: ./kit test ${PYTEST[*]} in the arm64 root"
SUITE=$(date +%s)
status=0
in_root /bin/bash -c 'cd /opt/kit && exec ./kit test "$@"' kit-test ${PYTEST[@]+"${PYTEST[@]}"} ||
    status=$?
NOW=$(date +%s)
say "test-arm64: $([ "$status" -eq 0 ] && echo passed || echo "FAILED (exit $status)") —" \
    "suite $(( (NOW - SUITE) / 60 )) min $(( (NOW - SUITE) % 60 )) s," \
    "all $(( (NOW - STARTED) / 60 )) min $(( (NOW - STARTED) % 60 )) s"
exit "$status"
