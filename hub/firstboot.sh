#!/bin/sh
# A card's first boot (Raspberry Pi OS Trixie, cloud-init): sets this Pi up as a table unit
# or as the hub from what `rummikub hall cards` put on the card's boot partition, and the
# kit from the hub's package index. cloud-init installs this file and the
# rummikub-firstboot service, which runs it until it succeeds (every 30 s while the hub
# cannot be reached) and never again after.
#
#   rummikub-firstboot unit|hub BASE [BOOT]
#
# BASE is the hub's package index (http://hub.local:8081 for a table; on the hub itself,
# file:///var/lib/rummikub-wheelhouse after the card's wheelhouse is moved there);
# BOOT the boot partition (/boot/firmware). RUMMIKUB_FIRSTBOOT_ROOT=DIR runs it into DIR,
# with the provisioning scripts' --root (the tests).
#
# The secrets on the card (the broker's secret of a table, the hub's whole bundle) and the
# Wi-Fi password in network-config are moved off the FAT partition first: into a folder
# only root reads, then into place with their modes by the provisioning script, and the
# card's copies are overwritten with zeros and deleted.
set -eu
ROLE=${1:?unit or hub}
BASE=${2:?the hub package index}
BOOT=${3:-/boot/firmware}
ROOT=${RUMMIKUB_FIRSTBOOT_ROOT:-}
CARD=$BOOT/rummikub
STATE=$ROOT/var/lib/rummikub-firstboot
SECRETS=$STATE/secrets
KIT=$ROOT/opt/tablekit
WHEELHOUSE=$ROOT/var/lib/rummikub-wheelhouse
umask 077

say() { printf 'rummikub-firstboot: %s\n' "$*"; }

scrub() {
    # scrub FILE: overwrite it with zeros where it lies, then delete it.
    [ -f "$1" ] || return 0
    size=$(wc -c <"$1")
    if [ "$size" -gt 0 ]; then
        dd if=/dev/zero of="$1" bs="$size" count=1 conv=notrunc,fsync 2>/dev/null
    fi
    rm -f "$1"
}

take() {
    # take FILE NAME: a secret from the card into $SECRETS (root only), the card's copy scrubbed.
    [ -f "$1" ] || return 0
    mkdir -p "$(dirname "$SECRETS/$2")"
    cp "$1" "$SECRETS/$2.tmp"
    mv "$SECRETS/$2.tmp" "$SECRETS/$2"
    scrub "$1"
    say "moved $1 off the card"
}

mkdir -p "$SECRETS"
chmod 0700 "$STATE" "$SECRETS"

# 1. The secrets off the card, before anything that may fail.
case "$ROLE" in
    unit)
        take "$CARD/mqtt-password" mqtt-password
        take "$CARD/unit.toml" unit.toml
        ;;
    hub)
        if [ -d "$CARD/bundle" ]; then
            (cd "$CARD/bundle" && find . -type f) | while read -r rel; do
                take "$CARD/bundle/$rel" "bundle/$rel"
            done
            rm -rf "$CARD/bundle"
        fi
        if [ -d "$CARD/wheelhouse" ]; then
            # The kit for the whole hall, served by this Pi from now on.
            mkdir -p "$WHEELHOUSE.new"
            cp -R "$CARD/wheelhouse/." "$WHEELHOUSE.new/"
            rm -rf "$WHEELHOUSE"
            mv "$WHEELHOUSE.new" "$WHEELHOUSE"
            chmod -R a+rX "$WHEELHOUSE"
            rm -rf "$CARD/wheelhouse"
            say "moved the wheelhouse off the card into $WHEELHOUSE"
        fi
        ;;
    *) say "no role $ROLE (unit or hub)"; exit 2 ;;
esac
if [ -f "$BOOT/network-config" ] && grep -q '^[[:space:]]*password:' "$BOOT/network-config"; then
    # cloud-init has written the Wi-Fi settings to the system (root only) by now.
    grep -v '^[[:space:]]*password:' "$BOOT/network-config" >"$STATE/network-config"
    cat "$STATE/network-config" >"$BOOT/network-config"
    rm -f "$STATE/network-config"
    sync
    say "removed the Wi-Fi password from $BOOT/network-config"
fi

# 2. The provisioning scripts from the hub (they come with the kit it serves).
say "fetching $BASE/deploy.tar.gz"
if ! python3 - "$BASE/deploy.tar.gz" "$STATE/deploy.tar.gz" <<'EOF'
import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=30) as answer, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(answer, f)
EOF
then
    say "the hub's package index $BASE cannot be reached yet; trying again in 30 s"
    exit 1
fi
mkdir -p "$KIT"
rm -rf "$KIT/deploy"
tar -C "$KIT" -xzf "$STATE/deploy.tar.gz"
rm -f "$STATE/deploy.tar.gz"

# 3. The role, from the hub's index, its service enabled and started.
set -- --index "$BASE/simple/"
[ -z "$ROOT" ] || set -- "$@" --root "$ROOT"
case "$ROLE" in
    unit)
        "$KIT/deploy/provision-unit.sh" "$@" --replace-config \
            --config "$SECRETS/unit.toml" --password-file "$SECRETS/mqtt-password"
        ;;
    hub)
        "$KIT/deploy/provision-hub.sh" "$@" --bundle "$SECRETS/bundle" --wheelhouse "$WHEELHOUSE"
        ;;
esac

# 4. Done: the secrets are in place with their modes; nothing of them is left here.
find "$SECRETS" -type f | while read -r f; do scrub "$f"; done
rm -rf "$SECRETS"
touch "$STATE/done"
say "this Pi is set up as the $ROLE"
