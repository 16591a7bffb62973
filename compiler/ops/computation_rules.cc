#include "compiler/ops/computation_rules.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {

absl::StatusOr<const Computation*> RequiredComputationAttr(
    const Instruction& instruction, absl::string_view name,
    absl::string_view spec_section) {
  Computation* const* computation = instruction.attrs().Get<Computation*>(name);
  if (computation == nullptr || *computation == nullptr) {
    return RuleError(instruction,
                     absl::StrCat("missing computation ", name, "="),
                     spec_section);
  }
  if ((*computation)->root() == nullptr) {
    return RuleError(instruction,
                     absl::StrCat(name, "=", (*computation)->name(),
                                  " has no ROOT instruction"),
                     spec_section);
  }
  return *computation;
}

namespace {

std::string ShapesText(absl::Span<const Shape> shapes) {
  std::string text = "(";
  for (size_t i = 0; i < shapes.size(); ++i) {
    absl::StrAppend(&text, i == 0 ? "" : ", ", ShapeText(shapes[i]));
  }
  return text + ")";
}

}  // namespace

absl::Status CheckSignature(const Instruction& instruction,
                            absl::string_view attr_name,
                            const Computation& computation,
                            absl::Span<const Shape> params, const Shape& result,
                            absl::string_view spec_section) {
  std::vector<Shape> actual;
  for (const Instruction* param : computation.parameters()) {
    actual.push_back(param->shape());
  }
  bool params_match = actual.size() == params.size();
  for (size_t i = 0; params_match && i < params.size(); ++i) {
    params_match = actual[i].Compatible(params[i]);
  }
  const Shape& root = computation.root()->shape();
  if (params_match && root.Compatible(result)) return absl::OkStatus();
  return RuleError(
      instruction,
      absl::StrCat(attr_name, "=", computation.name(), " has signature ",
                   ShapesText(actual), " -> ", ShapeText(root), ", expected ",
                   ShapesText(params), " -> ", ShapeText(result)),
      spec_section);
}

std::vector<Shape> ScalarsOf(absl::Span<const Shape* const> shapes) {
  std::vector<Shape> scalars;
  scalars.reserve(shapes.size());
  for (const Shape* shape : shapes) {
    scalars.push_back(Shape::Scalar(shape->element_type()));
  }
  return scalars;
}

Shape SingleOrTuple(std::vector<Shape> shapes) {
  if (shapes.size() == 1) return std::move(shapes[0]);
  return Shape::Tuple(std::move(shapes));
}

Shape ArrayResult(ElementType type, std::vector<int64_t> dims,
                  std::vector<bool> dynamic) {
  Shape shape = Shape::DynamicArray(type, std::move(dims), std::move(dynamic));
  shape.SetDefaultLayoutIfMissing();
  return shape;
}

absl::StatusOr<Window> WindowAttr(const Instruction& instruction, int64_t rank,
                                  absl::string_view spec_section) {
  const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
  if (window == nullptr) {
    Window unit;
    unit.dimensions.resize(rank);
    return unit;
  }
  if (static_cast<int64_t>(window->dimensions.size()) != rank) {
    return RuleError(instruction,
                     absl::StrCat("window has ", window->dimensions.size(),
                                  " dimensions, expected ", rank),
                     spec_section);
  }
  return *window;
}

absl::StatusOr<int64_t> CheckedMul(const Instruction& instruction, int64_t a,
                                   int64_t b, absl::string_view spec_section) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    return RuleError(instruction, absl::StrCat(a, " * ", b, " overflows int64"),
                     spec_section);
  }
  return product;
}

absl::StatusOr<int64_t> CheckedAdd(const Instruction& instruction, int64_t a,
                                   int64_t b, absl::string_view spec_section) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    return RuleError(instruction, absl::StrCat(a, " + ", b, " overflows int64"),
                     spec_section);
  }
  return sum;
}

namespace {

// (size - 1) * dilation + 1 for size >= 1; 0 for size 0.
absl::StatusOr<int64_t> DilatedSize(const Instruction& instruction,
                                    int64_t size, int64_t dilation,
                                    absl::string_view spec_section) {
  if (size == 0) return 0;
  absl::StatusOr<int64_t> scaled =
      CheckedMul(instruction, size - 1, dilation, spec_section);
  if (!scaled.ok()) return scaled.status();
  return CheckedAdd(instruction, *scaled, 1, spec_section);
}

}  // namespace

absl::StatusOr<int64_t> WindowedSize(const Instruction& instruction,
                                     int64_t input, const WindowDimension& dim,
                                     int64_t dim_index,
                                     absl::string_view spec_section) {
  const auto field_error = [&](absl::string_view field, int64_t value) {
    return RuleError(instruction,
                     absl::StrCat("window dimension ", dim_index, " has ",
                                  field, " ", value, ", expected >= 1"),
                     spec_section);
  };
  if (dim.size < 1) return field_error("size", dim.size);
  if (dim.stride < 1) return field_error("stride", dim.stride);
  if (dim.base_dilation < 1)
    return field_error("lhs_dilate", dim.base_dilation);
  if (dim.window_dilation < 1) {
    return field_error("rhs_dilate", dim.window_dilation);
  }
  if (input < 0) {
    return RuleError(instruction,
                     absl::StrCat("dimension ", dim_index,
                                  " is unbounded; windowed ops need a size"),
                     spec_section);
  }
  absl::StatusOr<int64_t> base =
      DilatedSize(instruction, input, dim.base_dilation, spec_section);
  if (!base.ok()) return base.status();
  absl::StatusOr<int64_t> padded =
      CheckedAdd(instruction, *base, dim.padding_low, spec_section);
  if (padded.ok()) {
    padded = CheckedAdd(instruction, *padded, dim.padding_high, spec_section);
  }
  if (!padded.ok()) return padded.status();
  if (*padded < 0) {
    return RuleError(instruction,
                     absl::StrCat("window dimension ", dim_index,
                                  ": padding makes the input size ", *padded,
                                  ", expected >= 0"),
                     spec_section);
  }
  absl::StatusOr<int64_t> window =
      DilatedSize(instruction, dim.size, dim.window_dilation, spec_section);
  if (!window.ok()) return window.status();
  if (*padded < *window) return 0;
  return (*padded - *window) / dim.stride + 1;
}

}  // namespace ops_internal
}  // namespace kiln
