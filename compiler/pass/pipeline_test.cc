#include "compiler/pass/pipeline.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "compiler/ir/literal.h"
#include "compiler/pass/instrumentation.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/pass/test_passes.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::HasSubstr;

constexpr char kAddModule[] = R"(HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  ROOT add = f32[4] add(x, y)
}
)";

std::unique_ptr<Module> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return *std::move(module);
}

// A pass counting its runs and reporting a change for the first `changes`.
class CountingPass : public Pass {
 public:
  CountingPass(std::string name, int changes, std::vector<std::string>* log)
      : name_(std::move(name)), changes_(changes), log_(log) {}
  absl::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(Module&) override {
    log_->push_back(name_);
    return changes_-- > 0;
  }

 private:
  std::string name_;
  int changes_;
  std::vector<std::string>* log_;
};

PipelineOptions TestOptions() {
  PipelineOptions options;
  options.verify_each = true;  // Always on in tests.
  return options;
}

TEST(PassPipelineTest, RunsPassesAndNestedPipelinesInOrder) {
  std::vector<std::string> log;
  PassPipeline outer("outer");
  outer.AddPass(std::make_unique<CountingPass>("a", 0, &log));
  auto inner = std::make_unique<PassPipeline>("inner");
  inner->AddPass(std::make_unique<CountingPass>("b", 1, &log));
  outer.AddPass(std::move(inner));
  outer.AddPass(std::make_unique<CountingPass>("c", 0, &log));
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = RunPipeline(outer, *module, TestOptions());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "c"}));
  changed = outer.Run(*module);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
}

TEST(PassPipelineTest, ErrorsNameThePass) {
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<AddCommutePass>());
  pipeline.AddPass(std::make_unique<FailingPass>());
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = RunPipeline(pipeline, *module, TestOptions());
  EXPECT_EQ(changed.status().message(),
            "pass 'test-fail': cannot handle module m");
  EXPECT_EQ(pipeline.Run(*module).status().message(),
            "pass 'test-fail': cannot handle module m");
}

TEST(FixedPointTest, RunsUntilNoChange) {
  std::vector<std::string> log;
  FixedPoint fixed(std::make_unique<CountingPass>("a", 3, &log));
  EXPECT_EQ(fixed.name(), "fixed-point(a)");
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = fixed.Run(*module);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(log.size(), 4u);
  changed = fixed.Run(*module);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(log.size(), 5u);
}

TEST(FixedPointTest, IterationCapIsAnErrorNamingThePass) {
  FixedPoint fixed(std::make_unique<AlwaysChangedPass>(), 5);
  std::unique_ptr<Module> module = Parse(kAddModule);
  std::vector<PassStatistics> stats;
  absl::StatusOr<bool> changed =
      RunPipeline(fixed, *module, TestOptions(), &stats);
  EXPECT_EQ(changed.status().message(),
            "fixed-point(test-always-changed): 'test-always-changed' still "
            "changed the module after 5 iterations");
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].runs, 5);
  EXPECT_EQ(stats[0].changed, 5);
}

TEST(IfChangedTest, RunsThenOnlyAfterAChange) {
  std::vector<std::string> log;
  IfChanged conditional(std::make_unique<CountingPass>("trigger", 1, &log),
                        std::make_unique<CountingPass>("then", 0, &log));
  EXPECT_EQ(conditional.name(), "if-changed(trigger, then)");
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = conditional.Run(*module);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);  // The trigger changed; `then` did not.
  EXPECT_EQ(log, (std::vector<std::string>{"trigger", "then"}));
  changed = conditional.Run(*module);  // The trigger changes nothing now.
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(log, (std::vector<std::string>{"trigger", "then", "trigger"}));
}

TEST(IfChangedTest, ErrorsStopAndNameThePass) {
  IfChanged conditional(std::make_unique<FailingPass>(),
                        std::make_unique<AddCommutePass>());
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed =
      RunPipeline(conditional, *module, TestOptions());
  EXPECT_EQ(changed.status().message(),
            "pass 'test-fail': cannot handle module m");
}

TEST(PipelineRegistryTest, RegisteredPipelinesAndNamesResolve) {
  std::unique_ptr<PassPipeline> pipeline =
      PipelineRegistry::Global().Create("test-pipeline");
  ASSERT_NE(pipeline, nullptr);
  EXPECT_EQ(pipeline->name(), "test-pipeline");
  EXPECT_EQ(PipelineRegistry::Global().Create("no-such-pipeline"), nullptr);
  absl::StatusOr<std::unique_ptr<PassPipeline>> built =
      PipelineFromNames("cli", {"test-add-commute", "test-pipeline"});
  ASSERT_TRUE(built.ok()) << built.status();
  ASSERT_EQ((*built)->passes().size(), 2u);
  EXPECT_EQ((*built)->passes()[1]->name(), "test-pipeline");
  EXPECT_EQ(PipelineFromNames("cli", {"nope"}).status().message(),
            "unknown pass or pipeline 'nope' (kiln opt --list-passes lists "
            "them)");
  EXPECT_FALSE(PipelineRegistry::Global().Register("test-pipeline", nullptr));
}

TEST(InstrumentationTest, VerifyEachNamesThePassThatBrokeTheModule) {
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<AddCommutePass>());
  pipeline.AddPass(std::make_unique<BreakRootShapePass>());
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = RunPipeline(pipeline, *module, TestOptions());
  ASSERT_FALSE(changed.ok());
  EXPECT_THAT(std::string(changed.status().message()),
              HasSubstr("after pass 'test-break-root-shape': the module does "
                        "not verify: "));
  // Without verify-each the broken module goes through.
  module = Parse(kAddModule);
  EXPECT_TRUE(RunPipeline(pipeline, *module, PipelineOptions()).ok());
}

TEST(InstrumentationTest, StatisticsCountRunsAndChanges) {
  std::vector<std::string> log;
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<CountingPass>("a", 1, &log));
  pipeline.AddPass(std::make_unique<CountingPass>("b", 0, &log));
  pipeline.AddPass(std::make_unique<CountingPass>("a", 0, &log));
  std::unique_ptr<Module> module = Parse(kAddModule);
  std::vector<PassStatistics> stats;
  ASSERT_TRUE(RunPipeline(pipeline, *module, TestOptions(), &stats).ok());
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].name, "a");
  EXPECT_EQ(stats[0].runs, 2);
  EXPECT_EQ(stats[0].changed, 1);
  EXPECT_EQ(stats[1].name, "b");
  EXPECT_EQ(stats[1].runs, 1);
  EXPECT_EQ(stats[1].changed, 0);
  const std::string table = FormatPassStatistics(stats);
  EXPECT_THAT(table, HasSubstr("\na "));
  EXPECT_THAT(table, HasSubstr("\ntotal "));
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(InstrumentationTest, DumpsMatchingPassesWithDiffs) {
  const std::string dir =
      std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") +
      "/dumps";
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<AddCommutePass>());
  pipeline.AddPass(std::make_unique<AlwaysChangedPass>());
  pipeline.AddPass(std::make_unique<AddToSubtractPass>());
  PipelineOptions options = TestOptions();
  options.dump_dir = dir;
  options.dump_pass_re = "add-(commute|to)";
  std::unique_ptr<Module> module = Parse(kAddModule);
  ASSERT_TRUE(RunPipeline(pipeline, *module, options).ok());
  EXPECT_TRUE(std::filesystem::exists(dir + "/000-test-add-commute.hlo"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/001-test-always-changed.hlo"));
  EXPECT_EQ(ReadAll(dir + "/002-test-add-to-subtract.hlo"),
            PrintModule(*module));
  const std::string diff = ReadAll(dir + "/000-test-add-commute.diff");
  EXPECT_THAT(diff, HasSubstr("--- m before test-add-commute\n"));
  EXPECT_THAT(
      diff,
      HasSubstr(
          "\n-  ROOT %add = f32[4]{0} add(f32[4]{0} %x, f32[4]{0} %y)\n"));
  EXPECT_THAT(
      diff,
      HasSubstr(
          "\n+  ROOT %add = f32[4]{0} add(f32[4]{0} %y, f32[4]{0} %x)\n"));
  options.dump_pass_re = "(";
  EXPECT_THAT(
      std::string(RunPipeline(pipeline, *module, options).status().message()),
      HasSubstr("dump-pass-re: bad regular expression '('"));
}

std::vector<std::vector<Literal>> AddArguments() {
  std::vector<std::vector<Literal>> sets;
  sets.push_back(
      {Literal::VectorF32({0, 0, 0, 0}), Literal::VectorF32({0, 0, 0, 0})});
  sets.push_back(
      {Literal::VectorF32({1, 2, 3, 4}), Literal::VectorF32({0, 0, 0.5, 0})});
  return sets;
}

TEST(SemanticCheckTest, NamesTheGuiltyPass) {
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<AddCommutePass>());
  pipeline.AddPass(std::make_unique<AddToSubtractPass>());
  PipelineOptions options = TestOptions();
  options.semantic_check_arguments = AddArguments();
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = RunPipeline(pipeline, *module, options);
  // Zeros give the same result either way (0 + 0 == 0 - 0): set 1 shows
  // it. The commuted add became y - x.
  EXPECT_EQ(std::string(changed.status().message()),
            "check-semantics: pass 'test-add-to-subtract' changed the result "
            "on argument set 1 (f32[4] {1, 2, 3, 4}; f32[4] {0, 0, 0.5, 0}): "
            "output element 0 (index [0]): expected 1, actual -1");
}

TEST(SemanticCheckTest, CorrectPassPasses) {
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<AddCommutePass>());
  PipelineOptions options = TestOptions();
  options.semantic_check_arguments = AddArguments();
  std::unique_ptr<Module> module = Parse(kAddModule);
  absl::StatusOr<bool> changed = RunPipeline(pipeline, *module, options);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
}

// Wraps a pass and reports "no change" whatever it did: the check must go
// by the printed module, not by the pass's word.
class SilentPass : public Pass {
 public:
  explicit SilentPass(std::unique_ptr<Pass> pass) : pass_(std::move(pass)) {}
  absl::string_view name() const override { return pass_->name(); }
  absl::StatusOr<bool> Run(Module& module) override {
    absl::StatusOr<bool> changed = pass_->Run(module);
    if (!changed.ok()) return changed.status();
    return false;
  }

 private:
  std::unique_ptr<Pass> pass_;
};

TEST(SemanticCheckTest, EvaluatesOnlyAfterPassesThatChangeTheModule) {
  // Changing: the two commutes (one of them silent). Not changing: a pass
  // that reports no change, one that reports a change it did not make.
  std::vector<std::string> log;
  PassPipeline pipeline("p");
  pipeline.AddPass(std::make_unique<CountingPass>("idle", 0, &log));
  pipeline.AddPass(std::make_unique<AddCommutePass>());
  pipeline.AddPass(std::make_unique<AlwaysChangedPass>());
  pipeline.AddPass(std::make_unique<CountingPass>("idle-2", 0, &log));
  pipeline.AddPass(
      std::make_unique<SilentPass>(std::make_unique<AddCommutePass>()));
  pipeline.AddPass(std::make_unique<CountingPass>("idle-3", 0, &log));
  PipelineOptions options = TestOptions();
  options.semantic_check_arguments = AddArguments();
  std::unique_ptr<Module> module = Parse(kAddModule);
  SemanticCheckStatistics stats;
  absl::StatusOr<bool> changed =
      RunPipeline(pipeline, *module, options, nullptr, &stats);
  ASSERT_TRUE(changed.ok()) << changed.status();
  // (1 + 2 changing passes) x 2 argument sets.
  EXPECT_EQ(stats.evaluations, 3 * 2);
  EXPECT_EQ(stats.unchanged_passes, 4);
  EXPECT_EQ(FormatSemanticCheckStatistics(stats, 2),
            "check-semantics: 6 evaluations (2 argument sets), 4 unchanged "
            "passes not evaluated\n");
}

TEST(SemanticCheckTest, NamesTheGuiltyPassAfterUnchangedOnes) {
  // The wrong pass follows passes that changed nothing, and a silent wrong
  // pass (no change reported) is caught as well.
  for (bool silent : {false, true}) {
    std::vector<std::string> log;
    PassPipeline pipeline("p");
    pipeline.AddPass(std::make_unique<CountingPass>("idle", 0, &log));
    pipeline.AddPass(std::make_unique<AlwaysChangedPass>());
    std::unique_ptr<Pass> wrong = std::make_unique<AddToSubtractPass>();
    if (silent) wrong = std::make_unique<SilentPass>(std::move(wrong));
    pipeline.AddPass(std::move(wrong));
    PipelineOptions options = TestOptions();
    options.semantic_check_arguments = AddArguments();
    std::unique_ptr<Module> module = Parse(kAddModule);
    SemanticCheckStatistics stats;
    absl::StatusOr<bool> changed =
        RunPipeline(pipeline, *module, options, nullptr, &stats);
    EXPECT_THAT(std::string(changed.status().message()),
                HasSubstr("check-semantics: pass 'test-add-to-subtract' "
                          "changed the result on argument set 1"))
        << silent;
    // The input on both sets, then the wrong pass on both (set 0's zeros
    // agree).
    EXPECT_EQ(stats.evaluations, 4) << silent;
  }
}

TEST(SemanticCheckTest, DifferencesTreatNaNsAsEqualAndWalkTuples) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(DescribeDifference(Literal::VectorF32({nan, 1}),
                               Literal::VectorF32({-nan, 1})),
            std::nullopt);
  EXPECT_EQ(DescribeDifference(Literal::VectorF32({nan, 1}),
                               Literal::VectorF32({nan, 2})),
            "output element 1 (index [1]): expected 1, actual 2");
  std::vector<Literal> a, b;
  a.push_back(Literal::ScalarS32(1));
  a.push_back(Literal::VectorS32({1, 2}));
  b.push_back(Literal::ScalarS32(1));
  b.push_back(Literal::VectorS32({1, 2, 3}));
  EXPECT_EQ(DescribeDifference(Literal::Tuple(std::move(a)),
                               Literal::Tuple(std::move(b))),
            "output {1}: expected shape s32[2], actual shape s32[3]");
}

TEST(SemanticCheckTest, UnevaluableInputIsAnError) {
  PassPipeline pipeline("p");
  PipelineOptions options = TestOptions();
  options.semantic_check_arguments.push_back({Literal::ScalarF32(1)});
  std::unique_ptr<Module> module = Parse(kAddModule);
  EXPECT_THAT(
      std::string(RunPipeline(pipeline, *module, options).status().message()),
      HasSubstr("check-semantics: the input module cannot be "
                "evaluated on argument set 0: "));
}

}  // namespace
}  // namespace kiln
