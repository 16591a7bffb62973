// Ops with a reducer or comparator region: reduce, reduce-window,
// select-and-scatter, sort, map; and topk (a sort and a slice).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

absl::StatusOr<std::string> ToApplyRegion(FunctionEmitter& e,
                                          const Instruction& i) {
  Computation* const* c = i.attrs().Get<Computation*>(attr::kToApply);
  if (c == nullptr) return NoForm("no to_apply computation");
  return e.Region(**c);
}

absl::StatusOr<Value> EmitReduce(FunctionEmitter& e, const Instruction& i) {
  const Int64List* dims = i.attrs().Get<Int64List>(attr::kDimensions);
  if (dims == nullptr) return NoForm("reduce without dimensions");
  absl::StatusOr<std::string> region = ToApplyRegion(e, i);
  if (!region.ok()) return region.status();
  return EmitSimple(e, i, "stablehlo.reduce",
                    absl::StrCat("dimensions = ", I64Array(*dims)),
                    {*std::move(region)});
}

// The window attributes of reduce-window (all of them) or
// select-and-scatter (no dilations, which it does not have).
absl::StatusOr<std::string> WindowAttrs(const Instruction& i, int64_t rank,
                                        bool dilations) {
  const Window* window = i.attrs().Get<Window>(attr::kWindow);
  Window trivial;
  if (window == nullptr) {
    trivial.dimensions.resize(rank);
    window = &trivial;
  }
  std::vector<int64_t> sizes, strides, base, dilation;
  for (const WindowDimension& d : window->dimensions) {
    if (d.window_reversal) return NoForm("a reversed window");
    if (!dilations && (d.base_dilation != 1 || d.window_dilation != 1)) {
      return NoForm("stablehlo.select_and_scatter has no dilations");
    }
    sizes.push_back(d.size);
    strides.push_back(d.stride);
    base.push_back(d.base_dilation);
    dilation.push_back(d.window_dilation);
  }
  std::string text = absl::StrCat("window_dimensions = ", I64Array(sizes),
                                  ", window_strides = ", I64Array(strides));
  if (dilations) {
    absl::StrAppend(&text, ", base_dilations = ", I64Array(base),
                    ", window_dilations = ", I64Array(dilation));
  }
  absl::StrAppend(&text, ", padding = ", WindowPadding(*window));
  return text;
}

absl::StatusOr<Value> EmitReduceWindow(FunctionEmitter& e,
                                       const Instruction& i) {
  absl::StatusOr<std::string> attrs =
      WindowAttrs(i, i.operand(0)->shape().rank(), true);
  if (!attrs.ok()) return attrs.status();
  absl::StatusOr<std::string> region = ToApplyRegion(e, i);
  if (!region.ok()) return region.status();
  return EmitSimple(e, i, "stablehlo.reduce_window", *std::move(attrs),
                    {*std::move(region)});
}

absl::StatusOr<Value> EmitSelectAndScatter(FunctionEmitter& e,
                                           const Instruction& i) {
  Computation* const* select = i.attrs().Get<Computation*>(attr::kSelect);
  Computation* const* scatter = i.attrs().Get<Computation*>(attr::kScatter);
  if (select == nullptr || scatter == nullptr) {
    return NoForm("select-and-scatter without select or scatter");
  }
  absl::StatusOr<std::string> attrs =
      WindowAttrs(i, i.operand(0)->shape().rank(), false);
  if (!attrs.ok()) return attrs.status();
  absl::StatusOr<std::string> select_region = e.Region(**select);
  if (!select_region.ok()) return select_region.status();
  absl::StatusOr<std::string> scatter_region = e.Region(**scatter);
  if (!scatter_region.ok()) return scatter_region.status();
  return EmitSimple(e, i, "stablehlo.select_and_scatter", *std::move(attrs),
                    {*std::move(select_region), *std::move(scatter_region)});
}

absl::StatusOr<Value> EmitSort(FunctionEmitter& e, const Instruction& i) {
  const Int64List* dims = i.attrs().Get<Int64List>(attr::kDimensions);
  if (dims == nullptr || dims->size() != 1) {
    return NoForm("sort needs one dimension");
  }
  const bool* stable = i.attrs().Get<bool>(attr::kIsStable);
  absl::StatusOr<std::string> region = ToApplyRegion(e, i);
  if (!region.ok()) return region.status();
  return EmitSimple(
      e, i, "stablehlo.sort",
      absl::StrCat("dimension = ", (*dims)[0], " : i64, is_stable = ",
                   stable && *stable ? "true" : "false"),
      {*std::move(region)});
}

absl::StatusOr<Value> EmitMap(FunctionEmitter& e, const Instruction& i) {
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < i.shape().rank(); ++k) dims.push_back(k);
  if (const Int64List* given = i.attrs().Get<Int64List>(attr::kDimensions)) {
    dims = *given;
  }
  absl::StatusOr<std::string> region = ToApplyRegion(e, i);
  if (!region.ok()) return region.status();
  return EmitSimple(e, i, "stablehlo.map",
                    absl::StrCat("dimensions = ", I64Array(dims)),
                    {*std::move(region)});
}

// A comparator region of two values (and two unused indices): `direction`
// in total order for floats, by sign for integers.
absl::StatusOr<std::string> OrderRegion(FunctionEmitter& e, const Shape& scalar,
                                        absl::string_view direction) {
  absl::StatusOr<std::string> type = TypeString(scalar);
  if (!type.ok()) return type.status();
  const ElementTypeInfo& info = GetElementTypeInfo(scalar.element_type());
  const char* compare_type = info.kind == TypeKind::kFloat    ? "TOTALORDER"
                             : info.kind == TypeKind::kSigned ? "SIGNED"
                                                              : "UNSIGNED";
  std::string a = e.Fresh("lhs"), b = e.Fresh("rhs"), c = e.Fresh("order");
  std::string inner = e.Indent() + "  ";
  return absl::StrCat(
      "{\n", e.Indent(), "^bb0(", a, ": ", *type, ", ", b, ": ", *type, ", ",
      e.Fresh("lhs_index"), ": tensor<i32>, ", e.Fresh("rhs_index"),
      ": tensor<i32>):\n", inner, c, " = \"stablehlo.compare\"(", a, ", ", b,
      ") {comparison_direction = #stablehlo<comparison_direction ", direction,
      ">, compare_type = #stablehlo<comparison_type ", compare_type, ">} : (",
      *type, ", ", *type, ") -> tensor<i1>\n", inner, "\"stablehlo.return\"(",
      c, ") : (tensor<i1>) -> ()\n", e.Indent(), "}");
}

// topk as a stable sort of (values, iota) along the last dimension, by the
// comparator or by total order (descending for the largest), and a slice
// of the first k: the lower index first among equals, as the spec says.
absl::StatusOr<Value> EmitTopK(FunctionEmitter& e, const Instruction& i) {
  const int64_t* k = i.attrs().Get<int64_t>(attr::kK);
  const bool* largest = i.attrs().Get<bool>(attr::kLargest);
  const Shape& operand = i.operand(0)->shape();
  if (k == nullptr || operand.rank() == 0 || !operand.is_static()) {
    return NoForm("topk needs k and a static operand of rank >= 1");
  }
  int64_t last = operand.rank() - 1;
  Shape scalar = Shape::Scalar(operand.element_type());
  Shape index_shape = Shape::Array(ElementType::kS32, operand.dimensions());
  Computation* const* comparator = i.attrs().Get<Computation*>(attr::kToApply);
  absl::StatusOr<std::string> region =
      comparator != nullptr
          ? e.Region(**comparator, {Shape::Scalar(ElementType::kS32),
                                    Shape::Scalar(ElementType::kS32)})
          : OrderRegion(e, scalar, largest && !*largest ? "LT" : "GT");
  if (!region.ok()) return region.status();
  absl::StatusOr<std::vector<Value>> iota =
      e.Emit(Op{"stablehlo.iota",
                {},
                absl::StrCat("iota_dimension = ", last, " : i64"),
                {},
                {index_shape}},
             i.name());
  if (!iota.ok()) return iota.status();
  absl::StatusOr<std::vector<Value>> sorted =
      e.Emit(Op{"stablehlo.sort",
                {e.Operand(i, 0), (*iota)[0]},
                absl::StrCat("dimension = ", last, " : i64, is_stable = true"),
                {*std::move(region)},
                {operand, index_shape}},
             i.name());
  if (!sorted.ok()) return sorted.status();
  std::vector<int64_t> start(operand.rank(), 0), limit = operand.dimensions(),
                                                 strides(operand.rank(), 1);
  limit[last] = std::min(*k, limit[last]);
  std::vector<Value> results;
  for (const Value& column : *sorted) {
    Shape shape = column.shape;
    shape.set_dimension(last, limit[last]);
    absl::StatusOr<std::vector<Value>> sliced =
        e.Emit(Op{"stablehlo.slice",
                  {column},
                  absl::StrCat("start_indices = ", I64Array(start),
                               ", limit_indices = ", I64Array(limit),
                               ", strides = ", I64Array(strides)),
                  {},
                  {shape}},
               i.name());
    if (!sliced.ok()) return sliced.status();
    results.push_back((*sliced)[0]);
  }
  return KnownTuple(std::move(results));
}

}  // namespace

void AddLinalgHandlers(HandlerTable* table);

void AddComputeHandlers(HandlerTable* table) {
  (*table)[Opcode::kReduce] = &EmitReduce;
  (*table)[Opcode::kReduceWindow] = &EmitReduceWindow;
  (*table)[Opcode::kSelectAndScatter] = &EmitSelectAndScatter;
  (*table)[Opcode::kSort] = &EmitSort;
  (*table)[Opcode::kMap] = &EmitMap;
  (*table)[Opcode::kTopK] = &EmitTopK;
  AddLinalgHandlers(table);
}

}  // namespace kiln::stablehlo
