"""Players' public keys: the OpenSSH one-line form parsed and its structure checked, and
the fingerprint as ``ssh-keygen -l`` prints it.

A door that faces the internet knows a person by the public key they authenticate with;
this module only reads keys (from ``mykerinos players add``'s file, or the blob a client
presents) and refuses, in words, any that is malformed, of a type not allowed, or too
weak. It does not verify signatures, which is the SSH library's job at the door.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Final

from saves.text import quoted

KEY_TYPES: Final = (
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "ssh-rsa",
)
"""The public key types a player may use (the line's first word, and the blob's own)."""
ECDSA_POINT_BYTES: Final = {"nistp256": 65, "nistp384": 97, "nistp521": 133}
"""An uncompressed curve point's length (0x04, then x and y), per curve."""
ED25519_KEY_BYTES: Final = 32
MIN_RSA_BITS: Final = 2048
"""Shorter RSA keys are refused: this door faces the internet."""
MAX_KEY_LINE: Final = 8192
"""Characters of one key line (a 16384-bit RSA key is about 2,800)."""
MAX_KEYS_TEXT: Final = 256 * 1024
"""Characters of a key file."""


class PlayersError(ValueError):
    """A key, a name or a code that cannot be used; ``str`` is a sentence saying why."""


@dataclass(frozen=True)
class Key:
    """A player's public key: ``line`` is its OpenSSH form without the comment
    (``ssh-ed25519 AAAA…``), ``fingerprint`` as ``ssh-keygen -l`` prints it
    (``SHA256:…``), ``added`` when it was added (a ``time.time()``)."""

    line: str
    fingerprint: str
    comment: str = ""
    added: float = 0.0

    @property
    def kind(self) -> str:
        """The key's type (``ssh-ed25519``…)."""
        return self.line.split(" ", 1)[0]

    @property
    def blob(self) -> bytes:
        """The key in the SSH wire format (what a client presents)."""
        return base64.b64decode(self.line.split(" ", 1)[1])

    @classmethod
    def parse(cls, line: str, added: float = 0.0) -> Key:
        """The key of one OpenSSH public key line (``TYPE BASE64 [COMMENT]``); raises
        :class:`PlayersError` saying what is wrong with it."""
        if len(line) > MAX_KEY_LINE:
            raise PlayersError(f"a key line is longer than {MAX_KEY_LINE} characters")
        words = line.strip().split(None, 2)
        if len(words) < 2:
            raise PlayersError(f"{quoted(line.strip())} is not a key line (TYPE BASE64 COMMENT)")
        kind, encoded = words[0], words[1]
        if kind not in KEY_TYPES:
            raise PlayersError(
                f"{quoted(kind)} is not a key type a player may use ({', '.join(KEY_TYPES)})"
            )
        try:
            blob = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise PlayersError(f"the {kind} key is not valid base64") from None
        check_blob(blob, kind)
        comment = words[2].strip() if len(words) > 2 else ""
        return cls(key_line(blob), fingerprint(blob), comment, added)

    def __str__(self) -> str:
        return f"{self.line} {self.comment}" if self.comment else self.line


def parse_keys(text: str, added: float = 0.0) -> list[Key]:
    """The keys of an OpenSSH public key file: one per line; blank lines and lines
    starting with ``#`` are skipped. Raises :class:`PlayersError` naming the first bad
    line, or when there is no key at all."""
    if len(text) > MAX_KEYS_TEXT:
        raise PlayersError(f"the key file is longer than {MAX_KEYS_TEXT} characters")
    keys: list[Key] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            keys.append(Key.parse(line, added))
        except PlayersError as exc:
            raise PlayersError(f"line {number}: {exc}") from None
    if not keys:
        raise PlayersError("no public key found (an OpenSSH .pub file has lines ssh-ed25519 …)")
    return keys


def key_line(blob: bytes) -> str:
    """The OpenSSH line of a key's wire blob, without a comment (checked: raises
    :class:`PlayersError`)."""
    kind = _fields(blob)[0].decode("ascii", "replace")
    check_blob(blob, kind)
    return f"{kind} {base64.b64encode(blob).decode('ascii')}"


def fingerprint(blob: bytes) -> str:
    """``SHA256:`` and the key's SHA-256 in unpadded base64, as OpenSSH prints it."""
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii").rstrip("=")
    return f"SHA256:{digest}"


def check_blob(blob: bytes, kind: str) -> None:
    """Raise :class:`PlayersError` unless ``blob`` is a well-formed public key of
    ``kind`` (its own type string equal to ``kind``, its fields of the right sizes)."""
    fields = _fields(blob)
    own = fields[0].decode("ascii", "replace")
    if own != kind:
        raise PlayersError(f"the key says it is {quoted(own)}, its line says {kind}")
    if kind == "ssh-ed25519":
        if len(fields) != 2 or len(fields[1]) != ED25519_KEY_BYTES:
            raise PlayersError("the ssh-ed25519 key is not 32 bytes")
    elif kind.startswith("ecdsa-sha2-"):
        curve = kind.removeprefix("ecdsa-sha2-")
        if len(fields) != 3 or fields[1] != curve.encode():
            raise PlayersError(f"the {kind} key is not on the curve {curve}")
        if len(fields[2]) != ECDSA_POINT_BYTES[curve] or fields[2][:1] != b"\x04":
            raise PlayersError(f"the {kind} key's point is not a {curve} point")
    elif kind == "ssh-rsa":
        if len(fields) != 3:
            raise PlayersError("the ssh-rsa key does not have an exponent and a modulus")
        bits = int.from_bytes(fields[2], "big").bit_length()
        if bits < MIN_RSA_BITS:
            raise PlayersError(f"the ssh-rsa key has {bits} bits (at least {MIN_RSA_BITS})")
    else:
        raise PlayersError(f"{quoted(kind)} is not a key type a player may use")


def _fields(blob: bytes) -> list[bytes]:
    """The length-prefixed strings of an SSH wire blob, all of it."""
    fields, at = [], 0
    while at < len(blob):
        size = int.from_bytes(blob[at : at + 4], "big")
        if at + 4 + size > len(blob):
            raise PlayersError("the key's bytes are cut short (not an SSH public key)")
        fields.append(blob[at + 4 : at + 4 + size])
        at += 4 + size
    if not fields:
        raise PlayersError("the key is empty")
    return fields
