// The export round trip on the 90 XLA dumps of compiler/text/xla_dumps:
// each module, exported to StableHLO and compiled and run by XLA's own CPU
// PJRT plugin through the pjrt backend, gives the reference evaluator's
// results on the same random arguments, within the conformance tolerances
// (the cpu backend's test compares the same way). The dumps where XLA
// cannot agree are listed in testdata/xla_dumps_expectations.txt with
// their cause, and must still disagree (a stale entry fails). Sharded by
// gtest (one test per dump); skipped, saying why, without the plugin.
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "backends/backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/pjrt/test_plugin.h"
#include "backends/reference/reference_backend.h"
#include "compiler/text/parser.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/cli/run_args.h"
#include "tools/conform/compare.h"

namespace kiln::pjrt {
namespace {

// File name -> "refused: reason" or "differs: reason".
std::map<std::string, std::string> Expectations() {
  std::ifstream in(testing::Runfile(
      "kiln/backends/pjrt/testdata/xla_dumps_expectations.txt"));
  EXPECT_TRUE(in.good()) << "testdata/xla_dumps_expectations.txt not found";
  std::map<std::string, std::string> expectations;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> parts =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (parts.size() == 2) expectations[parts[0]] = parts[1];
  }
  return expectations;
}

class XlaDumpTest : public ::testing::TestWithParam<std::string> {};

// What XLA's round trip of `module` gives against the evaluator: "" when
// it agrees, else "refused: ..." (the exporter or the plugin), "differs:
// ..." with the comparison's report, or "unchecked: ..." when the
// evaluator cannot run it.
std::string RoundTrip(const Module& module, Backend& xla) {
  ReferenceBackend reference;
  absl::StatusOr<std::unique_ptr<Executable>> oracle =
      reference.Compile(module, {});
  if (!oracle.ok()) {
    return absl::StrCat("unchecked: ", oracle.status().message());
  }
  absl::StatusOr<std::unique_ptr<Executable>> compiled =
      xla.Compile(module, {});
  if (!compiled.ok()) {
    return absl::StrCat("refused: ", compiled.status().message());
  }
  std::mt19937_64 generator(11);
  std::vector<Literal> arguments;
  for (const Shape& shape : (*oracle)->parameter_shapes()) {
    absl::StatusOr<Literal> argument = cli::RandomLiteral(shape, generator);
    if (!argument.ok()) return std::string(argument.status().message());
    arguments.push_back(*std::move(argument));
  }
  absl::StatusOr<Literal> expected = (*oracle)->Run(arguments);
  if (!expected.ok()) {
    return absl::StrCat("unchecked: ", expected.status().message());
  }
  absl::StatusOr<Literal> actual = (*compiled)->Run(arguments);
  if (!actual.ok()) return absl::StrCat("refused: ", actual.status().message());
  conform::Comparison comparison =
      conform::CompareLiterals(*expected, *actual, [&](ElementType type) {
        return cpu::MixedPrecisionTolerance(module, type);
      });
  return comparison.ok ? "" : absl::StrCat("differs: ", comparison.report);
}

TEST_P(XlaDumpTest, AgreesWithTheEvaluator) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  const std::string path = GetParam();
  static Backend* const xla = [] {
    absl::StatusOr<std::unique_ptr<Backend>> backend =
        BackendRegistry::Global().Create(absl::StrCat(
            "pjrt:", testing::XlaCpuPlugin(), ",cpu_device_count=8"));
    EXPECT_TRUE(backend.ok()) << backend.status();
    return backend.ok() ? backend->release() : nullptr;
  }();
  ASSERT_NE(xla, nullptr);
  ParseOptions options;
  options.filename = path;
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(ReadDump(path), options);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string outcome = RoundTrip(**module, *xla);
  const std::map<std::string, std::string> expectations = Expectations();
  const auto expected = expectations.find(BaseName(path));
  if (expected == expectations.end()) {
    EXPECT_EQ(outcome, "") << path;
    return;
  }
  // Listed: must still fail the same way.
  const std::string kind =
      expected->second.substr(0, expected->second.find(':'));
  EXPECT_EQ(outcome.substr(0, outcome.find(':')), kind)
      << path << " is listed as '" << expected->second << "' but gave: "
      << (outcome.empty() ? "agreement (remove the entry)" : outcome);
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = BaseName(info.param);
  for (char& c : name) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Dumps, XlaDumpTest, ::testing::ValuesIn(DumpFiles()),
                         TestName);

TEST(XlaDumpsTest, AllNinetyDumpsAreThere) {
  EXPECT_GE(DumpFiles().size(), 90u);
}

}  // namespace
}  // namespace kiln::pjrt
