// Kernels of compare, select and clamp, with client-form implicit
// broadcasting (elementwise_broadcast.h).
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/comparison.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/elementwise_binary_ops.h"
#include "compiler/evaluator/elementwise_broadcast.h"
#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

absl::StatusOr<ComparisonDirection> ParseDirection(
    const Instruction& instruction) {
  const EnumValue* value = instruction.attrs().Get<EnumValue>(attr::kDirection);
  if (value == nullptr) {
    return KernelError(instruction, "compare needs direction=");
  }
  std::optional<ComparisonDirection> direction =
      ParseComparisonDirection(value->spelling);
  if (!direction.has_value()) {
    return KernelError(
        instruction,
        absl::StrCat("unknown comparison direction ", value->spelling));
  }
  return *direction;
}

// The comparison type=, defaulting from the element type as XLA does
// (DefaultComparisonType). An explicit type must suit the element type.
absl::StatusOr<std::string> ComparisonType(const Instruction& instruction,
                                           ElementType type) {
  const std::string fitting(DefaultComparisonType(type));
  const EnumValue* value = instruction.attrs().Get<EnumValue>(attr::kType);
  if (value == nullptr) return fitting;
  if (value->spelling == fitting ||
      (value->spelling == "TOTALORDER" && fitting == "FLOAT")) {
    return value->spelling;
  }
  return KernelError(
      instruction,
      absl::StrCat("comparison type ", value->spelling,
                   " does not suit element type ", ElementTypeName(type),
                   " (operation_semantics.md, Compare)"));
}

// Each element's total-order key; complex elements give (real, imag).
std::vector<std::pair<uint64_t, uint64_t>> TotalOrderKeys(
    const Literal& literal) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  std::vector<std::pair<uint64_t, uint64_t>> keys(literal.element_count());
  if (info.kind == TypeKind::kComplex) {
    const ElementTypeInfo& part = GetElementTypeInfo(info.component);
    const int bytes = part.bit_width / 8;
    const uint8_t* data = literal.data().data();
    for (size_t i = 0; i < keys.size(); ++i) {
      uint64_t re = 0, im = 0;  // Little-endian hosts: low bytes first.
      std::memcpy(&re, data + 2 * i * bytes, bytes);
      std::memcpy(&im, data + (2 * i + 1) * bytes, bytes);
      keys[i] = {FloatTotalOrderKey(re, part), FloatTotalOrderKey(im, part)};
    }
    return keys;
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = {FloatTotalOrderKey(literal.GetBits(i), info), 0};
  }
  return keys;
}

absl::StatusOr<Literal> TotalOrderCompare(const Instruction& instruction,
                                          const BroadcastPlan& plan,
                                          const Literal& lhs,
                                          const Literal& rhs,
                                          ComparisonDirection direction,
                                          EvalContext& context) {
  absl::StatusOr<Literal> result =
      NewBroadcastResult(instruction, plan, ElementType::kPred, context);
  if (!result.ok()) return result;
  const auto a = TotalOrderKeys(lhs);
  const auto b = TotalOrderKeys(rhs);
  BroadcastWalker walker(plan);
  for (uint8_t& out : MutableElements<uint8_t>(*result)) {
    out = ApplyDirection(direction, a[walker.offset(0)], b[walker.offset(1)]);
    walker.Next();
  }
  return result;
}

absl::StatusOr<Literal> CompareKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  if (operands.size() != 2) {
    return KernelError(instruction, "compare expects two operands");
  }
  absl::StatusOr<BroadcastPlan> plan = PlanBroadcast(instruction, operands);
  if (!plan.ok()) return plan.status();
  const ElementType type = operands[0]->element_type();
  if (operands[1]->element_type() != type) {
    return KernelError(instruction, "compare operands must have one type");
  }
  absl::StatusOr<ComparisonDirection> direction = ParseDirection(instruction);
  if (!direction.ok()) return direction.status();
  absl::StatusOr<std::string> comparison = ComparisonType(instruction, type);
  if (!comparison.ok()) return comparison.status();
  if (IsComplexType(type) && *direction != ComparisonDirection::kEq &&
      *direction != ComparisonDirection::kNe) {
    return KernelError(instruction, "complex numbers compare only EQ and NE");
  }
  if (*comparison == "TOTALORDER") {
    return TotalOrderCompare(instruction, *plan, *operands[0], *operands[1],
                             *direction, context);
  }
  const ComparisonDirection d = *direction;
  return DispatchByComputeType(type, [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::type;
    return CombineElements<T, bool>(
        instruction, *plan, *operands[0], *operands[1], ElementType::kPred,
        context, [d](T a, T b) {
          if constexpr (kIsComplex<T>) {
            return d == ComparisonDirection::kEq ? a == b : a != b;
          } else {
            return ApplyDirection(d, a, b);
          }
        });
  });
}

// Tuples select as a whole under a scalar pred.
absl::StatusOr<Literal> SelectTuple(const Instruction& instruction,
                                    absl::Span<const Literal* const> operands) {
  const Literal& pred = *operands[0];
  if (!pred.shape().IsScalar() || pred.element_type() != ElementType::kPred) {
    return KernelError(instruction, "selecting tuples needs a scalar pred");
  }
  if (!operands[1]->shape().Compatible(operands[2]->shape())) {
    return KernelError(instruction,
                       "on_true and on_false must have the same shape");
  }
  return Elements<uint8_t>(pred)[0] != 0 ? *operands[1] : *operands[2];
}

absl::StatusOr<Literal> SelectKernel(const Instruction& instruction,
                                     absl::Span<const Literal* const> operands,
                                     EvalContext& context) {
  if (operands.size() != 3) {
    return KernelError(instruction, "select expects three operands");
  }
  if (operands[1]->shape().IsTuple()) return SelectTuple(instruction, operands);
  absl::StatusOr<BroadcastPlan> plan = PlanBroadcast(instruction, operands);
  if (!plan.ok()) return plan.status();
  const ElementType type = operands[1]->element_type();
  if (operands[0]->element_type() != ElementType::kPred ||
      operands[2]->element_type() != type) {
    return KernelError(instruction,
                       "select takes a pred and two values of one type");
  }
  absl::StatusOr<Literal> result =
      NewBroadcastResult(instruction, *plan, type, context);
  if (!result.ok()) return result;
  // Element type aside, select copies whole elements: work on bytes.
  const int64_t bytes = GetElementTypeInfo(type).storage_bytes;
  const uint8_t* pred = operands[0]->data().data();
  uint8_t* out = result->mutable_data().data();
  BroadcastWalker walker(*plan);
  for (int64_t i = 0; i < plan->result_count; ++i) {
    const size_t k = pred[walker.offset(0)] != 0 ? 1 : 2;
    std::memcpy(out + i * bytes,
                operands[k]->data().data() + walker.offset(k) * bytes, bytes);
    walker.Next();
  }
  return result;
}

// clamp(lo, x, hi) = min(max(x, lo), hi) with maximum's and minimum's
// rules (NaN propagates).
absl::StatusOr<Literal> ClampKernel(const Instruction& instruction,
                                    absl::Span<const Literal* const> operands,
                                    EvalContext& context) {
  if (operands.size() != 3) {
    return KernelError(instruction, "clamp expects three operands");
  }
  absl::StatusOr<BroadcastPlan> plan = PlanBroadcast(instruction, operands);
  if (!plan.ok()) return plan.status();
  const ElementType type = operands[1]->element_type();
  if (operands[0]->element_type() != type ||
      operands[2]->element_type() != type) {
    return KernelError(instruction, "clamp operands must have one type");
  }
  absl::StatusOr<Literal> result =
      NewBroadcastResult(instruction, *plan, type, context);
  if (!result.ok()) return result;
  return DispatchByComputeType(type, [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) {
      return UnsupportedType(instruction, type);
    } else {
      const auto lo = ReadBroadcast<T>(*operands[0], *plan, 0);
      const auto x = ReadBroadcast<T>(*operands[1], *plan, 1);
      const auto hi = ReadBroadcast<T>(*operands[2], *plan, 2);
      std::vector<Stored<T>> out(x.size());
      const MaximumOp max{BitWidth(type)};
      const MinimumOp min{BitWidth(type)};
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = min(max(T(x[i]), T(lo[i])), T(hi[i]));
      }
      WriteValues<T>(out, *result);
      return std::move(result);
    }
  });
}

}  // namespace

void RegisterCompareSelectKernels(KernelTable* table) {
  // OnValidElements: operands with dynamic sizes are computed on their
  // valid elements only (docs/evaluator_dynamic.md).
  table->Set(Opcode::kCompare, &OnValidElements<CompareKernel>);
  table->Set(Opcode::kSelect, &OnValidElements<SelectKernel>);
  table->Set(Opcode::kClamp, &OnValidElements<ClampKernel>);
}

}  // namespace eval
}  // namespace kiln
