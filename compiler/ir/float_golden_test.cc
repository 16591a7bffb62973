// Checks FloatToBits / BitsToFloat against golden data generated from
// ml_dtypes and numpy (tools/gen/gen_float_golden.py; see its header for the
// line format). Per type: every bit pattern's value (V lines), the single
// rounding of tricky doubles (D lines) and of float32 inputs (F lines), and
// XLA's own literal text (T lines) against FloatBitsToString(kXla), which
// must also parse back to the same bits. M (numpy's f64 path) and X (XLA
// CPU's f64 convert) lines only document where those round twice and are not
// checked.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/float_convert.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/literal_text.h"
#include "compiler/ir/shape.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// Mismatches printed per type and line kind before only counting.
constexpr int kMaxReported = 12;

struct GoldenType {
  const char* file;  // testdata/float_golden/<file>.txt
  ElementType type;
};

const GoldenType kGoldenTypes[] = {
    {"bfloat16", ElementType::kBF16},
    {"float16", ElementType::kF16},
    {"float8_e5m2", ElementType::kF8E5M2},
    {"float8_e4m3", ElementType::kF8E4M3},
    {"float8_e4m3fn", ElementType::kF8E4M3FN},
    {"float8_e4m3b11fnuz", ElementType::kF8E4M3B11FNUZ},
    {"float8_e3m4", ElementType::kF8E3M4},
    {"float8_e5m2fnuz", ElementType::kF8E5M2FNUZ},
    {"float8_e4m3fnuz", ElementType::kF8E4M3FNUZ},
    {"float4_e2m1fn", ElementType::kF4E2M1FN},
    {"float8_e8m0fnu", ElementType::kF8E8M0FNU},
    {"float6_e3m2fn", ElementType::kF6E3M2FN},
    {"float6_e2m3fn", ElementType::kF6E2M3FN},
    {"float32", ElementType::kF32},  // T lines only.
    {"float64", ElementType::kF64},  // T lines only.
};

std::string GoldenPath(const char* file) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  const std::string relative =
      absl::StrCat("compiler/ir/testdata/float_golden/", file, ".txt");
  if (srcdir == nullptr) return relative;
  return absl::StrCat(srcdir, "/", workspace == nullptr ? "kiln" : workspace,
                      "/", relative);
}

double DoubleFromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint64_t BitsOfDouble(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

double DoubleFromFloatBits(uint64_t bits) {
  const uint32_t narrow = static_cast<uint32_t>(bits);
  float value;
  std::memcpy(&value, &narrow, sizeof(value));
  return value;
}

// Counts and describes the mismatches of one line kind.
struct MismatchLog {
  std::string kind;
  int count = 0;
  std::string first;

  void Add(const std::string& description) {
    if (++count <= kMaxReported) {
      absl::StrAppend(&first, "  ", description, "\n");
    }
  }
  std::string Summary(const char* type) const {
    return absl::StrCat(type, ": ", count, " ", kind, " mismatches\n", first,
                        count > kMaxReported ? "  ...\n" : "");
  }
};

std::string DescribeDouble(double value) {
  return absl::StrFormat("%a (%016x)", value, BitsOfDouble(value));
}

// V <bits> <f64 hex | nan | -nan>: BitsToFloat must give exactly that double
// (NaN: any NaN).
void CheckValue(ElementType type, uint64_t bits, const std::string& expected,
                MismatchLog* log) {
  const double got = BitsToFloat(type, bits);
  if (expected == "nan" || expected == "-nan") {
    if (!std::isnan(got)) {
      log->Add(absl::StrFormat("bits %x: expected %s, got %s", bits, expected,
                               DescribeDouble(got)));
    }
    return;
  }
  const uint64_t want = std::strtoull(expected.c_str(), nullptr, 16);
  if (BitsOfDouble(got) != want) {
    log->Add(absl::StrFormat("bits %x: expected %s, got %s", bits,
                             DescribeDouble(DoubleFromBits(want)),
                             DescribeDouble(got)));
  }
}

void CheckRounding(ElementType type, double input, uint64_t expected,
                   MismatchLog* log) {
  const uint64_t got = FloatToBits(type, input);
  if (got != expected) {
    log->Add(absl::StrFormat("input %s: expected bits %x, got %x",
                             DescribeDouble(input), expected, got));
  }
}

// T <bits> <text>: XLA spells the value `text`, and `text` reads back as
// `bits`.
// XLA's kXla spelling must match, except where XLA's own text is lossy
// (does not read back to the value it printed, e.g. f8e8m0fnu 2^-127 printed
// as "5.9e-39", which reads back as 2^-126): there Kiln prints the digits
// needed to read back, and the test checks that instead. docs/choices.md.
void CheckText(ElementType type, uint64_t bits, const std::string& expected,
               MismatchLog* log) {
  const std::string got = FloatBitsToString(type, bits, FloatTextStyle::kXla);
  size_t consumed = 0;
  size_t error_offset = 0;
  absl::StatusOr<Literal> parsed = ParseLiteralValue(
      Shape::Scalar(type), expected, &consumed, &error_offset);
  if (!parsed.ok()) {
    log->Add(absl::StrFormat("\"%s\" does not parse: %s", expected,
                             parsed.status().ToString()));
    return;
  }
  const bool xla_is_lossy = parsed->GetBits(0) != bits;
  if (!xla_is_lossy && got != expected) {
    log->Add(absl::StrFormat("bits %x: XLA prints \"%s\", kXla style \"%s\"",
                             bits, expected, got));
  }
  if (xla_is_lossy) {
    absl::StatusOr<Literal> ours =
        ParseLiteralValue(Shape::Scalar(type), got, &consumed, &error_offset);
    if (!ours.ok() || ours->GetBits(0) != bits) {
      log->Add(
          absl::StrFormat("bits %x: \"%s\" does not read back", bits, got));
    }
  }
}

// One golden line: tag, input bits and the expected field.
struct GoldenLine {
  std::string tag;
  uint64_t input;
  std::string expected;
};

std::vector<GoldenLine> ReadGolden(const char* file) {
  std::vector<GoldenLine> lines;
  std::ifstream in(GoldenPath(file));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    GoldenLine golden;
    std::string input;
    if (!(fields >> golden.tag >> input >> golden.expected) ||
        golden.tag[0] == '#') {
      continue;
    }
    golden.input = std::strtoull(input.c_str(), nullptr, 16);
    lines.push_back(std::move(golden));
  }
  return lines;
}

class FloatGoldenTest : public ::testing::TestWithParam<GoldenType> {};

// V, D and F lines: FloatToBits / BitsToFloat.
TEST_P(FloatGoldenTest, ConvertsLikeMlDtypes) {
  const GoldenType& golden = GetParam();
  const int bit_width = GetElementTypeInfo(golden.type).bit_width;
  if (bit_width > 16) GTEST_SKIP() << golden.file << " has text lines only";
  const std::vector<GoldenLine> lines = ReadGolden(golden.file);
  ASSERT_FALSE(lines.empty()) << "cannot read " << GoldenPath(golden.file);
  MismatchLog values{"V (BitsToFloat)", 0, ""};
  MismatchLog doubles{"D (FloatToBits from f64)", 0, ""};
  MismatchLog floats{"F (FloatToBits from f32)", 0, ""};
  int value_lines = 0;
  int rounding_lines = 0;
  for (const GoldenLine& line : lines) {
    const uint64_t expected = std::strtoull(line.expected.c_str(), nullptr, 16);
    if (line.tag == "V") {
      ++value_lines;
      CheckValue(golden.type, line.input, line.expected, &values);
    } else if (line.tag == "D") {
      ++rounding_lines;
      CheckRounding(golden.type, DoubleFromBits(line.input), expected,
                    &doubles);
    } else if (line.tag == "F") {
      ++rounding_lines;
      CheckRounding(golden.type, DoubleFromFloatBits(line.input), expected,
                    &floats);
    }
  }
  EXPECT_EQ(value_lines, 1 << bit_width) << golden.file;
  EXPECT_GT(rounding_lines, 0) << golden.file;
  for (const MismatchLog* log : {&values, &doubles, &floats}) {
    EXPECT_EQ(log->count, 0) << log->Summary(golden.file);
  }
}

// T lines: FloatBitsToString(kXla) spells values exactly as XLA does, and
// XLA's spelling parses back to the same bits. Run by the separate target
// float_text_golden_test (see BUILD).
TEST_P(FloatGoldenTest, PrintsLikeXla) {
  const GoldenType& golden = GetParam();
  MismatchLog texts{"T (XLA literal text)", 0, ""};
  int text_lines = 0;
  for (const GoldenLine& line : ReadGolden(golden.file)) {
    if (line.tag != "T") continue;
    ++text_lines;
    CheckText(golden.type, line.input, line.expected, &texts);
  }
  // XLA cannot lower f6 constants, so their files have no T lines.
  if (text_lines == 0) GTEST_SKIP() << "no XLA text for " << golden.file;
  EXPECT_EQ(texts.count, 0) << texts.Summary(golden.file);
}

INSTANTIATE_TEST_SUITE_P(AllNarrowFloats, FloatGoldenTest,
                         ::testing::ValuesIn(kGoldenTypes),
                         [](const ::testing::TestParamInfo<GoldenType>& info) {
                           return std::string(info.param.file);
                         });

}  // namespace
}  // namespace kiln
