#include "compiler/evaluator/reduction_comparator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include "compiler/evaluator/comparison.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/attr_names.h"
#include "compiler/util/seeded_bugs.h"

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

// compare(y, x) with `direction` is compare(x, y) with the result.
ComparisonDirection Reversed(ComparisonDirection direction) {
  switch (direction) {
    case ComparisonDirection::kLt:
      return ComparisonDirection::kGt;
    case ComparisonDirection::kGt:
      return ComparisonDirection::kLt;
    case ComparisonDirection::kLe:
      return ComparisonDirection::kGe;
    case ComparisonDirection::kGe:
      return ComparisonDirection::kLe;
    default:
      return direction;  // EQ and NE are symmetric.
  }
}

template <typename K>
struct Keyed {
  K key;
  int64_t position;
};

// The general path's bottom-up stable merge (reduction_sort.cc), on keyed
// positions: an element of the right half moves ahead of one of the left
// half only when less(right, left) holds. In bounds whatever `less` says.
template <typename K, typename Less>
void MergeSortKeyed(std::vector<Keyed<K>>& items, Less less) {
  const int64_t n = static_cast<int64_t>(items.size());
  std::vector<Keyed<K>> buffer(items.size());
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = std::min(lo + width, n);
      const int64_t hi = std::min(lo + 2 * width, n);
      int64_t i = lo, j = mid, out = lo;
      while (i < mid && j < hi) {
        buffer[out++] =
            less(items[j].key, items[i].key) ? items[j++] : items[i++];
      }
      while (i < mid) buffer[out++] = items[i++];
      while (j < hi) buffer[out++] = items[j++];
    }
    items.swap(buffer);
  }
}

template <typename K>
void SortKeyed(const std::vector<K>& keys, ComparisonDirection direction,
               bool strict_weak, std::vector<int64_t>& order, int64_t base,
               int64_t step) {
  std::vector<Keyed<K>> items(order.size());
  for (size_t p = 0; p < items.size(); ++p) {
    items[p] = {keys[base + static_cast<int64_t>(p) * step],
                static_cast<int64_t>(p)};
  }
  const auto by_key = [](auto less) {
    return [less](const Keyed<K>& a, const Keyed<K>& b) {
#ifdef KILN_SEEDED_BUGS
      // Seeded: equal keys ordered by descending position (not stable).
      if (SeededBug("evaluator-sort-ties") && !less(b.key, a.key) &&
          !less(a.key, b.key)) {
        return a.position > b.position;
      }
#endif
      return less(a.key, b.key);
    };
  };
  if (strict_weak && direction == ComparisonDirection::kLt) {
    std::stable_sort(items.begin(), items.end(),
                     by_key([](K a, K b) { return a < b; }));
  } else if (strict_weak && direction == ComparisonDirection::kGt) {
    std::stable_sort(items.begin(), items.end(),
                     by_key([](K a, K b) { return a > b; }));
  } else {
    MergeSortKeyed(items, [direction](K a, K b) {
      return ApplyDirection(direction, a, b);
    });
  }
  for (size_t p = 0; p < items.size(); ++p) order[p] = items[p].position;
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
    const Computation& computation, absl::Span<const Literal* const> operands) {
  const int64_t operand_count = static_cast<int64_t>(operands.size());
  const int64_t params = static_cast<int64_t>(computation.parameters().size());
  const Instruction* root = computation.root();
  if (params != 2 * operand_count ||
      computation.instruction_count() != params + 1 || root == nullptr ||
      root->opcode() != Opcode::kCompare || root->operand_count() != 2 ||
      root->operand(0)->opcode() != Opcode::kParameter ||
      root->operand(1)->opcode() != Opcode::kParameter ||
      !root->shape().Compatible(Shape::Scalar(ElementType::kPred))) {
    return std::nullopt;
  }
  // compare(p2k, p2k+1) or compare(p2k+1, p2k).
  int64_t lhs = -1, rhs = -1;
  for (int64_t i = 0; i < params; ++i) {
    if (root->operand(0) == computation.parameter(i)) lhs = i;
    if (root->operand(1) == computation.parameter(i)) rhs = i;
  }
  const bool swapped = lhs == rhs + 1 && lhs % 2 == 1;
  const bool in_order = rhs == lhs + 1 && lhs % 2 == 0;
  if (lhs < 0 || rhs < 0 || (!in_order && !swapped)) {
    return std::nullopt;
  }
  const Literal& keys = *operands[std::min(lhs, rhs) / 2];
  const ElementType type = keys.element_type();
  if (IsComplexType(type) || !keys.shape().IsArray() ||
      !computation.parameter(lhs)->shape().Compatible(Shape::Scalar(type)) ||
      !computation.parameter(rhs)->shape().Compatible(Shape::Scalar(type))) {
    return std::nullopt;
  }
  const EnumValue* direction = root->attrs().Get<EnumValue>(attr::kDirection);
  const EnumValue* comparison = root->attrs().Get<EnumValue>(attr::kType);
  const size_t attrs = root->attrs().entries().size();
  if (direction == nullptr || attrs != (comparison == nullptr ? 1u : 2u)) {
    return std::nullopt;
  }
  FastComparator comparator;
  const std::optional<ComparisonDirection> parsed =
      ParseComparisonDirection(direction->spelling);
  const bool known = parsed.has_value();
  if (known) comparator.direction_ = swapped ? Reversed(*parsed) : *parsed;
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
    if (type == ElementType::kF32 || type == ElementType::kF64 ||
        GetElementTypeInfo(type).bit_width <= 16) {
      DispatchByComputeType(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point_v<T>) {
          const std::vector<T> values = Read<T>(keys);
          std::copy(values.begin(), values.end(), comparator.values_.begin());
        }
      });
    } else {
      for (size_t i = 0; i < comparator.values_.size(); ++i) {
        comparator.values_[i] = keys.GetDouble(i);
      }
    }
    for (double value : comparator.values_) {
      if (std::isnan(value)) comparator.has_nan_ = true;
    }
  } else {
    comparator.ordered_ = OrderedKeys(keys);
  }
  return comparator;
}

void FastComparator::Sort(std::vector<int64_t>& order, int64_t base,
                          int64_t step) const {
  if (by_value_) {
    SortKeyed(values_, direction_, !has_nan_, order, base, step);
  } else {
    SortKeyed(ordered_, direction_, true, order, base, step);
  }
}

}  // namespace eval
}  // namespace kiln
