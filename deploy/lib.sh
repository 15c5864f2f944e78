# Shared by provision-unit.sh and provision-hub.sh (sourced, not run).
#
# Two switches make the scripts testable without touching the machine:
#   --root DIR   files are installed under DIR (like DESTDIR); commands that change the
#                system (apt-get, useradd, systemctl, pip, chown) are printed, not run.
#   --dry-run    nothing is written or run; everything is printed.
# and one chooses where the kit comes from:
#   --index URL  the hub's package index (a card's first boot: hub/firstboot.sh), instead
#                of a wheel built from this checkout.
# Every installed file is listed as "file: PATH OWNER:GROUP MODE" either way.
# shellcheck shell=bash

ROOT=""
DRY_RUN=0
INDEX=""
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=/opt/tablekit/venv
SERVICE_USER=tablekit
APT_UPDATED=0

# What each role installs: Debian packages, and the kit's extra (pyproject.toml). The
# provisioning scripts install these and nothing else; ./kit test-arm64 builds its root
# from the same lists. The screens' fonts ship inside the kit (tablekit/fonts/).
#   python3-lgpio: gpiozero's pin factory (lgpio on PyPI is source only; Raspberry Pi's
#     archive has it, Debian's does not);
#   libdrm2 libgbm1 libegl1 libgles2: what pygame-ce's bundled SDL needs for KMSDRM;
#   avahi-daemon (+ libnss-mdns on a unit): the units find the hub as hub.local;
#   mosquitto (+ clients for checks), sqlite3 (backups of the event store): the hub;
#   libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0: what WeasyPrint loads for the
#     hub's PDF printouts (the subsetter makes them about 7x faster); the hub only.
KMSDRM_APT=(libdrm2 libgbm1 libegl1 libgles2)
PRINT_APT=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0)
# shellcheck disable=SC2034  # these four are read by the scripts that source this file
UNIT_APT=(python3-venv python3-pip python3-lgpio "${KMSDRM_APT[@]}" avahi-daemon libnss-mdns)
# shellcheck disable=SC2034
HUB_APT=(python3-venv python3-pip mosquitto mosquitto-clients "${KMSDRM_APT[@]}" avahi-daemon sqlite3
    "${PRINT_APT[@]}")
# shellcheck disable=SC2034
UNIT_EXTRA=unit
# shellcheck disable=SC2034
HUB_EXTRA=hub

say() { printf '%s\n' "$*"; }
die() { printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2; exit 2; }

# Commands that change the system run only on the real machine.
live() { [ "$DRY_RUN" -eq 0 ] && [ -z "$ROOT" ]; }
# Files are written on the real machine and under --root.
writes_files() { [ "$DRY_RUN" -eq 0 ]; }

run() {
    local shown
    shown=$(printf '%q ' "$@")
    if live; then
        say "run: ${shown% }"
        "$@"
    else
        say "would run: ${shown% }"
    fi
}

need_root() {
    if live && [ "$(id -u)" -ne 0 ]; then
        die "run as root (sudo $0 ...), or try --dry-run / --root DIR"
    fi
}

apt_packages() {
    # Installs the packages that are missing; apt-get update once, only when needed.
    local missing=() pkg
    for pkg in "$@"; do
        if ! live || ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && { say "apt: all of $* installed"; return 0; }
    if [ "$APT_UPDATED" -eq 0 ]; then
        run apt-get update -qq
        APT_UPDATED=1
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ensure_group() {
    if live && getent group "$1" >/dev/null; then return 0; fi
    run groupadd --system --force "$1"
}

ensure_service_user() {
    # ensure_service_user GROUP...: the system user the services run as, in GROUPs.
    local groups
    groups=$(IFS=,; printf '%s' "$*")
    for group in "$@"; do ensure_group "$group"; done
    if live && id "$SERVICE_USER" >/dev/null 2>&1; then
        say "user: $SERVICE_USER exists"
    else
        run useradd --system --user-group --home-dir "/var/lib/$SERVICE_USER" --no-create-home \
            --shell /usr/sbin/nologin --comment "Rummikub table kit services" "$SERVICE_USER"
    fi
    [ -n "$groups" ] && run usermod --append --groups "$groups" "$SERVICE_USER"
    return 0
}

install_dir() {
    # install_dir PATH OWNER:GROUP MODE
    local path=$1 owner=$2 mode=$3
    say "dir:  $path $owner $mode"
    writes_files || return 0
    mkdir -p "$ROOT$path"
    chmod "$mode" "$ROOT$path"
    if live; then chown "$owner" "$ROOT$path"; fi
}

install_file() {
    # install_file SOURCE DEST OWNER:GROUP MODE: atomically (a reader never sees half a file).
    local src=$1 dest=$2 owner=$3 mode=$4
    [ -f "$src" ] || die "missing $src"
    say "file: $dest $owner $mode"
    writes_files || return 0
    mkdir -p "$(dirname "$ROOT$dest")"
    local tmp="$ROOT$dest.provision-tmp"
    rm -f "$tmp"
    (umask 077 && cp "$src" "$tmp")
    chmod "$mode" "$tmp"
    if live; then chown "$owner" "$tmp"; fi
    mv -f "$tmp" "$ROOT$dest"
}

install_venv() {
    # install_venv EXTRA: the kit with the role's extra (unit, hub): from the hub's package
    # index with --index, else built from a copy of this checkout as a wheel, so the
    # service never reads from anyone's home directory.
    # The venv sees apt's python3-lgpio (lgpio on PyPI is source-only).
    local extra=$1 stage=/opt/tablekit/src
    if [ -n "$INDEX" ]; then
        say "venv: $VENV (--system-site-packages) with rummikub-tablekit[$extra] from $INDEX"
    else
        say "venv: $VENV (--system-site-packages) with $SRC [$extra]"
        if live; then
            rm -rf "$stage.new"
            mkdir -p "$stage.new"
            tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=artifacts --exclude=.hypothesis \
                --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.pytest_cache --exclude=.arm64 \
                --exclude='*.egg-info' --exclude=__pycache__ --exclude=build -cf - . |
                tar -C "$stage.new" -xf -
            rm -rf "$stage"
            mv "$stage.new" "$stage"
        else
            say "would run: copy $SRC to $stage (without .git, .venv, caches)"
        fi
    fi
    if live && [ -x "$VENV/bin/python" ]; then
        say "venv: $VENV exists"
    else
        run python3 -m venv --system-site-packages "$VENV"
    fi
    if [ -n "$INDEX" ]; then
        # Only the hub's index: a venue has no internet, and nothing else may answer.
        run "$VENV/bin/python" -m pip install --quiet --upgrade --index-url "$INDEX" \
            "rummikub-tablekit[$extra]"
    else
        run "$VENV/bin/python" -m pip install --quiet --upgrade pip
        run "$VENV/bin/python" -m pip install --quiet --upgrade "${stage}[$extra]"
    fi
}

disable_console_autologin() {
    # Pi OS (raspi-config B2, Raspberry Pi Imager) logs tty1 in automatically through
    # this drop-in; without it tty1 asks for a password.
    local dropin=/etc/systemd/system/getty@tty1.service.d/autologin.conf
    if [ -e "$ROOT$dropin" ]; then
        say "autologin: removing $dropin"
        writes_files && rm -f "$ROOT$dropin"
    else
        say "autologin: off (no $dropin)"
    fi
    if live && command -v raspi-config >/dev/null; then
        run raspi-config nonint do_boot_behaviour B1
    fi
    return 0
}

enable_services() {
    # enable_services START(0|1) UNIT...
    local start=$1
    shift
    run systemctl daemon-reload
    run systemctl enable "$@"
    if [ "$start" -eq 1 ]; then
        run systemctl restart "$@"
    fi
}

parse_common() {
    # parse_common "$@": handles --root, --dry-run; leaves the rest in REST.
    REST=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --root)
                [ $# -ge 2 ] || die "--root needs a directory"
                mkdir -p "$2" || die "--root $2: cannot create it"
                ROOT=$(cd "$2" && pwd)
                [ "$ROOT" != / ] || ROOT=""
                shift 2
                ;;
            --root=*)
                mkdir -p "${1#--root=}" || die "$1: cannot create it"
                ROOT=$(cd "${1#--root=}" && pwd)
                [ "$ROOT" != / ] || ROOT=""
                shift
                ;;
            --dry-run) DRY_RUN=1; shift ;;
            --index)
                [ $# -ge 2 ] || die "--index needs the URL of the hub's package index"
                INDEX=$2
                shift 2
                ;;
            *) REST+=("$1"); shift ;;
        esac
    done
}
