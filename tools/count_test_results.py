#!/usr/bin/env python3
"""Counts individual test cases from a Bazel build event file.

Usage: count_test_results.py BUILD_EVENTS.json [BAZEL_EXIT_STATUS]

Reads the JSON build event protocol file of a `bazel test` run (one JSON
object a line) and counts the gtest cases in each test target's test.xml. A
target that failed to build (test or not), or a test that failed without a
test.xml naming a failure (a crash, a timeout), counts as one failed case;
so does a bazel failure (exit status other than 0, 3 "tests failed" and 4 "no
tests") that left no failed target in the events.
Skipped cases (GTEST_SKIP, e.g. the pjrt tests when the PJRT plugin could
not be fetched) count as neither: each target with skips is named with the
number skipped and the first reason.
Prints the failed targets and, as the last line, "N passed, N failed".
Exit status: 0 when nothing failed, 1 otherwise.
"""

import json
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree


def read_events(path):
    with open(path, encoding="utf-8") as events_file:
        for line in events_file:
            line = line.strip()
            if line:
                yield json.loads(line)


def xml_path(test_result):
    for output in test_result.get("testActionOutput", []):
        if output.get("name") == "test.xml":
            uri = output.get("uri", "")
            if uri.startswith("file://"):
                return urllib.parse.unquote(uri[len("file://"):])
    return None


def count_cases(path, skips=None):
    """Returns (passed, failed) test cases of one JUnit XML file.

    Skipped cases count as neither; their reasons go to `skips` (a list).
    """
    passed = failed = 0
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    for case in root.iter("testcase"):
        if case.get("status") == "notrun":
            continue
        skipped = case.find("skipped")
        if case.get("result") == "skipped" or skipped is not None:
            if skips is not None:
                message = "" if skipped is None else skipped.get("message", "")
                skips.append(message.strip().splitlines()[-1]
                             if message.strip() else "no reason given")
            continue
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        else:
            passed += 1
    return passed, failed


class Target:
    def __init__(self):
        self.is_test = False
        self.results = {}  # (run, shard) -> (attempt, testResult)
        self.build_failed = False


def label_of(event_id):
    for kind in ("targetConfigured", "targetCompleted"):
        if kind in event_id:
            return event_id[kind].get("label")
    return None


def collect(events):
    """Maps each target label to what the event stream says about it."""
    targets = {}
    for event in events:
        event_id = event.get("id", {})
        label = label_of(event_id)
        if label is not None:
            target = targets.setdefault(label, Target())
            if "testSize" in event.get("configured", {}):
                target.is_test = True
            if "aborted" in event:
                target.build_failed = True
            if ("completed" in event and
                    not event["completed"].get("success", False)):
                target.build_failed = True
        elif "testResult" in event_id and "testResult" in event:
            result_id = event_id["testResult"]
            target = targets.setdefault(result_id["label"], Target())
            target.is_test = True
            key = (result_id.get("run", 1), result_id.get("shard", 1))
            attempt = result_id.get("attempt", 1)
            previous = target.results.get(key)
            if previous is None or attempt >= previous[0]:
                target.results[key] = (attempt, event["testResult"])
    return targets


def count_target(label, target):
    """Returns (passed, failed) test cases of one target; names failures."""
    if not target.results:
        if target.build_failed:
            print(f"FAILED (did not build): {label}")
            return 0, 1
        return 0, 0
    passed = failed = 0
    skips = []
    for _, result in target.results.values():
        status = result.get("status", "NO_STATUS")
        path = xml_path(result)
        counts = count_cases(path, skips) if path else None
        if counts is None:
            counts = (1, 0) if status == "PASSED" else (0, 1)
        elif status != "PASSED" and counts[1] == 0:
            # Crashed or timed out after the last case it reported.
            counts = (counts[0], 1)
        if status != "PASSED":
            print(f"FAILED ({status}): {label}")
        passed += counts[0]
        failed += counts[1]
    if skips:
        print(f"SKIPPED ({len(skips)} cases, not counted): {label}: {skips[0]}")
    return passed, failed


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    targets = collect(read_events(argv[1]))
    passed = failed = 0
    for label in sorted(targets):
        target_passed, target_failed = count_target(label, targets[label])
        passed += target_passed
        failed += target_failed
    bazel_status = int(argv[2]) if len(argv) == 3 else 0
    if bazel_status not in (0, 3, 4) and failed == 0:
        print(f"FAILED: bazel exited with status {bazel_status}")
        failed = 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
