// Passes for testing the framework and `kiln opt` (testonly; linked into
// tests and the kiln_with_test_passes binary, never into kiln itself).
#ifndef KILN_COMPILER_PASS_TEST_PASSES_H_
#define KILN_COMPILER_PASS_TEST_PASSES_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

// Correct: swaps the operands of every add (a+b is b+a bitwise).
class AddCommutePass : public Pass {
 public:
  absl::string_view name() const override { return "test-add-commute"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

// Deliberately wrong: turns every add into a subtract.
class AddToSubtractPass : public Pass {
 public:
  absl::string_view name() const override { return "test-add-to-subtract"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

// Never settles: reports a change every time without changing anything.
class AlwaysChangedPass : public Pass {
 public:
  absl::string_view name() const override { return "test-always-changed"; }
  absl::StatusOr<bool> Run(Module& module) override { return true; }
};

// Breaks the module: gives the entry ROOT a wrong declared shape (rank
// one higher), which the verifier reports.
class BreakRootShapePass : public Pass {
 public:
  absl::string_view name() const override { return "test-break-root-shape"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

// Fails: returns an error mentioning the module.
class FailingPass : public Pass {
 public:
  absl::string_view name() const override { return "test-fail"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_TEST_PASSES_H_
