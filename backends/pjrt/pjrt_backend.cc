#include "backends/pjrt/pjrt_backend.h"

#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "backends/pjrt/probes.h"
#include "backends/pjrt/support_file.h"
#include "compiler/stablehlo/export.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"

namespace kiln::pjrt {
namespace {

// The array and token leaves of `shape`, in order (the exporter flattens
// entry parameters and results the same way).
void Leaves(const Shape& shape, std::vector<const Shape*>* leaves) {
  if (!shape.IsTuple()) {
    leaves->push_back(&shape);
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) Leaves(element, leaves);
}

void LiteralLeaves(const Literal& value, std::vector<const Literal*>* leaves) {
  if (!value.shape().IsTuple()) {
    leaves->push_back(&value);
    return;
  }
  for (const Literal& element : value.tuple_elements()) {
    LiteralLeaves(element, leaves);
  }
}

// Rebuilds a value of `shape` from its leaves, taken in order from `next`.
Literal Assemble(const Shape& shape, std::vector<Literal>& leaves,
                 size_t* next) {
  if (!shape.IsTuple()) return std::move(leaves[(*next)++]);
  std::vector<Literal> elements;
  for (const Shape& element : shape.tuple_shapes()) {
    elements.push_back(Assemble(element, leaves, next));
  }
  return Literal::Tuple(std::move(elements));
}

// Host buffers carry static arrays of the types PJRT names: tokens, opaque
// values, dynamic shapes and s1/u1/f6 cannot cross (Unimplemented: the
// case is unsupported, not failed).
absl::Status CheckTransferable(const std::vector<const Shape*>& leaves,
                               absl::string_view what) {
  for (const Shape* leaf : leaves) {
    if (!leaf->IsArray() || !leaf->is_static() ||
        !Plugin::HasBufferType(leaf->element_type())) {
      return absl::UnimplementedError(
          absl::StrCat("pjrt: entry ", what, " of type ", leaf->ToString(false),
                       " are not transferred"));
    }
  }
  return absl::OkStatus();
}

// The device layout of each entry argument array: the minor_to_major of
// entry_computation_layout where it is not the default (the exporter
// writes those as mhlo.layout_mode, and the plugin compiles for them),
// else empty.
std::vector<std::vector<int64_t>> ArgumentLayouts(const Module& module) {
  std::vector<std::vector<int64_t>> layouts;
  const ModuleConfig& config = module.config();
  if (!config.entry_computation_layout.has_value()) return layouts;
  bool any = false;
  for (const Shape& parameter : config.entry_computation_layout->parameters) {
    std::vector<const Shape*> leaves;
    Leaves(parameter, &leaves);
    for (const Shape* leaf : leaves) {
      std::vector<int64_t> minor_to_major;
      if (leaf->IsArray() && leaf->has_layout()) {
        minor_to_major = leaf->layout().minor_to_major();
        bool is_default = true;
        for (size_t k = 0; k < minor_to_major.size(); ++k) {
          is_default &= minor_to_major[k] ==
                        static_cast<int64_t>(minor_to_major.size() - 1 - k);
        }
        if (is_default) minor_to_major.clear();
      }
      any |= !minor_to_major.empty();
      layouts.push_back(std::move(minor_to_major));
    }
  }
  if (!any) layouts.clear();
  return layouts;
}

class PjrtExecutable : public Executable {
 public:
  PjrtExecutable(std::vector<Shape> parameter_shapes, int64_t device_count,
                 std::unique_ptr<Program> program, Shape result_shape,
                 std::string mlir,
                 std::vector<std::vector<int64_t>> argument_layouts)
      : Executable(std::move(parameter_shapes), device_count),
        program_(std::move(program)),
        result_shape_(std::move(result_shape)),
        mlir_(std::move(mlir)),
        default_argument_layouts_(argument_layouts.empty()) {
    program_->SetArgumentLayouts(std::move(argument_layouts));
    std::vector<const Shape*> leaves;
    Leaves(result_shape_, &leaves);
    for (const Shape* leaf : leaves) result_leaves_.push_back(*leaf);
  }

  absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) override {
    if (device_count() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compiled for ", device_count(),
          " devices: use RunReplicated with one argument list per device"));
    }
    std::vector<std::vector<Literal>> lists(1);
    lists[0].assign(arguments.begin(), arguments.end());
    absl::StatusOr<std::vector<Literal>> results = RunReplicated(lists);
    if (!results.ok()) return results.status();
    return std::move((*results)[0]);
  }

  absl::StatusOr<std::vector<Literal>> RunReplicated(
      absl::Span<const std::vector<Literal>> arguments) override {
    if (static_cast<int64_t>(arguments.size()) != device_count()) {
      return absl::InvalidArgumentError(
          absl::StrCat("compiled for ", device_count(), " devices; got ",
                       arguments.size(), " argument lists"));
    }
    std::vector<std::vector<const Literal*>> leaves(arguments.size());
    for (size_t d = 0; d < arguments.size(); ++d) {
      if (absl::Status s = CheckArguments(parameter_shapes(), arguments[d]);
          !s.ok()) {
        return s;
      }
      for (const Literal& argument : arguments[d]) {
        LiteralLeaves(argument, &leaves[d]);
      }
    }
    absl::StatusOr<std::vector<std::vector<Literal>>> outputs =
        program_->Execute(leaves, result_leaves_);
    if (!outputs.ok()) return outputs.status();
    std::vector<Literal> results;
    for (std::vector<Literal>& device : *outputs) {
      size_t next = 0;
      results.push_back(Assemble(result_shape_, device, &next));
    }
    return results;
  }

  // On PluginBuffers (one device, array parameters, a root that is an
  // array or a tuple of arrays): executes in device memory, and the
  // results stay there. Anything else goes through the host (Run).
  std::future<ExecuteResult> Execute(absl::Span<DeviceBuffer* const> arguments,
                                     const ExecuteOptions& options) override {
    std::vector<PluginBuffer*> buffers;
    for (DeviceBuffer* argument : arguments) {
      auto* buffer = dynamic_cast<PluginBuffer*>(argument);
      if (buffer == nullptr) break;
      buffers.push_back(buffer);
    }
    if (buffers.size() != arguments.size() || device_count() != 1 ||
        options.rng_seed.has_value() || !FlatRoot()) {
      return Executable::Execute(arguments, options);
    }
    std::promise<ExecuteResult> promise;
    if (absl::Status s = CheckDonations(arguments, options); !s.ok()) {
      promise.set_value(s);
      return promise.get_future();
    }
    if (!default_argument_layouts_) {
      // Buffers of TransferToDevice have the default layout: a program
      // compiled for other argument layouts takes them through the host.
      promise.set_value(ThroughHost(buffers, options));
      return promise.get_future();
    }
    absl::StatusOr<std::vector<std::unique_ptr<PluginBuffer>>> results =
        program_->ExecuteBuffers(buffers, result_leaves_);
    for (int64_t index : options.donated) buffers[index]->Delete();
    if (!results.ok()) {
      promise.set_value(results.status());
    } else {
      std::vector<std::unique_ptr<DeviceBuffer>> outputs;
      for (auto& result : *results) outputs.push_back(std::move(result));
      promise.set_value(std::move(outputs));
    }
    return promise.get_future();
  }

  absl::StatusOr<std::string> Emit(absl::string_view what) const override {
    if (what == "stablehlo" || what == "mlir") return mlir_;
    return absl::InvalidArgumentError(absl::StrCat(
        "the pjrt backend shows 'stablehlo' (what the plugin compiled), not '",
        what, "'"));
  }

 private:
  ExecuteResult ThroughHost(const std::vector<PluginBuffer*>& buffers,
                            const ExecuteOptions& options) {
    std::vector<Literal> literals;
    for (PluginBuffer* buffer : buffers) {
      absl::StatusOr<Literal> literal = buffer->ToLiteral();
      if (!literal.ok()) return literal.status();
      literals.push_back(*std::move(literal));
    }
    for (int64_t index : options.donated) buffers[index]->Delete();
    absl::StatusOr<Literal> result = Run(literals);
    if (!result.ok()) return result.status();
    return ResultBuffers(*std::move(result));
  }

  // The root is an array or a tuple of arrays: its leaves are the
  // ExecuteResult's buffers.
  bool FlatRoot() const {
    if (!result_shape_.IsTuple()) return true;
    for (const Shape& element : result_shape_.tuple_shapes()) {
      if (element.IsTuple()) return false;
    }
    return true;
  }

  std::unique_ptr<Program> program_;
  Shape result_shape_;
  std::vector<Shape> result_leaves_;
  std::string mlir_;
  bool default_argument_layouts_;
};

std::string SupportKey(Opcode opcode, ElementType type) {
  return absl::StrCat(OpcodeName(opcode), " ", ElementTypeName(type));
}

}  // namespace

absl::StatusOr<BackendArgument> ParseBackendArgument(
    absl::string_view argument) {
  std::vector<std::string> parts = absl::StrSplit(argument, ',');
  if (parts.empty() || parts[0].empty()) {
    return absl::InvalidArgumentError(
        "backend 'pjrt' needs a plugin: "
        "--backend=pjrt:/path/to/plugin.so[,key=value,...]");
  }
  BackendArgument result;
  result.path = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    std::pair<std::string, std::string> option =
        absl::StrSplit(parts[i], absl::MaxSplits('=', 1));
    if (option.first.empty() || parts[i].find('=') == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("backend 'pjrt': plugin option '", parts[i],
                       "' is not key=value (pjrt:PATH,key=value,...)"));
    }
    result.options.push_back(std::move(option));
  }
  return result;
}

absl::StatusOr<std::unique_ptr<DeviceBuffer>> PjrtBackend::TransferToDevice(
    Literal value, int64_t device) {
  if (value.shape().IsTuple()) {
    return Backend::TransferToDevice(std::move(value), device);
  }
  absl::StatusOr<std::unique_ptr<PluginBuffer>> buffer =
      plugin_->ToDevice(value, device);
  if (!buffer.ok()) return buffer.status();
  return std::unique_ptr<DeviceBuffer>(*std::move(buffer));
}

absl::StatusOr<Literal> PjrtBackend::TransferToHost(
    const DeviceBuffer& buffer) {
  if (const auto* on_device = dynamic_cast<const PluginBuffer*>(&buffer)) {
    return on_device->ToLiteral();
  }
  return Backend::TransferToHost(buffer);
}

bool PjrtBackend::Supports(Opcode opcode, ElementType type) const {
  // Tokens order side effects inside the module (the exporter writes
  // them); Compile refuses them only as entry parameters or results.
  if (type == ElementType::kTuple || type == ElementType::kToken) return true;
  if (!IsArrayType(type)) return false;  // Opaque values.
  // The answers of earlier processes, once per plugin (support_file.h).
  if (!plugin_->CachedSupport(kFileLoaded).has_value()) {
    for (const auto& [key, supported] : internal::ReadSupportFile(
             internal::SupportFilePath(plugin_->path()))) {
      plugin_->CacheSupport(key, supported);
    }
    plugin_->CacheSupport(kFileLoaded, true);
  }
  const std::string key = SupportKey(opcode, type);
  if (std::optional<bool> known = plugin_->CachedSupport(key)) return *known;
  const bool supported = Probe(key, opcode, type);
  Remember(key, supported);
  return supported;
}

void PjrtBackend::Remember(const std::string& key, bool supported) const {
  plugin_->CacheSupport(key, supported);
  internal::AppendSupport(internal::SupportFilePath(plugin_->path()), key,
                          supported);
}

bool PjrtBackend::Probe(const std::string& key, Opcode opcode,
                        ElementType type) const {
  const std::string type_key = absl::StrCat("type ", ElementTypeName(type));
  std::optional<bool> type_ok = plugin_->CachedSupport(type_key);
  if (!type_ok.has_value()) {
    std::optional<std::string> probe = internal::TypeProbe(type);
    type_ok = probe.has_value() && plugin_->Compile(*probe, 1, 1).ok();
    Remember(type_key, *type_ok);
  }
  if (!*type_ok) return false;
  std::optional<std::string> text = internal::OpProbe(opcode, type);
  if (!text.has_value()) return true;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(*text);
  // Not defined on the type: the question never arises for a valid module.
  if (!module.ok() || !VerifyModule(**module).ok()) return true;
  absl::StatusOr<std::string> mlir = stablehlo::ExportModule(**module);
  if (!mlir.ok()) return false;
  return plugin_->Compile(*mlir, 1, 1).ok();
}

absl::StatusOr<std::unique_ptr<Executable>> PjrtBackend::Compile(
    const Module& module, const CompileOptions& options) {
  absl::StatusOr<std::vector<Shape>> parameters =
      CheckCompilable(*this, module, options);
  if (!parameters.ok()) return parameters.status();
  const Computation* entry = module.entry();
  if (entry == nullptr || entry->root() == nullptr) {
    return absl::InvalidArgumentError("pjrt: the module has no entry root");
  }
  std::vector<const Shape*> leaves;
  for (const Shape& parameter : *parameters) Leaves(parameter, &leaves);
  if (absl::Status s = CheckTransferable(leaves, "parameters"); !s.ok()) {
    return s;
  }
  leaves.clear();
  Leaves(entry->root()->shape(), &leaves);
  if (absl::Status s = CheckTransferable(leaves, "results"); !s.ok()) {
    return s;
  }
  absl::StatusOr<std::string> mlir = stablehlo::ExportModule(module);
  if (!mlir.ok()) {
    // The module verified, so the exporter refuses an op or type with no
    // StableHLO form: no plugin can be asked, the module is unsupported.
    return absl::UnimplementedError(
        absl::StrCat("pjrt: export to StableHLO: ", mlir.status().message()));
  }
  absl::StatusOr<std::unique_ptr<Program>> program =
      plugin_->Compile(*mlir, options.replica_count, options.num_partitions);
  if (!program.ok()) return program.status();
  return std::unique_ptr<Executable>(std::make_unique<PjrtExecutable>(
      *std::move(parameters), options.replica_count * options.num_partitions,
      *std::move(program), entry->root()->shape(), *std::move(mlir),
      ArgumentLayouts(module)));
}

KILN_REGISTER_BACKEND(
    pjrt,
    [](absl::string_view argument) -> absl::StatusOr<std::unique_ptr<Backend>> {
      absl::StatusOr<BackendArgument> parsed = ParseBackendArgument(argument);
      if (!parsed.ok()) return parsed.status();
      absl::StatusOr<std::shared_ptr<Plugin>> plugin =
          Plugin::Get(parsed->path, parsed->options);
      if (!plugin.ok()) return plugin.status();
      return std::unique_ptr<Backend>(
          std::make_unique<PjrtBackend>(*std::move(plugin)));
    });

}  // namespace kiln::pjrt
