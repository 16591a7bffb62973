// The reference backend: Kiln's evaluator (compiler/evaluator) behind the
// Backend interface. It is the oracle the other backends are compared
// with, registered as "reference". It accepts client form as well as strict
// form, because the evaluator does, and simulates replicas x partitions in
// one process for the collectives.
#ifndef KILN_BACKENDS_REFERENCE_REFERENCE_BACKEND_H_
#define KILN_BACKENDS_REFERENCE_REFERENCE_BACKEND_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/backend.h"

namespace kiln {

class ReferenceBackend : public Backend {
 public:
  absl::string_view name() const override { return "reference"; }

  // Every op the evaluator has a kernel for, on every element type the IR
  // has (the kernels cover every type their op's shape rule accepts).
  bool Supports(Opcode opcode, ElementType type) const override;

  bool accepts_client_form() const override { return true; }

  // Verifies the module (client form), checks that every op has a kernel
  // and keeps a copy of it: `module` may be destroyed afterwards.
  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override;
};

}  // namespace kiln

#endif  // KILN_BACKENDS_REFERENCE_REFERENCE_BACKEND_H_
