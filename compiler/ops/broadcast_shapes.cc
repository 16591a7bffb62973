#include "compiler/ops/broadcast_shapes.h"

#include <algorithm>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/shape_rule_util.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kPrinciples = "broadcasting.md, Principles";
constexpr absl::string_view kInDim = "broadcasting.md, InDim broadcasting";
constexpr absl::string_view kDegenerate =
    "broadcasting.md, degenerate dimensions";

struct Dim {
  int64_t size;
  bool dynamic;
};

// Two dimensions broadcast when equal or when one is a degenerate 1. An
// unbounded '?' takes the other side's size (the runtime size must agree).
std::optional<Dim> MergeDims(Dim a, Dim b) {
  if (a.size == b.size) return Dim{a.size, a.dynamic || b.dynamic};
  if (a.size == Shape::kUnboundedSize) return b.size == 1 ? a : b;
  if (b.size == Shape::kUnboundedSize) return a.size == 1 ? b : a;
  if (a.size == 1) return b;
  if (b.size == 1) return a;
  return std::nullopt;
}

std::string SizeText(int64_t size) {
  return size == Shape::kUnboundedSize ? "?" : absl::StrCat(size);
}

// The dimensions being built, as parallel size/dynamic vectors.
struct ResultDims {
  std::vector<int64_t> sizes;
  std::vector<bool> dynamic;
  Dim at(int64_t i) const { return Dim{sizes[i], dynamic[i]}; }
  void set(int64_t i, Dim d) {
    sizes[i] = d.size;
    dynamic[i] = d.dynamic;
  }
};

absl::StatusOr<std::vector<const Shape*>> OperandShapes(
    const Instruction& instruction, const BroadcastOptions& options) {
  std::vector<const Shape*> shapes;
  for (int64_t index : options.operands) {
    absl::StatusOr<const Shape*> shape =
        ArrayOperand(instruction, index, "broadcasting.md");
    if (!shape.ok()) return shape.status();
    shapes.push_back(*shape);
  }
  return shapes;
}

absl::StatusOr<Shape> StrictShape(const Instruction& instruction,
                                  const BroadcastOptions& options,
                                  const std::vector<const Shape*>& shapes) {
  if (Int64ListAttr(instruction, attr::kBroadcastDimensions) != nullptr) {
    return RuleError(instruction,
                     "broadcast_dimensions is client-form implicit "
                     "broadcasting; strict HLO needs an explicit broadcast",
                     kPrinciples);
  }
  // The reference is the first operand that may not be a lone scalar.
  size_t ref = 0;
  while (ref + 1 < shapes.size() &&
         util::Contains(options.strict_scalar_ok, options.operands[ref])) {
    ++ref;
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    const bool scalar_ok =
        util::Contains(options.strict_scalar_ok, options.operands[i]);
    if (scalar_ok && shapes[i]->IsScalar()) continue;
    if (shapes[i]->dimensions() != shapes[ref]->dimensions() ||
        shapes[i]->dynamic_dimensions() != shapes[ref]->dynamic_dimensions()) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", options.operands[i], " is ",
                       ShapeText(*shapes[i]), " but operand ",
                       options.operands[ref], " is ", ShapeText(*shapes[ref]),
                       "; strict HLO needs equal dimensions (no implicit "
                       "broadcasting)"),
          kPrinciples);
    }
  }
  const Shape& result = *shapes[ref];
  return Shape::DynamicArray(result.element_type(), result.dimensions(),
                             result.dynamic_dimensions());
}

// Equal-rank operands: every dimension equal or degenerate.
absl::Status MergeEqualRank(const Instruction& instruction, int64_t operand,
                            const Shape& shape, ResultDims* result) {
  for (int64_t d = 0; d < shape.rank(); ++d) {
    std::optional<Dim> merged = MergeDims(
        result->at(d), {shape.dimension(d), shape.is_dynamic_dimension(d)});
    if (!merged.has_value()) {
      return RuleError(instruction,
                       absl::StrCat("operand ", operand, " ", ShapeText(shape),
                                    " is incompatible at dimension ", d,
                                    " (size ", SizeText(shape.dimension(d)),
                                    " vs ", SizeText(result->sizes[d]),
                                    "); sizes must be equal or one of them 1"),
                       kDegenerate);
    }
    result->set(d, *merged);
  }
  return absl::OkStatus();
}

// A lower-rank operand matched into the result through `dims`.
absl::Status MergeInDim(const Instruction& instruction, int64_t operand,
                        const Shape& shape, const std::vector<int64_t>& dims,
                        ResultDims* result) {
  const int64_t result_rank = result->sizes.size();
  if (static_cast<int64_t>(dims.size()) != shape.rank()) {
    return RuleError(
        instruction,
        absl::StrCat("broadcast_dimensions ", DimsToString(dims), " has ",
                     dims.size(), " entries but operand ", operand, " ",
                     ShapeText(shape), " has rank ", shape.rank()),
        kInDim);
  }
  absl::Status increasing = CheckDimsStrictlyIncreasing(
      instruction, attr::kBroadcastDimensions, dims, result_rank, kInDim);
  if (!increasing.ok()) return increasing;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    const int64_t target = dims[i];
    std::optional<Dim> merged =
        MergeDims(result->at(target),
                  {shape.dimension(i), shape.is_dynamic_dimension(i)});
    if (!merged.has_value()) {
      return RuleError(
          instruction,
          absl::StrCat("broadcast_dimensions ", DimsToString(dims),
                       " maps operand ", operand, " dim ", i, " (size ",
                       SizeText(shape.dimension(i)), ") to result dim ", target,
                       " (size ", SizeText(result->sizes[target]),
                       "); sizes must match"),
          kInDim);
    }
    result->set(target, *merged);
  }
  return absl::OkStatus();
}

bool IsIdentity(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

absl::StatusOr<Shape> ClientShape(const Instruction& instruction,
                                  const BroadcastOptions& options,
                                  const std::vector<const Shape*>& shapes) {
  const std::vector<int64_t>* dims =
      Int64ListAttr(instruction, attr::kBroadcastDimensions);
  size_t top = 0;
  for (size_t i = 1; i < shapes.size(); ++i) {
    if (shapes[i]->rank() > shapes[top]->rank()) top = i;
  }
  ResultDims result{shapes[top]->dimensions(),
                    shapes[top]->dynamic_dimensions()};
  std::vector<size_t> lower;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& shape = *shapes[i];
    if (shape.rank() == shapes[top]->rank()) {
      absl::Status merged =
          MergeEqualRank(instruction, options.operands[i], shape, &result);
      if (!merged.ok()) return merged;
    } else if (!shape.IsScalar()) {
      // Scalars broadcast anywhere without broadcast_dimensions.
      lower.push_back(i);
    }
  }
  if (lower.empty() && dims != nullptr && !dims->empty() &&
      !(static_cast<int64_t>(dims->size()) == shapes[top]->rank() &&
        IsIdentity(*dims))) {
    return RuleError(instruction,
                     absl::StrCat("broadcast_dimensions ", DimsToString(*dims),
                                  " must be empty or the identity when no "
                                  "operand is a lower-rank array"),
                     kInDim);
  }
  for (size_t i : lower) {
    if (dims == nullptr) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", options.operands[i], " ",
                       ShapeText(*shapes[i]), " has a lower rank than operand ",
                       options.operands[top], " ", ShapeText(*shapes[top]),
                       "; arrays of different rank need broadcast_dimensions"),
          kInDim);
    }
    absl::Status merged = MergeInDim(instruction, options.operands[i],
                                     *shapes[i], *dims, &result);
    if (!merged.ok()) return merged;
  }
  return Shape::DynamicArray(shapes[top]->element_type(),
                             std::move(result.sizes),
                             std::move(result.dynamic));
}

}  // namespace

absl::StatusOr<Shape> BroadcastOperands(const Instruction& instruction,
                                        const BroadcastOptions& options,
                                        ShapeForm form) {
  absl::StatusOr<std::vector<const Shape*>> shapes =
      OperandShapes(instruction, options);
  if (!shapes.ok()) return shapes.status();
  if (shapes->empty()) {
    return RuleError(instruction, "no operands to broadcast", kPrinciples);
  }
  if (form == ShapeForm::kStrict) {
    return StrictShape(instruction, options, *shapes);
  }
  return ClientShape(instruction, options, *shapes);
}

}  // namespace ops_internal
}  // namespace kiln
