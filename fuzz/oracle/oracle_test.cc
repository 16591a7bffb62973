#include "fuzz/oracle/oracle.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_split.h"
#include "backends/backend.h"
#include "backends/reference/reference_backend.h"
#include "compiler/pass/pipeline.h"
#include "compiler/pass/test_passes.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "fuzz/generator/generator.h"
#include "fuzz/oracle/findings.h"
#include "fuzz/oracle/reduce.h"
#include "gtest/gtest.h"

namespace kiln::fuzz {
namespace {

// The reference backend with a bit of its first array result flipped:
// the deliberately wrong backend every oracle must catch.
class WrongExecutable : public Executable {
 public:
  explicit WrongExecutable(std::unique_ptr<Executable> inner)
      : Executable(inner->parameter_shapes(), inner->device_count()),
        inner_(std::move(inner)) {}
  absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) override {
    absl::StatusOr<Literal> result = inner_->Run(arguments);
    if (result.ok()) Break(*result);
    return result;
  }

 private:
  static bool Break(Literal& literal) {
    if (literal.shape().IsTuple()) {
      for (Literal& element : *literal.mutable_tuple_elements()) {
        if (Break(element)) return true;
      }
      return false;
    }
    if (!literal.shape().IsArray() || literal.element_count() == 0)
      return false;
    // A high bit: far outside any tolerance.
    const int width = BitWidth(literal.element_type());
    literal.SetBits(
        0, literal.GetBits(0) ^ (uint64_t{1} << std::max(0, width - 2)));
    return true;
  }
  std::unique_ptr<Executable> inner_;
};

class WrongBackend : public ReferenceBackend {
 public:
  absl::string_view name() const override { return "wrong"; }
  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override {
    absl::StatusOr<std::unique_ptr<Executable>> inner =
        ReferenceBackend::Compile(module, options);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<Executable>(
        std::make_unique<WrongExecutable>(*std::move(inner)));
  }
};

constexpr char kModule[] = R"(HloModule m
ENTRY e {
  p0 = f32[3] parameter(0)
  p1 = f32[3] parameter(1)
  a = f32[3] add(p0, p1)
  e = f32[3] exponential(a)
  ROOT t = (f32[3], f32[3]) tuple(a, e)
}
)";

Case MakeCase(const Module& module) {
  Case c;
  c.module = &module;
  c.arguments.push_back(
      {Literal::VectorF32({1, 2, 3}), Literal::VectorF32({0.5, -0.5, 1})});
  return c;
}

TEST(OracleTest, CorrectBackendPassesGeneratedModules) {
  ReferenceBackend reference;
  int checked = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    absl::StatusOr<fuzzgen::GeneratedModule> m =
        fuzzgen::Generate(seed, fuzzgen::GeneratorOptions());
    ASSERT_TRUE(m.ok()) << m.status();
    Case c;
    c.module = m->module.get();
    c.arguments = std::move(m->arguments);
    Outcome outcome = RunOracle(OracleKind::kBackend, c, &reference, {});
    EXPECT_FALSE(outcome.finding()) << seed << ": " << outcome.detail;
    checked += outcome.verdict == Outcome::Verdict::kPass;
    Outcome round = RunOracle(OracleKind::kRoundTrip, c, nullptr, {});
    EXPECT_NE(round.kind, "roundtrip") << seed << ": " << round.detail;
  }
  EXPECT_GT(checked, 40);
}

TEST(OracleTest, WrongBackendIsFoundAndLocalized) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(kModule);
  ASSERT_TRUE(module.ok());
  WrongBackend wrong;
  const Case c = MakeCase(**module);
  Outcome outcome = RunOracle(OracleKind::kBackend, c, &wrong, {});
  ASSERT_TRUE(outcome.finding());
  EXPECT_EQ(outcome.kind, "mismatch");
  EXPECT_EQ(outcome.blamed, "wrong");
  EXPECT_NE(outcome.expected, outcome.actual);
  std::unique_ptr<Module> localized =
      Localize(OracleKind::kBackend, c, &wrong, {}, outcome);
  ASSERT_NE(localized, nullptr);
  EXPECT_EQ(localized->entry()->root()->name(), "a");
  EXPECT_EQ(Signature(OracleKind::kBackend, outcome, localized.get()),
            "backend-wrong-mismatch-add-f32");
}

TEST(OracleTest, RefereeSidingWithTheBackendBlamesTheReference) {
  // Two implementations that agree against the evaluator (the wrong
  // backend, and another of its kind as referee) put the blame on the
  // evaluator; a referee that agrees with the evaluator, or cannot run the
  // module, leaves it on the backend.
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(kModule);
  ASSERT_TRUE(module.ok());
  WrongBackend wrong;
  WrongBackend second_opinion;
  ReferenceBackend reference;
  const Case c = MakeCase(**module);
  OracleOptions options;
  options.referee = "wrong";
  options.referee_backend = &second_opinion;
  Outcome outcome = RunOracle(OracleKind::kBackend, c, &wrong, options);
  ASSERT_TRUE(outcome.finding());
  EXPECT_EQ(outcome.kind, "mismatch");
  EXPECT_EQ(outcome.blamed, "reference");
  EXPECT_NE(outcome.detail.find("referee wrong: agrees with the backend, not "
                                "with the reference evaluator"),
            std::string::npos)
      << outcome.detail;
  std::unique_ptr<Module> localized =
      Localize(OracleKind::kBackend, c, &wrong, options, outcome);
  ASSERT_NE(localized, nullptr);
  EXPECT_EQ(Signature(OracleKind::kBackend, outcome, localized.get()),
            "backend-reference-mismatch-add-f32");

  options.referee_backend = &reference;
  outcome = RunOracle(OracleKind::kBackend, c, &wrong, options);
  ASSERT_TRUE(outcome.finding());
  EXPECT_EQ(outcome.blamed, "wrong");
  EXPECT_NE(outcome.detail.find("agrees with the reference evaluator"),
            std::string::npos)
      << outcome.detail;

  // A correct backend is never put to the referee.
  options.referee_backend = &second_opinion;
  EXPECT_FALSE(
      RunOracle(OracleKind::kBackend, c, &reference, options).finding());
}

TEST(ReduceTest, ShrinksWhileTheSameFindingStays) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
ENTRY e {
  p0 = f32[3] parameter(0)
  p1 = f32[3] parameter(1)
  n = f32[3] negate(p0)
  a = f32[3] add(n, p1)
  e = f32[3] exponential(a)
  m = f32[3] multiply(e, p1)
  ROOT t = (f32[3], f32[3]) tuple(m, a)
}
)");
  ASSERT_TRUE(module.ok());
  WrongBackend wrong;
  const Case c = MakeCase(**module);
  const Outcome outcome = RunOracle(OracleKind::kBackend, c, &wrong, {});
  ASSERT_TRUE(outcome.finding());
  absl::StatusOr<Reduced> reduced =
      ReduceCase(OracleKind::kBackend, c, &wrong, {}, outcome);
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  EXPECT_EQ(reduced->instructions_before, 7);
  // The first op alone, its operands constants, no parameters left.
  EXPECT_LE(reduced->instructions_after, 2) << PrintModule(*reduced->module);
  EXPECT_TRUE(reduced->module->entry()->parameters().empty());
  Case again;
  again.module = reduced->module.get();
  again.arguments = std::move(reduced->arguments);
  const Outcome still = RunOracle(OracleKind::kBackend, again, &wrong, {});
  EXPECT_TRUE(still.finding());
  EXPECT_EQ(still.kind, "mismatch");
  ReferenceBackend fixed;
  EXPECT_FALSE(RunOracle(OracleKind::kBackend, again, &fixed, {}).finding());
}

TEST(OracleTest, WrongPassIsNamed) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(kModule);
  ASSERT_TRUE(module.ok());
  PipelineRegistry::Global().Register("fuzz-test-wrong", [] {
    auto pipeline = std::make_unique<PassPipeline>("fuzz-test-wrong");
    pipeline->AddPass(std::make_unique<AddCommutePass>());
    pipeline->AddPass(std::make_unique<AddToSubtractPass>());
    return pipeline;
  });
  OracleOptions options;
  options.pipeline = "fuzz-test-wrong";
  Outcome outcome =
      RunOracle(OracleKind::kPipeline, MakeCase(**module), nullptr, options);
  ASSERT_TRUE(outcome.finding()) << outcome.detail;
  EXPECT_EQ(outcome.kind, "semantic");
  EXPECT_EQ(outcome.blamed, "test-add-to-subtract");
}

TEST(OracleTest, UnknownOracleIsAnError) {
  EXPECT_FALSE(ParseOracle("bogus").ok());
  EXPECT_EQ(*ParseOracle("roundtrip"), OracleKind::kRoundTrip);
}

std::string Read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(FindingsTest, LayoutDedupAndReplay) {
  const std::string dir =
      std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") +
      "/findings";
  std::filesystem::remove_all(dir);
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(kModule);
  ASSERT_TRUE(module.ok());
  WrongBackend wrong;
  const Case c = MakeCase(**module);
  Finding finding;
  finding.oracle = OracleKind::kBackend;
  finding.options.backend = "wrong";
  finding.options.referee = "reference";
  finding.seed = 7;
  finding.outcome = RunOracle(OracleKind::kBackend, c, &wrong, {});
  finding.signature = Signature(OracleKind::kBackend, finding.outcome, nullptr);
  finding.module_text = finding.original_text = PrintModule(**module);
  for (const Literal& a : c.arguments[0]) {
    finding.arguments.emplace_back();
    finding.arguments[0].push_back(a);
  }
  finding.arguments.resize(1);
  absl::StatusOr<bool> first = WriteFinding(dir, finding);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(*first);
  finding.seed = 9;
  absl::StatusOr<bool> second = WriteFinding(dir, finding);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);
  const std::filesystem::path folder =
      std::filesystem::path(dir) / finding.signature;
  for (const char* name :
       {"module.hlo", "original.hlo", "args.txt", "oracle.txt", "detail.txt",
        "expected.txt", "actual.txt", "replay.sh", "seeds.txt"}) {
    EXPECT_TRUE(std::filesystem::exists(folder / name)) << name;
  }
  EXPECT_EQ(Read(folder / "seeds.txt"), "7\n9\n");
  EXPECT_EQ(FindingDirs(dir), std::vector<std::string>{folder.string()});
  // Nothing but the one folder was written.
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++entries;
  }
  EXPECT_EQ(entries, 1);

  absl::StatusOr<Finding> read = ReadFinding(folder.string());
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->oracle, OracleKind::kBackend);
  EXPECT_EQ(read->options.backend, "wrong");
  EXPECT_EQ(read->options.referee, "reference");
  EXPECT_EQ(read->seed, 7u);
  ASSERT_EQ(read->arguments.size(), 1u);
  EXPECT_EQ(read->arguments[0][1], c.arguments[0][1]);
  absl::StatusOr<std::unique_ptr<Module>> again =
      ParseModule(read->module_text);
  ASSERT_TRUE(again.ok());
  Case replay;
  replay.module = again->get();
  replay.arguments = std::move(read->arguments);
  EXPECT_TRUE(RunOracle(OracleKind::kBackend, replay, &wrong, {}).finding());
  ReferenceBackend fixed;
  EXPECT_FALSE(RunOracle(OracleKind::kBackend, replay, &fixed, {}).finding());
}

TEST(FindingsTest, ArgumentsTextRoundTripsEdgeValues) {
  absl::StatusOr<Literal> nan = ParseLiteral("f32[3] {nan, -inf, -0}");
  ASSERT_TRUE(nan.ok());
  std::vector<std::vector<Literal>> arguments(2);
  arguments[0].push_back(*nan);
  arguments[1].push_back(Literal::ScalarS32(-2147483647 - 1));
  absl::StatusOr<std::vector<std::vector<Literal>>> back =
      ParseArgumentsText(ArgumentsText(arguments));
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0][0], arguments[0][0]);
  EXPECT_EQ((*back)[1][0], arguments[1][0]);
}

}  // namespace
}  // namespace kiln::fuzz
