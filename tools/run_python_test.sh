#!/usr/bin/env bash
# Runs a Python unittest file with the system python3. (Bazel 4's py_test
# stub starts `python`, which Debian 12 does not have.)
set -euo pipefail
exec python3 "$@"
