#!/bin/bash
# Seeded-bug recall of `kiln fuzz` (issue 16, docs/fuzzing.md): builds kiln
# once with the seeded bugs compiled in (--define=kiln_seeded_bugs=1,
# compiler/util/seeded_bugs.h), then for each bug fuzzes on one core with a
# fixed budget until the first finding, which `kiln fuzz` localizes and
# reduces, and prints per bug: found or not, seconds to the first finding,
# the reduced reproducer's instruction count, what was blamed, whether that
# is the right pass or backend, and the reducer's seconds.
#
#   tools/bench/fuzz_recall.sh [--budget=300] [--bugs=a,b] [--out=DIR]
#                              [--kiln=BINARY]   (skip the build)
#                              [--referee=SPEC]  (backend campaigns; "" none)
#   BAZEL_ARGS="--output_base=... --disk_cache=..." tools/bench/fuzz_recall.sh
#
# Pass bugs are fuzzed with the pipeline oracle (every registered
# pipeline), evaluator and cpu-backend bugs with the backend oracle against
# the cpu backend, XLA's CPU plugin as referee when it is there: the
# campaign a team owning that component runs. Exit
# status 0 when >= 90% are found within the budget with a reproducer of at
# most 10 instructions and the right blame.
set -u
cd "$(dirname "$0")/../.."
BUDGET=300
BUGS=""
OUT="${TMPDIR:-/tmp}/kiln-fuzz-recall"
KILN=""
# The referee of the backend-oracle campaigns (docs/fuzzing.md, "Blame"):
# XLA's CPU compiler through its PJRT plugin when tools/setup.sh fetched
# it, so that a bug of the evaluator is blamed on the evaluator.
REFEREE=""
if [[ -e third_party/pjrt/lib/xla_cpu_plugin.so ]]; then
  REFEREE="pjrt:third_party/pjrt/lib/xla_cpu_plugin.so"
fi
for arg in "$@"; do
  case "${arg}" in
    --referee=*) REFEREE="${arg#*=}" ;;
    --budget=*) BUDGET="${arg#*=}" ;;
    --bugs=*) BUGS="${arg#*=}" ;;
    --out=*) OUT="${arg#*=}" ;;
    --kiln=*) KILN="${arg#*=}" ;;
    *) echo "fuzz_recall.sh: unknown argument ${arg}" >&2; exit 2 ;;
  esac
done

# name | oracle flags | blame that is right (a regular expression)
TABLE="
simplifier-add-zero|--oracle=pipeline|algebraic-simplifier
simplifier-subtract-self|--oracle=pipeline|algebraic-simplifier
simplifier-multiply-zero|--oracle=pipeline|algebraic-simplifier
simplifier-compare-self|--oracle=pipeline|algebraic-simplifier
legalize-broadcast-dims|--oracle=pipeline|broadcast-legalization
cse-constants|--oracle=pipeline|cse
zero-sized-operand|--oracle=pipeline|zero-sized-elimination
gather-clamp|--oracle=pipeline|gather-simplification
fusion-operand-order|--oracle=pipeline|fusion
inliner-parameter-order|--oracle=pipeline|call-inliner
constant-folding-convert|--oracle=pipeline|constant-folding
evaluator-sort-ties|--oracle=backend --backend=cpu ${REFEREE:+--referee=${REFEREE}}|reference
cpu-slice-stride|--oracle=backend --backend=cpu ${REFEREE:+--referee=${REFEREE}}|cpu
"

if [[ -z "${KILN}" ]]; then
  # fastbuild: the seeded build refuses NDEBUG (-c opt).
  # shellcheck disable=SC2086
  bazel ${BAZEL_STARTUP:-} build ${BAZEL_ARGS:-} --define=kiln_seeded_bugs=1 \
    //tools:kiln >&2 || exit 1
  KILN="$(bazel ${BAZEL_STARTUP:-} info ${BAZEL_ARGS:-} \
    --define=kiln_seeded_bugs=1 bazel-bin 2>/dev/null)/tools/kiln"
fi
rm -rf "${OUT}"
mkdir -p "${OUT}"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; budget ${BUDGET} s per bug; referee ${REFEREE:-none}"
printf '| %-26s | %-8s | %-5s | %-10s | %-6s | %-28s | %-5s | %-8s |\n' \
  bug oracle found "first (s)" instrs blamed right "reduce s"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..28})" \
  "----------" "-------" "------------" "--------" \
  "$(printf -- '-%.0s' {1..30})" "-------" "----------"
total=0
good=0
while IFS='|' read -r bug flags right; do
  [[ -z "${bug}" ]] && continue
  if [[ -n "${BUGS}" && ",${BUGS}," != *",${bug},"* ]]; then continue; fi
  total=$((total + 1))
  dir="${OUT}/${bug}"
  mkdir -p "${dir}"
  oracle="${flags#--oracle=}"
  oracle="${oracle%% *}"
  # One core: one job; every bug sees the seeds from 0. A finding that
  # replays as still failing without the bug is one the code already had
  # (a real finding, not the seeded bug): it is noted and the campaign
  # goes on from the next seed with what is left of the budget.
  begin="$(date +%s.%N)"
  seed=0
  run=0
  first=""
  finding=""
  others=""
  while :; do
    left="$(awk -v b="${BUDGET}" -v s="${begin}" -v n="$(date +%s.%N)" \
      'BEGIN { l = b - (n - s); print (l > 0 ? int(l + 0.999) : 0) }')"
    ((left > 0)) || break
    run=$((run + 1))
    rundir="${dir}/run${run}"
    mkdir -p "${rundir}"
    run_start="$(date +%s.%N)"
    # shellcheck disable=SC2086
    KILN_SEEDED_BUG="${bug}" timeout $((left + 120)) "${KILN}" fuzz \
      --seeds="${seed}..100000000" ${flags} --jobs=1 --time="${left}s" \
      --stop_after=1 --out="${rundir}/findings" >"${rundir}/stdout" \
      2>"${rundir}/stderr"
    [[ -n "$(sed -n 's/^first finding after \([0-9.]*\) s$/\1/p' \
      "${rundir}/stdout")" ]] || break
    # The first finding written (one seed may fail several pipelines).
    candidate="$(dirname "$(ls -tr "${rundir}"/findings/*/oracle.txt | head -1)")"
    if env -u KILN_SEEDED_BUG "${KILN}" fuzz --replay="${candidate}" \
      >"${rundir}/replay" 2>&1; then
      finding="${candidate}"
      reduced_line="$(grep -m1 '^reduced ' "${rundir}/stderr")"
      # Seconds to the finding: the campaign's own clock, plus the runs
      # before it.
      first="$(awk -v s="${begin}" -v u="${run_start}" \
        -v r="$(sed -n 's/^first finding after \([0-9.]*\) s$/\1/p' "${rundir}/stdout")" \
        'BEGIN { printf "%.2f", (u - s) + r }')"
      break
    fi
    others="${others} $(basename "${candidate}")"
    seed=$(($(head -1 "${candidate}/seeds.txt") + 1))
  done
  [[ -n "${others}" ]] && echo "${bug}: findings the code has without the bug:${others}" >&2
  if [[ -z "${finding}" ]]; then
    printf '| %-26s | %-8s | %-5s | %-10s | %-6s | %-28s | %-5s | %-8s |\n' \
      "${bug}" "${oracle}" no "-" "-" "-" "-" "-"
    continue
  fi
  blamed="$(sed -n 's/^blamed: //p' "${finding}/oracle.txt")"
  kind="$(sed -n 's/^kind: //p' "${finding}/oracle.txt")"
  instrs="$(echo "${reduced_line}" | sed -n 's/.* to \([0-9]*\) instructions.*/\1/p')"
  seconds="$(echo "${reduced_line}" | sed -n 's/.* in \([0-9.]*\) s .*/\1/p')"
  [[ -z "${instrs}" ]] && instrs="$(grep -c ' = ' "${finding}/module.hlo")"
  ok=no
  if [[ "${blamed}" =~ ${right} ]]; then ok=yes; fi
  if [[ "${ok}" == yes && "${instrs}" -le 10 ]]; then good=$((good + 1)); fi
  printf '| %-26s | %-8s | %-5s | %-10s | %-6s | %-28s | %-5s | %-8s |\n' \
    "${bug}" "${oracle}" yes "${first}" "${instrs}" "${blamed} (${kind})" \
    "${ok}" "${seconds:--}"
done <<<"${TABLE}"
echo "${good} of ${total} found within ${BUDGET} s, reduced to <= 10 instructions and rightly blamed"
echo "findings under ${OUT}"
[[ $((good * 10)) -ge $((total * 9)) ]]
