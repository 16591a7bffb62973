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
#   BAZEL_ARGS="--output_base=... --disk_cache=..." tools/bench/fuzz_recall.sh
#
# Pass bugs are fuzzed with the pipeline oracle (every registered
# pipeline), evaluator and cpu-backend bugs with the backend oracle against
# the cpu backend: the campaign a team owning that component runs. Exit
# status 0 when >= 90% are found within the budget with a reproducer of at
# most 10 instructions and the right blame.
set -u
cd "$(dirname "$0")/../.."
BUDGET=300
BUGS=""
OUT="${TMPDIR:-/tmp}/kiln-fuzz-recall"
KILN=""
for arg in "$@"; do
  case "${arg}" in
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
layout-forget-copy|--oracle=backend --backend=cpu|layout-assignment
constant-folding-convert|--oracle=pipeline|constant-folding
evaluator-sort-ties|--oracle=backend --backend=cpu|reference
cpu-slice-stride|--oracle=backend --backend=cpu|cpu
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
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; budget ${BUDGET} s per bug"
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
  # One core: one job. The seeds are the same for every bug.
  # shellcheck disable=SC2086
  KILN_SEEDED_BUG="${bug}" timeout $((BUDGET + 120)) "${KILN}" fuzz \
    --seeds=0..100000000 ${flags} --jobs=1 --time="${BUDGET}s" \
    --stop_after=1 --out="${dir}/findings" >"${dir}/stdout" 2>"${dir}/stderr"
  first="$(sed -n 's/^first finding after \([0-9.]*\) s$/\1/p' "${dir}/stdout")"
  oracle="${flags#--oracle=}"
  oracle="${oracle%% *}"
  if [[ -z "${first}" ]]; then
    printf '| %-26s | %-8s | %-5s | %-10s | %-6s | %-28s | %-5s | %-8s |\n' \
      "${bug}" "${oracle}" no "-" "-" "-" "-" "-"
    continue
  fi
  # The first finding written (one seed may fail several pipelines).
  finding="$(dirname "$(ls -tr "${dir}"/findings/*/oracle.txt | head -1)")"
  blamed="$(sed -n 's/^blamed: //p' "${finding}/oracle.txt")"
  kind="$(sed -n 's/^kind: //p' "${finding}/oracle.txt")"
  reduced="$(grep -m1 '^reduced ' "${dir}/stderr")"
  instrs="$(echo "${reduced}" | sed -n 's/.* to \([0-9]*\) instructions.*/\1/p')"
  seconds="$(echo "${reduced}" | sed -n 's/.* in \([0-9.]*\) s .*/\1/p')"
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
