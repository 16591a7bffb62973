// tuple-simplification: removes tuples that are built only to be taken
// apart, after XLA's TupleSimplifier. Rewrites (a RewritePass, so they
// apply until none fires):
//
//   - gte-of-tuple: get-tuple-element(tuple(a0, ..., an), i) -> ai.
//   - tuple-of-gtes: tuple(gte(x, 0), ..., gte(x, n-1)), where x has
//     exactly n elements and the same shape as the tuple -> x.
//   - gte-of-call: get-tuple-element(call(args), i) where the callee's ROOT
//     is a tuple whose element i is the callee's parameter j -> args[j].
//   - gte-of-while: get-tuple-element(while(init), i) where the body's ROOT
//     is a tuple whose element i is get-tuple-element(body parameter, i)
//     (element i is loop-invariant) -> a new get-tuple-element(init, i),
//     which gte-of-tuple then folds when init is a tuple.
//
// Every rewrite is exact: the replacement holds the same value. Shapes must
// be equal layouts included, so no user sees a different layout. Left
// alone: instructions with control dependencies (moving them could make a
// cycle), conditional branches (their operands differ per branch), tuples
// left without users (dce removes them).
#ifndef KILN_PASSES_TUPLE_SIMPLIFICATION_H_
#define KILN_PASSES_TUPLE_SIMPLIFICATION_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/pass/rewrite.h"

namespace kiln {

class TupleSimplificationPass : public RewritePass {
 public:
  absl::string_view name() const override { return "tuple-simplification"; }
  std::vector<Rewrite> rewrites() const override;
};

}  // namespace kiln

#endif  // KILN_PASSES_TUPLE_SIMPLIFICATION_H_
