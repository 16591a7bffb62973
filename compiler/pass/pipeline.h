// Pipelines: passes and nested pipelines run in order, a fixed-point
// wrapper, and a registry of pipelines by name. Instrumentation (verify
// after each pass, statistics, dumps, semantic checking) lives in
// instrumentation.h; RunPipeline there runs any pass with it.
//
//   auto pipeline = std::make_unique<PassPipeline>("simplify");
//   pipeline->AddPass(PassRegistry::Global().Create("dce"));
//   pipeline->AddPass(std::make_unique<FixedPoint>(std::move(peephole)));
#ifndef KILN_COMPILER_PASS_PIPELINE_H_
#define KILN_COMPILER_PASS_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class Instrumentation;

// A pass made of other passes. Run() runs them without instrumentation;
// RunWith() hands `instrumentation` (may be null) down to every leaf pass.
class CompoundPass : public Pass {
 public:
  absl::StatusOr<bool> Run(Module& module) final {
    return RunWith(module, nullptr);
  }
  virtual absl::StatusOr<bool> RunWith(Module& module,
                                       Instrumentation* instrumentation) = 0;
};

// Runs one pass: a compound pass gets `instrumentation` handed down, a leaf
// pass runs under it (or plainly when it is null). A leaf pass's error is
// prefixed with "pass '<name>': " so that every error names its pass.
absl::StatusOr<bool> RunPassWith(Pass& pass, Module& module,
                                 Instrumentation* instrumentation);

// Passes and nested pipelines, run once each, in order. Changed if any
// changed. Stops at the first error.
class PassPipeline : public CompoundPass {
 public:
  explicit PassPipeline(std::string name) : name_(std::move(name)) {}
  absl::string_view name() const override { return name_; }

  // Appends `pass` (a leaf pass, a pipeline or a FixedPoint) and returns it.
  Pass* AddPass(std::unique_ptr<Pass> pass);
  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }

  absl::StatusOr<bool> RunWith(Module& module,
                               Instrumentation* instrumentation) override;

 private:
  std::string name_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

// Runs `body` until it reports no change. Changed if the first run changed.
// A body still changing after `max_iterations` runs is an error naming the
// body (a pass that always reports a change is a bug, not a slow pass).
class FixedPoint : public CompoundPass {
 public:
  static constexpr int64_t kDefaultMaxIterations = 16;
  explicit FixedPoint(std::unique_ptr<Pass> body,
                      int64_t max_iterations = kDefaultMaxIterations);
  // "fixed-point(<body>)".
  absl::string_view name() const override { return name_; }
  Pass& body() const { return *body_; }

  absl::StatusOr<bool> RunWith(Module& module,
                               Instrumentation* instrumentation) override;

 private:
  std::unique_ptr<Pass> body_;
  int64_t max_iterations_;
  std::string name_;
};

// Runs `trigger`, then `then` only if `trigger` changed the module.
// Changed if either changed. For work that only a change can make
// necessary: the default pipeline's cleanups after gather/scatter
// canonicalization run the very fixed point the module already reached,
// so when canonicalization changes nothing they would change nothing.
class IfChanged : public CompoundPass {
 public:
  IfChanged(std::unique_ptr<Pass> trigger, std::unique_ptr<Pass> then);
  // "if-changed(<trigger>, <then>)".
  absl::string_view name() const override { return name_; }

  absl::StatusOr<bool> RunWith(Module& module,
                               Instrumentation* instrumentation) override;

 private:
  std::unique_ptr<Pass> trigger_;
  std::unique_ptr<Pass> then_;
  std::string name_;
};

using PipelineFactory = std::function<std::unique_ptr<PassPipeline>()>;

// Pipelines by name ("default", "cpu", ...). Registration happens at static
// initialization (KILN_REGISTER_PIPELINE), lookups afterwards.
class PipelineRegistry {
 public:
  static PipelineRegistry& Global();
  // False (and no change) if `name` is already registered.
  bool Register(std::string name, PipelineFactory factory);
  // Null when `name` is unknown.
  std::unique_ptr<PassPipeline> Create(absl::string_view name) const;
  // Every registered name, sorted.
  std::vector<std::string> Names() const;

 private:
  std::vector<std::pair<std::string, PipelineFactory>> factories_;
};

// A pipeline named `name` of the given passes, in order. Each name is a
// registered pass or, failing that, a registered pipeline (nested). An
// unknown name is an error naming it.
absl::StatusOr<std::unique_ptr<PassPipeline>> PipelineFromNames(
    std::string name, absl::Span<const std::string> names,
    const PassRegistry& passes = PassRegistry::Global(),
    const PipelineRegistry& pipelines = PipelineRegistry::Global());

// KILN_REGISTER_PIPELINE(default, [] { return std::make_unique<...>(); });
// The library defining it must be linked with alwayslink = True.
#define KILN_REGISTER_PIPELINE(ident, name, factory)                    \
  static const bool kiln_pipeline_registered_##ident [[maybe_unused]] = \
      ::kiln::PipelineRegistry::Global().Register(name, factory)

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_PIPELINE_H_
