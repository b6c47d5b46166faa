"""Placeholder codec: keyed, deterministic, self-describing tokens.

Shape: ``[[CATEGORY_hhhhhhhhhh]]`` or ``[[CATEGORY_hhhhhhhhhh_vvvv]]``

* ``CATEGORY``: the category name in upper case (tells the model what kind of thing it is).
* ``hhhhhhhhhh``: 10 base32 characters of HMAC-SHA256(org_key, category + canonical term): the
  entity id. The same term always gets the same id under one key, on every replica.
* ``vvvv`` (optional) says which spelling was in the text: ``a<i>`` for alias i as written, or
  ``x<base32>`` for any other spelling (case or Unicode variant): the exact surface string,
  encrypted deterministically with a key derived from org_key (SIV style: a 40-bit HMAC tag of
  the surface is the nonce of an HMAC-SHA256 counter-mode keystream, and is checked on decode).

Nothing in a placeholder reveals a term to someone without the key, and any replica holding the
key and the dictionary maps every placeholder back to the exact original text.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

ID_CHARS = 10
TAG_BYTES = 5
_B32 = "a-z2-7"
PATTERN = re.compile(
    rf"\[\[([A-Z][A-Z0-9]{{0,31}})_([{_B32}]{{{ID_CHARS}}})(?:_(a[1-9][0-9]{{0,5}}|x[{_B32}]{{9,1400}}))?\]\]"
)
MAX_LENGTH = 2 + 32 + 1 + ID_CHARS + 2 + 1400 + 2


def b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


def unb32(text: str) -> bytes:
    return base64.b32decode(text.upper() + "=" * (-len(text) % 8))


class PlaceholderCodec:
    def __init__(self, org_key: bytes) -> None:
        self._id_key = hmac.new(org_key, b"rmask/v1/id", hashlib.sha256).digest()
        self._tag_key = hmac.new(org_key, b"rmask/v1/tag", hashlib.sha256).digest()
        self._stream_key = hmac.new(org_key, b"rmask/v1/stream", hashlib.sha256).digest()

    def entity_id(self, category: str, term: str) -> str:
        message = f"{category}\x00{term}".encode()
        return b32(hmac.new(self._id_key, message, hashlib.sha256).digest())[:ID_CHARS]

    def token(self, category: str, entity_id: str, variant: str = "") -> str:
        suffix = f"_{variant}" if variant else ""
        return f"[[{category.upper()}_{entity_id}{suffix}]]"

    def seal(self, entity_id: str, surface: str) -> str:
        """The `x...` variant for a spelling that is neither the term nor one of its aliases."""
        plain = surface.encode("utf-8")
        tag = hmac.new(self._tag_key, f"{entity_id}\x00".encode() + plain, hashlib.sha256)
        nonce = tag.digest()[:TAG_BYTES]
        return "x" + b32(nonce + _xor(plain, self._keystream(entity_id, nonce, len(plain))))

    def open(self, entity_id: str, variant: str) -> str | None:
        """Inverse of `seal`; None when the tag does not verify (not ours, or altered)."""
        try:
            raw = unb32(variant[1:])
        except ValueError:
            return None
        nonce, cipher = raw[:TAG_BYTES], raw[TAG_BYTES:]
        plain = _xor(cipher, self._keystream(entity_id, nonce, len(cipher)))
        tag = hmac.new(self._tag_key, f"{entity_id}\x00".encode() + plain, hashlib.sha256)
        if not hmac.compare_digest(tag.digest()[:TAG_BYTES], nonce):
            return None
        try:
            return plain.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def _keystream(self, entity_id: str, nonce: bytes, length: int) -> bytes:
        blocks = []
        seed = entity_id.encode() + nonce
        for counter in range((length + 31) // 32):
            message = seed + counter.to_bytes(4, "big")
            blocks.append(hmac.new(self._stream_key, message, hashlib.sha256).digest())
        return b"".join(blocks)[:length]


def _xor(data: bytes, stream: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))
