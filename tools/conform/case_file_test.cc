#include "tools/conform/case_file.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln::conform {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kGood = R"(# A comment.
suite: elementwise.add          # a trailing comment
op: add

case add.f32.one       # starts a case
spec: Add :: Performs element-wise addition
spec: Add :: of two arrays
source: hand
types: f32
tolerance: ulp=2
note: a note
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)

    ROOT r = f32[2] add(a, a)
  }
arg:
  f32[2]
    {1, 2}
expect: f32[2] {2, 4}

case add.reject
op: add, multiply
spec: Add :: Performs
module:
  HloModule m
  ENTRY e {
    ROOT r = f32[2] add()
  }
reject: verify operands.count

case add.impl
spec: Add :: Performs
replicas: 2
partitions: 1
module:
  HloModule m
  ENTRY e {
    ROOT r = s32[] constant(1)
  }
arg[0]: s32[] 1
arg[1]: s32[] 2
implementation-defined: why not

case add.tuple
spec: Add :: Performs
source: numpy
module:
  HloModule m
  ENTRY e {
    ROOT r = s32[] constant(1)
  }
expect: (f32[2] {1, 2}, s32[] 3)
)";

TEST(CaseFileTest, ParsesEveryKindAndField) {
  absl::StatusOr<std::vector<Case>> cases = ParseCaseFile(kGood, "x.hlotest");
  ASSERT_TRUE(cases.ok()) << cases.status();
  ASSERT_EQ(cases->size(), 4);
  const Case& run = (*cases)[0];
  EXPECT_EQ(run.name, "add.f32.one");
  EXPECT_EQ(run.line, 5);
  EXPECT_EQ(run.suite, "elementwise.add");
  EXPECT_THAT(run.ops, ElementsAre("add"));
  ASSERT_EQ(run.spec.size(), 2);
  EXPECT_EQ(run.spec[1].section, "Add");
  EXPECT_EQ(run.spec[1].fragment, "of two arrays");
  EXPECT_EQ(run.spec[1].line, 7);
  EXPECT_EQ(run.source, "hand");
  EXPECT_THAT(run.types, ElementsAre(ElementType::kF32));
  ASSERT_TRUE(run.tolerance.has_value());
  EXPECT_EQ(run.tolerance->ulps, 2);
  EXPECT_EQ(run.note, "a note");
  EXPECT_EQ(run.kind, CaseKind::kRun);
  EXPECT_EQ(run.module_line, 13);
  EXPECT_EQ(run.module_text,
            "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n\n  ROOT r = "
            "f32[2] add(a, a)\n}");
  ASSERT_EQ(run.args.size(), 1);
  EXPECT_EQ(run.args[0].literal, Literal::VectorF32({1, 2}));
  EXPECT_EQ(*run.ExpectedFor(0), Literal::VectorF32({2, 4}));

  const Case& reject = (*cases)[1];
  EXPECT_EQ(reject.kind, CaseKind::kReject);
  EXPECT_EQ(reject.reject_stage, RejectStage::kVerify);
  EXPECT_EQ(reject.reject_rule, "operands.count");
  EXPECT_THAT(reject.ops, ElementsAre("add", "multiply"));

  const Case& impl = (*cases)[2];
  EXPECT_EQ(impl.kind, CaseKind::kImplementationDefined);
  EXPECT_EQ(impl.implementation_defined_reason, "why not");
  EXPECT_EQ(impl.device_count(), 2);
  ASSERT_EQ(impl.ArgumentsFor(1).size(), 1);
  EXPECT_EQ(*impl.ArgumentsFor(1)[0], Literal::ScalarS32(2));

  const Case& tuple = (*cases)[3];
  const Literal* expected = tuple.ExpectedFor(0);
  ASSERT_NE(expected, nullptr);
  ASSERT_TRUE(expected->shape().IsTuple());
  EXPECT_EQ(expected->tuple_elements()[1], Literal::ScalarS32(3));
}

struct BadFile {
  const char* text;
  const char* error;
};

class CaseFileErrorTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(CaseFileErrorTest, NamesFileLineAndProblem) {
  absl::StatusOr<std::vector<Case>> cases =
      ParseCaseFile(GetParam().text, "bad.hlotest");
  ASSERT_FALSE(cases.ok());
  EXPECT_THAT(cases.status().message(), HasSubstr(GetParam().error));
}

constexpr const char* kModule =
    "module:\n  HloModule m\n  ENTRY e {\n    ROOT c = s32[] constant(1)\n  "
    "}\n";

std::string WithModule(const std::string& before, const std::string& after) {
  return before + kModule + after;
}

const std::string kBadFiles[] = {
    "case a\nbogus: 1\n",
    "nope: 1\n",
    "case a b\n",
    WithModule("case a\nspec: A :: b\nsource: hand\n", ""),
    WithModule("case a\nsource: hand\n", "expect: s32[] 1\n"),
    WithModule("case a\nspec: A :: b\n", "expect: s32[] 1\n"),
    WithModule("case a\nspec: A :: b\nsource: hand\n", "expect: s32[] {1\n"),
    WithModule("case a\nspec: A :: b\n", "reject: lex x\n"),
    WithModule("case a\nspec: A :: b\n", "reject: parse\n"),
    WithModule("case a\nspec: A :: b\nsource: hand\n",
               "expect: s32[] 1\nreject: parse x\n"),
    WithModule("case a\nspec: A :: b\nsource: hand\nreplicas: 2\n",
               "expect[2]: s32[] 1\n"),
    WithModule("case a\nspec: A :: b\nsource: hand\nreplicas: 2\n",
               "expect[0]: s32[] 1\n"),
    WithModule("case a\nspec: A no separator\nsource: hand\n",
               "expect: s32[] 1\n"),
    WithModule("case a\nspec: A :: b\nsource: guess\n", "expect: s32[] 1\n"),
    WithModule("case a\nspec: A :: b\ntypes: f33\n", "reject: parse x\n"),
    WithModule("case a\nspec: A :: b\ntolerance: ulp=-1\n",
               "reject: parse x\n"),
    "case a\n  stray\n",
    "case a\nmodule: HloModule m\n",
};

const char* const kErrors[] = {
    "bad.hlotest:2: error: unknown key 'bogus'",
    "bad.hlotest:1: error: unknown file header key 'nope'",
    "bad.hlotest:1: error: bad case name 'a b'",
    "bad.hlotest:1: error: case a needs one of expect:",
    "bad.hlotest:1: error: case a has no spec: line",
    "bad.hlotest:1: error: case a has no source:",
    "bad.hlotest:9: error: bad expect literal",
    "bad.hlotest:8: error: reject: stage must be parse or verify, got 'lex'",
    "bad.hlotest:8: error: reject: needs 'STAGE RULE'",
    "bad.hlotest:10: error: a case has exactly one of expect:, reject:",
    "bad.hlotest:10: error: case a: device 2 out of range",
    "bad.hlotest:1: error: case a: device 1 has 0 expected values",
    "bad.hlotest:2: error: spec: needs '<section title> :: <fragment>'",
    "bad.hlotest:3: error: unknown source 'guess'",
    "bad.hlotest:3: error: unknown element type 'f33'",
    "bad.hlotest:3: error: bad tolerance item 'ulp=-1'",
    "bad.hlotest:2: error: unexpected indented line",
    "bad.hlotest:2: error: module: is multi-line",
};

std::vector<BadFile> BadFiles() {
  std::vector<BadFile> files;
  for (size_t i = 0; i < std::size(kBadFiles); ++i) {
    files.push_back({kBadFiles[i].c_str(), kErrors[i]});
  }
  return files;
}

INSTANTIATE_TEST_SUITE_P(All, CaseFileErrorTest,
                         ::testing::ValuesIn(BadFiles()));

TEST(CaseFileTest, DuplicateNamesAcrossFilesAreErrors) {
  const std::string dir =
      std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") +
      "/dup_cases";
  std::filesystem::create_directories(dir + "/sub");
  const std::string text =
      WithModule("case same.name\nspec: A :: b\n", "reject: parse x\n");
  std::ofstream(dir + "/a.hlotest") << text;
  std::ofstream(dir + "/sub/b.hlotest") << text;
  std::ofstream(dir + "/ignored.txt") << "not a case file";
  absl::StatusOr<std::vector<std::string>> files = FindCaseFiles({dir});
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_EQ(files->size(), 2);
  absl::StatusOr<std::vector<Case>> cases = LoadCases(*files);
  ASSERT_FALSE(cases.ok());
  EXPECT_THAT(cases.status().message(),
              HasSubstr("sub/b.hlotest:1: error: duplicate case name "
                        "'same.name' (first defined at "));
  EXPECT_FALSE(FindCaseFiles({dir + "/missing"}).ok());
}

TEST(CaseFileTest, TupleLiteralsElementByElement) {
  absl::StatusOr<Literal> nested =
      ParseCaseLiteral("((f32[] 1, s32[2] {1, 2}), pred[] true)");
  ASSERT_TRUE(nested.ok()) << nested.status();
  ASSERT_EQ(nested->tuple_elements().size(), 2);
  EXPECT_EQ(nested->tuple_elements()[0].tuple_elements()[0],
            Literal::ScalarF32(1));
  absl::StatusOr<Literal> xla = ParseCaseLiteral("(f32[], s32[]) (1, 2)");
  ASSERT_TRUE(xla.ok()) << xla.status();
  EXPECT_EQ(xla->tuple_elements()[1], Literal::ScalarS32(2));
  EXPECT_FALSE(ParseCaseLiteral("(f32[] 1, bogus)").ok());
}

}  // namespace
}  // namespace kiln::conform
