"""The one way every command writes a file, under the rule handoff_bench keeps for its results file.

- No directory is made that the user did not name: a missing one is an error, since it is more
  often a typing slip than a wish.
- A path that exists and is not a regular file (a directory, a device, a symlink) is refused:
  writing through it would replace or feed something that is not this command's output.
- The new file takes the old one's place whole (a temporary file, made exclusively in the same
  directory, then os.replace): a reader never sees half a file, and a write that fails leaves the
  old one as it was.

Each fault is an OutputError whose message starts with the path: the commands print it as their
one line on stderr and exit 2.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


class OutputError(ValueError):
    """An output path that cannot or must not be written; the message names it and why."""


def check_output_file(path: str | Path) -> Path:
    """path, when a command may write it; checked before the work, so that a slip costs nothing."""
    path = Path(path)
    parent = path.parent
    if not parent.is_dir():
        raise OutputError(f"{path}: cannot write: no such directory: {parent}")
    try:
        found = path.lstat()
    except FileNotFoundError:
        return path
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror}") from error
    if not stat.S_ISREG(found.st_mode):
        raise OutputError(f"{path}: cannot write: exists and is not a regular file")
    return path


def check_output_folder(path: str | Path) -> Path:
    """path, a folder for a command's files: made when missing, but not the folders above it."""
    path = Path(path)
    if not path.parent.is_dir():
        raise OutputError(f"{path}: cannot make: no such directory: {path.parent}")
    try:
        path.mkdir(exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{path}: exists and is not a directory") from None
    except OSError as error:
        raise OutputError(f"{path}: cannot make: {error.strerror}") from error
    if not path.is_dir():
        raise OutputError(f"{path}: exists and is not a directory")
    return path


def _mode_for(path: Path) -> int:
    """The old file's permissions, or what open() would have given a new one."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(path: str | Path, text: str) -> None:
    """Writes text (UTF-8) to path, replacing the file whole."""
    path = check_output_file(path)
    mode = _mode_for(path)
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror}") from error
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as written:
            written.write(text)
            written.flush()
            os.fsync(written.fileno())  # on disk before it has the name: a crash leaves one whole
            os.fchmod(written.fileno(), mode)
        os.replace(temporary, path)
    except BaseException as error:  # Ctrl-C and SIGTERM too: no temporary is left behind
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(f"{path}: cannot write: {error.strerror}") from error
        raise
