// The `default` pipeline: legalize -> simplify -> canonicalize
// gather/scatter -> cleanups (issue 6). The passes live in passes/ and are
// found by name at run time, so this framework file does not depend on
// them; a binary that does not link a pass gets a pipeline step that fails
// with an error naming it, rather than silently skipping it. Today it holds
// the passes written so far: broadcast-legalization and dce.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/pass/pipeline.h"

namespace kiln {
namespace {

constexpr const char* kDefaultPasses[] = {"broadcast-legalization", "dce"};

// Stands for a pass this binary does not link.
class MissingPass : public Pass {
 public:
  explicit MissingPass(std::string name) : name_(std::move(name)) {}
  absl::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(Module&) override {
    return absl::FailedPreconditionError(absl::StrCat(
        "pass '", name_, "' is not linked into this binary (link //passes)"));
  }

 private:
  std::string name_;
};

std::unique_ptr<PassPipeline> MakeDefaultPipeline() {
  auto pipeline = std::make_unique<PassPipeline>("default");
  for (const char* name : kDefaultPasses) {
    std::unique_ptr<Pass> pass = PassRegistry::Global().Create(name);
    pipeline->AddPass(pass != nullptr ? std::move(pass)
                                      : std::make_unique<MissingPass>(name));
  }
  return pipeline;
}

}  // namespace

KILN_REGISTER_PIPELINE(default_pipeline, "default", MakeDefaultPipeline);

}  // namespace kiln
