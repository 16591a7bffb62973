// broadcast-legalization: rewrites client-form implicit broadcasting
// (broadcasting.md) into strict HLO, and canonicalizes broadcasts.
//
// On the n-ary elementwise ops (the binary arithmetic, logical and shift
// ops, compare, complex, select, clamp) every operand whose dimensions
// differ from the result's becomes an explicit `broadcast` (XLA's: operand
// dim i maps to result dim dimensions[i], sizes equal), preceded by a
// `reshape` that removes the size-1 dimensions that stretch. Scalars,
// InDim (broadcast_dimensions), degenerate dimensions and their
// composition are all covered; broadcast_dimensions is dropped. Clamp's
// scalar min/max stay scalars (strict HLO allows them). A client-form
// `broadcast` that stretches size-1 operand dimensions is rewritten the
// same way.
//
// Canonicalization: a broadcast of a broadcast folds into one; a broadcast
// that only adds size-1 dimensions becomes a reshape; one that only
// permutes dimensions becomes a transpose; an identity broadcast is
// replaced by its operand.
//
// Left alone: ops with dynamic (bounded) dimensions among the operands or
// result, and select of tuples (not a broadcast). Afterwards a module
// without those verifies in ShapeForm::kStrict. The rewrite is exact: it
// only moves elements, never changes a value.
#ifndef KILN_PASSES_BROADCAST_LEGALIZATION_H_
#define KILN_PASSES_BROADCAST_LEGALIZATION_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class BroadcastLegalizationPass : public Pass {
 public:
  absl::string_view name() const override { return "broadcast-legalization"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_PASSES_BROADCAST_LEGALIZATION_H_
