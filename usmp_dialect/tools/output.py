"""Writing a command's outputs (`-o`, `--constants-out`, a directory of files, standard
output) together, once the whole command has succeeded, as Unix tools treat files.

Each output is staged while the command runs and written at the end: a regular file (or a
new one) through a temporary file beside it renamed over it, so a failure never leaves a
half-written output (nor an empty one) behind; a symlink's target as that target is
treated, the link kept; a device, FIFO or socket opened and written directly (renaming
over it would replace, say, /dev/null with a regular file). Every temporary file is
written before any output is touched, so one output that cannot be written leaves the
others as they were. A directory of outputs (`--emit-c DIR`, `--svg DIR`) is the user's:
the command writes its own files into it and touches no other; a file where the directory
should be, or a read-only directory, is a diagnostic.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from usmp_dialect.diagnostics import LocatedError

STDOUT_NAME = "<stdout>"


def _cannot_write(path: str, error: OSError) -> LocatedError:
    return LocatedError(f"cannot write the output: {error.strerror}", path)


def _target(path: str) -> tuple[str, os.stat_result | None]:
    """The file `path` names, its links followed, and its status (None: not there yet)."""
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        return target, os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as error:
        raise _cannot_write(path, error) from None


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


Content = str | bytes | bytearray | Iterable[str | bytes]
"""An output: text, bytes, or text in pieces (str, or bytes of ASCII), made as they are
written (a model's blobs in hex: never all at once)."""


def _write_all(descriptor: int, content: Content) -> None:
    with os.fdopen(descriptor, "wb") as file:
        if isinstance(content, bytes | bytearray):
            file.write(content)
        else:
            for piece in [content] if isinstance(content, str) else content:
                file.write(piece.encode() if isinstance(piece, str) else piece)


@dataclass
class _Replacement:
    """A regular file's new content, written to `temporary` beside it."""

    path: str
    target: str
    temporary: str


@dataclass
class StagedOutputs:
    """The outputs of one command, held until `commit`."""

    files: dict[str | None, Content] = field(default_factory=dict)
    """Content by path; None is standard output."""
    directories: set[str] = field(default_factory=set)
    """Directories created at commit when missing."""
    named: set[object] = field(default_factory=set)
    """The files `files` names, each however spelled (`_identity`)."""

    def add(self, path: str | None, content: Content) -> None:
        """`content` for `path` (None or `-`: standard output)."""
        if path == "-":
            path = None
        identity = None if path is None else _identity(path)
        if identity in self.named:
            where = path or STDOUT_NAME
            raise LocatedError("two outputs of the command would go to this file", where)
        self.named.add(identity)
        self.files[path] = content

    def add_in_directory(self, directory: str, name: str, content: Content) -> None:
        """`content` for file `name` of `directory`, which is created when missing."""
        self.directories.add(directory)
        self.add(os.path.join(directory, name), content)

    def commit(self) -> None:
        created: list[str] = []
        replacements: list[_Replacement] = []
        try:
            for directory in sorted(self.directories):
                created += _make_directories(directory)
                _check_writable_directory(directory)
            direct: list[tuple[str | None, Content]] = []
            for path, content in self.files.items():
                if path is None:
                    direct.append((None, content))
                    continue
                target, status = _target(path)
                if status is None or stat.S_ISREG(status.st_mode):
                    replacements.append(_temporary_beside(path, target, status, content))
                elif stat.S_ISDIR(status.st_mode):
                    raise LocatedError("cannot write the output: it is a directory", path)
                else:
                    direct.append((path, content))
            for path, content in direct:
                _write_directly(path, content)
            for replacement in replacements:
                try:
                    os.replace(replacement.temporary, replacement.target)
                except OSError as error:
                    raise _cannot_write(replacement.path, error) from None
        except BaseException:
            for replacement in replacements:
                if os.path.lexists(replacement.temporary):
                    os.unlink(replacement.temporary)
            for directory in reversed(created):
                os.rmdir(directory)
            raise


def _identity(path: str) -> object:
    """The file `path` names, the same for every spelling of it (`./out`, a link to it):
    its device and inode when it is there, else its path with links resolved."""
    try:
        status = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (status.st_dev, status.st_ino)


def _make_directories(directory: str) -> list[str]:
    """The missing directories on the way to `directory` created, outermost first; a file
    (or a dangling link) in the way is a diagnostic, never replaced."""
    missing = []
    path = os.path.normpath(directory)  # as the user spelled it, for the diagnostic
    while path and not os.path.isdir(path):
        if os.path.lexists(path):
            raise LocatedError("cannot write into the directory: it is not a directory", path)
        missing.append(path)
        path = os.path.dirname(path)
    created: list[str] = []
    try:
        for path in reversed(missing):
            os.mkdir(path)
            created.append(path)
    except OSError as error:
        for path in reversed(created):
            os.rmdir(path)
        raise LocatedError(f"cannot create the directory: {error.strerror}", directory) from None
    return created


def _check_writable_directory(directory: str) -> None:
    """A read-only directory refused as a read-only file is (root included, who could
    write it): its files are the user's."""
    status = os.stat(directory)
    if not os.access(directory, os.W_OK) or not status.st_mode & stat.S_IWUSR:
        raise LocatedError("cannot write into the directory: it is read-only", directory)


def _temporary_beside(
    path: str, target: str, status: os.stat_result | None, content: Content
) -> _Replacement:
    if status is not None and (not os.access(target, os.W_OK) or not status.st_mode & stat.S_IWUSR):
        raise LocatedError("cannot write the output: the file is read-only", path)
    mode = stat.S_IMODE(status.st_mode) if status is not None else _new_file_mode()
    directory, name = os.path.split(os.path.abspath(target))
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
    except OSError as error:
        raise _cannot_write(path, error) from None
    try:
        _write_all(descriptor, content)
        os.chmod(temporary, mode)
    except BaseException as error:
        os.unlink(temporary)
        if isinstance(error, OSError):
            raise _cannot_write(path, error) from None
        raise
    return _Replacement(path, target, temporary)


def _write_directly(path: str | None, content: Content) -> None:
    """Standard output, or a file that is not a regular one (a device, a FIFO)."""
    if path is None:
        if sys.stdout is None:  # the shell closed it (`>&-`)
            raise LocatedError("cannot write the output: standard output is closed", STDOUT_NAME)
        for piece in [content] if isinstance(content, str | bytes | bytearray) else content:
            if isinstance(piece, str):
                sys.stdout.write(piece)
            else:
                sys.stdout.flush()
                sys.stdout.buffer.write(piece)
        sys.stdout.flush()
        return
    try:
        # No O_CREAT: it exists, and is not a regular file; O_NOCTTY: a terminal device
        # must not become this process's controlling terminal.
        descriptor = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        _write_all(descriptor, content)
    except OSError as error:
        raise _cannot_write(path, error) from None


@contextmanager
def staged_outputs() -> Iterator[StagedOutputs]:
    """The outputs a command stages, written when it ends without an exception."""
    outputs = StagedOutputs()
    yield outputs
    outputs.commit()


def write_output(path: str | None, content: Content) -> None:
    """`content` to standard output when `path` is None or `-`, else to the file `path`, as
    `StagedOutputs.commit` writes it (for a command with one output)."""
    with staged_outputs() as outputs:
        outputs.add(path, content)
