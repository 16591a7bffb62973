// The op families of the StableHLO exporter: each adds the emitters of its
// opcodes to the table (docs/stablehlo.md has the mapping).
#ifndef KILN_COMPILER_STABLEHLO_OPS_H_
#define KILN_COMPILER_STABLEHLO_OPS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"
#include "compiler/stablehlo/emitter.h"

namespace kiln::stablehlo {

// Unary, binary and ternary elementwise ops, compare, convert and friends.
void AddElementwiseHandlers(HandlerTable* table);
// constant, iota, broadcast, reshape, transpose, slices, pad, concatenate,
// gather, scatter, dynamic shapes.
void AddDataHandlers(HandlerTable* table);
// reduce, reduce-window, select-and-scatter, sort, map, topk (as a sort), dot,
// convolution, fft, linalg, batch norm, rng.
void AddComputeHandlers(HandlerTable* table);
// tuple, get-tuple-element, call, fusion, while, conditional, custom-call,
// opt-barrier, copies, async wrappers, tokens.
void AddControlHandlers(HandlerTable* table);
// Collectives, send/recv, infeed/outfeed, replica and partition ids.
void AddCollectiveHandlers(HandlerTable* table);
// scan, as a stablehlo.while.
void AddScanHandler(HandlerTable* table);

// "dense<...> : tensor<...>" for an array literal.
absl::StatusOr<std::string> DenseAttr(const Literal& literal);

// A zero of `shape` (constants for arrays, after_all for tokens), for the
// context elements of start/done pairs, which carry no data.
absl::StatusOr<Value> EmitZero(FunctionEmitter& emitter, const Shape& shape);

// A stablehlo.constant of `literal` (one per leaf of a tuple).
absl::StatusOr<Value> EmitLiteral(FunctionEmitter& emitter,
                                  const Literal& literal,
                                  absl::string_view hint);

// Element `index` of a tuple value (emitting get_tuple_element for a tuple
// kept whole).
absl::StatusOr<Value> Element(FunctionEmitter& emitter, const Value& tuple,
                              int64_t index);

// The value of a tuple whose elements are `elements`.
Value KnownTuple(std::vector<Value> elements);

// An error with `reason` (the emitter adds the instruction and location).
inline absl::Status NoForm(absl::string_view reason) {
  return absl::InvalidArgumentError(reason);
}

}  // namespace kiln::stablehlo

#endif  // KILN_COMPILER_STABLEHLO_OPS_H_
