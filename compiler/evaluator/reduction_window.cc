// reduce-window and select-and-scatter: a window slid over the operand,
// with strides, edge padding, base (lhs) dilation and window (rhs)
// dilation from the `window` attribute.
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/reduction_fast_path.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/evaluator/reduction_util.h"
#include "compiler/evaluator/reduction_window_monoid.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Where a window element falls on the operand: on an element, on edge
// padding, or on a hole that base dilation inserted between elements.
enum class Cell { kElement, kPadding, kHole };

// A window over an operand of `input_dims`, with the result's dimensions.
class WindowPlacement {
 public:
  // The window of `instruction` (all-ones when absent) over `input_dims`;
  // an error when its fields are out of range.
  static absl::StatusOr<WindowPlacement> Create(
      const Instruction& instruction, absl::Span<const int64_t> input_dims) {
    WindowPlacement placement;
    const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
    placement.dims_.assign(input_dims.begin(), input_dims.end());
    placement.window_.dimensions.resize(input_dims.size());
    if (window != nullptr) placement.window_ = *window;
    if (placement.window_.dimensions.size() != input_dims.size()) {
      return KernelError(instruction, "the window's rank is not the operand's");
    }
    placement.strides_ = RowMajorStrides(input_dims);
    for (size_t d = 0; d < input_dims.size(); ++d) {
      const WindowDimension& w = placement.window_.dimensions[d];
      if (w.size < 1 || w.stride < 1 || w.base_dilation < 1 ||
          w.window_dilation < 1) {
        return KernelError(instruction,
                           absl::StrCat("window dimension ", d,
                                        " has a size, stride or dilation < 1"));
      }
      // The shape rule has checked that these do not overflow.
      const int64_t base =
          input_dims[d] == 0 ? 0 : (input_dims[d] - 1) * w.base_dilation + 1;
      const int64_t padded = base + w.padding_low + w.padding_high;
      const int64_t span = (w.size - 1) * w.window_dilation + 1;
      placement.window_sizes_.push_back(w.size);
      placement.out_dims_.push_back(
          padded < span ? 0 : (padded - span) / w.stride + 1);
    }
    return placement;
  }

  const Window& window() const { return window_; }
  const std::vector<int64_t>& out_dims() const { return out_dims_; }
  const std::vector<int64_t>& window_sizes() const { return window_sizes_; }

  // Window element `offset` of the window at result index `out`. For an
  // element, `*linear` is its row-major index in the operand. Edge padding
  // wins over a hole in another dimension: padding rows and columns lie
  // wholly outside the dilated operand.
  Cell Locate(absl::Span<const int64_t> out, absl::Span<const int64_t> offset,
              int64_t* linear) const {
    bool hole = false;
    int64_t index = 0;
    for (size_t d = 0; d < dims_.size(); ++d) {
      const WindowDimension& w = window_.dimensions[d];
      const int64_t dilated =
          out[d] * w.stride + offset[d] * w.window_dilation - w.padding_low;
      const int64_t base =
          dims_[d] == 0 ? 0 : (dims_[d] - 1) * w.base_dilation + 1;
      if (dilated < 0 || dilated >= base) return Cell::kPadding;
      if (dilated % w.base_dilation != 0) {
        hole = true;
        continue;
      }
      index += dilated / w.base_dilation * strides_[d];
    }
    *linear = index;
    return hole ? Cell::kHole : Cell::kElement;
  }

 private:
  std::vector<int64_t> dims_;
  std::vector<int64_t> strides_;
  Window window_;
  std::vector<int64_t> window_sizes_;
  std::vector<int64_t> out_dims_;
};

// Visits every window cell that is not a hole, result element by result
// element (row-major) and within each window in row-major window order:
// fold(out_linear, is_padding, operand_linear).
template <typename Fold>
absl::Status ForEachWindowCell(const WindowPlacement& placement, Fold&& fold) {
  int64_t out_linear = 0;
  return ForEachIndexUntilError(
      placement.out_dims(), [&](absl::Span<const int64_t> out) {
        // `out` stays valid and unchanged while the window is visited.
        absl::Status status = ForEachIndexUntilError(
            placement.window_sizes(), [&](absl::Span<const int64_t> offset) {
              int64_t linear = 0;
              const Cell cell = placement.Locate(out, offset, &linear);
              if (cell == Cell::kHole) return absl::OkStatus();
              return fold(out_linear, cell == Cell::kPadding, linear);
            });
        ++out_linear;
        return status;
      });
}

// The fast path: a recognised combiner folds with a typed functor, in the
// same order as the general path.
void FastReduceWindow(CombinerOp op, const WindowPlacement& placement,
                      const Literal& input, const Literal& init,
                      Literal& output) {
  WithTypedCombiner(op, input.element_type(), [&](auto tag, auto fn) {
    using T = typename decltype(tag)::type;
    const T* in = reinterpret_cast<const T*>(input.data().data());
    const T init_value = *reinterpret_cast<const T*>(init.data().data());
    T* out = reinterpret_cast<T*>(output.mutable_data().data());
    absl::Status never_fails = ForEachWindowCell(
        placement, [&](int64_t o, bool is_padding, int64_t i) {
          out[o] = fn(out[o], is_padding ? init_value : in[i]);
          return absl::OkStatus();
        });
    (void)never_fails;
  });
}

}  // namespace

// Each result element starts as the init values; the window's elements
// are folded in row-major window order as acc = f(acc, x). Edge padding
// takes part as the init values (the spec's "padding cells are filled with
// the init_value"); holes of base dilation are skipped.
absl::StatusOr<Literal> ReduceWindowKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> combiner =
      CalledComputation(instruction, attr::kToApply);
  if (!combiner.ok()) return combiner.status();
  const int count = static_cast<int>(operands.size() / 2);
  const std::vector<int64_t>& dims = operands[0]->shape().dimensions();
  std::vector<ElementType> types;
  for (int k = 0; k < count; ++k) {
    const Literal& input = *operands[k];
    const Literal& init = *operands[count + k];
    if (!input.shape().IsArray() || input.shape().dimensions() != dims ||
        !init.shape().IsScalar() ||
        init.element_type() != input.element_type()) {
      return KernelError(instruction, absl::StrCat("input ", k,
                                                   " or its init value does "
                                                   "not fit input 0"));
    }
    types.push_back(input.element_type());
  }
  types.insert(types.end(), types.begin(), types.end());
  absl::StatusOr<WindowPlacement> placement =
      WindowPlacement::Create(instruction, dims);
  if (!placement.ok()) return placement.status();
  std::vector<Literal> outputs;
  for (int k = 0; k < count; ++k) {
    absl::StatusOr<Literal> output = context.NewLiteral(
        instruction,
        Shape::Array(operands[k]->element_type(), placement->out_dims()));
    if (!output.ok()) return output.status();
    FillWithScalar(*operands[count + k], *output);
    outputs.push_back(*std::move(output));
  }
  if (count == 1) {
    // A known monoid: cost independent of the windows' overlap.
    const std::optional<MonoidOp> monoid =
        RecognizeMonoid(**combiner, operands[0]->element_type());
    if (monoid.has_value() &&
        MonoidReduceWindow(*monoid, placement->window(), placement->out_dims(),
                           *operands[0], *operands[1], outputs[0])) {
      return std::move(outputs[0]);
    }
    std::optional<CombinerOp> fast =
        RecognizeCombiner(**combiner, operands[0]->element_type());
    if (fast.has_value()) {
      FastReduceWindow(*fast, *placement, *operands[0], *operands[1],
                       outputs[0]);
      return std::move(outputs[0]);
    }
  }
  ScalarCaller caller(context, **combiner, types);
  absl::Status status = ForEachWindowCell(
      *placement, [&](int64_t out, bool is_padding, int64_t linear) {
        for (int k = 0; k < count; ++k) {
          caller.Load(k, outputs[k], out);
          if (is_padding) {
            caller.Load(count + k, *operands[count + k], 0);
          } else {
            caller.Load(count + k, *operands[k], linear);
          }
        }
        absl::StatusOr<Literal> result = caller.Call();
        if (!result.ok()) return result.status();
        return StoreCombinerResult(instruction, *result, outputs, out);
      });
  if (!status.ok()) return status;
  if (count == 1) return std::move(outputs[0]);
  return Literal::Tuple(std::move(outputs));
}

// For each source element (row-major), `select` picks one operand element
// of its window: the first valid element, then each later one (row-major
// window order) replaces the pick when select(pick, candidate) is false.
// Padding and holes are never picked; a window with no element scatters
// nothing. Then output[pick] = scatter(output[pick], source value).
absl::StatusOr<Literal> SelectAndScatterKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> select =
      CalledComputation(instruction, attr::kSelect);
  if (!select.ok()) return select.status();
  absl::StatusOr<const Computation*> scatter =
      CalledComputation(instruction, attr::kScatter);
  if (!scatter.ok()) return scatter.status();
  const Literal& operand = *operands[0];
  const Literal& source = *operands[1];
  const Literal& init = *operands[2];
  const ElementType type = operand.element_type();
  absl::StatusOr<WindowPlacement> placement =
      WindowPlacement::Create(instruction, operand.shape().dimensions());
  if (!placement.ok()) return placement.status();
  if (source.shape().dimensions() != placement->out_dims() ||
      source.element_type() != type || !init.shape().IsScalar() ||
      init.element_type() != type) {
    return KernelError(instruction,
                       "source or init value does not fit the operand");
  }
  absl::StatusOr<Literal> output = context.NewLiteral(
      instruction, Shape::Array(type, operand.shape().dimensions()));
  if (!output.ok()) return output.status();
  FillWithScalar(init, *output);
  const ElementType pair[] = {type, type};
  ScalarCaller selector(context, **select, pair);
  ScalarCaller scatterer(context, **scatter, pair);
  const int64_t bytes = ElementBytes(operand);
  int64_t source_linear = 0;
  absl::Status status = ForEachIndexUntilError(
      placement->out_dims(), [&](absl::Span<const int64_t> out) {
        std::optional<int64_t> pick;
        absl::Status selected = ForEachIndexUntilError(
            placement->window_sizes(), [&](absl::Span<const int64_t> offset) {
              int64_t linear = 0;
              if (placement->Locate(out, offset, &linear) != Cell::kElement) {
                return absl::OkStatus();
              }
              if (!pick.has_value()) {
                pick = linear;
                return absl::OkStatus();
              }
              selector.Load(0, operand, *pick);
              selector.Load(1, operand, linear);
              absl::StatusOr<Literal> keep = selector.Call();
              if (!keep.ok()) return keep.status();
              absl::StatusOr<bool> first = PredResult(instruction, *keep);
              if (!first.ok()) return first.status();
              if (!*first) pick = linear;
              return absl::OkStatus();
            });
        const int64_t this_source = source_linear++;
        if (!selected.ok() || !pick.has_value()) return selected;
        scatterer.Load(0, *output, *pick);
        scatterer.Load(1, source, this_source);
        absl::StatusOr<Literal> value = scatterer.Call();
        if (!value.ok()) return value.status();
        absl::Status ok = CheckScalarResult(instruction, *value, type);
        if (!ok.ok()) return ok;
        CopyElement(*value, 0, *output, *pick, bytes);
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  return output;
}

}  // namespace eval
}  // namespace kiln
