"""Tests of count_test_results.py on hand-made build event files."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import count_test_results  # pylint: disable=wrong-import-position

GTEST_XML = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="4" failures="1">
  <testsuite name="S" tests="4">
    <testcase name="a" status="run" result="completed"/>
    <testcase name="b" status="run" result="completed">
      <failure message="boom"/>
    </testcase>
    <testcase name="c" status="run" result="completed"/>
    <testcase name="DISABLED_d" status="notrun" result="suppressed"/>
  </testsuite>
</testsuites>
"""


class CountTestResultsTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.events = []

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        return path

    def configured(self, label, test=True):
        payload = {"targetKind": "cc_test rule"}
        if test:
            payload["testSize"] = "MEDIUM"
        self.events.append({"id": {"targetConfigured": {"label": label}},
                            "configured": payload})

    def completed(self, label, success):
        self.events.append({"id": {"targetCompleted": {"label": label}},
                            "completed": {"success": success}})

    def result(self, label, status, xml=None, attempt=1):
        outputs = []
        if xml is not None:
            outputs.append({"name": "test.xml", "uri": "file://" + xml})
        self.events.append({
            "id": {"testResult": {"label": label, "run": 1, "shard": 1,
                                  "attempt": attempt}},
            "testResult": {"status": status, "testActionOutput": outputs}})

    def run_counter(self, *extra):
        path = self.write("events.json",
                          "\n".join(json.dumps(e) for e in self.events))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = count_test_results.main(["prog", path, *extra])
        return status, out.getvalue().splitlines()

    def test_counts_gtest_cases_and_skips_disabled_ones(self):
        self.configured("//a:t")
        self.result("//a:t", "FAILED", self.write("t.xml", GTEST_XML))
        status, lines = self.run_counter()
        self.assertEqual(lines[-1], "2 passed, 1 failed")
        self.assertEqual(status, 1)

    def test_skipped_cases_are_named_and_not_counted_as_passed(self):
        # GoogleTest 1.12's XML for GTEST_SKIP (the pjrt tests without a
        # plugin).
        xml = self.write("s.xml", """<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3">
  <testsuite name="P" tests="3" skipped="2">
    <testcase name="a" status="run" result="completed"/>
    <testcase name="b" status="run" result="skipped">
      <skipped message="p.cc:9&#x0A;skipped: no plugin"/>
    </testcase>
    <testcase name="c" status="run" result="skipped">
      <skipped message="p.cc:12&#x0A;skipped: no plugin"/>
    </testcase>
  </testsuite>
</testsuites>
""")
        self.configured("//b:pjrt")
        self.result("//b:pjrt", "PASSED", xml)
        status, lines = self.run_counter()
        self.assertIn(
            "SKIPPED (2 cases, not counted): //b:pjrt: skipped: no plugin",
            lines)
        self.assertEqual(lines[-1], "1 passed, 0 failed")
        self.assertEqual(status, 0)

    def test_target_that_did_not_build_counts_as_one_failure(self):
        self.configured("//a:ok")
        self.result("//a:ok", "PASSED", self.write("ok.xml", GTEST_XML.replace(
            '<failure message="boom"/>', "")))
        self.configured("//a:broken")
        self.completed("//a:broken", False)
        self.configured("//a:lib", test=False)
        self.completed("//a:lib", True)
        status, lines = self.run_counter()
        self.assertIn("FAILED (did not build): //a:broken", lines)
        self.assertEqual(lines[-1], "3 passed, 1 failed")
        self.assertEqual(status, 1)

    def test_crash_without_failures_in_xml_counts_as_failure(self):
        self.configured("//a:crash")
        xml = self.write("c.xml", GTEST_XML.replace(
            '<failure message="boom"/>', ""))
        self.result("//a:crash", "FAILED", xml)
        _, lines = self.run_counter()
        self.assertEqual(lines[-1], "3 passed, 1 failed")

    def test_missing_xml_counts_by_status(self):
        self.configured("//a:t")
        self.result("//a:t", "PASSED")
        self.configured("//a:u")
        self.result("//a:u", "TIMEOUT")
        _, lines = self.run_counter()
        self.assertEqual(lines[-1], "1 passed, 1 failed")

    def test_last_attempt_of_a_flaky_test_wins(self):
        self.configured("//a:flaky")
        self.result("//a:flaky", "FAILED", attempt=1)
        self.result("//a:flaky", "PASSED", attempt=2)
        status, lines = self.run_counter()
        self.assertEqual(lines[-1], "1 passed, 0 failed")
        self.assertEqual(status, 0)

    def test_bazel_failure_without_failed_target_counts(self):
        status, lines = self.run_counter("2")
        self.assertEqual(lines[-1], "0 passed, 1 failed")
        self.assertEqual(status, 1)
        status, lines = self.run_counter("4")  # No tests: not a failure.
        self.assertEqual(lines[-1], "0 passed, 0 failed")
        self.assertEqual(status, 0)


if __name__ == "__main__":
    unittest.main()
