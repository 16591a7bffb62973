#include "compiler/evaluator/reduction_window_monoid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "compiler/evaluator/elementwise_binary_ops.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/float_convert.h"

namespace kiln {
namespace eval {
namespace {

// One window dimension over a line of `in` elements.
struct DimPlan {
  int64_t in = 0;
  int64_t out = 0;
  int64_t size = 1;
  int64_t stride = 1;
  int64_t pad_low = 0;
  int64_t base_dilation = 1;
  int64_t window_dilation = 1;
  int64_t base_len = 0;  // The base-dilated line's length.

  bool Trivial() const {
    return size == 1 && stride == 1 && pad_low == 0 && base_dilation == 1 &&
           in == out;
  }

  // How many of output j's window positions fall inside the base-dilated
  // line (on an element or a hole): the others are padding.
  int64_t InsideCount(int64_t j) const {
    if (base_len == 0) return 0;
    const int64_t start = j * stride - pad_low;
    const int64_t last = base_len - 1 - start;  // k * dilation <= last
    if (last < 0) return 0;
    const int64_t lo =
        start >= 0 ? 0 : (-start + window_dilation - 1) / window_dilation;
    int64_t hi = last / window_dilation;
    if (hi > size - 1) hi = size - 1;
    return hi >= lo ? hi - lo + 1 : 0;
  }
};

// Double-double: f64 add with the rounding error of each addition kept.
struct DoubleDouble {
  double hi = 0;
  double lo = 0;
};

DoubleDouble AddDD(DoubleDouble a, DoubleDouble b) {
  const double s = a.hi + b.hi;
  if (!std::isfinite(s)) return {s, 0};
  const double bb = s - a.hi;
  const double error = (a.hi - (s - bb)) + (b.hi - bb);  // TwoSum
  const double lo = error + a.lo + b.lo;
  if (lo == 0) return {s, 0};  // Keeps the sign of a zero sum.
  const double hi = s + lo;
  return {hi, lo - (hi - s)};
}

// The window reduction of every line of `cur` (dimensions `dims`) along
// dimension `d`, without the init value: holes and padding are the
// identity. Replaces dims[d] by plan.out.
template <typename Acc, typename Combine>
std::vector<Acc> ScanDimension(const DimPlan& plan, int d, Combine combine,
                               Acc identity, const std::vector<Acc>& cur,
                               std::vector<int64_t>& dims) {
  int64_t outer = 1, inner = 1;
  for (int e = 0; e < static_cast<int>(dims.size()); ++e) {
    if (e < d) outer *= dims[e];
    if (e > d) inner *= dims[e];
  }
  const int64_t n = plan.in, m = plan.out, w = plan.size, s = plan.stride;
  const int64_t wd = plan.window_dilation, bd = plan.base_dilation;
  dims[d] = m;
  std::vector<Acc> next(static_cast<size_t>(outer * m * inner), identity);
  if (m == 0 || outer * inner == 0) return next;
  // The padded, dilated positions the windows cover: [0, span).
  const int64_t span = (m - 1) * s + (w - 1) * wd + 1;
  // Per output, w combines directly, or about 3 per covered position. A
  // covered range far longer than the line and the outputs (padding
  // wider than both) is folded directly too, so that the scans' buffers
  // stay proportional to the data.
  const bool direct = static_cast<double>(m) * static_cast<double>(w) <=
                          3.0 * static_cast<double>(span) ||
                      span > 4 * (plan.base_len + m) + (int64_t{1} << 20);
  std::vector<Acc> line(static_cast<size_t>(n)), result(static_cast<size_t>(m));
  std::vector<Acc> values, prefix, suffix;
  if (!direct) {
    values.resize(static_cast<size_t>(span));
    prefix.resize(static_cast<size_t>(span));
    suffix.resize(static_cast<size_t>(span));
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t e = 0; e < n; ++e) line[e] = cur[(o * n + e) * inner + i];
      if (direct) {
        for (int64_t j = 0; j < m; ++j) {
          Acc acc = identity;
          const int64_t start = j * s - plan.pad_low;
          if (bd == 1) {  // Every position inside the line is an element.
            const int64_t last = plan.base_len - 1 - start;
            const int64_t lo = start >= 0 ? 0 : (-start + wd - 1) / wd;
            const int64_t hi = last < 0 ? -1 : std::min(w - 1, last / wd);
            for (int64_t k = lo; k <= hi; ++k) {
              acc = combine(acc, line[start + k * wd]);
            }
          } else {
            for (int64_t k = 0; k < w; ++k) {
              const int64_t q = start + k * wd;
              if (q >= 0 && q < plan.base_len && q % bd == 0) {
                acc = combine(acc, line[q / bd]);
              }
            }
          }
          result[j] = acc;
        }
      } else {
        std::fill(values.begin(), values.end(), identity);
        for (int64_t e = 0; e < n; ++e) {
          const int64_t p = e * bd + plan.pad_low;
          if (p >= 0 && p < span) values[p] = line[e];
        }
        // Position p is number t = p / wd of its residue class p % wd;
        // blocks are runs of w numbers of one class, starting at t % w == 0.
        for (int64_t p = 0, t = 0, r = 0; p < span; ++p) {
          prefix[p] =
              (t % w == 0) ? values[p] : combine(prefix[p - wd], values[p]);
          if (++r == wd) {
            r = 0;
            ++t;
          }
        }
        for (int64_t p = span - 1; p >= 0; --p) {
          const int64_t t = p / wd;
          suffix[p] = (t % w == w - 1 || p + wd >= span)
                          ? values[p]
                          : combine(values[p], suffix[p + wd]);
        }
        for (int64_t j = 0; j < m; ++j) {
          const int64_t first = j * s, last = first + (w - 1) * wd;
          result[j] = (first / wd) % w == 0
                          ? prefix[last]
                          : combine(suffix[first], prefix[last]);
        }
      }
      for (int64_t j = 0; j < m; ++j) next[(o * m + j) * inner + i] = result[j];
    }
  }
  return next;
}

// init (+) window (+) init^(padding cells) for every output, in row-major
// order: store(linear index, value).
template <typename Acc, typename Combine, typename Store>
void Reduce(const std::vector<DimPlan>& plans, int64_t window_cells,
            Combine combine, Acc identity, Acc init, std::vector<Acc> values,
            Store&& store) {
  std::vector<int64_t> dims;
  for (const DimPlan& plan : plans) dims.push_back(plan.in);
  for (int d = static_cast<int>(plans.size()) - 1; d >= 0; --d) {
    if (plans[d].Trivial()) continue;
    values = ScanDimension(plans[d], d, combine, identity, values, dims);
  }
  const size_t rank = plans.size();
  std::vector<std::vector<int64_t>> inside(rank);
  for (size_t d = 0; d < rank; ++d) {
    for (int64_t j = 0; j < plans[d].out; ++j) {
      inside[d].push_back(plans[d].InsideCount(j));
    }
  }
  int64_t cached_cells = 0;
  Acc cached_power = identity;
  std::vector<int64_t> index(rank, 0);
  for (size_t o = 0; o < values.size(); ++o) {
    int64_t inside_cells = 1;
    for (size_t d = 0; d < rank; ++d) inside_cells *= inside[d][index[d]];
    const int64_t padding = window_cells - inside_cells;
    Acc acc = combine(init, values[o]);
    if (padding > 0) {
      if (padding != cached_cells) {
        // init combined `padding` times, by squaring.
        Acc power = identity, base = init;
        for (int64_t k = padding; k > 0; k >>= 1) {
          if (k & 1) power = combine(power, base);
          if (k > 1) base = combine(base, base);
        }
        cached_cells = padding;
        cached_power = power;
      }
      acc = combine(acc, cached_power);
    }
    store(static_cast<int64_t>(o), acc);
    for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
      if (++index[d] < plans[d].out) break;
      index[d] = 0;
    }
  }
}

template <typename T>
constexpr T AllOnes() {
  return static_cast<T>(~static_cast<std::make_unsigned_t<T>>(0));
}

// Integers (Acc = the compute type, wrapping) and pred (Acc = uint8_t).
template <typename T, typename Store>
void ReduceIntegers(MonoidOp op, const std::vector<DimPlan>& plans,
                    int64_t cells, std::vector<T> values, T init,
                    const Store& store) {
  switch (op) {
    case MonoidOp::kAdd:
      return Reduce<T>(
          plans, cells, [](T a, T b) { return WrapAdd(a, b); }, T{0}, init,
          std::move(values), store);
    case MonoidOp::kMultiply:
      return Reduce<T>(
          plans, cells, [](T a, T b) { return WrapMul(a, b); }, T{1}, init,
          std::move(values), store);
    case MonoidOp::kMaximum:
      return Reduce<T>(
          plans, cells, [](T a, T b) { return a > b ? a : b; },
          std::numeric_limits<T>::lowest(), init, std::move(values), store);
    case MonoidOp::kMinimum:
      return Reduce<T>(
          plans, cells, [](T a, T b) { return a < b ? a : b; },
          std::numeric_limits<T>::max(), init, std::move(values), store);
    case MonoidOp::kAnd:
      return Reduce<T>(
          plans, cells, [](T a, T b) { return static_cast<T>(a & b); },
          AllOnes<T>(), init, std::move(values), store);
    case MonoidOp::kOr:
      return Reduce<T>(
          plans, cells, [](T a, T b) { return static_cast<T>(a | b); }, T{0},
          init, std::move(values), store);
  }
}

// Floats: Acc = double (f64 add: double-double), rounded once on store.
template <typename Store>
void ReduceFloats(MonoidOp op, const std::vector<DimPlan>& plans, int64_t cells,
                  std::vector<double> values, double init, bool is_f64,
                  const Store& store) {
  const double inf = std::numeric_limits<double>::infinity();
  switch (op) {
    case MonoidOp::kAdd:
      if (is_f64) {
        std::vector<DoubleDouble> pairs(values.size());
        for (size_t i = 0; i < values.size(); ++i) pairs[i].hi = values[i];
        return Reduce<DoubleDouble>(
            plans, cells, AddDD, DoubleDouble{-0.0, 0}, DoubleDouble{init, 0},
            std::move(pairs),
            [&](int64_t o, DoubleDouble sum) { store(o, sum.hi); });
      }
      return Reduce<double>(
          plans, cells, [](double a, double b) { return a + b; }, -0.0, init,
          std::move(values), store);
    case MonoidOp::kMultiply:
      return Reduce<double>(
          plans, cells, [](double a, double b) { return a * b; }, 1.0, init,
          std::move(values), store);
    case MonoidOp::kMaximum:
      return Reduce<double>(plans, cells, FloatMax<double>, -inf, init,
                            std::move(values), store);
    default:  // kMinimum; RecognizeMonoid gives floats no and/or.
      return Reduce<double>(plans, cells, FloatMin<double>, inf, init,
                            std::move(values), store);
  }
}

}  // namespace

std::optional<MonoidOp> RecognizeMonoid(const Computation& computation,
                                        ElementType type) {
  const Instruction* root = computation.root();
  if (computation.parameters().size() != 2 ||
      computation.instruction_count() != 3 || root == nullptr ||
      root->operand_count() != 2 || !root->attrs().entries().empty() ||
      !root->shape().Compatible(Shape::Scalar(type))) {
    return std::nullopt;
  }
  const Instruction* p0 = computation.parameter(0);
  const Instruction* p1 = computation.parameter(1);
  if (!p0->shape().Compatible(Shape::Scalar(type)) ||
      !p1->shape().Compatible(Shape::Scalar(type)) ||
      !((root->operand(0) == p0 && root->operand(1) == p1) ||
        (root->operand(0) == p1 && root->operand(1) == p0))) {
    return std::nullopt;
  }
  const TypeKind kind = GetElementTypeInfo(type).kind;
  const bool is_float = kind == TypeKind::kFloat;
  const bool is_integer = kind == TypeKind::kSigned ||
                          kind == TypeKind::kUnsigned ||
                          kind == TypeKind::kPred;
  if (!is_float && !is_integer) return std::nullopt;
  const bool pred = kind == TypeKind::kPred;
  switch (root->opcode()) {
    case Opcode::kAdd:
      return pred ? MonoidOp::kOr : MonoidOp::kAdd;
    case Opcode::kMultiply:
      return pred ? MonoidOp::kAnd : MonoidOp::kMultiply;
    case Opcode::kMaximum:
      return pred ? MonoidOp::kOr : MonoidOp::kMaximum;
    case Opcode::kMinimum:
      return pred ? MonoidOp::kAnd : MonoidOp::kMinimum;
    case Opcode::kAnd:
      if (is_integer) return MonoidOp::kAnd;
      return std::nullopt;
    case Opcode::kOr:
      if (is_integer) return MonoidOp::kOr;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

bool MonoidReduceWindow(MonoidOp op, const Window& window,
                        const std::vector<int64_t>& out_dims,
                        const Literal& input, const Literal& init,
                        Literal& output) {
  const std::vector<int64_t>& in_dims = input.shape().dimensions();
  std::vector<DimPlan> plans(in_dims.size());
  int64_t cells = 1;
  for (size_t d = 0; d < in_dims.size(); ++d) {
    const WindowDimension& w = window.dimensions[d];
    DimPlan& plan = plans[d];
    plan.in = in_dims[d];
    plan.out = out_dims[d];
    plan.size = w.size;
    plan.stride = w.stride;
    plan.pad_low = w.padding_low;
    plan.base_dilation = w.base_dilation;
    plan.window_dilation = w.window_dilation;
    plan.base_len = plan.in == 0 ? 0 : (plan.in - 1) * w.base_dilation + 1;
    if (__builtin_mul_overflow(cells, w.size, &cells)) return false;
  }
  // The temporaries (up to 16 bytes per element of the input and of each
  // pass's result, and the scans' buffers): past a few GiB, leave the
  // window to the general path rather than exhaust memory.
  int64_t largest = std::max(input.element_count(), output.element_count());
  for (int64_t d = static_cast<int64_t>(plans.size()) - 1,
               count = input.element_count();
       d >= 0; --d) {
    if (plans[d].in != 0) count = count / plans[d].in * plans[d].out;
    largest = std::max(largest, count);
    if (largest > (int64_t{1} << 27)) return false;
  }
  if (largest > (int64_t{1} << 27)) return false;
  const ElementType type = input.element_type();
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (info.kind == TypeKind::kFloat) {
    std::vector<double> values;
    if (type == ElementType::kF64) {
      values = Read<double>(input);
    } else {
      const std::vector<float> floats = Read<float>(input);
      values.assign(floats.begin(), floats.end());
    }
    const double init_value = init.GetDouble(0);
    if (type == ElementType::kF32) {
      float* out = MutableElements<float>(output).data();
      ReduceFloats(
          op, plans, cells, std::move(values), init_value, false,
          [out](int64_t o, double v) { out[o] = static_cast<float>(v); });
    } else if (type == ElementType::kF64) {
      double* out = MutableElements<double>(output).data();
      ReduceFloats(op, plans, cells, std::move(values), init_value, true,
                   [out](int64_t o, double v) { out[o] = v; });
    } else {
      ReduceFloats(op, plans, cells, std::move(values), init_value, false,
                   [&output, type](int64_t o, double v) {
                     output.SetBits(o, FloatToBits(type, v));
                   });
    }
    return true;
  }
  if (info.kind == TypeKind::kPred) {
    const absl::Span<const uint8_t> bytes = Elements<uint8_t>(input);
    std::vector<uint8_t> values(bytes.begin(), bytes.end());
    for (uint8_t& value : values) value = value != 0;
    uint8_t* out = MutableElements<uint8_t>(output).data();
    ReduceIntegers<uint8_t>(op, plans, cells, std::move(values),
                            init.GetBits(0) != 0 ? 1 : 0,
                            [out](int64_t o, uint8_t v) { out[o] = v; });
    return true;
  }
  DispatchByComputeType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      ReduceIntegers<T>(op, plans, cells, Read<T>(input), Get<T>(init, 0),
                        [&output](int64_t o, T v) { Set<T>(output, o, v); });
    }
  });
  return true;
}

}  // namespace eval
}  // namespace kiln
