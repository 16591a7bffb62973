// fft, cholesky, triangular-solve and the batch norms. Expected values are
// hand-computed (derivations in comments); triangular-solve is checked by
// multiplying the solution back for every option combination.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToCompactText;

std::vector<std::complex<double>> Complexes(const Literal& literal) {
  std::vector<std::complex<double>> values;
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    values.push_back(literal.GetComplex(i));
  }
  return values;
}

std::string Fft(const std::string& type, const std::string& in_shape,
                const std::string& out_shape, const std::string& lengths) {
  return EntryModule({in_shape}, absl::StrCat("ROOT f = ", out_shape,
                                              " fft(p0), fft_type=", type,
                                              ", fft_length={", lengths, "}"));
}

TEST(FftKernelTest, ImpulseTransformsToOnes) {
  EXPECT_EQ(RunToCompactText(Fft("FFT", "c64[4]", "c64[4]", "4"),
                             {"c64[4] {(1, 0), (0, 0), (0, 0), (0, 0)}"}),
            "c64[4] {(1, 0), (1, 0), (1, 0), (1, 0)}");
}

TEST(FftKernelTest, CosineTransformsToTwoSpikes) {
  // cos(2 pi j / 4) = {1, 0, -1, 0}: X[1] = X[3] = 4/2 = 2.
  EXPECT_EQ(RunToCompactText(Fft("FFT", "c128[4]", "c128[4]", "4"),
                             {"c128[4] {(1, 0), (0, 0), (-1, 0), (0, 0)}"}),
            "c128[4] {(0, 0), (2, 0), (0, 0), (2, 0)}");
  // And back, with IFFT's 1/n.
  EXPECT_EQ(RunToCompactText(Fft("IFFT", "c128[4]", "c128[4]", "4"),
                             {"c128[4] {(0, 0), (2, 0), (0, 0), (2, 0)}"}),
            "c128[4] {(1, 0), (0, 0), (-1, 0), (0, 0)}");
  // A sine: sin(2 pi j / 4) = {0, 1, 0, -1}: X[1] = -2i, X[3] = 2i.
  EXPECT_EQ(RunToCompactText(Fft("FFT", "c64[4]", "c64[4]", "4"),
                             {"c64[4] {(0, 0), (1, 0), (0, 0), (-1, 0)}"}),
            "c64[4] {(0, 0), (0, -2), (0, 0), (0, 2)}");
}

TEST(FftKernelTest, RealTransforms) {
  EXPECT_EQ(RunToCompactText(Fft("RFFT", "f32[4]", "c64[3]", "4"),
                             {"f32[4] {1, 0, -1, 0}"}),
            "c64[3] {(0, 0), (2, 0), (0, 0)}");
  EXPECT_EQ(RunToCompactText(Fft("IRFFT", "c64[3]", "f32[4]", "4"),
                             {"c64[3] {(0, 0), (2, 0), (0, 0)}"}),
            "f32[4] {1, 0, -1, 0}");
  // Odd length: {1, 2, 3} -> X0 = 6, X1 = -1.5 + (sqrt(3)/2) i; IRFFT of
  // RFFT gives the input back.
  absl::StatusOr<Literal> forward = eval_test::Run(
      Fft("RFFT", "f64[3]", "c128[2]", "3"), {"f64[3] {1, 2, 3}"});
  ASSERT_TRUE(forward.ok()) << forward.status();
  const auto x = Complexes(*forward);
  EXPECT_NEAR(x[0].real(), 6, 1e-15);
  EXPECT_NEAR(x[0].imag(), 0, 1e-15);
  EXPECT_NEAR(x[1].real(), -1.5, 1e-15);
  EXPECT_NEAR(x[1].imag(), std::sqrt(3.0) / 2, 1e-15);
  const std::string back =
      EntryModule({"f64[3]"},
                  "r = c128[2] fft(p0), fft_type=RFFT, fft_length={3}\n"
                  "  ROOT i = f64[3] fft(r), fft_type=IRFFT, fft_length={3}");
  absl::StatusOr<Literal> round_trip =
      eval_test::Run(back, {"f64[3] {1, 2, 3}"});
  ASSERT_TRUE(round_trip.ok()) << round_trip.status();
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(round_trip->GetDouble(i), i + 1, 1e-14);
  }
}

TEST(FftKernelTest, IrfftIgnoresImaginaryPartsOfDcAndNyquist) {
  EXPECT_EQ(RunToCompactText(Fft("IRFFT", "c64[3]", "f32[4]", "4"),
                             {"c64[3] {(4, 7), (0, 0), (0, 9)}"}),
            "f32[4] {1, 1, 1, 1}");
}

TEST(FftKernelTest, TwoDimensionalAndBatched) {
  // [[1, 2], [3, 4]]: X[0,0] = 10, X[0,1] = (1-2)+(3-4) = -2,
  // X[1,0] = (1+2)-(3+4) = -4, X[1,1] = 1-2-3+4 = 0. The leading dim is a
  // batch: the second matrix is the first times 2.
  EXPECT_EQ(
      RunToCompactText(Fft("FFT", "c64[2,2,2]", "c64[2,2,2]", "2,2"),
                       {"c64[2,2,2] {{{(1, 0), (2, 0)}, {(3, 0), (4, 0)}}, "
                        "{{(2, 0), (4, 0)}, {(6, 0), (8, 0)}}}"}),
      "c64[2,2,2] {{{(10, 0), (-2, 0)}, {(-4, 0), (0, 0)}}, "
      "{{(20, 0), (-4, 0)}, {(-8, 0), (0, 0)}}}");
  // 2-D RFFT then IRFFT of a 2x4 real array returns it.
  const std::string back = EntryModule(
      {"f32[2,4]"},
      "r = c64[2,3] fft(p0), fft_type=RFFT, fft_length={2,4}\n"
      "  ROOT i = f32[2,4] fft(r), fft_type=IRFFT, fft_length={2,4}");
  absl::StatusOr<Literal> result =
      eval_test::Run(back, {"f32[2,4] {{1, 2, 3, 4}, {-5, 6, 0.5, 8}}"});
  ASSERT_TRUE(result.ok()) << result.status();
  const double expected[8] = {1, 2, 3, 4, -5, 6, 0.5, 8};
  for (int i = 0; i < 8; ++i) {
    EXPECT_NEAR(result->GetDouble(i), expected[i], 1e-6);
  }
}

std::string Cholesky(const std::string& shape, bool lower) {
  return EntryModule({shape}, absl::StrCat("ROOT c = ", shape, " cholesky(p0)",
                                           lower ? ", lower=true" : ""));
}

TEST(CholeskyKernelTest, LowerAndUpper) {
  // L = [[2, 0], [1, 2]] gives A = L L^T = [[4, 2], [2, 5]].
  // The unnamed triangle holds 99, which must not be read.
  EXPECT_EQ(RunToCompactText(Cholesky("f32[2,2]", true),
                             {"f32[2,2] {{4, 99}, {2, 5}}"}),
            "f32[2,2] {{2, 0}, {1, 2}}");
  EXPECT_EQ(RunToCompactText(Cholesky("f32[2,2]", false),
                             {"f32[2,2] {{4, 2}, {99, 5}}"}),
            "f32[2,2] {{2, 1}, {0, 2}}");
}

TEST(CholeskyKernelTest, ThreeByThreeAndBatched) {
  // L = [[2,0,0],[1,3,0],[-1,2,1]]: A = [[4,2,-2],[2,10,5],[-2,5,6]]. The
  // second batch entry is 4 A, whose factor is 2 L.
  EXPECT_EQ(
      RunToCompactText(Cholesky("f64[2,3,3]", true),
                       {"f64[2,3,3] {{{4, 2, -2}, {2, 10, 5}, {-2, 5, 6}}, "
                        "{{16, 8, -8}, {8, 40, 20}, {-8, 20, 24}}}"}),
      "f64[2,3,3] {{{2, 0, 0}, {1, 3, 0}, {-1, 2, 1}}, "
      "{{4, 0, 0}, {2, 6, 0}, {-2, 4, 2}}}");
}

TEST(CholeskyKernelTest, Complex) {
  // L = [[2, 0], [i, 1]]: A = L L^H = [[4, -2i], [2i, 2]].
  EXPECT_EQ(
      RunToCompactText(Cholesky("c64[2,2]", true),
                       {"c64[2,2] {{(4, 0), (0, -2)}, {(0, 2), (2, 0)}}"}),
      "c64[2,2] {{(2, 0), (0, 0)}, {(0, 1), (1, 0)}}");
  // Upper: U = L^H = [[2, -i], [0, 1]], read from A's upper triangle.
  EXPECT_EQ(
      RunToCompactText(Cholesky("c64[2,2]", false),
                       {"c64[2,2] {{(4, 0), (0, -2)}, {(0, 2), (2, 0)}}"}),
      "c64[2,2] {{(2, 0), (0, -1)}, {(0, 0), (1, 0)}}");
}

// XLA returns an all-NaN matrix (both triangles) for each batch element
// whose factorization meets a NaN pivot, and factors the others as usual.
TEST(CholeskyKernelTest, NotPositiveDefiniteGivesAllNanForThatMatrixOnly) {
  // The failing pivot is the last one: a partial factor would keep l00 = 1.
  EXPECT_EQ(
      RunToCompactText(Cholesky("f32[2,2,2]", true),
                       {"f32[2,2,2] {{{1, 0}, {2, 1}}, {{4, 0}, {2, 2}}}"}),
      "f32[2,2,2] {{{nan, nan}, {nan, nan}}, {{2, 0}, {1, 1}}}");
  // The first pivot fails; upper triangle; f64.
  EXPECT_EQ(RunToCompactText(Cholesky("f64[2,2]", false),
                             {"f64[2,2] {{-1, 0}, {0, 1}}"}),
            "f64[2,2] {{nan, nan}, {nan, nan}}");
  // Complex: NaN + 0i everywhere.
  EXPECT_EQ(
      RunToCompactText(Cholesky("c64[2,2]", true),
                       {"c64[2,2] {{(1, 0), (0, 0)}, {(0, 0), (-1, 0)}}"}),
      "c64[2,2] {{(nan, 0), (nan, 0)}, {(nan, 0), (nan, 0)}}");
  // A NaN input spreads to a NaN pivot, hence all NaN too.
  EXPECT_EQ(RunToCompactText(Cholesky("f32[2,2]", true),
                             {"f32[2,2] {{4, 0}, {nan, 4}}"}),
            "f32[2,2] {{nan, nan}, {nan, nan}}");
}

// A zero pivot is not a failure in XLA (sqrt(0) = 0 is not NaN): a
// positive semi-definite matrix whose last pivot is 0 keeps its factor.
TEST(CholeskyKernelTest, ZeroPivotIsNotAFailure) {
  EXPECT_EQ(RunToCompactText(Cholesky("f32[2,2]", true),
                             {"f32[2,2] {{4, 0}, {2, 1}}"}),
            "f32[2,2] {{2, 0}, {1, 0}}");
}

TEST(CholeskyKernelTest, NarrowFloatRoundsOnStore) {
  // A = [[2, 0], [0, 4]]: sqrt(2) = 1.41421... -> bf16 1.4140625 (the
  // printer writes the shortest text, 1.414).
  EXPECT_EQ(RunToCompactText(Cholesky("bf16[2,2]", true),
                             {"bf16[2,2] {{2, 0}, {0, 4}}"}),
            "bf16[2,2] {{1.414, 0}, {0, 2}}");
}

// op(a) with only a's `lower` triangle read and a unit diagonal when asked.
std::vector<std::vector<std::complex<double>>> EffectiveA(
    const std::vector<std::vector<std::complex<double>>>& a, bool lower,
    bool unit, const std::string& transpose) {
  const size_t n = a.size();
  std::vector<std::vector<std::complex<double>>> e(
      n, std::vector<std::complex<double>>(n));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      const bool in = lower ? i >= j : i <= j;
      std::complex<double> v = !in ? 0.0 : (i == j && unit ? 1.0 : a[i][j]);
      if (transpose == "NO_TRANSPOSE") {
        e[i][j] += v;
      } else {
        e[j][i] += transpose == "ADJOINT" ? std::conj(v) : v;
      }
    }
  }
  return e;
}

std::string MatrixText(const std::vector<std::vector<std::complex<double>>>& m,
                       bool complex) {
  std::string text = "{";
  for (size_t i = 0; i < m.size(); ++i) {
    text += i == 0 ? "{" : ", {";
    for (size_t j = 0; j < m[i].size(); ++j) {
      if (j > 0) text += ", ";
      text += complex
                  ? absl::StrCat("(", m[i][j].real(), ", ", m[i][j].imag(), ")")
                  : absl::StrCat(m[i][j].real());
    }
    text += "}";
  }
  return text + "}";
}

// Solves with every combination of left_side, lower, unit_diagonal and
// transpose_a on a 3x3 a (both triangles filled with different values, so
// reading the wrong one shows) and checks op(a) x = b or x op(a) = b.
void CheckAllSolveOptions(bool complex) {
  const std::string type = complex ? "c128" : "f64";
  const std::complex<double> i1(0, complex ? 1 : 0);
  const std::vector<std::vector<std::complex<double>>> a = {
      {4.0 + i1, 1.5, -2.0}, {0.5 - i1, 3.0, 7.0}, {-1.0, 2.0 + i1, 5.0}};
  const std::vector<std::vector<std::complex<double>>> b_left = {
      {1.0, 2.0}, {3.0 + i1, -4.0}, {0.5, 6.0}};
  const std::vector<std::vector<std::complex<double>>> b_right = {
      {1.0, 2.0 - i1, 3.0}, {-4.0, 0.5, 6.0}};
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {true, false}) {
        for (std::string transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          const auto& b = left ? b_left : b_right;
          const std::string b_shape =
              absl::StrCat(type, left ? "[3,2]" : "[2,3]");
          const std::string hlo = EntryModule(
              {type + "[3,3]", b_shape},
              absl::StrCat(
                  "ROOT x = ", b_shape, " triangular-solve(p0, p1), left_side=",
                  left ? "true" : "false", ", lower=", lower ? "true" : "false",
                  ", unit_diagonal=", unit ? "true" : "false",
                  ", transpose_a=", transpose));
          absl::StatusOr<Literal> x =
              eval_test::Run(hlo, {type + "[3,3] " + MatrixText(a, complex),
                                   b_shape + " " + MatrixText(b, complex)});
          ASSERT_TRUE(x.ok()) << x.status() << "\n" << hlo;
          const auto e = EffectiveA(a, lower, unit, transpose);
          const size_t rows = b.size(), cols = b[0].size();
          for (size_t r = 0; r < rows; ++r) {
            for (size_t c = 0; c < cols; ++c) {
              std::complex<double> sum = 0;
              for (size_t p = 0; p < 3; ++p) {
                sum += left ? e[r][p] * x->GetComplex(p * cols + c)
                            : x->GetComplex(r * 3 + p) * e[p][c];
              }
              EXPECT_NEAR(std::abs(sum - b[r][c]), 0, 1e-12)
                  << hlo << " at " << r << "," << c;
            }
          }
        }
      }
    }
  }
}

TEST(TriangularSolveKernelTest, EveryOptionCombinationMultipliesBack) {
  CheckAllSolveOptions(/*complex=*/false);
  CheckAllSolveOptions(/*complex=*/true);
}

TEST(TriangularSolveKernelTest, HandSolvedAndBatched) {
  // [[2, 0], [1, 4]] x = [[2], [9]]: x0 = 1, x1 = (9 - 1) / 4 = 2. The
  // second batch entry doubles b, so x doubles.
  const std::string hlo = EntryModule(
      {"f32[2,2,2]", "f32[2,2,1]"},
      "ROOT x = f32[2,2,1] triangular-solve(p0, p1), left_side=true, "
      "lower=true, transpose_a=NO_TRANSPOSE");
  EXPECT_EQ(
      RunToCompactText(hlo, {"f32[2,2,2] {{{2, 7}, {1, 4}}, {{2, 7}, {1, 4}}}",
                             "f32[2,2,1] {{{2}, {9}}, {{4}, {18}}}"}),
      "f32[2,2,1] {{{1}, {2}}, {{2}, {4}}}");
}

TEST(BatchNormKernelTest, Training) {
  // Feature 0: {1, 3} -> mean 2, variance 1; feature 1: {2, 6} -> mean 4,
  // variance 4. Normalized: {-1, 1} in each; scale 2, offset 1 -> {-1, 3}.
  const std::string hlo = EntryModule(
      {"f32[2,2]", "f32[2]", "f32[2]"},
      "ROOT t = (f32[2,2], f32[2], f32[2]) batch-norm-training(p0, p1, p2), "
      "epsilon=0, feature_index=1");
  EXPECT_EQ(RunToCompactText(hlo, {"f32[2,2] {{1, 2}, {3, 6}}", "f32[2] {2, 2}",
                                   "f32[2] {1, 1}"}),
            "(f32[2,2], f32[2], f32[2]) ({{-1, -1}, {3, 3}}, {2, 4}, {1, 4})");
}

TEST(BatchNormKernelTest, InferenceUsesTheGivenMoments) {
  // Feature on dim 0: (x - mean) / sqrt(var + eps) * scale + offset with
  // mean {1, 0}, var + eps = {4, 1}: row 0 (x-1)/2 * 1 + 0, row 1 x*3 - 1.
  const std::string hlo =
      EntryModule({"f32[2,3]", "f32[2]", "f32[2]", "f32[2]", "f32[2]"},
                  "ROOT n = f32[2,3] batch-norm-inference(p0, p1, p2, p3, p4), "
                  "epsilon=0.5, feature_index=0");
  EXPECT_EQ(RunToCompactText(
                hlo, {"f32[2,3] {{1, 3, 5}, {0, 1, 2}}", "f32[2] {1, 3}",
                      "f32[2] {0, -1}", "f32[2] {1, 0}", "f32[2] {3.5, 0.5}"}),
            "f32[2,3] {{0, 1, 2}, {-1, 2, 5}}");
}

TEST(BatchNormKernelTest, Grad) {
  // x = {0, 4, 2, 2}, mean 2, var 4 (eps 0), scale 1, dy = {1, 0, 0, 0}:
  // sum dy (x - mean) = -2, so dscale = -2 / 2 = -1, doffset = 1,
  // c = -2 / 4 / 4 = -1/8, d = 1/4,
  // dx = 1/2 (dy - 1/4 + 1/8 (x - 2)) = {1/4, 0, -1/8, -1/8}.
  const std::string hlo = EntryModule(
      {"f32[4,1]", "f32[1]", "f32[1]", "f32[1]", "f32[4,1]"},
      "ROOT g = (f32[4,1], f32[1], f32[1]) batch-norm-grad(p0, p1, p2, p3, "
      "p4), epsilon=0, feature_index=1");
  EXPECT_EQ(RunToCompactText(hlo, {"f32[4,1] {{0}, {4}, {2}, {2}}",
                                   "f32[1] {1}", "f32[1] {2}", "f32[1] {4}",
                                   "f32[4,1] {{1}, {0}, {0}, {0}}"}),
            "(f32[4,1], f32[1], f32[1]) ({{0.25}, {0}, {-0.125}, {-0.125}}, "
            "{-1}, {1})");
}

}  // namespace
}  // namespace kiln
