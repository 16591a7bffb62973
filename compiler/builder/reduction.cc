#include "compiler/builder/reduction.h"

#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln {
namespace {

constexpr absl::string_view kReduce = "operation_semantics.md, Reduce";
constexpr absl::string_view kReduceWindow =
    "operation_semantics.md, ReduceWindow";
constexpr absl::string_view kSelectAndScatter =
    "operation_semantics.md, SelectAndScatter";
constexpr absl::string_view kMap = "operation_semantics.md, Map";

// An error the builder detects before any instruction exists, worded like
// the shape rules' errors: "<op>: <what> (<spec section>)".
absl::Status ArgumentError(absl::string_view op, absl::string_view what,
                           absl::string_view section) {
  return absl::InvalidArgumentError(
      absl::StrCat(op, ": ", what, " (", section, ")"));
}

// The dimensions of `op`, or nullopt (the error is reported by the op).
std::optional<std::vector<int64_t>> DimensionsOf(XlaOp op) {
  if (!op.valid()) return std::nullopt;
  const Shape& shape = op.instruction()->shape();
  if (!shape.IsArray()) return std::nullopt;
  return shape.dimensions();
}

std::vector<XlaOp> Concat(absl::Span<const XlaOp> a,
                          absl::Span<const XlaOp> b) {
  std::vector<XlaOp> all(a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

// N operands need N init values; checked here because the shape rule only
// sees the concatenation and cannot tell where the inits start.
absl::Status CheckOperandsAndInits(absl::string_view op, size_t operands,
                                   size_t inits, absl::string_view section) {
  if (operands >= 1 && operands == inits) return absl::OkStatus();
  return ArgumentError(
      op,
      absl::StrCat(operands, " operands and ", inits,
                   " init values; N >= 1 operands need N init values"),
      section);
}

// Checks that an optional per-dimension argument has one entry per window
// dimension (or none, meaning all ones when `empty_ok`).
absl::Status CheckLength(absl::string_view op, absl::string_view name,
                         size_t length, size_t rank, bool empty_ok,
                         absl::string_view section) {
  if (length == rank || (empty_ok && length == 0)) return absl::OkStatus();
  return ArgumentError(
      op,
      absl::StrCat(name, " has ", length, " entries but window_dimensions has ",
                   rank, "; each window dimension needs one"),
      section);
}

// The IR's window attribute from XlaBuilder's per-dimension arguments.
absl::StatusOr<Window> MakeWindow(
    absl::string_view op, absl::string_view section,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const int64_t> base_dilations,
    absl::Span<const int64_t> window_dilations,
    absl::Span<const std::pair<int64_t, int64_t>> padding) {
  const size_t rank = window_dimensions.size();
  for (const auto& [name, length, empty_ok] :
       {std::make_tuple("window_strides", window_strides.size(), false),
        std::make_tuple("base_dilations", base_dilations.size(), true),
        std::make_tuple("window_dilations", window_dilations.size(), true),
        std::make_tuple("padding", padding.size(), false)}) {
    absl::Status ok = CheckLength(op, name, length, rank, empty_ok, section);
    if (!ok.ok()) return ok;
  }
  Window window;
  for (size_t i = 0; i < rank; ++i) {
    WindowDimension dim;
    dim.size = window_dimensions[i];
    dim.stride = window_strides[i];
    dim.padding_low = padding[i].first;
    dim.padding_high = padding[i].second;
    if (!base_dilations.empty()) dim.base_dilation = base_dilations[i];
    if (!window_dilations.empty()) dim.window_dilation = window_dilations[i];
    window.dimensions.push_back(dim);
  }
  return window;
}

// MakePadding for `operand`, when its rank matches the window's; otherwise
// zero padding, so that the shape rule reports the rank mismatch.
std::vector<std::pair<int64_t, int64_t>> PaddingFor(
    XlaOp operand, absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides, Padding padding) {
  std::optional<std::vector<int64_t>> dims = DimensionsOf(operand);
  if (dims.has_value() && dims->size() == window_dimensions.size() &&
      dims->size() == window_strides.size()) {
    return MakePadding(*dims, window_dimensions, window_strides, padding);
  }
  return std::vector<std::pair<int64_t, int64_t>>(window_dimensions.size());
}

}  // namespace

XlaOp Reduce(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
             absl::Span<const int64_t> dimensions_to_reduce) {
  return Reduce(XlaBuilder::BuilderOf({operand, init_value}), {operand},
                {init_value}, computation, dimensions_to_reduce);
}

XlaOp Reduce(XlaBuilder* builder, absl::Span<const XlaOp> operands,
             absl::Span<const XlaOp> init_values,
             const XlaComputation& computation,
             absl::Span<const int64_t> dimensions_to_reduce) {
  if (builder == nullptr) return XlaOp();
  absl::Status counts = CheckOperandsAndInits("reduce", operands.size(),
                                              init_values.size(), kReduce);
  if (!counts.ok()) return builder->ReportError(counts);
  Computation* to_apply = builder->Import(computation);
  if (to_apply == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, Int64List(dimensions_to_reduce.begin(),
                                         dimensions_to_reduce.end()));
  attrs.Set(attr::kToApply, to_apply);
  return builder->AddInstruction(Opcode::kReduce, Concat(operands, init_values),
                                 std::move(attrs));
}

XlaOp ReduceAll(XlaOp operand, XlaOp init_value,
                const XlaComputation& computation) {
  std::vector<int64_t> all;
  if (std::optional<std::vector<int64_t>> dims = DimensionsOf(operand)) {
    for (size_t d = 0; d < dims->size(); ++d) all.push_back(d);
  }
  return Reduce(operand, init_value, computation, all);
}

XlaOp ReduceWindow(XlaOp operand, XlaOp init_value,
                   const XlaComputation& computation,
                   absl::Span<const int64_t> window_dimensions,
                   absl::Span<const int64_t> window_strides, Padding padding) {
  return ReduceWindow(absl::Span<const XlaOp>{operand},
                      absl::Span<const XlaOp>{init_value}, computation,
                      window_dimensions, window_strides, padding);
}

XlaOp ReduceWindow(absl::Span<const XlaOp> operands,
                   absl::Span<const XlaOp> init_values,
                   const XlaComputation& computation,
                   absl::Span<const int64_t> window_dimensions,
                   absl::Span<const int64_t> window_strides, Padding padding) {
  const XlaOp first = operands.empty() ? XlaOp() : operands[0];
  return ReduceWindowWithGeneralPadding(
      operands, init_values, computation, window_dimensions, window_strides,
      /*base_dilations=*/{}, /*window_dilations=*/{},
      PaddingFor(first, window_dimensions, window_strides, padding));
}

XlaOp ReduceWindowWithGeneralPadding(
    XlaOp operand, XlaOp init_value, const XlaComputation& computation,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const int64_t> base_dilations,
    absl::Span<const int64_t> window_dilations,
    absl::Span<const std::pair<int64_t, int64_t>> padding) {
  return ReduceWindowWithGeneralPadding(
      absl::Span<const XlaOp>{operand}, absl::Span<const XlaOp>{init_value},
      computation, window_dimensions, window_strides, base_dilations,
      window_dilations, padding);
}

XlaOp ReduceWindowWithGeneralPadding(
    absl::Span<const XlaOp> operands, absl::Span<const XlaOp> init_values,
    const XlaComputation& computation,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const int64_t> base_dilations,
    absl::Span<const int64_t> window_dilations,
    absl::Span<const std::pair<int64_t, int64_t>> padding) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(Concat(operands, init_values));
  if (builder == nullptr) return XlaOp();
  absl::Status counts = CheckOperandsAndInits(
      "reduce-window", operands.size(), init_values.size(), kReduceWindow);
  if (!counts.ok()) return builder->ReportError(counts);
  absl::StatusOr<Window> window =
      MakeWindow("reduce-window", kReduceWindow, window_dimensions,
                 window_strides, base_dilations, window_dilations, padding);
  if (!window.ok()) return builder->ReportError(window.status());
  Computation* to_apply = builder->Import(computation);
  if (to_apply == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kWindow, *std::move(window));
  attrs.Set(attr::kToApply, to_apply);
  return builder->AddInstruction(
      Opcode::kReduceWindow, Concat(operands, init_values), std::move(attrs));
}

XlaOp SelectAndScatter(XlaOp operand, const XlaComputation& select,
                       absl::Span<const int64_t> window_dimensions,
                       absl::Span<const int64_t> window_strides,
                       Padding padding, XlaOp source, XlaOp init_value,
                       const XlaComputation& scatter) {
  return SelectAndScatterWithGeneralPadding(
      operand, select, window_dimensions, window_strides,
      PaddingFor(operand, window_dimensions, window_strides, padding), source,
      init_value, scatter);
}

XlaOp SelectAndScatterWithGeneralPadding(
    XlaOp operand, const XlaComputation& select,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const std::pair<int64_t, int64_t>> padding, XlaOp source,
    XlaOp init_value, const XlaComputation& scatter) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, source, init_value});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Window> window = MakeWindow(
      "select-and-scatter", kSelectAndScatter, window_dimensions,
      window_strides, /*base_dilations=*/{}, /*window_dilations=*/{}, padding);
  if (!window.ok()) return builder->ReportError(window.status());
  Computation* select_copy = builder->Import(select);
  Computation* scatter_copy = builder->Import(scatter);
  if (select_copy == nullptr || scatter_copy == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kWindow, *std::move(window));
  attrs.Set(attr::kSelect, select_copy);
  attrs.Set(attr::kScatter, scatter_copy);
  return builder->AddInstruction(Opcode::kSelectAndScatter,
                                 {operand, source, init_value},
                                 std::move(attrs));
}

XlaOp Sort(absl::Span<const XlaOp> operands, const XlaComputation& comparator,
           int64_t dimension, bool is_stable) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return XlaOp();
  if (dimension == -1) {
    std::optional<std::vector<int64_t>> dims = DimensionsOf(operands[0]);
    if (dims.has_value()) dimension = static_cast<int64_t>(dims->size()) - 1;
  }
  Computation* to_apply = builder->Import(comparator);
  if (to_apply == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, Int64List{dimension});
  if (is_stable) attrs.Set(attr::kIsStable, true);
  attrs.Set(attr::kToApply, to_apply);
  return builder->AddInstruction(Opcode::kSort, operands, std::move(attrs));
}

XlaOp TopK(XlaOp operand, int64_t k, bool largest) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kK, k);
  attrs.Set(attr::kLargest, largest);
  return builder->AddInstruction(Opcode::kTopK, {operand}, std::move(attrs));
}

XlaOp Map(XlaBuilder* builder, absl::Span<const XlaOp> operands,
          const XlaComputation& computation,
          absl::Span<const int64_t> dimensions,
          absl::Span<const XlaOp> static_operands) {
  if (builder == nullptr) return XlaOp();
  if (!static_operands.empty()) {
    return builder->ReportError(ArgumentError(
        "map",
        absl::StrCat(static_operands.size(),
                     " static operands given; HLO's map takes none"),
        kMap));
  }
  std::vector<int64_t> dims(dimensions.begin(), dimensions.end());
  if (dims.empty() && !operands.empty()) {
    std::optional<std::vector<int64_t>> shape = DimensionsOf(operands[0]);
    for (size_t d = 0; shape.has_value() && d < shape->size(); ++d) {
      dims.push_back(d);
    }
  }
  Computation* to_apply = builder->Import(computation);
  if (to_apply == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, Int64List(std::move(dims)));
  attrs.Set(attr::kToApply, to_apply);
  return builder->AddInstruction(Opcode::kMap, operands, std::move(attrs));
}

XlaOp Scan(absl::Span<const XlaOp> inputs, absl::Span<const XlaOp> inits,
           const XlaComputation& to_apply, int64_t scan_dimension,
           bool is_reverse, std::optional<bool> is_associative) {
  const std::vector<XlaOp> operands = Concat(inputs, inits);
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return XlaOp();
  Computation* body = builder->Import(to_apply);
  if (body == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, Int64List{scan_dimension});
  attrs.Set(attr::kNumCarries, static_cast<int64_t>(inits.size()));
  if (is_reverse) attrs.Set(attr::kIsReverse, true);
  if (is_associative.has_value())
    attrs.Set(attr::kIsAssociative, *is_associative);
  attrs.Set(attr::kToApply, body);
  return builder->AddInstruction(Opcode::kScan, operands, std::move(attrs));
}

}  // namespace kiln
