#!/usr/bin/env bash
# `kiln conform` end to end on the fixtures of tools/conform/testdata: the
# summary line and exit status, a failing case, expectations (expected
# failures, unexpected passes, --update_expectations), filters, reports,
# coverage, parse errors, the exec: protocol through kiln_run_adapter.sh,
# an exec: command that hangs past the time limit, and --isolate.
# Usage: conform_cli_test.sh PATH_TO_KILN
set -uo pipefail

readonly KILN="$1"
# shellcheck source=tools/cli/cli_test_lib.sh
source tools/cli/cli_test_lib.sh
readonly T="tools/conform/testdata"
readonly SPEC="--spec=${T}/spec.md"
readonly ADAPTER="tools/conform/kiln_run_adapter.sh"

# --- the reference backend -------------------------------------------------
expect_status 0 "passing fixtures" -- "${KILN}" conform "${SPEC}" "${T}/pass"
expect_grep "^6 passed, 0 failed, 0 expected-failure, 0 unsupported$" \
  "${WORK}/out" "passing fixtures: summary"

expect_status 1 "failing case" -- "${KILN}" conform "${SPEC}" "${T}/fail"
expect_grep "^FAIL fixture.wrong.add \(${T}/fail/wrong.hlotest:5\)" \
  "${WORK}/out" "failing case: named with its location"
expect_grep "first difference at \[1\]: expected 5, actual 4" "${WORK}/out" \
  "failing case: first difference"
expect_grep "^1 passed, 1 failed, 0 expected-failure, 0 unsupported$" \
  "${WORK}/out" "failing case: summary"

# --- expectations ----------------------------------------------------------
expect_status 0 "known failure" -- "${KILN}" conform "${SPEC}" \
  --expectations="${T}/fail/expect_wrong_fails.txt" "${T}/fail"
expect_grep "^1 passed, 0 failed, 1 expected-failure, 0 unsupported$" \
  "${WORK}/out" "known failure: summary"

expect_status 1 "unexpected pass" -- "${KILN}" conform "${SPEC}" \
  --expectations="${T}/fail/expect_unexpected_pass.txt" "${T}/fail"
expect_grep "^UNEXPECTED PASS fixture.right.add" "${WORK}/out" \
  "unexpected pass: reported"
expect_grep "^0 passed, 1 failed, 1 expected-failure, 0 unsupported \(1 unexpected pass" \
  "${WORK}/out" "unexpected pass: summary"

cp "${T}/fail/expect_unexpected_pass.txt" "${WORK}/updated.txt"
expect_status 1 "update expectations" -- "${KILN}" conform "${SPEC}" \
  --expectations="${WORK}/updated.txt" --update_expectations "${T}/fail"
expect_grep "^xfail fixture.wrong.add: the expected value is wrong on purpose$" \
  "${WORK}/updated.txt" "update expectations: failure kept with its reason"
grep -q "fixture.right.add" "${WORK}/updated.txt" &&
  fail "update expectations: the passing case is still listed"
expect_status 0 "after the update" -- "${KILN}" conform "${SPEC}" \
  --expectations="${WORK}/updated.txt" "${T}/fail"

printf 'unsupported op=exponential: no exp here\n' >"${WORK}/unsup.txt"
expect_status 0 "unsupported op" -- "${KILN}" conform "${SPEC}" \
  --expectations="${WORK}/unsup.txt" "${T}/pass"
expect_grep "^5 passed, 0 failed, 0 expected-failure, 1 unsupported$" \
  "${WORK}/out" "unsupported op: summary"

# --- filters ---------------------------------------------------------------
expect_status 0 "--filter" -- "${KILN}" conform "${SPEC}" \
  --filter='add\.f32$' "${T}/pass"
expect_grep "^1 passed, 0 failed" "${WORK}/out" "--filter: one case"
expect_status 0 "--ops" -- "${KILN}" conform "${SPEC}" \
  --ops=exponential,divide "${T}/pass"
expect_grep "^2 passed, 0 failed" "${WORK}/out" "--ops: two cases"
expect_status 0 "--types" -- "${KILN}" conform "${SPEC}" --types=s32 \
  "${T}/pass"
expect_grep "^3 passed, 0 failed" "${WORK}/out" "--types: three cases with s32"
expect_status 2 "bad --filter" -- "${KILN}" conform "${SPEC}" --filter='(' \
  "${T}/pass"
expect_grep "bad RE2" "${WORK}/err" "bad --filter: message"

# --- reports ---------------------------------------------------------------
expect_status 1 "--report" -- "${KILN}" conform "${SPEC}" \
  --report="${WORK}/report" "${T}/fail"
for f in report.json summary.md report.html; do
  [[ -s "${WORK}/report/${f}" ]] || fail "--report: no ${f}"
done
expect_grep '"name": "fixture.wrong.add"' "${WORK}/report/report.json" \
  "--report: JSON names the case"
expect_grep '^\| add \| FAIL 1/2 \|' "${WORK}/report/summary.md" \
  "--report: Markdown matrix row"
expect_grep '<table id="matrix">' "${WORK}/report/report.html" \
  "--report: HTML matrix"
expect_grep '<details><summary>fixture.wrong.add' "${WORK}/report/report.html" \
  "--report: HTML failure"

# --- coverage and parse errors ---------------------------------------------
expect_status 0 "--coverage" -- "${KILN}" conform "${SPEC}" --coverage \
  "${T}/pass"
expect_grep "^  add +Add +3  s32,f32$" "${WORK}/out" "--coverage: add has 3 cases"
expect_grep "^  \[Add\] Integer overflow wraps around\.$" "${WORK}/out" \
  "--coverage: the uncited sentence"
expect_grep "^coverage: 4 of 4 spec ops have cases" "${WORK}/out" \
  "--coverage: totals"

printf 'op: add\ncase x\nspec: Add :: no such words\nsource: hand\nmodule:\n  HloModule m\n  ENTRY e {\n    ROOT c = f32[] constant(1)\n  }\nexpect: f32[] 1\n' \
  >"${WORK}/badspec.hlotest"
expect_status 1 "unmatched spec fragment" -- "${KILN}" conform "${SPEC}" \
  "${WORK}/badspec.hlotest"
expect_grep "badspec.hlotest:3: error: case x: spec: the fragment 'no such words' does not occur verbatim in section 'Add'" \
  "${WORK}/err" "unmatched spec fragment: message"

printf 'case y\nbogus: 1\n' >"${WORK}/badkey.hlotest"
expect_status 1 "unknown key" -- "${KILN}" conform "${SPEC}" \
  "${WORK}/badkey.hlotest"
expect_grep "badkey.hlotest:2: error: unknown key 'bogus'" "${WORK}/err" \
  "unknown key: message"

# --- the exec: protocol ----------------------------------------------------
expect_status 0 "exec adapter" -- "${KILN}" conform "${SPEC}" \
  --backend="exec:${ADAPTER} ${KILN} {module} {args} {out} {replicas} {partitions}" \
  "${T}/pass"
expect_grep "^6 passed, 0 failed, 0 expected-failure, 0 unsupported$" \
  "${WORK}/out" "exec adapter: every fixture passes"

expect_status 1 "exec adapter, failing case" -- "${KILN}" conform "${SPEC}" \
  --backend="exec:${ADAPTER} ${KILN} {module} {args} {out} {replicas} {partitions}" \
  "${T}/fail"
expect_grep "first difference at \[1\]: expected 5, actual 4" "${WORK}/out" \
  "exec adapter, failing case: diff"

expect_status 1 "exec hang" -- "${KILN}" conform "${SPEC}" --time_limit=1 \
  --backend="exec:sleep 30" "${T}/hang"
expect_grep "time limit of 1 s" "${WORK}/out" "exec hang: reported as a timeout"
expect_grep "^0 passed, 2 failed" "${WORK}/out" "exec hang: the run went on"

expect_status 1 "exec crash" -- "${KILN}" conform "${SPEC}" \
  --backend='exec:kill -SEGV $$' "${T}/hang"
expect_grep "crashed \(signal 11" "${WORK}/out" "exec crash: reported"

expect_status 0 "exec unsupported" -- "${KILN}" conform "${SPEC}" \
  --backend='exec:exit 77' "${T}/hang"
expect_grep "^0 passed, 0 failed, 0 expected-failure, 2 unsupported$" \
  "${WORK}/out" "exec unsupported: summary"

# --isolate: each case in a `kiln run` process of its own (exec: protocol).
expect_status 0 "isolate" -- "${KILN}" conform "${SPEC}" --isolate \
  --backend=reference "${T}/pass"
expect_grep "^6 passed, 0 failed, 0 expected-failure, 0 unsupported$" \
  "${WORK}/out" "isolate: every fixture passes out of process"
expect_status 2 "isolate exec" -- "${KILN}" conform "${SPEC}" --isolate \
  --backend='exec:true' "${T}/pass"
expect_grep "out of process already" "${WORK}/err" "isolate exec: refused"

if [[ "${failures}" -ne 0 ]]; then
  echo "${failures} check(s) failed" >&2
  exit 1
fi
echo "PASS"
