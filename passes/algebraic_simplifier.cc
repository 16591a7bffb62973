#include "passes/algebraic_simplifier.h"

#include "compiler/pass/pass.h"

namespace kiln {

std::vector<Rewrite> AlgebraicSimplifierRewrites(
    const AlgebraicSimplifierOptions& options) {
  std::vector<Rewrite> rewrites;
  algsimp::AddArithmeticRewrites(options, &rewrites);
  algsimp::AddLogicRewrites(options, &rewrites);
  algsimp::AddShapeRewrites(&rewrites);
  algsimp::AddIndexingRewrites(&rewrites);
  return rewrites;
}

KILN_REGISTER_PASS(AlgebraicSimplifierPass);
KILN_REGISTER_PASS(AlgebraicSimplifierFastMathPass);

}  // namespace kiln
