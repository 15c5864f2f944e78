"""SD cards from a laptop: the cloud-init files that set a Raspberry Pi OS Lite 64-bit
(Trixie) card up as a table unit or as the hub on its first boot.

Each card is a folder copied onto the card's FAT boot partition: ``user-data`` (the Pi's
name, a user with an SSH key or none, time zone, locale pl_PL, and the first-boot service
``hub/firstboot.sh``), ``network-config`` (the venue's Wi-Fi), ``meta-data`` (the
instance), and ``rummikub/`` with what the first boot moves into place and scrubs off
the card: a table's config and broker secret, the hub's whole credentials bundle and the
wheelhouse it serves to the hall. A table installs the kit from the hub's package index;
the hub from the wheelhouse on its own card.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from tablekit.core.errors import KitError
from tablekit.core.words import N_

WHEELHOUSE_PORT: Final = 8081
"""Where the hub serves its package index (deploy/systemd/rummikub-wheelhouse.service)."""
HUB_WHEELHOUSE: Final = "/var/lib/rummikub-wheelhouse"
FIRSTBOOT: Final = "/usr/local/sbin/rummikub-firstboot"
FIRSTBOOT_SERVICE: Final = "/etc/systemd/system/rummikub-firstboot.service"
BOOT: Final = "/boot/firmware"
HUB_CARD: Final = "hub"
SECRET_FILES: Final = ("mqtt-password",)
"""What the first boot takes off a table's card (with ``unit.toml``)."""
LEFT_WITH_ORGANIZER: Final = ("accounts.tsv", "web/ca-key.pem")
"""Bundle files that never go onto a card: every secret in one list, the CA's key."""

_SSID_BYTES = 32
_USER = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
_SSH_KEY = re.compile(
    r"(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-\S+) [A-Za-z0-9+/=]+( [^\n]*)?"
)


class CardError(KitError, ValueError):
    """A card setting that cannot work on a Pi (named, with what to give instead)."""


@dataclass(frozen=True)
class CardSettings:
    """What every card of a hall shares: the network, the login, the place."""

    wifi_ssid: str
    wifi_password: str
    wifi_country: str = "PL"
    user: str = "rummikub"
    ssh_key: str = ""
    """One public key line (``ssh-ed25519 AAAA… name``); empty: no SSH at all."""
    hub_host: str = "hub.local"
    timezone: str = "Europe/Warsaw"
    locale: str = "pl_PL.UTF-8"

    def __post_init__(self) -> None:
        ssid = len(self.wifi_ssid.encode())
        if not 1 <= ssid <= _SSID_BYTES or "\n" in self.wifi_ssid:
            raise CardError(N_("the Wi-Fi's name (SSID) has 1 to 32 characters on one line"))
        if self.wifi_password and not 8 <= len(self.wifi_password) <= 63:
            raise CardError(
                N_("a Wi-Fi password (WPA2) has 8 to 63 characters, this one {n}; "
                   "leave it empty for an open network"),
                n=len(self.wifi_password),
            )
        if self.wifi_password and not self.wifi_password.isprintable():
            raise CardError(N_("the Wi-Fi password holds a character that cannot be typed"))
        if not re.fullmatch(r"[A-Z]{2}", self.wifi_country):
            raise CardError(
                N_("the Wi-Fi's country is two capital letters (PL), not {country}"),
                country=repr(self.wifi_country),
            )
        if not _USER.fullmatch(self.user):
            raise CardError(
                N_("the user's name {user}: small letters, digits, '_' and '-', starting "
                   "with a letter, at most 32"),
                user=repr(self.user),
            )
        if self.ssh_key and not _SSH_KEY.fullmatch(self.ssh_key.strip()):
            raise CardError(
                N_("the SSH key is one line of a public key file (id_ed25519.pub: "
                   "ssh-ed25519 AAAA…), not the private key")
            )
        if not re.fullmatch(r"[A-Za-z0-9.-]{1,253}", self.hub_host):
            raise CardError(N_("the hub's address {host}: a host name or an IP address"),
                            host=repr(self.hub_host))

    @property
    def index(self) -> str:
        """The hub's package index, as the tables reach it."""
        return f"http://{self.hub_host}:{WHEELHOUSE_PORT}"


# --- YAML, written with every string quoted as JSON (a subset of YAML): nothing a name or
# password holds can change the document's meaning.


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _key(key: object) -> str:
    return str(key) if _PLAIN_KEY.fullmatch(str(key)) else _scalar(key)


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)


def _block(value: object, indent: int) -> Iterator[str]:
    pad = " " * indent
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(item, Mapping | list) and item:
                yield f"{pad}{_key(key)}:"
                yield from _block(item, indent + 2)
            elif _literal(item):
                text = str(item)
                yield f"{pad}{_key(key)}: |{'' if text.endswith(chr(10)) else '-'}"
                yield from (f"{pad}  {line}" if line else "" for line in text.splitlines())
            else:
                yield f"{pad}{_key(key)}: {_flow(item)}"
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping) and item:
                first, *rest = _block(item, indent + 2)
                yield f"{pad}- {first.lstrip()}"
                yield from rest
            else:
                yield f"{pad}- {_flow(item)}"


def _literal(value: object) -> bool:
    """A script or a unit file: a literal block, kept readable on the card."""
    return (
        isinstance(value, str) and "\n" in value and value[:1] not in (" ", "\n")
        and "\r" not in value and "\t" not in value
    )


def _flow(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    return _scalar(value)


def yaml_text(doc: Mapping[str, object], header: str = "") -> str:
    return header + "\n".join(_block(doc, 0)) + "\n"


# --- the three files --------------------------------------------------------------------------


def firstboot_script() -> str:
    return resources.files("hub").joinpath("firstboot.sh").read_text(encoding="utf-8")


def _firstboot_service(role: str, base: str) -> str:
    return f"""\
[Unit]
Description=Rummikub: this Pi set up from its card and the hub (first boot)
Wants=network-online.target
After=network-online.target cloud-final.service
ConditionPathExists=!/var/lib/rummikub-firstboot/done
StartLimitIntervalSec=0

[Service]
Type=oneshot
ExecStart={FIRSTBOOT} {role} {base} {BOOT}
Restart=on-failure
RestartSec=30
TimeoutStartSec=30min

[Install]
WantedBy=multi-user.target
"""


def _written(path: str, permissions: str, content: str) -> dict[str, str]:
    return {"path": path, "owner": "root:root", "permissions": permissions, "content": content}


def user_data(hostname: str, role: str, settings: CardSettings) -> str:
    """The cloud-config of one card (``role``: unit or hub)."""
    base = settings.index if role == "unit" else f"file://{HUB_WHEELHOUSE}"
    user: dict[str, object] = {
        "name": settings.user,
        "groups": "adm,sudo,users,video,gpio,input,dialout",
        "shell": "/bin/bash",
        "lock_passwd": True,
    }
    if settings.ssh_key:
        user["sudo"] = "ALL=(ALL) NOPASSWD:ALL"
        user["ssh_authorized_keys"] = [settings.ssh_key.strip()]
    ssh = "enable" if settings.ssh_key else "disable"
    doc: dict[str, object] = {
        "hostname": hostname,
        "manage_etc_hosts": True,
        "timezone": settings.timezone,
        "locale": settings.locale,
        "keyboard": {"layout": "pl", "model": "pc105"},
        "users": [user],
        "ssh_pwauth": False,
        "disable_root": True,
        "write_files": [
            _written(FIRSTBOOT, "0755", firstboot_script()),
            _written(FIRSTBOOT_SERVICE, "0644", _firstboot_service(role, base)),
        ],
        "runcmd": [
            ["systemctl", ssh, "--now", "ssh.service"],
            ["systemctl", "enable", "--now", "--no-block", "rummikub-firstboot.service"],
        ],
    }
    return yaml_text(doc, "#cloud-config\n")


def network_config(settings: CardSettings) -> str:
    """Netplan version 2 for the Wi-Fi, rendered for NetworkManager as Raspberry Pi OS runs it."""
    point: dict[str, object] = {}
    if settings.wifi_password:
        point["password"] = settings.wifi_password
    doc = {
        "network": {
            "version": 2,
            "renderer": "NetworkManager",
            "wifis": {
                "wlan0": {
                    "dhcp4": True,
                    "optional": True,
                    "regulatory-domain": settings.wifi_country,
                    "access-points": {settings.wifi_ssid: point},
                }
            },
        }
    }
    return yaml_text(doc)


def meta_data(hostname: str) -> str:
    """A new instance id for every card written: a card written again sets itself up anew."""
    return yaml_text(
        {"instance-id": f"rummikub-{hostname}-{secrets.token_hex(4)}", "local-hostname": hostname}
    )


def _card(name: str, role: str, settings: CardSettings) -> dict[str, str]:
    return {
        f"{name}/user-data": user_data(name, role, settings),
        f"{name}/network-config": network_config(settings),
        f"{name}/meta-data": meta_data(name),
    }


def table_cards(units: Mapping[str, Mapping[str, str]], settings: CardSettings) -> dict[str, str]:
    """Every table's card: ``units`` maps a table's account (``table-07``) to its bundle
    files (``unit.toml``, ``mqtt-password``)."""
    files: dict[str, str] = {}
    for name, own in sorted(units.items()):
        files |= _card(name, "unit", settings)
        files |= {f"{name}/rummikub/{rel}": text for rel, text in own.items()}
    return files


def hub_card(bundle: Mapping[str, str], settings: CardSettings) -> dict[str, str]:
    """The hub's card: the bundle but what stays with the organizer (the wheelhouse is
    copied beside it by :func:`write_cards`)."""
    files = _card(HUB_CARD, "hub", settings)
    for rel, text in sorted(bundle.items()):
        if rel not in LEFT_WITH_ORGANIZER:
            files[f"{HUB_CARD}/rummikub/bundle/{rel}"] = text
    return files


def units_of(bundle: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The tables' own files of a bundle (``units/table-07/…``), by account."""
    units: dict[str, dict[str, str]] = {}
    for rel, text in bundle.items():
        parts = rel.split("/")
        if len(parts) == 3 and parts[0] == "units":
            units.setdefault(parts[1], {})[parts[2]] = text
    return units


def read_units(folder: Path) -> dict[str, dict[str, str]]:
    """The tables' own files installed on the hub (``/etc/rummikub/units/table-07/…``)."""
    units: dict[str, dict[str, str]] = {}
    for table in sorted(p for p in folder.iterdir() if p.is_dir()):
        units[table.name] = {
            f.name: f.read_text(encoding="utf-8") for f in sorted(table.iterdir()) if f.is_file()
        }
    return {name: own for name, own in units.items() if "unit.toml" in own}


def write_cards(files: Mapping[str, str], out: Path, wheelhouse: Path | None = None) -> None:
    """Every card's files under ``out`` (private: they hold secrets); ``wheelhouse``
    copied onto the hub's card."""
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o700)
    for rel, text in files.items():
        path = out / rel
        for parent in reversed(Path(rel).parents[:-1]):
            (out / parent).mkdir(mode=0o700, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)
    if wheelhouse is not None:
        _copy_tree(wheelhouse, out / HUB_CARD / "rummikub" / "wheelhouse")


def _copy_tree(src: Path, dest: Path) -> None:
    for path in sorted(src.rglob("*")):
        target = dest / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())


def zip_of(files: Mapping[str, str]) -> bytes:
    """The cards as one zip (the web console's download)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, text in sorted(files.items()):
            zf.writestr(rel, text)
    return buf.getvalue()


def card_names(files: Iterable[str]) -> list[str]:
    return sorted({rel.split("/", 1)[0] for rel in files})
