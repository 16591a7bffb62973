#include "backends/reference/reference_backend.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace {

// Holds its own copy of the module and evaluates it on each Run.
class ReferenceExecutable : public Executable {
 public:
  ReferenceExecutable(std::unique_ptr<Module> module,
                      std::vector<Shape> parameter_shapes,
                      const CompileOptions& options)
      : Executable(std::move(parameter_shapes),
                   options.replica_count * options.num_partitions),
        module_(std::move(module)),
        replica_count_(options.replica_count),
        num_partitions_(options.num_partitions) {
    eval_options_.max_while_iterations = options.max_while_iterations;
    eval_options_.max_literal_bytes = options.max_literal_bytes;
    eval_options_.max_steps = options.max_steps;
    if (options.max_live_bytes > 0) {
      eval_options_.max_live_bytes = options.max_live_bytes;
    }
    eval_options_.rng_seed = options.rng_seed;
  }

  absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) override {
    if (device_count() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compiled for ", device_count(),
          " devices: use RunReplicated with one argument list per device"));
    }
    if (absl::Status status = CheckArguments(parameter_shapes(), arguments);
        !status.ok()) {
      return status;
    }
    return Evaluate(*module_, arguments, eval_options_);
  }

  absl::StatusOr<Literal> RunOnHost(absl::Span<const Literal> arguments,
                                    const ExecuteOptions& options) override {
    if (!options.rng_seed.has_value()) return Run(arguments);
    if (device_count() != 1) {
      return absl::InvalidArgumentError("Execute runs one device");
    }
    if (absl::Status status = CheckArguments(parameter_shapes(), arguments);
        !status.ok()) {
      return status;
    }
    EvalOptions options_for_run = eval_options_;
    options_for_run.rng_seed = *options.rng_seed;
    return Evaluate(*module_, arguments, options_for_run);
  }

  absl::StatusOr<std::vector<Literal>> RunReplicated(
      absl::Span<const std::vector<Literal>> arguments) override {
    if (static_cast<int64_t>(arguments.size()) != device_count()) {
      return absl::InvalidArgumentError(
          absl::StrCat("compiled for ", device_count(), " devices but given ",
                       arguments.size(), " argument lists"));
    }
    for (size_t device = 0; device < arguments.size(); ++device) {
      absl::Status status =
          CheckArguments(parameter_shapes(), arguments[device]);
      if (!status.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("device ", device, ": ", status.message()));
      }
    }
    return EvaluateReplicated(*module_, arguments, replica_count_,
                              num_partitions_, eval_options_);
  }

 private:
  std::unique_ptr<Module> module_;
  int64_t replica_count_;
  int64_t num_partitions_;
  EvalOptions eval_options_;
};

}  // namespace

bool ReferenceBackend::Supports(Opcode opcode, ElementType type) const {
  // Per op and type, not "a kernel exists": supports_sweep_test checks
  // that every valid module Supports accepts runs.
  return eval::RunsOpOnType(opcode, type);
}

absl::StatusOr<std::unique_ptr<Executable>> ReferenceBackend::Compile(
    const Module& module, const CompileOptions& options) {
  absl::StatusOr<std::vector<Shape>> parameters =
      CheckCompilable(*this, module, options);
  if (!parameters.ok()) return parameters.status();
  return std::unique_ptr<Executable>(std::make_unique<ReferenceExecutable>(
      module.Clone(), *std::move(parameters), options));
}

KILN_REGISTER_BACKEND(
    reference,
    [](absl::string_view argument) -> absl::StatusOr<std::unique_ptr<Backend>> {
      if (!argument.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "backend 'reference' takes no argument (got '", argument, "')"));
      }
      return std::unique_ptr<Backend>(std::make_unique<ReferenceBackend>());
    });

}  // namespace kiln
