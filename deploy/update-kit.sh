#!/usr/bin/env bash
# Updates the kit on a Pi from the hub's package index, never leaving it without a working
# kit: the new version goes into an environment of its own beside the running one, the
# services switch to it in one step (the venv path is a symbolic link, replaced by a
# rename), and if the new one does not come up they switch back to the old one.
#
#   sudo deploy/update-kit.sh --index http://hub.local:8081/simple/ [--extra unit] [--version V]
#
# Options:
#   --index URL     the hub's package index (docs/deployment.md, "The hub serves the kit")
#   --extra ROLE    unit (default) or hub: the kit's extra to install
#   --version V     install exactly this version (default: the newest the index has)
#   --prefix DIR    where the environments live (default /opt/tablekit: venvs/, and venv,
#                   the link the services run through)
#   --check CMD     what proves the new kit came up (default: restarting the role's
#                   services, which wait for the program's "ready"; systemd says whether)
#   -h, --help
#
# The environment before the last update is kept, for a switch back by hand
# (ln -sfn …); older ones are removed. Exit 0: updated (or already that version);
# 1: nothing changed (the install failed); 3: the new kit did not come up, back on the old.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

EXTRA=unit WANTED="" PREFIX=/opt/tablekit CHECK=""
while [ $# -gt 0 ]; do
    case "$1" in
        --index) [ $# -ge 2 ] || die "--index needs the URL of the hub's package index"; INDEX=$2; shift 2 ;;
        --extra)
            [ $# -ge 2 ] || die "--extra needs unit or hub"
            case "$2" in unit|hub) EXTRA=$2 ;; *) die "--extra $2: unit or hub" ;; esac
            shift 2
            ;;
        --version) [ $# -ge 2 ] || die "--version needs a version (0.1.0)"; WANTED=$2; shift 2 ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --check) [ $# -ge 2 ] || die "--check needs a command"; CHECK=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (--help lists them)" ;;
    esac
done
[ -n "$INDEX" ] || die "--index is needed: the hub's package index, e.g. http://hub.local:8081/simple/"
if [ -z "$CHECK" ]; then
    [ "$(id -u)" -eq 0 ] || die "run as root (sudo $0 ...)"
    if [ "$EXTRA" = unit ]; then
        CHECK="systemctl restart tablekit-unit.service"
    else
        CHECK="systemctl restart rummikub-hub.service rummikub-web.service"
    fi
fi

LINK=$PREFIX/venv
ENVS=$PREFIX/venvs
mkdir -p "$ENVS"

# -I: Python isolated from where the script was started (a checkout's *.egg-info in the
# current folder would pass for an installed kit) and from the caller's PYTHON* settings.
version_of() { "$1/bin/python" -I -c 'import importlib.metadata as m; print(m.version("rummikub-tablekit"))'; }

point_at() {
    # point_at ENV: the services' venv path now leads to ENV, in one rename.
    ln -sfn "$1" "$LINK.switch"
    mv -T "$LINK.switch" "$LINK"
}

# An install of an earlier release has a real directory there: it becomes the first
# environment, kept as it is.
if [ -d "$LINK" ] && [ ! -L "$LINK" ]; then
    say "update: $LINK becomes $ENVS/first"
    rm -rf "$ENVS/first"
    mv -T "$LINK" "$ENVS/first"
    point_at "$ENVS/first"
fi
OLD=""
[ -L "$LINK" ] && OLD=$(readlink -f "$LINK")
OLD_VERSION=""
[ -n "$OLD" ] && OLD_VERSION=$(version_of "$OLD" 2>/dev/null || true)
if [ -n "$WANTED" ] && [ "$WANTED" = "$OLD_VERSION" ]; then
    say "update: the kit is $WANTED already"
    exit 0
fi

NEW=$ENVS/$(date +%Y%m%d-%H%M%S)-$$
REQUIREMENT="rummikub-tablekit[$EXTRA]${WANTED:+==$WANTED}"
say "update: $REQUIREMENT from $INDEX into $NEW"
if ! python3 -m venv --system-site-packages "$NEW" ||
    ! "$NEW/bin/python" -I -m pip install --quiet --disable-pip-version-check \
        --index-url "$INDEX" "$REQUIREMENT"; then
    rm -rf "$NEW"
    say "update: the install failed; the kit stays ${OLD_VERSION:-as it was}"
    exit 1
fi
NEW_VERSION=$(version_of "$NEW")
if [ "$NEW_VERSION" = "$OLD_VERSION" ]; then
    rm -rf "$NEW"
    say "update: the kit is $NEW_VERSION already"
    exit 0
fi

point_at "$NEW"
say "update: switched to $NEW_VERSION; checking that it comes up: $CHECK"
if ! bash -c "$CHECK"; then
    if [ -z "$OLD" ]; then
        say "update: $NEW_VERSION did not come up, and there is no earlier kit to go back to"
        exit 3
    fi
    point_at "$OLD"
    bash -c "$CHECK" || say "update: the earlier kit does not come up either"
    rm -rf "$NEW"
    say "update: $NEW_VERSION did not come up; back on $OLD_VERSION"
    exit 3
fi
# Keep the environment just left, for a switch back; remove the older ones.
for env in "$ENVS"/*; do
    [ "$env" = "$NEW" ] || [ "$env" = "$OLD" ] || rm -rf "$env"
done
say "update: the kit is $NEW_VERSION (was ${OLD_VERSION:-none})"
