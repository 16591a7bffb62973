// fft against numpy's pocketfft (tools/gen/linalg_fft_golden.py prints the
// values below): lengths that are not powers of two, IFFT's scaling, and a
// 3-D RFFT / FFT / IRFFT.
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;

const std::complex<double> kFft7In[] = {{3.0, 0.0}, {-1.0, 2.0}, {4.0, -6.0},
                                        {1.0, 5.0}, {-5.0, 3.0}, {9.0, -5.0},
                                        {2.0, 8.0}};
const std::complex<double> kFft7Out[] = {
    {13.0, 7.0},
    {-0.46355619671856285, 6.091708922495299},
    {-18.40842212303214, 18.119720557999194},
    {11.222867164212703, -26.105317639199193},
    {10.966097419960045, -9.191170303042357},
    {-4.449728725213253, 7.227012686467476},
    {9.13274246079121, -3.1419542247204193}};
const std::complex<double> kIfft7Out[] = {
    {1.857142857142857, 1.0},
    {1.3046774943987443, -0.4488506035314884},
    {-0.6356755321733218, 1.032430383781068},
    {1.5665853457085777, -1.313024329006051},
    {1.6032667377446717, -3.72933109131417},
    {-2.629774589004591, 2.588531508285599},
    {-0.06622231381693755, 0.8702441317850427}};
const double kReal3d[] = {1, 2, 0, -3, 4,  5, -1, 2, 2, 0, 3,  3, -4, 1, 1,
                          0, 1, 7, -2, -2, 1, 1,  1, 1, 9, -6, 0, 2,  5, 3};
const std::complex<double> kRfft3dOut[] = {
    {37.0, 0.0},
    {0.781152949374528, 6.208367637486489},
    {-9.281152949374526, 9.094293335812871},
    {-6.5, -11.258330249197702},
    {3.5168171447296377, -22.039106364726003},
    {11.661408512011672, 4.761989516692107},
    {-6.5, 11.258330249197702},
    {-1.5168171447296375, -8.182699904174983},
    {-9.661408512011672, 18.618395977243125},
    {-5.0, 0.0},
    {26.017220926874316, -1.955113595726289},
    {11.482779073125684, -11.722948896408539},
    {2.5, 4.330127018922193},
    {-1.221080218003759, 29.349624998253496},
    {-15.815067623816748, -5.57846782595862},
    {2.5, -4.330127018922193},
    {4.109624038002077, -2.548529116835388},
    {-17.07347619618157, 8.999178213441494}};
const std::complex<double> kFft3dOut[] = {
    {37.0, 0.0},
    {0.781152949374528, 6.208367637486489},
    {-9.281152949374526, 9.094293335812871},
    {-9.281152949374526, -9.094293335812871},
    {0.781152949374528, -6.208367637486489},
    {-6.5, -11.258330249197702},
    {3.5168171447296377, -22.039106364726003},
    {11.661408512011672, 4.761989516692107},
    {-9.661408512011672, -18.618395977243125},
    {-1.5168171447296375, 8.182699904174983},
    {-6.5, 11.258330249197702},
    {-1.5168171447296375, -8.182699904174983},
    {-9.661408512011672, 18.618395977243125},
    {11.661408512011672, -4.761989516692107},
    {3.5168171447296377, 22.039106364726003},
    {-5.0, 0.0},
    {26.017220926874316, -1.955113595726289},
    {11.482779073125684, -11.722948896408539},
    {11.482779073125684, 11.722948896408539},
    {26.017220926874316, 1.955113595726289},
    {2.5, 4.330127018922193},
    {-1.221080218003759, 29.349624998253496},
    {-15.815067623816748, -5.57846782595862},
    {-17.07347619618157, -8.999178213441494},
    {4.109624038002077, 2.548529116835388},
    {2.5, -4.330127018922193},
    {4.109624038002077, -2.548529116835388},
    {-17.07347619618157, 8.999178213441494},
    {-15.815067623816748, 5.57846782595862},
    {-1.221080218003759, -29.349624998253496}};

// "c128[..] {{(re, im), ...}}": `values` nested as `dims`.
std::string ComplexText(const std::string& shape,
                        const std::vector<int64_t>& dims,
                        const std::complex<double>* values) {
  std::string text;
  int64_t at = 0;
  std::function<void(size_t)> nest = [&](size_t d) {
    if (d == dims.size()) {
      // %.17g: the text must give back the exact double.
      absl::StrAppend(&text,
                      absl::StrFormat("(%.17g, %.17g)", values[at].real(),
                                      values[at].imag()));
      ++at;
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
  return shape + " " + text;
}

std::vector<std::complex<double>> Complexes(const Literal& literal) {
  std::vector<std::complex<double>> values;
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    values.push_back(literal.GetComplex(i));
  }
  return values;
}

void ExpectNear(const std::vector<std::complex<double>>& actual,
                const std::complex<double>* expected, size_t count,
                double tolerance) {
  ASSERT_EQ(actual.size(), count);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_NEAR(actual[i].real(), expected[i].real(), tolerance) << i;
    EXPECT_NEAR(actual[i].imag(), expected[i].imag(), tolerance) << i;
  }
}

TEST(FftNumpyTest, LengthSeven) {
  const std::string in = ComplexText("c128[7]", {7}, kFft7In);
  for (const bool inverse : {false, true}) {
    absl::StatusOr<Literal> out = eval_test::Run(
        EntryModule({"c128[7]"},
                    absl::StrCat("ROOT f = c128[7] fft(p0), "
                                 "fft_type=",
                                 inverse ? "IFFT" : "FFT", ", fft_length={7}")),
        {in});
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(Complexes(*out), inverse ? kIfft7Out : kFft7Out, 7, 1e-13);
  }
  // c64 computes in double too and rounds once: within a float ulp or so.
  absl::StatusOr<Literal> single = eval_test::Run(
      EntryModule({"c64[7]"},
                  "ROOT f = c64[7] fft(p0), fft_type=FFT, fft_length={7}"),
      {ComplexText("c64[7]", {7}, kFft7In)});
  ASSERT_TRUE(single.ok()) << single.status();
  ExpectNear(Complexes(*single), kFft7Out, 7, 4e-6);
}

TEST(FftNumpyTest, ThreeDimensional) {
  std::vector<std::complex<double>> real_as_complex;
  std::string real_text = "f64[2,3,5] {";
  for (int i = 0; i < 30; ++i) {
    real_as_complex.push_back(kReal3d[i]);
    const bool open = i % 15 == 0, row = i % 5 == 0;
    if (i > 0) real_text += row ? (open ? "}}, " : "}, ") : ", ";
    if (open) real_text += "{";
    if (row) real_text += "{";
    absl::StrAppend(&real_text, kReal3d[i]);
  }
  real_text += "}}}";
  absl::StatusOr<Literal> rfft =
      eval_test::Run(EntryModule({"f64[2,3,5]"},
                                 "ROOT f = c128[2,3,3] fft(p0), "
                                 "fft_type=RFFT, fft_length={2,3,5}"),
                     {real_text});
  ASSERT_TRUE(rfft.ok()) << rfft.status();
  ExpectNear(Complexes(*rfft), kRfft3dOut, 18, 1e-12);
  absl::StatusOr<Literal> fft = eval_test::Run(
      EntryModule({"c128[2,3,5]"},
                  "ROOT f = c128[2,3,5] fft(p0), "
                  "fft_type=FFT, fft_length={2,3,5}"),
      {ComplexText("c128[2,3,5]", {2, 3, 5}, real_as_complex.data())});
  ASSERT_TRUE(fft.ok()) << fft.status();
  ExpectNear(Complexes(*fft), kFft3dOut, 30, 1e-12);
  // IRFFT of numpy's RFFT gives the real input back.
  absl::StatusOr<Literal> back =
      eval_test::Run(EntryModule({"c128[2,3,3]"},
                                 "ROOT f = f64[2,3,5] fft(p0), "
                                 "fft_type=IRFFT, fft_length={2,3,5}"),
                     {ComplexText("c128[2,3,3]", {2, 3, 3}, kRfft3dOut)});
  ASSERT_TRUE(back.ok()) << back.status();
  for (int i = 0; i < 30; ++i) {
    EXPECT_NEAR(back->GetDouble(i), kReal3d[i], 1e-12) << i;
  }
}

}  // namespace
}  // namespace kiln
