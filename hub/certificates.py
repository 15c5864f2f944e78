"""A venue's own certificate authority and the web console's certificate, for HTTPS.

``python -m hub.credentials … --https`` adds them to the bundle: the CA (``web/ca.pem``,
the one file a phone, tablet or laptop installs to trust the console; its key
``web/ca-key.pem`` stays with the bundle so that running it again keeps the CA the
devices already trust) and the console's certificate and key (``hub/web-cert.pem``,
``hub/web-key.pem``) naming every host name and address the console is reached by.
Keys are ECDSA P-256, which every phone of the last ten years accepts. The console's
certificate lives :data:`SERVER_DAYS` days (what Apple's devices accept), the CA
:data:`CA_DAYS`.

``cryptography`` is loaded only here, when a bundle is made with ``--https``.
"""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from tablekit.core.errors import KitError
from tablekit.core.words import N_

if TYPE_CHECKING:
    from cryptography import x509

CA_DAYS: Final = 5 * 365
SERVER_DAYS: Final = 397
"""At most 398 days: what Apple's devices take for a server certificate."""


class CertificateError(KitError, ValueError):
    """A certificate that cannot be made (a name that is neither a host name nor an
    address, an unreadable CA)."""


@dataclass(frozen=True)
class Issued:
    """PEM texts: the CA's certificate and key, the console's certificate and key."""

    ca_cert: str
    ca_key: str
    cert: str
    key: str


def _host_names(names: Sequence[str]) -> list[x509.GeneralName]:
    from cryptography import x509

    alternatives: list[x509.GeneralName] = []
    for name in names:
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            label = name.strip().rstrip(".")
            if not label or any(not part or len(part) > 63 for part in label.split(".")) or (
                not all(c.isalnum() or c in "-." for c in label)
            ):
                raise CertificateError(
                    N_("--web-name {name!r}: neither a host name nor an address"), name=name
                ) from None
            alternatives.append(x509.DNSName(label.lower()))
    return alternatives


def issue(
    names: Sequence[str],
    *,
    venue: str,
    ca: tuple[str, str] | None = None,
    now: datetime.datetime | None = None,
) -> Issued:
    """The console's certificate for ``names`` (host names and addresses), signed by
    ``ca`` (its certificate and key, PEM) or by a new CA for ``venue``."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError:
        raise CertificateError(
            N_("--https needs the cryptography package: pip install cryptography")
        ) from None

    if not names:
        raise CertificateError(N_("the web console's certificate needs a host name or address"))
    alternatives = _host_names(names)
    start = (now or datetime.datetime.now(datetime.UTC)) - datetime.timedelta(hours=1)

    def pem_key(key: ec.EllipticCurvePrivateKey) -> str:
        return key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()

    if ca is None:
        ca_usage = x509.KeyUsage(
            digital_signature=False, content_commitment=False, key_encipherment=False,
            data_encipherment=False, key_agreement=False, key_cert_sign=True,
            crl_sign=True, encipher_only=False, decipher_only=False,
        )
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Rummikub tablekit"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Rummikub {venue} CA"),
        ])
        ca_cert = (
            x509.CertificateBuilder()
            .subject_name(ca_name)
            .issuer_name(ca_name)
            .public_key(ca_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start)
            .not_valid_after(start + datetime.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(ca_usage, critical=True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
            )
            .sign(ca_key, hashes.SHA256())
        )
    else:
        try:
            ca_cert = x509.load_pem_x509_certificate(ca[0].encode())
            loaded = serialization.load_pem_private_key(ca[1].encode(), password=None)
        except ValueError as err:
            raise CertificateError(
                N_("the bundle's CA cannot be read: {reason}"), reason=str(err)
            ) from None
        if not isinstance(loaded, ec.EllipticCurvePrivateKey):
            raise CertificateError(N_("the bundle's CA key is not an ECDSA key"))
        ca_key = loaded
    key = ec.generate_private_key(ec.SECP256R1())
    first = str(names[0])
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, first)]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    return Issued(
        ca_cert=ca_cert.public_bytes(serialization.Encoding.PEM).decode(),
        ca_key=pem_key(ca_key),
        cert=cert.public_bytes(serialization.Encoding.PEM).decode(),
        key=pem_key(key),
    )
