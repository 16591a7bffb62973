#!/usr/bin/env bash
# Runs `kiln verify` on good and bad modules and checks exit statuses and
# output. Usage: verify_cli_test.sh PATH_TO_KILN
set -uo pipefail

readonly KILN="$1"
# shellcheck source=tools/cli/cli_test_lib.sh
source tools/cli/cli_test_lib.sh

expect_lines() {
  local want="$1" file="$2" what="$3"
  local got
  got="$(wc -l <"${file}")"
  [[ "${got}" == "${want}" ]] || fail "${what}: ${got} lines, want ${want}"
}

expect_status 0 "help lists verify" -- "${KILN}" help
expect_grep '^  verify +check that HLO modules' "${WORK}/out" "kiln help"
expect_status 0 "verify --help" -- "${KILN}" verify --help
expect_grep '--strict' "${WORK}/out" "kiln verify --help"
expect_status 2 "verify without files" -- "${KILN}" verify

# A good module: ok on stdout, the counts on stderr.
expect_status 0 "verify good.hlo" -- "${KILN}" verify "${DATA}/good.hlo"
[[ "$(cat "${WORK}/out")" == "ok" ]] || fail "verify good.hlo: stdout not ok"
expect_grep '^4 instructions checked, [0-9]+ without a shape rule yet$' \
  "${WORK}/err" "verify good.hlo"
expect_status 0 "verify good.hlo --strict" -- \
  "${KILN}" verify --strict "${DATA}/good.hlo"

# Standard input works too.
expect_status 0 "verify stdin" -- \
  "${KILN}" verify - <"${DATA}/good.hlo"

# Every error is reported, with location, name and rule.
expect_status 1 "verify wrong_shape.hlo" -- \
  "${KILN}" verify "${DATA}/wrong_shape.hlo"
[[ -s "${WORK}/out" ]] && fail "verify wrong_shape.hlo printed to stdout"
expect_grep '^tools/cli/testdata/wrong_shape.hlo:6:3: error: sum: declared shape f32\[3\] does not match inferred shape f32\[4\] \(shape.inferred\)$' \
  "${WORK}/err" "verify wrong_shape.hlo"
expect_grep '^tools/cli/testdata/wrong_shape.hlo:7:8: error: neg: declared shape f32\[4\] does not match inferred shape f32\[3\] \(shape.inferred\)$' \
  "${WORK}/err" "verify wrong_shape.hlo"
expect_lines 2 "${WORK}/err" "verify wrong_shape.hlo"

# One bad file among good ones fails the run.
expect_status 1 "verify good and bad" -- \
  "${KILN}" verify "${DATA}/good.hlo" "${DATA}/wrong_shape.hlo"

# Parse errors are reported and fail.
expect_status 1 "verify bad.hlo" -- "${KILN}" verify "${DATA}/bad.hlo"
expect_grep '^tools/cli/testdata/bad.hlo:[0-9]+:[0-9]+: error:' \
  "${WORK}/err" "verify bad.hlo"

# Implicit broadcasting: fine in client form, an error in strict form.
expect_status 0 "verify implicit_broadcast.hlo" -- \
  "${KILN}" verify "${DATA}/implicit_broadcast.hlo"
expect_status 1 "verify --strict implicit_broadcast.hlo" -- \
  "${KILN}" verify --strict "${DATA}/implicit_broadcast.hlo"
expect_grep '^tools/cli/testdata/implicit_broadcast.hlo:6:8: error: sum: .*broadcast_dimensions' \
  "${WORK}/err" "verify --strict implicit_broadcast.hlo"

# Async chains and channels are checked in both forms; the module comes on
# standard input (written here, so no data file is needed).
cat >"${WORK}/async_channel.hlo" <<'HLO'
HloModule async_channel

%wrapped (a: f32[10]) -> f32[10] {
  %a = f32[10]{0} parameter(0)
  ROOT %neg = f32[10]{0} negate(f32[10]{0} %a)
}

ENTRY %main (p: f32[10]) -> (f32[10], f32[10], token[]) {
  %p = f32[10]{0} parameter(0)
  %start = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), calls=%wrapped
  %done1 = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %start)
  %done2 = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %start)
  %tok = token[] after-all()
  %send = (f32[10]{0}, u32[], token[]) send(f32[10]{0} %p, token[] %tok), channel_id=1
  %send_done = token[] send-done((f32[10]{0}, u32[], token[]) %send), channel_id=2
  ROOT %t = (f32[10]{0}, f32[10]{0}, token[]) tuple(f32[10]{0} %done1, f32[10]{0} %done2, token[] %send_done)
}
HLO
for form in "" "--strict"; do
  expect_status 1 "verify ${form} async_channel" -- \
    "${KILN}" verify ${form:+"${form}"} - <"${WORK}/async_channel.hlo"
  expect_grep '^<stdin>:10:3: error: start: has 2 users \(done1, done2\), expected exactly one async-update or async-done that continues the chain \(async.users\)$' \
    "${WORK}/err" "verify ${form} async_channel"
  expect_grep '^<stdin>:15:3: error: send_done: channel_id is 2 but its operand send uses channel_id 1 \(channel.done\)$' \
    "${WORK}/err" "verify ${form} async_channel"
  expect_lines 2 "${WORK}/err" "verify ${form} async_channel"
done
# Fixed, it verifies.
sed -e 's/channel_id=2/channel_id=1/' \
  -e '/%done2 = /d' \
  -e 's/tuple(f32\[10\]{0} %done1, f32\[10\]{0} %done2,/tuple(f32[10]{0} %done1, f32[10]{0} %done1,/' \
  "${WORK}/async_channel.hlo" >"${WORK}/async_channel_fixed.hlo"
expect_status 0 "verify --strict async_channel_fixed" -- \
  "${KILN}" verify --strict - <"${WORK}/async_channel_fixed.hlo"

if ((failures > 0)); then
  echo "${failures} failure(s)" >&2
  exit 1
fi
echo "PASS"
