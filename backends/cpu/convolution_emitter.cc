#include "backends/cpu/convolution_emitter.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/element_type.h"

namespace kiln::cpu {
namespace {

using emitter_internal::ComputeType;
using emitter_internal::FloatFormat;
using emitter_internal::IsNarrowFloat;
using emitter_internal::IsNativeArray;
using emitter_internal::Load;
using emitter_internal::StorageType;
using emitter_internal::Store;

// Offsets and window arithmetic stay below this magnitude, so that no sum
// of two of them overflows int64 in the kernel.
constexpr int64_t kMaxTerm = int64_t{1} << 61;

// The sizes the kernel is generated for. Spatial dimension i of the
// input, kernel and output is input_spatial_dimensions[i] and so on.
struct Geometry {
  const ConvolutionDimensionNumbers* dn = nullptr;
  int64_t out_batch = 1, out_features = 1, group_features = 1;
  int64_t per_feature_group = 1, per_batch_group = 1;
  std::vector<int64_t> in_sizes, kernel_sizes, out_sizes;
  std::vector<WindowDimension> window;
  // Row-major strides of each operand's dimensions, in dimension order.
  std::vector<int64_t> in_strides, kernel_strides;
  int64_t out_count = 0;
  int64_t taps = 1;  // K: group input features x window positions.
};

std::vector<int64_t> RowMajorStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.rank(), 1);
  for (int64_t d = shape.rank() - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape.dimension(d + 1);
  }
  return strides;
}

// a * b, or kMaxTerm when its magnitude would reach kMaxTerm.
int64_t Bounded(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product >= kMaxTerm ||
      product <= -kMaxTerm) {
    return kMaxTerm;
  }
  return product;
}

absl::Status Refuse(const Instruction& convolution, absl::string_view why) {
  return absl::UnimplementedError(
      absl::StrCat(convolution.name(), ": convolution kernel: ", why));
}

// Whether every value of `from` converts to result type `to` exactly by
// the static_cast the evaluator's ConvertValue applies: a narrower
// integer of the same signedness (or unsigned into a wider signed one), a
// float type into f32 or f64 that holds all of its values.
bool WidensExactly(ElementType from, ElementType to) {
  if (from == to) return true;
  if (IsIntegralType(from) && IsIntegralType(to)) {
    if (IsSignedIntType(from) == IsSignedIntType(to)) {
      return BitWidth(from) <= BitWidth(to);
    }
    return IsUnsignedIntType(from) && BitWidth(from) < BitWidth(to);
  }
  return IsFloatType(from) &&
         (to == ElementType::kF32 || to == ElementType::kF64) &&
         from != ElementType::kF64 && BitWidth(from) < BitWidth(to);
}

absl::Status CheckTypes(const Instruction& convolution) {
  const Shape& out = convolution.shape();
  for (const Instruction* operand : convolution.operands()) {
    const Shape& shape = operand->shape();
    if (!IsNativeArray(shape) || !IsNativeArray(out)) {
      return Refuse(convolution, "a dynamic shape or an unsupported type");
    }
    if (!WidensExactly(shape.element_type(), out.element_type())) {
      return Refuse(
          convolution,
          absl::StrCat("an operand of ", ElementTypeName(shape.element_type()),
                       " that does not widen exactly to ",
                       ElementTypeName(out.element_type())));
    }
  }
  return absl::OkStatus();
}

// The spatial sizes and window of `g`, and K; refused when the window
// arithmetic (output index * stride, window index * dilation, padding)
// could overflow.
absl::Status ReadWindow(const Instruction& convolution, const Window* window,
                        Geometry& g) {
  const ConvolutionDimensionNumbers& dn = *g.dn;
  g.taps = Bounded(g.group_features, 1);
  for (size_t i = 0; i < dn.input_spatial_dimensions.size(); ++i) {
    const WindowDimension& w = window->dimensions[i];
    g.in_sizes.push_back(convolution.operand(0)->shape().dimension(
        dn.input_spatial_dimensions[i]));
    g.kernel_sizes.push_back(convolution.operand(1)->shape().dimension(
        dn.kernel_spatial_dimensions[i]));
    g.out_sizes.push_back(
        convolution.shape().dimension(dn.output_spatial_dimensions[i]));
    g.window.push_back(w);
    g.taps = Bounded(g.taps, g.kernel_sizes.back());
    if (w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 ||
        Bounded(g.out_sizes.back(), w.stride) == kMaxTerm ||
        Bounded(g.kernel_sizes.back(), w.window_dilation) == kMaxTerm ||
        Bounded(w.padding_low, 1) == kMaxTerm) {
      return Refuse(convolution, "window arithmetic could overflow int64");
    }
  }
  return absl::OkStatus();
}

// Reads the sizes, checking what the shape rule checks (so that the kernel
// may trust them) and that every offset fits.
absl::StatusOr<Geometry> ReadGeometry(const Instruction& convolution) {
  Geometry g;
  g.dn = convolution.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  const Window* window = convolution.attrs().Get<Window>(attr::kWindow);
  const int64_t* fgc =
      convolution.attrs().Get<int64_t>(attr::kFeatureGroupCount);
  const int64_t* bgc = convolution.attrs().Get<int64_t>(attr::kBatchGroupCount);
  if (convolution.operand_count() != 2 || g.dn == nullptr) {
    return Refuse(convolution, "no dim_labels");
  }
  const ConvolutionDimensionNumbers& dn = *g.dn;
  const Shape& lhs = convolution.operand(0)->shape();
  const Shape& rhs = convolution.operand(1)->shape();
  const Shape& out = convolution.shape();
  const size_t spatial = dn.input_spatial_dimensions.size();
  if ((window == nullptr ? 0 : window->dimensions.size()) != spatial ||
      dn.kernel_spatial_dimensions.size() != spatial ||
      dn.output_spatial_dimensions.size() != spatial ||
      lhs.rank() != static_cast<int64_t>(spatial) + 2 ||
      rhs.rank() != lhs.rank() || out.rank() != lhs.rank()) {
    return Refuse(convolution, "window and dimension numbers differ");
  }
  const int64_t feature_groups = fgc == nullptr ? 1 : *fgc;
  const int64_t batch_groups = bgc == nullptr ? 1 : *bgc;
  const int64_t batch = lhs.dimension(dn.input_batch_dimension);
  const int64_t features = lhs.dimension(dn.input_feature_dimension);
  g.out_batch = out.dimension(dn.output_batch_dimension);
  g.out_features = out.dimension(dn.output_feature_dimension);
  g.group_features = rhs.dimension(dn.kernel_input_feature_dimension);
  if (feature_groups < 1 || batch_groups < 1 ||
      g.out_features % feature_groups != 0 ||
      g.out_features % batch_groups != 0 ||
      features != g.group_features * feature_groups ||
      batch != g.out_batch * batch_groups ||
      rhs.dimension(dn.kernel_output_feature_dimension) != g.out_features) {
    return Refuse(convolution, "feature or batch groups do not divide");
  }
  g.per_feature_group = std::max<int64_t>(1, g.out_features / feature_groups);
  g.per_batch_group = std::max<int64_t>(1, g.out_features / batch_groups);
  absl::StatusOr<int64_t> out_count = out.ElementCount();
  if (!lhs.ElementCount().ok() || !rhs.ElementCount().ok() || !out_count.ok()) {
    return Refuse(convolution, "element counts overflow int64");
  }
  g.out_count = *out_count;
  if (absl::Status ok = ReadWindow(convolution, window, g); !ok.ok()) {
    return ok;
  }
  g.in_strides = RowMajorStrides(lhs);
  g.kernel_strides = RowMajorStrides(rhs);
  return g;
}

// The evaluator's arithmetic type (linalg_common.h's Arith) for result
// type `type`.
std::string ArithType(ElementType type) {
  if (IsComplexType(type)) return "std::complex<double>";
  if (IsFloatType(type)) return "double";
  return BitWidth(type) > 32 ? "uint64_t" : "uint32_t";
}

// Element `element` of an operand of type `from` as the arithmetic type
// of result type `to`: through the result's compute type, as
// ReadConverted.
std::string Operand(ElementType from, ElementType to,
                    const std::string& element) {
  std::string value = Load(from, element);
  if (from != to) {
    value = absl::StrCat("static_cast<", ComputeType(to), ">(", value, ")");
  }
  if (ArithType(to) == ComputeType(to)) return value;
  return absl::StrCat("static_cast<", ArithType(to), ">(", value, ")");
}

// The sum `acc` as stored in result type `type`, rounded once (as
// StoreArith).
std::string Stored(ElementType type, const std::string& acc) {
  if (type == ElementType::kPred) return absl::StrCat(acc, " != 0");
  if (type == ElementType::kC64) {
    return absl::StrCat("std::complex<float>(static_cast<float>(", acc,
                        ".real()), static_cast<float>(", acc, ".imag()))");
  }
  if (type == ElementType::kF32) {
    return absl::StrCat("static_cast<float>(", acc, ")");
  }
  if (IsNarrowFloat(type)) {
    return Store(type, absl::StrCat("kiln_cpu::RoundFromF64(",
                                    FloatFormat(type), ", ", acc, ")"));
  }
  if (ArithType(type) == ComputeType(type)) return acc;  // f64, c128.
  return Store(type,
               absl::StrCat("static_cast<", ComputeType(type), ">(", acc, ")"));
}

// Appends lines at a running indentation.
class Writer {
 public:
  explicit Writer(int depth) : depth_(depth) {}
  void Line(absl::string_view text) {
    absl::StrAppend(&text_, std::string(2 * depth_, ' '), text, "\n");
  }
  void Open(absl::string_view text) {
    Line(text);
    ++depth_;
  }
  void CloseAll(int depth) {
    while (depth_ > depth) {
      --depth_;
      Line("}");
    }
  }
  int depth() const { return depth_; }
  const std::string& text() const { return text_; }

 private:
  int depth_;
  std::string text_;
};

// Splits the loop variable `l` into the output's index: n (batch), o
// (feature) and x0.. (spatial), row-major over the output's dimensions.
void EmitOutputIndex(const Geometry& g, const Shape& out, Writer& w) {
  const ConvolutionDimensionNumbers& dn = *g.dn;
  std::vector<std::string> names(out.rank());
  names[dn.output_batch_dimension] = "n";
  names[dn.output_feature_dimension] = "o";
  for (size_t i = 0; i < dn.output_spatial_dimensions.size(); ++i) {
    names[dn.output_spatial_dimensions[i]] = absl::StrCat("x", i);
  }
  w.Line("int64_t rest = l;");
  for (int64_t d = out.rank() - 1; d >= 0; --d) {
    if (d == 0) {
      w.Line(absl::StrCat("const int64_t ", names[d], " = rest;"));
      break;
    }
    w.Line(absl::StrCat("const int64_t ", names[d], " = rest % ",
                        out.dimension(d), ";"));
    w.Line(absl::StrCat("rest /= ", out.dimension(d), ";"));
  }
}

// Opens the loop over window positions of spatial dimension i, skipping
// positions whose input is padding or a base-dilation hole (every position
// under it reads the same padding), and adds the dimension's term to the
// input and kernel offsets.
void OpenWindowLoop(const Geometry& g, size_t i, Writer& w, std::string* in_at,
                    std::string* k_at) {
  const ConvolutionDimensionNumbers& dn = *g.dn;
  const WindowDimension& wd = g.window[i];
  const std::string k = absl::StrCat("k", i), q = absl::StrCat("q", i);
  w.Open(absl::StrCat("for (int64_t ", k, " = 0; ", k, " < ", g.kernel_sizes[i],
                      "; ++", k, ") {"));
  // Position in the base-dilated, padded input.
  w.Line(absl::StrCat("const int64_t ", q, " = x", i, " * ", wd.stride, " + ",
                      k, " * ", wd.window_dilation, " - (", wd.padding_low,
                      ");"));
  const std::string at =
      wd.base_dilation == 1 ? q : absl::StrCat(q, " / ", wd.base_dilation);
  std::string outside = absl::StrCat(q, " < 0");
  if (wd.base_dilation != 1) {
    absl::StrAppend(&outside, " || ", q, " % ", wd.base_dilation, " != 0");
  }
  absl::StrAppend(&outside, " || ", at, " >= ", g.in_sizes[i]);
  w.Line(absl::StrCat("if (", outside, ") continue;"));
  absl::StrAppend(in_at, " + ", at, " * ",
                  g.in_strides[dn.input_spatial_dimensions[i]]);
  // window_reversal: window position k applies kernel element size-1-k.
  const std::string tap =
      wd.window_reversal
          ? absl::StrCat("(", g.kernel_sizes[i] - 1, " - ", k, ")")
          : k;
  absl::StrAppend(k_at, " + ", tap, " * ",
                  g.kernel_strides[dn.kernel_spatial_dimensions[i]]);
}

// The K loop of one output element: input feature c of the group outer,
// window positions row-major inner (the evaluator's order, so float sums
// round identically).
void EmitTaps(const Geometry& g, const Instruction& convolution, Writer& w) {
  const ConvolutionDimensionNumbers& dn = *g.dn;
  const ElementType type = convolution.shape().element_type();
  const ElementType lhs_type = convolution.operand(0)->shape().element_type();
  const ElementType rhs_type = convolution.operand(1)->shape().element_type();
  const int base = w.depth();
  // Batch group: output feature block i reads input batch block i.
  w.Line(absl::StrCat(
      "const int64_t in_base = ((o / ", g.per_batch_group, ") * ", g.out_batch,
      " + n) * ", g.in_strides[dn.input_batch_dimension], " + (o / ",
      g.per_feature_group, ") * ",
      g.group_features * g.in_strides[dn.input_feature_dimension], ";"));
  w.Line(absl::StrCat("const int64_t k_base = o * ",
                      g.kernel_strides[dn.kernel_output_feature_dimension],
                      ";"));
  w.Open(
      absl::StrCat("for (int64_t c = 0; c < ", g.group_features, "; ++c) {"));
  std::string in_at =
      absl::StrCat("in_base + c * ", g.in_strides[dn.input_feature_dimension]);
  std::string k_at = absl::StrCat(
      "k_base + c * ", g.kernel_strides[dn.kernel_input_feature_dimension]);
  for (size_t i = 0; i < g.window.size(); ++i) {
    OpenWindowLoop(g, i, w, &in_at, &k_at);
  }
  w.Line(absl::StrCat(
      "acc += ", Operand(rhs_type, type, absl::StrCat("p1[", k_at, "]")), " * ",
      Operand(lhs_type, type, absl::StrCat("p0[", in_at, "]")), ";"));
  w.CloseAll(base);
}

}  // namespace

absl::StatusOr<std::string> EmitConvolutionKernel(
    const Instruction& convolution, absl::string_view name,
    KernelTarget target) {
  if (convolution.opcode() != Opcode::kConvolution) {
    return Refuse(convolution, "not a convolution");
  }
  if (absl::Status types = CheckTypes(convolution); !types.ok()) return types;
  absl::StatusOr<Geometry> geometry = ReadGeometry(convolution);
  if (!geometry.ok()) return geometry.status();
  const Geometry& g = *geometry;
  const Shape& out = convolution.shape();
  const ElementType type = out.element_type();
  const std::string lhs =
      StorageType(convolution.operand(0)->shape().element_type());
  const std::string rhs =
      StorageType(convolution.operand(1)->shape().element_type());
  const std::string result = StorageType(type);
  std::string text = absl::StrCat(
      KernelHeader(target, name), "  const ", lhs,
      "* const p0 = static_cast<const ", lhs, "*>(in[0]);\n", "  const ", rhs,
      "* const p1 = static_cast<const ", rhs, "*>(in[1]);\n", "  ", result,
      "* const o0 = static_cast<", result, "*>(out[0]);\n");
  Writer w(1);
  // Threads on the host when the work is worth it (as the loop emitter:
  // 65,536 multiply-adds).
  const bool parallel =
      g.out_count > 1 && Bounded(g.out_count, g.taps) >= 65536;
  w.Open(ParallelLoop(target, "l", g.out_count, parallel));
  EmitOutputIndex(g, out, w);
  w.Line(absl::StrCat(ArithType(type), " acc = ", ArithType(type), "(0);"));
  EmitTaps(g, convolution, w);
  w.Line(absl::StrCat("o0[l] = ", Stored(type, "acc"), ";"));
  w.CloseAll(1);
  return absl::StrCat(
      text, w.text(), "}\n",
      KernelTrailer(target, name, GridStrideLaunch(g.out_count)));
}

}  // namespace kiln::cpu
