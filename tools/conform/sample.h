// A deterministic part of a suite that still exercises all of it: for
// `kiln conform --sample=cover`, which CI uses where the whole suite is too
// slow for a backend (XLA's CPU plugin through pjrt, one process per case).
#ifndef KILN_TOOLS_CONFORM_SAMPLE_H_
#define KILN_TOOLS_CONFORM_SAMPLE_H_

#include <cstddef>
#include <vector>

#include "tools/conform/runner.h"

namespace kiln::conform {

// How thorough a sample is.
enum class Cover {
  kOpsAndTypes,  // every op and every element type, each at least once
  kPairs,        // every (op, element type) pair
};

// The cases of `candidates` (indices into `traits`, in suite order) that
// cover what `cover` asks of the candidates: a case is kept when it has an
// op, a type or a pair that no earlier kept case has. A case without types
// counts its ops alone. Same input, same output; the order is kept.
std::vector<size_t> CoverSample(const std::vector<CaseTraits>& traits,
                                const std::vector<size_t>& candidates,
                                Cover cover);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_SAMPLE_H_
