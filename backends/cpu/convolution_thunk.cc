#include "backends/cpu/convolution_thunk.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "backends/cpu/array_ops.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln::cpu {
namespace {

int64_t Product(const std::vector<int64_t>& values) {
  int64_t product = 1;
  for (int64_t v : values) product *= v;
  return product;
}

// Advances a row-major multi-index over `bounds`; false after the last.
bool Next(std::vector<int64_t>& index, const std::vector<int64_t>& bounds) {
  for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
    if (++index[d] < bounds[d]) return true;
    index[d] = 0;
  }
  return false;
}

bool Supported(ElementType type) {
  return type == ElementType::kF32 || type == ElementType::kF64 ||
         type == ElementType::kBF16 || type == ElementType::kF16;
}

}  // namespace

std::optional<ConvolutionThunk::Plan> ConvolutionThunk::MakePlan(
    const Instruction& convolution, int64_t max_scratch_bytes,
    std::string* why) {
  const auto* dnums =
      convolution.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  const Window* window = convolution.attrs().Get<Window>(attr::kWindow);
  const int64_t* feature_groups =
      convolution.attrs().Get<int64_t>(attr::kFeatureGroupCount);
  const int64_t* batch_groups =
      convolution.attrs().Get<int64_t>(attr::kBatchGroupCount);
  if (convolution.operand_count() != 2 || dnums == nullptr) {
    *why = "convolution without dim_labels";
    return std::nullopt;
  }
  const Shape& in = convolution.operand(0)->shape();
  const Shape& kernel = convolution.operand(1)->shape();
  const Shape& out = convolution.shape();
  const ElementType type = out.element_type();
  if (!Supported(type) || in.element_type() != type ||
      kernel.element_type() != type || !in.is_static() || !kernel.is_static() ||
      !out.is_static()) {
    *why = "the library convolution takes static f32, f64, bf16 or f16";
    return std::nullopt;
  }
  if (batch_groups != nullptr && *batch_groups != 1) {
    *why = "batch_group_count > 1";
    return std::nullopt;
  }
  const size_t spatial = dnums->input_spatial_dimensions.size();
  if ((window == nullptr && spatial != 0) ||
      (window != nullptr && window->dimensions.size() != spatial)) {
    *why = "window and spatial dimensions differ";
    return std::nullopt;
  }
  Plan plan;
  plan.input_permutation.push_back(dnums->input_batch_dimension);
  for (int64_t d : dnums->input_spatial_dimensions) {
    plan.input_permutation.push_back(d);
  }
  plan.input_permutation.push_back(dnums->input_feature_dimension);
  plan.kernel_permutation = dnums->kernel_spatial_dimensions;
  plan.kernel_permutation.push_back(dnums->kernel_input_feature_dimension);
  plan.kernel_permutation.push_back(dnums->kernel_output_feature_dimension);
  plan.output_permutation.assign(out.rank(), 0);
  plan.output_permutation[dnums->output_batch_dimension] = 0;
  for (size_t i = 0; i < spatial; ++i) {
    plan.output_permutation[dnums->output_spatial_dimensions[i]] = 1 + i;
  }
  plan.output_permutation[dnums->output_feature_dimension] = spatial + 1;
  plan.batch = in.dimension(dnums->input_batch_dimension);
  plan.in_features = in.dimension(dnums->input_feature_dimension);
  plan.out_features = kernel.dimension(dnums->kernel_output_feature_dimension);
  plan.groups = feature_groups != nullptr ? *feature_groups : 1;
  for (size_t i = 0; i < spatial; ++i) {
    const WindowDimension& w = window->dimensions[i];
    plan.in_spatial.push_back(in.dimension(dnums->input_spatial_dimensions[i]));
    plan.out_spatial.push_back(
        out.dimension(dnums->output_spatial_dimensions[i]));
    plan.window.push_back(
        kernel.dimension(dnums->kernel_spatial_dimensions[i]));
    plan.stride.push_back(w.stride);
    plan.pad_low.push_back(w.padding_low);
    plan.window_dilation.push_back(w.window_dilation);
    plan.base_dilation.push_back(w.base_dilation);
    plan.reversal.push_back(w.window_reversal);
    plan.fills_zeros |=
        w.padding_low > 0 || w.padding_high > 0 || w.base_dilation > 1;
  }
  if (plan.groups < 1 || plan.in_features % plan.groups != 0 ||
      plan.out_features % plan.groups != 0) {
    *why = "feature groups do not divide the features";
    return std::nullopt;
  }
  const double element = type == ElementType::kF64 ? 8 : 4;
  const double scratch = element * plan.batch * Product(plan.out_spatial) *
                         Product(plan.window) *
                         (plan.in_features / plan.groups);
  if (scratch > static_cast<double>(max_scratch_bytes)) {
    *why = absl::StrCat("the im2col matrix would take ", scratch, " bytes");
    return std::nullopt;
  }
  return plan;
}

template <typename T>
void ConvolutionThunk::Compute(const T* input, const T* kernel,
                               T* output) const {
  const Plan& p = plan_;
  const int64_t channels = p.in_features / p.groups;  // Per group.
  const int64_t features = p.out_features / p.groups;
  const int64_t positions = Product(p.out_spatial);
  const int64_t taps = Product(p.window);
  const int64_t rows = p.batch * positions;
  const int64_t columns = taps * channels;
  const size_t spatial = p.window.size();
  // The patch matrix is scratch of this thread, kept between runs: every
  // element is written below, and a fresh multi-megabyte vector would be
  // zero-filled and fault its pages in on every run.
  thread_local std::vector<T> patches;
  if (patches.size() < static_cast<size_t>(rows * columns)) {
    patches.resize(rows * columns);
  }
  std::vector<T> group_kernel(p.groups > 1 ? columns * features : 0);
  std::vector<T> group_output(p.groups > 1 ? rows * features : 0);
  std::vector<int64_t> in_strides(spatial + 1, channels * p.groups);
  for (int64_t d = static_cast<int64_t>(spatial) - 1; d >= 0; --d) {
    in_strides[d] = in_strides[d + 1] * p.in_spatial[d];
  }
  for (int64_t g = 0; g < p.groups; ++g) {
    // im2col: row (n, o...) holds the window of taps (k...) x channels.
    T* row = patches.data();
    std::vector<int64_t> o(spatial), k(spatial);
    for (int64_t n = 0; n < p.batch; ++n) {
      std::fill(o.begin(), o.end(), 0);
      do {
        std::fill(k.begin(), k.end(), 0);
        T* tap = row;
        do {
          int64_t offset = n * in_strides[0] + g * channels;
          bool inside = true;
          for (size_t i = 0; i < spatial && inside; ++i) {
            const int64_t kk = p.reversal[i] ? p.window[i] - 1 - k[i] : k[i];
            const int64_t x =
                o[i] * p.stride[i] - p.pad_low[i] + kk * p.window_dilation[i];
            inside = x >= 0 && x % p.base_dilation[i] == 0 &&
                     x / p.base_dilation[i] < p.in_spatial[i];
            if (inside) offset += x / p.base_dilation[i] * in_strides[i + 1];
          }
          if (inside) {
            std::copy(input + offset, input + offset + channels, tap);
          } else {
            std::fill(tap, tap + channels, T(0));
          }
          tap += channels;
        } while (Next(k, p.window));
        row += columns;
      } while (Next(o, p.out_spatial));
    }
    if (p.groups == 1) {
      MatMul(host(), patches.data(), kernel, output, rows, columns, features,
             threads());
      continue;
    }
    for (int64_t r = 0; r < columns; ++r) {
      std::copy(kernel + r * p.out_features + g * features,
                kernel + r * p.out_features + (g + 1) * features,
                group_kernel.data() + r * features);
    }
    MatMul(host(), patches.data(), group_kernel.data(), group_output.data(),
           rows, columns, features, threads());
    for (int64_t r = 0; r < rows; ++r) {
      std::copy(group_output.data() + r * features,
                group_output.data() + (r + 1) * features,
                output + r * p.out_features + g * features);
    }
  }
}

namespace {

bool AllFinite(ElementType type, const uint8_t* data, int64_t count) {
  if (type == ElementType::kF64) {
    const double* values = reinterpret_cast<const double*>(data);
    return std::all_of(values, values + count,
                       [](double v) { return std::isfinite(v); });
  }
  std::vector<float> wide;
  const float* values = reinterpret_cast<const float*>(data);
  if (type != ElementType::kF32) {
    wide = Widen(type, data, count);
    values = wide.data();
  }
  return std::all_of(values, values + count,
                     [](float v) { return std::isfinite(v); });
}

}  // namespace

absl::Status ConvolutionThunk::Run(RunState& state) const {
  const ElementType type = convolution_.shape().element_type();
  const int64_t element = ByteWidth(type);
  const Shape& in = convolution_.operand(0)->shape();
  const Shape& kernel = convolution_.operand(1)->shape();
  if (plan_.fills_zeros && !AllFinite(type, state.addresses[kernel_],
                                      kernel.ElementCount().value_or(0))) {
    ValueTree input, weights, output;
    input.slot = input_;
    weights.slot = kernel_;
    output.slot = output_;
    return FallbackThunk(convolution_, {input, weights}, output).Run(state);
  }
  auto canonical = [&](const uint8_t* data, const Shape& shape,
                       const std::vector<int64_t>& permutation) {
    std::vector<uint8_t> copy(shape.ByteSize().value_or(0));
    TransposeCopy(data, shape.dimensions(), permutation, element, copy.data());
    return copy;
  };
  std::vector<uint8_t> input =
      canonical(state.addresses[input_], in, plan_.input_permutation);
  std::vector<uint8_t> weights =
      canonical(state.addresses[kernel_], kernel, plan_.kernel_permutation);
  const int64_t count = convolution_.shape().ElementCount().value_or(0);
  std::vector<uint8_t> result(count * element);
  if (type == ElementType::kF64) {
    Compute(reinterpret_cast<const double*>(input.data()),
            reinterpret_cast<const double*>(weights.data()),
            reinterpret_cast<double*>(result.data()));
  } else if (type == ElementType::kF32) {
    Compute(reinterpret_cast<const float*>(input.data()),
            reinterpret_cast<const float*>(weights.data()),
            reinterpret_cast<float*>(result.data()));
  } else {
    std::vector<float> wide_input =
        Widen(type, input.data(), input.size() / element);
    std::vector<float> wide_weights =
        Widen(type, weights.data(), weights.size() / element);
    std::vector<float> wide_result(count);
    Compute(wide_input.data(), wide_weights.data(), wide_result.data());
    Narrow(type, wide_result, result.data());
  }
  // [N, O..., F] into the output's own dimension order.
  std::vector<int64_t> canonical_dims(plan_.output_permutation.size());
  canonical_dims[0] = plan_.batch;
  for (size_t i = 0; i < plan_.out_spatial.size(); ++i) {
    canonical_dims[i + 1] = plan_.out_spatial[i];
  }
  canonical_dims.back() = plan_.out_features;
  TransposeCopy(result.data(), canonical_dims, plan_.output_permutation,
                element, state.addresses[output_]);
  return absl::OkStatus();
}

std::string ConvolutionThunk::ToString() const {
  return absl::StrCat("library im2col-gemm (", convolution_.name(),
                      ") groups=", plan_.groups, " in=[", input_, ",", kernel_,
                      "] out=[", output_, "]");
}

}  // namespace kiln::cpu
