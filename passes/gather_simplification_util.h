// Shared by gather-simplification, scatter-simplification, gather-expander
// and scatter-expander: the dimension numbers of gather/scatter under one set
// of names, and an emitter that adds instructions with inferred shapes.
//
// Gather and scatter name the same roles differently:
//   gather                       scatter                  here
//   offset_dims                  update_window_dims       window
//   collapsed_slice_dims         inserted_window_dims     collapsed
//   operand_batching_dims        input_batching_dims      operand_batching
//   start_indices_batching_dims  scatter_indices_batching_dims index_batching
//   start_index_map              scatter_dims_to_operand_dims index_map
#ifndef KILN_PASSES_GATHER_SIMPLIFICATION_UTIL_H_
#define KILN_PASSES_GATHER_SIMPLIFICATION_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace gather_scatter {

using Dims = std::vector<int64_t>;

struct IndexedDims {
  Dims window, collapsed, operand_batching, index_batching, index_map;
  int64_t index_vector_dim = 0;
};

IndexedDims ReadGatherDims(const Instruction& gather);
IndexedDims ReadScatterDims(const Instruction& scatter);
// Sets the attributes (the batching lists only when non-empty, as XLA
// prints them).
void WriteGatherDims(const IndexedDims& dims, Instruction* gather);
void WriteScatterDims(const IndexedDims& dims, Instruction* scatter);

// Operand dims that are neither collapsed nor batching, in order: window[k]
// of the result/updates walks operand dim WindowOperandDims()[k].
Dims WindowOperandDims(const IndexedDims& dims, int64_t operand_rank);
// The indices' dims other than index_vector_dim, in order.
Dims IndexBatchDims(const IndexedDims& dims, int64_t indices_rank);
// Sizes of those dims, and their product (the number of index vectors).
Dims IndexBatchSizes(const IndexedDims& dims, const Shape& indices);
// Product, Contains and IsIdentityPermutation: compiler/util/int_lists.h.
// The largest value of an integer type (u64: 2^64-1).
uint64_t IntegerMax(ElementType type);
// Every array shape of `instruction` and its operands static.
bool AllStatic(const Instruction& instruction);

// The scatter's operand count N (operands 0..N-1, indices N, updates
// N+1..2N).
int64_t ScatterArity(const Instruction& scatter);
// True when the update computation returns its update parameters
// unchanged (for N > 1, a tuple of parameters N..2N-1 in order): a plain
// overwrite.
bool IsOverwrite(const Computation& combiner, int64_t arity);

// Adds instructions to one computation, each with the shape the strict
// shape rules infer (default layouts when the origin has layouts) and the
// metadata and location of `origin`. Placed before `before` when given,
// else appended. The first error is kept and every later call returns
// null (deferred errors, as the builder does): check status() at the end.
class Emitter {
 public:
  Emitter(Computation* computation, const Instruction& origin,
          const Instruction* before);

  const absl::Status& status() const { return status_; }
  Computation* computation() const { return computation_; }

  Instruction* Parameter(int64_t number, const Shape& shape,
                         absl::string_view name);
  Instruction* Constant(Literal literal);
  // Made once per emitter for each (type, value).
  Instruction* ScalarConstant(ElementType type, int64_t value);
  // The largest value of an integer type, as a constant of that type.
  Instruction* MaxConstant(ElementType type);
  Instruction* Zeros(ElementType type, const Dims& dims);
  Instruction* Reshape(Instruction* operand, const Dims& dims);
  // Identity permutations return `operand`.
  Instruction* Transpose(Instruction* operand, const Dims& permutation);
  Instruction* Broadcast(Instruction* operand, const Dims& result_dims,
                         const Dims& dimensions);
  Instruction* Slice(Instruction* operand, const Dims& starts,
                     const Dims& limits);
  Instruction* Convert(Instruction* operand, ElementType type);
  Instruction* Concatenate(std::vector<Instruction*> operands,
                           int64_t dimension);
  Instruction* Iota(ElementType type, const Dims& dims, int64_t dimension);
  Instruction* Binary(Opcode opcode, Instruction* lhs, Instruction* rhs);
  Instruction* Compare(Instruction* lhs, Instruction* rhs,
                       absl::string_view direction);
  Instruction* Select(Instruction* predicate, Instruction* on_true,
                      Instruction* on_false);
  Instruction* DynamicSlice(Instruction* operand,
                            const std::vector<Instruction*>& starts,
                            const Dims& sizes);
  Instruction* DynamicUpdateSlice(Instruction* operand, Instruction* update,
                                  const std::vector<Instruction*>& starts);
  Instruction* Tuple(std::vector<Instruction*> elements);
  Instruction* GetTupleElement(Instruction* tuple, int64_t index);
  Instruction* Map(std::vector<Instruction*> operands, Computation* to_apply);
  Instruction* Call(std::vector<Instruction*> operands, Computation* to_apply);
  Instruction* While(Instruction* init, Computation* condition,
                     Computation* body);
  // One element of a vector (or the only element of any one-element
  // array) as a scalar.
  Instruction* Element(Instruction* vector, int64_t index);
  // Indices as s64 with the evaluator's reading: u64 values above
  // INT64_MAX saturate to it, other integers convert exactly.
  Instruction* IndicesAsS64(Instruction* indices);

  // Adds `instruction` (operands and attributes set) with its inferred
  // shape. Public for the rare op without a helper.
  Instruction* Add(std::unique_ptr<Instruction> instruction);

 private:
  Instruction* New(Opcode opcode, std::vector<Instruction*> operands,
                   AttributeMap attributes, absl::string_view name);

  Computation* computation_;
  const Instruction& origin_;
  const Instruction* before_;
  absl::Status status_;
  // Scalar integer constants made so far, reused.
  absl::flat_hash_map<std::pair<ElementType, int64_t>, Instruction*>
      scalar_constants_;
};

// Indices with index_vector_dim moved last (a transpose) or, when it is
// implicit (== rank), a trailing size-1 dim added (a reshape): the result
// is [batch dims in order..., K].
Instruction* IndexVectorLast(Emitter& emitter, Instruction* indices,
                             int64_t index_vector_dim);

// Returns `indices` in IndexVectorLast form with batching dims made
// explicit, as XLA's batched gather/scatter normalizer does: for each
// operand batching dim, an iota over its indices batching dim is appended
// to the index vectors, and the operand batching dim joins `collapsed` and
// `index_map`.
// Exact: a batching coordinate is always in bounds with slice size 1, so
// neither gather's clamp nor scatter's bounds check changes it. The
// indices are widened to s64 first when their type cannot hold every
// batching coordinate. Updates `dims` (index_vector_dim becomes last).
Instruction* MakeBatchingExplicit(Emitter& emitter, Instruction* indices,
                                  IndexedDims* dims);

// Builds a while loop body's instructions: parameter 0 (the loop state)
// and its elements.
struct LoopState {
  Instruction* parameter = nullptr;
  std::vector<Instruction*> elements;
};
LoopState UnpackLoopState(Emitter& emitter, const Shape& state_shape);

// A loop `while (state[0] < trip_count)`, condition computation only.
absl::StatusOr<Computation*> AddCounterCondition(Computation* caller,
                                                 const Instruction& origin,
                                                 const Shape& state_shape,
                                                 int64_t trip_count);

// The batch coordinate of index vector `linear` (an s64 scalar, row-major
// over `sizes`) along sizes[position].
Instruction* BatchCoordinate(Emitter& emitter, Instruction* linear,
                             const Dims& sizes, int64_t position);

// For an N-operand scatter (N > 1), N computations, the j-th returning
// element j of the update computation's result, each a map-able scalar
// computation. For N == 1 the update computation itself.
absl::StatusOr<std::vector<Computation*>> PerOutputCombiners(
    Computation* combiner, int64_t arity, const Instruction& origin);

// The index vectors of `indices` flattened row-major over the batch dims
// into s64[B, K] (IndicesAsS64), or null when K == 0 (nothing to read).
Instruction* FlatIndexVectorsS64(Emitter& emitter, Instruction* indices,
                                 const IndexedDims& dims);

// Inside a loop body: the full start index of index vector `counter` (an
// s64 scalar), one s64 scalar per operand dim: the vector's entries (read
// from `vectors`, s64[B, K]) at index_map dims, the batch coordinate at
// operand batching dims, 0 elsewhere. `batch_sizes` are the indices' batch
// dim sizes.
std::vector<Instruction*> LoopStarts(Emitter& emitter, Instruction* counter,
                                     Instruction* vectors,
                                     const IndexedDims& dims,
                                     const Dims& batch_sizes,
                                     int64_t indices_rank,
                                     int64_t operand_rank);

// A scatter's window in operand dims: the updates' window dim sizes at the
// operand's window dims, 1 at inserted and batching dims.
Dims ScatterWindowShape(const IndexedDims& dims, const Shape& operand,
                        const Shape& updates);

// Where one scatter update window lands at `starts` (scalars of one
// integer type, unclamped), element by element as the spec says: an
// element whose operand index is out of bounds is dropped, the rest of the
// window is applied. dynamic-slice and dynamic-update-slice clamp a start
// into [0, dim - window size], so in a dim d where the window can be partly
// out of bounds (window size > 1) the updates are realigned to the clamped
// window: with s' = clamp(start, -size, dim) (s' gives the same elements as
// start and keeps the arithmetic in s64 range) and c = clamp(start, 0,
// dim - size), window position w of the clamped window holds update
// element w + (c - s'), which exists iff 0 <= w + c - s' < size.
struct WindowPlacement {
  // pred[window]: the element at this position of the clamped window is
  // updated; null when every element always is.
  Instruction* mask = nullptr;
  // s64 starts into the updates concatenated three times along each
  // realigned dim (size + c - s' there, 0 elsewhere); empty when no dim
  // needs realigning.
  std::vector<Instruction*> update_starts;
  Dims realigned;  // The realigned dims.
};
// Checks the index_map dims (the only ones whose start can be out of
// bounds; dims whose index type cannot leave [0, dim - size] are skipped).
WindowPlacement PlaceWindow(Emitter& emitter,
                            const std::vector<Instruction*>& starts,
                            const IndexedDims& dims, const Shape& operand,
                            const Dims& window);

// Scatters one update window into each operand at `starts` (scalars of
// one integer type): the current window (dynamic-slice, clamped) is
// combined with `updates[j]` (window-shaped, realigned by `placement`)
// through `combiners` (map; none for a plain overwrite), the current value
// is kept where `placement.mask` is false, and the result is written back
// (dynamic-update-slice, clamped alike). Returns the new operands.
std::vector<Instruction*> ApplyUpdateWindow(
    Emitter& emitter, const std::vector<Instruction*>& operands,
    const std::vector<Instruction*>& updates,
    const std::vector<Instruction*>& starts, const WindowPlacement& placement,
    const std::vector<Computation*>& combiners, bool overwrite);

// For a gather: result dim o holds batch dim b (the b-th non-offset dim)
// or offset dim k; an array [batch sizes..., window sizes...] holds them at
// b and (#batch + k). The transpose permutation from that array to the
// result.
Dims GatherResultPermutation(const IndexedDims& dims, int64_t result_rank);

// Element i of an integer literal as a start index, read as the evaluator
// does: unsigned values above INT64_MAX saturate to it.
int64_t ConstantIndex(const Literal& literal, int64_t i);

// Entry k of the only index vector of `indices` (which holds one vector
// of `vector_size` entries), as a scalar of the indices' type.
Instruction* SingleVectorEntry(Emitter& emitter, Instruction* indices,
                               int64_t k, int64_t vector_size);

// `value` with exactly `shape` (layout included): itself, or a copy that
// changes only the layout.
Instruction* WithShape(Emitter& emitter, Instruction* value,
                       const Shape& shape);

// Replaces `old_instruction` (its uses, ROOT and control dependencies) by
// `replacement`, which was emitted before it.
absl::Status ReplaceAndOrder(Instruction* old_instruction,
                             Instruction* replacement);

}  // namespace gather_scatter
}  // namespace kiln

#endif  // KILN_PASSES_GATHER_SIMPLIFICATION_UTIL_H_
