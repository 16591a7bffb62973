// Random number generation: rng, rng-bit-generator,
// rng-get-and-update-state. The generated data's dimensions are the
// declared result's (XLA's `shape` argument); the rules check the
// parameters, the state and the declared form.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ops/element_type_classes.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kRngUniform = "operation_semantics.md, RngUniform";
constexpr absl::string_view kRngNormal = "operation_semantics.md, RngNormal";
constexpr absl::string_view kRngBitGenerator =
    "operation_semantics.md, RngBitGenerator";
constexpr absl::string_view kRngState =
    "operation_semantics.md, RngGetAndUpdateState";

// A copy of `shape` with default layouts.
Shape WithDefaultLayout(Shape shape) {
  shape.clear_layout();
  shape.SetDefaultLayoutIfMissing();
  return shape;
}

// rng(a, b): scalar parameters of one type T (floating point for
// rng_normal; pred, integral or floating point for rng_uniform); the result
// is the declared dimensions with element type T.
absl::StatusOr<Shape> RngShape(const Instruction& instruction,
                               ShapeForm /*form*/) {
  const EnumValue* distribution =
      instruction.attrs().Get<EnumValue>(attr::kDistribution);
  const bool normal =
      distribution != nullptr && distribution->spelling == "rng_normal";
  const absl::string_view section = normal ? kRngNormal : kRngUniform;
  const uint8_t classes =
      normal ? kFloatClass : kPredClass | kIntegralClasses | kFloatClass;
  for (int64_t i = 0; i < 2; ++i) {
    absl::StatusOr<const Shape*> param = ArrayOperand(instruction, i, section);
    if (!param.ok()) return param.status();
    if (!(*param)->IsScalar()) {
      return RuleError(instruction,
                       absl::StrCat("operand ", i, " is ", ShapeText(**param),
                                    ", expected a scalar parameter"),
                       section);
    }
    KILN_RULE_RETURN_IF_ERROR(
        CheckElementClasses(instruction, i, classes, section));
  }
  KILN_RULE_RETURN_IF_ERROR(CheckSameElementType(instruction, {0, 1}, section));
  const Shape& declared = instruction.shape();
  if (!declared.IsArray()) {
    return RuleError(instruction,
                     absl::StrCat("declared shape ", ShapeText(declared),
                                  " is not an array"),
                     section);
  }
  return WithDefaultLayout(WithElementType(
      declared, instruction.operand(0)->shape().element_type()));
}

// The state sizes each algorithm accepts (u64[n]); empty: any size.
std::vector<int64_t> StateSizes(absl::string_view algorithm) {
  if (algorithm == "rng_three_fry") return {2};
  if (algorithm == "rng_philox") return {2, 3};
  return {};
}

absl::Status CheckState(const Instruction& instruction, const Shape& state,
                        absl::string_view algorithm) {
  const std::vector<int64_t> sizes = StateSizes(algorithm);
  bool ok = state.IsArray() && state.element_type() == ElementType::kU64 &&
            state.rank() == 1 && state.is_static();
  if (ok && !sizes.empty()) {
    ok = std::find(sizes.begin(), sizes.end(), state.dimension(0)) !=
         sizes.end();
  }
  if (ok) return absl::OkStatus();
  std::string expected = "u64[n]";
  if (!sizes.empty()) {
    expected = absl::StrCat("u64[", absl::StrJoin(sizes, "] or u64["), "]");
  }
  return RuleError(instruction,
                   absl::StrCat("initial state is ", ShapeText(state),
                                ", expected ", expected, " for ", algorithm),
                   kRngBitGenerator);
}

// rng-bit-generator(state): (state, data) with data an integral array of
// the declared dimensions.
absl::StatusOr<Shape> RngBitGeneratorShape(const Instruction& instruction,
                                           ShapeForm /*form*/) {
  const EnumValue* algorithm =
      instruction.attrs().Get<EnumValue>(attr::kAlgorithm);
  const std::string name =
      algorithm == nullptr ? "rng_default" : algorithm->spelling;
  const Shape& state = instruction.operand(0)->shape();
  KILN_RULE_RETURN_IF_ERROR(CheckState(instruction, state, name));
  const Shape& declared = instruction.shape();
  const bool ok =
      declared.IsTuple() && declared.tuple_shapes().size() == 2 &&
      declared.tuple_shape(1).IsArray() &&
      InClasses(declared.tuple_shape(1).element_type(), kIntegralClasses);
  if (!ok) {
    return RuleError(instruction,
                     absl::StrCat("declared shape ", ShapeText(declared),
                                  " is not (state, integral data array)"),
                     kRngBitGenerator);
  }
  return Shape::Tuple(
      {WithDefaultLayout(state), WithDefaultLayout(declared.tuple_shape(1))});
}

absl::StatusOr<Shape> RngGetAndUpdateStateShape(const Instruction& instruction,
                                                ShapeForm /*form*/) {
  absl::StatusOr<int64_t> delta =
      RequiredInt64Attr(instruction, attr::kDelta, kRngState);
  if (!delta.ok()) return delta.status();
  Shape state = Shape::Array(ElementType::kU64, {2});
  state.SetDefaultLayoutIfMissing();
  return state;
}

}  // namespace

void RegisterRandomSchemas(SchemaTable* table) {
  // XLA prints RandomDistribution / RandomAlgorithm names in lower case.
  Define(table, Opcode::kRng, 2, 2,
         {Enum("distribution", {"rng_uniform", "rng_normal"},
               /*required=*/true)});
  Define(table, Opcode::kRngBitGenerator, 1, 1,
         {Enum("algorithm", {"rng_default", "rng_three_fry", "rng_philox"},
               /*required=*/true)});
  Define(table, Opcode::kRngGetAndUpdateState, 0, 0,
         {Required("delta", AttrKind::kInt64)});

  SetShapeRule(table, Opcode::kRng, RngShape);
  SetShapeRule(table, Opcode::kRngBitGenerator, RngBitGeneratorShape);
  SetShapeRule(table, Opcode::kRngGetAndUpdateState, RngGetAndUpdateStateShape);
}

}  // namespace ops_internal
}  // namespace kiln
