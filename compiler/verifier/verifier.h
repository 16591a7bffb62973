// The HLO verifier: checks that a parsed or transformed module is well
// formed (structure, declared shapes against the spec's shape rules, module
// config, async chains and start/done pairs, channels, execution threads,
// layouts) before anything runs or rewrites it. docs/verifier.md lists the
// rules by name. Every error reads
// "file:line:col: error: <name>: <message> (<rule>)"; the location prefix is
// left out when the instruction has no source location.
#ifndef KILN_COMPILER_VERIFIER_VERIFIER_H_
#define KILN_COMPILER_VERIFIER_VERIFIER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/module.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {

struct VerifyOptions {
  // kClient accepts implicit broadcasting on elementwise ops; kStrict is
  // exactly XLA's HLO.
  ShapeForm form = ShapeForm::kClient;
  // Check declared shapes against InferShape (off: structure only).
  bool check_shapes = true;
};

struct VerifyReport {
  // Every error found, in module order; empty when the module verifies.
  std::vector<absl::Status> errors;
  // Instructions whose declared shape was checked (or skipped, below).
  int64_t instructions_checked = 0;
  // Instructions whose opcode has no shape rule yet (InferShape returned
  // Unimplemented): not errors, but not checked either.
  int64_t without_shape_rule = 0;
  bool ok() const { return errors.empty(); }
};

// All errors of `module`.
VerifyReport VerifyModuleReport(const Module& module,
                                const VerifyOptions& options = {});

// The first error of `module`, or OK.
absl::Status VerifyModule(const Module& module,
                          const VerifyOptions& options = {});

}  // namespace kiln

#endif  // KILN_COMPILER_VERIFIER_VERIFIER_H_
