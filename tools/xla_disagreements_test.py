"""Tests of xla_disagreements.py: causes from case names, values, messages."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xla_disagreements  # pylint: disable=wrong-import-position


def case(name, message="wrong result", types=("f32",)):
    return {"name": name, "message": message, "types": list(types),
            "file": "no/such/file.hlotest", "line": 1}


class ClassifyTest(unittest.TestCase):

    def cause(self, *args, **kwargs):
        return xla_disagreements.classify(case(*args, **kwargs))

    def test_named_families(self):
        self.assertIn("Subnormals", self.cause("add.f32.subnormal"))
        self.assertIn("Double rounding",
                      self.cause("convert.f64.bf16.double_rounding"))
        self.assertIn("partly out of bounds",
                      self.cause("scatter.s32.window_partly_out_of_bounds"))
        self.assertIn("popcnt", self.cause("popcnt.s4.values"))

    def test_subnormal_values_in_the_diff(self):
        message = ("wrong result\n  expected: f32[2] {1e-45, 1}\n"
                   "  actual:   f32[2] {0, 1}\n")
        self.assertIn("flushes subnormal",
                      self.cause("convert.f32.f64.values", message))
        # 1e-45 is a normal f64: no flush there.
        self.assertTrue(self.cause("convert.f64.f32.values", message,
                                   types=("f64",)).startswith("unclassified"))

    def test_crashes_and_plugin_errors(self):
        self.assertIn("aborts", self.cause(
            "x.s4.values", "exec: the command crashed (signal 6, SIGABRT)"))
        self.assertIn("refuses it (compile): bad op", self.cause(
            "x.f32.values", "exec: ... stderr: kiln run: pjrt: compile: bad op"))
        self.assertIn("sort of 2-bit values", self.cause(
            "topk.s2.smallest",
            "stderr: kiln run: pjrt: compile: Inputs must have the same shape"))

    def test_unsupported_reason_drops_the_plugins_log(self):
        message = ("exec: the command reports the module unsupported (exit "
                   "77); stderr: WARNING: logs\nI0000 cpu_device_count\n"
                   "kiln run: pjrt: entry parameters of type s1[2] are not "
                   "transferred\n")
        self.assertEqual(
            xla_disagreements.unsupported_reason(case("x.s1.v", message)),
            "pjrt: entry parameters of type s1[2] are not transferred")

    def test_annotate_rewrites_reasons_only(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "x.txt")
            with open(path, "w", encoding="utf-8") as out:
                out.write("# header\nxfail add.f32.subnormal: 1 of 2 differ\n"
                          "unsupported op=recv: no recv\n")
            xla_disagreements.annotate(
                {"cases": [case("add.f32.subnormal")]}, path)
            with open(path, encoding="utf-8") as data:
                lines = data.read().splitlines()
        self.assertEqual(lines[0], "# header")
        self.assertIn("Subnormals", lines[1])
        self.assertEqual(lines[2], "unsupported op=recv: no recv")


if __name__ == "__main__":
    unittest.main()
