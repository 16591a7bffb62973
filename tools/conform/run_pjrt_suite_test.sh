#!/bin/sh
# Runs a conformance suite on XLA's CPU PJRT plugin through the pjrt backend
# (each case's module exported to StableHLO, compiled and run by XLA) with
# `kiln conform --isolate`, and fails unless every case gives the result
# spec_tests/expectations/pjrt-xla-cpu.txt predicts. Skipped, saying why,
# without the plugin (backends/pjrt/xla_plugin_test_lib.sh).
#   run_pjrt_suite_test.sh KILN SUITE_DIR [FLAGS...]
set -eu
kiln=$1
suite=$2
shift 2
. "${TEST_SRCDIR:-.}/kiln/backends/pjrt/xla_plugin_test_lib.sh"
find_xla_plugin "$kiln"

# The plugin's file name picks the expectations (pjrt-xla-cpu.txt).
link="${TEST_TMPDIR:-/tmp}/xla_cpu_plugin.so"
ln -sf "$(readlink -f "$plugin")" "$link"
runner="${TEST_SRCDIR:-}/kiln/tools/conform/run_suite_test.sh"
[ -e "$runner" ] || runner="$(dirname "$0")/run_suite_test.sh"
exec "$runner" "$kiln" "$suite" --isolate \
  "--backend=pjrt:$link,cpu_device_count=8" "$@"
