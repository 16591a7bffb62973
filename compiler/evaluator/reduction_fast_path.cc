#include "compiler/evaluator/reduction_fast_path.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "compiler/evaluator/typed.h"

namespace kiln {
namespace eval {
namespace {

// The typed loops. A run with out_step 0 folds into one accumulator (a
// chain in input order); otherwise each input element folds into its own
// output element, once per run.
template <typename T, typename Op>
void ReduceRuns(const ReduceWalk& walk, const T* in, T* out, Op op) {
  absl::Status ignored =
      ForEachRun(walk, [&](int64_t i, int64_t o, int64_t n, int64_t step) {
        if (step == 0) {
          T acc = out[o];
          for (int64_t j = 0; j < n; ++j) acc = op(acc, in[i + j]);
          out[o] = acc;
        } else {
          T* target = out + o;
          const T* source = in + i;
          for (int64_t j = 0; j < n; ++j) {
            target[j * step] = op(target[j * step], source[j]);
          }
        }
        return absl::OkStatus();
      });
  (void)ignored;  // The runs above never fail.
}

std::optional<CombinerOp> OpOf(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAdd:
      return CombinerOp::kAdd;
    case Opcode::kMultiply:
      return CombinerOp::kMultiply;
    case Opcode::kMaximum:
      return CombinerOp::kMaximum;
    case Opcode::kMinimum:
      return CombinerOp::kMinimum;
    case Opcode::kAnd:
      return CombinerOp::kAnd;
    case Opcode::kOr:
      return CombinerOp::kOr;
    default:
      return std::nullopt;
  }
}

// Whether the typed loops cover `op` on `type`.
bool Covers(CombinerOp op, ElementType type) {
  const TypeKind kind = GetElementTypeInfo(type).kind;
  const bool is_bitwise = op == CombinerOp::kAnd || op == CombinerOp::kOr;
  if (kind == TypeKind::kPred) return is_bitwise;
  if (!StorageIsNative(type)) return false;
  if (kind == TypeKind::kSigned || kind == TypeKind::kUnsigned) return true;
  return kind == TypeKind::kFloat && !is_bitwise;
}

}  // namespace

std::optional<CombinerOp> MatchCombinerOp(const Computation& computation,
                                          ElementType type) {
  if (computation.parameters().size() != 2 ||
      computation.instruction_count() != 3) {
    return std::nullopt;
  }
  const Instruction* root = computation.root();
  const Shape scalar = Shape::Scalar(type);
  if (root == nullptr || root->operand_count() != 2 ||
      root->operand(0) != computation.parameter(0) ||
      root->operand(1) != computation.parameter(1) || !root->attrs().empty() ||
      !root->shape().Compatible(scalar) ||
      !computation.parameter(0)->shape().Compatible(scalar) ||
      !computation.parameter(1)->shape().Compatible(scalar)) {
    return std::nullopt;
  }
  return OpOf(root->opcode());
}

std::optional<CombinerOp> RecognizeCombiner(const Computation& computation,
                                            ElementType type) {
  std::optional<CombinerOp> op = MatchCombinerOp(computation, type);
  if (!op.has_value() || !Covers(*op, type)) return std::nullopt;
  return op;
}

void RunFastReduce(CombinerOp op, const ReduceWalk& walk, const Literal& input,
                   Literal& output) {
  WithTypedCombiner(op, input.element_type(), [&](auto tag, auto fn) {
    using T = typename decltype(tag)::type;
    ReduceRuns(walk, reinterpret_cast<const T*>(input.data().data()),
               reinterpret_cast<T*>(output.mutable_data().data()), fn);
  });
}

}  // namespace eval
}  // namespace kiln
