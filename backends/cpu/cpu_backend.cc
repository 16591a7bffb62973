#include "backends/cpu/cpu_backend.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "backends/cpu/host_library.h"
#include "backends/cpu/loop_emitter.h"
#include "backends/cpu/lowering.h"
#include "backends/reference/reference_backend.h"
#include "compiler/evaluator/collective_hub.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/float_convert.h"
#include "compiler/text/printer.h"
#include "passes/pipelines.h"

namespace kiln::cpu {
namespace {

// The slots of `program` that are not constants: arena slots with their
// offsets, the result's slots and the parameters' (in a nested program,
// its caller's operands; a while body's result element written in place
// is a parameter slot).
void AppendSlots(const Program& program, const std::string& indent,
                 std::string& out) {
  for (size_t i = 0; i < program.slots.size(); ++i) {
    const BufferSlot& slot = program.slots[i];
    const std::string shape = slot.shape.ToString(false);
    const std::string path = absl::StrJoin(slot.path, ",");
    switch (slot.kind) {
      case BufferSlot::Kind::kArena:
        absl::StrAppend(&out, indent, "slot ", i, ": arena[", slot.offset,
                        ", +", slot.bytes, ") ", shape, "\n");
        break;
      case BufferSlot::Kind::kResult:
        absl::StrAppend(&out, indent, "slot ", i, ": result{", path, "} ",
                        shape, "\n");
        break;
      case BufferSlot::Kind::kParameter:
        absl::StrAppend(&out, indent, "slot ", i, ": parameter ",
                        slot.parameter, "{", path, "} ", shape, "\n");
        break;
      case BufferSlot::Kind::kConstant:
        break;
    }
  }
}

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

class CpuExecutable : public Executable {
 public:
  CpuExecutable(std::unique_ptr<Module> module, Shape result_shape,
                std::vector<Shape> parameter_shapes,
                const CompileOptions& options, const HostBackendConfig& config)
      : Executable(std::move(parameter_shapes),
                   options.replica_count * options.num_partitions),
        config_(config),
        module_(std::move(module)),
        result_shape_(std::move(result_shape)),
        replica_count_(options.replica_count),
        num_partitions_(options.num_partitions) {
    eval_options_.max_while_iterations = options.max_while_iterations;
    eval_options_.max_literal_bytes = options.max_literal_bytes;
    eval_options_.rng_seed = options.rng_seed;
    eval_options_.max_steps = options.max_steps;
    threads_ = options.threads;
    if (options.max_live_bytes > 0) {
      eval_options_.max_live_bytes = options.max_live_bytes;
    }
  }

  // Lowers the optimized module and loads its kernels; without this the
  // executable runs the whole module on the evaluator.
  absl::Status Lower(const KernelCompilerOptions& compiler_options) {
    absl::StatusOr<LoweredModule> lowered = LowerModule(
        *module_, eval_options_.max_while_iterations, config_.target);
    if (!lowered.ok()) return lowered.status();
    lowered_ = *std::move(lowered);
    program_ = lowered_.entry.get();
    if (lowered_.stats.arena_bytes > eval_options_.max_live_bytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("the values alive together need ",
                       lowered_.stats.arena_bytes, " bytes, over the limit of ",
                       eval_options_.max_live_bytes, " (max_live_bytes)"));
    }
    const std::vector<Program*> programs = AllPrograms(*program_);
    for (Program* program : programs) {
      for (const auto& thunk : program->thunks) {
        if (auto* library = dynamic_cast<LibraryThunk*>(thunk.get())) {
          library->set_host_library(GetHostLibrary(compiler_options), threads_);
        }
      }
    }
    if (!config_.cannot_run.empty()) return absl::OkStatus();
    if (config_.device_loader) {
      const std::string unit =
          lowered_.kernel_source.empty()
              ? std::string()
              : absl::StrCat(Prelude(), lowered_.kernel_source);
      absl::StatusOr<std::unique_ptr<DeviceExecutor>> device =
          config_.device_loader(unit, *program_);
      if (!device.ok()) return device.status();
      device_ = *std::move(device);
      return absl::OkStatus();
    }
    if (lowered_.kernel_source.empty()) return absl::OkStatus();
    absl::StatusOr<std::shared_ptr<KernelLibrary>> library = BuildKernelLibrary(
        lowered_.kernel_source, compiler_options, &build_stats_, Prelude());
    if (!library.ok()) return library.status();
    library_ = *std::move(library);
    if (auto set_threads = reinterpret_cast<void (*)(int)>(
            library_->Find("kiln_set_threads"))) {
      set_threads(static_cast<int>(threads_));
    }
    // The GPU emulation reports a kernel that broke its rules (a barrier
    // not every thread reaches) here.
    take_error_ = reinterpret_cast<const char* (*)()>(
        library_->Find("kiln_emu_take_error"));
    for (Program* program : programs) {
      for (const auto& thunk : program->thunks) {
        auto* kernel = dynamic_cast<KernelThunk*>(thunk.get());
        if (kernel == nullptr) continue;
        void* symbol = library_->Find(kernel->symbol());
        if (symbol == nullptr) {
          return absl::InternalError(
              absl::StrCat("generated kernel ", kernel->symbol(), " missing"));
        }
        kernel->set_function(reinterpret_cast<KernelFunction>(symbol));
      }
    }
    return absl::OkStatus();
  }

  void set_whole_module_reason(std::string reason) {
    whole_module_reason_ = std::move(reason);
  }
  void set_pipeline_seconds(double seconds) { pipeline_seconds_ = seconds; }

  absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) override {
    if (!config_.cannot_run.empty()) {
      return absl::FailedPreconditionError(config_.cannot_run);
    }
    if (device_count() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compiled for ", device_count(),
          " devices: use RunReplicated with one argument list per device"));
    }
    if (absl::Status status = CheckArguments(parameter_shapes(), arguments);
        !status.ok()) {
      return status;
    }
    if (program_ == nullptr) {
      return Evaluate(*module_, arguments, eval_options_);
    }
    std::vector<const Literal*> pointers;
    for (const Literal& argument : arguments) pointers.push_back(&argument);
    return RunProgram(pointers, eval_options_);
  }

  // Runs on HostBuffers without copying them in: parameter slots point at
  // the buffers' storage, and the result's leaves become the result
  // buffers.
  std::future<ExecuteResult> Execute(absl::Span<DeviceBuffer* const> arguments,
                                     const ExecuteOptions& options) override {
    if (!config_.cannot_run.empty()) {
      std::promise<ExecuteResult> promise;
      promise.set_value(absl::FailedPreconditionError(config_.cannot_run));
      return promise.get_future();
    }
    if (program_ == nullptr || device_count() != 1) {
      return Executable::Execute(arguments, options);
    }
    std::promise<ExecuteResult> promise;
    promise.set_value(ExecuteOnBuffers(arguments, options));
    return promise.get_future();
  }

  absl::StatusOr<Literal> RunOnHost(absl::Span<const Literal> arguments,
                                    const ExecuteOptions& options) override {
    if (!config_.cannot_run.empty()) {
      return absl::FailedPreconditionError(config_.cannot_run);
    }
    if (absl::Status status = CheckArguments(parameter_shapes(), arguments);
        !status.ok()) {
      return status;
    }
    EvalOptions run_options = eval_options_;
    if (options.rng_seed.has_value()) run_options.rng_seed = *options.rng_seed;
    if (program_ == nullptr) return Evaluate(*module_, arguments, run_options);
    std::vector<const Literal*> pointers;
    for (const Literal& argument : arguments) pointers.push_back(&argument);
    return RunProgram(pointers, run_options);
  }

  absl::StatusOr<std::vector<Literal>> RunReplicated(
      absl::Span<const std::vector<Literal>> arguments) override {
    if (!config_.cannot_run.empty()) {
      return absl::FailedPreconditionError(config_.cannot_run);
    }
    if (static_cast<int64_t>(arguments.size()) != device_count()) {
      return absl::InvalidArgumentError(
          absl::StrCat("compiled for ", device_count(), " devices but given ",
                       arguments.size(), " argument lists"));
    }
    if (device_count() == 1) {
      absl::StatusOr<Literal> result = Run(arguments[0]);
      if (!result.ok()) return result.status();
      std::vector<Literal> results;
      results.push_back(*std::move(result));
      return results;
    }
    for (size_t device = 0; device < arguments.size(); ++device) {
      absl::Status status =
          CheckArguments(parameter_shapes(), arguments[device]);
      if (!status.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("device ", device, ": ", status.message()));
      }
    }
    if (program_ == nullptr) {
      return EvaluateReplicated(*module_, arguments, replica_count_,
                                num_partitions_, eval_options_);
    }
    return RunDevices(arguments);
  }

  absl::StatusOr<std::string> Emit(absl::string_view what) const override;

 private:
  // The leaf of `literal` at `path`.
  static Literal* Leaf(Literal& literal, const std::vector<int64_t>& path) {
    Literal* leaf = &literal;
    for (int64_t index : path) leaf = &(*leaf->mutable_tuple_elements())[index];
    return leaf;
  }

  // Copies into `result` the leaves not written in place (parameters,
  // constants, and a value that appears at several paths).
  void FillResult(const ValueTree& tree, std::vector<int64_t>& path,
                  const RunState& state, Literal& result) const {
    if (tree.slot >= 0) {
      const BufferSlot& slot = program_->slots[tree.slot];
      if (slot.kind == BufferSlot::Kind::kResult && slot.path == path) return;
      absl::Span<uint8_t> data = Leaf(result, path)->mutable_data();
      if (!data.empty()) {
        std::memcpy(data.data(), state.addresses[tree.slot], data.size());
      }
      return;
    }
    for (size_t i = 0; i < tree.elements.size(); ++i) {
      path.push_back(i);
      FillResult(tree.elements[i], path, state, result);
      path.pop_back();
    }
  }

  // Arenas are kept for later executions, so that a run does not pay for
  // fresh pages; each execution has one to itself.
  std::unique_ptr<uint8_t, FreeDeleter> TakeArena() {
    {
      absl::MutexLock lock(&arena_mutex_);
      if (!arenas_.empty()) {
        std::unique_ptr<uint8_t, FreeDeleter> arena = std::move(arenas_.back());
        arenas_.pop_back();
        return arena;
      }
    }
    const int64_t bytes = (lowered_.stats.arena_bytes + 63) / 64 * 64 + 64;
    return std::unique_ptr<uint8_t, FreeDeleter>(
        static_cast<uint8_t*>(std::aligned_alloc(64, bytes)));
  }
  void ReturnArena(std::unique_ptr<uint8_t, FreeDeleter> arena) {
    absl::MutexLock lock(&arena_mutex_);
    arenas_.push_back(std::move(arena));
  }

  ExecuteResult ExecuteOnBuffers(absl::Span<DeviceBuffer* const> arguments,
                                 const ExecuteOptions& options) {
    if (absl::Status status = CheckDonations(arguments, options);
        !status.ok()) {
      return status;
    }
    absl::StatusOr<std::vector<const HostBuffer*>> buffers =
        HostArguments(arguments);
    if (!buffers.ok()) return buffers.status();
    std::vector<const Literal*> pointers;
    for (const HostBuffer* buffer : *buffers) {
      pointers.push_back(&buffer->value());
    }
    if (pointers.size() != parameter_shapes().size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected ", parameter_shapes().size(),
                       " arguments, got ", pointers.size()));
    }
    for (size_t i = 0; i < pointers.size(); ++i) {
      if (!pointers[i]->shape().Compatible(parameter_shapes()[i])) {
        return absl::InvalidArgumentError(absl::StrCat(
            "argument ", i, " has shape ", pointers[i]->shape().ToString(false),
            ", the parameter ", parameter_shapes()[i].ToString(false)));
      }
    }
    EvalOptions run_options = eval_options_;
    if (options.rng_seed.has_value()) run_options.rng_seed = *options.rng_seed;
    // Donated buffers are consumed whether or not the run succeeded; an
    // output their input_output_alias lets share one is written into it.
    std::vector<std::optional<Literal>> donated(pointers.size());
    for (int64_t index : options.donated) {
      donated[index] = static_cast<HostBuffer*>(arguments[index])->Take();
      pointers[index] = &*donated[index];
    }
    absl::StatusOr<Literal> result =
        RunProgram(pointers, run_options, {}, nullptr, &donated);
    if (!result.ok()) return result.status();
    return ResultBuffers(*std::move(result));
  }

  // One thread per device (RunOnDevices, as the reference backend's
  // simulated devices), each running the program on its own arena and
  // evaluator context; the collective thunks of all of them meet in the
  // shared hub.
  absl::StatusOr<std::vector<Literal>> RunDevices(
      absl::Span<const std::vector<Literal>> arguments) {
    return RunOnDevices(
        replica_count_, num_partitions_,
        [&](int64_t d, eval::DeviceId id,
            eval::CollectiveHub* hub) -> absl::StatusOr<Literal> {
          std::vector<const Literal*> pointers;
          for (const Literal& argument : arguments[d]) {
            pointers.push_back(&argument);
          }
          return RunProgram(pointers, eval_options_, id, hub);
        });
  }

  // Moves each donated argument that an honoured input_output_alias pairs
  // with an output into `result` as that output (when their shapes agree,
  // layouts included; the output then has the argument's shape, which may
  // leave a default layout unwritten), and points `arguments` at it there.
  void ShareDonatedBuffers(std::vector<std::optional<Literal>>& donated,
                           std::vector<const Literal*>& arguments,
                           Literal& result) const {
    for (const DonationAlias& alias : lowered_.donation.aliases) {
      std::optional<Literal>& buffer = donated[alias.parameter];
      if (!buffer.has_value()) continue;
      Literal* leaf = Leaf(result, alias.output_index);
      // Literal storage is row-major whatever the layout says, but a
      // result keeps the layout it is declared with: a shape without one
      // stands for the default.
      Shape given = buffer->shape(), wanted = leaf->shape();
      given.SetDefaultLayoutIfMissing();
      wanted.SetDefaultLayoutIfMissing();
      if (!(given == wanted)) continue;
      *leaf = *std::move(buffer);
      buffer.reset();
      arguments[alias.parameter] = leaf;
    }
  }

  absl::StatusOr<Literal> RunProgram(
      std::vector<const Literal*> arguments, const EvalOptions& run_options,
      eval::DeviceId device = {}, eval::CollectiveHub* hub = nullptr,
      std::vector<std::optional<Literal>>* donated = nullptr) {
    if (device_ != nullptr) {
      // Donated buffers are not shared with the result on a device: the
      // arguments are copied in and the result copied out.
      eval::EvalContext context(*module_, run_options, device, hub);
      return device_->Run(*program_, arguments, result_shape_, context);
    }
    std::unique_ptr<uint8_t, FreeDeleter> arena = TakeArena();
    if (arena == nullptr) {
      return absl::ResourceExhaustedError(
          absl::StrCat("cannot allocate the ", lowered_.stats.arena_bytes,
                       "-byte arena of an execution"));
    }
    // Every byte of the result is written: by the thunk producing a leaf
    // in place, or by FillResult's copy.
    absl::StatusOr<Literal> result = Literal::CreateForOverwrite(
        result_shape_, eval_options_.max_literal_bytes);
    if (!result.ok()) return result.status();
    if (donated != nullptr) ShareDonatedBuffers(*donated, arguments, *result);
    RunState state;
    state.program = program_;
    state.addresses.resize(program_->slots.size());
    for (size_t i = 0; i < program_->slots.size(); ++i) {
      const BufferSlot& slot = program_->slots[i];
      const Literal* literal = slot.constant;
      switch (slot.kind) {
        case BufferSlot::Kind::kArena:
          state.addresses[i] = arena.get() + slot.offset;
          continue;
        case BufferSlot::Kind::kResult:
          state.addresses[i] = Leaf(*result, slot.path)->mutable_data().data();
          continue;
        case BufferSlot::Kind::kParameter:
          literal = arguments[slot.parameter];
          for (int64_t index : slot.path) {
            literal = &literal->tuple_elements()[index];
          }
          break;
        case BufferSlot::Kind::kConstant:
          break;
      }
      // Thunks never write parameter or constant slots.
      state.addresses[i] = const_cast<uint8_t*>(literal->data().data());
    }
    eval::EvalContext context(*module_, run_options, device, hub);
    state.eval = &context;
    absl::Status status = absl::OkStatus();
    for (const auto& thunk : program_->thunks) {
      status = thunk->Run(state);
      if (!status.ok()) break;
    }
    if (const char* error = take_error_ != nullptr ? take_error_() : nullptr;
        status.ok() && error != nullptr) {
      status = absl::InternalError(error);
    }
    ReturnArena(std::move(arena));
    if (!status.ok()) return status;
    std::vector<int64_t> path;
    FillResult(program_->result, path, state, *result);
    return result;
  }

  std::string Stats() const;
  const std::string& Prelude() const {
    return config_.prelude.empty() ? KernelPrelude() : config_.prelude;
  }

  HostBackendConfig config_;
  const char* (*take_error_)() = nullptr;
  std::unique_ptr<Module> module_;
  Shape result_shape_;
  int64_t replica_count_;
  int64_t num_partitions_;
  EvalOptions eval_options_;
  int64_t threads_ = 0;
  LoweredModule lowered_;
  Program* program_ = nullptr;  // lowered_.entry, or null: evaluate whole.
  std::shared_ptr<KernelLibrary> library_;
  std::unique_ptr<DeviceExecutor> device_;  // Set by config_.device_loader.
  absl::Mutex arena_mutex_;
  std::vector<std::unique_ptr<uint8_t, FreeDeleter>> arenas_
      ABSL_GUARDED_BY(arena_mutex_);
  KernelBuildStats build_stats_;
  std::string whole_module_reason_;
  double pipeline_seconds_ = 0;
};

std::string CpuExecutable::Stats() const {
  std::string out;
  if (program_ == nullptr) {
    int64_t count = 0;
    for (const Computation* computation : module_->computations()) {
      count += computation->instruction_count();
    }
    return absl::StrCat(
        "native instructions: 0\nfallback instructions: ", count,
        " (the whole module runs on the evaluator: ", whole_module_reason_,
        ")\n");
  }
  const LoweringStats& stats = lowered_.stats;
  absl::StrAppend(&out, "native instructions: ", stats.native_instructions,
                  "\nfallback instructions: ", stats.fallback_instructions,
                  "\n");
  for (const auto& [op, count] : stats.fallback_by_op) {
    absl::StrAppend(&out, "  fallback ", op, ": ", count, " (",
                    stats.fallback_reason.at(op), ")\n");
  }
  absl::StrAppend(&out, "kernels: ", stats.kernels,
                  "\nlibrary calls: ", stats.library_calls,
                  "\ncontrol-flow thunks: ", stats.control_flow,
                  "\ncollective thunks: ", stats.collectives,
                  "\nthunks: ", program_->thunks.size(),
                  "\narena bytes: ", stats.arena_bytes, " (",
                  stats.unshared_bytes, " without reuse)\n");
  for (const std::string& line : lowered_.donation.report) {
    absl::StrAppend(&out, "donation: ", line, "\n");
  }
  absl::StrAppend(
      &out, absl::StrFormat("pipeline seconds: %.3f\n", pipeline_seconds_));
  if (device_ != nullptr) {
    absl::StrAppend(&out, device_->Stats());
  } else if (stats.kernels > 0) {
    absl::StrAppend(
        &out, "kernel cache: ", build_stats_.cache_hit ? "hit" : "miss",
        build_stats_.rebuilt_corrupt_entry ? " (corrupt entry rebuilt)" : "",
        absl::StrFormat(" (host compiler %.3f s) ",
                        build_stats_.compile_seconds),
        build_stats_.path, "\n");
  }
  return out;
}

absl::StatusOr<std::string> CpuExecutable::Emit(absl::string_view what) const {
  if (what == "hlo") return PrintModule(*module_);
  if (what == "stats") return Stats();
  if (what == config_.source_emit) {
    if (program_ == nullptr || lowered_.kernel_source.empty()) {
      return std::string("// no generated kernels\n");
    }
    return absl::StrCat(Prelude(), lowered_.kernel_source);
  }
  if (what == "device_times" && device_ != nullptr) {
    // "MIN MEDIAN COUNT" in seconds, for `kiln bench`.
    std::vector<double> times = device_->DeviceSeconds();
    if (times.empty()) return std::string("0 0 0\n");
    std::sort(times.begin(), times.end());
    return absl::StrFormat("%.9f %.9f %d\n", times.front(),
                           times[times.size() / 2], times.size());
  }
  if (what == "thunks") {
    if (program_ == nullptr) {
      return absl::StrCat("evaluate whole module (", whole_module_reason_,
                          ")\n");
    }
    std::string out;
    const std::vector<Program*> programs =
        AllPrograms(const_cast<Program&>(*program_));
    for (size_t p = 0; p < programs.size(); ++p) {
      const std::string indent = p > 0 ? "  " : "";
      if (p > 0) {
        absl::StrAppend(&out, "program ", p, " (arena ",
                        programs[p]->arena_bytes, " bytes):\n");
      }
      AppendSlots(*programs[p], indent, out);
      for (size_t i = 0; i < programs[p]->thunks.size(); ++i) {
        absl::StrAppend(&out, indent, i, ": ",
                        programs[p]->thunks[i]->ToString(), "\n");
      }
    }
    return out;
  }
  if (!config_.extra_emit.empty() && what == config_.extra_emit) {
    if (program_ == nullptr || lowered_.kernel_source.empty()) {
      return std::string("// no generated kernels\n");
    }
    return config_.extra_emitter(
        absl::StrCat(Prelude(), lowered_.kernel_source));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--emit=", what, ": the ", config_.name, " backend emits hlo, thunks, ",
      config_.source_emit,
      config_.extra_emit.empty() ? "" : absl::StrCat(", ", config_.extra_emit),
      " or stats"));
}

}  // namespace

bool CpuBackend::Supports(Opcode opcode, ElementType type) const {
  // What has no native lowering runs on the evaluator's kernel.
  return ReferenceBackend().Supports(opcode, type);
}

absl::StatusOr<std::unique_ptr<Executable>> CpuBackend::Compile(
    const Module& module, const CompileOptions& options) {
  absl::StatusOr<std::vector<Shape>> parameters =
      CheckCompilable(*this, module, options);
  if (!parameters.ok()) return parameters.status();
  std::unique_ptr<Module> optimized = module.Clone();
  absl::StatusOr<std::unique_ptr<PassPipeline>> pipeline =
      MakeBackendPipeline(config_.pipeline);
  if (!pipeline.ok()) return pipeline.status();
  const auto start = std::chrono::steady_clock::now();
  if (absl::StatusOr<bool> ran = (*pipeline)->Run(*optimized); !ran.ok()) {
    return ran.status();
  }
  const double pipeline_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::string reason = WholeModuleFallbackReason(*optimized);
  auto executable = std::make_unique<CpuExecutable>(
      std::move(optimized), module.entry()->root()->shape(),
      *std::move(parameters), options, config_);
  executable->set_pipeline_seconds(pipeline_seconds);
  if (reason.empty()) {
    if (absl::Status status = executable->Lower(options_); !status.ok()) {
      return status;
    }
  } else {
    executable->set_whole_module_reason(std::move(reason));
  }
  return std::unique_ptr<Executable>(std::move(executable));
}

KILN_REGISTER_BACKEND(
    cpu,
    [](absl::string_view argument) -> absl::StatusOr<std::unique_ptr<Backend>> {
      KernelCompilerOptions options;
      if (argument == "portable") {
        options.portable = true;
      } else if (!argument.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("backend 'cpu' takes no argument or 'portable' (got '",
                         argument, "')"));
      }
      return std::unique_ptr<Backend>(std::make_unique<CpuBackend>(options));
    });

}  // namespace kiln::cpu
