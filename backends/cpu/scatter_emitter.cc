#include "backends/cpu/scatter_emitter.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backends/cpu/kernel_target.h"
#include "backends/cpu/loop_emitter.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/evaluator/indexing_dims.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"

namespace kiln::cpu {
namespace {

using emitter_internal::ComputeType;
using emitter_internal::IsNativeArray;
using emitter_internal::Load;
using emitter_internal::StorageType;
using emitter_internal::Store;

// Row-major position of `index` (C++ expressions) in `dims`.
std::string Linear(const std::vector<std::string>& index,
                   const std::vector<int64_t>& dims) {
  if (index.empty()) return "0";
  std::string linear = index[0];
  for (size_t d = 1; d < dims.size(); ++d) {
    linear = absl::StrCat("(", linear, ") * ", dims[d], " + ", index[d]);
  }
  return linear;
}

// Where one update element lands: the operand index and the updates
// index (C++ expressions) of the element at batch coordinates `batch` (one
// per IndexedDims::batch) and window coordinates `window` (one per
// IndexedDims::window). Writes the lines reading its start indices.
struct ScatterTarget {
  std::vector<std::string> at_operand, at_updates;
};
ScatterTarget ReadScatterTarget(
    const eval::IndexedDims& dims, const Instruction& scatter,
    const std::vector<std::string>& batch,
    const std::vector<std::string>& window,
    const std::function<void(absl::string_view)>& line) {
  const Shape& indices = scatter.operand(1)->shape();
  const Shape& updates = scatter.operand(2)->shape();
  const int64_t operand_rank = scatter.operand(0)->shape().rank();
  const std::vector<int64_t> update_batch =
      eval::NonWindowDims(dims, updates.rank());
  std::vector<std::string> at_indices(indices.rank(), "0");
  ScatterTarget target;
  target.at_updates.assign(updates.rank(), "0");
  for (size_t k = 0; k < dims.batch.size(); ++k) {
    at_indices[dims.batch[k]] = batch[k];
    target.at_updates[update_batch[k]] = batch[k];
  }
  std::vector<std::string> start(operand_rank, "0");
  for (size_t k = 0; k < dims.index_map.size(); ++k) {
    if (dims.index_vector_dim < indices.rank()) {
      at_indices[dims.index_vector_dim] = absl::StrCat(k);
    }
    const std::string s = absl::StrCat("s", k);
    line(absl::StrCat("const int64_t ", s, " = static_cast<int64_t>(p1[",
                      Linear(at_indices, indices.dimensions()), "]);"));
    start[dims.index_map[k]] = s;
  }
  for (size_t i = 0; i < dims.operand_batching.size(); ++i) {
    for (size_t k = 0; k < dims.batch.size(); ++k) {
      if (dims.batch[k] == dims.index_batching[i]) {
        start[dims.operand_batching[i]] = batch[k];
      }
    }
  }
  target.at_operand = start;
  for (size_t k = 0; k < dims.window.size(); ++k) {
    target.at_updates[dims.window[k]] = window[k];
    target.at_operand[dims.window_operand[k]] =
        absl::StrCat("(", start[dims.window_operand[k]], " + ", window[k], ")");
  }
  return target;
}

// "if (...) {" taking an element whose operand index is in bounds (the
// others are skipped).
std::string InBounds(const std::vector<std::string>& at_operand,
                     const Shape& operand) {
  std::vector<std::string> inside;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    inside.push_back(absl::StrCat(at_operand[d], " >= 0 && ", at_operand[d],
                                  " < ", operand.dimension(d)));
  }
  return absl::StrCat(
      "if (", inside.empty() ? "true" : absl::StrJoin(inside, " && "), ") {");
}

// What both scatter kernels need: the checked dimension numbers, the
// element and index types, and the update computation.
struct ScatterPlan {
  eval::IndexedDims dims;
  ElementType type;
  std::string compute, storage, index_type;
  const Computation* combiner;
};

absl::StatusOr<ScatterPlan> PlanScatter(const Instruction& scatter) {
  const auto* combiner = scatter.attrs().Get<Computation*>(attr::kToApply);
  if (scatter.opcode() != Opcode::kScatter || scatter.operand_count() != 3 ||
      combiner == nullptr || *combiner == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat(scatter.name(), ": only scatters of one operand"));
  }
  const Shape& operand = scatter.operand(0)->shape();
  const Shape& indices = scatter.operand(1)->shape();
  const Shape& updates = scatter.operand(2)->shape();
  if (!IsNativeArray(operand) || !IsNativeArray(updates) ||
      !NativeCType(indices.element_type()).has_value() ||
      !indices.is_static() || !IsIntegralType(indices.element_type()) ||
      updates.element_type() != operand.element_type()) {
    return absl::UnimplementedError(absl::StrCat(
        scatter.name(), ": scatter of types the kernels do not compute"));
  }
  absl::StatusOr<eval::IndexedDims> dims = eval::ReadIndexedDims(
      scatter, eval::kScatterDimNames, operand, indices, updates.rank());
  if (!dims.ok()) return dims.status();
  ScatterPlan plan;
  plan.dims = *std::move(dims);
  plan.type = operand.element_type();
  plan.compute = ComputeType(plan.type);
  plan.storage = StorageType(plan.type);
  plan.index_type = *NativeCType(indices.element_type());
  plan.combiner = *combiner;
  return plan;
}

// The update computation as C++ (of `current` and `update`) at `depth`.
absl::StatusOr<ScalarFunction> EmitCombine(const Instruction& scatter,
                                           const ScatterPlan& plan,
                                           absl::string_view name, int depth) {
  absl::StatusOr<ScalarFunction> combine =
      EmitScalarFunction(*plan.combiner, {"current", "update"},
                         absl::StrCat(name, "_combine"), depth);
  if (!combine.ok()) {
    return absl::UnimplementedError(absl::StrCat(
        scatter.name(), ": update computation: ", combine.status().message()));
  }
  return combine;
}

}  // namespace

absl::StatusOr<std::string> EmitScatterKernel(const Instruction& scatter,
                                              absl::string_view name) {
  absl::StatusOr<ScatterPlan> plan = PlanScatter(scatter);
  if (!plan.ok()) return plan.status();
  const Shape& operand = scatter.operand(0)->shape();
  const Shape& indices = scatter.operand(1)->shape();
  const Shape& updates = scatter.operand(2)->shape();
  const eval::IndexedDims* dims = &plan->dims;
  const ElementType type = plan->type;
  const std::string& compute = plan->compute;
  const std::string& storage = plan->storage;
  const std::string& index_type = plan->index_type;
  absl::StatusOr<ScalarFunction> combine = EmitCombine(
      scatter, *plan, name,
      3 + static_cast<int>(dims->batch.size() + dims->window.size()));
  if (!combine.ok()) return combine.status();

  std::string body;
  int depth = 1;
  auto line = [&](absl::string_view text) {
    absl::StrAppend(&body, std::string(2 * depth, ' '), text, "\n");
  };
  const int64_t bytes = operand.ByteSize().value_or(0);
  // In place (the lowering gave the result the operand's own slot when
  // nothing else reads the operand) there is nothing to copy.
  line(absl::StrCat(
      "if (static_cast<const void*>(o0) != p0) std::memcpy(o0, p0, ", bytes,
      ");"));
  // Batch positions of the indices, row-major.
  std::vector<std::string> batch, window;
  for (size_t k = 0; k < dims->batch.size(); ++k) {
    const std::string b = absl::StrCat("b", k);
    line(absl::StrCat("for (int64_t ", b, " = 0; ", b, " < ",
                      indices.dimension(dims->batch[k]), "; ++", b, ") {"));
    ++depth;
    batch.push_back(b);
  }
  for (size_t k = 0; k < dims->window.size(); ++k) {
    window.push_back(absl::StrCat("w", k));
  }
  const ScatterTarget target =
      ReadScatterTarget(*dims, scatter, batch, window, line);
  const std::vector<std::string>& at_operand = target.at_operand;
  const std::vector<std::string>& at_updates = target.at_updates;
  // The window, row-major over the updates' window dimensions.
  for (size_t k = 0; k < dims->window.size(); ++k) {
    const std::string& w = window[k];
    line(absl::StrCat("for (int64_t ", w, " = 0; ", w, " < ",
                      updates.dimension(dims->window[k]), "; ++", w, ") {"));
    ++depth;
  }
  line(InBounds(at_operand, operand));
  ++depth;
  line(absl::StrCat(
      "const int64_t at = ", Linear(at_operand, operand.dimensions()), ";"));
  line(absl::StrCat("const ", compute, " current = ", Load(type, "o0[at]"),
                    ";"));
  line(absl::StrCat(
      "const ", compute, " update = ",
      Load(type,
           absl::StrCat("p2[", Linear(at_updates, updates.dimensions()), "]")),
      ";"));
  absl::StrAppend(&body, combine->body);
  line(absl::StrCat("o0[at] = ", Store(type, combine->result), ";"));
  while (depth > 1) {
    --depth;
    line("}");
  }
  return absl::StrCat(
      combine->globals, "extern \"C\" void ", name,
      "(const void* const* in, void* const* out) {\n", "  const ", storage,
      "* const p0 = static_cast<const ", storage, "*>(in[0]);\n", "  const ",
      index_type, "* const p1 = static_cast<const ", index_type, "*>(in[1]);\n",
      "  const ", storage, "* const p2 = static_cast<const ", storage,
      "*>(in[2]);\n", "  ", storage, "* const o0 = static_cast<", storage,
      "*>(out[0]);\n", body, "}\n");
}

// select-and-scatter: the result filled with the init value; then, for
// each window in row-major order of the source, the window's element that
// the select computation keeps (the first valid element, replaced by each
// later one the selector does not keep; padding and base-dilation holes
// never chosen) gets the source element combined into it by the scatter
// computation, as the evaluator (reduction_window.cc).
absl::StatusOr<std::string> EmitSelectAndScatterKernel(
    const Instruction& instruction, absl::string_view name) {
  const auto* select = instruction.attrs().Get<Computation*>(attr::kSelect);
  const auto* scatter = instruction.attrs().Get<Computation*>(attr::kScatter);
  const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
  const Shape& operand = instruction.operand(0)->shape();
  const Shape& source = instruction.operand(1)->shape();
  if (select == nullptr || *select == nullptr || scatter == nullptr ||
      *scatter == nullptr || window == nullptr ||
      static_cast<int64_t>(window->dimensions.size()) != operand.rank() ||
      source.rank() != operand.rank()) {
    return absl::UnimplementedError(
        absl::StrCat(instruction.name(),
                     ": select-and-scatter without its computations "
                     "or a window per dimension"));
  }
  if (!IsNativeArray(operand) || !IsNativeArray(source) ||
      source.element_type() != operand.element_type()) {
    return absl::UnimplementedError(absl::StrCat(
        instruction.name(),
        ": select-and-scatter of types the kernels do not compute"));
  }
  const int rank = static_cast<int>(operand.rank());
  absl::StatusOr<ScalarFunction> keep =
      EmitScalarFunction(**select, {"chosen", "candidate"},
                         absl::StrCat(name, "_select"), 3 + 2 * rank);
  if (!keep.ok()) {
    return absl::UnimplementedError(absl::StrCat(
        instruction.name(), ": select computation: ", keep.status().message()));
  }
  absl::StatusOr<ScalarFunction> combine =
      EmitScalarFunction(**scatter, {"current", "update"},
                         absl::StrCat(name, "_scatter"), 2 + rank);
  if (!combine.ok()) {
    return absl::UnimplementedError(
        absl::StrCat(instruction.name(),
                     ": scatter computation: ", combine.status().message()));
  }
  const ElementType type = operand.element_type();
  const std::string compute = ComputeType(type);
  const std::string storage = StorageType(type);
  std::string body;
  int depth = 1;
  auto line = [&](absl::string_view text) {
    absl::StrAppend(&body, std::string(2 * depth, ' '), text, "\n");
  };
  const int64_t count = operand.ElementCount().value_or(0);
  line(
      absl::StrCat("for (int64_t i = 0; i < ", count, "; ++i) o0[i] = p2[0];"));
  std::vector<std::string> at_source;
  for (int d = 0; d < rank; ++d) {
    const std::string o = absl::StrCat("o", d, "_");
    line(absl::StrCat("for (int64_t ", o, " = 0; ", o, " < ",
                      source.dimension(d), "; ++", o, ") {"));
    ++depth;
    at_source.push_back(o);
  }
  line("int64_t pick = -1;");
  std::vector<std::string> at_operand, valid;
  for (int d = 0; d < rank; ++d) {
    const WindowDimension& w = window->dimensions[d];
    const std::string k = absl::StrCat("k", d), x = absl::StrCat("x", d);
    line(absl::StrCat("for (int64_t ", k, " = 0; ", k, " < ", w.size, "; ++", k,
                      ") {"));
    ++depth;
    line(absl::StrCat("const int64_t ", x, " = ", at_source[d], " * ", w.stride,
                      " + ", k, " * ", w.window_dilation, " - (", w.padding_low,
                      ");"));
    const int64_t base = operand.dimension(d) == 0
                             ? 0
                             : (operand.dimension(d) - 1) * w.base_dilation + 1;
    valid.push_back(absl::StrCat(x, " >= 0 && ", x, " < ", base, " && ", x,
                                 " % ", w.base_dilation, " == 0"));
    at_operand.push_back(absl::StrCat(x, " / ", w.base_dilation));
  }
  line(absl::StrCat(
      "if (", valid.empty() ? "true" : absl::StrJoin(valid, " && "), ") {"));
  ++depth;
  line(absl::StrCat(
      "const int64_t at = ", Linear(at_operand, operand.dimensions()), ";"));
  line("if (pick < 0) {");
  line("  pick = at;");
  line("} else {");
  ++depth;
  line(absl::StrCat("const ", compute, " chosen = ", Load(type, "p0[pick]"),
                    ";"));
  line(absl::StrCat("const ", compute, " candidate = ", Load(type, "p0[at]"),
                    ";"));
  absl::StrAppend(&body, keep->body);
  line(absl::StrCat("if (!(", keep->result, ")) pick = at;"));
  --depth;
  line("}");
  --depth;
  line("}");
  for (int d = 0; d < rank; ++d) {
    --depth;
    line("}");
  }
  line("if (pick >= 0) {");
  ++depth;
  line(absl::StrCat("const ", compute, " current = ", Load(type, "o0[pick]"),
                    ";"));
  line(absl::StrCat(
      "const ", compute, " update = ",
      Load(type,
           absl::StrCat("p1[", Linear(at_source, source.dimensions()), "]")),
      ";"));
  absl::StrAppend(&body, combine->body);
  line(absl::StrCat("o0[pick] = ", Store(type, combine->result), ";"));
  while (depth > 1) {
    --depth;
    line("}");
  }
  return absl::StrCat(
      keep->globals, combine->globals, "extern \"C\" void ", name,
      "(const void* const* in, void* const* out) {\n", "  const ", storage,
      "* const p0 = static_cast<const ", storage, "*>(in[0]);\n", "  const ",
      storage, "* const p1 = static_cast<const ", storage, "*>(in[1]);\n",
      "  const ", storage, "* const p2 = static_cast<const ", storage,
      "*>(in[2]);\n", "  ", storage, "* const o0 = static_cast<", storage,
      "*>(out[0]);\n", body, "}\n");
}

namespace {

ParallelScatter KindOf(const Instruction& scatter, const ScatterPlan& plan) {
  const bool* unique = scatter.attrs().Get<bool>(attr::kUniqueIndices);
  if (unique != nullptr && *unique) return ParallelScatter::kUnique;
  const int64_t bytes = GetElementTypeInfo(plan.type).storage_bytes;
  if ((bytes == 4 || bytes == 8) &&
      emitter_internal::IsReassociableInteger(*plan.combiner)) {
    return ParallelScatter::kAtomic;
  }
  return ParallelScatter::kNone;
}

}  // namespace

absl::StatusOr<std::string> EmitScatterCopyKernel(const Instruction& scatter,
                                                  absl::string_view name) {
  absl::StatusOr<ScatterPlan> plan = PlanScatter(scatter);
  if (!plan.ok()) return plan.status();
  const int64_t count = scatter.operand(0)->shape().ElementCount().value_or(0);
  const std::string& storage = plan->storage;
  return absl::StrCat(
      KernelHeader(KernelTarget::kCuda, name), "  const ", storage,
      "* const p0 = static_cast<const ", storage, "*>(in[0]);\n", "  ", storage,
      "* const o0 = static_cast<", storage, "*>(out[0]);\n", "  ",
      ParallelLoop(KernelTarget::kCuda, "i", count, true), "\n",
      "    o0[i] = p0[i];\n", "  }\n", "}\n",
      KernelTrailer(KernelTarget::kCuda, name, GridStrideLaunch(count)));
}

absl::StatusOr<std::string> EmitParallelScatterKernel(
    const Instruction& scatter, absl::string_view name) {
  absl::StatusOr<ScatterPlan> plan = PlanScatter(scatter);
  if (!plan.ok()) return plan.status();
  const ParallelScatter kind = KindOf(scatter, *plan);
  if (kind == ParallelScatter::kNone) {
    return absl::UnimplementedError(absl::StrCat(
        scatter.name(),
        ": its updates do not commute (a float or non-associative update "
        "computation without unique_indices)"));
  }
  const Shape& operand = scatter.operand(0)->shape();
  const Shape& updates = scatter.operand(2)->shape();
  const eval::IndexedDims& dims = plan->dims;
  const ElementType type = plan->type;
  const std::string& compute = plan->compute;
  const std::string& storage = plan->storage;
  const bool atomic = kind == ParallelScatter::kAtomic;
  absl::StatusOr<ScalarFunction> combine =
      EmitCombine(scatter, *plan, name, atomic ? 5 : 4);
  if (!combine.ok()) return combine.status();

  std::string body;
  int depth = 2;
  auto line = [&](absl::string_view text) {
    absl::StrAppend(&body, std::string(2 * depth, ' '), text, "\n");
  };
  // One update element per iteration: its index in the updates, then its
  // batch and window coordinates.
  const int64_t count = updates.ElementCount().value_or(0);
  std::vector<std::string> at_updates(updates.rank());
  int64_t stride = 1;
  for (int64_t d = updates.rank() - 1; d >= 0; --d) {
    at_updates[d] = absl::StrCat("u", d);
    line(absl::StrCat("const int64_t u", d, " = (l / ", stride, ") % ",
                      std::max<int64_t>(updates.dimension(d), 1), ";"));
    stride *= updates.dimension(d);
  }
  const std::vector<int64_t> update_batch =
      eval::NonWindowDims(dims, updates.rank());
  std::vector<std::string> batch, window;
  for (int64_t d : update_batch) batch.push_back(at_updates[d]);
  for (int64_t d : dims.window) window.push_back(at_updates[d]);
  const ScatterTarget target =
      ReadScatterTarget(dims, scatter, batch, window, line);
  line(InBounds(target.at_operand, operand));
  ++depth;
  line(absl::StrCat("const int64_t at = ",
                    Linear(target.at_operand, operand.dimensions()), ";"));
  line(absl::StrCat("const ", compute, " update = ", Load(type, "p2[l]"), ";"));
  if (!atomic) {
    // unique_indices: no two updates meet, so each reads and writes alone.
    line(absl::StrCat("const ", compute, " current = ", Load(type, "o0[at]"),
                      ";"));
    absl::StrAppend(&body, combine->body);
    line(absl::StrCat("o0[at] = ", Store(type, combine->result), ";"));
  } else {
    // Combined by compare-and-swap on the element's bits: the update
    // computation commutes and associates exactly (wrapping integers), so
    // every order of the updates gives the evaluator's result.
    const std::string word = GetElementTypeInfo(type).storage_bytes == 8
                                 ? "unsigned long long"
                                 : "unsigned int";
    line(absl::StrCat(word, "* const cell = reinterpret_cast<", word,
                      "*>(o0 + at);"));
    line(absl::StrCat(word, " seen = *cell;"));
    line("while (true) {");
    ++depth;
    line(absl::StrCat("const ", compute, " current = static_cast<", storage,
                      ">(seen);"));
    absl::StrAppend(&body, combine->body);
    line(absl::StrCat("const ", word, " next = static_cast<", word, ">(",
                      Store(type, combine->result), ");"));
    line(absl::StrCat("const ", word, " prior = atomicCAS(cell, seen, next);"));
    line("if (prior == seen) break;");
    line("seen = prior;");
    --depth;
    line("}");
  }
  --depth;
  line("}");
  const std::string& index_type = plan->index_type;
  return absl::StrCat(
      combine->globals, KernelHeader(KernelTarget::kCuda, name), "  const ",
      index_type, "* const p1 = static_cast<const ", index_type, "*>(in[1]);\n",
      "  const ", storage, "* const p2 = static_cast<const ", storage,
      "*>(in[2]);\n", "  ", storage, "* const o0 = static_cast<", storage,
      "*>(out[0]);\n", "  ",
      ParallelLoop(KernelTarget::kCuda, "l", count, true), "\n", body, "  }\n",
      "}\n", KernelTrailer(KernelTarget::kCuda, name, GridStrideLaunch(count)));
}

}  // namespace kiln::cpu
