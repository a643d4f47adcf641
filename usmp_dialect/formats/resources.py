"""A module's constant data as MLIR keeps large data: the IR names it,
`dense_resource<name> : tensor<...>`, and the file ends with the bytes,

    {-#
      dialect_resources: {
        builtin: {
          name: "0x04000000..."
        }
      }
    #-}

each blob in MLIR's encoding: the hex of a 4-byte little-endian alignment, then of the
bytes. In memory the blobs of a module are one `bytearray` (`Blobs`), read from and written
to the hex text with `binascii` and `memoryview.hex` a blob at a time, never an object an
element. xDSL 0.75 parses `dense_resource` and the section too, but keeps each blob as its
hex text in the builtin dialect, one store for the whole process (a second parse of the
same name renames it `name_0`); here the parser reads the section itself (`split`) and
the blobs belong to their module (`blobs_of`).
"""

from __future__ import annotations

import binascii
import re
import weakref
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, NamedTuple

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.diagnostics import LocatedError

HEADER_BYTES = 4
"""The alignment that starts every blob: a little-endian uint32."""

_SECTION_START = re.compile(rb"\{-#\s*([A-Za-z_][\w$.]*)")
_SPACE = re.compile(rb"\s*")
_KEY = re.compile(rb"[A-Za-z_][\w$.]*")
_HEX_DIGITS = re.compile(rb"[0-9a-fA-F]*")
_NOT_A_KEY_CHARACTER = re.compile(r"[^\w$.]")


@dataclass
class Blobs:
    """A module's blobs, by name: their bytes one after another in `data`."""

    data: bytearray = field(default_factory=bytearray)
    spans: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Per name: offset in `data`, byte count, alignment."""

    @classmethod
    def allocate(cls, sizes: Mapping[str, tuple[int, int]], into: bytearray | None = None) -> Blobs:
        """Room for blobs of `(byte count, alignment)` by name, one after another, to be
        filled in through `view`: a new zeroed buffer, or the front of `into` (a file's
        bytes, each blob decoded over hex already read: a blob's bytes are half its hex,
        so its place ends before the next blob's hex starts)."""
        spans, offset = {}, 0
        for name, (size, alignment) in sizes.items():
            spans[name] = (offset, size, alignment)
            offset += size
        return cls(bytearray(offset) if into is None else into, spans)

    def view(self, name: str) -> memoryview:
        offset, size, _ = self.spans[name]
        return memoryview(self.data)[offset : offset + size]

    @property
    def nbytes(self) -> int:
        return len(self.data)


_MODULE_BLOBS: weakref.WeakKeyDictionary[ModuleOp, Blobs] = weakref.WeakKeyDictionary()


def blobs_of(module: ModuleOp) -> Blobs:
    """The blobs `module`'s `dense_resource`s name (empty when it has none)."""
    blobs = _MODULE_BLOBS.get(module)
    if blobs is None:
        blobs = _MODULE_BLOBS[module] = Blobs()
    return blobs


def set_blobs(module: ModuleOp, blobs: Blobs) -> None:
    _MODULE_BLOBS[module] = blobs


def resource_key(name: str, taken: Collection[str]) -> str:
    """`name` as a resource key the parser reads back (a bare identifier), unique among
    `taken`."""
    key = _NOT_A_KEY_CHARACTER.sub("_", name)
    if not key or not (key[0].isalpha() or key[0] == "_"):
        key = "_" + key
    unique, counter = key, 0
    while unique in taken:
        unique, counter = f"{key}_{counter}", counter + 1
    return unique


def section_text(blobs: Blobs, names: list[str]) -> Iterator[str]:
    """The `{-# dialect_resources ... #-}` section holding `names`' blobs, in pieces (a
    blob's hex is written as it is made, so no text of all of them is held at once)."""
    if not names:
        return
    yield "\n{-#\n  dialect_resources: {\n    builtin: {\n"
    for index, name in enumerate(sorted(names)):
        _, _, alignment = blobs.spans[name]
        header = alignment.to_bytes(HEADER_BYTES, "little").hex()
        yield f'      {name}: "0x{header}'
        yield blobs.view(name).hex()
        yield '",\n' if index < len(names) - 1 else '"\n'
    yield "    }\n  }\n#-}\n"


@dataclass
class _SectionReader:
    """Reads the section from the raw file, errors located at `file:line:col`."""

    raw: bytes | bytearray
    name: str
    line_offset: int
    position: int = 0

    def error(self, message: str, position: int | None = None) -> LocatedError:
        at = self.position if position is None else position
        line_start = self.raw.rfind(b"\n", 0, at) + 1
        line = self.raw.count(b"\n", 0, at) + 1 + self.line_offset
        return LocatedError(message, f"{self.name}:{line}:{at - line_start + 1}")

    def skip_space(self) -> None:
        match = _SPACE.match(self.raw, self.position)
        assert match is not None
        self.position = match.end()

    def expect(self, text: bytes, what: str) -> None:
        self.skip_space()
        if not self.raw.startswith(text, self.position):
            raise self.error(f"expected {what} in the file's dialect_resources section")
        self.position += len(text)

    def optional(self, text: bytes) -> bool:
        self.skip_space()
        if self.raw.startswith(text, self.position):
            self.position += len(text)
            return True
        return False

    def key(self, what: str) -> tuple[str, int]:
        self.skip_space()
        match = _KEY.match(self.raw, self.position)
        if match is None:
            raise self.error(f"expected {what} in the file's dialect_resources section")
        self.position = match.end()
        return match.group().decode(), match.start()

    def blob(self) -> _HexBlob:
        """A blob's name and where its hex digits are, their syntax checked."""
        key, _ = self.key("a resource name")
        self.expect(b":", "':'")
        self.expect(b'"', "a hex string '\"0x...\"'")
        start = self.position - 1
        if not self.raw.startswith(b"0x", self.position):
            raise self.error("malformed hex string: a blob is written '\"0x...\"'", start)
        digits = _HEX_DIGITS.match(self.raw, self.position + 2)
        assert digits is not None
        if not self.raw.startswith(b'"', digits.end()):
            raise self.error(
                "malformed hex string: "
                f"{self.raw[digits.end() : digits.end() + 1].decode(errors='replace')!r} "
                "is not a hex digit",
                digits.end(),
            )
        if (digits.end() - digits.start()) % 2:
            raise self.error("malformed hex string: an odd number of hex digits", start)
        if (digits.end() - digits.start()) // 2 < HEADER_BYTES:
            raise self.error(
                f"blob '{key}' has {(digits.end() - digits.start()) // 2} bytes: a blob "
                f"starts with its {HEADER_BYTES}-byte alignment",
                start,
            )
        self.position = digits.end() + 1
        return _HexBlob(key, start, digits.start(), digits.end())

    def decoded(self, hex_blobs: list[_HexBlob]) -> Blobs:
        """The blobs in one buffer, each decoded from its hex straight into its place."""
        sizes: dict[str, tuple[int, int]] = {}
        for blob in hex_blobs:
            if blob.key in sizes:
                raise self.error(f"resource '{blob.key}' is defined twice", blob.start)
            header = bytes.fromhex(
                self.raw[blob.digits_start : blob.digits_start + 2 * HEADER_BYTES].decode()
            )
            alignment = int.from_bytes(header, "little")
            if alignment == 0 or alignment & (alignment - 1):
                raise self.error(
                    f"blob '{blob.key}' has alignment {alignment}: not a power of 2", blob.start
                )
            size = (blob.digits_end - blob.digits_start) // 2 - HEADER_BYTES
            sizes[blob.key] = (size, alignment)
        blobs = Blobs.allocate(sizes, into=self.raw if isinstance(self.raw, bytearray) else None)
        for blob in hex_blobs:
            first = blob.digits_start + 2 * HEADER_BYTES
            with memoryview(self.raw) as digits:
                decoded = binascii.unhexlify(digits[first : blob.digits_end])
            blobs.view(blob.key)[:] = decoded
        if blobs.data is self.raw:
            del blobs.data[sum(size for size, _ in sizes.values()) :]
        return blobs

    def dialect(self) -> list[_HexBlob]:
        dialect, at = self.key("a dialect name")
        if dialect != "builtin":
            raise self.error(
                f"resources of unknown dialect '{dialect}' (only builtin's are read)", at
            )
        self.expect(b":", "':'")
        self.expect(b"{", "'{'")
        if self.optional(b"}"):
            return []
        found = [self.blob()]
        while self.optional(b","):
            found.append(self.blob())
        self.expect(b"}", "',' or '}'")
        return found


class _HexBlob(NamedTuple):
    key: str
    start: int
    """Where its string starts (for errors)."""
    digits_start: int
    digits_end: int


def split(
    raw: bytes | bytearray, name: str, line_offset: int = 0
) -> tuple[bytes | bytearray, Blobs]:
    """The IR before the file's `{-# ... #-}` section, and the section's blobs: in `raw`
    itself when it is a `bytearray` (then no longer the file), in a new buffer else."""
    start = raw.rfind(b"{-#")
    head = _SECTION_START.match(raw, start) if start >= 0 else None
    if head is None:
        return raw, Blobs()
    reader = _SectionReader(raw, name, line_offset, head.end())
    if head.group(1) != b"dialect_resources":
        raise reader.error(
            f"unknown key '{head.group(1).decode()}' in the file's {{-# ... #-}} section "
            "(dialect_resources is read)",
            head.start(1),
        )
    found: list[_HexBlob] = []
    reader.expect(b":", "':'")
    reader.expect(b"{", "'{'")
    if not reader.optional(b"}"):
        found += reader.dialect()
        while reader.optional(b","):
            found += reader.dialect()
        reader.expect(b"}", "',' or '}'")
    reader.expect(b"#-}", "'#-}'")
    reader.skip_space()
    if reader.position != len(raw):
        raise reader.error("expected the end of the file after the '#-}'")
    ir = raw[:start]
    return ir, reader.decoded(found)


def read_all(stream: IO[bytes]) -> bytearray:
    """All of `stream`, in a buffer `split` can decode a file's blobs into."""
    data = bytearray()
    while chunk := stream.read(1 << 24):
        data += chunk
    return data
