// Exports every XLA dump of compiler/text/xla_dumps and every conformance
// case module of spec_tests/ (run and implementation-defined cases): each
// either exports or is refused with the exporter's explicit, reasoned
// error. Prints the counts; with $KILN_STABLEHLO_DUMP_DIR set, writes each
// export there as NAME.mlir for tools/stablehlo_validate.py.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler/stablehlo/export.h"
#include "compiler/text/parser.h"
#include "compiler/text/text_test_util.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/conform/case_file.h"

namespace kiln::stablehlo {
namespace {

struct Tally {
  int exported = 0;
  int refused = 0;
  std::map<std::string, int> reasons;          // Refusals by opcode.
  std::map<std::string, std::string> example;  // One message per opcode.
};

void Write(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("KILN_STABLEHLO_DUMP_DIR");
  if (dir == nullptr || *dir == '\0') return;
  std::ofstream(absl::StrCat(dir, "/", name, ".mlir")) << text;
}

// The opcode an exporter refusal names: "... %name (opcode): reason".
std::string RefusedOpcode(absl::string_view message) {
  size_t open = message.find(" (", message.find("stablehlo export: "));
  size_t close = message.find("):", open);
  if (open == absl::string_view::npos || close == absl::string_view::npos) {
    return "?";
  }
  return std::string(message.substr(open + 2, close - open - 2));
}

// Exports `module`; a failure must be the exporter's explicit refusal.
void ExportOne(const std::string& name, const Module& module, Tally* tally) {
  absl::StatusOr<std::string> text = ExportModule(module);
  if (text.ok()) {
    ++tally->exported;
    EXPECT_TRUE(absl::StartsWith(*text, "module @")) << name;
    Write(name, *text);
    return;
  }
  ++tally->refused;
  EXPECT_TRUE(absl::StrContains(text.status().message(), "stablehlo export: "))
      << name << ": " << text.status();
  std::string opcode = RefusedOpcode(text.status().message());
  ++tally->reasons[opcode];
  tally->example.emplace(opcode,
                         absl::StrCat(name, ": ", text.status().message()));
}

void Report(absl::string_view what, const Tally& tally) {
  std::cout << what << ": " << tally.exported << " exported, " << tally.refused
            << " refused\n";
  for (const auto& [opcode, count] : tally.reasons) {
    std::cout << "  refused for " << opcode << ": " << count << " (e.g. "
              << tally.example.at(opcode) << ")\n";
  }
}

TEST(ExportAllTest, XlaDumps) {
  Tally tally;
  for (const std::string& path : DumpFiles()) {
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadDump(path), ParseOptions());
    ASSERT_TRUE(module.ok()) << path << ": " << module.status();
    ExportOne(BaseName(path), **module, &tally);
  }
  Report("xla_dumps", tally);
  EXPECT_EQ(tally.exported + tally.refused, 90);
  // rng-get-and-update-state (rng_uniform.opt.hlo) is XLA-internal.
  EXPECT_GE(tally.exported, 89);
}

TEST(ExportAllTest, ConformanceCases) {
  absl::StatusOr<std::vector<std::string>> files =
      conform::FindCaseFiles({RunfilesDir("spec_tests")});
  ASSERT_TRUE(files.ok()) << files.status();
  absl::StatusOr<std::vector<conform::Case>> cases = conform::LoadCases(*files);
  ASSERT_TRUE(cases.ok()) << cases.status();
  Tally tally;
  for (const conform::Case& c : *cases) {
    if (c.kind == conform::CaseKind::kReject) continue;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(c.module_text, ParseOptions());
    ASSERT_TRUE(module.ok()) << c.name << ": " << module.status();
    ExportOne(c.name, **module, &tally);
  }
  Report("conformance cases", tally);
  EXPECT_GT(tally.exported, 0);
}

}  // namespace
}  // namespace kiln::stablehlo
