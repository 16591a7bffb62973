// The order in which reduce combines elements, shared by its fast typed
// loops and its general path (which calls the combiner computation), so
// that both fold every output element in exactly the same order:
//
//   Each output element starts as the init value; the input is walked in
//   row-major order and each input element x is folded into the output
//   element it reduces to as acc = f(acc, x).
//
// For one output element this visits the reduced dimensions in row-major
// order: f(...f(f(init, x_0), x_1)..., x_{n-1}), the spec's sequential
// application (operation_semantics.md, Reduce, "Variadic Reduce").
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_WALK_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_WALK_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace kiln {
namespace eval {

// The input's dimensions with adjacent dimensions of the same kind (both
// reduced or both kept) merged and size-1 dimensions dropped, outermost
// first. The input is row-major, so the innermost merged dimension has
// input stride 1.
struct ReduceWalk {
  std::vector<int64_t> sizes;
  std::vector<int64_t> in_strides;
  std::vector<int64_t> out_strides;  // 0 for reduced dimensions.
  bool empty = false;                // Some dimension has size 0.
};

// `reduced[d]` says whether dimension d of `dims` is reduced.
ReduceWalk PlanReduceWalk(absl::Span<const int64_t> dims,
                          const std::vector<bool>& reduced);

// Calls `run(in_offset, out_offset, length, out_step)` for each run of the
// innermost merged dimension, in row-major order of the input: input
// elements in_offset .. in_offset+length-1 fold into output elements
// out_offset + j * out_step. Stops at the first error `run` returns.
template <typename Run>
absl::Status ForEachRun(const ReduceWalk& walk, Run&& run) {
  if (walk.empty) return absl::OkStatus();
  const int64_t outer = static_cast<int64_t>(walk.sizes.size()) - 1;
  std::vector<int64_t> index(outer, 0);
  int64_t in_offset = 0;
  int64_t out_offset = 0;
  while (true) {
    absl::Status status =
        run(in_offset, out_offset, walk.sizes[outer], walk.out_strides[outer]);
    if (!status.ok()) return status;
    int64_t d = outer - 1;
    for (; d >= 0; --d) {
      in_offset += walk.in_strides[d];
      out_offset += walk.out_strides[d];
      if (++index[d] < walk.sizes[d]) break;
      in_offset -= walk.in_strides[d] * walk.sizes[d];
      out_offset -= walk.out_strides[d] * walk.sizes[d];
      index[d] = 0;
    }
    if (d < 0) return absl::OkStatus();
  }
}

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_WALK_H_
