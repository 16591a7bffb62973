// Data movement: broadcast, reshape, transpose, reverse, slices, dynamic
// slices and updates, concatenate, pad, iota, tuples, dimension sizes.
#include "compiler/builder/data_movement.h"

#include <algorithm>

#include "compiler/builder/constants.h"
#include "compiler/ir/attributes.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

XlaOp GenBroadcast(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 0, 2);
  return Broadcast(operand, c.Dims(1, 2));
}

XlaOp GenBroadcastInDim(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 0, 2);
  const std::vector<int64_t> dims = c.DimsOf(operand);
  const int64_t rank = dims.size() + c.d().Range(0, 2);
  // Operand dims go to increasing result positions; size-1 dims may
  // stretch.
  std::vector<int64_t> positions = c.d().Subset(rank, dims.size());
  std::vector<int64_t> out(rank);
  for (int64_t& d : out) d = c.Dim();
  for (size_t i = 0; i < dims.size(); ++i) {
    out[positions[i]] = dims[i] == 1 && c.d().Chance(40) ? c.Dim() : dims[i];
  }
  return BroadcastInDim(operand, out, positions);
}

// A factorization of `count` elements into up to three dimensions.
std::vector<int64_t> Refactor(Context& c, int64_t count) {
  if (count == 0) {
    std::vector<int64_t> dims = c.Dims(1, 3);
    dims[c.d().Below(dims.size())] = 0;
    return dims;
  }
  std::vector<int64_t> dims;
  int64_t left = count;
  while (dims.size() < 2 && left > 1 && c.d().Chance(60)) {
    std::vector<int64_t> divisors;
    for (int64_t f = 1; f <= left; ++f) {
      if (left % f == 0) divisors.push_back(f);
    }
    const int64_t f = c.d().Pick(divisors);
    dims.push_back(f);
    left /= f;
  }
  dims.push_back(left);
  if (c.d().Chance(20))
    dims.insert(dims.begin() + c.d().Below(dims.size() + 1), 1);
  return dims;
}

XlaOp GenReshape(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  int64_t count = 1;
  for (int64_t d : c.DimsOf(operand)) count *= d;
  return Reshape(operand, Refactor(c, count));
}

XlaOp GenTranspose(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  return Transpose(operand, c.d().Permutation(c.DimsOf(operand).size()));
}

XlaOp GenReverse(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const int64_t rank = c.DimsOf(operand).size();
  return Rev(operand, c.d().Subset(rank, c.d().Range(0, rank)));
}

// Slices models write keep most of a dimension, often with a stride; an
// empty or one-element range tests little, so each dimension is empty one
// time in ten and otherwise starts in its first half and keeps at least
// one element.
XlaOp GenSlice(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  std::vector<int64_t> start, limit, strides;
  for (int64_t d : c.DimsOf(operand)) {
    const int64_t stride = c.d().Chance(50) ? 1 : c.d().Range(2, 3);
    if (d == 0 || c.d().Chance(10)) {
      const int64_t at = c.d().Range(0, d);
      start.push_back(at);
      limit.push_back(at);
    } else {
      const int64_t lo = c.d().Range(0, (d - 1) / 2);
      start.push_back(lo);
      limit.push_back(c.d().Chance(50) ? d : c.d().Range(lo + 1, d));
    }
    strides.push_back(stride);
  }
  return Slice(operand, start, limit, strides);
}

XlaOp GenDynamicSlice(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1, -1, /*non_empty=*/true);
  std::vector<XlaOp> starts;
  std::vector<int64_t> sizes;
  for (int64_t d : c.DimsOf(operand)) {
    sizes.push_back(c.d().Range(1, d));
    starts.push_back(c.IndexScalar(-1, d + 1));  // Out of range clamps.
  }
  // Start indices share one type.
  const ElementType type = c.TypeOf(starts[0]);
  for (XlaOp& s : starts) {
    if (c.TypeOf(s) != type) s = c.ScalarConstant(type, c.d().Range(0, 2));
  }
  return DynamicSlice(operand, starts, sizes);
}

XlaOp GenDynamicUpdateSlice(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1, -1, /*non_empty=*/true);
  std::vector<int64_t> sizes;
  std::vector<XlaOp> starts;
  const ElementType index_type =
      c.d().Chance(50) ? ElementType::kS32 : ElementType::kS64;
  for (int64_t d : c.DimsOf(operand)) {
    sizes.push_back(c.d().Range(1, d));
    starts.push_back(
        c.d().Chance(20)
            ? c.Value(index_type, {})
            : c.ScalarConstant(index_type, c.d().Range(-1, d + 1)));
  }
  XlaOp update = c.Value(c.TypeOf(operand), sizes);
  return DynamicUpdateSlice(operand, update, starts);
}

XlaOp GenConcatenate(Context& c) {
  XlaOp first = c.Any(kAnyClass, 1);
  const std::vector<int64_t> dims = c.DimsOf(first);
  const int64_t dimension = c.d().Below(dims.size());
  std::vector<XlaOp> operands = {first};
  const int64_t more = c.d().Range(1, 3);
  for (int64_t i = 0; i < more; ++i) {
    std::vector<int64_t> other = dims;
    other[dimension] = c.Dim();
    operands.push_back(c.Value(c.TypeOf(first), other));
  }
  return ConcatInDim(c.b(), operands, dimension);
}

XlaOp GenPad(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  PaddingConfig config;
  for (int64_t d : c.DimsOf(operand)) {
    PaddingDimension p;
    p.interior = c.d().Range(0, 2);
    const int64_t stretched = d == 0 ? 0 : d + (d - 1) * p.interior;
    // Negative padding removes elements; never more than there are.
    p.low = c.d().Range(-std::min<int64_t>(stretched, 2), 2);
    p.high = c.d().Range(
        -std::min<int64_t>(stretched + std::min<int64_t>(p.low, 0), 2), 2);
    config.dimensions.push_back(p);
  }
  return Pad(operand, c.Value(c.TypeOf(operand), {}), config);
}

XlaOp GenIota(Context& c) {
  const std::vector<int64_t> dims = c.Dims(1, 3);
  return Iota(c.b(), Shape::Array(c.Type(kRealNumeric), dims),
              c.d().Below(dims.size()));
}

XlaOp GenTuple(Context& c) {
  std::vector<XlaOp> elements;
  const int64_t count = c.d().Range(1, 3);
  for (int64_t i = 0; i < count; ++i) elements.push_back(c.Any(kAnyClass));
  XlaOp tuple = Tuple(c.b(), elements);
  return GetTupleElement(tuple, c.d().Below(count));
}

XlaOp GenGetDimensionSize(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  return GetDimensionSize(operand, c.d().Below(c.DimsOf(operand).size()));
}

XlaOp GenSetDimensionSize(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const std::vector<int64_t> dims = c.DimsOf(operand);
  const int64_t dimension = c.d().Below(dims.size());
  XlaOp size =
      c.ScalarConstant(ElementType::kS32, c.d().Range(0, dims[dimension]));
  return SetDimensionSize(operand, size, dimension);
}

}  // namespace

void AddDataMovementGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(),
            {
                {"broadcast", false, GenBroadcast},
                {"broadcast.in_dim", false, GenBroadcastInDim},
                {"reshape", false, GenReshape},
                {"transpose", false, GenTranspose},
                {"reverse", false, GenReverse},
                {"slice", false, GenSlice},
                {"dynamic-slice", false, GenDynamicSlice},
                {"dynamic-update-slice", false, GenDynamicUpdateSlice},
                {"concatenate", false, GenConcatenate},
                {"pad", false, GenPad},
                {"iota", false, GenIota},
                {"tuple", false, GenTuple},
                {"get-dimension-size", false, GenGetDimensionSize},
                {"set-dimension-size", false, GenSetDimensionSize},
            });
}

}  // namespace kiln::fuzzgen
