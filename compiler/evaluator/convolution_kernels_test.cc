// convolution kernel. Expected values are hand-computed (derivations in
// comments) or cross-checked against dot evaluated from a second module.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToCompactText;

// A 1-D convolution of f32[1,1,5] {1, 2, 3, 4, 5} with a [1,1,3] kernel.
std::string Conv1D(const std::string& out_shape, const std::string& window,
                   const std::string& kernel) {
  return RunToCompactText(
      EntryModule(
          {"f32[1,1,5]", "f32[1,1,3]"},
          absl::StrCat("ROOT c = ", out_shape, " convolution(p0, p1), window={",
                       window, "}, dim_labels=bf0_oi0->bf0")),
      {"f32[1,1,5] {{{1, 2, 3, 4, 5}}}", kernel});
}

TEST(ConvolutionKernelTest, ValidWindow) {
  // out[x] = in[x] - in[x + 2].
  EXPECT_EQ(Conv1D("f32[1,1,3]", "size=3", "f32[1,1,3] {{{1, 0, -1}}}"),
            "f32[1,1,3] {{{-2, -2, -2}}}");
}

TEST(ConvolutionKernelTest, StrideAndPadding) {
  // Padded {0, 1, 2, 3, 4, 5, 0}; windows at 0, 2, 4: 0-2, 2-4, 4-0.
  EXPECT_EQ(Conv1D("f32[1,1,3]", "size=3 stride=2 pad=1_1",
                   "f32[1,1,3] {{{1, 0, -1}}}"),
            "f32[1,1,3] {{{-2, -2, 4}}}");
}

TEST(ConvolutionKernelTest, NegativePadding) {
  // pad=-1_-1 drops the first and last inputs: {2, 3, 4}; window 3 of ones.
  EXPECT_EQ(
      Conv1D("f32[1,1,1]", "size=3 pad=-1_-1", "f32[1,1,3] {{{1, 1, 1}}}"),
      "f32[1,1,1] {{{9}}}");
  // pad=-2_1: {3, 4, 5, 0}; windows {3,4,5}, {4,5,0} with weights 1,10,100.
  EXPECT_EQ(
      Conv1D("f32[1,1,2]", "size=3 pad=-2_1", "f32[1,1,3] {{{1, 10, 100}}}"),
      "f32[1,1,2] {{{543, 54}}}");
}

TEST(ConvolutionKernelTest, LhsDilation) {
  // lhs_dilate=2: {1, 0, 2, 0, 3, 0, 4, 0, 5}; windows of 3 ones.
  EXPECT_EQ(
      Conv1D("f32[1,1,7]", "size=3 lhs_dilate=2", "f32[1,1,3] {{{1, 1, 1}}}"),
      "f32[1,1,7] {{{3, 2, 5, 3, 7, 4, 9}}}");
  // With padding 1_1 and weights 1, 10, 100 (input {0,1,0,2,0,3,0,4,0,5,0}):
  // x=0: 0+10+0 = 10; x=1: 1+0+200 = 201; x=2: 0+20+0 = 20; ...
  EXPECT_EQ(Conv1D("f32[1,1,9]", "size=3 pad=1_1 lhs_dilate=2",
                   "f32[1,1,3] {{{1, 10, 100}}}"),
            "f32[1,1,9] {{{10, 201, 20, 302, 30, 403, 40, 504, 50}}}");
}

TEST(ConvolutionKernelTest, RhsDilation) {
  // rhs_dilate=2 spreads the window over 5 inputs: in[0] + 10 in[2] +
  // 100 in[4] = 1 + 30 + 500.
  EXPECT_EQ(Conv1D("f32[1,1,1]", "size=3 rhs_dilate=2",
                   "f32[1,1,3] {{{1, 10, 100}}}"),
            "f32[1,1,1] {{{531}}}");
}

TEST(ConvolutionKernelTest, WindowReversal) {
  // The kernel {1, 0, -1} applied reversed: out[x] = in[x + 2] - in[x].
  EXPECT_EQ(Conv1D("f32[1,1,3]", "size=3 rhs_reversal=1",
                   "f32[1,1,3] {{{1, 0, -1}}}"),
            "f32[1,1,3] {{{2, 2, 2}}}");
}

TEST(ConvolutionKernelTest, TwoDimensionalNhwc) {
  // 3x3 input 1..9 with a 2x2 kernel of ones: sums of 2x2 blocks.
  const std::string hlo = EntryModule(
      {"f32[1,3,3,1]", "f32[2,2,1,1]"},
      "ROOT c = f32[1,2,2,1] convolution(p0, p1), window={size=2x2}, "
      "dim_labels=b01f_01io->b01f");
  EXPECT_EQ(
      RunToCompactText(hlo, {"f32[1,3,3,1] {{{{1}, {2}, {3}}, {{4}, {5}, {6}}, "
                             "{{7}, {8}, {9}}}}",
                             "f32[2,2,1,1] {{{{1}}, {{1}}}, {{{1}}, {{1}}}}"}),
      "f32[1,2,2,1] {{{{12}, {16}}, {{24}, {28}}}}");
}

TEST(ConvolutionKernelTest, TwoDimensionalStridesAndOddLabels) {
  // Output labels f01b: the feature dim comes first. Input 4x4 of 0..15
  // (row-major), 2x2 kernel of weights {{1, 2}, {3, 4}}, stride 2:
  // block at (0,0): 0*1 + 1*2 + 4*3 + 5*4 = 34; (0,2): 2+6+18+28 = 54;
  // (2,0): 8+18+36+52 = 114; (2,2): 10+22+42+60 = 134.
  const std::string hlo =
      EntryModule({"f32[1,1,4,4]", "f32[1,1,2,2]"},
                  "ROOT c = f32[1,2,2,1] convolution(p0, p1), "
                  "window={size=2x2 stride=2x2}, dim_labels=bf01_oi01->f01b");
  EXPECT_EQ(
      RunToCompactText(hlo, {"f32[1,1,4,4] {{{{0, 1, 2, 3}, {4, 5, 6, 7}, "
                             "{8, 9, 10, 11}, {12, 13, 14, 15}}}}",
                             "f32[1,1,2,2] {{{{1, 2}, {3, 4}}}}"}),
      "f32[1,2,2,1] {{{{34}, {54}}, {{114}, {134}}}}");
}

TEST(ConvolutionKernelTest, ThreeDimensional) {
  // A 2x2x2 window of ones over a 2x2x3 input of ones, pad 0_1 on the last
  // dim: the last column sees only half the window.
  const std::string hlo = EntryModule(
      {"f32[1,2,2,3,1]", "f32[2,2,2,1,1]"},
      "ROOT c = f32[1,1,1,3,1] convolution(p0, p1), "
      "window={size=2x2x2 pad=0_0x0_0x0_1}, dim_labels=b012f_012io->b012f");
  const std::string ones_in =
      "f32[1,2,2,3,1] {{{{{1}, {1}, {1}}, {{1}, {1}, {1}}}, "
      "{{{1}, {1}, {1}}, {{1}, {1}, {1}}}}}";
  const std::string ones_k =
      "f32[2,2,2,1,1] {{{{{1}}, {{1}}}, {{{1}}, {{1}}}}, "
      "{{{{1}}, {{1}}}, {{{1}}, {{1}}}}}";
  EXPECT_EQ(RunToCompactText(hlo, {ones_in, ones_k}),
            "f32[1,1,1,3,1] {{{{{8}, {8}, {4}}}}}");
}

TEST(ConvolutionKernelTest, NoSpatialDimensionsIsAMatrixProduct) {
  // [1,2] x [2,3]: {1, 2} . {{1, 10, 100}, {2, 20, 200}}.
  const std::string hlo = EntryModule(
      {"f32[1,2]", "f32[2,3]"},
      "ROOT c = f32[1,3] convolution(p0, p1), dim_labels=bf_io->bf");
  EXPECT_EQ(RunToCompactText(hlo, {"f32[1,2] {{1, 2}}",
                                   "f32[2,3] {{1, 10, 100}, {2, 20, "
                                   "200}}"}),
            "f32[1,3] {{5, 50, 500}}");
}

TEST(ConvolutionKernelTest, FeatureGroups) {
  // Two groups: outputs 0-1 read input features 0-1, outputs 2-3 read 2-3.
  // o0 = 1*1 + 2*2 = 5, o1 = 10 + 40 = 50, o2 = 300 + 800 = 1100,
  // o3 = 3000 + 8000 = 11000.
  const std::string hlo = EntryModule(
      {"f32[1,4]", "f32[2,4]"},
      "ROOT c = f32[1,4] convolution(p0, p1), dim_labels=bf_io->bf, "
      "feature_group_count=2");
  EXPECT_EQ(RunToCompactText(
                hlo, {"f32[1,4] {{1, 2, 3, 4}}",
                      "f32[2,4] {{1, 10, 100, 1000}, {2, 20, 200, 2000}}"}),
            "f32[1,4] {{5, 50, 1100, 11000}}");
}

TEST(ConvolutionKernelTest, DepthwiseWithSpatialWindow) {
  // feature_group_count = input features = 2: each channel has its own
  // 2-tap kernel. Channel 0 {1,2,3} * {1,1}: {3, 5}; channel 1 {4,5,6} *
  // {1,-1}: {-1, -1}.
  const std::string hlo =
      EntryModule({"f32[1,2,3]", "f32[2,1,2]"},
                  "ROOT c = f32[1,2,2] convolution(p0, p1), window={size=2}, "
                  "dim_labels=bf0_oi0->bf0, feature_group_count=2");
  EXPECT_EQ(RunToCompactText(hlo, {"f32[1,2,3] {{{1, 2, 3}, {4, 5, 6}}}",
                                   "f32[2,1,2] {{{1, 1}}, {{1, -1}}}"}),
            "f32[1,2,2] {{{3, 5}, {-1, -1}}}");
}

TEST(ConvolutionKernelTest, BatchGroups) {
  // batch_group_count=2: output feature 0 reads batch 0 (3 * 10), output
  // feature 1 reads batch 1 (5 * 100).
  const std::string hlo = EntryModule(
      {"f32[2,1]", "f32[1,2]"},
      "ROOT c = f32[1,2] convolution(p0, p1), dim_labels=bf_io->bf, "
      "batch_group_count=2");
  EXPECT_EQ(
      RunToCompactText(hlo, {"f32[2,1] {{3}, {5}}", "f32[1,2] {{10, 100}}"}),
      "f32[1,2] {{30, 500}}");
  // Two batch entries per group: output feature block i reads input batch
  // block i (entries 2i, 2i+1), as the spec's figure slices them.
  const std::string blocks = EntryModule(
      {"f32[4,1]", "f32[1,2]"},
      "ROOT c = f32[2,2] convolution(p0, p1), dim_labels=bf_io->bf, "
      "batch_group_count=2");
  EXPECT_EQ(RunToCompactText(blocks, {"f32[4,1] {{1}, {2}, {3}, {4}}",
                                      "f32[1,2] {{10, 100}}"}),
            "f32[2,2] {{10, 300}, {20, 400}}");
}

TEST(ConvolutionKernelTest, PreferredTypesAndWraparound) {
  // f16 inputs, f32 result: 60000 + 60000 does not overflow.
  EXPECT_EQ(
      RunToCompactText(EntryModule({"f16[1,2]", "f16[2,1]"},
                                   "ROOT c = f32[1,1] convolution(p0, p1), "
                                   "dim_labels=bf_io->bf"),
                       {"f16[1,2] {{60000, 60000}}", "f16[2,1] {{1}, {1}}"}),
      "f32[1,1] {{120000}}");
  // s8 inputs, s8 result: 100 * 100 = 10000 = 39 * 256 + 16.
  EXPECT_EQ(
      RunToCompactText(EntryModule({"s8[1,1]", "s8[1,1]"},
                                   "ROOT c = s8[1,1] convolution(p0, p1), "
                                   "dim_labels=bf_io->bf"),
                       {"s8[1,1] {{100}}", "s8[1,1] {{100}}"}),
      "s8[1,1] {{16}}");
}

// Deterministic pseudo-random integers in [-1000, 1000] as literal text.
std::string RandomLiteral(const std::string& shape, int64_t count,
                          uint64_t seed, const std::vector<int64_t>& dims) {
  std::vector<int64_t> values;
  uint64_t state = seed;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    values.push_back(static_cast<int64_t>((state >> 33) % 2001) - 1000);
  }
  std::string text;
  int64_t at = 0;
  std::function<void(size_t)> nest = [&](size_t d) {
    if (d == dims.size()) {
      absl::StrAppend(&text, values[at++]);
      return;
    }
    text += "{";
    for (int64_t i = 0; i < dims[d]; ++i) {
      if (i > 0) text += ", ";
      nest(d + 1);
    }
    text += "}";
  };
  nest(0);
  return absl::StrCat(shape, " ", text);
}

// The values part of a result text ("s32[..] {values}" -> "{values}").
std::string ValuesOf(const std::string& text) {
  const size_t brace = text.find('{');
  return brace == std::string::npos ? text : text.substr(brace);
}

TEST(ConvolutionKernelTest, OneByOneWindowEqualsDot) {
  // NHWC [2,3,3,4] with a 1x1 kernel [1,1,4,5] is a dot over the feature
  // dim; the dot's [2,3,3,1,1,5] result has the same row-major values.
  const std::string input = RandomLiteral("s32[2,3,3,4]", 72, 3, {2, 3, 3, 4});
  const std::string kernel = RandomLiteral("s32[1,1,4,5]", 20, 5, {1, 1, 4, 5});
  const std::string conv = RunToCompactText(
      EntryModule({"s32[2,3,3,4]", "s32[1,1,4,5]"},
                  "ROOT c = s32[2,3,3,5] convolution(p0, p1), "
                  "window={size=1x1}, dim_labels=b01f_01io->b01f"),
      {input, kernel});
  const std::string dot = RunToCompactText(
      EntryModule({"s32[2,3,3,4]", "s32[1,1,4,5]"},
                  "ROOT d = s32[2,3,3,1,1,5] dot(p0, p1), "
                  "lhs_contracting_dims={3}, rhs_contracting_dims={2}"),
      {input, kernel});
  ASSERT_FALSE(absl::StartsWith(conv, "error")) << conv;
  ASSERT_FALSE(absl::StartsWith(dot, "error")) << dot;
  std::string flat_conv, flat_dot;
  for (char c : ValuesOf(conv)) {
    if (c != '{' && c != '}' && c != ' ' && c != '\n') flat_conv += c;
  }
  for (char c : ValuesOf(dot)) {
    if (c != '{' && c != '}' && c != ' ' && c != '\n') flat_dot += c;
  }
  EXPECT_EQ(flat_conv, flat_dot);
}

// One spatial dimension's window, as the test's direct formula reads it.
struct Dim {
  int64_t size, stride, pad_low, pad_high, lhs_dilate, rhs_dilate;
  bool reverse;
};

int64_t OutSize(int64_t in, const Dim& d) {
  const int64_t padded = (in - 1) * d.lhs_dilate + 1 + d.pad_low + d.pad_high;
  const int64_t span = (d.size - 1) * d.rhs_dilate + 1;
  return padded < span ? 0 : (padded - span) / d.stride + 1;
}

// The input index that output `o`, window `k` read, or -1 (hole/padding):
// the spec's pseudo-code with dilation.
int64_t InputIndex(int64_t o, int64_t k, int64_t in, const Dim& d) {
  const int64_t p = o * d.stride + k * d.rhs_dilate - d.pad_low;
  if (p < 0 || p % d.lhs_dilate != 0 || p / d.lhs_dilate >= in) return -1;
  return p / d.lhs_dilate;
}

// A 2-D b01f_01io->b01f convolution of random s32 data, checked element by
// element against the spec's formula evaluated directly per output.
void CheckAgainstDirectFormula(const Dim& dy, const Dim& dx, int64_t groups,
                               int64_t batch_groups) {
  const int64_t n = 2 * batch_groups, h = 5, w = 6, c = 2 * groups;
  const int64_t cg = c / groups, o = 2 * groups * batch_groups;
  const int64_t oh = OutSize(h, dy), ow = OutSize(w, dx);
  const int64_t on = n / batch_groups;
  const std::string in_shape =
      absl::StrCat("s32[", n, ",", h, ",", w, ",", c, "]");
  const std::string k_shape =
      absl::StrCat("s32[", dy.size, ",", dx.size, ",", cg, ",", o, "]");
  const std::string out_shape =
      absl::StrCat("s32[", on, ",", oh, ",", ow, ",", o, "]");
  const auto window = [&](const Dim& d) {
    return std::vector<int64_t>{d.size,     d.stride,     d.pad_low,
                                d.pad_high, d.lhs_dilate, d.rhs_dilate,
                                d.reverse};
  };
  const std::vector<int64_t> wy = window(dy), wx = window(dx);
  const std::string hlo = EntryModule(
      {in_shape, k_shape},
      absl::StrCat(
          "ROOT c = ", out_shape, " convolution(p0, p1), window={size=", wy[0],
          "x", wx[0], " stride=", wy[1], "x", wx[1], " pad=", wy[2], "_", wy[3],
          "x", wx[2], "_", wx[3], " lhs_dilate=", wy[4], "x", wx[4],
          " rhs_dilate=", wy[5], "x", wx[5], " rhs_reversal=", wy[6], "x",
          wx[6], "}, dim_labels=b01f_01io->b01f, feature_group_count=", groups,
          ", batch_group_count=", batch_groups));
  const int64_t in_count = n * h * w * c;
  const int64_t k_count = dy.size * dx.size * cg * o;
  const std::string input = RandomLiteral(in_shape, in_count, 17, {n, h, w, c});
  const std::string kernel =
      RandomLiteral(k_shape, k_count, 23, {dy.size, dx.size, cg, o});
  absl::StatusOr<Literal> in_lit = eval_test::Run(
      EntryModule({in_shape}, "ROOT t = (" + in_shape + ") tuple(p0)"),
      {input});
  absl::StatusOr<Literal> k_lit = eval_test::Run(
      EntryModule({k_shape}, "ROOT t = (" + k_shape + ") tuple(p0)"), {kernel});
  absl::StatusOr<Literal> result = eval_test::Run(hlo, {input, kernel});
  ASSERT_TRUE(in_lit.ok() && k_lit.ok());
  ASSERT_TRUE(result.ok()) << result.status() << "\n" << hlo;
  const Literal& in_v = in_lit->tuple_elements()[0];
  const Literal& k_v = k_lit->tuple_elements()[0];
  int64_t at = 0;
  for (int64_t b = 0; b < on; ++b) {
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t x = 0; x < ow; ++x) {
        for (int64_t f = 0; f < o; ++f) {
          const int64_t g = f / (o / groups);
          const int64_t in_b = (f / (o / batch_groups)) * on + b;
          int64_t sum = 0;
          for (int64_t ky = 0; ky < dy.size; ++ky) {
            for (int64_t kx = 0; kx < dx.size; ++kx) {
              const int64_t iy = InputIndex(y, ky, h, dy);
              const int64_t ix = InputIndex(x, kx, w, dx);
              if (iy < 0 || ix < 0) continue;
              const int64_t ey = dy.reverse ? dy.size - 1 - ky : ky;
              const int64_t ex = dx.reverse ? dx.size - 1 - kx : kx;
              for (int64_t ci = 0; ci < cg; ++ci) {
                sum += in_v.GetInt64(((in_b * h + iy) * w + ix) * c + g * cg +
                                     ci) *
                       k_v.GetInt64(((ey * dx.size + ex) * cg + ci) * o + f);
              }
            }
          }
          ASSERT_EQ(result->GetInt64(at++), sum) << hlo;
        }
      }
    }
  }
}

TEST(ConvolutionKernelTest, WindowOptionsMatchTheDirectFormula) {
  const Dim plain{3, 1, 0, 0, 1, 1, false};
  CheckAgainstDirectFormula(plain, plain, 1, 1);
  CheckAgainstDirectFormula({3, 2, 1, 2, 1, 1, false}, {2, 3, 2, 0, 1, 1, true},
                            1, 1);
  // Negative padding, lhs and rhs dilation on both dims, reversal.
  CheckAgainstDirectFormula({2, 1, -1, 1, 2, 1, true},
                            {3, 2, 1, -2, 1, 2, false}, 1, 1);
  CheckAgainstDirectFormula({3, 3, 2, 2, 3, 2, false}, {2, 1, 0, 3, 2, 3, true},
                            1, 1);
  // Feature groups and batch groups with dilations.
  CheckAgainstDirectFormula({2, 1, 1, 0, 2, 1, false}, {3, 1, 1, 1, 1, 2, true},
                            2, 1);
  CheckAgainstDirectFormula({2, 2, 0, 1, 1, 2, true}, {2, 1, 1, 1, 2, 1, false},
                            1, 3);
}

TEST(ConvolutionKernelTest, ErrorsNameTheInstruction) {
  const std::string result = RunToCompactText(
      EntryModule({"f32[1,3]", "f32[2,3]"},
                  "ROOT c = f32[1,3] convolution(p0, p1), "
                  "dim_labels=bf_io->bf"),
      {"f32[1,3] {{1, 2, 3}}", "f32[2,3] {{1, 1, 1}, {1, 1, 1}}"});
  EXPECT_TRUE(absl::StrContains(result, "c: ")) << result;
  EXPECT_TRUE(absl::StrContains(result,
                                "kernel input feature size 2 must "
                                "equal input feature size 3"))
      << result;
}

// The benchmark's 3x3 convolution on 1x64x56x56 (64 -> 64 features) gives
// the right values (its speed is measured by //tools/bench:evaluator_bench).
TEST(ConvolutionKernelTest, Conv3x3Benchmark) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(
      EntryModule({"f32[1,64,56,56]", "f32[64,64,3,3]"},
                  "ROOT c = f32[1,64,56,56] convolution(p0, p1), "
                  "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<Literal> input =
      Literal::Create(Shape::Array(ElementType::kF32, {1, 64, 56, 56}));
  absl::StatusOr<Literal> kernel =
      Literal::Create(Shape::Array(ElementType::kF32, {64, 64, 3, 3}));
  ASSERT_TRUE(input.ok() && kernel.ok());
  for (int64_t i = 0; i < input->element_count(); ++i) input->SetDouble(i, 1);
  for (int64_t i = 0; i < kernel->element_count(); ++i) kernel->SetDouble(i, 1);
  const std::vector<Literal> arguments = {*input, *kernel};
  absl::StatusOr<Literal> result = Evaluate(**module, arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  // A corner sees 2x2 inputs per channel, the centre 3x3.
  EXPECT_EQ(result->GetDouble(0), 64.0 * 4);
  EXPECT_EQ(result->GetDouble(56 + 1), 64.0 * 9);
}

}  // namespace
}  // namespace kiln
