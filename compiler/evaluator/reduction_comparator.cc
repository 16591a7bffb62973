#include "compiler/evaluator/reduction_comparator.h"

#include <string>
#include <type_traits>
#include <utility>

#include "compiler/evaluator/comparison.h"
#include "compiler/evaluator/typed.h"

namespace kiln {
namespace eval {
namespace {

template <typename T>
uint64_t IntegerKey(T value) {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(value)) ^
           (uint64_t{1} << 63);
  } else {
    return static_cast<uint64_t>(value);
  }
}

}  // namespace

std::vector<uint64_t> OrderedKeys(const Literal& literal) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  std::vector<uint64_t> keys(static_cast<size_t>(literal.element_count()));
  if (info.kind == TypeKind::kFloat) {
    for (size_t i = 0; i < keys.size(); ++i) {
      keys[i] = FloatTotalOrderKey(literal.GetBits(i), info);
    }
    return keys;
  }
  DispatchByComputeType(literal.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      const std::vector<T> values = Read<T>(literal);
      for (size_t i = 0; i < keys.size(); ++i) keys[i] = IntegerKey(values[i]);
    }
  });
  return keys;
}

std::optional<FastComparator> FastComparator::Recognize(
    const Computation& computation, const Literal& keys,
    int64_t operand_count) {
  const ElementType type = keys.element_type();
  const int64_t params = static_cast<int64_t>(computation.parameters().size());
  const Instruction* root = computation.root();
  if (IsComplexType(type) || !keys.shape().IsArray() ||
      params != 2 * operand_count ||
      computation.instruction_count() != params + 1 || root == nullptr ||
      root->opcode() != Opcode::kCompare || root->operand_count() != 2 ||
      root->operand(0) != computation.parameter(0) ||
      root->operand(1) != computation.parameter(1) ||
      !computation.parameter(0)->shape().Compatible(Shape::Scalar(type)) ||
      !root->shape().Compatible(Shape::Scalar(ElementType::kPred))) {
    return std::nullopt;
  }
  const EnumValue* direction = root->attrs().Get<EnumValue>("direction");
  const EnumValue* comparison = root->attrs().Get<EnumValue>("type");
  const size_t attrs = root->attrs().entries().size();
  if (direction == nullptr || attrs != (comparison == nullptr ? 1u : 2u)) {
    return std::nullopt;
  }
  FastComparator comparator;
  const std::optional<ComparisonDirection> parsed =
      ParseComparisonDirection(direction->spelling);
  const bool known = parsed.has_value();
  if (known) comparator.direction_ = *parsed;
  const std::string fitting(DefaultComparisonType(type));
  const std::string chosen =
      comparison == nullptr ? fitting : comparison->spelling;
  if (!known ||
      !(chosen == fitting || (chosen == "TOTALORDER" && fitting == "FLOAT"))) {
    return std::nullopt;
  }
  if (chosen == "FLOAT") {
    comparator.by_value_ = true;
    comparator.values_.resize(static_cast<size_t>(keys.element_count()));
    for (size_t i = 0; i < comparator.values_.size(); ++i) {
      comparator.values_[i] = keys.GetDouble(i);
    }
  } else {
    comparator.ordered_ = OrderedKeys(keys);
  }
  return comparator;
}

}  // namespace eval
}  // namespace kiln
