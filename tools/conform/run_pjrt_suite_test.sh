#!/bin/sh
# Runs a conformance suite on XLA's CPU PJRT plugin through the pjrt backend
# (each case's module exported to StableHLO, compiled and run by XLA) with
# `kiln conform --isolate`, and fails unless every case gives the result
# spec_tests/expectations/pjrt-xla-cpu.txt predicts.
#   run_pjrt_suite_test.sh KILN SUITE_DIR [FLAGS...]
# When tools/setup.sh could not fetch the plugin (or the PJRT C API
# headers), the test writes a JUnit XML with one skipped case saying why
# and passes: tools/count_test_results.py counts it as skipped, not passed.
set -eu
kiln=$1
suite=$2
shift 2

skip() {
  echo "SKIPPED: $1"
  if [ -n "${XML_OUTPUT_FILE:-}" ]; then
    cat >"$XML_OUTPUT_FILE" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="0" errors="0">
  <testsuite name="${TEST_TARGET:-pjrt}" tests="1" failures="0" errors="0" skipped="1">
    <testcase name="conformance" status="run" result="skipped">
      <skipped message="skipped: $1"/>
    </testcase>
  </testsuite>
</testsuites>
XML
  fi
  exit 0
}

plugin=""
for candidate in "${TEST_SRCDIR:-.}/pjrt_c_api/lib/xla_cpu_plugin.so" \
  "${TEST_SRCDIR:-.}/kiln/external/pjrt_c_api/lib/xla_cpu_plugin.so"; do
  if [ -e "$candidate" ]; then
    plugin=$candidate
    break
  fi
done
if [ -z "$plugin" ]; then
  skip "XLA's CPU PJRT plugin was not fetched (tools/setup.sh could not download lammps-jax-pjrt-cpu==0.11.2)"
fi
module="${TEST_TMPDIR:-/tmp}/probe.hlo"
printf 'HloModule probe\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n' >"$module"
probe=$("$kiln" run "--backend=pjrt:$plugin" "$module" 2>&1 || true)
case "$probe" in
  *"without the PJRT C API headers"*)
    skip "Kiln was built without the PJRT C API headers (tools/setup.sh could not fetch them)"
    ;;
esac

# The plugin's file name picks the expectations (pjrt-xla-cpu.txt).
link="${TEST_TMPDIR:-/tmp}/xla_cpu_plugin.so"
ln -sf "$(readlink -f "$plugin")" "$link"
runner="${TEST_SRCDIR:-}/kiln/tools/conform/run_suite_test.sh"
[ -e "$runner" ] || runner="$(dirname "$0")/run_suite_test.sh"
exec "$runner" "$kiln" "$suite" --isolate \
  "--backend=pjrt:$link,cpu_device_count=8" "$@"
