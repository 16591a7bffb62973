// Seeded bugs: deliberate, realistic mistakes in passes, the evaluator and
// the cpu backend that measure whether `kiln fuzz` finds bugs
// (tools/bench/fuzz_recall.sh, docs/fuzzing.md "Seeded-bug recall").
//
// Each hook is compiled only with --define=kiln_seeded_bugs=1, which adds
// KILN_SEEDED_BUGS to the libraries holding hooks (SEEDED_BUGS_DEFINES in
// seeded_bugs.bzl); a normal build has no bug code at all. The build is
// refused with NDEBUG (-c opt, the release configuration). One build
// serves every bug: the environment variable KILN_SEEDED_BUG names the one
// that is active, and every hook is written
//
//   #ifdef KILN_SEEDED_BUGS
//     if (SeededBug("name")) { ...the mistake... }
//   #endif
#ifndef KILN_COMPILER_UTIL_SEEDED_BUGS_H_
#define KILN_COMPILER_UTIL_SEEDED_BUGS_H_

#ifdef KILN_SEEDED_BUGS
#ifdef NDEBUG
#error \
    "seeded bugs (--define=kiln_seeded_bugs=1) are never in an NDEBUG (-c opt, release) build"
#endif

#include <cstdlib>
#include <cstring>

namespace kiln {

// Whether KILN_SEEDED_BUG names `name`.
inline bool SeededBug(const char* name) {
  static const char* const chosen = std::getenv("KILN_SEEDED_BUG");
  return chosen != nullptr && std::strcmp(chosen, name) == 0;
}

}  // namespace kiln

#endif  // KILN_SEEDED_BUGS
#endif  // KILN_COMPILER_UTIL_SEEDED_BUGS_H_
