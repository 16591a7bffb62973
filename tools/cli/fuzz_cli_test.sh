#!/usr/bin/env bash
# Runs `kiln fuzz`: a clean campaign on the reference backend, the same
# seeds twice print the same modules, bad flags, a finding written and
# replayed (the crash oracle's child process included).
# Usage: fuzz_cli_test.sh PATH_TO_KILN
set -uo pipefail

readonly KILN="$1"
# shellcheck source=tools/cli/cli_test_lib.sh
source tools/cli/cli_test_lib.sh

expect_status 0 "help lists fuzz" -- "${KILN}" help
expect_grep '^  fuzz +differential fuzzing' "${WORK}/out" "kiln help"

expect_status 0 "reference backend, seeds 0..30" -- \
  "${KILN}" fuzz --seeds=0..30 --oracle=backend --backend=reference
expect_grep '^31 cases, 31 checks, [0-9]+ skipped, 0 findings' "${WORK}/out" \
  "fuzz summary"

expect_status 0 "print seeds 3..4" -- "${KILN}" fuzz --seeds=3..4 --print
cp "${WORK}/out" "${WORK}/first"
expect_grep '^// seed 4$' "${WORK}/first" "print"
expect_grep '^# device 0$' "${WORK}/first" "print arguments"
expect_status 0 "print again" -- "${KILN}" fuzz --seeds=3..4 --print --jobs=2
cmp -s "${WORK}/out" "${WORK}/first" || fail "the same seeds printed differently"

expect_status 2 "bad seeds" -- "${KILN}" fuzz --seeds=9..2
expect_grep 'A\.\.B' "${WORK}/err" "bad seeds"
expect_status 2 "bad oracle" -- "${KILN}" fuzz --oracle=bogus
expect_status 2 "bad backend" -- "${KILN}" fuzz --backend=nonesuch
expect_status 2 "replay of nothing" -- "${KILN}" fuzz --replay="${WORK}/none"
expect_status 2 "bad referee" -- "${KILN}" fuzz --referee=nonesuch
expect_grep '^--referee: ' "${WORK}/err" "bad referee"
# A referee is consulted only on a mismatch: a clean campaign stays clean.
expect_status 0 "referee on a clean campaign" -- "${KILN}" fuzz --seeds=0..9 \
  --oracle=backend --backend=reference --referee=reference
expect_grep '^10 cases, 10 checks, [0-9]+ skipped, 0 findings' "${WORK}/out" \
  "referee summary"

# A deliberately wrong pass (kiln_with_test_passes: add becomes subtract)
# is found, blamed, written under --out only, and replayed.
out="${WORK}/findings"
expect_status 1 "wrong pass found" -- \
  "${KILN}" fuzz --seeds=0..40 --oracle=pipeline \
  --pipeline=test-add-to-subtract --out="${out}"
expect_grep ' [1-9][0-9]* findings' "${WORK}/out" "finding summary"
for finding in "${out}"/*; do
  [[ "$(basename "${finding}")" == pipeline-test-add-to-subtract-semantic-* ]] ||
    fail "unexpected entry under --out: ${finding}"
  for f in module.hlo original.hlo args.txt oracle.txt detail.txt replay.sh \
    seeds.txt; do
    [[ -f "${finding}/${f}" ]] || fail "${finding} lacks ${f}"
  done
  expect_grep '^blamed: test-add-to-subtract$' "${finding}/oracle.txt" \
    "oracle.txt"
  # Reduced: at most 10 instructions in all; a while loop keeps its
  # state tuple, condition and body (the reducer does not drop state
  # elements): at most 20.
  n="$(grep -c ' = ' "${finding}/module.hlo")"
  limit=10
  grep -q ' while(' "${finding}/module.hlo" && limit=20
  ((n <= limit)) || fail "${finding}/module.hlo has ${n} instructions"
done
expect_status 0 "kiln reduce a finding" -- "${KILN}" reduce "${finding}"
expect_grep 'semantic blamed on test-add-to-subtract: [0-9]+ -> [0-9]+ instructions' \
  "${WORK}/err" "kiln reduce"
expect_status 1 "reduce what does not fail" -- \
  "${KILN}" reduce --oracle=pipeline --pipeline=default "${DATA}/good.hlo"
expect_status 1 "replay still fails" -- "${KILN}" fuzz --replay="${out}"
expect_grep 'still fails' "${WORK}/out" "replay"
expect_status 1 "replay.sh" -- env KILN="$(realpath "${KILN}")" "${finding}/replay.sh"

# --stop_after=1 stops at the first finding and says when it came.
expect_status 1 "stop after the first finding" -- \
  "${KILN}" fuzz --seeds=0..400 --oracle=pipeline \
  --pipeline=test-add-to-subtract --stop_after=1
expect_grep '^first finding after [0-9.]+ s$' "${WORK}/out" "first finding"

# A normal build has no seeded bug (compiler/util/seeded_bugs.h): naming
# one changes nothing.
expect_status 0 "seeded bug named in a normal build" -- \
  env KILN_SEEDED_BUG=cse-constants "${KILN}" fuzz --seeds=0..60 \
  --oracle=pipeline --pipeline=default

# An exec: backend that crashes or hangs is contained: findings of their
# own kinds, and the campaign goes on.
expect_status 1 "crashing exec backend" -- "${KILN}" fuzz --seeds=1..2 \
  --reduce_seconds=0 --out="${WORK}/exec" --backend='exec:kill -SEGV $$'
expect_grep '^2 cases, 2 checks, 0 skipped, 2 findings \(1 signatures\)' \
  "${WORK}/out" "crashing exec backend"
expect_grep 'backend-exec-crash-' "${WORK}/out" "crash signature"
expect_status 1 "hanging exec backend" -- "${KILN}" fuzz --seeds=1 \
  --reduce_seconds=0 --time_limit=1 --backend='exec:sleep 30'
expect_grep 'backend-exec-hang-' "${WORK}/out" "hang signature"

# The crash oracle runs the case in a child; a clean seed passes.
expect_status 0 "crash oracle" -- \
  "${KILN}" fuzz --seeds=0..2 --oracle=crash --backend=reference
expect_grep '^3 cases' "${WORK}/out" "crash oracle summary"

exit $((failures > 0))
