#!/usr/bin/env bash
# Set up a table unit on Raspberry Pi OS Bookworm Lite 64-bit (idempotent; run as root).
#
#   sudo deploy/provision-unit.sh --bundle BUNDLE/units/table-07 [options]
#   sudo deploy/provision-unit.sh --config unit.toml --password-file mqtt-password
#
# BUNDLE is what `python -m hub.credentials` wrote on the organizer's machine; copy the
# table's directory onto this Pi (scp, a USB stick). The steps: apt packages, the
# tablekit user, the venv with this checkout, /etc/tablekit, the systemd unit, console
# autologin off. Run it again after `git pull` to update. docs/deployment.md has more.
#
# Options:
#   --bundle DIR          a table's bundle directory (unit.toml + mqtt-password)
#   --config FILE         the unit's config (instead of --bundle)
#   --password-file FILE  its MQTT password (instead of --bundle)
#   --replace-config      overwrite an existing /etc/tablekit/unit.toml (it is kept
#                         otherwise, so wiring edits made on the Pi survive)
#   --hostname NAME       set the Pi's hostname (e.g. table-07)
#   --no-start            enable the service but do not (re)start it now
#   --skip-apt            do not install apt packages
#   --root DIR            install files under DIR, print the system commands (tests, images)
#   --dry-run             print everything, change nothing
#   --index URL           install the kit from the hub's package index (a card's first boot)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }

parse_common "$@"
set -- ${REST[@]+"${REST[@]}"}
BUNDLE="" CONFIG="" PASSWORD="" REPLACE_CONFIG=0 HOSTNAME_NEW="" START=1 APT=1
while [ $# -gt 0 ]; do
    case "$1" in
        --bundle) [ $# -ge 2 ] || die "--bundle needs a directory"; BUNDLE=$2; shift 2 ;;
        --config) [ $# -ge 2 ] || die "--config needs a file"; CONFIG=$2; shift 2 ;;
        --password-file) [ $# -ge 2 ] || die "--password-file needs a file"; PASSWORD=$2; shift 2 ;;
        --replace-config) REPLACE_CONFIG=1; shift ;;
        --hostname) [ $# -ge 2 ] || die "--hostname needs a name"; HOSTNAME_NEW=$2; shift 2 ;;
        --no-start) START=0; shift ;;
        --skip-apt) APT=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

if [ -n "$BUNDLE" ]; then
    [ -d "$BUNDLE" ] || die "--bundle $BUNDLE: not a directory"
    CONFIG=${CONFIG:-$BUNDLE/unit.toml}
    PASSWORD=${PASSWORD:-$BUNDLE/mqtt-password}
fi
[ -n "$CONFIG" ] || die "give --bundle DIR, or --config FILE (and --password-file FILE)"
[ -f "$CONFIG" ] || die "config $CONFIG: no such file"
if [ -n "$PASSWORD" ] && [ ! -f "$PASSWORD" ]; then die "password file $PASSWORD: no such file"; fi
if [ -n "$HOSTNAME_NEW" ] && ! [[ $HOSTNAME_NEW =~ ^[A-Za-z0-9][A-Za-z0-9-]{0,62}$ ]]; then
    die "--hostname $HOSTNAME_NEW: letters, digits and '-' only"
fi
TABLE=$(sed -n 's/^table *= *\([0-9]*\).*/\1/p' "$CONFIG" | head -n1)
need_root

say "== table unit${TABLE:+ for table $TABLE}${ROOT:+ into $ROOT}$([ "$DRY_RUN" -eq 1 ] && printf ' (dry run)')"

if [ "$APT" -eq 1 ]; then
    apt_packages "${UNIT_APT[@]}"  # lib.sh says why each
fi
ensure_service_user gpio video render input dialout
install_venv "$UNIT_EXTRA"

install_dir /etc/tablekit root:"$SERVICE_USER" 0750
if [ -e "$ROOT/etc/tablekit/unit.toml" ] && [ "$REPLACE_CONFIG" -eq 0 ]; then
    say "keep: /etc/tablekit/unit.toml exists (--replace-config to overwrite); new one as unit.toml.new"
    install_file "$CONFIG" /etc/tablekit/unit.toml.new root:"$SERVICE_USER" 0640
else
    install_file "$CONFIG" /etc/tablekit/unit.toml root:"$SERVICE_USER" 0640
fi
if [ -n "$PASSWORD" ]; then
    # Readable by the service user only.
    install_file "$PASSWORD" /etc/tablekit/mqtt-password "$SERVICE_USER:$SERVICE_USER" 0600
fi
if live; then
    run "$VENV/bin/python" -m tablekit.config /etc/tablekit/unit.toml
else
    say "would run: $VENV/bin/python -m tablekit.config /etc/tablekit/unit.toml"
fi

install_file "$SRC/deploy/systemd/tablekit-unit.service" /etc/systemd/system/tablekit-unit.service root:root 0644
disable_console_autologin
if [ -n "$HOSTNAME_NEW" ]; then
    if live && command -v raspi-config >/dev/null; then
        run raspi-config nonint do_hostname "$HOSTNAME_NEW"
    else
        run hostnamectl set-hostname "$HOSTNAME_NEW"
    fi
fi
enable_services "$START" tablekit-unit.service

cat <<EOF

Done. Next:
  * check the wiring:      sudo systemctl stop tablekit-unit
                           sudo -u $SERVICE_USER sh -c 'cd /var/lib/tablekit && $VENV/bin/python -m tablekit.hardware /etc/tablekit/unit.toml'
                           sudo systemctl start tablekit-unit
  * the service:           systemctl status tablekit-unit
  * its log:               journalctl -u tablekit-unit -f
  * wiring or rules:       edit /etc/tablekit/unit.toml, then: sudo systemctl restart tablekit-unit
  * on the hub screen the table${TABLE:+ $TABLE} turns from OFFLINE to its state within seconds.
EOF
