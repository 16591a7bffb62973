#!/usr/bin/env bash
# Kiln's cpu backend side by side with XLA's own CPU compiler, both run by
# `kiln bench` in process: XLA through the pjrt backend and XLA's CPU PJRT
# plugin (fetched by tools/setup.sh), so no Python and no jaxlib. The
# workloads are vs_xla.py's, as the HLO files in workloads/ (JAX's
# lowering; `vs_xla.py --write_hlo=DIR` rewrites them). Both sides get the
# same random arguments (kiln bench --random_args=0), run on the same cores
# (taskset), and alternate in rounds; each cell is the median over rounds
# of kiln bench's median run. Prints one Markdown table.
#
#   tools/bench/vs_xla/pjrt.sh [--cores=0] [--rounds=3] [--runs=5]
#                              [--only=REGEX] [--kiln=PATH] [--plugin=PATH]
#
# Builds kiln with -c opt unless --kiln is given.
set -euo pipefail
cd "$(dirname "$0")/../../.."

cores=0
rounds=3
runs=5
only=""
kiln=""
plugin="third_party/pjrt/lib/xla_cpu_plugin.so"
for arg in "$@"; do
  case "${arg}" in
    --cores=*) cores="${arg#*=}" ;;
    --rounds=*) rounds="${arg#*=}" ;;
    --runs=*) runs="${arg#*=}" ;;
    --only=*) only="${arg#*=}" ;;
    --kiln=*) kiln="${arg#*=}" ;;
    --plugin=*) plugin="${arg#*=}" ;;
    *)
      sed -n '2,15p' "$0" >&2
      exit 2
      ;;
  esac
done
if [[ -z "${kiln}" ]]; then
  tools/setup.sh
  bazel build -c opt //tools:kiln
  kiln="$(bazel info -c opt bazel-bin)/tools/kiln"
fi
if [[ ! -e "${plugin}" ]]; then
  echo "pjrt.sh: no plugin at ${plugin} (tools/setup.sh fetches XLA's)" >&2
  exit 1
fi

# One kiln bench: prints "median_s compile_cold_s compile_warm_s", or
# "error: LAST LINE OF STDERR".
bench() {
  local backend="$1" hlo="$2" out
  if ! out="$(taskset -c "${cores}" "${kiln}" bench "--backend=${backend}" \
    --json --random_args=0 "--runs=${runs}" "${hlo}" 2>&1)"; then
    echo "error: $(tail -n 1 <<<"${out}" | cut -c1-80)"
    return
  fi
  awk -v RS='[{},]' -F': *' '
    /"run_median_s"/ {m = $2} /"compile_cold_s"/ {c = $2}
    /"compile_warm_s"/ {w = $2}
    END {print m, c, w}' <<<"$(tail -n 1 <<<"${out}")"
}

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "cores ${cores}; ${rounds} rounds x ${runs} runs; kiln ${kiln};" \
  "XLA: ${plugin} ($(readlink -f "${plugin}"))"
echo
echo "| workload | Kiln cpu ms | XLA (pjrt) ms | Kiln speed vs XLA |" \
  "Kiln compile cold/warm ms | XLA compile cold/warm ms |"
echo "|---|---|---|---|---|---|"
for hlo in tools/bench/vs_xla/workloads/*.hlo; do
  name="$(head -n 1 "${hlo}" | sed -n 's|^// \(.*\): written by.*|\1|p')"
  name="${name:-$(basename "${hlo}" .hlo)}"
  if [[ -n "${only}" ]] && ! grep -Eq -- "${only}" <<<"${name}"; then
    continue
  fi
  cpu_times=() xla_times=() cpu_compile="" xla_compile="" error=""
  for ((round = 0; round < rounds; ++round)); do
    cpu="$(bench cpu "${hlo}")"
    xla="$(bench "pjrt:${plugin}" "${hlo}")"
    if [[ "${cpu}" == error:* || "${xla}" == error:* ]]; then
      error="${cpu#error: }"
      [[ "${xla}" == error:* ]] && error="XLA: ${xla#error: }"
      break
    fi
    read -r time cold warm <<<"${cpu}"
    cpu_times+=("${time}")
    cpu_compile="$(awk -v c="${cold}" -v w="${warm}" \
      'BEGIN {printf "%.0f/%.1f", c * 1e3, w * 1e3}')"
    read -r time cold warm <<<"${xla}"
    xla_times+=("${time}")
    xla_compile="$(awk -v c="${cold}" -v w="${warm}" \
      'BEGIN {printf "%.0f/%.1f", c * 1e3, w * 1e3}')"
  done
  if [[ -n "${error}" ]]; then
    echo "| ${name} | ${error} | | | | |"
    continue
  fi
  c="$(printf '%s\n' "${cpu_times[@]}" | median)"
  x="$(printf '%s\n' "${xla_times[@]}" | median)"
  awk -v n="${name}" -v c="${c}" -v x="${x}" -v cc="${cpu_compile}" \
    -v xc="${xla_compile}" 'BEGIN {
      printf "| %s | %.3f | %.3f | %.2fx | %s | %s |\n",
             n, c * 1e3, x * 1e3, x / c, cc, xc }'
done
