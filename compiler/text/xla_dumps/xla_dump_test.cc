// Real XLA output (tools/gen/gen_xla_dumps.py: JAX programs lowered and
// compiled for CPU) must load unchanged, and printing is a fixpoint:
// print(parse(print(parse(dump)))) == print(parse(dump)).
// Every dump must pass unless listed as "parse" in known_failures.txt; a
// listed dump that passes is only reported (other engineers fix these in
// parallel), so delete its line when the log says so.
#include <iostream>
#include <memory>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// OK if the dump parses, and its print parses back and reprints the same.
absl::Status CheckParseAndFixpoint(const std::string& name,
                                   const std::string& text) {
  ParseOptions options;
  options.filename = name;
  absl::StatusOr<std::unique_ptr<Module>> first = ParseModule(text, options);
  if (!first.ok()) return first.status();
  const std::string printed = PrintModule(**first);
  options.filename = name + " (printed)";
  absl::StatusOr<std::unique_ptr<Module>> second =
      ParseModule(printed, options);
  if (!second.ok()) {
    return absl::InternalError(
        absl::StrCat("print does not parse back: ", second.status().message()));
  }
  const std::string reprinted = PrintModule(**second);
  if (reprinted != printed) {
    return absl::InternalError(absl::StrCat(
        "print is not a fixpoint:\n", LineDifferences(printed, reprinted, 5)));
  }
  return absl::OkStatus();
}

TEST(XlaDumpTest, CorpusIsPresent) {
  EXPECT_GE(DumpFiles().size(), 30u) << "dumps missing under " << DumpDir();
}

TEST(XlaDumpTest, EveryDumpParsesAndReprintsToAFixpoint) {
  const std::set<std::string> known = KnownFailures("parse");
  int passed = 0;
  int known_failed = 0;
  for (const std::string& path : DumpFiles()) {
    const std::string name = BaseName(path);
    const absl::Status status = CheckParseAndFixpoint(name, ReadDump(path));
    const bool is_known = known.count(name) > 0;
    if (status.ok()) {
      ++passed;
      if (is_known) {
        std::cout << "NOTE: " << name << " now passes: delete its 'parse' "
                  << "line from known_failures.txt\n";
      }
    } else if (is_known) {
      ++known_failed;
      std::cout << "known failure " << name << ": " << status.message() << "\n";
    } else {
      ADD_FAILURE() << name << ": " << status;
    }
  }
  std::cout << passed << " dumps parse and reprint to a fixpoint, "
            << known_failed << " known failures\n";
}

// Everything else in the optimized dumps (fusions, layouts, metadata,
// backend configs...) must load while the stack frame tables above are a
// known gap: no known failures allowed here.
TEST(XlaDumpTest, EveryDumpWithoutStackFrameTablesParses) {
  for (const std::string& path : DumpFiles()) {
    const std::string name = BaseName(path);
    const absl::Status status =
        CheckParseAndFixpoint(name, WithoutStackFrameTables(ReadDump(path)));
    EXPECT_TRUE(status.ok()) << name << ": " << status;
  }
}

TEST(XlaDumpTest, StrippingStackFrameTablesKeepsTheModule) {
  const std::string text =
      "HloModule m\n\nFileNames\n1 \"a.py\"\n\nStackFrames\n"
      "1 {file_location_id=1 parent_frame_id=1}\n\n\nENTRY e {\n}\n";
  EXPECT_EQ(WithoutStackFrameTables(text), "HloModule m\n\nENTRY e {\n}\n");
  EXPECT_EQ(WithoutStackFrameTables("HloModule m\n"), "HloModule m\n");
}

}  // namespace
}  // namespace kiln
