"""Small file systems for storage faults: a tmpfs the test mounts (and can remount read-only, or fill), and
the immutable attribute as a fallback for read-only data.

Root ignores permission bits, so ``chmod 0500`` does not make a directory read-only for the tests CI runs
as root; a read-only mount (or ``chattr +i``) does. Everything here undoes itself in ``finally`` blocks of
the callers; :meth:`Tmpfs.unmount` falls back to a lazy unmount if a process still has the mount open.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterable, List, Optional


def run(argv: List[str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=20)


class Tmpfs:
    """A tmpfs of ``size`` (e.g. ``"2m"``) mounted on ``target``."""

    _probe: Optional[str] = None  # cached unavailable_reason() ("" when mounting works)

    def __init__(self, target: Path, size: str) -> None:
        self.target = Path(target)
        self.size = size
        self.mounted = False

    @classmethod
    def unavailable_reason(cls) -> str:
        """Why no tmpfs can be mounted here ("" when it can): not root, no mount(8), or no CAP_SYS_ADMIN."""
        if cls._probe is None:
            cls._probe = cls._find_unavailable_reason()
        return cls._probe

    @classmethod
    def _find_unavailable_reason(cls) -> str:
        if os.geteuid() != 0:
            return "mounting a tmpfs needs root (running as uid %d)" % os.geteuid()
        if not shutil.which("mount") or not shutil.which("umount"):
            return "mount(8)/umount(8) not installed"
        probe = Path("/tmp/movie-rpc-faults-probe-%d" % os.getpid())
        probe.mkdir(exist_ok=True)
        try:
            result = run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", str(probe)])
            if result.returncode != 0:
                return "cannot mount a tmpfs here: %s" % result.stdout.strip()
            run(["umount", str(probe)])
            return ""
        finally:
            try:
                probe.rmdir()
            except OSError:
                pass

    def mount(self) -> None:
        result = run(["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % self.size, "tmpfs", str(self.target)])
        assert result.returncode == 0, "mount tmpfs on %s failed: %s" % (self.target, result.stdout)
        self.mounted = True

    def remount(self, read_only: bool) -> None:
        option = "remount,ro" if read_only else "remount,rw"
        result = run(["mount", "-o", option, str(self.target)])
        assert result.returncode == 0, "mount -o %s %s failed: %s" % (option, self.target, result.stdout)

    def free_bytes(self) -> int:
        stat = os.statvfs(self.target)
        return stat.f_bavail * stat.f_frsize

    def unmount(self) -> None:
        if not self.mounted:
            return
        result = run(["umount", str(self.target)])
        if result.returncode != 0:
            run(["umount", "-l", str(self.target)])
        self.mounted = False


def fill(directory: Path, name: str = "filler") -> Path:
    """Writes a file in ``directory`` until the file system is full (ENOSPC); returns its path."""
    path = Path(directory) / name
    chunk = b"\xa5" * 65536
    with open(path, "wb", buffering=0) as handle:
        while True:
            try:
                handle.write(chunk)
            except OSError:
                break
        # The last partial blocks: byte by byte in shrinking pieces.
        for size in (4096, 512, 1):
            while True:
                try:
                    if handle.write(b"\xa5" * size) == 0:
                        break
                except OSError:
                    break
    return path


class Immutable:
    """``chattr +i`` on paths (a fallback for read-only data where mounting is impossible)."""

    def __init__(self, paths: Iterable[Path]) -> None:
        self.paths = [Path(p) for p in paths]
        self.applied: List[Path] = []

    @staticmethod
    def unavailable_reason(probe_dir: Path) -> str:
        if not shutil.which("chattr"):
            return "chattr not installed"
        probe = Path(probe_dir) / ".immutable-probe"
        probe.write_bytes(b"")
        try:
            result = run(["chattr", "+i", str(probe)])
            if result.returncode != 0:
                return "chattr +i not supported here: %s" % result.stdout.strip()
            run(["chattr", "-i", str(probe)])
            return ""
        finally:
            probe.unlink()

    def apply(self) -> None:
        for path in self.paths:
            result = run(["chattr", "+i", str(path)])
            assert result.returncode == 0, "chattr +i %s: %s" % (path, result.stdout)
            self.applied.append(path)

    def undo(self) -> None:
        for path in reversed(self.applied):
            run(["chattr", "-i", str(path)])
        self.applied = []
