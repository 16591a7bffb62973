#include "backends/backend.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/verifier/verifier.h"

namespace kiln {
namespace {

// The element type a capability query uses for values of `shape`.
ElementType QueryType(const Shape& shape) {
  if (shape.IsTuple()) return ElementType::kTuple;
  return shape.element_type();
}

absl::Status CheckInstructionSupported(const Backend& backend,
                                       const Instruction& instruction) {
  std::vector<ElementType> types = {QueryType(instruction.shape())};
  for (const Instruction* operand : instruction.operands()) {
    types.push_back(QueryType(operand->shape()));
  }
  for (ElementType type : types) {
    if (backend.Supports(instruction.opcode(), type)) continue;
    return absl::UnimplementedError(
        absl::StrCat(instruction.name(), ": backend '", backend.name(),
                     "' does not support ", OpcodeName(instruction.opcode()),
                     " on ", ElementTypeName(type)));
  }
  return absl::OkStatus();
}

// Whether an argument of shape `argument` can be passed for `parameter`.
bool ArgumentFits(const Shape& parameter, const Shape& argument) {
  if (parameter.IsTuple() != argument.IsTuple()) return false;
  if (parameter.IsTuple()) {
    if (parameter.tuple_size() != argument.tuple_size()) return false;
    for (int64_t i = 0; i < parameter.tuple_size(); ++i) {
      if (!ArgumentFits(parameter.tuple_shape(i), argument.tuple_shape(i))) {
        return false;
      }
    }
    return true;
  }
  if (parameter.element_type() != argument.element_type()) return false;
  if (!parameter.IsArray()) return true;  // token, opaque
  if (parameter.rank() != argument.rank()) return false;
  for (int64_t i = 0; i < parameter.rank(); ++i) {
    const int64_t size = argument.dimension(i);
    if (parameter.is_dynamic_dimension(i)) {
      // Unbounded dimensions carry a negative size: any size fits.
      if (parameter.dimension(i) >= 0 && size > parameter.dimension(i)) {
        return false;
      }
    } else if (size != parameter.dimension(i)) {
      return false;
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<Literal>> Executable::RunReplicated(
    absl::Span<const std::vector<Literal>> arguments) {
  if (device_count_ != 1 || arguments.size() != 1) {
    return absl::UnimplementedError(absl::StrCat(
        "this backend runs one device only; asked for ", arguments.size()));
  }
  absl::StatusOr<Literal> result = Run(arguments[0]);
  if (!result.ok()) return result.status();
  std::vector<Literal> results;
  results.push_back(*std::move(result));
  return results;
}

namespace {

std::future<ExecuteResult> Ready(ExecuteResult result) {
  std::promise<ExecuteResult> promise;
  promise.set_value(std::move(result));
  return promise.get_future();
}

}  // namespace

absl::StatusOr<std::vector<const HostBuffer*>> HostArguments(
    absl::Span<DeviceBuffer* const> arguments) {
  std::vector<const HostBuffer*> buffers;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const auto* buffer = dynamic_cast<const HostBuffer*>(arguments[i]);
    if (buffer == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "argument ", i, " is not a buffer of this backend's host memory"));
    }
    if (buffer->is_deleted()) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " was donated to an earlier execution"));
    }
    buffers.push_back(buffer);
  }
  return buffers;
}

absl::Status CheckDonations(absl::Span<DeviceBuffer* const> arguments,
                            const ExecuteOptions& options) {
  for (int64_t index : options.donated) {
    if (index < 0 || index >= static_cast<int64_t>(arguments.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("donated argument ", index, " does not exist (",
                       arguments.size(), " arguments)"));
    }
  }
  return absl::OkStatus();
}

ExecuteResult ResultBuffers(Literal result) {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  if (result.shape().IsTuple()) {
    for (Literal& element : *result.mutable_tuple_elements()) {
      buffers.push_back(std::make_unique<HostBuffer>(std::move(element), 0));
    }
  } else {
    buffers.push_back(std::make_unique<HostBuffer>(std::move(result), 0));
  }
  return buffers;
}

std::future<ExecuteResult> Executable::Execute(
    absl::Span<DeviceBuffer* const> arguments, const ExecuteOptions& options) {
  if (absl::Status status = CheckDonations(arguments, options); !status.ok()) {
    return Ready(status);
  }
  absl::StatusOr<std::vector<const HostBuffer*>> buffers =
      HostArguments(arguments);
  if (!buffers.ok()) return Ready(buffers.status());
  std::vector<Literal> literals;
  literals.reserve(buffers->size());
  for (size_t i = 0; i < buffers->size(); ++i) {
    const bool donated =
        std::find(options.donated.begin(), options.donated.end(), i) !=
        options.donated.end();
    literals.push_back(donated ? static_cast<HostBuffer*>(arguments[i])->Take()
                               : (*buffers)[i]->value());
  }
  absl::StatusOr<Literal> result = RunOnHost(literals, options);
  if (!result.ok()) return Ready(result.status());
  return Ready(ResultBuffers(*std::move(result)));
}

absl::StatusOr<Literal> Executable::RunOnHost(
    absl::Span<const Literal> arguments, const ExecuteOptions& options) {
  if (options.rng_seed.has_value()) {
    return absl::UnimplementedError(
        "this backend takes the rng seed at compile time only");
  }
  return Run(arguments);
}

absl::Status CheckDeviceCounts(const CompileOptions& options) {
  // The product must stay small: each device is simulated in-process.
  constexpr int64_t kMaxDevices = 1 << 12;
  if (options.replica_count < 1 || options.num_partitions < 1 ||
      options.replica_count > kMaxDevices ||
      options.num_partitions > kMaxDevices / options.replica_count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replica_count (", options.replica_count, ") and num_partitions (",
        options.num_partitions, ") must be at least 1, with at most ",
        kMaxDevices, " devices in all"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Shape>> CheckCompilable(
    const Backend& backend, const Module& module,
    const CompileOptions& options) {
  if (absl::Status status = CheckDeviceCounts(options); !status.ok()) {
    return status;
  }
  if (absl::Status status = VerifyModule(module); !status.ok()) return status;
  if (absl::Status status = CheckSupported(backend, module); !status.ok()) {
    return status;
  }
  return EntryParameterShapes(module);
}

std::vector<Device> Backend::Devices() const {
  return {Device{0, std::string(name()), "the host"}};
}

absl::StatusOr<std::unique_ptr<DeviceBuffer>> Backend::TransferToDevice(
    Literal value, int64_t device) {
  if (device != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("backend '", name(), "' has no device ", device));
  }
  return std::unique_ptr<DeviceBuffer>(
      std::make_unique<HostBuffer>(std::move(value), device));
}

absl::StatusOr<Literal> Backend::TransferToHost(const DeviceBuffer& buffer) {
  const auto* host = dynamic_cast<const HostBuffer*>(&buffer);
  if (host == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a buffer of backend '", name(), "' (host memory)"));
  }
  if (host->is_deleted()) {
    return absl::InvalidArgumentError("the buffer was donated");
  }
  return host->value();
}

absl::Status CheckSupported(const Backend& backend, const Module& module) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      absl::Status status = CheckInstructionSupported(backend, *instruction);
      if (!status.ok()) return status;
    }
  }
  return absl::OkStatus();
}

absl::Status CheckArguments(absl::Span<const Shape> parameters,
                            absl::Span<const Literal> arguments) {
  if (parameters.size() != arguments.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the entry computation takes ", parameters.size(), " parameter",
        parameters.size() == 1 ? "" : "s", " but ", arguments.size(),
        " argument", arguments.size() == 1 ? " was" : "s were", " given"));
  }
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (!ArgumentFits(parameters[i], arguments[i].shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " has shape ",
                       arguments[i].shape().ToString(/*print_layout=*/false),
                       " but parameter ", i, " has shape ",
                       parameters[i].ToString(/*print_layout=*/false)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Shape>> EntryParameterShapes(const Module& module) {
  const Computation* entry = module.entry();
  if (entry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module ", module.name(), " has no entry computation"));
  }
  std::vector<Shape> shapes;
  for (const Instruction* parameter : entry->parameters()) {
    shapes.push_back(parameter->shape());
  }
  return shapes;
}

BackendRegistry& BackendRegistry::Global() {
  static auto* registry = new BackendRegistry();
  return *registry;
}

absl::Status BackendRegistry::Register(std::string name,
                                       BackendFactory factory) {
  if (name.empty() || name.find(':') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "backend name '", name, "' must be non-empty and hold no ':'"));
  }
  absl::MutexLock lock(&mutex_);
  for (const auto& entry : factories_) {
    if (entry.first == name) {
      return absl::AlreadyExistsError(
          absl::StrCat("backend '", name, "' is registered twice"));
    }
  }
  factories_.emplace_back(std::move(name), std::move(factory));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Backend>> BackendRegistry::Create(
    absl::string_view spec) const {
  absl::string_view name = spec;
  absl::string_view argument;
  if (size_t colon = spec.find(':'); colon != absl::string_view::npos) {
    name = spec.substr(0, colon);
    argument = spec.substr(colon + 1);
  }
  BackendFactory factory;
  {
    absl::MutexLock lock(&mutex_);
    for (const auto& entry : factories_) {
      if (entry.first == name) factory = entry.second;
    }
  }
  if (!factory) {
    return absl::NotFoundError(
        absl::StrCat("no backend named '", name,
                     "' (registered: ", absl::StrJoin(Names(), ", "), ")"));
  }
  return factory(argument);
}

std::vector<std::string> BackendRegistry::Names() const {
  std::vector<std::string> names;
  {
    absl::MutexLock lock(&mutex_);
    for (const auto& entry : factories_) names.push_back(entry.first);
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace backend_internal {

BackendRegistration::BackendRegistration(const char* name,
                                         BackendFactory factory) {
  absl::Status status =
      BackendRegistry::Global().Register(name, std::move(factory));
  if (!status.ok()) {
    std::fprintf(stderr, "kiln: %s\n", std::string(status.message()).c_str());
    std::abort();
  }
}

}  // namespace backend_internal
}  // namespace kiln
