// For every module in compiler/text/testdata/*.hlo: parse -> print -> parse
// -> print is a fixpoint and both parses give equal modules.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/text/text_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::string TestdataDir() { return RunfilesDir("compiler/text/testdata"); }

std::vector<std::string> HloFiles() { return HloFilesIn(TestdataDir()); }

std::string ReadFile(const std::string& path) { return ReadWholeFile(path); }

TEST(RoundtripTest, CorpusIsPresent) {
  EXPECT_FALSE(HloFiles().empty()) << "no .hlo files under " << TestdataDir();
}

TEST(RoundtripTest, PrintParseIsAFixpoint) {
  for (const std::string& path : HloFiles()) {
    SCOPED_TRACE(path);
    ParseOptions options;
    options.filename = path;
    const std::string text = ReadFile(path);
    absl::StatusOr<std::unique_ptr<Module>> first = ParseModule(text, options);
    EXPECT_TRUE(first.ok()) << first.status();
    if (!first.ok()) continue;
    const std::string printed = PrintModule(**first);
    options.filename = path + " (printed)";
    absl::StatusOr<std::unique_ptr<Module>> second =
        ParseModule(printed, options);
    EXPECT_TRUE(second.ok()) << second.status() << "\n" << printed;
    if (!second.ok()) continue;
    EXPECT_EQ(PrintModule(**second), printed);
    EXPECT_EQ(ModuleDifference(**first, **second), "");
  }
}

// Random byte edits of every corpus module: parsing either succeeds or
// fails with InvalidArgument, and whatever parses prints and parses back.
// Deterministic (fixed seed); run under ASan to catch memory errors.
TEST(RoundtripTest, MutatedCorpusNeverCrashes) {
  const std::string alphabet = "{}()[]%,=\"/*:.-<>0123456789abcfsTx\n ";
  uint32_t state = 2024;
  auto next = [&state] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (const std::string& path : HloFiles()) {
    const std::string text = ReadFile(path);
    if (text.empty()) continue;
    for (int round = 0; round < 200; ++round) {
      std::string mutated = text;
      const int edits = 1 + next() % 3;
      for (int e = 0; e < edits && !mutated.empty(); ++e) {
        const size_t at = next() % mutated.size();
        const char c = alphabet[next() % alphabet.size()];
        switch (next() % 3) {
          case 0:
            mutated[at] = c;
            break;
          case 1:
            mutated.insert(mutated.begin() + at, c);
            break;
          default:
            mutated.erase(at, 1);
            break;
        }
      }
      absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(mutated);
      if (!module.ok()) {
        ASSERT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument)
            << path << ": " << module.status();
        continue;
      }
      const std::string printed = PrintModule(**module);
      absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(printed);
      ASSERT_TRUE(reparsed.ok())
          << path << " round " << round << ": " << reparsed.status() << "\n"
          << printed;
      EXPECT_EQ(PrintModule(**reparsed), printed) << path;
    }
  }
}

}  // namespace
}  // namespace kiln
