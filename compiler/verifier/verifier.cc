#include "compiler/verifier/verifier.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln {
namespace verifier_internal {

absl::Status MakeError(const SourceLocation& location, absl::string_view name,
                       absl::string_view message, absl::string_view rule) {
  std::string where = location.ToString();
  if (!where.empty()) where += ": ";
  return absl::InvalidArgumentError(
      absl::StrCat(where, "error: ", name, ": ", message, " (", rule, ")"));
}

absl::Status InstructionError(const Instruction& instruction,
                              absl::string_view message,
                              absl::string_view rule) {
  return MakeError(instruction.location, instruction.name(), message, rule);
}

}  // namespace verifier_internal

VerifyReport VerifyModuleReport(const Module& module,
                                const VerifyOptions& options) {
  VerifyReport report;
  verifier_internal::CheckStructure(module, &report);
  bool structure_ok = report.ok();
  verifier_internal::CheckModuleConfig(module, &report);
  verifier_internal::CheckTokens(module, &report);
  // The checks below follow operands, users and callees, which is only safe
  // on a structurally sound module (no null operands, no dangling callees).
  if (structure_ok) {
    verifier_internal::CheckAsync(module, &report);
    verifier_internal::CheckChannels(module, &report);
    verifier_internal::CheckLayouts(module, &report);
  }
  // Shape rules read operands and called computations, so they only run on
  // a structurally sound module (no cycles, no dangling callees).
  if (options.check_shapes && structure_ok) {
    verifier_internal::CheckShapes(module, options, &report);
  }
  return report;
}

absl::Status VerifyModule(const Module& module, const VerifyOptions& options) {
  VerifyReport report = VerifyModuleReport(module, options);
  return report.ok() ? absl::OkStatus() : report.errors.front();
}

}  // namespace kiln
