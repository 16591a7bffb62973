#!/usr/bin/env bash
# Kiln's main job: installs what is missing, builds the `kiln` tool, takes
# it through the tour module examples/tour.hlo (parse, check the canonical
# print round-trips, verify in strict form, optimize with the default
# pipeline while checking values, run on the reference evaluator), then
# runs the whole conformance suite (spec_tests/) on the reference backend
# and writes its report.
#
#   tools/run.sh                       # report in /tmp/kiln-conformance
#   KILN_REPORT_DIR=DIR tools/run.sh   # report in DIR
set -euo pipefail
cd "$(dirname "$0")/.."

tools/setup.sh
bazel build -c opt //tools:kiln
KILN="$(bazel info -c opt bazel-bin 2>/dev/null)/tools/kiln"
readonly KILN
readonly TOUR=examples/tour.hlo

work="$(mktemp -d /tmp/kiln-run.XXXXXX)"
trap 'rm -rf "${work}"' EXIT

# `kiln fmt` parses, prints, re-parses the print and checks that printing it
# again gives the same bytes; it fails on any difference.
"${KILN}" fmt "${TOUR}" >"${work}/tour.canonical.hlo"
# The canonical print is itself canonical (a fixed point).
"${KILN}" fmt --check "${work}/tour.canonical.hlo"

echo "=== ${TOUR} in canonical form ==="
cat "${work}/tour.canonical.hlo"
echo "=== ${TOUR}: parsed, printed, and the print round-trips exactly" \
  "($(grep -c ' = ' "${work}/tour.canonical.hlo") instructions," \
  "$(wc -c <"${TOUR}") bytes) ==="

# The verifier checks every rule of the spec, in XLA's strict form too.
echo "=== kiln verify --strict ${TOUR} ==="
"${KILN}" verify --strict "${TOUR}"

# The default pipeline, with the verifier after every pass and the values
# checked before and after every pass on three random argument sets.
echo "=== kiln opt --pipeline=default --verify-each --check-semantics ${TOUR} ==="
"${KILN}" opt --pipeline=default --verify-each --check-semantics=3 \
  --time-passes "${TOUR}" >"${work}/tour.optimized.hlo"
echo "(optimized module: $(grep -c ' = ' "${work}/tour.optimized.hlo") instructions)"

# The reference evaluator runs the tour on seeded random arguments.
echo "=== kiln run --random-args=1 ${TOUR} ==="
"${KILN}" run --random-args=1 "${TOUR}"

# The conformance suite on the reference backend, with its reports.
readonly REPORT_DIR="${KILN_REPORT_DIR:-/tmp/kiln-conformance}"
echo "=== kiln conform --backend=reference spec_tests ==="
"${KILN}" conform --backend=reference --report="${REPORT_DIR}" spec_tests
echo "=== conformance report: ${REPORT_DIR}/report.html" \
  "(also summary.md, report.json) ==="
