#!/usr/bin/env bash
# Runs `kiln run` with every flag and on bad input, checking exit statuses
# and output. Usage: run_cli_test.sh PATH_TO_KILN
set -uo pipefail

readonly KILN="$1"
# shellcheck source=tools/cli/cli_test_lib.sh
source tools/cli/cli_test_lib.sh

# expect_stdout WANT WHAT: the captured stdout is exactly WANT.
expect_stdout() {
  local want="$1" what="$2"
  local got
  got="$(cat "${WORK}/out")"
  if [[ "${got}" != "${want}" ]]; then
    fail "${what}: stdout is"
    printf '%s\n--- want ---\n%s\n' "${got}" "${want}" >&2
  fi
}

# expect_error WHAT PATTERN -- COMMAND...: exit status 1, nothing on stdout,
# and PATTERN on stderr.
expect_error() {
  local what="$1" pattern="$2"
  shift 2
  expect_status 1 "${what}" "$@"
  [[ -s "${WORK}/out" ]] && fail "${what}: printed to stdout"
  expect_grep "${pattern}" "${WORK}/err" "${what}"
}

readonly ADD="${DATA}/run_add.hlo"
readonly ADD_ARGS='f32[2] {1, 2}; f32[2] {3, 4}'

# Help.
expect_status 0 "help lists run" -- "${KILN}" help
expect_grep '^  run +run a module' "${WORK}/out" "kiln help"
expect_status 0 "run --help" -- "${KILN}" run --help
for flag in args args_file random_args replicas partitions output backend \
  max_while_iterations max_steps max_live_bytes; do
  expect_grep "--${flag} \(default" "${WORK}/out" "kiln run --help"
done
expect_status 2 "run without a file" -- "${KILN}" run
expect_status 2 "run with two files" -- "${KILN}" run "${ADD}" "${ADD}"

# --args: a tuple result prints one line per element.
expect_status 0 "--args" -- "${KILN}" run --args="${ADD_ARGS}" "${ADD}"
expect_stdout $'f32[2] {4, 6}\nf32[2] {3, 8}' "--args"
[[ -s "${WORK}/err" ]] && fail "--args: wrote to stderr"
# --backend=reference is the default; standard input works too.
expect_status 0 "--backend=reference stdin" -- \
  "${KILN}" run --backend=reference --args="${ADD_ARGS}" - <"${ADD}"
expect_stdout $'f32[2] {4, 6}\nf32[2] {3, 8}' "--backend=reference stdin"

# --args_file: a literal over several lines, a comment, a blank line.
expect_status 0 "--args_file" -- \
  "${KILN}" run --args_file="${DATA}/run_args.txt" "${ADD}"
expect_stdout $'f32[2] {11.5, 22}\nf32[2] {15, 40}' "--args_file"

# A non-tuple root prints one line; an entry without parameters needs no
# arguments.
expect_status 0 "while" -- "${KILN}" run "${DATA}/run_while.hlo"
expect_stdout 's32[] 1000' "while"

# --random_args: deterministic per seed, in range, for every type.
expect_status 0 "--random_args=7" -- \
  "${KILN}" run --random_args=7 "${DATA}/run_types.hlo"
cp "${WORK}/out" "${WORK}/random7"
expect_grep '^s32\[3\] \{-?[0-9]+, -?[0-9]+, -?[0-9]+\}$' "${WORK}/out" \
  "--random_args s32"
expect_grep '^pred\[2\] \{[01], [01]\}$' "${WORK}/out" "--random_args pred"
expect_grep '^bf16\[2\] \{-?0?\.?[0-9.e-]*, -?0?\.?[0-9.e-]*\}$' \
  "${WORK}/out" "--random_args bf16"
expect_grep '^u8\[2,2\] \{ \{ [0-9]+, [0-9]+ \}, \{ [0-9]+, [0-9]+ \} \}$' \
  "${WORK}/out" "--random_args u8"
expect_status 0 "--random_args=7 again" -- \
  "${KILN}" run --random_args=7 "${DATA}/run_types.hlo"
cmp -s "${WORK}/out" "${WORK}/random7" ||
  fail "--random_args=7 gave different values twice"
expect_status 0 "--random_args=8" -- \
  "${KILN}" run --random_args=8 "${DATA}/run_types.hlo"
cmp -s "${WORK}/out" "${WORK}/random7" &&
  fail "--random_args=8 gave the values of seed 7"
# Floats are drawn from [-1, 1): x + y stays within (-2, 2).
expect_status 0 "--random_args floats" -- "${KILN}" run --random_args=1 "${ADD}"
expect_grep '^f32\[2\] \{-?[01]\.[0-9]+(e-[0-9]+)?, -?[01]\.[0-9]+(e-[0-9]+)?\}$' \
  "${WORK}/out" "--random_args floats"

# --output writes .npy files that --args reads back (@FILE and FILE.npy).
expect_status 0 "--output" -- \
  "${KILN}" run --args="${ADD_ARGS}" --output="${WORK}/npy" "${ADD}"
expect_stdout $'f32[2] {4, 6}\nf32[2] {3, 8}' "--output"
for i in 0 1; do
  [[ "$(head -c 6 "${WORK}/npy/result_${i}.npy" | od -An -c | tr -d ' ')" == \
    '223NUMPY' ]] || fail "--output: result_${i}.npy is not a .npy file"
done
expect_grep "'descr': '<f4', 'fortran_order': False, 'shape': \(2,\)" \
  "${WORK}/npy/result_0.npy" "--output header"
expect_status 0 "--args .npy" -- "${KILN}" run \
  --args="@${WORK}/npy/result_0.npy; ${WORK}/npy/result_1.npy" "${ADD}"
expect_stdout $'f32[2] {7, 14}\nf32[2] {12, 48}' "--args .npy"
# Every type of run_types.hlo (bf16 through a raw 'V2' dtype) round-trips.
expect_status 0 "--output types" -- "${KILN}" run --random_args=7 \
  --output="${WORK}/types" "${DATA}/run_types.hlo"
expect_status 0 "--args types .npy" -- "${KILN}" run \
  --args="${WORK}/types/result_0.npy;${WORK}/types/result_1.npy;${WORK}/types/result_2.npy;${WORK}/types/result_3.npy" \
  "${DATA}/run_types.hlo"
cmp -s "${WORK}/out" "${WORK}/random7" || fail ".npy round trip changed values"
# An args file may name .npy files too.
printf '@%s\n%s\n' "${WORK}/npy/result_0.npy" "${WORK}/npy/result_1.npy" \
  >"${WORK}/npy_args.txt"
expect_status 0 "--args_file .npy" -- \
  "${KILN}" run --args_file="${WORK}/npy_args.txt" "${ADD}"
expect_stdout $'f32[2] {7, 14}\nf32[2] {12, 48}' "--args_file .npy"

# --replicas: every device gets the same arguments, or its own; collectives
# exchange data between the devices.
expect_status 0 "--replicas=2" -- "${KILN}" run --replicas=2 \
  --args='f32[2] {1, 2}; f32[2] {10, 20}; f32[2] {3, 4}; f32[2] {30, 40}' \
  "${ADD}"
expect_stdout $'device 0 (replica 0, partition 0):\nf32[2] {11, 22}\nf32[2] {10, 40}\ndevice 1 (replica 1, partition 0):\nf32[2] {33, 44}\nf32[2] {90, 160}' \
  "--replicas=2"
expect_status 0 "all-reduce" -- "${KILN}" run \
  --args='f32[2] {1, 2}; f32[2] {3, 5}' "${DATA}/run_all_reduce.hlo"
expect_stdout $'device 0 (replica 0, partition 0):\nf32[2] {4, 7}\ndevice 1 (replica 1, partition 0):\nf32[2] {4, 7}' \
  "all-reduce (replica_count from the module)"
expect_status 0 "--partitions=2" -- "${KILN}" run --replicas=1 \
  --partitions=2 --args="${ADD_ARGS}" --output="${WORK}/devices" "${ADD}"
expect_grep '^device 1 \(replica 0, partition 1\):$' "${WORK}/out" \
  "--partitions=2"
[[ -f "${WORK}/devices/device_1_result_1.npy" ]] ||
  fail "--partitions=2 --output: no device_1_result_1.npy"

# --max_while_iterations: the loop cap is an error naming the loop.
expect_error "while cap" \
  'run_while.hlo:17:8: error: loop: .*10 iterations' -- \
  "${KILN}" run --max_while_iterations=10 "${DATA}/run_while.hlo"

# --max_steps: the whole run's budget of evaluated instructions.
expect_error "step budget" \
  'run_while.hlo:[0-9]+:[0-9]+: error: .*the run did not finish within 5 steps' \
  -- "${KILN}" run --max_steps=5 "${DATA}/run_while.hlo"
# --max_live_bytes: the values alive together; refused before running,
# naming the instruction, not std::bad_alloc.
expect_error "live bytes" \
  "run_add.hlo:[0-9]+:[0-9]+: error: .*over the evaluator's budget of 8 bytes" \
  -- "${KILN}" run --max_live_bytes=8 --args="${ADD_ARGS}" "${ADD}"
# Five 4 GB values alive together, each under the 4 GiB cap per value: the
# default budget (at most 16 GiB) refuses them before allocating any.
cat >"${WORK}/big.hlo" <<'EOF'
HloModule big

ENTRY e {
  z = f32[] constant(1)
  a = f32[1000000000] broadcast(z), dimensions={}
  b = f32[1000000000] negate(a)
  c = f32[1000000000] negate(b)
  d = f32[1000000000] negate(c)
  e = f32[1000000000] negate(d)
  ROOT t = (f32[1000000000], f32[1000000000], f32[1000000000], f32[1000000000], f32[1000000000]) tuple(a, b, c, d, e)
}
EOF
expect_error "live bytes by default" \
  "big.hlo:[0-9]+:[0-9]+: error: t: estimated before running, here the values alive together would take 40000000000 bytes" \
  -- "${KILN}" run "${WORK}/big.hlo"
# Limit flags out of range are usage errors.
for flag in --max_steps=0 --max_while_iterations=-1 --max_live_bytes=-1; do
  expect_status 2 "${flag}" -- "${KILN}" run "${flag}" --args="${ADD_ARGS}" \
    "${ADD}"
  expect_grep "^kiln run: ${flag%%=*} must be >= " "${WORK}/err" "${flag}"
done

# Errors: a message on stderr, exit status 1, never a crash.
expect_error "too few arguments" \
  '^kiln run: the entry computation takes 2 parameters but 1 argument was given$' \
  -- "${KILN}" run --args='f32[2] {1, 2}' "${ADD}"
expect_error "no arguments" \
  'takes 2 parameters; give them with --args' -- "${KILN}" run "${ADD}"
expect_error "bad literal" \
  "^kiln run: argument 1: literal 'f32\[2\] \{1, x\}'" -- \
  "${KILN}" run --args='f32[2] {1, 2}; f32[2] {1, x}' "${ADD}"
expect_error "shape mismatch" \
  '^kiln run: argument 1 has shape s32\[2\] but parameter 1 has shape f32\[2\]$' \
  -- "${KILN}" run --args='f32[2] {1, 2}; s32[2] {1, 2}' "${ADD}"
expect_error "unregistered custom-call" \
  'call: custom-call target "kiln_no_such_target" is not registered' -- \
  "${KILN}" run --args='f32[2] {1, 2}' "${DATA}/run_custom_call.hlo"
expect_error "unknown backend" \
  "^kiln run: --backend: no backend named 'nope' \(registered: .*reference" \
  -- "${KILN}" run --backend=nope --args="${ADD_ARGS}" "${ADD}"
expect_error "two argument sources" 'give at most one of' -- \
  "${KILN}" run --random_args=1 --args="${ADD_ARGS}" "${ADD}"
expect_error "bad seed" '--random_args takes a seed' -- \
  "${KILN}" run --random_args=x "${ADD}"
# GNU spellings: hyphens in flag names, and --random-args alone is seed 0.
expect_status 0 "--random-args alone" -- "${KILN}" run --random-args "${ADD}"
cp "${WORK}/out" "${WORK}/seed_default"
expect_status 0 "--random_args=0" -- "${KILN}" run --random_args=0 "${ADD}"
cmp -s "${WORK}/out" "${WORK}/seed_default" ||
  fail "--random-args alone did not mean seed 0"
expect_status 0 "--args-file spelling" -- \
  "${KILN}" run --args-file="${DATA}/run_args.txt" "${ADD}"
expect_error "missing .npy" 'nothing.npy: error: cannot open' -- \
  "${KILN}" run --args="${WORK}/nothing.npy; ${WORK}/nothing.npy" "${ADD}"
printf 'garbage' >"${WORK}/garbage.npy"
expect_error "garbage .npy" 'garbage.npy: not a .npy file' -- \
  "${KILN}" run --args="${WORK}/garbage.npy; f32[2] {1, 2}" "${ADD}"
expect_error "missing args file" 'cannot open' -- \
  "${KILN}" run --args_file="${WORK}/none.txt" "${ADD}"
expect_error "parse error" '^tools/cli/testdata/bad.hlo:[0-9]+:[0-9]+: error:' \
  -- "${KILN}" run "${DATA}/bad.hlo"
expect_error "verify error" 'wrong_shape.hlo:6:3: error: sum: declared shape' \
  -- "${KILN}" run --random_args=1 "${DATA}/wrong_shape.hlo"
expect_error "negative replicas" 'must not be negative' -- \
  "${KILN}" run --replicas=-1 --args="${ADD_ARGS}" "${ADD}"
expect_error "wrong per-device count" \
  'but 3 arguments were given \(give 2, or 4: one per parameter for each of 2 devices\)' \
  -- "${KILN}" run --replicas=2 --args="${ADD_ARGS}; f32[2] {1, 2}" "${ADD}"
# An error on one simulated device points into FILE; the device follows
# "error: ".
expect_error "device error" \
  '^tools/cli/testdata/run_all_reduce.hlo:[0-9]+:[0-9]+: error: device 2 \(replica 2, partition 0\): ' \
  -- "${KILN}" run --replicas=3 --random_args=1 "${DATA}/run_all_reduce.hlo"
printf 'x' >"${WORK}/file"
expect_error "--output not a directory" 'cannot create the directory' -- \
  "${KILN}" run --args="${ADD_ARGS}" --output="${WORK}/file/sub" "${ADD}"

if ((failures > 0)); then
  echo "${failures} failure(s)" >&2
  exit 1
fi
echo "PASS"
