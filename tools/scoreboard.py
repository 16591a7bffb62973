#!/usr/bin/env python3
"""Generates docs/scoreboard.md: the conformance suite, op x element type,
on Kiln's reference evaluator, Kiln's cpu backend and XLA's own CPU plugin
(through the pjrt backend), side by side.

Usage (from the repository root, after `bazel build -c opt //tools:kiln`
and tools/setup.sh):

  tools/scoreboard.py                      # runs the three suites, writes
                                           # docs/scoreboard.md
  tools/scoreboard.py --reports=DIR        # reuses the report.json files
                                           # under DIR/<backend>/ of an
                                           # earlier run (shards are merged)
  tools/scoreboard.py --update_expectations  # also rewrites XLA's
                                           # expectations file, each
                                           # disagreement with its cause
                                           # (tools/xla_disagreements.py)

Each run is `kiln conform --report=DIR/<backend> --expectations=FILE
spec_tests` with the backend's expectations file, XLA's with --isolate
(its compiler aborts on a few modules). A cell reads `passed/ran`: cases
that ran and passed (expected failures count as not passed), and
`+N unsup.` for cases the backend does not support.
"""

import argparse
import json
import os
import subprocess
import sys

import xla_disagreements

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, column title, --backend, extra flags, expectations file.
BACKENDS = [
    ("reference", "reference", "reference", [],
     "spec_tests/expectations/reference.txt"),
    ("cpu", "cpu", "cpu", [], "spec_tests/expectations/cpu.txt"),
    ("xla-cpu", "XLA CPU (pjrt)",
     "pjrt:third_party/pjrt/lib/xla_cpu_plugin.so,cpu_device_count=8",
     ["--isolate"], "spec_tests/expectations/pjrt-xla-cpu.txt"),
]


def run_suites(kiln, reports, jobs, update):
    for name, _, backend, flags, expectations in BACKENDS:
        out = os.path.join(reports, name)
        os.makedirs(out, exist_ok=True)
        command = [kiln, "conform", f"--backend={backend}",
                   f"--report={out}", f"--jobs={jobs}"] + flags
        if update and name == "xla-cpu":
            command += [f"--expectations={expectations}",
                        "--update_expectations"]
        elif os.path.exists(os.path.join(ROOT, expectations)):
            command.append(f"--expectations={expectations}")
        command.append("spec_tests")
        print("scoreboard:", " ".join(command), file=sys.stderr)
        # Exit status 1 only says that something was not as expected.
        subprocess.run(command, cwd=ROOT, check=False,
                       stdout=subprocess.DEVNULL)


def merge(parts):
    """One report from several (the shards of a sharded run)."""
    merged = {"summary": {}, "matrix": {}, "cases": [],
              "columns": parts[0]["columns"], "seconds": 0}
    for part in parts:
        for key, value in part["summary"].items():
            merged["summary"][key] = merged["summary"].get(key, 0) + value
        merged["cases"] += part.get("cases", [])
        merged["seconds"] = max(merged["seconds"], part.get("seconds", 0))
        for op, types in part["matrix"].items():
            for column, counts in types.items():
                into = merged["matrix"].setdefault(op, {}).setdefault(
                    column, {})
                for key, value in counts.items():
                    if isinstance(value, int):
                        into[key] = into.get(key, 0) + value
    return merged


def load(reports):
    """Each backend's report: every report.json under DIR/<backend>/."""
    loaded = {}
    for name, *_ in BACKENDS:
        parts = []
        for directory, _, files in sorted(os.walk(os.path.join(reports,
                                                               name))):
            if "report.json" in files:
                with open(os.path.join(directory, "report.json"),
                          encoding="utf-8") as data:
                    parts.append(json.load(data))
        if not parts:
            raise FileNotFoundError(f"no report.json under {reports}/{name}")
        loaded[name] = merge(parts)
    return loaded


def ran(counts):
    return counts["total"] - counts["unsupported"]


def cell(counts):
    if counts is None or counts["total"] == 0:
        return ""
    text = f"{counts['passed']}/{ran(counts)}" if ran(counts) else "-"
    if counts["unsupported"]:
        text += f" +{counts['unsupported']} unsup."
    if ran(counts) and counts["passed"] == ran(counts):
        return text
    return f"**{text}**" if ran(counts) else text


def add(total, counts):
    for key in ("total", "passed", "unsupported"):
        total[key] = total.get(key, 0) + counts[key]


def render(reports, note=""):
    names = [name for name, *_ in BACKENDS]
    titles = [title for _, title, *_ in BACKENDS]
    lines = [
        "# Scoreboard: the conformance suite on reference, cpu and XLA's "
        "CPU plugin",
        "",
        "Generated by `tools/scoreboard.py` (do not edit). Each cell is "
        "`passed/ran` for the cases of that op and element type (expected "
        "failures count as not passed; **bold**: not all pass), and "
        "`+N unsup.` counts the cases the backend does not support. XLA "
        "CPU is XLA's own CPU compiler through Kiln's `pjrt` backend "
        "(`lammps-jax-pjrt-cpu==0.11.2`, StableHLO from `kiln export`); "
        "its disagreements with the spec, with their causes, are in "
        "`spec_tests/expectations/pjrt-xla-cpu.txt`.",
        "",
    ] + ([note, ""] if note else []) + [
        "## Totals",
        "",
        "| backend | passed | failed | expected failures | unsupported | "
        "total | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, title in zip(names, titles):
        s = reports[name]["summary"]
        lines.append(
            f"| {title} | {s['passed']} | {s['failed']} | "
            f"{s['expected_failures']} | {s['unsupported']} | {s['total']} "
            f"| {reports[name].get('seconds', 0):.0f} |")
    ops = sorted(set().union(*(reports[n]["matrix"].keys() for n in names)))
    columns = reports[names[0]]["columns"]
    lines += ["", "## By op", "", "| op | " + " | ".join(titles) + " |",
              "|---|" + "---|" * len(names)]
    for op in ops:
        row = []
        for name in names:
            total = {}
            for counts in reports[name]["matrix"].get(op, {}).values():
                add(total, counts)
            row.append(cell(total) if total else "")
        lines.append(f"| {op} | " + " | ".join(row) + " |")
    rows = []
    full = 0
    for op in ops:
        for column in columns:
            counts = [reports[n]["matrix"].get(op, {}).get(column)
                      for n in names]
            if all(c is None for c in counts):
                continue
            if all(c is None or (c["unsupported"] == 0 and
                                 c["passed"] == c["total"]) for c in counts):
                full += 1
                continue
            rows.append(f"| {op} | {column} | " +
                        " | ".join(cell(c) for c in counts) + " |")
    lines += ["", "## By op and element type", "",
              f"The {full} op x element type pairs where every backend runs "
              "and passes every case are left out; these are the others.", "",
              "| op | type | " + " | ".join(titles) + " |",
              "|---|---|" + "---|" * len(names)] + rows
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kiln", default=os.path.join(ROOT, "bazel-bin",
                                                       "tools", "kiln"))
    parser.add_argument("--reports", help="reuse the reports under DIR")
    parser.add_argument("--work", default="/tmp/kiln-scoreboard")
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--update_expectations", action="store_true")
    parser.add_argument("--note", default="",
                        help="a paragraph on where the runs come from")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs",
                                                      "scoreboard.md"))
    args = parser.parse_args(argv[1:])
    reports = args.reports
    if reports is None:
        reports = args.work
        run_suites(args.kiln, reports, args.jobs, args.update_expectations)
    loaded = load(reports)
    if args.update_expectations:
        xla_disagreements.annotate(loaded["xla-cpu"],
                                   os.path.join(ROOT, BACKENDS[2][4]))
    text = render(loaded, args.note)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(text)
    print(f"scoreboard: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
