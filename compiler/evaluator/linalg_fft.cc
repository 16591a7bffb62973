// fft (operation_semantics.md, Fft) over the last fft_length.size() (1-3)
// dimensions, one axis at a time (the transform is separable):
//   FFT:   X[k] = sum_j x[j] exp(-2 pi i j k / n)
//   IFFT:  x[j] = (1/n) sum_k X[k] exp(+2 pi i j k / n)
//   RFFT:  FFT of a real input, keeping the n/2+1 non-negative frequencies
//          of the innermost axis.
//   IRFFT: IFFT of the outer axes, then along the innermost axis the
//          Hermitian extension X[n-k] = conj(X[k]) of the n/2+1 given
//          values, inverse-transformed; the real part is the result (the
//          imaginary parts of X[0] and X[n/2] therefore do not matter).
// Every type computes in double (std::complex<double>) with a direct
// O(n^2) DFT per line and rounds once when storing, so c64/f32 results are
// the correctly rounded values of a double-precision transform.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "compiler/evaluator/linalg_common.h"
#include "compiler/evaluator/linalg_internal.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {
namespace eval {
namespace {

using Complex = std::complex<double>;

// exp(sign * 2 pi i j / n) for j in [0, n), exact at multiples of n/4.
std::vector<Complex> Twiddles(int64_t n, double sign) {
  std::vector<Complex> table(n);
  const double kPi = 3.14159265358979323846;
  for (int64_t j = 0; j < n; ++j) {
    if ((4 * j) % n == 0) {
      static const Complex kQuarter[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
      const Complex q = kQuarter[(4 * j) / n];
      table[j] = Complex(q.real(), sign * q.imag());
    } else {
      const double angle = 2.0 * kPi * static_cast<double>(j) / n;
      table[j] = Complex(std::cos(angle), sign * std::sin(angle));
    }
  }
  return table;
}

// The DFT (or normalized inverse DFT) of every line along `axis`.
void DftAxis(std::vector<Complex>& data, const std::vector<int64_t>& dims,
             size_t axis, bool inverse) {
  const int64_t n = dims[axis];
  if (n <= 1 || data.empty()) return;
  int64_t outer = 1, stride = 1;
  for (size_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) stride *= dims[d];
  const std::vector<Complex> twiddle = Twiddles(n, inverse ? 1.0 : -1.0);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  std::vector<Complex> line(n), result(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t s = 0; s < stride; ++s) {
      Complex* base = data.data() + o * n * stride + s;
      for (int64_t j = 0; j < n; ++j) line[j] = base[j * stride];
      for (int64_t k = 0; k < n; ++k) {
        Complex sum = 0;
        int64_t at = 0;  // (j * k) mod n
        for (int64_t j = 0; j < n; ++j) {
          sum += line[j] * twiddle[at];
          at += k;
          if (at >= n) at -= n;
        }
        result[k] = sum * scale;
      }
      for (int64_t k = 0; k < n; ++k) base[k * stride] = result[k];
    }
  }
}

std::vector<Complex> ReadAsComplex(const Literal& literal) {
  std::vector<Complex> values(literal.element_count());
  const bool complex = IsComplexType(literal.element_type());
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    values[i] = complex ? literal.GetComplex(i) : Complex(literal.GetDouble(i));
  }
  return values;
}

// Copies lines of the innermost dim: `from` has width `from_width`, the
// result width `to_width`; missing entries are zero.
std::vector<Complex> ResizeInnermost(const std::vector<Complex>& from,
                                     int64_t lines, int64_t from_width,
                                     int64_t to_width) {
  std::vector<Complex> to(lines * to_width);
  const int64_t width = std::min(from_width, to_width);
  for (int64_t l = 0; l < lines; ++l) {
    for (int64_t k = 0; k < width; ++k) {
      to[l * to_width + k] = from[l * from_width + k];
    }
  }
  return to;
}

// The inner c2r step of IRFFT on lines of `half` values, giving `n` reals.
std::vector<Complex> InverseRealInnermost(const std::vector<Complex>& data,
                                          int64_t lines, int64_t half,
                                          int64_t n) {
  std::vector<Complex> full = ResizeInnermost(data, lines, half, n);
  for (int64_t l = 0; l < lines; ++l) {
    Complex* line = full.data() + l * n;
    for (int64_t k = half; k < n; ++k) line[k] = std::conj(line[n - k]);
  }
  DftAxis(full, {lines, n}, 1, /*inverse=*/true);
  return full;
}

}  // namespace

absl::StatusOr<Literal> FftKernel(const Instruction& instruction,
                                  absl::Span<const Literal* const> operands,
                                  EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  const Literal& operand = *operands[0];
  const FftType type = *ParseFftType(
      instruction.attrs().Get<EnumValue>(attr::kFftType)->spelling);
  const std::vector<int64_t>& lengths =
      *instruction.attrs().Get<std::vector<int64_t>>(attr::kFftLength);
  std::vector<int64_t> dims = operand.shape().dimensions();
  const size_t rank = dims.size();
  const size_t first_axis = rank - lengths.size();
  // The work is in complex<double>, up to the larger of the operand and
  // the result (IRFFT's extended lines) at a time, twice.
  int64_t result_count = 1;
  for (int64_t d : instruction.shape().dimensions()) {
    result_count = SafeProduct({result_count, d});
  }
  absl::Status fits = CheckWorkBytes(
      instruction, context, std::max(operand.element_count(), result_count),
      2 * sizeof(Complex));
  if (!fits.ok()) return fits;
  std::vector<Complex> data = ReadAsComplex(operand);
  const int64_t n = lengths.back();
  const int64_t lines = rank == 0 || dims.back() == 0
                            ? 0
                            : static_cast<int64_t>(data.size()) / dims.back();
  const bool inverse = type == FftType::kIfft || type == FftType::kIrfft;
  // IRFFT transforms every axis but the innermost as complex first.
  const size_t complex_axes = type == FftType::kIrfft ? rank - 1 : rank;
  for (size_t axis = first_axis; axis < complex_axes; ++axis) {
    DftAxis(data, dims, axis, inverse);
  }
  if (type == FftType::kRfft) {
    data = ResizeInnermost(data, lines, dims.back(), n == 0 ? 0 : n / 2 + 1);
  } else if (type == FftType::kIrfft) {
    data = InverseRealInnermost(data, lines, dims.back(), n);
  }
  absl::StatusOr<Literal> result = context.NewResult(instruction);
  if (!result.ok()) return result.status();
  if (result->element_count() != static_cast<int64_t>(data.size())) {
    return KernelError(instruction, "internal: fft result size mismatch");
  }
  const bool complex_out = IsComplexType(result->element_type());
  for (int64_t i = 0; i < result->element_count(); ++i) {
    if (complex_out) {
      result->SetComplex(i, data[i]);
    } else {
      result->SetDouble(i, data[i].real());
    }
  }
  return result;
}

}  // namespace eval
}  // namespace kiln
