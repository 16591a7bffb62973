// Shared by the verifier's check files (not a public API).
#ifndef KILN_COMPILER_VERIFIER_VERIFIER_INTERNAL_H_
#define KILN_COMPILER_VERIFIER_VERIFIER_INTERNAL_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/verifier/verifier.h"

namespace kiln::verifier_internal {

// "file:line:col: error: <name>: <message> (<rule>)"; `location` may be
// unknown (line 0), then the prefix is just "error: ".
absl::Status MakeError(const SourceLocation& location, absl::string_view name,
                       absl::string_view message, absl::string_view rule);
absl::Status InstructionError(const Instruction& instruction,
                              absl::string_view message,
                              absl::string_view rule);

// Each appends its errors to report->errors.
void CheckStructure(const Module& module, VerifyReport* report);
void CheckShapes(const Module& module, const VerifyOptions& options,
                 VerifyReport* report);
void CheckModuleConfig(const Module& module, VerifyReport* report);
void CheckTokens(const Module& module, VerifyReport* report);
// Async chains, start/done pairs and execution threads (async_checks.cc).
void CheckAsync(const Module& module, VerifyReport* report);
// send/recv channels (channel_checks.cc).
void CheckChannels(const Module& module, VerifyReport* report);
// Layouts beyond Shape::Validate, entry layout (layout_checks.cc).
void CheckLayouts(const Module& module, VerifyReport* report);

}  // namespace kiln::verifier_internal

#endif  // KILN_COMPILER_VERIFIER_VERIFIER_INTERNAL_H_
