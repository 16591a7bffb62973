#!/bin/bash -eu
# Builds Kiln's libFuzzer targets the way OSS-Fuzz / ClusterFuzz builds a
# project (https://google.github.io/oss-fuzz/getting-started/new-project-guide/):
# the compilers and flags come from $CC, $CXX, $CFLAGS, $CXXFLAGS, the
# fuzzing engine from $LIB_FUZZING_ENGINE, and everything lands in $OUT:
#
#   $OUT/hlo_text_fuzzer                  the HLO text parser/printer
#   $OUT/module_fuzzer                    the module generator + evaluator
#   $OUT/<target>_seed_corpus.zip         seed corpora
#   $OUT/<target>.dict, <target>.options  dictionary and libFuzzer options
#
# Locally (docs/fuzzing.md):
#   CC=clang CXX=clang++ CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only \
#     -fsanitize=address,undefined -fsanitize=fuzzer-no-link" \
#   CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out \
#   BAZEL_STARTUP="--output_base=$HOME/.cache/kiln-oss-fuzz" fuzz/oss-fuzz/build.sh
#
# FUZZ_TARGETS limits the targets (default: both). Bazel runs offline with
# the Debian libraries of WORKSPACE, which are built against libstdc++:
# OSS-Fuzz's -stdlib=libc++ is dropped from $CXXFLAGS.
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}" "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" \
  "${CXXFLAGS:=${CFLAGS}}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
TARGETS="${FUZZ_TARGETS:-hlo_text_fuzzer module_fuzzer}"
mkdir -p "${OUT}"

flags=(--define=kiln_fuzz=oss --repo_env=CC="${CC}" --repo_env=CXX="${CXX}"
  --copt=-Wno-unused-command-line-argument --strip=never
  --custom_malloc=@bazel_tools//tools/cpp:malloc --symlink_prefix=/)
for f in ${CFLAGS}; do flags+=(--conlyopt="${f}"); done
for f in ${CXXFLAGS}; do
  [[ "${f}" == -stdlib=libc++ ]] && continue
  flags+=(--cxxopt="${f}")
  # The sanitizer runtimes are linked by the same flags.
  if [[ "${f}" == -fsanitize=* && "${f}" != *fuzzer-no-link* ]]; then
    flags+=(--linkopt="${f}")
  fi
done
# Bazel links with the C driver: the C++ parts of the sanitizer runtimes
# are asked for explicitly.
flags+=(--linkopt=-fsanitize-link-c++-runtime)
# lld where there is one: gold warns about every ASan local symbol.
command -v ld.lld >/dev/null && flags+=(--linkopt=-fuse-ld=lld)
for f in ${LIB_FUZZING_ENGINE}; do flags+=(--linkopt="${f}"); done

labels=()
for target in ${TARGETS}; do
  case "${target}" in
    hlo_text_fuzzer) labels+=(//fuzz:hlo_text_fuzzer) ;;
    module_fuzzer) labels+=(//fuzz/generator:module_fuzzer) ;;
    *) echo "build.sh: unknown target ${target}" >&2; exit 2 ;;
  esac
done
# shellcheck disable=SC2086
bazel ${BAZEL_STARTUP:-} build "${flags[@]}" "${labels[@]}"
# shellcheck disable=SC2086
bin="$(bazel ${BAZEL_STARTUP:-} info "${flags[@]}" bazel-bin 2>/dev/null)"

here=fuzz/oss-fuzz
for target in ${TARGETS}; do
  case "${target}" in
    hlo_text_fuzzer)
      install -m 755 "${bin}/fuzz/hlo_text_fuzzer" "${OUT}/"
      (cd fuzz/corpus/hlo_text && zip -q -j -r \
        "${OUT}/hlo_text_fuzzer_seed_corpus.zip" .)
      ;;
    module_fuzzer)
      install -m 755 "${bin}/fuzz/generator/module_fuzzer" "${OUT}/"
      # Generator decisions: a few fixed byte strings (every input is a
      # valid module, so any bytes seed it).
      seeds="$(mktemp -d)"
      for i in 1 2 3 4 5 6 7 8; do
        seq -s, "${i}" $((i * 9)) >"${seeds}/seed-${i}"
      done
      (cd "${seeds}" && zip -q -j -r "${OUT}/module_fuzzer_seed_corpus.zip" .)
      rm -rf "${seeds}"
      ;;
  esac
  cp "${here}/${target}.dict" "${OUT}/" 2>/dev/null || true
  cp "${here}/${target}.options" "${OUT}/"
done
ls -l "${OUT}"
