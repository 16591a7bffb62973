// The `.hlotest` case files of the conformance suite (spec_tests/): a line
// oriented format of named cases, each an HLO module with arguments and an
// expected result, a module that must be rejected, or a module whose value
// is implementation-defined. docs/conformance.md describes the format.
#ifndef KILN_TOOLS_CONFORM_CASE_FILE_H_
#define KILN_TOOLS_CONFORM_CASE_FILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "tools/conform/tolerance.h"

namespace kiln::conform {

enum class CaseKind { kRun, kReject, kImplementationDefined };
enum class RejectStage { kParse, kVerify };

absl::string_view CaseKindName(CaseKind kind);

// `spec: <section title> :: <verbatim fragment>`.
struct SpecReference {
  std::string section;
  std::string fragment;
  int line = 0;
};

// One `arg:` / `expect:` value; `device` is -1 when written without [d]
// (it then applies to every device).
struct CaseValue {
  int64_t device = -1;
  Literal literal;
  int line = 0;
};

struct Case {
  std::string name;
  std::string file;  // As given to the loader.
  int line = 0;      // Of the `case` line.
  std::string suite;
  // The ops the case exercises: `op:` of the case, else of the file, else
  // every op of the module (see InferCaseOps).
  std::vector<std::string> ops;
  std::vector<SpecReference> spec;
  std::string source;
  // Element types named by `types:`; empty means "infer from the module".
  std::vector<ElementType> types;
  std::string module_text;
  int module_line = 0;  // Line of the module's first text line.
  std::vector<CaseValue> args;
  std::vector<CaseValue> expects;
  CaseKind kind = CaseKind::kRun;
  RejectStage reject_stage = RejectStage::kParse;
  std::string reject_rule;
  std::string implementation_defined_reason;
  std::optional<Tolerance> tolerance;
  int64_t replicas = 1;
  int64_t partitions = 1;
  std::string note;

  int64_t device_count() const { return replicas * partitions; }
  // The arguments of device `device`: the values written for every device
  // and those written for it, in file order.
  std::vector<const Literal*> ArgumentsFor(int64_t device) const;
  // The expected value of device `device` (run cases), or nullptr.
  const Literal* ExpectedFor(int64_t device) const;
  // "file:line".
  std::string Location() const;
};

// An `arg:`/`expect:` value: an HLO literal ("f32[2] {1, 2}", XLA's
// "(f32[], s32[]) (1, 2)"), or a tuple written element by element as the
// case format allows: "(f32[2] {1, 2}, s32[] 3)".
absl::StatusOr<Literal> ParseCaseLiteral(absl::string_view text);

// Parses one file's text. `filename` names it in errors, which read
// "FILE:LINE: error: WHAT".
absl::StatusOr<std::vector<Case>> ParseCaseFile(absl::string_view text,
                                                const std::string& filename);

// The `.hlotest` files of `paths` (files, or directories searched
// recursively), sorted.
absl::StatusOr<std::vector<std::string>> FindCaseFiles(
    const std::vector<std::string>& paths);

// Reads and parses every file; case names must be unique across them.
absl::StatusOr<std::vector<Case>> LoadCases(
    const std::vector<std::string>& files);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_CASE_FILE_H_
