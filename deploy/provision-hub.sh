#!/usr/bin/env bash
# Set up the hub Pi on Raspberry Pi OS Bookworm Lite 64-bit (idempotent; run as root):
# Mosquitto with the venue's accounts and ACL, the hub service, the hub screen on the TV.
#
#   sudo deploy/provision-hub.sh --bundle BUNDLE [options]
#
# BUNDLE is what `python -m hub.credentials --tables N --venue V --event E --out BUNDLE`
# wrote (on this Pi or the organizer's machine). The steps: apt packages, the tablekit
# user, the venv with this checkout, Mosquitto's config/password file/ACL, the hub's
# config file /etc/rummikub/hub.toml, the secrets in /etc/tablekit, the systemd units,
# console autologin off. Run it again after `git pull` or after
# generating accounts for more tables. docs/deployment.md has more.
#
# Options:
#   --bundle DIR     the credentials bundle (mosquitto/, hub/, readers/)
#   --no-screen      no hub screen on this Pi (a TV elsewhere, or none)
#   --wheelhouse DIR serve DIR (what ./kit wheelhouse made) to the hall as its package
#                    index: /var/lib/rummikub-wheelhouse, rummikub-wheelhouse.service
#   --no-start       enable the services but do not (re)start them now
#   --skip-apt       do not install apt packages
#   --root DIR       install files under DIR, print the system commands (tests, images)
#   --dry-run        print everything, change nothing
#   --index URL      install the kit from this package index (a card's first boot)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; }

parse_common "$@"
set -- ${REST[@]+"${REST[@]}"}
BUNDLE="" SCREEN=1 START=1 APT=1 WHEELHOUSE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bundle) [ $# -ge 2 ] || die "--bundle needs a directory"; BUNDLE=$2; shift 2 ;;
        --no-screen) SCREEN=0; shift ;;
        --wheelhouse) [ $# -ge 2 ] || die "--wheelhouse needs a directory"; WHEELHOUSE=$2; shift 2 ;;
        --no-start) START=0; shift ;;
        --skip-apt) APT=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[ -n "$BUNDLE" ] || die "give --bundle DIR (python -m hub.credentials --out DIR makes one)"
# A bundle from before the hub's config file has hub/hub.env instead of hub/hub.toml.
if [ -f "$BUNDLE/hub/hub.env" ] && [ ! -f "$BUNDLE/hub/hub.toml" ]; then
    die "--bundle $BUNDLE: made before the hub's config file (hub/hub.env, no hub/hub.toml); rerun python -m hub.credentials with the same --out (secrets are kept)"
fi
for f in mosquitto/rummikub.conf mosquitto/rummikub.passwd mosquitto/rummikub.acl \
    hub/hub.toml hub/hub-password hub/admin-password; do
    [ -f "$BUNDLE/$f" ] || die "--bundle $BUNDLE: missing $f (is it a credentials bundle?)"
done
if [ "$SCREEN" -eq 1 ]; then
    # The screen logs in with its own account; a bundle without one is from before that
    # (regenerating with the same --out keeps every secret) or was made with --screens 0.
    if [ ! -f "$BUNDLE/hub/screen-password" ] ||
        ! grep -q '^\[screen\]$' "$BUNDLE/hub/hub.toml"; then
        die "--bundle $BUNDLE: no screen account (hub/screen-password); rerun python -m hub.credentials with the same --out (secrets are kept) and --screens 1 or more, or give --no-screen"
    fi
fi
if [ -n "$WHEELHOUSE" ] && [ ! -f "$WHEELHOUSE/simple/index.html" ]; then
    die "--wheelhouse $WHEELHOUSE: no simple/index.html (./kit wheelhouse makes one)"
fi
need_root
# The topic levels, for the messages below (the file itself is read by the programs).
VENUE=$(sed -n 's/^venue = "\(.*\)"$/\1/p' "$BUNDLE/hub/hub.toml")
EVENT=$(sed -n 's/^event = "\(.*\)"$/\1/p' "$BUNDLE/hub/hub.toml")
TABLES=$(grep -c '^user table-' "$BUNDLE/mosquitto/rummikub.acl" || true)

say "== hub for ${VENUE:-?}/${EVENT:-?}, $TABLES tables${ROOT:+, into $ROOT}$([ "$DRY_RUN" -eq 1 ] && printf ' (dry run)')"

if [ "$APT" -eq 1 ]; then
    apt_packages "${HUB_APT[@]}"  # lib.sh says why each
fi
ensure_service_user video render input
install_venv "$HUB_EXTRA"

# Mosquitto: our own config file next to Debian's (left untouched), started by a drop-in.
# The password file and ACL are read by user mosquitto, and by nobody else.
install_file "$BUNDLE/mosquitto/rummikub.conf" /etc/mosquitto/rummikub.conf root:root 0644
install_file "$BUNDLE/mosquitto/rummikub.passwd" /etc/mosquitto/rummikub.passwd mosquitto:mosquitto 0600
install_file "$BUNDLE/mosquitto/rummikub.acl" /etc/mosquitto/rummikub.acl mosquitto:mosquitto 0600
install_file "$SRC/deploy/systemd/mosquitto-rummikub.conf" \
    /etc/systemd/system/mosquitto.service.d/rummikub.conf root:root 0644

# The hub's config file for its programs, the secrets for the service user only.
install_dir /etc/rummikub root:"$SERVICE_USER" 0750
install_file "$BUNDLE/hub/hub.toml" /etc/rummikub/hub.toml root:"$SERVICE_USER" 0640
install_dir /etc/tablekit root:"$SERVICE_USER" 0750
install_file "$BUNDLE/hub/hub-password" /etc/tablekit/hub-password "$SERVICE_USER:$SERVICE_USER" 0600
install_file "$BUNDLE/hub/admin-password" /etc/tablekit/admin-password "$SERVICE_USER:$SERVICE_USER" 0600
if [ "$SCREEN" -eq 1 ]; then
    install_file "$BUNDLE/hub/screen-password" /etc/tablekit/screen-password "$SERVICE_USER:$SERVICE_USER" 0600
fi
# The web console's accounts (organizer, judges): hashes only, for the service user alone,
# in the hub's state folder, where the console's first start page writes them too.
install_dir /var/lib/rummikub-hub "$SERVICE_USER:$SERVICE_USER" 0750
if [ -f "$BUNDLE/hub/web-accounts.toml" ]; then
    install_file "$BUNDLE/hub/web-accounts.toml" /var/lib/rummikub-hub/web-accounts.toml \
        "$SERVICE_USER:$SERVICE_USER" 0600
else
    say "   (no hub/web-accounts.toml in the bundle: the web console's first start page"
    say "    makes the organizer's and the judges' accounts, with the code the hub screen shows)"
fi
# A bundle made with --https: the web console's certificate and key (docs/deployment.md,
# "HTTPS for the console"); hub.toml's [web] certificate and key name these paths.
if [ -f "$BUNDLE/hub/web-cert.pem" ]; then
    install_file "$BUNDLE/hub/web-cert.pem" /etc/rummikub/web-cert.pem root:"$SERVICE_USER" 0640
    install_file "$BUNDLE/hub/web-key.pem" /etc/rummikub/web-key.pem root:"$SERVICE_USER" 0640
fi
# Every table's config and secret, for the organizer's page that writes the tables' cards.
if [ -d "$BUNDLE/units" ]; then
    install_dir /etc/rummikub/units "$SERVICE_USER:$SERVICE_USER" 0700
    for d in "$BUNDLE"/units/*/; do
        [ -f "$d/unit.toml" ] || continue
        t=$(basename "$d")
        install_dir "/etc/rummikub/units/$t" "$SERVICE_USER:$SERVICE_USER" 0700
        for f in unit.toml mqtt-password; do
            install_file "$d/$f" "/etc/rummikub/units/$t/$f" "$SERVICE_USER:$SERVICE_USER" 0600
        done
    done
fi
if [ -d "$BUNDLE/readers" ]; then
    install_dir /etc/tablekit/readers root:root 0700
    for f in "$BUNDLE"/readers/*.password; do
        [ -e "$f" ] || continue
        install_file "$f" "/etc/tablekit/readers/$(basename "$f")" root:root 0600
    done
fi

UNITS=(mosquitto.service rummikub-hub.service rummikub-web.service)
install_file "$SRC/deploy/systemd/rummikub-hub.service" /etc/systemd/system/rummikub-hub.service root:root 0644
install_file "$SRC/deploy/systemd/rummikub-web.service" /etc/systemd/system/rummikub-web.service root:root 0644
if [ "$SCREEN" -eq 1 ]; then
    install_file "$SRC/deploy/systemd/rummikub-screen.service" \
        /etc/systemd/system/rummikub-screen.service root:root 0644
    UNITS+=(rummikub-screen.service)
fi
if [ -n "$WHEELHOUSE" ]; then
    # The hall's package index: readable by all, written only here.
    served=/var/lib/rummikub-wheelhouse
    if [ "$(cd "$WHEELHOUSE" && pwd -P)" != "$(cd "$ROOT$served" 2>/dev/null && pwd -P)" ]; then
        say "wheelhouse: $WHEELHOUSE to $served"
        if writes_files; then
            rm -rf "$ROOT$served.new"
            mkdir -p "$ROOT$served.new"
            cp -R "$WHEELHOUSE/." "$ROOT$served.new/"
            chmod -R a+rX,go-w "$ROOT$served.new"
            rm -rf "$ROOT$served"
            mv "$ROOT$served.new" "$ROOT$served"
        fi
    fi
    install_file "$SRC/deploy/systemd/rummikub-wheelhouse.service" \
        /etc/systemd/system/rummikub-wheelhouse.service root:root 0644
    UNITS+=(rummikub-wheelhouse.service)
fi
disable_console_autologin
enable_services "$START" "${UNITS[@]}"
SHOWN=${UNITS[*]%.service}

cat <<EOF

Done. Next:
  * services:        systemctl status ${SHOWN// / }
  * logs:            journalctl -u rummikub-hub -f; tail -f /var/log/mosquitto/mosquitto.log
  * each table:      copy BUNDLE/units/table-NN to its Pi, then there:
                     sudo deploy/provision-unit.sh --bundle table-NN --hostname table-NN
  * the organizer:   sudo -u $SERVICE_USER $VENV/bin/rummikub round status
                     (the event file and the live views from /etc/rummikub/hub.toml)
  * dashboards:      read-only passwords in /etc/tablekit/readers/
  * web console:     http://127.0.0.1:8080/ on the hub; for the players' phones set
                     [web] host in /etc/rummikub/hub.toml to the address of their network
                     (docs/deployment.md) and restart the rummikub-web service
                     the organizer and the judges sign in with the web accounts of
                     BUNDLE/accounts.tsv (roles web-organizer, web-judge)
  * keep BUNDLE/accounts.tsv safe (every secret); rerun hub.credentials with the same
    --out to add tables without changing the secrets already handed out.
EOF
