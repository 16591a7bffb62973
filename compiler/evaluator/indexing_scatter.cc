// The scatter kernel (operation_semantics.md, Scatter): N operands, the
// indices and N updates; every update element is combined into its operand
// element by the update computation, run through EvalContext::Call.
//
// Order: index vectors in row-major order of the indices' batch positions,
// and within one vector's window the window elements in row-major order (as
// XLA's HloEvaluator does), so that repeated indices combine in that order.
// Start indices are not clamped, and each window element is checked on its
// own: an element whose operand index is out of bounds is skipped and the
// rest of its window is applied (the spec's "if O is a valid index for
// output"). XLA skips the whole window instead (docs/choices.md).
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/evaluator/dynamic_kernels.h"
#include "compiler/evaluator/indexing_dims.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {

void RegisterScatterKernel(KernelTable* table);

namespace {

// Operands 0..N-1 and updates N+1..2N must pair up: one dimensions for all
// operands, one for all updates, equal element types pairwise.
absl::StatusOr<int64_t> OperandCount(const Instruction& instruction,
                                     absl::Span<const Literal* const> values) {
  const int64_t count = values.size();
  if (count < 3 || count % 2 == 0) {
    return KernelError(instruction,
                       "scatter takes N operands, the indices and N updates");
  }
  const int64_t n = (count - 1) / 2;
  for (int64_t i = 0; i < count; ++i) {
    if (!values[i]->shape().IsArray()) {
      return KernelError(instruction,
                         absl::StrCat("operand ", i, " must be an array"));
    }
  }
  for (int64_t j = 0; j < n; ++j) {
    const Shape& operand = values[j]->shape();
    const Shape& update = values[n + 1 + j]->shape();
    if (operand.dimensions() != values[0]->shape().dimensions() ||
        update.dimensions() != values[n + 1]->shape().dimensions() ||
        operand.element_type() != update.element_type()) {
      return KernelError(
          instruction,
          absl::StrCat("operand ", j, " ", operand.ToString(false),
                       " and updates ", j, " ", update.ToString(false),
                       " must share operand 0's / updates 0's dimensions and "
                       "each other's element type"));
    }
  }
  return n;
}

// The elements of one window, relative to the window's start, in
// row-major order: their operand and updates offsets, and their position
// in the window (one coordinate per window dim, `rank` per element).
struct WindowElements {
  int64_t rank = 0;
  std::vector<std::pair<int64_t, int64_t>> offsets;
  std::vector<int64_t> coordinates;
};

WindowElements ListWindow(const IndexedDims& d, const Shape& operand,
                          const Shape& updates) {
  const DimVector op_strides = Strides(operand.dimensions());
  const DimVector up_strides = Strides(updates.dimensions());
  std::vector<int64_t> sizes;
  for (int64_t dim : d.window) sizes.push_back(updates.dimension(dim));
  WindowElements elements;
  elements.rank = static_cast<int64_t>(sizes.size());
  DimVector index(sizes.size(), 0);
  for (int64_t size : sizes) {
    if (size == 0) return elements;
  }
  while (true) {
    int64_t op = 0, up = 0;
    for (size_t k = 0; k < sizes.size(); ++k) {
      op += index[k] * op_strides[d.window_operand[k]];
      up += index[k] * up_strides[d.window[k]];
    }
    elements.offsets.emplace_back(op, up);
    elements.coordinates.insert(elements.coordinates.end(), index.begin(),
                                index.end());
    int64_t k = static_cast<int64_t>(sizes.size()) - 1;
    for (; k >= 0; --k) {
      if (++index[k] < sizes[k]) break;
      index[k] = 0;
    }
    if (k < 0) return elements;
  }
}

// For a window starting at `start` (unclamped, any int64): the range
// [low[k], high[k]) of window coordinates k whose operand index falls
// inside the operand. False when no element of the window does (also when
// a dim without window extent, inserted or batching, is out of bounds).
bool ValidWindowRange(const IndexedDims& d, const Shape& operand,
                      const Shape& updates, absl::Span<const int64_t> start,
                      DimVector& low, DimVector& high) {
  std::vector<bool> is_window(operand.rank(), false);
  for (int64_t dim : d.window_operand) is_window[dim] = true;
  for (size_t i = 0; i < start.size(); ++i) {
    if (!is_window[i] && (start[i] < 0 || start[i] >= operand.dimension(i))) {
      return false;
    }
  }
  for (size_t k = 0; k < d.window.size(); ++k) {
    const int64_t dim = operand.dimension(d.window_operand[k]);
    const int64_t size = updates.dimension(d.window[k]);
    const int64_t s = start[d.window_operand[k]];
    // Checked first so that the subtractions below cannot overflow.
    if (s >= dim || s <= -size) return false;
    low[k] = s < 0 ? -s : 0;
    high[k] = std::min(size, dim - s);
  }
  return true;
}

// Runs the update computation on one (operand element, update element)
// pair of every operand, writing the result into `outputs`.
class Combiner {
 public:
  Combiner(const Instruction& instruction, const Computation& computation,
           EvalContext& context, std::vector<Literal>& outputs,
           absl::Span<const Literal* const> updates)
      : instruction_(instruction),
        computation_(computation),
        context_(context),
        outputs_(outputs),
        updates_(updates) {}

  absl::Status Init() {
    for (int pass = 0; pass < 2; ++pass) {
      for (const Literal& output : outputs_) {
        absl::StatusOr<Literal> scalar = context_.NewLiteral(
            instruction_, Shape::Scalar(output.element_type()));
        if (!scalar.ok()) return scalar.status();
        arguments_.push_back(*std::move(scalar));
      }
    }
    for (const Literal& argument : arguments_) pointers_.push_back(&argument);
    return absl::OkStatus();
  }

  absl::Status Apply(int64_t operand_offset, int64_t update_offset) {
    const size_t n = outputs_.size();
    for (size_t j = 0; j < n; ++j) {
      const int64_t bytes = ElementBytes(outputs_[j].element_type());
      std::memcpy(arguments_[j].mutable_data().data(),
                  outputs_[j].data().data() + operand_offset * bytes, bytes);
      std::memcpy(arguments_[n + j].mutable_data().data(),
                  updates_[j]->data().data() + update_offset * bytes, bytes);
    }
    absl::StatusOr<Literal> result = context_.Call(computation_, pointers_);
    if (!result.ok()) return result.status();
    for (size_t j = 0; j < n; ++j) {
      const Literal* value = &*result;
      if (n > 1) {
        const std::vector<Literal>& elements = result->tuple_elements();
        value = j < elements.size() ? &elements[j] : nullptr;
      }
      if (value == nullptr || !value->shape().IsScalar() ||
          value->element_type() != outputs_[j].element_type()) {
        return KernelError(instruction_,
                           absl::StrCat("the update computation returned ",
                                        result->shape().ToString(false),
                                        ", not the operands' scalars"));
      }
      const int64_t bytes = ElementBytes(outputs_[j].element_type());
      std::memcpy(outputs_[j].mutable_data().data() + operand_offset * bytes,
                  value->data().data(), bytes);
    }
    return absl::OkStatus();
  }

 private:
  const Instruction& instruction_;
  const Computation& computation_;
  EvalContext& context_;
  std::vector<Literal>& outputs_;
  absl::Span<const Literal* const> updates_;
  std::vector<Literal> arguments_;  // N operand scalars, then N updates.
  std::vector<const Literal*> pointers_;
};

bool InRange(const int64_t* coordinates, const DimVector& low,
             const DimVector& high) {
  for (size_t k = 0; k < low.size(); ++k) {
    if (coordinates[k] < low[k] || coordinates[k] >= high[k]) return false;
  }
  return true;
}

absl::Status CheckScatterDims(const Instruction& instruction,
                              const IndexedDims& d, const Shape& indices,
                              const Shape& updates) {
  const std::vector<int64_t> scatter_dims = NonWindowDims(d, updates.rank());
  for (size_t k = 0; k < scatter_dims.size(); ++k) {
    if (updates.dimension(scatter_dims[k]) != indices.dimension(d.batch[k])) {
      return KernelError(
          instruction, absl::StrCat("updates dimension ", scatter_dims[k],
                                    " must have the size of indices dimension ",
                                    d.batch[k]));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> ScatterKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> values,
                                      EvalContext& context) {
  absl::StatusOr<int64_t> n = OperandCount(instruction, values);
  if (!n.ok()) return n.status();
  Computation* const* to_apply =
      instruction.attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr) {
    return KernelError(instruction, "scatter needs to_apply=<computation>");
  }
  const Shape& operand = values[0]->shape();
  const Literal& indices = *values[*n];
  const Shape& updates = values[*n + 1]->shape();
  absl::StatusOr<IndexedDims> d = ReadIndexedDims(
      instruction, kScatterDimNames, operand, indices.shape(), updates.rank());
  if (!d.ok()) return d.status();
  absl::Status ok = CheckScatterDims(instruction, *d, indices.shape(), updates);
  if (!ok.ok()) return ok;
  std::vector<Literal> outputs;
  for (int64_t j = 0; j < *n; ++j) outputs.push_back(*values[j]);
  Combiner combiner(instruction, **to_apply, context, outputs,
                    values.subspan(*n + 1));
  ok = combiner.Init();
  if (!ok.ok()) return ok;
  const WindowElements window = ListWindow(*d, operand, updates);
  DimVector low(window.rank, 0), high(window.rank, 0);
  const DimVector op_strides = Strides(operand.dimensions());
  const DimVector up_strides = Strides(updates.dimensions());
  DimVector scatter_strides;
  for (int64_t dim : NonWindowDims(*d, updates.rank())) {
    scatter_strides.push_back(up_strides[dim]);
  }
  ForEachIndexVector(
      *d, indices, operand.rank(),
      [&](absl::Span<const int64_t> start, absl::Span<const int64_t> position) {
        if (!ok.ok()) return;
        if (!ValidWindowRange(*d, operand, updates, start, low, high)) {
          return;  // No element of this window lands in the operand.
        }
        // Every start is now within (-window size, dim): no overflow.
        int64_t op_base = 0, up_base = 0;
        for (size_t i = 0; i < start.size(); ++i) {
          op_base += start[i] * op_strides[i];
        }
        for (size_t k = 0; k < position.size(); ++k) {
          up_base += position[k] * scatter_strides[k];
        }
        for (size_t e = 0; e < window.offsets.size(); ++e) {
          if (!InRange(window.coordinates.data() + e * window.rank, low,
                       high)) {
            continue;  // This element falls outside the operand: skipped.
          }
          ok = combiner.Apply(op_base + window.offsets[e].first,
                              up_base + window.offsets[e].second);
          if (!ok.ok()) return;
        }
      });
  if (!ok.ok()) return ok;
  if (*n == 1) return std::move(outputs[0]);
  return Literal::Tuple(std::move(outputs));
}

}  // namespace

void RegisterScatterKernel(KernelTable* table) {
  table->Set(Opcode::kScatter,
             &WithDynamicSizes<ScatterKernel, RunScatterDynamic>);
}

}  // namespace eval
}  // namespace kiln
