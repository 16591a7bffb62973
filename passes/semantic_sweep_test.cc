// The semantic-preservation sweep of issue 6: every single-device module of
// the conformance suite (spec_tests/, run and implementation-defined cases)
// goes through every registered pass and every registered pipeline under
// `--verify-each --check-semantics` with the case's own arguments, which
// are chosen to hit edge values (NaN, -0, infinities, out-of-bounds
// indices). A pass that breaks a module or changes a value fails the test,
// naming the case, the pass and the difference.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/pass/instrumentation.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"
#include "tools/conform/case_file.h"

namespace kiln {
namespace {

constexpr int kMaxReportedFailures = 25;

// Bazel's test sharding (shard_count in BUILD): this shard's index and the
// number of shards, from the environment Bazel sets; (0, 1) outside Bazel.
std::pair<int64_t, int64_t> Shard() {
  const char* index = std::getenv("TEST_SHARD_INDEX");
  const char* total = std::getenv("TEST_TOTAL_SHARDS");
  if (const char* status_file = std::getenv("TEST_SHARD_STATUS_FILE")) {
    std::ofstream(status_file).flush();  // Says: this test shards itself.
  }
  if (index == nullptr || total == nullptr) return {0, 1};
  return {std::atoll(index), std::max<int64_t>(1, std::atoll(total))};
}

// This shard's cases whose module runs on one device and has values to
// compare.
std::vector<conform::Case> SweepCases() {
  absl::StatusOr<std::vector<std::string>> files =
      conform::FindCaseFiles({"spec_tests"});
  EXPECT_TRUE(files.ok()) << files.status();
  if (!files.ok()) return {};
  absl::StatusOr<std::vector<conform::Case>> cases = conform::LoadCases(*files);
  EXPECT_TRUE(cases.ok()) << cases.status();
  if (!cases.ok()) return {};
  const auto [shard, shards] = Shard();
  std::vector<conform::Case> selected;
  for (size_t i = 0; i < cases->size(); ++i) {
    conform::Case& c = (*cases)[i];
    if (static_cast<int64_t>(i % shards) != shard) continue;
    if (c.kind == conform::CaseKind::kReject || c.device_count() != 1) {
      continue;
    }
    selected.push_back(std::move(c));
  }
  return selected;
}

// Every registered pass and pipeline, built fresh.
std::vector<std::unique_ptr<Pass>> AllPassesAndPipelines() {
  std::vector<std::unique_ptr<Pass>> passes;
  for (const std::string& name : PassRegistry::Global().Names()) {
    passes.push_back(PassRegistry::Global().Create(name));
  }
  for (const std::string& name : PipelineRegistry::Global().Names()) {
    passes.push_back(PipelineRegistry::Global().Create(name));
  }
  return passes;
}

// Runs `pass` on a copy of `module` under verification and semantic
// checking with `arguments`; the error, if any.
absl::Status RunChecked(Pass& pass, const Module& module,
                        const std::vector<const Literal*>& arguments) {
  PipelineOptions options;
  options.verify_each = true;
  std::vector<Literal> copies;
  for (const Literal* argument : arguments) copies.push_back(*argument);
  options.semantic_check_arguments.push_back(std::move(copies));
  std::unique_ptr<Module> copy = module.Clone();
  return RunPipeline(pass, *copy, options).status();
}

TEST(SemanticSweepTest, EveryPassKeepsEveryConformanceModuleValidAndExact) {
  std::vector<conform::Case> cases = SweepCases();
  ASSERT_FALSE(cases.empty()) << "no cases for this shard under spec_tests/";
  std::vector<std::unique_ptr<Pass>> passes = AllPassesAndPipelines();
  ASSERT_GT(passes.size(), 3u);
  std::vector<std::string> failures;
  int64_t runs = 0;
  for (const conform::Case& c : cases) {
    ParseOptions parse_options;
    parse_options.filename = c.file;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(c.module_text, parse_options);
    if (!module.ok()) {
      failures.push_back(
          absl::StrCat(c.Location(), " ", c.name,
                       ": does not parse: ", module.status().message()));
      continue;
    }
    for (const std::unique_ptr<Pass>& pass : passes) {
      ++runs;
      absl::Status status = RunChecked(*pass, **module, c.ArgumentsFor(0));
      if (!status.ok()) {
        failures.push_back(absl::StrCat(c.Location(), " ", c.name, ", pass ",
                                        pass->name(), ": ", status.message()));
      }
    }
  }
  std::vector<std::string> shown(
      failures.begin(),
      failures.begin() +
          std::min<size_t>(failures.size(), kMaxReportedFailures));
  EXPECT_TRUE(failures.empty())
      << failures.size() << " of " << runs << " pass runs failed; first "
      << shown.size() << ":\n"
      << absl::StrJoin(shown, "\n");
  std::cout << runs << " pass runs over " << cases.size() << " cases and "
            << passes.size() << " passes and pipelines\n";
}

}  // namespace
}  // namespace kiln
