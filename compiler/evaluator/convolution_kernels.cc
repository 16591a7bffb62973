// Kernel of convolution (operation_semantics.md, Conv and
// ConvGeneralDilated). The operands are copied into canonical arrays of
// the result's arithmetic type, input as [batch, feature, spatial...] and
// kernel as [output feature, input feature, spatial...]; the result is
// formed as [batch, feature, spatial...] and transposed to the output's
// dim_labels at the end. For each (output feature, input feature, window
// position) one weight is multiplied into whole output rows, the inner
// loop running contiguously over the last output spatial dimension.
//
// Output position o, window position k of one spatial dimension read the
// base-dilated, padded input at p = o * stride + k * rhs_dilate -
// padding_low; p must be a multiple of lhs_dilate (otherwise it is a hole)
// and p / lhs_dilate an input index (otherwise it is padding): both read 0.
// window_reversal applies kernel element size-1-k at window position k.
#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/dynamic_kernels.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/linalg_common.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {
namespace {

// Canonical sizes. Spatial rank 0 is treated as one spatial dim of size 1.
struct ConvGeometry {
  int64_t batch = 1, features = 1;          // input N, C
  int64_t out_batch = 1, out_features = 1;  // output N', O
  int64_t group_features = 1;               // kernel input features (C / G)
  int64_t feature_groups = 1, batch_groups = 1;
  std::vector<int64_t> in_sizes, kernel_sizes, out_sizes;
  std::vector<int64_t> in_strides;  // Row-major strides of in_sizes.
  std::vector<WindowDimension> window;
};

ConvGeometry PlanConvolution(const Instruction& instruction,
                             const ConvolutionDimensionNumbers& dn,
                             const Shape& lhs, const Shape& rhs,
                             const Shape& out) {
  ConvGeometry g;
  g.batch = lhs.dimension(dn.input_batch_dimension);
  g.features = lhs.dimension(dn.input_feature_dimension);
  g.out_batch = out.dimension(dn.output_batch_dimension);
  g.out_features = out.dimension(dn.output_feature_dimension);
  g.group_features = rhs.dimension(dn.kernel_input_feature_dimension);
  const int64_t* fgc =
      instruction.attrs().Get<int64_t>(attr::kFeatureGroupCount);
  const int64_t* bgc = instruction.attrs().Get<int64_t>(attr::kBatchGroupCount);
  g.feature_groups = fgc == nullptr ? 1 : *fgc;
  g.batch_groups = bgc == nullptr ? 1 : *bgc;
  const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
  for (size_t i = 0; i < dn.input_spatial_dimensions.size(); ++i) {
    g.in_sizes.push_back(lhs.dimension(dn.input_spatial_dimensions[i]));
    g.kernel_sizes.push_back(rhs.dimension(dn.kernel_spatial_dimensions[i]));
    g.out_sizes.push_back(out.dimension(dn.output_spatial_dimensions[i]));
    g.window.push_back(window == nullptr ? WindowDimension{}
                                         : window->dimensions[i]);
  }
  if (g.in_sizes.empty()) {
    g.in_sizes = g.kernel_sizes = g.out_sizes = {1};
    g.window = {WindowDimension{}};
  }
  g.in_strides = RowMajorStrides(g.in_sizes);
  return g;
}

// Adds w * input into the output plane for one window position `k` (one
// index per spatial dim), walking the output rows.
template <typename A>
void AccumulateTap(const ConvGeometry& g, absl::Span<const int64_t> k, A w,
                   const A* in_plane, A* out_plane) {
  const size_t rank = g.out_sizes.size();
  const size_t last = rank - 1;
  const WindowDimension& wl = g.window[last];
  const int64_t in_width = g.in_sizes[last];
  const int64_t out_width = g.out_sizes[last];
  const int64_t base = k[last] * wl.window_dilation - wl.padding_low;
  // Output columns whose input column exists (no holes: lhs_dilate 1).
  int64_t x_begin = 0, x_end = out_width;
  if (wl.base_dilation == 1) {
    while (x_begin < out_width && x_begin * wl.stride + base < 0) ++x_begin;
    while (x_end > x_begin && (x_end - 1) * wl.stride + base >= in_width) {
      --x_end;
    }
  }
  const std::vector<int64_t>& in_strides = g.in_strides;
  std::vector<int64_t> row(rank, 0);  // Output index; row[last] unused.
  const int64_t rows =
      util::Product(g.out_sizes) / std::max<int64_t>(1, out_width);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t in_offset = 0;
    bool inside = true;
    for (size_t d = 0; d < last && inside; ++d) {
      const WindowDimension& wd = g.window[d];
      const int64_t p =
          row[d] * wd.stride + k[d] * wd.window_dilation - wd.padding_low;
      inside = p >= 0 && p % wd.base_dilation == 0 &&
               p / wd.base_dilation < g.in_sizes[d];
      if (inside) in_offset += (p / wd.base_dilation) * in_strides[d];
    }
    if (inside) {
      const A* in_row = in_plane + in_offset;
      A* out_row = out_plane + r * out_width;
      if (wl.base_dilation == 1) {
        for (int64_t x = x_begin; x < x_end; ++x) {
          out_row[x] += w * in_row[x * wl.stride + base];
        }
      } else {
        for (int64_t x = 0; x < out_width; ++x) {
          const int64_t p = x * wl.stride + base;
          if (p < 0 || p % wl.base_dilation != 0) continue;
          if (p / wl.base_dilation >= in_width) continue;
          out_row[x] += w * in_row[p / wl.base_dilation];
        }
      }
    }
    for (int64_t d = static_cast<int64_t>(last) - 1; d >= 0; --d) {
      if (++row[d] < g.out_sizes[d]) break;
      row[d] = 0;
    }
  }
}

// out[n', o, ...] over canonical arrays.
template <typename A>
void Convolve(const ConvGeometry& g, const std::vector<A>& input,
              const std::vector<A>& kernel, std::vector<A>& out) {
  const int64_t in_plane = util::Product(g.in_sizes);
  const int64_t kernel_plane = util::Product(g.kernel_sizes);
  const int64_t out_plane = util::Product(g.out_sizes);
  const int64_t per_feature_group = g.out_features / g.feature_groups;
  const int64_t per_batch_group = g.out_features / g.batch_groups;
  const std::vector<int64_t> kernel_strides = RowMajorStrides(g.kernel_sizes);
  for (int64_t n = 0; n < g.out_batch; ++n) {
    for (int64_t o = 0; o < g.out_features; ++o) {
      const int64_t feature_group = o / per_feature_group;
      // batch_group_count: output feature block i reads input batch block i.
      const int64_t in_n = (o / per_batch_group) * g.out_batch + n;
      A* out_p = out.data() + (n * g.out_features + o) * out_plane;
      for (int64_t c = 0; c < g.group_features; ++c) {
        const int64_t in_c = feature_group * g.group_features + c;
        const A* in_p = input.data() + (in_n * g.features + in_c) * in_plane;
        const A* k_p =
            kernel.data() + (o * g.group_features + c) * kernel_plane;
        ForEachIndex(g.kernel_sizes, [&](absl::Span<const int64_t> k) {
          int64_t at = 0;
          for (size_t d = 0; d < k.size(); ++d) {
            const int64_t kd = g.window[d].window_reversal
                                   ? g.kernel_sizes[d] - 1 - k[d]
                                   : k[d];
            at += kd * kernel_strides[d];
          }
          AccumulateTap(g, k, k_p[at], in_p, out_p);
        });
      }
    }
  }
}

template <typename T>
absl::StatusOr<Literal> TypedConvolution(const Instruction& instruction,
                                         const Literal& lhs, const Literal& rhs,
                                         EvalContext& context) {
  using A = Arith<T>;
  const auto& dn =
      *instruction.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  const Shape& out_shape = instruction.shape();
  const ConvGeometry g =
      PlanConvolution(instruction, dn, lhs.shape(), rhs.shape(), out_shape);
  absl::StatusOr<Literal> result = context.NewResult(instruction);
  if (!result.ok()) return result.status();
  absl::Status fits = CheckWork<T>(
      instruction, context,
      {lhs.element_count(), rhs.element_count(), result->element_count()});
  if (!fits.ok()) return fits;
  const std::vector<A> input =
      Transposed(ReadConverted<T>(lhs), lhs.shape().dimensions(),
                 Joined({{dn.input_batch_dimension, dn.input_feature_dimension},
                         dn.input_spatial_dimensions}));
  const std::vector<A> kernel =
      Transposed(ReadConverted<T>(rhs), rhs.shape().dimensions(),
                 Joined({{dn.kernel_output_feature_dimension,
                          dn.kernel_input_feature_dimension},
                         dn.kernel_spatial_dimensions}));
  std::vector<A> canonical(static_cast<size_t>(g.out_batch * g.out_features *
                                               util::Product(g.out_sizes)),
                           A(0));
  Convolve(g, input, kernel, canonical);
  // Output dim d holds canonical dim order[d].
  const int64_t rank = out_shape.rank();
  std::vector<int64_t> order(rank);
  order[dn.output_batch_dimension] = 0;
  order[dn.output_feature_dimension] = 1;
  std::vector<int64_t> canonical_dims = {g.out_batch, g.out_features};
  for (size_t i = 0; i < dn.output_spatial_dimensions.size(); ++i) {
    order[dn.output_spatial_dimensions[i]] = 2 + i;
    canonical_dims.push_back(g.out_sizes[i]);
  }
  const std::vector<A> values = Transposed(canonical, canonical_dims, order);
  StoreArith<T>(absl::Span<const A>(values), *result);
  return result;
}

absl::StatusOr<Literal> ConvolutionKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  return DispatchByComputeType(instruction.shape().element_type(),
                               [&](auto tag) -> absl::StatusOr<Literal> {
                                 using T = typename decltype(tag)::type;
                                 return TypedConvolution<T>(
                                     instruction, *operands[0], *operands[1],
                                     context);
                               });
}

}  // namespace

void RegisterConvolutionKernels(KernelTable* table) {
  table->Set(Opcode::kConvolution,
             &WithDynamicSizes<ConvolutionKernel, RunConvolutionDynamic>);
}

}  // namespace eval
}  // namespace kiln
