"""SD cards from a laptop (``rummikub hall cards``, hub/cards.py): every file passes
cloud-init's own checks (Debian's cloud-init: the ``schema`` command for user-data, its
network-config and meta-data parsers), and the first-boot step run into a root takes the
secrets off the card with their modes, then installs the role from the hub's index."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_console import form_token, school_hall, signed_in, text_of

from hub import cli
from hub.cards import CardError, CardSettings, firstboot_script
from hub.config import parse_hub_config
from hub.web.app import make_app
from hub.web.auth import WebRole
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.wheelhouse import main as wheelhouse_main
from hub.wheelhouse import pack_deploy
from tablekit.config import parse_config
from tablekit.core.topics import Topics

ROOT = Path(__file__).resolve().parent.parent
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnly organizer@laptop"
WIFI_PASSWORD = 'zielony "stół" #7'

CLOUD_INIT_CHECK = r"""
import sys
from cloudinit import util
from cloudinit.net import network_state
network = util.load_yaml(open(sys.argv[1], encoding="utf-8").read())
state = network_state.parse_net_config_data(network["network"])
assert state.config == network["network"], state.config  # passed to netplan as it is
meta = util.load_yaml(open(sys.argv[2], encoding="utf-8").read())
assert meta["instance-id"] and meta["local-hostname"], meta
user = util.load_yaml(open(sys.argv[3], encoding="utf-8").read())
print(repr((network["network"]["wifis"]["wlan0"], user["write_files"][0]["content"])))
"""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def netplan_connection(network_config: Path, root: Path) -> str:
    """What netplan (which renders cloud-init's network-config on Raspberry Pi OS) makes of
    it for NetworkManager: its own parser's check."""
    plan = root / "etc/netplan/50-cloud-init.yaml"
    plan.parent.mkdir(parents=True)
    plan.write_bytes(network_config.read_bytes())
    plan.chmod(0o600)
    done = subprocess.run(["netplan", "generate", "--root-dir", str(root)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    (made,) = (root / "run/NetworkManager/system-connections").glob("*.nmconnection")
    return made.read_text()


def make_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> Path:
    wheelhouse = tmp_path / "wheelhouse"
    (wheelhouse / "simple").mkdir(parents=True)
    (wheelhouse / "simple" / "index.html").write_text("<!DOCTYPE html>\n")
    pack_deploy(ROOT, wheelhouse)
    key = tmp_path / "id_ed25519.pub"
    key.write_text(SSH_KEY + "\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(WIFI_PASSWORD + "\n"))
    out = tmp_path / "hall"
    argv = ["--lang", "en", "hall", "cards", "--tables", "3", "--out", str(out),
            "--wifi", "Sala Żółta", "--ssh-key", str(key), "--wheelhouse", str(wheelhouse),
            *extra]
    assert cli.main(argv, out=io.StringIO()) == 0
    return out


def test_every_card_file_passes_cloud_inits_own_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = make_cards(tmp_path, monkeypatch)
    cards = out / "cards"
    assert sorted(p.name for p in cards.iterdir()) == ["hub", "table-01", "table-02", "table-03"]
    for card in cards.iterdir():
        files = {p.name for p in card.iterdir()}
        assert {"user-data", "network-config", "meta-data", "rummikub"} <= files
        schema = subprocess.run(
            ["cloud-init", "schema", "--config-file", str(card / "user-data")],
            capture_output=True, text=True, check=False,
        )
        assert schema.returncode == 0, schema.stdout + schema.stderr
        assert "Valid cloud-config" in schema.stdout
        parsed = subprocess.run(
            ["/usr/bin/python3", "-c", CLOUD_INIT_CHECK, str(card / "network-config"),
             str(card / "meta-data"), str(card / "user-data")],
            capture_output=True, text=True, check=False,
        )
        assert parsed.returncode == 0, parsed.stderr
        wlan, script = eval(parsed.stdout)
        assert wlan["access-points"] == {"Sala Żółta": {"password": WIFI_PASSWORD}}
        assert wlan["regulatory-domain"] == "PL"
        connection = netplan_connection(card / "network-config", tmp_path / card.name)
        assert "ssid=Sala Żółta" in connection and "key-mgmt=wpa-psk" in connection
        assert script == firstboot_script()
        user_data = (card / "user-data").read_text()
        assert f'hostname: "{card.name}"' in user_data
        assert SSH_KEY in user_data and '"Europe/Warsaw"' in user_data
        assert '"pl_PL.UTF-8"' in user_data and '"enable", "--now", "ssh.service"' in user_data
        assert WIFI_PASSWORD not in user_data  # only network-config, scrubbed at first boot
        for path in card.rglob("*"):
            assert mode(path) & 0o077 == 0 or "wheelhouse" in path.parts, path
    role = {"hub": "hub file:///var/lib/rummikub-wheelhouse", "table-02": "unit http://hub.local:8081"}
    for name, start in role.items():
        assert f"ExecStart=/usr/local/sbin/rummikub-firstboot {start} /boot/firmware" in (
            cards / name / "user-data"
        ).read_text()
    table = cards / "table-02" / "rummikub"
    assert sorted(p.name for p in table.iterdir()) == ["mqtt-password", "unit.toml"]
    assert (table / "mqtt-password").read_text() == (
        out / "bundle/units/table-02/mqtt-password"
    ).read_text()
    hub = cards / "hub" / "rummikub"
    assert (hub / "bundle/hub/hub.toml").is_file() and (hub / "wheelhouse/deploy.tar.gz").is_file()
    assert not (hub / "bundle/accounts.tsv").exists()  # every secret stays with the organizer
    assert parse_hub_config((hub / "bundle/hub/hub.toml").read_text()).web.cards == (
        "/etc/rummikub/units"
    )


def test_a_second_run_keeps_every_secret_and_no_ssh_key_means_no_ssh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = make_cards(tmp_path, monkeypatch)
    before = (out / "bundle/accounts.tsv").read_text()
    secret = (out / "cards/table-01/rummikub/mqtt-password").read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))  # an open network
    argv = ["hall", "cards", "--tables", "4", "--out", str(out), "--wifi", "Sala",
            "--wheelhouse", str(tmp_path / "wheelhouse")]
    printed = io.StringIO()
    assert cli.main(argv, out=printed) == 0
    assert "karty" in printed.getvalue()  # Polish by default
    assert (out / "cards/table-01/rummikub/mqtt-password").read_text() == secret
    assert set(before.splitlines()) < set((out / "bundle/accounts.tsv").read_text().splitlines())
    user_data = (out / "cards/table-04/user-data").read_text()
    assert "ssh_authorized_keys" not in user_data
    assert '"disable", "--now", "ssh.service"' in user_data
    assert "password" not in (out / "cards/table-04/network-config").read_text()


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"wifi_password": "short"}, "8 to 63"),
        ({"wifi_country": "pl"}, "two capital letters"),
        ({"user": "Root User"}, "small letters"),
        ({"ssh_key": "-----BEGIN OPENSSH PRIVATE KEY-----"}, "public key"),
        ({"wifi_ssid": "x" * 33}, "1 to 32"),
    ],
)
def test_a_setting_no_pi_can_use_is_named(settings: dict[str, str], named: str) -> None:
    given = {"wifi_ssid": "Sala", "wifi_password": "12345678"} | settings
    with pytest.raises(CardError) as err:
        CardSettings(**given)
    assert named in str(err.value)


def test_the_wifi_password_and_the_wheelhouse_are_asked_for_in_polish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("12345678\n"))
    argv = ["hall", "cards", "--tables", "2", "--out", str(tmp_path / "hall"), "--wifi", "Sala",
            "--wheelhouse", str(tmp_path / "none")]
    assert cli.main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "./kit wheelhouse" in err and "--wheelhouse" in err and "pakiet" in err


def firstboot(card: Path, root: Path, role: str, base: str) -> subprocess.CompletedProcess[str]:
    script = root.parent / "rummikub-firstboot"
    script.write_text(firstboot_script())
    env = {**os.environ, "RUMMIKUB_FIRSTBOOT_ROOT": str(root)}
    return subprocess.run(
        ["sh", str(script), role, base, str(card)], capture_output=True, text=True, env=env,
        check=False,
    )


def test_a_tables_first_boot_takes_the_secrets_off_the_card_and_installs_from_the_hub(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = make_cards(tmp_path, monkeypatch)
    card = out / "cards" / "table-02"
    secret = (card / "rummikub/mqtt-password").read_text()
    root = tmp_path / "pi"
    unreachable = firstboot(card, root, "unit", "http://127.0.0.1:9/none")
    # The hub is not up yet: the secrets are off the card anyway, and it tries again.
    assert unreachable.returncode == 1
    assert "cannot be reached yet" in unreachable.stdout
    assert not (card / "rummikub/mqtt-password").exists()
    assert WIFI_PASSWORD not in (card / "network-config").read_text()
    staged = root / "var/lib/rummikub-firstboot/secrets/mqtt-password"
    assert staged.read_text() == secret and mode(staged) == 0o600
    assert mode(staged.parent) == 0o700

    result = firstboot(card, root, "unit", f"file://{tmp_path / 'wheelhouse'}")
    assert result.returncode == 0, result.stdout + result.stderr
    plan = result.stdout
    installed = root / "etc/tablekit/mqtt-password"
    assert installed.read_text() == secret and mode(installed) == 0o600
    assert "file: /etc/tablekit/mqtt-password tablekit:tablekit 0600" in plan
    parse_config((root / "etc/tablekit/unit.toml").read_text())
    index = f"--index-url file://{tmp_path / 'wheelhouse'}/simple/ rummikub-tablekit\\[unit\\]"
    assert index in plan
    assert "would run: systemctl enable tablekit-unit.service" in plan
    assert not (root / "var/lib/rummikub-firstboot/secrets").exists()
    assert (root / "var/lib/rummikub-firstboot/done").exists()
    assert (root / "opt/tablekit/deploy/provision-unit.sh").is_file()
    assert sorted(p.name for p in (card / "rummikub").iterdir()) == []
    assert secret.strip() not in "".join(p.read_text() for p in card.rglob("*") if p.is_file())


def test_the_hubs_first_boot_installs_its_bundle_and_serves_the_wheelhouse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = make_cards(tmp_path, monkeypatch)
    card = out / "cards" / "hub"
    root = tmp_path / "pi"
    served = root / "var/lib/rummikub-wheelhouse"
    result = firstboot(card, root, "hub", f"file://{served}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert mode(root / "etc/mosquitto/rummikub.passwd") == 0o600
    assert mode(root / "etc/tablekit/hub-password") == 0o600
    unit = root / "etc/rummikub/units/table-03"
    assert mode(unit) == 0o700 and mode(unit / "mqtt-password") == 0o600
    assert (served / "deploy.tar.gz").is_file() and (served / "simple/index.html").is_file()
    assert (root / "etc/systemd/system/rummikub-wheelhouse.service").is_file()
    assert f"--index-url file://{served}/simple/ rummikub-tablekit\\[hub\\]" in result.stdout
    assert "systemctl enable mosquitto.service" in result.stdout
    assert "rummikub-wheelhouse.service" in result.stdout
    assert not (card / "rummikub/bundle").exists() and not (card / "rummikub/wheelhouse").exists()


def cards_console(tmp_path: Path, units: Path | None) -> TestClient:
    db = tmp_path / "event.sqlite3"
    if not db.exists():
        school_hall(db)
    reader = EventReader(db)
    live = LiveTables(None, Topics("hall", "cards"), reader.version)
    return TestClient(make_app(Console(reader, live, cards=units)))


def test_the_organizer_downloads_every_tables_card_as_one_zip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = make_cards(tmp_path, monkeypatch)
    units = out / "bundle" / "units"  # as deploy/provision-hub.sh installs them
    with cards_console(tmp_path, units) as client:
        assert client.get("/organizer/cards", follow_redirects=False).status_code in (303, 401)
        signed_in(client, WebRole.JUDGE)
        assert client.get("/organizer/cards", follow_redirects=False).status_code != 200
    with cards_console(tmp_path, units) as client:
        signed_in(client, WebRole.ORGANIZER)
        page = client.get("/organizer/cards")
        assert page.status_code == 200 and "3 stoliki" in text_of(page.text)
        assert "Karty SD stolików" in client.get("/organizer").text
        form = {"csrf": form_token(page.text), "wifi": "Sala Żółta", "wifi_password": "krótkie",
                "wifi_country": "PL", "host": "hub.local", "ssh_key": ""}
        refused = client.post("/organizer/cards/karty-stolikow.zip", data=form)
        assert refused.status_code == 400
        assert "od 8 do 63 znaków" in text_of(refused.text) and "Sala Żółta" in refused.text
        assert "krótkie" not in refused.text  # a password is never shown back
        for _ in range(2):  # a download leaves the page as it is: the form is sent again
            answer = client.post("/organizer/cards/karty-stolikow.zip",
                                 data=form | {"wifi_password": WIFI_PASSWORD})
            assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "application/zip"
        assert answer.headers["cache-control"] == "no-store"
        with zipfile.ZipFile(io.BytesIO(answer.content)) as zf:
            names = set(zf.namelist())
            secret = zf.read("table-02/rummikub/mqtt-password").decode()
            network = zf.read("table-02/network-config").decode()
        assert {"table-01/user-data", "table-03/meta-data"} <= names
        assert not any(n.startswith("hub/") for n in names)
        assert secret == (units / "table-02/mqtt-password").read_text()
        assert "Sala Żółta" in network and '"zielony \\"stół\\" #7"' in network
    with cards_console(tmp_path, None) as client:
        signed_in(client, WebRole.ORGANIZER)
        assert "laptop" in text_of(client.get("/organizer/cards").text)


def test_the_wheelhouse_command_speaks_polish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        wheelhouse_main(["--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "przygotowane z internetem przed turniejem" in said and "domyślnie obie" in said
