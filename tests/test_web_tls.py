"""HTTPS for the web console: the credentials bundle makes the venue's CA and the
console's certificate (``python -m hub.credentials --https``), the hub's config file
names them, and ``rummikub-web`` serves TLS that verifies against the bundle's CA — and
against nothing else.

Real uvicorn on a loopback port, real TLS (Python's ssl), an event made by the
organizer's command line.
"""

from __future__ import annotations

import datetime
import http.client
import ssl
from pathlib import Path

import pytest
from cryptography import x509
from web_console import school_hall

from hub import credentials
from hub.broker import free_port
from hub.certificates import SERVER_DAYS, CertificateError, issue
from hub.config import HubConfigError, parse_hub_config
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread
from tablekit.core.topics import Topics

TOPICS = Topics("hall", "tls")


def bundle(out: Path, *extra: str) -> int:
    return credentials.main(["--tables", "2", "--venue", "hall", "--event", "cup",
                             "--out", str(out), *extra])


def get(port: int, context: ssl.SSLContext, path: str = "/standings") -> tuple[int, str]:
    conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read().decode("utf-8")
    finally:
        conn.close()


def test_the_console_serves_https_that_verifies_against_the_bundles_ca(tmp_path: Path) -> None:
    out = tmp_path / "bundle"
    assert bundle(out, "--https", "--web-name", "hub.local", "--web-name", "127.0.0.1") == 0
    ca, cert, key = out / "web/ca.pem", out / "hub/web-cert.pem", out / "hub/web-key.pem"
    for path in (ca, cert, key, out / "web/ca-key.pem"):
        assert path.stat().st_mode & 0o777 == 0o600, path
    issued = x509.load_pem_x509_certificate(cert.read_bytes())
    names = issued.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["hub.local"]
    assert [str(a) for a in names.get_values_for_type(x509.IPAddress)] == ["127.0.0.1"]
    assert issued.not_valid_after_utc - issued.not_valid_before_utc <= datetime.timedelta(
        days=SERVER_DAYS
    )
    config = parse_hub_config((out / "hub/hub.toml").read_text())
    assert (config.web.certificate, config.web.key) == (credentials.WEB_CERT, credentials.WEB_KEY)

    hall = school_hall(tmp_path / "event.sqlite3")
    reader = EventReader(hall.db)
    console = Console(reader, LiveTables(None, TOPICS, reader.version))
    server = ConsoleThread(console, "127.0.0.1", free_port(), certificate=cert, key=key)
    server.start()
    try:
        assert server.url.startswith("https://127.0.0.1:")
        trusting = ssl.create_default_context(cafile=str(ca))
        status, page = get(server.port, trusting)
        assert status == 200 and "Klasyfikacja" in page
        with pytest.raises(ssl.SSLCertVerificationError):
            get(server.port, ssl.create_default_context())  # the system's CAs: not trusted
        plain = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        with pytest.raises((http.client.HTTPException, ConnectionError)):
            plain.request("GET", "/standings")  # plain HTTP gets no page
            plain.getresponse()
        plain.close()
    finally:
        server.stop()
        reader.close()

    # Again: the devices that trust the CA keep trusting the console; --rotate: a new CA.
    assert bundle(out, "--https", "--web-name", "192.168.50.1") == 0
    assert (out / "web/ca.pem").read_bytes() == ca.read_bytes()
    renewed = x509.load_pem_x509_certificate(cert.read_bytes())
    assert renewed.issuer == issued.issuer and renewed.serial_number != issued.serial_number
    authority = x509.load_pem_x509_certificate(ca.read_bytes())
    renewed.verify_directly_issued_by(authority)
    first_ca = ca.read_bytes()
    assert bundle(out, "--https", "--rotate") == 0
    assert ca.read_bytes() != first_ca


def test_certificate_and_key_go_together_and_names_are_checked() -> None:
    with pytest.raises(HubConfigError, match="certificate and key: give both"):
        parse_hub_config('[web]\ncertificate = "/etc/rummikub/web-cert.pem"\n')
    with pytest.raises(CertificateError, match="neither a host name nor an address"):
        issue(["hub local"], venue="hall")
    with pytest.raises(CertificateError, match="needs a host name or address"):
        issue([], venue="hall")


def test_without_https_the_bundle_has_no_certificate(tmp_path: Path) -> None:
    out = tmp_path / "bundle"
    assert bundle(out) == 0
    assert not (out / "web").exists() and not (out / "hub/web-cert.pem").exists()
    config = parse_hub_config((out / "hub/hub.toml").read_text())
    assert config.web.certificate is None and config.web.key is None
    with pytest.raises(SystemExit):
        bundle(out, "--web-name", "hub.local")  # only with --https
