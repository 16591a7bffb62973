"""Tests of scoreboard.py: merged shards and the rendered tables."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scoreboard  # pylint: disable=wrong-import-position


def counts(passed, total, unsupported=0):
    return {"passed": passed, "failed": total - passed - unsupported,
            "expected_failures": 0, "unexpected_passes": 0,
            "unsupported": unsupported, "total": total, "state": "x"}


def report(matrix):
    summary = {"passed": 0, "failed": 0, "expected_failures": 0,
               "unsupported": 0, "total": 0, "unexpected_passes": 0}
    for types in matrix.values():
        for c in types.values():
            for key in summary:
                summary[key] += c[key]
    return {"summary": summary, "matrix": matrix, "columns": ["s32", "f32"],
            "cases": [], "seconds": 1}


class ScoreboardTest(unittest.TestCase):

    def test_merge_adds_shards(self):
        merged = scoreboard.merge([
            report({"add": {"f32": counts(2, 2)}}),
            report({"add": {"f32": counts(1, 2)}, "abs": {"s32": counts(1, 1)}}),
        ])
        self.assertEqual(merged["summary"]["passed"], 4)
        self.assertEqual(merged["matrix"]["add"]["f32"]["total"], 4)
        self.assertEqual(merged["matrix"]["abs"]["s32"]["passed"], 1)

    def test_render_lists_only_pairs_not_fully_passing(self):
        full = report({"add": {"f32": counts(2, 2), "s32": counts(1, 1)}})
        xla = report({"add": {"f32": counts(1, 2), "s32": counts(0, 1, 1)}})
        text = scoreboard.render({"reference": full, "cpu": full,
                                  "xla-cpu": xla})
        self.assertIn("| add | 3/3 | 3/3 | **1/2 +1 unsup.** |", text)
        self.assertIn("| add | f32 | 2/2 | 2/2 | **1/2** |", text)
        self.assertIn("| add | s32 | 1/1 | 1/1 | - +1 unsup. |", text)
        self.assertIn("The 0 op x element type pairs", text)


if __name__ == "__main__":
    unittest.main()
