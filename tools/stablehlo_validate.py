#!/usr/bin/env python3
"""Checks that StableHLO text parses and verifies with MLIR (offline).

usage: tools/stablehlo_validate.py FILE_OR_DIR...

Uses the MLIR bindings of jaxlib (the stablehlo and chlo dialects; jaxlib
0.4.38 is what tools/bench/vs_xla/run.sh installs in
~/.cache/kiln/vs_xla-venv) to parse and verify each `.mlir` file
(directories: every `.mlir` file under them). Prints one line per
failure and a closing "N parsed, N failed". Nothing is downloaded; run it
with the venv's python:

  ~/.cache/kiln/vs_xla-venv/bin/python tools/stablehlo_validate.py DIR
"""
import os
import subprocess
import sys

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import register_jax_dialects
from jaxlib.mlir.dialects import chlo, stablehlo


def make_context():
    context = ir.Context()
    registry = ir.DialectRegistry()
    register_jax_dialects.register_dialects(registry)
    context.append_dialect_registry(registry)
    stablehlo.register_dialect(context)
    chlo.register_dialect(context)
    context.load_all_available_dialects()
    return context


def files_of(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    if name.endswith(".mlir"):
                        yield os.path.join(root, name)
        else:
            yield path


def check(context, path):
    """None if `path` parses and verifies, else the error in one line."""
    with open(path) as f:
        text = f.read()
    try:
        module = ir.Module.parse(text, context)
        if not module.operation.verify():
            return "does not verify"
    except Exception as e:  # MLIRError carries the diagnostics.
        return " ".join(str(e).split())[:400]
    return None


def worker(paths):
    """Checks `paths` in order, one result line each (flushed), so that the
    parent knows which file crashed the MLIR library if it dies."""
    context = make_context()
    for path in paths:
        error = check(context, path)
        print("OK" if error is None else "FAIL " + error, flush=True)


def main(argv):
    if len(argv) > 1 and argv[1] == "--worker":
        worker([line.rstrip("\n") for line in sys.stdin])
        return 0
    paths = list(files_of(argv[1:]))
    parsed = failed = 0
    while paths:
        child = subprocess.run(
            [sys.executable, __file__, "--worker"], input="\n".join(paths),
            capture_output=True, text=True)
        lines = child.stdout.splitlines()
        for path, line in zip(paths, lines):
            if line == "OK":
                parsed += 1
            else:
                failed += 1
                print(f"{path}: {line[5:]}")
        paths = paths[len(lines):]
        if paths and child.returncode != 0:
            failed += 1
            print(f"{paths[0]}: crashed the MLIR parser "
                  f"(exit {child.returncode})")
            paths = paths[1:]
    print(f"{parsed} parsed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
