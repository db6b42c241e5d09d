"""Minecraft's NBT (Named Binary Tag), read from a gzipped file: what schematic files are made of.

A small reader of our own rather than a library: the three formats need only decoding, its
arrays come out as numpy arrays (a 100k-block file reads in milliseconds), and the tests' files
are written by independent writers (nbtlib, litemapy), so a shared misreading cannot hide.
Tags become Python values: compounds dicts, lists lists, strings str, numbers int or float,
byte/int/long arrays numpy arrays (big-endian, signed, as the format stores them).
"""

from __future__ import annotations

import gzip
import struct
import zlib
from typing import Any

import numpy as np

from agent.blueprint.errors import FORMATS_READ, BlueprintError

GZIP_MAGIC = b"\x1f\x8b"
# Tag ids (the NBT specification's numbering).
END, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BYTE_ARRAY, STRING, LIST, COMPOUND, INT_ARRAY, LONG_ARRAY = range(13)
_NUMBERS = {BYTE: struct.Struct(">b"), SHORT: struct.Struct(">h"), INT: struct.Struct(">i"),
            LONG: struct.Struct(">q"), FLOAT: struct.Struct(">f"), DOUBLE: struct.Struct(">d")}
_ARRAYS = {BYTE_ARRAY: np.dtype(">i1"), INT_ARRAY: np.dtype(">i4"), LONG_ARRAY: np.dtype(">i8")}
_LENGTH = struct.Struct(">i")
_NAME_LENGTH = struct.Struct(">H")


def read_gzipped_nbt(data: bytes) -> dict[str, Any]:
    """The root compound of a gzipped NBT file; BlueprintError when it is not one."""
    if not data.startswith(GZIP_MAGIC):
        raise BlueprintError(f"is not gzip-compressed NBT, as {FORMATS_READ} are")
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as e:
        raise BlueprintError(f"is a damaged gzip file ({e})") from None
    try:
        return _Reader(raw).root()
    except (struct.error, IndexError, ValueError, UnicodeDecodeError) as e:
        raise BlueprintError(f"is not well-formed NBT ({e})") from None


class _Reader:
    def __init__(self, raw: bytes) -> None:
        self.raw = memoryview(raw)
        self.at = 0

    def root(self) -> dict[str, Any]:
        tag = self._byte()
        if tag != COMPOUND:
            raise ValueError(f"its root tag is {tag}, not a compound")
        self._string()  # the root's name: "", or "Schematic" in Sponge v1/v2
        return self._payload(COMPOUND)

    def _take(self, n: int) -> memoryview:
        if n < 0 or self.at + n > len(self.raw):
            raise ValueError(f"it ends early (wanted {n} bytes at offset {self.at})")
        chunk = self.raw[self.at:self.at + n]
        self.at += n
        return chunk

    def _byte(self) -> int:
        return self._take(1)[0]

    def _string(self) -> str:
        (n,) = _NAME_LENGTH.unpack(self._take(2))
        return bytes(self._take(n)).decode("utf-8")

    def _payload(self, tag: int) -> Any:
        if tag in _NUMBERS:
            number = _NUMBERS[tag]
            return number.unpack(self._take(number.size))[0]
        if tag in _ARRAYS:
            (n,) = _LENGTH.unpack(self._take(4))
            dtype = _ARRAYS[tag]
            return np.frombuffer(self._take(n * dtype.itemsize), dtype=dtype)
        if tag == STRING:
            return self._string()
        if tag == LIST:
            item = self._byte()
            (n,) = _LENGTH.unpack(self._take(4))
            return [self._payload(item) for _ in range(n)]
        if tag == COMPOUND:
            fields = {}
            while (inner := self._byte()) != END:
                name = self._string()
                fields[name] = self._payload(inner)
            return fields
        raise ValueError(f"unknown tag type {tag} at offset {self.at}")
