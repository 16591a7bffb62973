#include "tools/cli/npy.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::cli {
namespace {

// A .npy file as NumPy 1.x writes it: version 1.0, header padded with
// blanks to a multiple of 64 bytes and ended by a newline. The bytes below
// are built by hand from the format description, independently of
// SerializeNpy.
std::string NpyFile(absl::string_view header, absl::string_view data,
                    int major = 1) {
  std::string padded(header);
  const size_t preamble = major == 1 ? 10 : 12;
  while ((preamble + padded.size() + 1) % 64 != 0) padded.push_back(' ');
  padded.push_back('\n');
  std::string file = "\x93NUMPY";
  file.push_back(static_cast<char>(major));
  file.push_back(0);
  file.push_back(static_cast<char>(padded.size() & 0xff));
  file.push_back(static_cast<char>(padded.size() >> 8));
  if (major != 1) file.append(2, '\0');
  return absl::StrCat(file, padded, data);
}

std::string Text(const Literal& literal) {
  return absl::StrCat(literal.shape().ToString(false), " ",
                      LiteralValueToString(literal));
}

Literal Parse(absl::string_view text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  EXPECT_TRUE(literal.ok()) << literal.status();
  return literal.ok() ? *std::move(literal) : Literal();
}

TEST(NpyTest, ReadsFloat32Matrix) {
  // 1, 2, 3, 4, 5, 6 as little-endian IEEE single precision.
  const std::string data(
      "\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40"
      "\x00\x00\x80\x40\x00\x00\xa0\x40\x00\x00\xc0\x40",
      24);
  absl::StatusOr<Literal> literal = ParseNpy(NpyFile(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data));
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(Text(*literal), "f32[2,3] { { 1, 2, 3 }, { 4, 5, 6 } }");
}

TEST(NpyTest, ReadsFortranOrderBigEndianAndVersion2) {
  // int16 [[1, 2, 3], [4, 5, 6]] stored column by column, big-endian.
  const std::string data("\x00\x01\x00\x04\x00\x02\x00\x05\x00\x03\x00\x06",
                         12);
  absl::StatusOr<Literal> literal = ParseNpy(NpyFile(
      "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }", data, 2));
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(Text(*literal), "s16[2,3] { { 1, 2, 3 }, { 4, 5, 6 } }");
}

TEST(NpyTest, ReadsScalarsBoolsAndComplex) {
  absl::StatusOr<Literal> scalar = ParseNpy(
      NpyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
              std::string("\xff\xff\xff\xff\xff\xff\xff\xff", 8)));
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(Text(*scalar), "s64[] -1");

  absl::StatusOr<Literal> bools = ParseNpy(
      NpyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
              std::string("\x01\x00\x01", 3)));
  ASSERT_TRUE(bools.ok()) << bools.status();
  EXPECT_EQ(Text(*bools), "pred[3] {1, 0, 1}");

  // complex64 (1.5 - 2j): real part first.
  absl::StatusOr<Literal> complex = ParseNpy(
      NpyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
              std::string("\x00\x00\xc0\x3f\x00\x00\x00\xc0", 8)));
  ASSERT_TRUE(complex.ok()) << complex.status();
  EXPECT_EQ(Text(*complex), "c64[1] {(1.5, -2)}");
}

TEST(NpyTest, ReadsRawDtypesAsTheGivenType) {
  // ml_dtypes saves bfloat16 as '<V2' (recorded from np.save of an
  // ml_dtypes.bfloat16 array): 0x3fc0 is 1.5.
  const std::string file =
      NpyFile("{'descr': '<V2', 'fortran_order': False, 'shape': (1,), }",
              std::string("\xc0\x3f", 2));
  NpyReadOptions options;
  options.raw_type = ElementType::kBF16;
  absl::StatusOr<Literal> literal = ParseNpy(file, options);
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(Text(*literal), "bf16[1] {1.5}");

  EXPECT_EQ(ParseNpy(file).status().message(),
            "raw dtype '<V2' (as ml_dtypes saves bfloat16, float8 and int4 "
            "arrays) cannot be read as an unknown type");
  options.raw_type = ElementType::kF32;
  EXPECT_EQ(ParseNpy(file, options).status().message(),
            "raw dtype '<V2' (as ml_dtypes saves bfloat16, float8 and int4 "
            "arrays) cannot be read as f32");
  options.raw_type = ElementType::kF8E4M3FN;  // one byte, not two
  EXPECT_FALSE(ParseNpy(file, options).ok());

  // ml_dtypes.int4 [1, -1] saves as '<V1' bytes 01 0f: the bit pattern in
  // the low bits, as Kiln stores s4.
  options.raw_type = ElementType::kS4;
  absl::StatusOr<Literal> int4 = ParseNpy(
      NpyFile("{'descr': '<V1', 'fortran_order': False, 'shape': (2,), }",
              std::string("\x01\x0f", 2)),
      options);
  ASSERT_TRUE(int4.ok()) << int4.status();
  EXPECT_EQ(Text(*int4), "s4[2] {1, -1}");
  absl::StatusOr<std::string> written = SerializeNpy(*int4);
  ASSERT_TRUE(written.ok());
  EXPECT_NE(written->find("'descr': '<V1'"), std::string::npos);
}

TEST(NpyTest, RoundTripsEveryArrayType) {
  const char* literals[] = {
      "pred[2] {1, 0}",
      "s8[2] {-128, 127}",
      "s16[2] {-32768, 7}",
      "s32[2,2] {{-2147483648, 1}, {2, 2147483647}}",
      "s64[1] {-9223372036854775808}",
      "u8[2] {0, 255}",
      "u16[1] {65535}",
      "u32[1] {4294967295}",
      "u64[1] {18446744073709551615}",
      "f16[3] {1, -inf, 65504}",
      "f32[3] {0.1, -0, nan}",
      "f64[2] {1e-300, 2.5}",
      "c64[1] {(1, -1)}",
      "c128[1] {(0.5, 3)}",
      "bf16[2] {1.5, -inf}",
      "f8e4m3fn[2] {448, -0.5}",
      "s4[3] {-8, 7, -1}",
      "u2[2] {3, 1}",
      "f32[0] {}",
      "f32[] 42",
  };
  for (const char* text : literals) {
    SCOPED_TRACE(text);
    Literal literal = Parse(text);
    absl::StatusOr<std::string> bytes = SerializeNpy(literal);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    // The header is padded so the data starts at a multiple of 64 bytes.
    EXPECT_EQ((bytes->size() - literal.data().size()) % 64, 0u);
    NpyReadOptions options;
    options.raw_type = literal.element_type();
    absl::StatusOr<Literal> back = ParseNpy(*bytes, options);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(*back == literal) << Text(*back);
  }
}

TEST(NpyTest, WritesAnAlignedVersion1Header) {
  absl::StatusOr<std::string> bytes =
      SerializeNpy(Parse("f32[2,3] {{1, 2, 3}, {4, 5, 6}}"));
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  // 10 bytes of preamble + 118 of header = 128, then 6 floats.
  ASSERT_EQ(bytes->size(), 128u + 24u);
  EXPECT_EQ(bytes->substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(bytes->substr(10, 118),
            absl::StrCat(dict, std::string(118 - dict.size() - 1, ' '), "\n"));
  EXPECT_EQ(bytes->substr(128, 4), std::string("\x00\x00\x80\x3f", 4));

  absl::StatusOr<std::string> vector = SerializeNpy(Parse("u8[5] {1,2,3,4,5}"));
  ASSERT_TRUE(vector.ok());
  EXPECT_NE(vector->find("{'descr': '|u1', 'fortran_order': False, "
                         "'shape': (5,), }"),
            std::string::npos);
}

TEST(NpyTest, RefusesBadFilesClearly) {
  EXPECT_EQ(ParseNpy("hello").status().message(),
            "not a .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(ParseNpy(NpyFile("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (2,), }",
                             std::string(4, '\0')))
                .status()
                .message(),
            "bad .npy file: 4 bytes of data for shape (2,) of <f4, expected 8");
  EXPECT_EQ(ParseNpy(NpyFile("{'descr': [('a', '<f4')], 'fortran_order': "
                             "False, 'shape': (1,), }",
                             std::string(4, '\0')))
                .status()
                .message(),
            "bad .npy file: structured dtypes (a list as descr) are not "
            "supported");
  EXPECT_EQ(ParseNpy(NpyFile("{'descr': '<U3', 'fortran_order': False, "
                             "'shape': (1,), }",
                             std::string(12, '\0')))
                .status()
                .message(),
            "unsupported dtype '<U3' (supported: bool, int8..int64, "
            "uint8..uint64, float16/32/64, complex64/128, and raw V1/V2 for "
            "ml_dtypes types)");
  EXPECT_EQ(ParseNpy(NpyFile("{'descr': '<f4', 'shape': (1,), }",
                             std::string(4, '\0')))
                .status()
                .message(),
            "bad .npy file: the header lacks descr, fortran_order or shape");
  // A header length beyond the end of the file.
  std::string truncated = NpyFile(
      "{'descr': '<f4', 'fortran_order': False, "
      "'shape': (1,), }",
      "");
  truncated.resize(20);
  EXPECT_EQ(ParseNpy(truncated).status().message(),
            "bad .npy file: truncated header");
  // A shape too large to allocate is refused before allocating.
  NpyReadOptions small;
  small.max_bytes = 1000;
  EXPECT_EQ(ParseNpy(NpyFile("{'descr': '<f8', 'fortran_order': False, "
                             "'shape': (1000000, 1000000), }",
                             ""),
                     small)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE(SerializeNpy(Parse("(f32[], s32[]) (1, 2)")).ok());
}

}  // namespace
}  // namespace kiln::cli
