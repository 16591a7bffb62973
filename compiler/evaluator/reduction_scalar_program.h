// Sort's cheap general path: a comparator whose every instruction is one of
// a few exact scalar ops is compiled once into a list of steps over 64-bit
// slots (each value's bit pattern, masked to its type's width) and run per
// comparison without Literals, frames or kernel dispatch. The ops are those
// whose result is the operands' bits rearranged or compared, so that each
// step is exactly what its kernel computes:
//   parameter, constant, compare (every direction; FLOAT, TOTALORDER,
//   SIGNED, UNSIGNED), select, and, or, xor, not, bitcast-convert between
//   types of one width, and on integers add, subtract, multiply, negate
//   (wrapping to the width).
// Anything else (float arithmetic, which rounds per type; complex; tuples;
// any attribute but compare's) leaves the comparator on the calling path.
// docs/evaluator_reduction_control.md.
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_SCALAR_PROGRAM_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_SCALAR_PROGRAM_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "compiler/evaluator/comparison.h"
#include "compiler/ir/computation.h"

namespace kiln {
namespace eval {

class ScalarProgram {
 public:
  // The program of `computation`, whose parameters must be scalars of
  // `parameter_types` and whose root a scalar of `result_type`; nullopt
  // when some instruction is outside the op set above.
  static std::optional<ScalarProgram> Compile(
      const Computation& computation,
      absl::Span<const ElementType> parameter_types, ElementType result_type);

  // Sets parameter `k` to the bit pattern `bits` (as Literal::GetBits).
  void Set(int k, uint64_t bits) { slots_[parameter_slots_[k]] = bits; }
  // Runs the steps; the root's bit pattern.
  uint64_t Run();

  enum class Op : uint8_t {
    kCompareFloat,
    kCompareTotal,
    kCompareSigned,
    kCompareUnsigned,
    kSelect,
    kAnd,
    kOr,
    kXor,
    kNot,
    kAdd,
    kSubtract,
    kMultiply,
    kNegate,
    kCopy,
  };

 private:
  struct Step {
    Op op;
    ComparisonDirection direction = ComparisonDirection::kEq;
    ElementType type = ElementType::kInvalid;  // Of the operands.
    int32_t out = 0;
    int32_t a = 0;
    int32_t b = 0;
    int32_t c = 0;
    uint64_t mask = 0;  // The result's width.
  };

  bool Compare(const Step& step) const;

  std::vector<uint64_t> slots_;
  std::vector<int32_t> parameter_slots_;
  std::vector<Step> steps_;
  int32_t root_ = 0;
};

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_SCALAR_PROGRAM_H_
