#!/usr/bin/env bash
# Runs `kiln opt` with the framework's test passes (a correct one, a wrong
# one, one that fails, one that breaks the module) and checks exit
# statuses and output. Usage: opt_cli_test.sh PATH_TO_KILN_WITH_TEST_PASSES
set -uo pipefail

readonly KILN="$1"
# shellcheck source=tools/cli/cli_test_lib.sh
source tools/cli/cli_test_lib.sh

expect_status 0 "opt --help" -- "${KILN}" opt --help
expect_grep '--check_semantics' "${WORK}/out" "kiln opt --help"
expect_status 2 "opt without a file" -- "${KILN}" opt
expect_status 2 "opt with --passes and --pipeline" -- \
  "${KILN}" opt --passes=test-add-commute --pipeline=default \
  "${DATA}/good.hlo"

expect_status 0 "opt --list-passes" -- "${KILN}" opt --list-passes
expect_grep '^  test-add-to-subtract$' "${WORK}/out" "--list-passes passes"
expect_grep '^  default$' "${WORK}/out" "--list-passes pipelines"

# A correct pass: the printed module has the add's operands swapped.
expect_status 0 "opt --passes=test-add-commute" -- \
  "${KILN}" opt --passes=test-add-commute --verify-each "${DATA}/good.hlo"
expect_grep '^  ROOT %add = f32\[4\]\{0\} add\(f32\[4\]\{0\} %ones, f32\[4\]\{0\} %x\)$' \
  "${WORK}/out" "opt --passes=test-add-commute"

# The default pipeline leaves a strict module without dead code unchanged.
expect_status 0 "opt --pipeline=default" -- \
  "${KILN}" opt --pipeline=default "${DATA}/good.hlo"
expect_grep 'add\(f32\[4\]\{0\} %x, f32\[4\]\{0\} %ones\)' "${WORK}/out" \
  "opt --pipeline=default"
expect_status 1 "opt --pipeline=nope" -- \
  "${KILN}" opt --pipeline=nope "${DATA}/good.hlo"
expect_grep "error: unknown pipeline 'nope'" "${WORK}/err" "opt --pipeline=nope"

# Errors name the pass and exit 1 with nothing on stdout.
expect_status 1 "opt unknown pass" -- \
  "${KILN}" opt --passes=test-add-commute,nope "${DATA}/good.hlo"
expect_grep "^tools/cli/testdata/good.hlo: error: unknown pass or pipeline 'nope'" \
  "${WORK}/err" "opt unknown pass"
expect_status 1 "opt failing pass" -- \
  "${KILN}" opt --passes=test-fail "${DATA}/good.hlo"
expect_grep "^tools/cli/testdata/good.hlo: error: pass 'test-fail': cannot handle module add_one$" \
  "${WORK}/err" "opt failing pass"
[[ -s "${WORK}/out" ]] && fail "opt failing pass printed to stdout"
expect_status 1 "opt bad.hlo" -- \
  "${KILN}" opt --passes=test-add-commute "${DATA}/bad.hlo"

# --verify-each names the pass that broke the module; without it the
# broken module is printed.
expect_status 1 "opt --verify-each" -- "${KILN}" opt --verify-each \
  --passes=test-add-commute,test-break-root-shape "${DATA}/good.hlo"
expect_grep "error: after pass 'test-break-root-shape': the module does not verify: " \
  "${WORK}/err" "opt --verify-each"
expect_status 0 "opt without --verify-each" -- \
  "${KILN}" opt --passes=test-break-root-shape "${DATA}/good.hlo"

# --check-semantics names the wrong pass, with the arguments and outputs.
expect_status 1 "opt --check-semantics wrong pass" -- \
  "${KILN}" opt --check-semantics \
  --passes=test-add-commute,test-add-to-subtract "${DATA}/good.hlo"
expect_grep "error: check-semantics: pass 'test-add-to-subtract' changed the result on argument set 0 \(f32\[4\] \{.*\}\): output element 0 \(index \[0\]\): expected .*, actual " \
  "${WORK}/err" "opt --check-semantics wrong pass"
expect_status 0 "opt --check-semantics=5 correct pass" -- \
  "${KILN}" opt --check-semantics=5 --passes=test-add-commute \
  "${DATA}/good.hlo"

# --check-semantics evaluates only after passes that change the module:
# (1 + 2) x 2 evaluations here; test-always-changed changes nothing.
expect_status 0 "opt --check-semantics evaluation count" -- \
  "${KILN}" opt --check-semantics=2 --time-passes \
  --passes=test-add-commute,test-always-changed,test-add-commute \
  "${DATA}/good.hlo"
expect_grep '^check-semantics: 6 evaluations \(2 argument sets\), 1 unchanged passes not evaluated$' \
  "${WORK}/err" "opt --check-semantics evaluation count"

# --time-passes: one line per pass with runs and changes.
expect_status 0 "opt --time-passes" -- "${KILN}" opt --time-passes \
  --passes=test-add-commute,test-add-commute "${DATA}/good.hlo"
expect_grep '^test-add-commute +2 +2 +[0-9.]+ +[0-9.]+$' "${WORK}/err" \
  "opt --time-passes"
expect_grep '^total ' "${WORK}/err" "opt --time-passes total"

# --dump-dir with --dump-pass-re: only matching passes, numbered in order.
readonly DUMPS="${WORK}/dumps"
expect_status 0 "opt --dump-dir" -- "${KILN}" opt --dump-dir="${DUMPS}" \
  --dump-pass-re='commute$' \
  --passes=test-break-root-shape,test-add-commute "${DATA}/good.hlo"
[[ -f "${DUMPS}/001-test-add-commute.hlo" ]] || fail "no 001 .hlo dump"
[[ -e "${DUMPS}/000-test-break-root-shape.hlo" ]] && fail "unmatched dump"
expect_grep '^\+  ROOT %add = .*add\(f32\[4\]\{0\} %ones, f32\[4\]\{0\} %x\)$' \
  "${DUMPS}/001-test-add-commute.diff" "dump diff"
cmp -s "${WORK}/out" "${DUMPS}/001-test-add-commute.hlo" ||
  fail "the last dump is not the printed module"
expect_status 1 "opt bad --dump-pass-re" -- "${KILN}" opt \
  --dump-dir="${DUMPS}" --dump-pass-re='(' --passes=test-add-commute \
  "${DATA}/good.hlo"
expect_grep "dump-pass-re: bad regular expression" "${WORK}/err" \
  "opt bad --dump-pass-re"

# The default pipeline turns client form into strict form, keeping values.
expect_status 0 "opt legalizes implicit broadcasting" -- \
  "${KILN}" opt --check-semantics=2 "${DATA}/implicit_broadcast.hlo"
cp "${WORK}/out" "${WORK}/legal.hlo"
expect_grep 'broadcast\(' "${WORK}/legal.hlo" "opt legalizes: broadcast"
expect_status 0 "legalized module is strict" -- \
  "${KILN}" verify --strict "${WORK}/legal.hlo"

if ((failures > 0)); then
  echo "${failures} check(s) failed" >&2
  exit 1
fi
echo "all opt CLI checks passed"
