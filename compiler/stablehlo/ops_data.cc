// Data movement: constants, iota, broadcast, reshape, bitcast, transpose,
// reverse, slice, pad, concatenate and the dynamic-shape ops.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/literal.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {

absl::StatusOr<Value> EmitLiteral(FunctionEmitter& e, const Literal& literal,
                                  absl::string_view hint) {
  if (literal.shape().IsTuple()) {
    std::vector<Value> elements;
    for (const Literal& element : literal.tuple_elements()) {
      absl::StatusOr<Value> value = EmitLiteral(e, element, hint);
      if (!value.ok()) return value.status();
      elements.push_back(*std::move(value));
    }
    return KnownTuple(std::move(elements));
  }
  absl::StatusOr<std::string> dense = DenseAttr(literal);
  if (!dense.ok()) return dense.status();
  Op op{"stablehlo.constant",
        {},
        absl::StrCat("value = ", *dense),
        {},
        {literal.shape()}};
  absl::StatusOr<std::vector<Value>> got = e.Emit(op, hint);
  if (!got.ok()) return got.status();
  return (*got)[0];
}

absl::StatusOr<Value> EmitZero(FunctionEmitter& e, const Shape& shape) {
  if (shape.IsToken()) {
    absl::StatusOr<std::vector<Value>> got =
        e.Emit(Op{"stablehlo.after_all", {}, "", {}, {shape}}, "token");
    if (!got.ok()) return got.status();
    return (*got)[0];
  }
  absl::StatusOr<Literal> zero = Literal::Create(shape);
  if (!zero.ok()) return zero.status();
  return EmitLiteral(e, *zero, "zero");
}

namespace {

const Int64List* Dimensions(const Instruction& i) {
  return i.attrs().Get<Int64List>(attr::kDimensions);
}

absl::StatusOr<Value> EmitConstant(FunctionEmitter& e, const Instruction& i) {
  if (!i.has_literal()) return NoForm("constant without a value");
  return EmitLiteral(e, i.literal(), i.name());
}

absl::StatusOr<Value> EmitIota(FunctionEmitter& e, const Instruction& i) {
  const int64_t* dimension = i.attrs().Get<int64_t>(attr::kIotaDimension);
  if (dimension == nullptr) return NoForm("iota without iota_dimension");
  return EmitSimple(e, i, "stablehlo.iota",
                    absl::StrCat("iota_dimension = ", *dimension, " : i64"));
}

absl::StatusOr<Value> EmitWithDims(FunctionEmitter& e, const Instruction& i,
                                   absl::string_view name,
                                   absl::string_view attr_name) {
  const Int64List* dims = Dimensions(i);
  if (dims == nullptr) return NoForm("missing dimensions");
  return EmitSimple(e, i, name,
                    absl::StrCat(attr_name, " = ", I64Array(*dims)));
}

absl::StatusOr<Value> EmitBroadcast(FunctionEmitter& e, const Instruction& i) {
  const Int64List* dims = Dimensions(i);
  if (dims == nullptr) return NoForm("missing dimensions");
  const Shape& operand = i.operand(0)->shape();
  if (static_cast<int64_t>(dims->size()) != operand.rank()) {
    return NoForm("broadcast dimensions unlike the operand's rank");
  }
  for (size_t k = 0; k < dims->size(); ++k) {
    if ((*dims)[k] < 0 || (*dims)[k] >= i.shape().rank()) {
      return NoForm("broadcast dimension out of range");
    }
    if (operand.dimension(k) != i.shape().dimension((*dims)[k])) {
      return NoForm(
          "client-form broadcast stretching a dimension is left "
          "after broadcast-legalization (dynamic dimensions)");
    }
  }
  return EmitSimple(e, i, "stablehlo.broadcast_in_dim",
                    absl::StrCat("broadcast_dimensions = ", I64Array(*dims)));
}

absl::StatusOr<Value> EmitTranspose(FunctionEmitter& e, const Instruction& i) {
  return EmitWithDims(e, i, "stablehlo.transpose", "permutation");
}

absl::StatusOr<Value> EmitReverse(FunctionEmitter& e, const Instruction& i) {
  return EmitWithDims(e, i, "stablehlo.reverse", "dimensions");
}

absl::StatusOr<Value> EmitConcatenate(FunctionEmitter& e,
                                      const Instruction& i) {
  const Int64List* dims = Dimensions(i);
  if (dims == nullptr || dims->size() != 1) {
    return NoForm("concatenate needs one dimension");
  }
  return EmitSimple(e, i, "stablehlo.concatenate",
                    absl::StrCat("dimension = ", (*dims)[0], " : i64"));
}

absl::StatusOr<Value> EmitReshape(FunctionEmitter& e, const Instruction& i) {
  return EmitSimple(e, i, "stablehlo.reshape");
}

// The dimensions of `shape` from major to minor in memory (the reverse of
// minor_to_major); the logical order when it has no layout.
std::vector<int64_t> MajorToMinor(const Shape& shape) {
  if (!shape.has_layout())
    return Layout::Default(shape.rank()).minor_to_major();
  std::vector<int64_t> m2m = shape.layout().minor_to_major();
  return std::vector<int64_t>(m2m.rbegin(), m2m.rend());
}

bool IsIdentity(const std::vector<int64_t>& permutation) {
  for (size_t k = 0; k < permutation.size(); ++k) {
    if (permutation[k] != static_cast<int64_t>(k)) return false;
  }
  return true;
}

// `value` transposed by `permutation` (nothing when it is the identity).
absl::StatusOr<Value> Transposed(FunctionEmitter& e, const Value& value,
                                 const std::vector<int64_t>& permutation) {
  if (IsIdentity(permutation)) return value;
  std::vector<int64_t> dims;
  for (int64_t p : permutation) dims.push_back(value.shape.dimension(p));
  Shape shape = Shape::Array(value.shape.element_type(), dims);
  absl::StatusOr<std::vector<Value>> got =
      e.Emit(Op{"stablehlo.transpose",
                {value},
                absl::StrCat("permutation = ", I64Array(permutation)),
                {},
                {shape}},
             "physical");
  if (!got.ok()) return got.status();
  return (*got)[0];
}

// `value` as `type` of `dims` by `name` (reshape, bitcast_convert); nothing
// when it already is.
absl::StatusOr<Value> Cast(FunctionEmitter& e, const Value& value,
                           const char* name, ElementType type,
                           const std::vector<int64_t>& dims) {
  if (value.shape.element_type() == type && value.shape.dimensions() == dims) {
    return value;
  }
  absl::StatusOr<std::vector<Value>> got =
      e.Emit(Op{name, {value}, "", {}, {Shape::Array(type, dims)}}, "physical");
  if (!got.ok()) return got.status();
  return (*got)[0];
}

// The operand's bytes in memory order as the result's memory-order
// dimensions: a reshape, with a bitcast_convert where the element type
// changes (splitting or joining a minor dimension between widths).
absl::StatusOr<Value> Reinterpret(FunctionEmitter& e, const Value& physical,
                                  ElementType out_type,
                                  const std::vector<int64_t>& out_dims) {
  int in_bits = GetElementTypeInfo(physical.shape.element_type()).bit_width;
  int out_bits = GetElementTypeInfo(out_type).bit_width;
  ElementType in_type = physical.shape.element_type();
  if (in_bits == out_bits) {
    absl::StatusOr<Value> same = Cast(e, physical, "stablehlo.bitcast_convert",
                                      out_type, physical.shape.dimensions());
    if (!same.ok()) return same;
    return Cast(e, *same, "stablehlo.reshape", out_type, out_dims);
  }
  if (in_bits % 8 != 0 || out_bits % 8 != 0) {
    return NoForm("a bitcast between sub-byte widths has no StableHLO form");
  }
  if (in_bits > out_bits) {
    std::vector<int64_t> split = physical.shape.dimensions();
    split.push_back(in_bits / out_bits);
    absl::StatusOr<Value> narrow =
        Cast(e, physical, "stablehlo.bitcast_convert", out_type, split);
    if (!narrow.ok()) return narrow;
    return Cast(e, *narrow, "stablehlo.reshape", out_type, out_dims);
  }
  std::vector<int64_t> joined = out_dims;
  joined.push_back(out_bits / in_bits);
  absl::StatusOr<Value> grouped =
      Cast(e, physical, "stablehlo.reshape", in_type, joined);
  if (!grouped.ok()) return grouped;
  return Cast(e, *grouped, "stablehlo.bitcast_convert", out_type, out_dims);
}

// bitcast reinterprets the operand's memory in the result's layout: the
// operand in memory order (a transpose by its major-to-minor order), its
// bytes as the result's memory-order dimensions (Reinterpret), and a
// transpose back to the result's logical order. Tiled or packed layouts
// are refused.
absl::StatusOr<Value> EmitBitcast(FunctionEmitter& e, const Instruction& i) {
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  for (const Shape* s : {&in, &out}) {
    if (s->has_layout() &&
        (!s->layout().tiles.empty() || s->layout().element_size_in_bits != 0)) {
      return NoForm(
          "a bitcast through a tiled or packed layout has no "
          "StableHLO form");
    }
  }
  if (!in.is_static() || !out.is_static()) {
    return NoForm("a bitcast of dynamic shapes has no StableHLO form");
  }
  absl::StatusOr<Value> physical =
      Transposed(e, e.Operand(i, 0), MajorToMinor(in));
  if (!physical.ok()) return physical.status();
  std::vector<int64_t> out_order = MajorToMinor(out);
  std::vector<int64_t> out_dims;
  for (int64_t p : out_order) out_dims.push_back(out.dimension(p));
  absl::StatusOr<Value> value =
      Reinterpret(e, *physical, out.element_type(), out_dims);
  if (!value.ok()) return value.status();
  std::vector<int64_t> inverse(out_order.size());
  for (size_t k = 0; k < out_order.size(); ++k) inverse[out_order[k]] = k;
  return Transposed(e, *value, inverse);
}

absl::StatusOr<Value> EmitSlice(FunctionEmitter& e, const Instruction& i) {
  const SliceRanges* slice = i.attrs().Get<SliceRanges>(attr::kSlice);
  if (slice == nullptr) return NoForm("slice without ranges");
  std::vector<int64_t> starts, limits, strides;
  for (const SliceRange& range : slice->ranges) {
    starts.push_back(range.start);
    limits.push_back(range.limit);
    strides.push_back(range.stride);
  }
  return EmitSimple(e, i, "stablehlo.slice",
                    absl::StrCat("start_indices = ", I64Array(starts),
                                 ", limit_indices = ", I64Array(limits),
                                 ", strides = ", I64Array(strides)));
}

absl::StatusOr<Value> EmitPad(FunctionEmitter& e, const Instruction& i) {
  const PaddingConfig* padding = i.attrs().Get<PaddingConfig>(attr::kPadding);
  if (padding == nullptr) return NoForm("pad without padding");
  std::vector<int64_t> low, high, interior;
  for (const PaddingDimension& d : padding->dimensions) {
    low.push_back(d.low);
    high.push_back(d.high);
    interior.push_back(d.interior);
  }
  return EmitSimple(e, i, "stablehlo.pad",
                    absl::StrCat("edge_padding_low = ", I64Array(low),
                                 ", edge_padding_high = ", I64Array(high),
                                 ", interior_padding = ", I64Array(interior)));
}

absl::StatusOr<Value> EmitGetDimensionSize(FunctionEmitter& e,
                                           const Instruction& i) {
  const Int64List* dims = Dimensions(i);
  if (dims == nullptr || dims->size() != 1) return NoForm("needs a dimension");
  return EmitSimple(e, i, "stablehlo.get_dimension_size",
                    absl::StrCat("dimension = ", (*dims)[0], " : i64"));
}

absl::StatusOr<Value> EmitSetDimensionSize(FunctionEmitter& e,
                                           const Instruction& i) {
  const Int64List* dims = Dimensions(i);
  if (dims == nullptr || dims->size() != 1) return NoForm("needs a dimension");
  return EmitSimple(e, i, "stablehlo.set_dimension_size",
                    absl::StrCat("dimension = ", (*dims)[0], " : i64"));
}

// A dynamic-reshape of a static operand to a bounded result, as ops XLA
// compiles: XLA's StableHLO import turns a bounded stablehlo.dynamic_reshape
// into a static reshape to the bounds, which it then refuses (element
// counts differ). Element (i0, ..., ir) of the result within the sizes
// (s0, ..., sr) is element ((i0*s1 + i1)*s2 + ...) of the operand in row
// major order; so: the operand flattened, a gather of those linear indices
// over the bounds (clamped; cells beyond the sizes are padding), and a
// stablehlo.set_dimension_size per dynamic dimension.
absl::StatusOr<Value> EmitBoundedDynamicReshape(FunctionEmitter& e,
                                                const Instruction& i) {
  const Shape& operand = i.operand(0)->shape();
  const Shape& result = i.shape();
  int64_t count = 1;
  for (int64_t d : operand.dimensions()) count *= d;
  const ElementType type = operand.element_type();
  auto emit = [&](Op op, absl::string_view hint) -> absl::StatusOr<Value> {
    absl::StatusOr<std::vector<Value>> got = e.Emit(op, hint);
    if (!got.ok()) return got.status();
    return (*got)[0];
  };
  absl::StatusOr<Value> flat = emit(Op{"stablehlo.reshape",
                                       {e.Operand(i, 0)},
                                       "",
                                       {},
                                       {Shape::Array(type, {count})}},
                                    "flat");
  if (!flat.ok()) return flat.status();
  const Shape index_shape =
      Shape::Array(ElementType::kS32, result.dimensions());
  absl::StatusOr<Value> linear;
  for (int64_t k = 0; k < result.rank(); ++k) {
    absl::StatusOr<Value> iota =
        emit(Op{"stablehlo.iota",
                {},
                absl::StrCat("iota_dimension = ", k, " : i64"),
                {},
                {index_shape}},
             "index");
    if (!iota.ok()) return iota.status();
    if (k == 0) {
      linear = iota;
      continue;
    }
    const Value& size = e.Operand(i, k + 1);
    if (size.shape.element_type() != ElementType::kS32) {
      return NoForm("dynamic-reshape sizes other than s32");
    }
    absl::StatusOr<Value> sizes = emit(Op{"stablehlo.broadcast_in_dim",
                                          {size},
                                          "broadcast_dimensions = array<i64>",
                                          {},
                                          {index_shape}},
                                       "size");
    if (!sizes.ok()) return sizes.status();
    absl::StatusOr<Value> scaled =
        emit(Op{"stablehlo.multiply", {*linear, *sizes}, "", {}, {index_shape}},
             "scaled");
    if (!scaled.ok()) return scaled.status();
    linear = emit(Op{"stablehlo.add", {*scaled, *iota}, "", {}, {index_shape}},
                  "linear");
    if (!linear.ok()) return linear.status();
  }
  std::vector<int64_t> with_vector = result.dimensions();
  with_vector.push_back(1);
  absl::StatusOr<Value> indices =
      emit(Op{"stablehlo.reshape",
              {*linear},
              "",
              {},
              {Shape::Array(ElementType::kS32, with_vector)}},
           "indices");
  if (!indices.ok()) return indices.status();
  absl::StatusOr<Value> value = emit(
      Op{"stablehlo.gather",
         {*flat, *indices},
         absl::StrCat("dimension_numbers = #stablehlo.gather<offset_dims = "
                      "[], collapsed_slice_dims = [0], start_index_map = "
                      "[0], index_vector_dim = ",
                      result.rank(), ">, slice_sizes = array<i64: 1>"),
         {},
         {Shape::Array(type, result.dimensions())}},
      "gathered");
  if (!value.ok()) return value.status();
  int64_t last = -1;
  for (int64_t k = 0; k < result.rank(); ++k) {
    if (result.is_dynamic_dimension(k)) last = k;
  }
  Shape shape = Shape::Array(type, result.dimensions());
  for (int64_t k = 0; k <= last; ++k) {
    if (!result.is_dynamic_dimension(k)) continue;
    shape.set_dynamic_dimension(k, true);
    Op op{"stablehlo.set_dimension_size",
          {*value, e.Operand(i, k + 1)},
          absl::StrCat("dimension = ", k, " : i64"),
          {},
          {shape}};
    value = k == last ? e.EmitAs(op, result, i.name()) : emit(op, "sized");
    if (!value.ok()) return value.status();
  }
  return value;
}

// dynamic-reshape(operand, sizes...): the scalar sizes become one
// tensor<Nxi32> shape operand of stablehlo.dynamic_reshape; a static
// operand reshaped to a bounded result is gathered instead (above).
absl::StatusOr<Value> EmitDynamicReshape(FunctionEmitter& e,
                                         const Instruction& i) {
  const Shape& result = i.shape();
  bool bounded = !result.is_static() && result.rank() > 0 &&
                 i.operand_count() == result.rank() + 1 &&
                 i.operand(0)->shape().is_static();
  for (int64_t k = 0; bounded && k < result.rank(); ++k) {
    bounded = !result.is_unbounded_dimension(k);
  }
  if (bounded) return EmitBoundedDynamicReshape(e, i);
  std::vector<Value> pieces;
  for (int64_t k = 1; k < i.operand_count(); ++k) {
    const Value& size = e.Operand(i, k);
    Shape one = Shape::Array(size.shape.element_type(), {1});
    absl::StatusOr<std::vector<Value>> got =
        e.Emit(Op{"stablehlo.reshape", {size}, "", {}, {one}}, "size");
    if (!got.ok()) return got.status();
    pieces.push_back((*got)[0]);
  }
  if (pieces.empty()) return NoForm("dynamic-reshape without sizes");
  Shape sizes = Shape::Array(pieces[0].shape.element_type(),
                             {static_cast<int64_t>(pieces.size())});
  absl::StatusOr<std::vector<Value>> shape = e.Emit(
      Op{"stablehlo.concatenate", pieces, "dimension = 0 : i64", {}, {sizes}},
      "shape");
  if (!shape.ok()) return shape.status();
  Op op{"stablehlo.dynamic_reshape",
        {e.Operand(i, 0), (*shape)[0]},
        "",
        {},
        {i.shape()}};
  return e.EmitAs(op, i.shape(), i.name());
}

}  // namespace

void AddIndexingHandlers(HandlerTable* table);

void AddDataHandlers(HandlerTable* table) {
  (*table)[Opcode::kConstant] = &EmitConstant;
  (*table)[Opcode::kIota] = &EmitIota;
  (*table)[Opcode::kBroadcast] = &EmitBroadcast;
  (*table)[Opcode::kTranspose] = &EmitTranspose;
  (*table)[Opcode::kReverse] = &EmitReverse;
  (*table)[Opcode::kConcatenate] = &EmitConcatenate;
  (*table)[Opcode::kReshape] = &EmitReshape;
  (*table)[Opcode::kBitcast] = &EmitBitcast;
  (*table)[Opcode::kSlice] = &EmitSlice;
  (*table)[Opcode::kPad] = &EmitPad;
  (*table)[Opcode::kGetDimensionSize] = &EmitGetDimensionSize;
  (*table)[Opcode::kSetDimensionSize] = &EmitSetDimensionSize;
  (*table)[Opcode::kDynamicReshape] = &EmitDynamicReshape;
  AddIndexingHandlers(table);
}

}  // namespace kiln::stablehlo
