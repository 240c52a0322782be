"""tsan_reports.py, which scripts/sanitizers.sh thread judges its reports with: a report whose every access is
inside a ``Mutex.withLock`` body is put down to TSan not seeing that lock; any other report is a finding."""

from __future__ import annotations

import tsan_reports


def report(current: str, previous: str) -> str:
    """A ThreadSanitizer report in the shape the runtime writes, with the two accesses' innermost frames."""
    return f"""==================
WARNING: ThreadSanitizer: Swift access race (pid=1)
  Modifying access of Swift variable at 0x720c0028d358 by thread T24:
    #0 {current} /src/File.swift:14:26 (tests.xctest+0x599982a)
    #1 swift::runJobInEstablishedExecutorContext(swift::Job*) crtstuff.c (libswift_Concurrency.so+0x71e5f)

  Previous write of size 1 at 0x720c0028d358 by thread T2:
    #0 {previous} /src/File.swift:9:27 (tests.xctest+0x599727)
    #1 swift::runJobInEstablishedExecutorContext(swift::Job*) crtstuff.c (libswift_Concurrency.so+0x71e5f)

SUMMARY: ThreadSanitizer: Swift access race /src/File.swift in {current}
==================
"""


# `withLock` bodies on a non-Sendable state: `(sending inout State) -> sending ()`.
RECORDER_BODY = "$s12JSONRPCTests8RecorderC6recordyyxFySayxGzYuYTXEfU_"
# `withLock` bodies on a Sendable state (a tuple of Ints): the compiler leaves `sending` off the parameter,
# `(inout (current: Int, peak: Int)) -> sending ()`.
GAUGE_ENTER_BODY = "$s12JSONRPCTests5GaugeC5enteryyFySi7current_Si4peaktz_tYTXEfU_"
GAUGE_LEAVE_BODY = "$s12JSONRPCTests5GaugeC5leaveyyFySi7current_Si4peaktz_tYTXEfU_"
# A plain method: no lock at all.
POP_FIRST = "$s7JSONRPC9FIFOQueueV8popFirstxSgyF"


def test_accesses_inside_with_lock_bodies_are_put_down_to_the_mutex():
    mutex, findings, _ = tsan_reports.classify([report(RECORDER_BODY, RECORDER_BODY)])
    assert sum(mutex.values()) == 1 and not findings


def test_a_with_lock_body_on_sendable_state_is_one_too():
    mutex, findings, _ = tsan_reports.classify([report(GAUGE_LEAVE_BODY, GAUGE_ENTER_BODY)])
    assert sum(mutex.values()) == 1 and not findings


def test_an_access_outside_any_lock_is_a_finding():
    mutex, findings, examples = tsan_reports.classify([report(POP_FIRST, GAUGE_ENTER_BODY)])
    assert not mutex and sum(findings.values()) == 1 and len(examples) == 1
