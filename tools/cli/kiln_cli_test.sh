#!/usr/bin/env bash
# Runs the `kiln` binary on good and bad inputs and checks exit statuses and
# output. Usage: kiln_cli_test.sh PATH_TO_KILN
set -uo pipefail

readonly KILN="$1"
# shellcheck source=tools/cli/cli_test_lib.sh
source tools/cli/cli_test_lib.sh

# Help lists every command with one line.
expect_status 0 "kiln help" -- "${KILN}" help
expect_grep '^  fmt +print HLO text' "${WORK}/out" "kiln help"
expect_status 0 "kiln --help" -- "${KILN}" --help
expect_grep '^  fmt ' "${WORK}/out" "kiln --help"
expect_status 0 "kiln fmt --help" -- "${KILN}" fmt --help
expect_grep '--check' "${WORK}/out" "kiln fmt --help"
expect_status 2 "kiln with no command" -- "${KILN}"
expect_status 2 "unknown command" -- "${KILN}" frobnicate
expect_grep "unknown command 'frobnicate'" "${WORK}/err" "unknown command"

# A good module prints in canonical form, which is a fixed point.
expect_status 0 "fmt good.hlo" -- "${KILN}" fmt "${DATA}/good.hlo"
cp "${WORK}/out" "${WORK}/canonical.hlo"
expect_grep '^HloModule add_one' "${WORK}/canonical.hlo" "fmt good.hlo"
expect_grep 'ROOT %add = f32\[4\]\{0\} add\(' "${WORK}/canonical.hlo" \
  "fmt good.hlo"
expect_status 0 "fmt --check canonical" -- \
  "${KILN}" fmt --check "${WORK}/canonical.hlo"
[[ -s "${WORK}/out" ]] && fail "fmt --check printed to stdout"
expect_status 0 "fmt of canonical" -- "${KILN}" fmt "${WORK}/canonical.hlo"
cmp -s "${WORK}/out" "${WORK}/canonical.hlo" ||
  fail "fmt is not idempotent"

# The hand-written file is not canonical: --check names it.
expect_status 1 "fmt --check good.hlo" -- \
  "${KILN}" fmt --check "${DATA}/good.hlo"
expect_grep 'good\.hlo:[0-9]+: not in canonical form' "${WORK}/err" \
  "fmt --check good.hlo"

# Standard input.
expect_status 0 "fmt -" -- bash -c "'${KILN}' fmt - < '${DATA}/good.hlo'"
cmp -s "${WORK}/out" "${WORK}/canonical.hlo" || fail "fmt - differs"

# A bad module: file:line:col: error: on stderr, exit 1, nothing on stdout.
expect_status 1 "fmt bad.hlo" -- "${KILN}" fmt "${DATA}/bad.hlo"
expect_grep '^tools/cli/testdata/bad\.hlo:5:[0-9]+: error: ' "${WORK}/err" \
  "fmt bad.hlo"
[[ -s "${WORK}/out" ]] && fail "fmt bad.hlo printed to stdout"
expect_status 1 "fmt --check bad.hlo" -- \
  "${KILN}" fmt --check "${DATA}/bad.hlo"
expect_status 1 "fmt of a missing file" -- "${KILN}" fmt "${WORK}/nope.hlo"
expect_grep 'nope\.hlo: error: cannot open' "${WORK}/err" "missing file"
expect_status 2 "fmt without files" -- "${KILN}" fmt

# Elided constants ({...}) are refused unless asked for; then they read as 0.
printf 'HloModule m\nENTRY e {\n  ROOT c = s32[3] constant({...})\n}\n' \
  >"${WORK}/elided.hlo"
expect_status 1 "fmt of an elided constant" -- \
  "${KILN}" fmt "${WORK}/elided.hlo"
expect_grep 'elided\.hlo:3:28: error: the values of this constant were elided' \
  "${WORK}/err" "fmt of an elided constant"
expect_status 0 "fmt --allow_elided_constants" -- \
  "${KILN}" fmt --allow_elided_constants "${WORK}/elided.hlo"
expect_grep 'constant\(\{0, 0, 0\}\)' "${WORK}/out" \
  "fmt --allow_elided_constants"
# GNU spelling with hyphens names the same flag.
expect_status 0 "fmt --allow-elided-constants" -- \
  "${KILN}" fmt --allow-elided-constants "${WORK}/elided.hlo"

# Text XLA's parser accepts that Kiln's op rules refuse on purpose (an
# after-all of a non-token, an all-gather shape that needs an unstated
# replica count): fmt refuses it, fmt --no-op-rules formats it.
cat > "${WORK}/stricter.hlo" <<'HLO'
HloModule stricter

ENTRY e {
  p = f32[4] parameter(0)
  t = token[] after-all(p)
  ROOT g = f32[8] all-gather(p), dimensions={0}, replica_groups={}
}
HLO
expect_status 1 "fmt of a module the op rules refuse" -- \
  "${KILN}" fmt "${WORK}/stricter.hlo"
expect_grep 'stricter\.hlo:5:3: error: t: operand 0 is f32\[4\], expected token' \
  "${WORK}/err" "fmt of a module the op rules refuse"
expect_status 0 "fmt --no-op-rules" -- \
  "${KILN}" fmt --no-op-rules "${WORK}/stricter.hlo"
expect_grep 'ROOT %g = f32\[8\]\{0\} all-gather\(' "${WORK}/out" \
  "fmt --no-op-rules"
cp "${WORK}/out" "${WORK}/stricter_canonical.hlo"
expect_status 0 "fmt --no-op-rules --check of its own output" -- \
  "${KILN}" fmt --no-op-rules --check "${WORK}/stricter_canonical.hlo"
# Syntax errors are still errors.
expect_status 1 "fmt --no-op-rules bad.hlo" -- \
  "${KILN}" fmt --no-op-rules "${DATA}/bad.hlo"
expect_grep 'bad\.hlo:[0-9]+:[0-9]+: error:' "${WORK}/err" \
  "fmt --no-op-rules bad.hlo"

# One error form for every command: FILE:LINE:COL: error: MESSAGE, never
# a doubled prefix. Errors about the module as a whole point at its
# HloModule line; errors with no place in the file read FILE: error: ...
cat >"${WORK}/entry_layout.hlo" <<'EOF'
// The entry layout lists one parameter; the entry has two.
HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}

ENTRY e {
  x = f32[2] parameter(0)
  y = f32[2] parameter(1)
  ROOT s = f32[2] add(x, y)
}
EOF
for command in "fmt" "verify" "opt" "opt --verify-each" "run --random_args=1"; do
  # shellcheck disable=SC2086  # $command is the command and its flags.
  expect_status 1 "${command} bad.hlo" -- "${KILN}" ${command} "${DATA}/bad.hlo"
  expect_grep '^tools/cli/testdata/bad\.hlo:5:[0-9]+: error: undefined operand' \
    "${WORK}/err" "${command} bad.hlo"
  grep -q 'error: .*error: ' "${WORK}/err" &&
    fail "${command} bad.hlo: doubled error prefix: $(cat "${WORK}/err")"
  # shellcheck disable=SC2086
  expect_status 1 "${command} missing file" -- "${KILN}" ${command} \
    "${WORK}/none.hlo"
  expect_grep '^.*/none\.hlo: error: cannot open' "${WORK}/err" \
    "${command} missing file"
done
for command in "verify" "opt --verify-each" "run --random_args=1"; do
  # shellcheck disable=SC2086
  expect_status 1 "${command} entry layout" -- "${KILN}" ${command} \
    "${WORK}/entry_layout.hlo"
  expect_grep '^.*/entry_layout\.hlo:2:1: error: .*entry_computation_layout has 1 parameters' \
    "${WORK}/err" "${command} entry layout"
done
expect_status 1 "opt unknown pass" -- "${KILN}" opt --passes=nope \
  "${DATA}/good.hlo"
expect_grep "^tools/cli/testdata/good\.hlo: error: unknown pass or pipeline 'nope'" \
  "${WORK}/err" "opt unknown pass"

if ((failures > 0)); then
  echo "${failures} check(s) failed" >&2
  exit 1
fi
echo "all checks passed"
