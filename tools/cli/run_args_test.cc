#include "tools/cli/run_args.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"
#include "tools/cli/npy.h"

namespace kiln::cli {
namespace {

std::string Text(const Literal& literal) {
  return absl::StrCat(literal.shape().ToString(false), " ",
                      LiteralValueToString(literal));
}

Shape ParsedShape(absl::string_view text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return shape.ok() ? *shape : Shape();
}

std::string TempPath(absl::string_view name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return absl::StrCat(directory != nullptr ? directory : "/tmp", "/", name);
}

void WriteFile(const std::string& path, absl::string_view text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::fwrite(text.data(), 1, text.size(), file);
  std::fclose(file);
}

TEST(SplitArgsFlagTest, SplitsAtSemicolonsAndTrims) {
  EXPECT_EQ(SplitArgsFlag("f32[2] {1, 2};  s32[] 3 "),
            (std::vector<std::string>{"f32[2] {1, 2}", "s32[] 3"}));
  EXPECT_EQ(SplitArgsFlag("(f32[], s32[2]) (1, {2, 3})"),
            (std::vector<std::string>{"(f32[], s32[2]) (1, {2, 3})"}));
  EXPECT_TRUE(SplitArgsFlag("  ").empty());
  // An empty item stays, so that the parser reports it.
  EXPECT_EQ(SplitArgsFlag("s32[] 1;"),
            (std::vector<std::string>{"s32[] 1", ""}));
}

TEST(SplitArgsFileTest, OnePerLineOrBlocksSeparatedByBlankLines) {
  EXPECT_EQ(SplitArgsFile("f32[2] {1, 2}\ns32[] 3\n"),
            (std::vector<std::string>{"f32[2] {1, 2}", "s32[] 3"}));
  EXPECT_EQ(
      SplitArgsFile("# weights\nf32[2,2] {\n  {1, 2},\n  {3, 4}\n}\n"
                    "\n\ns32[] 3\n"),
      (std::vector<std::string>{"f32[2,2] {\n{1, 2},\n{3, 4}\n}", "s32[] 3"}));
  EXPECT_EQ(SplitArgsFile("@a.npy\nb.npy"),
            (std::vector<std::string>{"@a.npy", "b.npy"}));
  EXPECT_TRUE(SplitArgsFile("\n# nothing\n\n").empty());
}

TEST(ItemToLiteralTest, ParsesLiteralsAndReadsFiles) {
  const Shape f32x2 = ParsedShape("f32[2]");
  absl::StatusOr<Literal> literal = ItemToLiteral("f32[2]{1,2}", f32x2);
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(Text(*literal), "f32[2] {1, 2}");

  const std::string npy = TempPath("item.npy");
  ASSERT_TRUE(WriteNpyFile(npy, *literal).ok());
  for (const std::string& item : {npy, absl::StrCat("@", npy)}) {
    absl::StatusOr<Literal> read = ItemToLiteral(item, f32x2);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(Text(*read), "f32[2] {1, 2}");
  }

  const std::string text_file = TempPath("item.txt");
  WriteFile(text_file, "s32[3] {7, 8, 9}\n");
  absl::StatusOr<Literal> from_text =
      ItemToLiteral(absl::StrCat("@", text_file), ParsedShape("s32[3]"));
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  EXPECT_EQ(Text(*from_text), "s32[3] {7, 8, 9}");

  EXPECT_FALSE(ItemToLiteral("f32[2] {1, 2, 3}", f32x2).ok());
  absl::StatusOr<Literal> missing = ItemToLiteral("/nonexistent/x.npy", f32x2);
  EXPECT_EQ(missing.status().message(),
            "/nonexistent/x.npy: error: cannot open: No such file or "
            "directory");
}

TEST(RandomLiteralTest, IsDeterministicAndInRange) {
  std::mt19937_64 first(7), second(7), other(8);
  const Shape shape = ParsedShape("f32[1000]");
  absl::StatusOr<Literal> a = RandomLiteral(shape, first);
  absl::StatusOr<Literal> b = RandomLiteral(shape, second);
  absl::StatusOr<Literal> c = RandomLiteral(shape, other);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_TRUE(*a == *b);
  EXPECT_FALSE(*a == *c);
  bool negative = false, positive = false;
  for (int64_t i = 0; i < a->element_count(); ++i) {
    const double v = a->GetDouble(i);
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    negative |= v < 0;
    positive |= v > 0;
  }
  EXPECT_TRUE(negative && positive);
}

TEST(RandomLiteralTest, UsesSmallRangesPerType) {
  std::mt19937_64 generator(1);
  struct Case {
    const char* shape;
    int64_t low, high;
  };
  for (const Case& c : {Case{"s32[500]", -10, 10}, Case{"u8[500]", 0, 10},
                        Case{"s4[500]", -8, 7}, Case{"s2[500]", -2, 1},
                        Case{"u1[500]", 0, 1}, Case{"pred[500]", 0, 1}}) {
    SCOPED_TRACE(c.shape);
    absl::StatusOr<Literal> literal =
        RandomLiteral(ParsedShape(c.shape), generator);
    ASSERT_TRUE(literal.ok()) << literal.status();
    int64_t low = c.high, high = c.low;
    for (int64_t i = 0; i < literal->element_count(); ++i) {
      low = std::min(low, literal->GetInt64(i));
      high = std::max(high, literal->GetInt64(i));
    }
    // 500 draws reach both ends of these small ranges.
    EXPECT_EQ(low, c.low);
    EXPECT_EQ(high, c.high);
  }
  absl::StatusOr<Literal> bf16 =
      RandomLiteral(ParsedShape("bf16[100]"), generator);
  ASSERT_TRUE(bf16.ok());
  for (int64_t i = 0; i < bf16->element_count(); ++i) {
    EXPECT_LE(std::abs(bf16->GetDouble(i)), 1.0);
  }
}

TEST(RandomLiteralTest, HandlesTuplesTokensAndDynamicShapes) {
  std::mt19937_64 generator(3);
  absl::StatusOr<Literal> literal =
      RandomLiteral(ParsedShape("(f32[<=3], token[], c64[2])"), generator);
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(literal->shape().ToString(false), "(f32[3], token[], c64[2])");
}

TEST(BuildArgumentsTest, ItemsPerParameterOrPerDevice) {
  const std::vector<Shape> parameters = {ParsedShape("f32[2]"),
                                         ParsedShape("s32[]")};
  ArgumentSources sources;
  sources.args = "f32[2] {1, 2}; s32[] 3";
  sources.device_count = 2;
  absl::StatusOr<std::vector<std::vector<Literal>>> shared =
      BuildArguments(sources, parameters);
  ASSERT_TRUE(shared.ok()) << shared.status();
  ASSERT_EQ(shared->size(), 2u);
  EXPECT_EQ(Text((*shared)[1][1]), "s32[] 3");

  sources.args = "f32[2] {1, 2}; s32[] 3; f32[2] {5, 6}; s32[] 7";
  absl::StatusOr<std::vector<std::vector<Literal>>> per_device =
      BuildArguments(sources, parameters);
  ASSERT_TRUE(per_device.ok()) << per_device.status();
  EXPECT_EQ(Text((*per_device)[0][0]), "f32[2] {1, 2}");
  EXPECT_EQ(Text((*per_device)[1][0]), "f32[2] {5, 6}");
  EXPECT_EQ(Text((*per_device)[1][1]), "s32[] 7");

  sources.args = "f32[2] {1, 2}";
  EXPECT_EQ(BuildArguments(sources, parameters).status().message(),
            "the entry computation takes 2 parameters but 1 argument was "
            "given (give 2, or 4: one per parameter for each of 2 devices)");
  sources.args = "f32[2] {1, 2}; s32[] x";
  EXPECT_EQ(
      BuildArguments(sources, parameters).status().message().substr(0, 12),
      "argument 1: ");
}

TEST(BuildArgumentsTest, RandomArgumentsKeepDeviceZeroStable) {
  const std::vector<Shape> parameters = {ParsedShape("f32[4]")};
  ArgumentSources one;
  one.random_seed = 5;
  ArgumentSources two = one;
  two.device_count = 2;
  absl::StatusOr<std::vector<std::vector<Literal>>> a =
      BuildArguments(one, parameters);
  absl::StatusOr<std::vector<std::vector<Literal>>> b =
      BuildArguments(two, parameters);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE((*a)[0][0] == (*b)[0][0]);
  EXPECT_FALSE((*b)[0][0] == (*b)[1][0]);
}

TEST(BuildArgumentsTest, RefusesSeveralOrMissingSources) {
  const std::vector<Shape> parameters = {ParsedShape("f32[]")};
  ArgumentSources both;
  both.args = "f32[] 1";
  both.random_seed = 1;
  EXPECT_EQ(BuildArguments(both, parameters).status().message(),
            "give at most one of --args, --args_file and --random_args");
  EXPECT_EQ(BuildArguments({}, parameters).status().message(),
            "the entry computation takes 1 parameter; give them with --args, "
            "--args_file or --random_args");
  absl::StatusOr<std::vector<std::vector<Literal>>> none =
      BuildArguments({}, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->size(), 1u);
  EXPECT_TRUE((*none)[0].empty());
}

TEST(BuildArgumentsTest, ReadsArgsFiles) {
  const std::string path = TempPath("args.txt");
  WriteFile(path, "f32[2] {\n  1,\n  2\n}\n\ns32[] 3\n");
  ArgumentSources sources;
  sources.args_file = path;
  absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
      BuildArguments(sources, {ParsedShape("f32[2]"), ParsedShape("s32[]")});
  ASSERT_TRUE(arguments.ok()) << arguments.status();
  EXPECT_EQ(Text((*arguments)[0][0]), "f32[2] {1, 2}");
  EXPECT_EQ(Text((*arguments)[0][1]), "s32[] 3");
}

}  // namespace
}  // namespace kiln::cli
