// cholesky and triangular-solve (operation_semantics.md, Cholesky and
// TriangularSolve), on batches of matrices in the minor two dimensions.
// Both compute in the operand's ComputeType (float for f32 and narrower
// floats, double for f64, std::complex for c64/c128) and round once on
// store.
//
// cholesky: the unblocked Cholesky-Crout recurrence on the named triangle
// only; the other triangle of the result is zero (as XLA's expansion
// leaves it). A matrix that is not positive definite (the square root of
// some pivot is NaN) gives a result that is all NaN, both triangles, as
// XLA's CholeskyExpander does (it selects a NaN matrix for every batch
// element whose factorization saw a NaN pivot); it is not an error.
//
// triangular-solve: op(a) x = b (left_side) or x op(a) = b, op being
// NO_TRANSPOSE, TRANSPOSE or ADJOINT; only a's `lower` triangle is read,
// and with unit_diagonal its diagonal is taken as ones and not read.
// Forward or back substitution, row operations contiguous over b's rows.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "compiler/evaluator/linalg_common.h"
#include "compiler/evaluator/linalg_internal.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

template <typename T>
T Conj(T value) {
  if constexpr (IsComplex<T>::value) {
    return std::conj(value);
  } else {
    return value;
  }
}

template <typename T>
constexpr bool kIsInexact = std::is_floating_point_v<T> || IsComplex<T>::value;

bool BoolAttr(const Instruction& instruction, absl::string_view name) {
  const bool* value = instruction.attrs().Get<bool>(name);
  return value != nullptr && *value;
}

// Cholesky of one n x n matrix `a` (row-major) into `out`. Reads a[i][j]
// for i >= j when `lower`, else a[j][i] (conjugated) for i >= j. A NaN
// pivot (a matrix that is not positive definite, or NaN input) makes every
// entry of `out` NaN.
template <typename T>
void CholeskyMatrix(const T* a, T* out, int64_t n, bool lower) {
  using R = decltype(std::real(T()));
  std::vector<T> l(n * n, T(0));
  const auto lower_entry = [&](int64_t i, int64_t j) {
    return lower ? a[i * n + j] : Conj(a[j * n + i]);
  };
  for (int64_t j = 0; j < n; ++j) {
    R diagonal = std::real(lower_entry(j, j));
    for (int64_t p = 0; p < j; ++p) diagonal -= std::norm(l[j * n + p]);
    const R root = std::sqrt(diagonal);  // NaN when not positive.
    if (std::isnan(root)) {
      // XLA: seen_error, then Select(seen_error, FullLike(l, NaN), l).
      std::fill(out, out + n * n, T(std::numeric_limits<R>::quiet_NaN()));
      return;
    }
    const T pivot = T(root);
    l[j * n + j] = pivot;
    for (int64_t i = j + 1; i < n; ++i) {
      T sum = lower_entry(i, j);
      for (int64_t p = 0; p < j; ++p) sum -= l[i * n + p] * Conj(l[j * n + p]);
      l[i * n + j] = sum / pivot;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      // The other triangle is +0; the diagonal is real, so it is not
      // conjugated (that would make its imaginary part -0).
      const bool in_triangle = lower ? i >= j : i <= j;
      if (!in_triangle) {
        out[i * n + j] = T(0);
      } else {
        out[i * n + j] = lower || i == j ? l[i * n + j] : Conj(l[j * n + i]);
      }
    }
  }
}

template <typename T>
absl::StatusOr<Literal> TypedCholesky(const Instruction& instruction,
                                      const Literal& operand,
                                      EvalContext& context) {
  if constexpr (!kIsInexact<T>) {
    return KernelError(instruction, "cholesky takes floating-point types");
  } else {
    const std::vector<int64_t>& dims = operand.shape().dimensions();
    const int64_t n = dims.back();
    const int64_t matrix = n * n;
    const std::vector<T> a = Read<T>(operand);
    std::vector<T> out(a.size());
    const bool lower = BoolAttr(instruction, attr::kLower);
    for (size_t start = 0; start < a.size(); start += matrix) {
      CholeskyMatrix(a.data() + start, out.data() + start, n, lower);
    }
    absl::StatusOr<Literal> result = context.NewResult(instruction);
    if (!result.ok()) return result.status();
    Write<T>(absl::Span<const T>(out), *result);
    return result;
  }
}

// Solves e x = b in place for one batch entry, e an n x n triangular
// matrix (lower when `lower`) and b n x k (rows of x overwrite it).
template <typename T>
void SubstituteLeft(const std::vector<T>& e, bool lower, T* b, int64_t n,
                    int64_t k) {
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = lower ? step : n - 1 - step;
    T* row = b + i * k;
    const int64_t p_begin = lower ? 0 : i + 1;
    const int64_t p_end = lower ? i : n;
    for (int64_t p = p_begin; p < p_end; ++p) {
      const T factor = e[i * n + p];
      const T* solved = b + p * k;
      for (int64_t j = 0; j < k; ++j) row[j] -= factor * solved[j];
    }
    const T pivot = e[i * n + i];
    for (int64_t j = 0; j < k; ++j) row[j] /= pivot;
  }
}

struct SolveOptions {
  bool left = false, lower = false, unit = false;
  bool transpose = false, conjugate = false;
};

SolveOptions ReadSolveOptions(const Instruction& instruction) {
  SolveOptions options;
  options.left = BoolAttr(instruction, attr::kLeftSide);
  options.lower = BoolAttr(instruction, attr::kLower);
  options.unit = BoolAttr(instruction, attr::kUnitDiagonal);
  const EnumValue* t = instruction.attrs().Get<EnumValue>(attr::kTransposeA);
  options.transpose =
      t != nullptr && (t->spelling == "TRANSPOSE" || t->spelling == "ADJOINT");
  options.conjugate = t != nullptr && t->spelling == "ADJOINT";
  return options;
}

// Solves one batch entry: a is n x n, b is n x k (left) or k x n (right).
template <typename T>
void SolveMatrix(const T* a, T* b, int64_t n, int64_t k,
                 const SolveOptions& options) {
  // e = op(triangle of a), as a dense matrix; x op(a) = b is solved as
  // op(a)^T x^T = b^T, so the right side transposes e once more.
  const bool flip = options.transpose != !options.left;
  std::vector<T> e(n * n, T(0));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const bool in_triangle = options.lower ? i >= j : i <= j;
      if (!in_triangle) continue;
      T value = i == j && options.unit ? T(1) : a[i * n + j];
      if (options.conjugate) value = Conj(value);
      e[flip ? j * n + i : i * n + j] = value;
    }
  }
  const bool e_lower = options.lower != flip;
  if (options.left) {
    SubstituteLeft(e, e_lower, b, n, k);
    return;
  }
  std::vector<T> bt(n * k);  // b^T: n x k
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) bt[c * k + r] = b[r * n + c];
  }
  SubstituteLeft(e, e_lower, bt.data(), n, k);
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) b[r * n + c] = bt[c * k + r];
  }
}

template <typename T>
absl::StatusOr<Literal> TypedTriangularSolve(const Instruction& instruction,
                                             const Literal& a_literal,
                                             const Literal& b_literal,
                                             EvalContext& context) {
  if constexpr (!kIsInexact<T>) {
    return KernelError(instruction,
                       "triangular-solve takes floating-point types");
  } else {
    const SolveOptions options = ReadSolveOptions(instruction);
    const std::vector<int64_t>& b_dims = b_literal.shape().dimensions();
    const int64_t n = a_literal.shape().dimensions().back();
    const int64_t k = options.left ? b_dims.back() : b_dims[b_dims.size() - 2];
    const std::vector<T> a = Read<T>(a_literal);
    std::vector<T> b = Read<T>(b_literal);
    const int64_t batches = n * k == 0 ? 0 : b.size() / (n * k);
    for (int64_t i = 0; i < batches; ++i) {
      SolveMatrix(a.data() + i * n * n, b.data() + i * n * k, n, k, options);
    }
    absl::StatusOr<Literal> result = context.NewResult(instruction);
    if (!result.ok()) return result.status();
    Write<T>(absl::Span<const T>(b), *result);
    return result;
  }
}

}  // namespace

absl::StatusOr<Literal> CholeskyKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  return DispatchByComputeType(
      operands[0]->element_type(), [&](auto tag) -> absl::StatusOr<Literal> {
        using T = typename decltype(tag)::type;
        return TypedCholesky<T>(instruction, *operands[0], context);
      });
}

absl::StatusOr<Literal> TriangularSolveKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  return DispatchByComputeType(
      operands[0]->element_type(), [&](auto tag) -> absl::StatusOr<Literal> {
        using T = typename decltype(tag)::type;
        return TypedTriangularSolve<T>(instruction, *operands[0], *operands[1],
                                       context);
      });
}

}  // namespace eval
}  // namespace kiln
