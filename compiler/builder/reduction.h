// Builder functions for reductions and the ops that apply a computation
// over elements, windows or sequences (operation_semantics.md: Reduce,
// ReduceWindow, SelectAndScatter, Sort, TopK, Map, Scan), in XlaBuilder's
// style. Shapes and the called computations' signatures are checked by the
// ops' shape rules when the op is added; errors are deferred (builder.h).
#ifndef KILN_COMPILER_BUILDER_REDUCTION_H_
#define KILN_COMPILER_BUILDER_REDUCTION_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/builder/padding.h"

namespace kiln {

// Padding (kSame, kValid) and MakePadding are XlaBuilder's shorthands for
// windowed ops; Conv and the ops here share them (padding.h).

// reduce(operand, init_value), dimensions=dimensions_to_reduce,
// to_apply=computation: (T, T) -> T.
XlaOp Reduce(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
             absl::Span<const int64_t> dimensions_to_reduce);

// Variadic reduce of N operands with N init values; computation:
// (T_0..T_{N-1}, T_0..T_{N-1}) -> (T_0..T_{N-1}).
XlaOp Reduce(XlaBuilder* builder, absl::Span<const XlaOp> operands,
             absl::Span<const XlaOp> init_values,
             const XlaComputation& computation,
             absl::Span<const int64_t> dimensions_to_reduce);

// Reduces every dimension of `operand` to a scalar.
XlaOp ReduceAll(XlaOp operand, XlaOp init_value,
                const XlaComputation& computation);

// reduce-window with unit dilations and the padding `padding` gives.
XlaOp ReduceWindow(XlaOp operand, XlaOp init_value,
                   const XlaComputation& computation,
                   absl::Span<const int64_t> window_dimensions,
                   absl::Span<const int64_t> window_strides, Padding padding);
XlaOp ReduceWindow(absl::Span<const XlaOp> operands,
                   absl::Span<const XlaOp> init_values,
                   const XlaComputation& computation,
                   absl::Span<const int64_t> window_dimensions,
                   absl::Span<const int64_t> window_strides, Padding padding);

// reduce-window with explicit (low, high) padding per dimension. Empty
// base_dilations or window_dilations mean 1 in every dimension.
XlaOp ReduceWindowWithGeneralPadding(
    XlaOp operand, XlaOp init_value, const XlaComputation& computation,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const int64_t> base_dilations,
    absl::Span<const int64_t> window_dilations,
    absl::Span<const std::pair<int64_t, int64_t>> padding);
XlaOp ReduceWindowWithGeneralPadding(
    absl::Span<const XlaOp> operands, absl::Span<const XlaOp> init_values,
    const XlaComputation& computation,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const int64_t> base_dilations,
    absl::Span<const int64_t> window_dilations,
    absl::Span<const std::pair<int64_t, int64_t>> padding);

// select-and-scatter(operand, source, init_value); select: (T, T) -> pred,
// scatter: (T, T) -> T.
XlaOp SelectAndScatter(XlaOp operand, const XlaComputation& select,
                       absl::Span<const int64_t> window_dimensions,
                       absl::Span<const int64_t> window_strides,
                       Padding padding, XlaOp source, XlaOp init_value,
                       const XlaComputation& scatter);
XlaOp SelectAndScatterWithGeneralPadding(
    XlaOp operand, const XlaComputation& select,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides,
    absl::Span<const std::pair<int64_t, int64_t>> padding, XlaOp source,
    XlaOp init_value, const XlaComputation& scatter);

// sort(operands...), dimensions={dimension}, is_stable, to_apply=comparator:
// (T_0, T_0, ..., T_{N-1}, T_{N-1}) -> pred. dimension -1 is the last one.
XlaOp Sort(absl::Span<const XlaOp> operands, const XlaComputation& comparator,
           int64_t dimension = -1, bool is_stable = false);

// topk(operand), k, largest: the k largest (or smallest) entries of the
// last dimension and their s32 indices.
XlaOp TopK(XlaOp operand, int64_t k, bool largest = true);

// map(operands...), dimensions, to_apply=computation: (T_0..T_{N-1}) -> S.
// Empty `dimensions` means all of them (XLA prints them all). Static
// operands are not part of HLO's map; passing any is an error.
XlaOp Map(XlaBuilder* builder, absl::Span<const XlaOp> operands,
          const XlaComputation& computation,
          absl::Span<const int64_t> dimensions,
          absl::Span<const XlaOp> static_operands = {});

// scan(inputs..., inits...), dimensions={scan_dimension},
// num_carries=|inits|; to_apply: (i_0..i_{m-1}, c_0..c_{k-1}) ->
// (o_0..o_{n-1}, c'_0..c'_{k-1}). is_associative unset means unknown.
XlaOp Scan(absl::Span<const XlaOp> inputs, absl::Span<const XlaOp> inits,
           const XlaComputation& to_apply, int64_t scan_dimension,
           bool is_reverse = false,
           std::optional<bool> is_associative = std::nullopt);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_REDUCTION_H_
