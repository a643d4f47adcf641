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
import contextlib
import io
import os
import re
import weakref
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, NamedTuple

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.diagnostics import LocatedError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

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


def section_text(blobs: Blobs, names: list[str]) -> Iterator[str | bytes]:
    """The `{-# dialect_resources ... #-}` section holding `names`' blobs, in pieces (a
    blob's hex is written as it is made, so no text of all of them is held at once; made
    as ASCII bytes, to be written without encoding a copy)."""
    if not names:
        return
    yield "\n{-#\n  dialect_resources: {\n    builtin: {\n"
    for index, name in enumerate(sorted(names)):
        _, _, alignment = blobs.spans[name]
        header = alignment.to_bytes(HEADER_BYTES, "little").hex()
        yield f'      {name}: "0x{header}'
        yield binascii.hexlify(blobs.view(name))
        yield '",\n' if index < len(names) - 1 else '"\n'
    yield "    }\n  }\n#-}\n"


@dataclass
class _SectionReader:
    """Reads the section from the raw file, errors located at `file:line:col`."""

    raw: bytes | bytearray
    name: str
    line_offset: int
    position: int = 0

    def error(
        self, message: str, position: int | None = None, line: tuple[int, int] | None = None
    ) -> LocatedError:
        """The diagnostic at `position`, on the line `line` (its number and start) when the
        text before that line may have been overwritten by decoded blobs."""
        at = self.position if position is None else position
        number, line_start = self.line_of(at) if line is None else line
        return LocatedError(message, f"{self.name}:{number}:{at - line_start + 1}")

    def line_of(self, position: int, after: tuple[int, int] | None = None) -> tuple[int, int]:
        """The number and start of the line holding `position`, counted on from `after`, an
        earlier position's (its line number and the position it was counted at)."""
        number, counted = (1 + self.line_offset, 0) if after is None else after
        number += self.raw.count(b"\n", counted, position)
        return number, self.raw.rfind(b"\n", 0, position) + 1

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
        digits_start = self.position + 2
        # The closing quote is found at memory speed; the digits are checked one by one only
        # when the string is not an even count of at least a header's digits, or when
        # `decoded` finds a character that is not one (a 100 MB blob read a character at a
        # time took a third of a second).
        digits_end = self.raw.find(b'"', digits_start)
        count = digits_end - digits_start
        if digits_end < 0 or count % 2 or count // 2 < HEADER_BYTES:
            digits_end = self._checked_digits(key, start, digits_start)
        self.position = digits_end + 1
        return _HexBlob(key, start, digits_start, digits_end)

    def _checked_digits(
        self, key: str, start: int, digits_start: int, line: tuple[int, int] | None = None
    ) -> int:
        """Where the blob's hex digits end, each checked: a character that is not one, an
        odd count or too few for the header is a diagnostic."""
        digits = _HEX_DIGITS.match(self.raw, digits_start)
        assert digits is not None
        if not self.raw.startswith(b'"', digits.end()):
            raise self.error(
                "malformed hex string: "
                f"{self.raw[digits.end() : digits.end() + 1].decode(errors='replace')!r} "
                "is not a hex digit",
                digits.end(),
                line,
            )
        if (digits.end() - digits.start()) % 2:
            raise self.error("malformed hex string: an odd number of hex digits", start)
        if (digits.end() - digits.start()) // 2 < HEADER_BYTES:
            raise self.error(
                f"blob '{key}' has {(digits.end() - digits.start()) // 2} bytes: a blob "
                f"starts with its {HEADER_BYTES}-byte alignment",
                start,
            )
        return digits.end()

    def decoded(self, hex_blobs: list[_HexBlob]) -> Blobs:
        """The blobs in one buffer, each decoded from its hex straight into its place."""
        sizes: dict[str, tuple[int, int]] = {}
        # Each blob's line (its number and start), for a diagnostic once the blobs before
        # it have been decoded over the text.
        lines: list[tuple[int, int]] = []
        counted: tuple[int, int] | None = None
        for blob in hex_blobs:
            if blob.key in sizes:
                raise self.error(f"resource '{blob.key}' is defined twice", blob.start)
            number, line_start = self.line_of(blob.digits_start, counted)
            lines.append((number, line_start))
            # Counted on past its digits: a blob decoded before the first bad one holds
            # no newline, and the count does not read a model's 100 MB of hex.
            counted = (number, blob.digits_end)
            try:
                header = binascii.unhexlify(
                    self.raw[blob.digits_start : blob.digits_start + 2 * HEADER_BYTES]
                )
            except binascii.Error:
                self._checked_digits(blob.key, blob.start, blob.digits_start)
                raise
            alignment = int.from_bytes(header, "little")
            if alignment == 0 or alignment & (alignment - 1):
                raise self.error(
                    f"blob '{blob.key}' has alignment {alignment}: not a power of 2", blob.start
                )
            size = (blob.digits_end - blob.digits_start) // 2 - HEADER_BYTES
            sizes[blob.key] = (size, alignment)
        blobs = Blobs.allocate(sizes, into=self.raw if isinstance(self.raw, bytearray) else None)
        for blob, line in zip(hex_blobs, lines, strict=True):
            first = blob.digits_start + 2 * HEADER_BYTES
            try:
                with memoryview(self.raw) as digits:
                    decoded = binascii.unhexlify(digits[first : blob.digits_end])
            except binascii.Error:
                self._checked_digits(blob.key, blob.start, blob.digits_start, line)
                raise
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


def _last(raw: bytes | bytearray, text: bytes) -> int:
    """Where `text` last occurs in `raw` (-1: nowhere), found by its first byte forward:
    a search for one byte skips a model's 100 MB of hex at memory speed, one for several
    bytes (or backward) steps through it."""
    last = -1
    at = raw.find(text[:1])
    while at >= 0:
        if raw.startswith(text, at):
            last = at
        at = raw.find(text[:1], at + 1)
    return last


def split(
    raw: bytes | bytearray, name: str, line_offset: int = 0
) -> tuple[bytes | bytearray, Blobs]:
    """The IR before the file's `{-# ... #-}` section, and the section's blobs: in `raw`
    itself when it is a `bytearray` (then no longer the file), in a new buffer else."""
    start = _last(raw, b"{-#")
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


class ReadInput(io.RawIOBase):
    """An input read whole, as a stream that hands `read_all` its buffer itself."""

    def __init__(self, data: bytearray):
        super().__init__()
        self.data = data
        self._position = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        end = len(self.data) if size is None or size < 0 else self._position + size
        chunk = bytes(self.data[self._position : end])
        self._position += len(chunk)
        return chunk

    def readinto(self, buffer: WriteableBuffer) -> int:
        with memoryview(buffer) as target, memoryview(self.data) as source:
            count = min(len(target), len(source) - self._position)
            target[:count] = source[self._position : self._position + count]
        self._position += count
        return count


def read_all(stream: IO[bytes]) -> bytearray:
    """All of `stream`, in a buffer `split` can decode a file's blobs into: a file is read
    straight into it (a model's 100 MB neither read into bytes nor copied)."""
    if isinstance(stream, ReadInput):
        return stream.data
    data = bytearray()
    with contextlib.suppress(OSError, ValueError):  # not a file: a pipe, a BytesIO
        data = bytearray(max(os.fstat(stream.fileno()).st_size - stream.tell(), 0))
    read = stream.readinto(data) if data else 0  # type: ignore[attr-defined]
    del data[read or 0 :]
    while chunk := stream.read(1 << 24):
        data += chunk
    return data
