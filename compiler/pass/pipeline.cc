#include "compiler/pass/pipeline.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/pass/instrumentation.h"

namespace kiln {

absl::StatusOr<bool> RunPassWith(Pass& pass, Module& module,
                                 Instrumentation* instrumentation) {
  if (auto* compound = dynamic_cast<CompoundPass*>(&pass)) {
    return compound->RunWith(module, instrumentation);
  }
  if (instrumentation != nullptr) {
    return instrumentation->RunPass(pass, module);
  }
  absl::StatusOr<bool> changed = pass.Run(module);
  if (!changed.ok()) {
    return absl::Status(
        changed.status().code(),
        absl::StrCat("pass '", pass.name(), "': ", changed.status().message()));
  }
  return changed;
}

Pass* PassPipeline::AddPass(std::unique_ptr<Pass> pass) {
  passes_.push_back(std::move(pass));
  return passes_.back().get();
}

absl::StatusOr<bool> PassPipeline::RunWith(Module& module,
                                           Instrumentation* instrumentation) {
  bool changed = false;
  for (const std::unique_ptr<Pass>& pass : passes_) {
    absl::StatusOr<bool> pass_changed =
        RunPassWith(*pass, module, instrumentation);
    if (!pass_changed.ok()) return pass_changed.status();
    changed |= *pass_changed;
  }
  return changed;
}

FixedPoint::FixedPoint(std::unique_ptr<Pass> body, int64_t max_iterations)
    : body_(std::move(body)),
      max_iterations_(max_iterations),
      name_(absl::StrCat("fixed-point(", body_->name(), ")")) {}

absl::StatusOr<bool> FixedPoint::RunWith(Module& module,
                                         Instrumentation* instrumentation) {
  bool changed = false;
  for (int64_t i = 0; i < max_iterations_; ++i) {
    absl::StatusOr<bool> body_changed =
        RunPassWith(*body_, module, instrumentation);
    if (!body_changed.ok()) return body_changed.status();
    if (!*body_changed) return changed;
    changed = true;
  }
  return absl::FailedPreconditionError(absl::StrCat(
      name_, ": '", body_->name(), "' still changed the module after ",
      max_iterations_, " iterations"));
}

IfChanged::IfChanged(std::unique_ptr<Pass> trigger, std::unique_ptr<Pass> then)
    : trigger_(std::move(trigger)),
      then_(std::move(then)),
      name_(absl::StrCat("if-changed(", trigger_->name(), ", ", then_->name(),
                         ")")) {}

absl::StatusOr<bool> IfChanged::RunWith(Module& module,
                                        Instrumentation* instrumentation) {
  absl::StatusOr<bool> triggered =
      RunPassWith(*trigger_, module, instrumentation);
  if (!triggered.ok() || !*triggered) return triggered;
  absl::StatusOr<bool> then_changed =
      RunPassWith(*then_, module, instrumentation);
  if (!then_changed.ok()) return then_changed.status();
  return true;
}

PipelineRegistry& PipelineRegistry::Global() {
  static PipelineRegistry* registry = new PipelineRegistry();
  return *registry;
}

bool PipelineRegistry::Register(std::string name, PipelineFactory factory) {
  for (const auto& entry : factories_) {
    if (entry.first == name) return false;
  }
  factories_.emplace_back(std::move(name), std::move(factory));
  return true;
}

std::unique_ptr<PassPipeline> PipelineRegistry::Create(
    absl::string_view name) const {
  for (const auto& entry : factories_) {
    if (entry.first == name) return entry.second();
  }
  return nullptr;
}

std::vector<std::string> PipelineRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& entry : factories_) names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<std::unique_ptr<PassPipeline>> PipelineFromNames(
    std::string name, absl::Span<const std::string> names,
    const PassRegistry& passes, const PipelineRegistry& pipelines) {
  auto pipeline = std::make_unique<PassPipeline>(std::move(name));
  for (const std::string& pass_name : names) {
    std::unique_ptr<Pass> pass = passes.Create(pass_name);
    if (pass == nullptr) pass = pipelines.Create(pass_name);
    if (pass == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("unknown pass or pipeline '", pass_name,
                       "' (kiln opt --list-passes lists them)"));
    }
    pipeline->AddPass(std::move(pass));
  }
  return pipeline;
}

}  // namespace kiln
