// algebraic-simplifier: a peephole pass of small named rewrites (identities
// such as x+0, x*1, double negation, select with a constant predicate,
// reshape/transpose/broadcast/slice chains), run by the rewrite driver of
// compiler/pass/rewrite.h until none fires.
//
// Every rewrite of `algebraic-simplifier` is exact: it changes no computed
// value for any input, NaN, infinities and signed zeros included (the
// reference evaluator is the judge; docs/passes_catalog.md says why each
// one is). Float rewrites that can change a result (x*0 -> 0, x-x -> 0,
// x+(+0) -> x, x/c -> x*(1/c) for any c, reassociation) run only in
// `algebraic-simplifier-fast-math`, the same pass with
// AlgebraicSimplifierOptions::allow_unsafe_float set.
//
// Instructions with control dependencies are left alone. Each rewrite looks
// at one instruction and its operands (constants of at most
// algsimp::kMaxInspectedElements elements), so a sweep is linear.
#ifndef KILN_PASSES_ALGEBRAIC_SIMPLIFIER_H_
#define KILN_PASSES_ALGEBRAIC_SIMPLIFIER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/rewrite.h"

namespace kiln {

struct AlgebraicSimplifierOptions {
  // Allows float rewrites that may change results on NaN, infinities,
  // signed zeros or by rounding (fast math).
  bool allow_unsafe_float = false;
};

// The rewrites, in the order they are tried on each instruction.
std::vector<Rewrite> AlgebraicSimplifierRewrites(
    const AlgebraicSimplifierOptions& options);

class AlgebraicSimplifierPass : public RewritePass {
 public:
  explicit AlgebraicSimplifierPass(AlgebraicSimplifierOptions options = {})
      : options_(options) {}
  absl::string_view name() const override {
    return options_.allow_unsafe_float ? "algebraic-simplifier-fast-math"
                                       : "algebraic-simplifier";
  }
  std::vector<Rewrite> rewrites() const override {
    return AlgebraicSimplifierRewrites(options_);
  }

 private:
  AlgebraicSimplifierOptions options_;
};

// The registered fast-math variant (allow_unsafe_float = true).
class AlgebraicSimplifierFastMathPass : public AlgebraicSimplifierPass {
 public:
  AlgebraicSimplifierFastMathPass()
      : AlgebraicSimplifierPass(AlgebraicSimplifierOptions{true}) {}
};

namespace algsimp {
// Appended by the topic files, in the order tried.
void AddArithmeticRewrites(const AlgebraicSimplifierOptions& options,
                           std::vector<Rewrite>* rewrites);
void AddLogicRewrites(const AlgebraicSimplifierOptions& options,
                      std::vector<Rewrite>* rewrites);
void AddShapeRewrites(std::vector<Rewrite>* rewrites);
void AddIndexingRewrites(std::vector<Rewrite>* rewrites);
}  // namespace algsimp

}  // namespace kiln

#endif  // KILN_PASSES_ALGEBRAIC_SIMPLIFIER_H_
