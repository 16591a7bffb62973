// zero-sized-elimination: replaces every computation of an array with no
// elements (a dimension of size 0) by a constant of that shape, as XLA's
// ZeroSizedHloElimination does. Such an instruction computes nothing, but
// its operands would still be computed and a backend would still launch
// it; after this pass dce removes whatever only fed it.
//
// Exact: an array without elements has no values to get wrong. Left alone:
// parameters and constants (nothing to gain), instructions with a side
// effect (dce.h's list), dynamic shapes (a bounded dimension of size 0 is
// still static storage, but XLA leaves dynamic shapes alone too) and
// instructions with control dependencies (the constant would drop them).
//
// This pass is the worked example of docs/writing-a-pass.md.
#ifndef KILN_PASSES_ZERO_SIZED_ELIMINATION_H_
#define KILN_PASSES_ZERO_SIZED_ELIMINATION_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/pass/rewrite.h"

namespace kiln {

class ZeroSizedEliminationPass : public RewritePass {
 public:
  absl::string_view name() const override { return "zero-sized-elimination"; }
  std::vector<Rewrite> rewrites() const override;
};

}  // namespace kiln

#endif  // KILN_PASSES_ZERO_SIZED_ELIMINATION_H_
