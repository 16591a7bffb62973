#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backends/cpu/kernel_writer.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/evaluator/indexing_dims.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln::cpu::emitter_internal {

std::string KernelWriter::ComputeReduce(const Instruction* reduce,
                                        const Index& index) {
  const std::vector<int64_t>& reduced = *Int64s(*reduce, attr::kDimensions);
  const Instruction* operand = reduce->operand(0);
  const Shape& shape = operand->shape();
  const Computation& reducer =
      **reduce->attrs().Get<Computation*>(attr::kToApply);
  const ElementType type = reduce->shape().element_type();
  // Float sums and products of f32 and narrower accumulate in double and
  // round once, as the evaluator's (reduction_wide.h); a sum may then be
  // reassociated (one partial sum per vector lane), far inside the error
  // of the element type.
  const std::optional<Opcode> wide = WideReduction(reducer);
  const std::string acc = Fresh("acc");
  const std::string init = Value(reduce->operand(1), {});
  Line(
      absl::StrCat(wide ? "double" : Type(reduce), " ", acc, " = ", init, ";"));
  // Kept dimensions take the output index in order; reduced ones loop, in
  // row-major order (the evaluator's order).
  Index operand_index(shape.rank());
  std::vector<bool> is_reduced(shape.rank(), false);
  for (int64_t d : reduced) is_reduced[d] = true;
  size_t next = 0;
  int loops = 0;
  const int64_t innermost =
      reduced.empty() ? -1 : *std::max_element(reduced.begin(), reduced.end());
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (!is_reduced[d]) {
      operand_index[d] = index[next++];
      continue;
    }
    if (d == innermost && (IsSum(reducer) || (wide && *wide == Opcode::kAdd))) {
      // Sums may be reassociated (the conformance tolerance of reductions
      // allows it; integers wrap either way), so the innermost loop keeps
      // one partial sum per vector lane.
      Line(absl::StrCat("#pragma omp simd reduction(+:", acc, ")"));
    }
    const std::string r = Fresh("r");
    Line(absl::StrCat("for (int64_t ", r, " = 0; ", r, " < ",
                      shape.dimension(d), "; ++", r, ") {"));
    operand_index[d] = r;
    ++depth_;
    ++loops;
  }
  auto saved = memo_;
  const std::string x = Value(operand, operand_index);
  if (wide) {
    Line(absl::StrCat(acc, *wide == Opcode::kAdd ? " += " : " *= ",
                      "static_cast<double>(", x, ");"));
  } else {
    Combine(reducer, acc, x);
  }
  memo_ = std::move(saved);
  for (; loops > 0; --loops) {
    --depth_;
    Line("}");
  }
  if (!wide) return acc;
  // One rounding from double into the element type.
  const std::string var = Fresh("v");
  Line(absl::StrCat("const ", Type(reduce), " ", var, " = ",
                    type == ElementType::kF32
                        ? absl::StrCat("static_cast<float>(", acc, ")")
                        : absl::StrCat("kiln_cpu::RoundFromF64(",
                                       FloatFormat(type), ", ", acc, ")"),
                    ";"));
  return var;
}

// gather at a result index: the index vector at the result's batch
// position, clamped so that the slice fits (as the evaluator), plus the
// offset within the slice.
std::string KernelWriter::ComputeGather(const Instruction* gather,
                                        const Index& index) {
  const Shape& operand = gather->operand(0)->shape();
  const Shape& indices = gather->operand(1)->shape();
  const int64_t rank = gather->shape().rank();
  const eval::IndexedDims dims = *eval::ReadIndexedDims(
      *gather, eval::kGatherDimNames, operand, indices, rank);
  const std::vector<int64_t>& sizes = *Int64s(*gather, attr::kSliceSizes);
  const std::vector<int64_t> batch_dims = eval::NonWindowDims(dims, rank);
  Index at_indices(indices.rank(), "0");
  for (size_t k = 0; k < dims.batch.size(); ++k) {
    at_indices[dims.batch[k]] = index[batch_dims[k]];
  }
  std::vector<std::string> start(operand.rank(), "0");
  for (size_t k = 0; k < dims.index_map.size(); ++k) {
    if (dims.index_vector_dim < indices.rank()) {
      at_indices[dims.index_vector_dim] = absl::StrCat(k);
    }
    start[dims.index_map[k]] = Value(gather->operand(1), at_indices);
  }
  for (size_t i = 0; i < dims.operand_batching.size(); ++i) {
    for (size_t k = 0; k < dims.batch.size(); ++k) {
      if (dims.batch[k] == dims.index_batching[i]) {
        start[dims.operand_batching[i]] = index[batch_dims[k]];
      }
    }
  }
  Index at(operand.rank());
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const std::string clamped = Fresh("s");
    Line(absl::StrCat("const int64_t ", clamped, " = kiln_cpu::ClampStart(",
                      start[d], ", ", operand.dimension(d), ", ", sizes[d],
                      ");"));
    at[d] = clamped;
  }
  for (size_t k = 0; k < dims.window.size(); ++k) {
    at[dims.window_operand[k]] = absl::StrCat(
        "(", at[dims.window_operand[k]], " + ", index[dims.window[k]], ")");
  }
  return Value(gather->operand(0), at);
}

std::string KernelWriter::Inline(const Computation& computation,
                                 const std::vector<std::string>& args) {
  auto saved = memo_;
  for (size_t k = 0; k < args.size(); ++k) {
    bindings_[computation.parameter(k)] = args[k];
  }
  const std::string result = Value(computation.root(), {});
  for (size_t k = 0; k < args.size(); ++k) {
    bindings_.erase(computation.parameter(k));
  }
  memo_ = std::move(saved);
  return result;
}

void KernelWriter::Combine(const Computation& reducer, const std::string& acc,
                           const std::string& value) {
  Line(absl::StrCat(acc, " = ", Inline(reducer, {acc, value}), ";"));
}

// reduce-window at a result index, as the evaluator: the window's cells in
// row-major order, edge padding folded in as the init value, holes of base
// dilation skipped (padding in any dimension wins over a hole).
std::string KernelWriter::ComputeReduceWindow(const Instruction* reduce_window,
                                              const Index& index) {
  const Shape& shape = reduce_window->operand(0)->shape();
  const Window& window = *reduce_window->attrs().Get<Window>(attr::kWindow);
  const Computation& reducer =
      **reduce_window->attrs().Get<Computation*>(attr::kToApply);
  const std::string init = Value(reduce_window->operand(1), {});
  const std::string acc = Fresh("acc");
  Line(absl::StrCat(Type(reduce_window), " ", acc, " = ", init, ";"));
  const std::string padding = Fresh("pad"), hole = Fresh("hole");
  const int outer_depth = depth_;
  Index at(shape.rank());
  std::vector<std::string> positions;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const WindowDimension& w = window.dimensions[d];
    const std::string k = Fresh("k");
    Line(absl::StrCat("for (int64_t ", k, " = 0; ", k, " < ", w.size, "; ++", k,
                      ") {"));
    ++depth_;
    const std::string x = Fresh("x");
    Line(absl::StrCat("const int64_t ", x, " = ", index[d], " * ", w.stride,
                      " + ", k, " * ", w.window_dilation, " - (", w.padding_low,
                      ");"));
    positions.push_back(x);
    at[d] = absl::StrCat(x, " / ", w.base_dilation);
  }
  std::vector<std::string> outside, between;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const WindowDimension& w = window.dimensions[d];
    const int64_t base = shape.dimension(d) == 0
                             ? 0
                             : (shape.dimension(d) - 1) * w.base_dilation + 1;
    outside.push_back(
        absl::StrCat(positions[d], " < 0 || ", positions[d], " >= ", base));
    between.push_back(
        absl::StrCat(positions[d], " % ", w.base_dilation, " != 0"));
  }
  Line(absl::StrCat("const bool ", padding, " = ",
                    outside.empty() ? "false" : absl::StrJoin(outside, " || "),
                    ";"));
  Line(absl::StrCat("const bool ", hole, " = ",
                    between.empty() ? "false" : absl::StrJoin(between, " || "),
                    ";"));
  Line(absl::StrCat("if (", padding, ") {"));
  Nested([&] { Combine(reducer, acc, init); });
  Line(absl::StrCat("} else if (!", hole, ") {"));
  Nested([&] { Combine(reducer, acc, Value(reduce_window->operand(0), at)); });
  Line("}");
  while (depth_ > outer_depth) {
    --depth_;
    Line("}");
  }
  return acc;
}

void KernelWriter::EmitScanLoopNest(const Instruction* reduce_window, size_t k,
                                    const Scan& scan) {
  const Shape& shape = reduce_window->shape();
  const Computation& reducer =
      **reduce_window->attrs().Get<Computation*>(attr::kToApply);
  memo_.clear();
  depth_ = 1;
  Index index(shape.rank());
  bool outermost = true;
  if (cuda()) OpenScanGridStrideLoop(shape, scan.dimension, &index);
  for (int64_t d = 0; d < shape.rank() && !cuda(); ++d) {
    if (d == scan.dimension) continue;
    if (outermost && shape.dimension(d) >= 2 && Work(shape) >= kParallelWork) {
      Line(
          "#pragma omp parallel for schedule(static) "
          "num_threads(KilnThreads())");
    }
    outermost = false;
    index[d] = absl::StrCat("i", d);
    Line(absl::StrCat("for (int64_t i", d, " = 0; i", d, " < ",
                      shape.dimension(d), "; ++i", d, ") {"));
    ++depth_;
  }
  const std::string acc = Fresh("acc");
  Line(absl::StrCat("// A running ", scan.reverse ? "suffix" : "prefix",
                    " scan over dimension ", scan.dimension, "."));
  Line(absl::StrCat(Type(reduce_window), " ", acc, " = ",
                    Value(reduce_window->operand(1), {}), ";"));
  const std::string i = absl::StrCat("i", scan.dimension);
  const int64_t n = shape.dimension(scan.dimension);
  Line(scan.reverse ? absl::StrCat("for (int64_t ", i, " = ", n - 1, "; ", i,
                                   " >= 0; --", i, ") {")
                    : absl::StrCat("for (int64_t ", i, " = 0; ", i, " < ", n,
                                   "; ++", i, ") {"));
  index[scan.dimension] = i;
  Nested([&] {
    Combine(reducer, acc, Value(reduce_window->operand(0), index));
    Line(absl::StrCat("o", k, "[", Linear(index, shape),
                      "] = ", Store(shape.element_type(), acc), ";"));
  });
  Line("}");
  while (depth_ > 1) {
    --depth_;
    Line("}");
  }
}

}  // namespace kiln::cpu::emitter_internal
