"""deploy/: the credentials generator's files, the provisioning scripts run into a temp
root, the systemd units (``systemd-analyze verify`` when present) and the shell checks."""

from __future__ import annotations

import base64
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from hub import credentials
from hub.config import WEB_CONNECTIONS, parse_hub_config
from hub.credentials import (
    CredentialsError,
    MosquittoSettings,
    Role,
    acl_text,
    broker_config,
    make_accounts,
    password_hash,
    verify_hash,
)
from tablekit.config import parse_config
from tablekit.core.topics import Topics

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))
TOPICS = Topics("hall", "cup2026")


def bundle(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "bundle"
    argv = ["--tables", "3", "--venue", "hall", "--event", "cup2026", "--out", str(out), *args]
    assert credentials.main(argv) == 0
    return out


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- the generator ---------------------------------------------------------------------------


def test_the_hash_is_mosquitto_passwds_own_format() -> None:
    # Written by `mosquitto_passwd -b pw alice s3cret` (Mosquitto 2.0.11).
    line = (
        "$7$101$WZGkiY/NBq3um8jc$k93QIA63M/kjqLYYreQr2bON7WiC20BFhP/lNd3I1ZcjaWkW5eCO0Y5WB3E6"
        "p7EAsIkRYTVBkpEuxkFLBbm2gQ=="
    )
    salt = base64.b64decode("WZGkiY/NBq3um8jc")
    assert password_hash("s3cret", salt) == line
    assert verify_hash("s3cret", line) and not verify_hash("s3cre", line)
    assert not verify_hash("s3cret", "$6$101$x$y")


def test_accounts_one_per_table_and_service_with_distinct_secrets() -> None:
    accounts = make_accounts(12, screens=2, dashboards=1)
    names = [a.username for a in accounts]
    assert names[:5] == ["hub", "hub-admin", "screen-1", "screen-2", "dashboard-1"]
    assert names[5:] == [f"table-{n:02d}" for n in range(1, 13)]
    assert len({a.secret for a in accounts}) == len(accounts)
    assert all(len(a.secret) >= 24 for a in accounts)
    assert [a.table for a in accounts if a.role is Role.TABLE] == list(range(1, 13))
    assert make_accounts(1, screens=1)[2].username == "screen"
    assert make_accounts(120)[-1].username == "table-120"
    with pytest.raises(CredentialsError, match="--tables must be 1-999, got 0"):
        make_accounts(0)
    with pytest.raises(CredentialsError, match="hub: a secret must be at least 16"):
        make_accounts(1, known={"hub": "short"})


def test_the_acl_grants_a_table_exactly_its_own_topics_in_every_event_of_the_venue() -> None:
    accounts = make_accounts(2, screens=1)
    text = acl_text(TOPICS.venue, accounts, anonymous_read=False)
    blocks = {b.splitlines()[0]: b.splitlines()[1:] for b in text.split("\n\n") if "user " in b}
    base = "rummikub/v1/hall/+"  # whichever event the hub serves
    announced = "rummikub/v1/hall/hub/event"
    assert blocks["user table-02"] == [
        f"topic write {base}/table/2/events",
        f"topic write {base}/table/2/state",
        f"topic write {base}/table/2/status",
        f"topic read {base}/hub/table/2/#",
        f"topic read {base}/hub/broadcast",
        f"topic read {base}/hub/status",
        f"topic read {base}/hub/language",
        f"topic read {base}/hub/console",
        f"topic read {announced}",
    ]
    league = f"rummikub/v1/{TOPICS.venue}/league"
    assert blocks["user hub"] == [
        f"topic read {base}/table/#", f"topic readwrite {base}/hub/#",
        f"topic readwrite {announced}",
        # the league's: the event's records up, the central's acks and season down
        f"topic write {league}/up/#", f"topic read {league}/ack/#",
        f"topic read {league}/season",
        f"topic read $SYS/broker/connection/league-{TOPICS.venue}/state",
    ]
    assert blocks["user hub-admin"] == [
        f"topic read {base}/table/#", f"topic readwrite {base}/hub/#", f"topic read {announced}",
        f"topic read {league}/season",
    ]
    assert blocks["user screen"] == ["topic read rummikub/v1/hall/#"]
    assert "pattern" not in text and "%u" not in text
    # Without the anonymous listener no line comes before the first user block.
    first_user = text.index("user ")
    assert "topic" not in text[:first_user]
    anon = acl_text(TOPICS.venue, accounts, anonymous_read=True)
    assert "topic read rummikub/v1/hall/#" in anon[: anon.index("user ")]


def test_the_shipped_broker_config_is_the_generators_default() -> None:
    shipped = (DEPLOY / "mosquitto" / "rummikub.conf").read_text()
    assert shipped == broker_config(MosquittoSettings())
    for line in (
        "listener 1883",
        "allow_anonymous false",
        "use_username_as_clientid true",
        "password_file /etc/mosquitto/rummikub.passwd",
        "acl_file /etc/mosquitto/rummikub.acl",
        "persistence true",
        "persistence_location /var/lib/mosquitto/",
        "log_dest file /var/log/mosquitto/mosquitto.log",
        f"max_packet_size {256 * 1024 + 512}",
        "max_queued_messages 100000",
    ):
        assert line in shipped.splitlines(), line
    assert "\nlistener 9001" not in shipped and "# listener 9001" in shipped
    # No anonymous listener unless asked for: one listener, which refuses anonymous clients.
    assert re.findall(r"^listener .*$", shipped, re.M) == ["listener 1883"]
    assert "allow_anonymous true" not in shipped
    with pytest.raises(CredentialsError, match="distinct ports"):
        MosquittoSettings(port=1883, local_port=1883)


def test_the_anonymous_loopback_listener_is_an_explicit_opt_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert credentials.main(["--print-broker-config"]) == 0
    assert "allow_anonymous true" not in capsys.readouterr().out
    assert credentials.main(["--print-broker-config", "--local-port", "1884"]) == 0
    opted = capsys.readouterr().out
    assert "\nlistener 1884 127.0.0.1\nallow_anonymous true\nacl_file " in opted
    assert "\nlistener 1883\nallow_anonymous false\n" in opted
    # The ACL lets anonymous clients read only when the listener exists.
    default = bundle(tmp_path)
    acl = (default / "mosquitto/rummikub.acl").read_text()
    assert "topic" not in acl[: acl.index("user ")]
    opted_out = bundle(tmp_path, "--local-port", "1884")
    acl = (opted_out / "mosquitto/rummikub.acl").read_text()
    assert acl[: acl.index("user ")].count("topic read rummikub/v1/hall/#") == 1
    # Either way the screen logs in with its account on the main listener.
    hub = parse_hub_config((opted_out / "hub/hub.toml").read_text())
    assert (hub.broker.host, hub.broker.port, hub.screen.username) == ("127.0.0.1", 1883, "screen")


def test_the_bundle_files_are_private_and_the_unit_configs_valid(tmp_path: Path) -> None:
    out = bundle(tmp_path)
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert files == [
        "accounts.tsv",
        "hub/admin-password",
        "hub/hub-password",
        "hub/hub.toml",
        "hub/screen-password",
        "hub/web-accounts.toml",
        "mosquitto/rummikub.acl",
        "mosquitto/rummikub.conf",
        "mosquitto/rummikub.passwd",
        "readers/dashboard-1.password",  # two dashboards by default (rummikub round status)
        "readers/dashboard-2.password",
        "readers/screen.password",
        *[f"units/table-0{n}/{f}" for n in (1, 2, 3) for f in ("mqtt-password", "unit.toml")],
    ]
    assert {mode(p) for p in out.rglob("*") if p.is_file()} == {0o600}
    assert {mode(p) for p in [out, *out.rglob("*")] if p.is_dir()} == {0o700}
    config = parse_config((out / "units/table-03/unit.toml").read_text(), "unit.toml")
    assert (config.unit.table, config.unit.unit_id, config.display.fullscreen) == (
        3,
        "table-03",
        True,
    )
    assert config.link is not None
    # The unit belongs to the venue and follows the hub's event: its config names none.
    assert (config.link.username, config.link.venue, config.link.event) == (
        "table-03",
        "hall",
        "",
    )
    assert config.link.password_file == "/etc/tablekit/mqtt-password"
    secret = (out / "units/table-03/mqtt-password").read_text().strip()
    entries = dict(
        line.split(":", 1) for line in (out / "mosquitto/rummikub.passwd").read_text().splitlines()
    )
    assert verify_hash(secret, entries["table-03"]) and not verify_hash(secret, entries["table-02"])
    hub = parse_hub_config((out / "hub/hub.toml").read_text(), "hub.toml")
    assert (hub.venue, hub.event) == ("hall", "cup2026")
    assert hub.db == "/var/lib/rummikub-hub/hub.sqlite3"
    assert (hub.broker.host, hub.broker.port, hub.broker.mqtt_version) == ("127.0.0.1", 1883, 5)
    assert (hub.hub.username, hub.hub.password_file) == ("hub", "/etc/tablekit/hub-password")
    assert (hub.hub.tables, hub.hub.backup) == (3, "/media/rummikub-backup/hub.sqlite3")
    assert (hub.screen.username, hub.screen.password_file) == (
        "screen", "/etc/tablekit/screen-password"
    )
    assert hub.organizer.username == "hub-admin"
    screen = (out / "hub/screen-password").read_text()
    assert screen == (out / "readers/screen.password").read_text()
    assert verify_hash(screen.strip(), entries["screen"])


def test_the_hub_screen_account_is_the_first_screen(tmp_path: Path) -> None:
    out = bundle(tmp_path, "--screens", "2", "--dashboards", "1")
    assert parse_hub_config((out / "hub/hub.toml").read_text()).screen.username == "screen-1"
    assert (out / "hub/screen-password").read_text() == (
        out / "readers/screen-1.password"
    ).read_text()
    (tmp_path / "no-screen").mkdir()
    none = bundle(tmp_path / "no-screen", "--screens", "0", "--dashboards", "1")
    assert not (none / "hub/screen-password").exists()
    assert parse_hub_config((none / "hub/hub.toml").read_text()).screen.username is None


def test_a_rerun_keeps_the_secrets_and_adds_tables(tmp_path: Path) -> None:
    out = bundle(tmp_path)
    first = (out / "units/table-02/mqtt-password").read_text()
    hub_first = (out / "hub/hub-password").read_text()
    out = bundle(tmp_path, "--tables", "5")
    assert (out / "units/table-02/mqtt-password").read_text() == first
    assert (out / "hub/hub-password").read_text() == hub_first
    assert (out / "units/table-05/unit.toml").exists()
    assert "user table-05" in (out / "mosquitto/rummikub.acl").read_text()
    out = bundle(tmp_path, "--rotate")
    assert (out / "units/table-02/mqtt-password").read_text() != first


def test_the_command_line_names_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--lang", "en", "--tables", "3", "--venue", "the hall", "--event", "x",
            "--out", str(tmp_path / "o")]
    assert credentials.main(argv) == 2
    assert "venue: 1-32 letters" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        credentials.main(["--lang", "en", "--tables", "3"])
    assert "missing --venue, --event, --out" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    argv = ["--lang", "en", "--tables", "3", "--venue", "h", "--event", "e",
            "--out", str(tmp_path / "file")]
    assert credentials.main(argv) == 2
    assert "exists and is not a directory" in capsys.readouterr().err
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "accounts.tsv").write_text("username\trole\ttable\tsecret\nhub\thub\t\tshort\n")
    argv = ["--lang", "en", "--tables", "3", "--venue", "h", "--event", "e", "--out", str(bad)]
    assert credentials.main(argv) == 2
    assert "accounts.tsv:2: hub: a secret must be at least 16" in capsys.readouterr().err
    assert credentials.main(["--print-broker-config", "--websockets-port", "9001"]) == 0
    assert "\nlistener 9001\nprotocol websockets\n" in capsys.readouterr().out


def test_the_command_line_speaks_polish_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    with pytest.raises(SystemExit):
        credentials.main(["--help"])
    assert "liczba modułów stolikowych" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        credentials.main(["--tables", "3"])
    assert "brakuje: --venue, --event, --out" in capsys.readouterr().err
    argv = ["--tables", "3", "--venue", "the hall", "--event", "x", "--out", str(tmp_path / "o")]
    assert credentials.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m hub.credentials: ") and "venue" in err
    assert "venue: od 1 do 32 liter, cyfr" in err  # the topic's rule in Polish
    (tmp_path / "file").write_text("")
    argv = ["--tables", "3", "--venue", "h", "--event", "e", "--out", str(tmp_path / "file")]
    assert credentials.main(argv) == 2
    assert "istnieje i nie jest folderem" in capsys.readouterr().err
    out = tmp_path / "bundle"
    argv = ["--tables", "3", "--venue", "h", "--event", "e", "--out", str(out)]
    assert credentials.main(argv) == 0
    said = capsys.readouterr().out
    assert f"{out}: 12 kont (stoliki: 3; zachowane hasła: 0, nowe: 12) dla rummikub/v1/h/" in said
    assert "Pi centrali:" in said and "stolik N:" in said
    assert credentials.main([*argv, "--lang", "en"]) == 0
    assert "12 accounts (3 tables; 12 secrets kept, 0 new)" in capsys.readouterr().out



# --- shell scripts --------------------------------------------------------------------------


def test_every_script_parses_and_passes_shellcheck() -> None:
    assert {p.name for p in SCRIPTS} == {
        "lib.sh",
        "provision-hub.sh",
        "provision-unit.sh",
        "test-arm64.sh",
        "update-kit.sh",
    }
    for script in SCRIPTS:
        result = subprocess.run(
            ["bash", "-n", str(script)], check=False, capture_output=True, text=True
        )
        assert result.returncode == 0, f"{script.name}: {result.stderr}"
    for name in ("provision-unit.sh", "provision-hub.sh", "test-arm64.sh", "update-kit.sh"):
        assert os.access(DEPLOY / name, os.X_OK), f"{name} is not executable"
    if shutil.which("shellcheck"):
        result = subprocess.run(
            ["shellcheck", "-x", *[p.name for p in SCRIPTS]],
            check=False,
            cwd=DEPLOY,
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def provision(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DEPLOY / script), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )


def listed(output: str) -> dict[str, tuple[str, str]]:
    """The "file: PATH OWNER MODE" lines a script prints."""
    return {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^(?:file|dir): +(\S+) (\S+) (\d{4})$", output, re.M)
    }


def test_provision_unit_into_a_root(tmp_path: Path) -> None:
    out = bundle(tmp_path)
    root = tmp_path / "root"
    autologin = root / "etc/systemd/system/getty@tty1.service.d/autologin.conf"
    autologin.parent.mkdir(parents=True)
    autologin.write_text("[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin pi\n")
    result = provision(
        "provision-unit.sh", "--bundle", str(out / "units/table-02"), "--root", str(root),
        "--hostname", "table-02",
    )
    assert result.returncode == 0, result.stderr
    assert listed(result.stdout) == {
        "/etc/tablekit": ("root:tablekit", "0750"),
        "/etc/tablekit/unit.toml": ("root:tablekit", "0640"),
        "/etc/tablekit/mqtt-password": ("tablekit:tablekit", "0600"),
        "/etc/systemd/system/tablekit-unit.service": ("root:root", "0644"),
    }
    for path, (_, want) in listed(result.stdout).items():
        assert oct(mode(root / path.lstrip("/"))) == oct(int(want, 8)), path
    assert (root / "etc/tablekit/unit.toml").read_text() == (
        out / "units/table-02/unit.toml"
    ).read_text()
    assert (root / "etc/systemd/system/tablekit-unit.service").read_text() == (
        DEPLOY / "systemd/tablekit-unit.service"
    ).read_text()
    assert not autologin.exists()
    plan = result.stdout
    assert "would run: env DEBIAN_FRONTEND=noninteractive apt-get install" in plan
    for pkg in ("python3-venv", "python3-lgpio", "libdrm2", "libgbm1", "libegl1", "libgles2"):
        assert f" {pkg}" in plan
    assert "python3 -m venv --system-site-packages /opt/tablekit/venv" in plan
    # The unit's extra only (no amqtt); the display's fonts come with the kit.
    assert "-m pip install --quiet --upgrade /opt/tablekit/src\\[unit\\]\n" in plan
    assert "fonts-" not in plan
    # Nor PDF printing: neither WeasyPrint (the hub's extra) nor the Pango it loads.
    assert "pango" not in plan and "harfbuzz" not in plan
    assert "useradd --system --user-group" in plan and "tablekit" in plan
    assert "usermod --append --groups gpio\\,video\\,render\\,input\\,dialout tablekit" in plan
    assert "would run: systemctl enable tablekit-unit.service" in plan
    assert "would run: hostnamectl set-hostname table-02" in plan
    assert "journalctl -u tablekit-unit" in plan
    assert not (root / "opt").exists() and not (root / "var").exists()

    # Again, with a builder's edit in place: it is kept, the new one lands beside it.
    (root / "etc/tablekit/unit.toml").write_text("# edited on the Pi\n")
    again = provision(
        "provision-unit.sh", "--bundle", str(out / "units/table-02"), "--root", str(root)
    )
    assert again.returncode == 0, again.stderr
    assert (root / "etc/tablekit/unit.toml").read_text() == "# edited on the Pi\n"
    assert (root / "etc/tablekit/unit.toml.new").exists()
    assert "autologin: off" in again.stdout


def test_provision_hub_into_a_root(tmp_path: Path) -> None:
    out = bundle(tmp_path, "--dashboards", "1")
    root = tmp_path / "root"
    result = provision("provision-hub.sh", "--bundle", str(out), "--root", str(root))
    assert result.returncode == 0, result.stderr
    files = listed(result.stdout)
    # Every table's own files, for the organizer's page that writes the tables' cards.
    units = {"/etc/rummikub/units": ("tablekit:tablekit", "0700")} | {
        f"/etc/rummikub/units/table-0{n}{name}": ("tablekit:tablekit", want)
        for n in (1, 2, 3)
        for name, want in (("", "0700"), ("/unit.toml", "0600"), ("/mqtt-password", "0600"))
    }
    assert files == units | {
        "/etc/mosquitto/rummikub.conf": ("root:root", "0644"),
        "/etc/mosquitto/rummikub.passwd": ("mosquitto:mosquitto", "0600"),
        "/etc/mosquitto/rummikub.acl": ("mosquitto:mosquitto", "0600"),
        "/etc/systemd/system/mosquitto.service.d/rummikub.conf": ("root:root", "0644"),
        "/etc/rummikub": ("root:tablekit", "0750"),
        "/etc/rummikub/hub.toml": ("root:tablekit", "0640"),
        "/var/lib/rummikub-hub": ("tablekit:tablekit", "0750"),
        "/var/lib/rummikub-hub/web-accounts.toml": ("tablekit:tablekit", "0600"),
        "/etc/tablekit": ("root:tablekit", "0750"),
        "/etc/tablekit/hub-password": ("tablekit:tablekit", "0600"),
        "/etc/tablekit/admin-password": ("tablekit:tablekit", "0600"),
        "/etc/tablekit/screen-password": ("tablekit:tablekit", "0600"),
        "/etc/tablekit/readers": ("root:root", "0700"),
        "/etc/tablekit/readers/screen.password": ("root:root", "0600"),
        "/etc/tablekit/readers/dashboard-1.password": ("root:root", "0600"),
        "/etc/systemd/system/rummikub-hub.service": ("root:root", "0644"),
        "/etc/systemd/system/rummikub-screen.service": ("root:root", "0644"),
        "/etc/systemd/system/rummikub-web.service": ("root:root", "0644"),
    }
    for path, (_, want) in files.items():
        assert oct(mode(root / path.lstrip("/"))) == oct(int(want, 8)), path
    assert (root / "etc/mosquitto/rummikub.acl").read_text() == (
        out / "mosquitto/rummikub.acl"
    ).read_text()
    plan = result.stdout
    assert " mosquitto " in plan and "mosquitto-clients" in plan
    # The hub's extra; the screens' fonts come with the kit, not from a font package.
    assert "-m pip install --quiet --upgrade /opt/tablekit/src\\[hub\\]\n" in plan
    assert "fonts-" not in plan
    for pkg in ("libpango-1.0-0", "libpangoft2-1.0-0", "libharfbuzz-subset0"):
        assert f" {pkg}" in plan  # what WeasyPrint loads for the PDF printouts
    assert (
        "would run: systemctl enable mosquitto.service rummikub-hub.service "
        "rummikub-web.service rummikub-screen.service" in plan
    )
    assert "hub for hall/cup2026, 3 tables" in plan
    assert "rummikub round status" in plan and "assign" not in plan

    no_screen = provision(
        "provision-hub.sh", "--bundle", str(out), "--root", str(tmp_path / "r2"), "--no-screen",
        "--no-start",
    )
    assert no_screen.returncode == 0, no_screen.stderr
    assert "rummikub-screen.service" not in no_screen.stdout
    assert "systemctl restart" not in no_screen.stdout
    assert "/etc/tablekit/screen-password" not in listed(no_screen.stdout)

    # A bundle from before the web accounts: installed, with a word on how to add them.
    (tmp_path / "pre-web").mkdir()
    pre_web = bundle(tmp_path / "pre-web", "--dashboards", "1")
    (pre_web / "hub/web-accounts.toml").unlink()
    no_web = provision("provision-hub.sh", "--bundle", str(pre_web), "--root", str(tmp_path / "r6"))
    assert no_web.returncode == 0, no_web.stderr
    assert "/var/lib/rummikub-hub/web-accounts.toml" not in listed(no_web.stdout)
    assert "the web console's first start page" in no_web.stdout

    # A bundle from before the hub's config file: told how to remake it, nothing installed.
    (tmp_path / "old").mkdir()
    older = bundle(tmp_path / "old", "--dashboards", "1")
    (older / "hub/hub.toml").rename(older / "hub/hub.env")
    stale = provision("provision-hub.sh", "--bundle", str(older), "--root", str(tmp_path / "r5"))
    assert stale.returncode == 2 and "made before the hub's config file" in stale.stderr
    assert "same --out (secrets are kept)" in stale.stderr and not listed(stale.stdout)

    # A bundle without a screen account (--screens 0, or made before the screen logged in).
    (out / "hub/screen-password").unlink()
    old = provision("provision-hub.sh", "--bundle", str(out), "--root", str(tmp_path / "r3"))
    assert old.returncode == 2 and "no screen account (hub/screen-password)" in old.stderr
    assert old.stderr.count("\n") == 1 and not listed(old.stdout)
    assert provision(
        "provision-hub.sh", "--bundle", str(out), "--root", str(tmp_path / "r4"), "--no-screen",
    ).returncode == 0


def test_dry_run_changes_nothing_and_bad_options_are_named(tmp_path: Path) -> None:
    out = bundle(tmp_path)
    result = provision("provision-hub.sh", "--bundle", str(out), "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "would run: systemctl daemon-reload" in result.stdout
    assert "file: /etc/mosquitto/rummikub.passwd mosquitto:mosquitto 0600" in result.stdout
    unit = provision(
        "provision-unit.sh", "--bundle", str(out / "units/table-01"), "--root",
        str(tmp_path / "root"), "--dry-run",
    )
    assert unit.returncode == 0, unit.stderr
    assert "(dry run)" in unit.stdout
    assert not any((tmp_path / "root").iterdir())
    bad = provision("provision-hub.sh", "--bundle", str(out / "units"), "--dry-run")
    assert bad.returncode == 2 and "missing mosquitto/rummikub.conf" in bad.stderr
    bad = provision("provision-unit.sh", "--dry-run")
    assert bad.returncode == 2 and "give --bundle DIR" in bad.stderr
    bad = provision("provision-unit.sh", "--bundle", str(out), "--frobnicate", "--dry-run")
    assert bad.returncode == 2 and "unknown option --frobnicate" in bad.stderr
    bad = provision(
        "provision-unit.sh", "--bundle", str(out / "units/table-01"), "--hostname", "a b",
        "--dry-run",
    )
    assert bad.returncode == 2 and "letters, digits and '-' only" in bad.stderr


# --- systemd units ----------------------------------------------------------------------------


def unit_options(path: Path) -> dict[str, list[str]]:
    options: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            options.setdefault(key, []).append(value)
    return options


def test_the_unit_files_say_what_the_kit_needs() -> None:
    assert {p.name for p in UNITS} == {
        "tablekit-unit.service",
        "rummikub-hub.service",
        "rummikub-screen.service",
        "rummikub-web.service",
        "rummikub-league.service",
        "rummikub-wheelhouse.service",
    }
    served = unit_options(DEPLOY / "systemd/rummikub-wheelhouse.service")
    assert served["ExecStart"][0].endswith("--directory /var/lib/rummikub-wheelhouse")
    assert served["DynamicUser"] == ["yes"]  # nobody's account: it can write nowhere
    assert served["ReadOnlyPaths"] == ["/var/lib/rummikub-wheelhouse"]
    league = unit_options(DEPLOY / "systemd/rummikub-league.service")
    assert league["ExecStart"][0].startswith("/opt/tablekit/venv/bin/rummikub-league serve ")
    unit = unit_options(DEPLOY / "systemd/tablekit-unit.service")
    assert unit["Type"] == ["notify"] and unit["Restart"] == ["always"]
    assert unit["WatchdogSec"] == ["10"]
    assert unit["ExecStart"] == [
        "/opt/tablekit/venv/bin/tablekit-unit --config /etc/tablekit/unit.toml --log-level INFO"
    ]
    assert unit["User"] == ["tablekit"] and unit["StateDirectory"] == ["tablekit"]
    assert set(unit["SupplementaryGroups"][0].split()) >= {"gpio", "video", "render", "input"}
    assert unit["WorkingDirectory"] == ["/var/lib/tablekit"]
    assert "LG_WD=/var/lib/tablekit" in unit["Environment"]
    assert "SDL_VIDEODRIVER=kmsdrm" in unit["Environment"]
    screen = unit_options(DEPLOY / "systemd/rummikub-screen.service")
    assert "SDL_VIDEODRIVER=kmsdrm" in screen["Environment"]
    assert "--fullscreen" in screen["ExecStart"][0]
    assert screen["ExecStart"] == [
        "/opt/tablekit/venv/bin/rummikub-screen --config /etc/rummikub/hub.toml --fullscreen"
    ]
    for options in (unit, screen):  # these must keep /dev/gpiochip*, /dev/dri, /dev/input
        for forbidden in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"):
            assert forbidden not in options
        assert options["ProtectSystem"] == ["strict"] and options["NoNewPrivileges"] == ["yes"]
    hub = unit_options(DEPLOY / "systemd/rummikub-hub.service")
    assert "EnvironmentFile" not in hub and "EnvironmentFile" not in screen
    assert hub["ExecStart"] == [
        "/opt/tablekit/venv/bin/rummikub-hub serve --config /etc/rummikub/hub.toml"
    ]
    assert hub["PrivateDevices"] == ["yes"] and "mosquitto.service" in hub["After"][0]
    assert hub["Type"] == ["notify"] and hub["WatchdogSec"] == ["30"]
    web = unit_options(DEPLOY / "systemd/rummikub-web.service")
    assert web["ExecStart"] == [
        "/opt/tablekit/venv/bin/rummikub-web --config /etc/rummikub/hub.toml"
    ]
    assert web["User"] == ["tablekit"] and web["PrivateDevices"] == ["yes"]
    assert web["ReadWritePaths"] == ["-/var/lib/rummikub-hub"]  # the store's WAL, read
    assert "rummikub-hub.service" in web["After"][0] and "EnvironmentFile" not in web
    # Room for [web] connections; the hub and the broker before the console under load.
    assert int(web["LimitNOFILE"][0]) > WEB_CONNECTIONS
    assert web["CPUWeight"] == ["50"] and web["MemoryMax"] == ["256M"]
    dropin = (DEPLOY / "systemd/mosquitto-rummikub.conf").read_text()
    assert "ExecStart=\nExecStart=/usr/sbin/mosquitto -c /etc/mosquitto/rummikub.conf" in dropin
    # The file both read is one that hub.credentials writes: the hub's, the screen's accounts.
    config = parse_hub_config(credentials.hub_toml(TOPICS, 1883, "screen", tables=24))
    assert (config.hub.username, config.screen.username, config.hub.tables) == ("hub", "screen", 24)
    # The web console reads with the screen's account, on this Pi alone until told.
    assert (config.web.username, config.web.password_file) == (
        "screen", "/etc/tablekit/screen-password"
    )
    assert (config.web.host, config.web.port) == ("127.0.0.1", 8080)
    alone = parse_hub_config(credentials.hub_toml(TOPICS, 1883, None, tables=4))
    assert (alone.web.username, alone.web.password_file) == (
        "hub-admin", "/etc/tablekit/admin-password"
    )
    assert credentials.HUB_CONFIG == "/etc/rummikub/hub.toml"


def test_systemd_analyze_verify_accepts_the_units(tmp_path: Path) -> None:
    """systemd's own check when it is installed; the file checks above hold regardless."""
    analyze = shutil.which("systemd-analyze")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    programs = ("tablekit-unit", "rummikub-hub", "rummikub-screen", "rummikub-web",
                "rummikub-league")
    for name in programs:
        exe = bindir / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    copies = []
    for path in UNITS:
        copy = tmp_path / path.name
        copy.write_text(path.read_text().replace("/opt/tablekit/venv/bin/", f"{bindir}/"))
        copies.append(str(copy))
    if analyze is None:
        for copy in copies:  # without systemd: the sections and keys are well formed
            text = Path(copy).read_text()
            assert re.findall(r"^\[(\w+)\]$", text, re.M) == ["Unit", "Service", "Install"]
            assert all(
                re.match(r"^[A-Z][A-Za-z]+=", line)
                for line in text.splitlines()
                if line and not line.startswith(("#", "["))
            )
        return
    result = subprocess.run(
        [analyze, "verify", *copies], check=False, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "Unknown" not in result.stderr and "not safe" not in result.stderr, result.stderr
