// A pass transforms a module in place and says whether it changed it.
// Passes are small classes, one .h/.cc pair each under passes/ (or here for
// the framework's own), registered by name so that pipelines and `kiln opt`
// can name them:
//
//   class DcePass : public Pass {
//    public:
//     absl::string_view name() const override { return "dce"; }
//     absl::StatusOr<bool> Run(Module& module) override;
//   };
//   KILN_REGISTER_PASS(DcePass);
#ifndef KILN_COMPILER_PASS_PASS_H_
#define KILN_COMPILER_PASS_PASS_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"

namespace kiln {

class Pass {
 public:
  virtual ~Pass() = default;
  // The registry name, lower-case with hyphens ("dce",
  // "broadcast-legalization").
  virtual absl::string_view name() const = 0;
  // Transforms `module`; returns whether anything changed. An error leaves
  // the module in an unspecified but destructible state.
  virtual absl::StatusOr<bool> Run(Module& module) = 0;
};

using PassFactory = std::function<std::unique_ptr<Pass>()>;

// Passes by name. Thread-compatible: registration happens at static
// initialization (KILN_REGISTER_PASS), lookups afterwards.
class PassRegistry {
 public:
  static PassRegistry& Global();
  // False (and no change) if `name` is already registered.
  bool Register(std::string name, PassFactory factory);
  // Null when `name` is unknown.
  std::unique_ptr<Pass> Create(absl::string_view name) const;
  // Every registered name, sorted.
  std::vector<std::string> Names() const;

 private:
  std::vector<std::pair<std::string, PassFactory>> factories_;
};

namespace pass_internal {
template <typename P>
bool RegisterPass() {
  P prototype;
  return PassRegistry::Global().Register(std::string(prototype.name()), [] {
    return std::unique_ptr<Pass>(new P());
  });
}
}  // namespace pass_internal

// Registers pass class P (default-constructible) under P().name(). The
// library defining it must be linked with alwayslink = True.
#define KILN_REGISTER_PASS(P)                                   \
  static const bool kiln_pass_registered_##P [[maybe_unused]] = \
      ::kiln::pass_internal::RegisterPass<P>()

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_PASS_H_
