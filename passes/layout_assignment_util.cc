#include "passes/layout_assignment_util.h"

#include <algorithm>
#include <utility>

namespace kiln {
namespace layout_util {
namespace {

// The dimensions of `order` whose size in `dims` is not 1, in order.
std::vector<int64_t> WithoutSizeOne(const std::vector<int64_t>& order,
                                    absl::Span<const int64_t> dims) {
  std::vector<int64_t> kept;
  for (int64_t d : order) {
    if (dims[d] != 1) kept.push_back(d);
  }
  return kept;
}

// A reshape splits into groups: consecutive non-size-1 source dimensions
// whose product equals that of consecutive non-size-1 target dimensions.
struct ReshapeGroup {
  std::vector<int64_t> from;
  std::vector<int64_t> to;
};

// The groups, or nullopt if the products never line up (element counts
// differ, or a zero-sized dimension).
std::optional<std::vector<ReshapeGroup>> ReshapeGroups(
    absl::Span<const int64_t> from_dims, absl::Span<const int64_t> to_dims) {
  std::vector<int64_t> from, to;
  for (int64_t d = 0; d < static_cast<int64_t>(from_dims.size()); ++d) {
    if (from_dims[d] != 1) from.push_back(d);
  }
  for (int64_t d = 0; d < static_cast<int64_t>(to_dims.size()); ++d) {
    if (to_dims[d] != 1) to.push_back(d);
  }
  std::vector<ReshapeGroup> groups;
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    if (i == from.size() || j == to.size()) return std::nullopt;
    ReshapeGroup group;
    // Products stay below the element count, which fits in int64 for a
    // valid shape; a size <= 0 (zero or dynamic marker) ends the attempt.
    int64_t from_product = from_dims[from[i]];
    int64_t to_product = to_dims[to[j]];
    group.from.push_back(from[i++]);
    group.to.push_back(to[j++]);
    while (from_product != to_product) {
      if (from_product <= 0 || to_product <= 0) return std::nullopt;
      if (from_product < to_product) {
        if (i == from.size()) return std::nullopt;
        if (from_dims[from[i]] > INT64_MAX / from_product) return std::nullopt;
        from_product *= from_dims[from[i]];
        group.from.push_back(from[i++]);
      } else {
        if (j == to.size()) return std::nullopt;
        if (to_dims[to[j]] > INT64_MAX / to_product) return std::nullopt;
        to_product *= to_dims[to[j]];
        group.to.push_back(to[j++]);
      }
    }
    if (from_product <= 0) return std::nullopt;
    groups.push_back(std::move(group));
  }
  return groups;
}

// Inserts each size-1 dimension d of `dims` into the major-to-minor
// `order` just after dimension d-1 (at the front for d = 0).
void InsertSizeOneDims(absl::Span<const int64_t> dims,
                       std::vector<int64_t>* order) {
  for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d) {
    if (dims[d] != 1) continue;
    auto position = order->begin();
    if (d > 0) {
      position = std::find(order->begin(), order->end(), d - 1);
      if (position != order->end()) ++position;
    }
    order->insert(position, d);
  }
}

}  // namespace

std::vector<int64_t> MajorToMinor(const Layout& layout) {
  const std::vector<int64_t>& m2m = layout.minor_to_major();
  return std::vector<int64_t>(m2m.rbegin(), m2m.rend());
}

Layout FromMajorToMinor(std::vector<int64_t> major_to_minor) {
  std::reverse(major_to_minor.begin(), major_to_minor.end());
  return Layout(std::move(major_to_minor));
}

bool IsPlainPermutation(const Layout& layout, int64_t rank) {
  if (!layout.HasOnlyMinorToMajor()) return false;
  const std::vector<int64_t>& m2m = layout.minor_to_major();
  if (static_cast<int64_t>(m2m.size()) != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= rank || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

Layout TransposeResultLayoutFor(const Layout& operand_layout,
                                absl::Span<const int64_t> permutation) {
  std::vector<int64_t> inverse(permutation.size());
  for (size_t j = 0; j < permutation.size(); ++j) inverse[permutation[j]] = j;
  std::vector<int64_t> order;
  for (int64_t d : MajorToMinor(operand_layout)) order.push_back(inverse[d]);
  return FromMajorToMinor(std::move(order));
}

Layout TransposeOperandLayoutFor(const Layout& result_layout,
                                 absl::Span<const int64_t> permutation) {
  std::vector<int64_t> order;
  for (int64_t j : MajorToMinor(result_layout)) order.push_back(permutation[j]);
  return FromMajorToMinor(std::move(order));
}

bool IsTransposeBitcast(const Shape& operand, const Shape& result,
                        absl::Span<const int64_t> permutation) {
  if (!operand.has_layout() || !result.has_layout()) return false;
  const Layout expected =
      TransposeResultLayoutFor(operand.layout(), permutation);
  return WithoutSizeOne(MajorToMinor(expected), result.dimensions()) ==
         WithoutSizeOne(MajorToMinor(result.layout()), result.dimensions());
}

std::optional<Layout> ReshapeBitcastLayout(const Shape& from,
                                           absl::Span<const int64_t> to_dims) {
  if (!from.IsArray() || !from.has_layout() || !from.is_static()) {
    return std::nullopt;
  }
  std::optional<std::vector<ReshapeGroup>> groups =
      ReshapeGroups(from.dimensions(), to_dims);
  if (!groups.has_value()) return std::nullopt;
  std::vector<int64_t> group_of(from.rank(), -1);
  for (size_t g = 0; g < groups->size(); ++g) {
    for (int64_t d : (*groups)[g].from) group_of[d] = g;
  }
  // Each group's source dimensions must sit together in memory, in their
  // logical order; the group's target dimensions then take their place.
  const std::vector<int64_t> physical =
      WithoutSizeOne(MajorToMinor(from.layout()), from.dimensions());
  std::vector<int64_t> order;
  for (size_t p = 0; p < physical.size();) {
    const ReshapeGroup& group = (*groups)[group_of[physical[p]]];
    for (int64_t d : group.from) {
      if (p >= physical.size() || physical[p] != d) return std::nullopt;
      ++p;
    }
    order.insert(order.end(), group.to.begin(), group.to.end());
  }
  InsertSizeOneDims(to_dims, &order);
  return FromMajorToMinor(std::move(order));
}

bool IsReshapeBitcast(const Shape& operand, const Shape& result) {
  if (!result.IsArray() || !result.has_layout() || !result.is_static()) {
    return false;
  }
  std::optional<Layout> expected =
      ReshapeBitcastLayout(operand, result.dimensions());
  if (!expected.has_value()) return false;
  return WithoutSizeOne(MajorToMinor(*expected), result.dimensions()) ==
         WithoutSizeOne(MajorToMinor(result.layout()), result.dimensions());
}

bool HasOnlyPlainLayouts(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      if (!HasOnlyPlainLayouts(element)) return false;
    }
    return true;
  }
  return !shape.IsArray() || !shape.has_layout() ||
         shape.layout().HasOnlyMinorToMajor();
}

}  // namespace layout_util
}  // namespace kiln
