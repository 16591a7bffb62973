# Sourced by the shell tests that run XLA's CPU PJRT plugin through kiln
# (//spec_tests:pjrt_xla_cpu_conformance_test, //backends/pjrt:
# fuzz_oracle_test). find_xla_plugin KILN sets $plugin to the plugin in the
# runfiles, or, when tools/setup.sh could not fetch it (or Kiln was built
# without the PJRT C API headers), writes a JUnit XML with one skipped case
# saying why and exits 0: tools/count_test_results.py counts it skipped,
# not passed.

skip_test() {
  echo "SKIPPED: $1"
  if [ -n "${XML_OUTPUT_FILE:-}" ]; then
    cat >"$XML_OUTPUT_FILE" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="0" errors="0">
  <testsuite name="${TEST_TARGET:-pjrt}" tests="1" failures="0" errors="0" skipped="1">
    <testcase name="xla_cpu_plugin" status="run" result="skipped">
      <skipped message="skipped: $1"/>
    </testcase>
  </testsuite>
</testsuites>
XML
  fi
  exit 0
}

find_xla_plugin() {
  plugin=""
  for candidate in "${TEST_SRCDIR:-.}/pjrt_c_api/lib/xla_cpu_plugin.so" \
    "${TEST_SRCDIR:-.}/kiln/external/pjrt_c_api/lib/xla_cpu_plugin.so"; do
    if [ -e "$candidate" ]; then
      plugin=$candidate
      break
    fi
  done
  if [ -z "$plugin" ]; then
    skip_test "XLA's CPU PJRT plugin was not fetched (tools/setup.sh could not download lammps-jax-pjrt-cpu==0.11.2)"
  fi
  probe_module="${TEST_TMPDIR:-/tmp}/probe.hlo"
  printf 'HloModule probe\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n' \
    >"$probe_module"
  case "$("$1" run "--backend=pjrt:$plugin" "$probe_module" 2>&1 || true)" in
    *"without the PJRT C API headers"*)
      skip_test "Kiln was built without the PJRT C API headers (tools/setup.sh could not fetch them)"
      ;;
  esac
}
