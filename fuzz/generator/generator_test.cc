#include "fuzz/generator/generator.h"

#include <filesystem>
#include <set>
#include <string>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "fuzz/generator/coverage.h"
#include "fuzz/generator/decisions.h"
#include "fuzz/generator/inputs.h"
#include "fuzz/generator/ops.h"
#include "gtest/gtest.h"

namespace kiln::fuzzgen {
namespace {

constexpr int kSeeds = 300;
// Seeds 0..3 (GoldenHashes).
constexpr char kGolden[] =
    "0:1656731825853412936 1:5765094096573832411 2:12943741215238008157 "
    "3:2343098312457790413 ";

TEST(DecisionsTest, SplitMix64IsTheReferenceStream) {
  // The first outputs of SplitMix64 seeded with 0 (Vigna's reference code).
  SplitMix64Source source(0);
  EXPECT_EQ(source.Next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(source.Next(), 0x6e789e6aa1b965f4ULL);
}

TEST(DecisionsTest, BytesPastTheEndAreZero) {
  const uint8_t bytes[] = {1, 2};
  ByteSource source(bytes);
  EXPECT_EQ(source.Next(), 0x0201u);
  EXPECT_TRUE(source.exhausted());
  EXPECT_EQ(source.Next(), 0u);
  EXPECT_EQ(source.Below(7), 0u);
}

// The printed modules of a few seeds, hashed with a fixed function (FNV-1a)
// so the value is the same on every machine: the generator must not
// change what a seed makes by accident (a finding's seed must replay).
uint64_t Fnv1a(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char ch : text) {
    hash ^= ch;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

TEST(GeneratorTest, SameSeedSameModule) {
  for (uint64_t seed : {0, 1, 7, 12345}) {
    absl::StatusOr<GeneratedModule> a = Generate(seed, GeneratorOptions());
    absl::StatusOr<GeneratedModule> b = Generate(seed, GeneratorOptions());
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(PrintModule(*a->module), PrintModule(*b->module));
    ASSERT_EQ(a->arguments.size(), b->arguments.size());
    for (size_t d = 0; d < a->arguments.size(); ++d) {
      EXPECT_EQ(a->arguments[d], b->arguments[d]);
    }
  }
}

TEST(GeneratorTest, GoldenHashes) {
  std::string hashes;
  for (uint64_t seed : {0, 1, 2, 3}) {
    absl::StatusOr<GeneratedModule> m = Generate(seed, GeneratorOptions());
    ASSERT_TRUE(m.ok()) << m.status();
    absl::StrAppend(&hashes, seed, ":", Fnv1a(PrintModule(*m->module)), " ");
  }
  EXPECT_EQ(hashes, kGolden) << "the generator's output for fixed seeds "
                                "changed; if on purpose, update kGolden";
}

TEST(GeneratorTest, EverySeedVerifiesAndRoundTrips) {
  int64_t rejected = 0;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    absl::StatusOr<GeneratedModule> m = Generate(seed, GeneratorOptions());
    ASSERT_TRUE(m.ok()) << "seed " << seed << ": " << m.status();
    rejected += m->rejected.size();
    for (const std::string& r : m->rejected) ADD_FAILURE() << seed << ": " << r;
    EXPECT_TRUE(VerifyModule(*m->module).ok())
        << "seed " << seed << ": " << VerifyModule(*m->module) << "\n"
        << PrintModule(*m->module);
    const std::string text = PrintModule(*m->module);
    absl::StatusOr<std::unique_ptr<Module>> parsed = ParseModule(text);
    ASSERT_TRUE(parsed.ok())
        << "seed " << seed << ": " << parsed.status() << "\n"
        << text;
    EXPECT_EQ(PrintModule(**parsed), text) << "seed " << seed;
    EXPECT_EQ(static_cast<int64_t>(m->arguments.size()), m->replicas);
  }
  EXPECT_EQ(rejected, 0);
}

TEST(GeneratorTest, EveryGeneratorBuildsValidModules) {
  for (const OpGenerator& generator : AllGenerators()) {
    GeneratorOptions options;
    options.only = {generator.name};
    options.collective_percent = generator.collective ? 100 : 0;
    for (uint64_t seed = 0; seed < 40; ++seed) {
      SplitMix64Source source(seed);
      absl::StatusOr<GeneratedModule> m = GenerateFrom(source, options);
      ASSERT_TRUE(m.ok()) << generator.name << " seed " << seed << ": "
                          << m.status();
      ASSERT_TRUE(VerifyModule(*m->module).ok())
          << generator.name << " seed " << seed << ": "
          << VerifyModule(*m->module) << "\n"
          << PrintModule(*m->module);
    }
  }
}

TEST(GeneratorTest, CoversEverySpecOp) {
  Coverage coverage;
  for (uint64_t seed = 0; seed < 2000; ++seed) {
    absl::StatusOr<GeneratedModule> m = Generate(seed, GeneratorOptions());
    ASSERT_TRUE(m.ok()) << m.status();
    coverage.Add(*m->module);
  }
  // Every op of the spec within 2000 seeds.
  EXPECT_EQ(absl::StrJoin(coverage.MissingSpecOps(), " "), "")
      << coverage.Report();
}

TEST(GeneratorTest, SpecOpsMatchTheConformanceSuite) {
  std::set<std::string> ops(SpecOps().begin(), SpecOps().end());
  int files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator("spec_tests")) {
    if (entry.path().extension() != ".hlotest") continue;
    ++files;
    std::string op = entry.path().stem().string();
    if (op.rfind("convert_from_", 0) == 0) op = "convert";
    if (op == "send-recv") op = "send";
    if (op == "async" || op == "async-collectives") continue;
    EXPECT_TRUE(ops.count(op))
        << op << " has a case file but is not in SpecOps";
  }
  EXPECT_GT(files, 100);
}

TEST(InputsTest, EdgeValuesAppear) {
  SplitMix64Source source(3);
  absl::StatusOr<Literal> f32 =
      RandomValue(Shape::Array(ElementType::kF32, {4096}), source);
  ASSERT_TRUE(f32.ok());
  bool nan = false, inf = false, neg_zero = false, subnormal = false;
  for (int64_t i = 0; i < f32->element_count(); ++i) {
    const uint32_t bits = f32->GetBits(i);
    nan |= (bits & 0x7f800000) == 0x7f800000 && (bits & 0x7fffff) != 0;
    inf |= (bits & 0x7fffffff) == 0x7f800000;
    neg_zero |= bits == 0x80000000;
    subnormal |= (bits & 0x7f800000) == 0 && (bits & 0x7fffff) != 0;
  }
  EXPECT_TRUE(nan && inf && neg_zero && subnormal);
  absl::StatusOr<Literal> s8 =
      RandomValue(Shape::Array(ElementType::kS8, {4096}), source);
  ASSERT_TRUE(s8.ok());
  bool min = false, max = false, shift = false;
  for (int64_t i = 0; i < s8->element_count(); ++i) {
    min |= s8->GetInt64(i) == -128;
    max |= s8->GetInt64(i) == 127;
    shift |= s8->GetInt64(i) == 8 || s8->GetInt64(i) == 9;
  }
  EXPECT_TRUE(min && max && shift);
  EXPECT_EQ(EdgeBits(ElementType::kU4),
            (std::vector<uint64_t>{0, 1, 15, 14, 4, 5, 8}));
}

}  // namespace
}  // namespace kiln::fuzzgen
