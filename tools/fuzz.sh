#!/usr/bin/env bash
# Fuzzes the HLO text parser and printer with libFuzzer for a while.
#
#   tools/fuzz.sh [SECONDS]   # default 60
#
# Builds //fuzz:hlo_text_fuzzer with --config=fuzz (clang, libFuzzer,
# ASan+UBSan) under its own Bazel output base, so the default build cache
# (gcc) survives, then runs it on a scratch copy of the seed corpus
# (fuzz/corpus/hlo_text stays untouched). Any crash, leak, timeout or
# round-trip failure fails the script; the reproducer is kept and named.
# Prints the number of executions; then runs //fuzz/generator:module_fuzzer
# (ASan+UBSan build) on random inputs for as long. Its last line is
# "N passed, N failed" with each target's run counted as one case.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly SECONDS_TO_RUN="${1:-60}"
# One output base per checkout (Bazel ties an output base to a workspace).
readonly OUTPUT_BASE="${KILN_FUZZ_OUTPUT_BASE:-${HOME}/.cache/kiln-fuzz/$(
  pwd | md5sum | cut -c1-12)}"
readonly TARGET=//fuzz:hlo_text_fuzzer
# The second Bazel server exits after 10 idle minutes instead of 3 hours.
readonly BAZEL=(bazel --output_base="${OUTPUT_BASE}" --max_idle_secs=600)
# --symlink_prefix=/ : do not repoint the workspace's bazel-* links.
readonly FLAGS=(--config=fuzz --symlink_prefix=/)

tools/setup.sh
"${BAZEL[@]}" build "${FLAGS[@]}" "${TARGET}"
fuzzer="$("${BAZEL[@]}" info "${FLAGS[@]}" bazel-bin 2>/dev/null)/fuzz/hlo_text_fuzzer"

work="$(mktemp -d /tmp/kiln-fuzz.XXXXXX)"
mkdir -p "${work}/corpus" "${work}/artifacts"
cp fuzz/corpus/hlo_text/* "${work}/corpus/"

# -timeout: one input may take at most 10 s; -rss_limit_mb and
# -malloc_limit_mb catch unbounded allocation; leaks are on by default.
status=0
"${fuzzer}" "${work}/corpus" \
  -max_total_time="${SECONDS_TO_RUN}" -timeout=10 -rss_limit_mb=2048 \
  -malloc_limit_mb=1024 -print_final_stats=1 \
  -artifact_prefix="${work}/artifacts/" >"${work}/log" 2>&1 || status=$?

executions="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' \
  "${work}/log" | grep -Eo '[0-9]+$' || true)"
echo "fuzz: ${executions:-unknown} executions in ${SECONDS_TO_RUN} s" \
  "($(find "${work}/corpus" -type f | wc -l) corpus entries)"

passed=0
failed=0
if ((status != 0)) || [[ -n "$(ls -A "${work}/artifacts")" ]]; then
  tail -n 60 "${work}/log" >&2
  echo "fuzz: FAILED (exit status ${status}); reproducers:" >&2
  ls -d "${work}"/artifacts/* >&2 || true
  echo "replay one with: bazel run ${TARGET} -- FILE" >&2
  failed=$((failed + 1))
else
  rm -rf "${work}"
  passed=$((passed + 1))
fi

# The module generator's target (//fuzz/generator:module_fuzzer: generator,
# verifier, round trip, legalization, evaluator) for the same time on
# random decision bytes, from the default output base's ASan+UBSan build
# (CI's second stage already built it); its libFuzzer build is
# `bazel build --config=fuzz //fuzz/generator:module_fuzzer` (docs/fuzzing.md).
module_log="$(mktemp /tmp/kiln-module-fuzz.XXXXXX)"
if bazel build --config=asan //fuzz/generator:module_fuzzer >"${module_log}" 2>&1 &&
  timeout $((SECONDS_TO_RUN + 120)) \
    "$(bazel info --config=asan bazel-bin 2>/dev/null)/fuzz/generator/module_fuzzer" \
    --random_seconds="${SECONDS_TO_RUN}" >"${module_log}" 2>&1; then
  echo "module_fuzzer: $(tail -n 1 "${module_log}")"
  passed=$((passed + 1))
else
  tail -n 60 "${module_log}" >&2
  echo "module_fuzzer: FAILED" >&2
  failed=$((failed + 1))
fi
rm -f "${module_log}"
echo "${passed} passed, ${failed} failed"
((failed == 0))
