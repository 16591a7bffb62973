#!/usr/bin/env bash
# Kiln's main job: installs what is missing, builds the `kiln` tool, and
# takes it through the tour module examples/tour.hlo: parse it, check that
# its canonical print parses back to exactly the same print, show it, verify
# it in strict form, and run it on the reference evaluator. Later issues
# grow this into the conformance run.
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

# The reference evaluator runs the tour on seeded random arguments.
echo "=== kiln run --random-args=1 ${TOUR} ==="
"${KILN}" run --random-args=1 "${TOUR}"
