#!/usr/bin/env python3
"""Sorts ThreadSanitizer reports into real findings and reports on Mutex-guarded state.

    python3 Tests/faults/tsan_reports.py REPORT_FILE_OR_DIR...

On Linux, TSan cannot see the lock of Swift's ``Synchronization.Mutex``: the Synchronization library ships
uninstrumented and locks with a raw futex, so two threads taking turns inside ``mutex.withLock { … }`` look
to TSan like unsynchronized accesses (docs/RELIABILITY.md, "Sanitizers", has a 15-line reproducer). A report
is put down to that when every access it shows (the current one and the previous one) happens inside the
body of a ``withLock``: a closure of type ``(sending inout State) -> sending Result``, as the demangled
frames say (``(inout State) -> sending Result`` when the state is Sendable: the compiler leaves that
``sending`` off). Everything else is a finding.

Prints a summary per report location; exits 1 if there is any finding, else 0.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

ACCESS = re.compile(r"^\s+(Read|Write|Atomic read|Atomic write|Modifying access|Read-only access|Previous)\b")
FRAME = re.compile(r"^\s+#(\d+) (\S+)(?: (\S+))?")
WITH_LOCK_BODY = re.compile(r"closure #\d+ \((?:sending )?inout .+?\) -> sending ")
FRAMES_PER_ACCESS = 3  # the access itself and the closure(s) it sits in


def demangle(symbols: List[str]) -> Dict[str, str]:
    if not symbols:
        return {}
    try:
        output = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(symbols), text=True,
                                capture_output=True, timeout=60).stdout.splitlines()
    except (OSError, subprocess.TimeoutExpired):
        return {symbol: symbol for symbol in symbols}
    return dict(zip(symbols, output)) if len(output) == len(symbols) else {s: s for s in symbols}


def reports(text: str) -> List[str]:
    return [block for block in text.split("==================") if "WARNING: ThreadSanitizer" in block]


def accesses(report: str) -> List[List[str]]:
    """The frames (symbols) of each access block of a report."""
    blocks: List[List[str]] = []
    current = None
    for line in report.splitlines():
        if ACCESS.match(line):
            current = []
            blocks.append(current)
        elif not line.strip():
            current = None
        elif current is not None:
            frame = FRAME.match(line)
            if frame and int(frame.group(1)) < FRAMES_PER_ACCESS:
                current.append(frame.group(2))
    return blocks


def classify(texts: List[str]) -> Tuple[Dict[str, int], Dict[str, int], List[str]]:
    all_reports = [r for text in texts for r in reports(text)]
    symbols = sorted({s for r in all_reports for block in accesses(r) for s in block})
    names = demangle(symbols)
    mutex: Dict[str, int] = {}
    findings: Dict[str, int] = {}
    examples: List[str] = []
    for report in all_reports:
        summary = next((line for line in report.splitlines() if line.startswith("SUMMARY:")), "SUMMARY: ?")
        where = re.sub(r" in \S+$", "", summary.replace("SUMMARY: ThreadSanitizer: ", ""))
        blocks = accesses(report)
        guarded = bool(blocks) and all(any(WITH_LOCK_BODY.search(names.get(s, s)) for s in block)
                                       for block in blocks)
        target = mutex if guarded else findings
        target[where] = target.get(where, 0) + 1
        if not guarded and len(examples) < 3:
            examples.append(report.strip())
    return mutex, findings, examples


def main(argv: List[str]) -> int:
    paths: List[Path] = []
    for argument in argv:
        path = Path(argument)
        paths += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    texts = [p.read_text(errors="replace") for p in paths if p.exists()]
    mutex, findings, examples = classify(texts)
    print("TSan reports on Mutex-guarded state (TSan cannot see Synchronization.Mutex): %d" % sum(mutex.values()))
    for where, count in sorted(mutex.items(), key=lambda item: -item[1]):
        print("  %4d  %s" % (count, where))
    print("TSan findings: %d" % sum(findings.values()))
    for where, count in sorted(findings.items(), key=lambda item: -item[1]):
        print("  %4d  %s" % (count, where))
    for example in examples:
        print("\n" + example)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
