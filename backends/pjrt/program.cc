#include "backends/pjrt/program.h"

#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace kiln::pjrt::internal {
namespace {

void AppendVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// A varint field (wire type 0) / a length-delimited field (wire type 2).
void AppendIntField(int field, int64_t value, std::string* out) {
  AppendVarint(static_cast<uint64_t>(field) << 3, out);
  AppendVarint(static_cast<uint64_t>(value), out);
}
void AppendBytesField(int field, const std::string& bytes, std::string* out) {
  AppendVarint((static_cast<uint64_t>(field) << 3) | 2, out);
  AppendVarint(bytes.size(), out);
  out->append(bytes);
}

}  // namespace

std::string EncodeCompileOptions(int64_t replicas, int64_t partitions) {
  // ExecutableBuildOptionsProto: device_ordinal = 1, num_replicas = 4,
  // num_partitions = 5, use_spmd_partitioning = 6
  // (xla/pjrt/proto/compile_options.proto).
  std::string build;
  AppendIntField(1, -1, &build);
  AppendIntField(4, replicas, &build);
  AppendIntField(5, partitions, &build);
  // use_spmd_partitioning = 6: XLA compiles for several partitions only
  // through its SPMD partitioner (unsharded values stay replicated).
  if (partitions > 1) AppendIntField(6, 1, &build);
  // CompileOptionsProto: executable_build_options = 3.
  std::string options;
  AppendBytesField(3, build, &options);
  return options;
}

#if KILN_HAVE_PJRT_C_API

absl::StatusOr<PJRT_Buffer*> HostToDevice(
    const PJRT_Api* api, PJRT_Client* client, const Literal& value,
    PJRT_Device* device, absl::Span<const int64_t> minor_to_major) {
  const Shape& shape = value.shape();
  std::optional<PJRT_Buffer_Type> type = BufferType(shape.element_type());
  if (!shape.IsArray() || !type.has_value()) {
    return absl::UnimplementedError(
        absl::StrCat("pjrt: no PJRT buffer type for ", shape.ToString(false)));
  }
  if (!shape.is_static() || value.has_dynamic_sizes()) {
    return absl::UnimplementedError(
        absl::StrCat("pjrt: dynamic shapes are not transferred (",
                     shape.ToString(false), ")"));
  }
  // The literal's storage: dense, row major (its dimensions' order), one
  // element in storage_bytes bytes. The device layout is the one the
  // program was compiled for (mhlo.layout_mode of the entry's arguments):
  // without it the plugin would read row-major bytes in that layout.
  static const uint8_t kEmpty = 0;
  PJRT_Client_BufferFromHostBuffer_Args args =
      KILN_PJRT_ARGS(PJRT_Client_BufferFromHostBuffer_Args);
  args.client = client;
  args.data = value.data().empty() ? &kEmpty : value.data().data();
  args.type = *type;
  args.dims = shape.dimensions().data();
  args.num_dims = shape.dimensions().size();
  args.host_buffer_semantics =
      PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  args.device = device;
  PJRT_Buffer_MemoryLayout layout = KILN_PJRT_ARGS(PJRT_Buffer_MemoryLayout);
  if (!minor_to_major.empty()) {
    layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
    layout.tiled = KILN_PJRT_ARGS(PJRT_Buffer_MemoryLayout_Tiled);
    layout.tiled.minor_to_major = minor_to_major.data();
    layout.tiled.minor_to_major_size = minor_to_major.size();
    args.device_layout = &layout;
  }
  if (absl::Status s =
          ToStatus(api, api->PJRT_Client_BufferFromHostBuffer(&args),
                   "transfer to device");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = AwaitAndDestroy(api, args.done_with_host_buffer,
                                       "transfer to device");
      !s.ok()) {
    DestroyBuffer(api, args.buffer);
    return s;
  }
  return args.buffer;
}

absl::StatusOr<Literal> DeviceToHost(const PJRT_Api* api, PJRT_Buffer* buffer,
                                     const Shape& shape) {
  absl::StatusOr<Literal> value = Literal::CreateForOverwrite(shape);
  if (!value.ok()) return value.status();
  // Row major: minor_to_major = rank-1, ..., 0, no tiles.
  std::vector<int64_t> minor_to_major(shape.rank());
  std::iota(minor_to_major.rbegin(), minor_to_major.rend(), 0);
  PJRT_Buffer_MemoryLayout layout = KILN_PJRT_ARGS(PJRT_Buffer_MemoryLayout);
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.tiled = KILN_PJRT_ARGS(PJRT_Buffer_MemoryLayout_Tiled);
  layout.tiled.minor_to_major = minor_to_major.data();
  layout.tiled.minor_to_major_size = minor_to_major.size();
  PJRT_Buffer_ToHostBuffer_Args args =
      KILN_PJRT_ARGS(PJRT_Buffer_ToHostBuffer_Args);
  args.src = buffer;
  args.host_layout = &layout;
  // First ask for the size, which must be the literal's.
  if (absl::Status s = ToStatus(api, api->PJRT_Buffer_ToHostBuffer(&args),
                                "transfer to host");
      !s.ok()) {
    return s;
  }
  if (args.dst_size != value->data().size()) {
    return absl::InternalError(
        absl::StrCat("pjrt: the plugin's result takes ", args.dst_size,
                     " bytes on the host; ", shape.ToString(false), " takes ",
                     value->data().size()));
  }
  if (args.dst_size == 0) return value;
  args.dst = value->mutable_data().data();
  if (absl::Status s = ToStatus(api, api->PJRT_Buffer_ToHostBuffer(&args),
                                "transfer to host");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = AwaitAndDestroy(api, args.event, "transfer to host");
      !s.ok()) {
    return s;
  }
  return value;
}

absl::StatusOr<Literal> PjrtBuffer::ToLiteral() const {
  if (buffer_ == nullptr) {
    return absl::InvalidArgumentError("pjrt: the buffer was donated");
  }
  return DeviceToHost(api_, buffer_, shape_);
}

namespace {

// Owns PJRT buffers (one list per device) and destroys them.
class BufferLists {
 public:
  BufferLists(const PJRT_Api* api, size_t devices, size_t per_device)
      : api_(api), lists_(devices, std::vector<PJRT_Buffer*>(per_device)) {}
  ~BufferLists() {
    for (auto& list : lists_) {
      for (PJRT_Buffer* buffer : list) DestroyBuffer(api_, buffer);
    }
  }
  std::vector<PJRT_Buffer*>& operator[](size_t d) { return lists_[d]; }

 private:
  const PJRT_Api* api_;
  std::vector<std::vector<PJRT_Buffer*>> lists_;
};

class LoadedProgram : public Program {
 public:
  LoadedProgram(const PJRT_Api* api, PJRT_Client* client,
                PJRT_LoadedExecutable* executable,
                std::vector<PJRT_Device*> devices, size_t num_outputs)
      : api_(api),
        client_(client),
        executable_(executable),
        devices_(std::move(devices)),
        num_outputs_(num_outputs) {}

  ~LoadedProgram() override {
    PJRT_LoadedExecutable_Destroy_Args destroy =
        KILN_PJRT_ARGS(PJRT_LoadedExecutable_Destroy_Args);
    destroy.executable = executable_;
    (void)ToStatus(api_, api_->PJRT_LoadedExecutable_Destroy(&destroy),
                   "destroy executable");
  }

  void SetArgumentLayouts(
      std::vector<std::vector<int64_t>> minor_to_major) override {
    argument_layouts_ = std::move(minor_to_major);
  }

  absl::StatusOr<std::vector<std::vector<Literal>>> Execute(
      const std::vector<std::vector<const Literal*>>& arguments,
      absl::Span<const Shape> outputs) override {
    const size_t devices = devices_.size();
    if (arguments.size() != devices) {
      return absl::InvalidArgumentError(absl::StrCat("pjrt: ", arguments.size(),
                                                     " argument lists for ",
                                                     devices, " devices"));
    }
    if (outputs.size() != num_outputs_) {
      return absl::InternalError(absl::StrCat(
          "pjrt: the plugin's executable has ", num_outputs_,
          " outputs; the module's root has ", outputs.size(), " arrays"));
    }
    const size_t num_args = devices == 0 ? 0 : arguments[0].size();
    BufferLists inputs(api_, devices, num_args);
    for (size_t d = 0; d < devices; ++d) {
      if (arguments[d].size() != num_args) {
        return absl::InvalidArgumentError(
            "pjrt: devices have different argument counts");
      }
      for (size_t i = 0; i < num_args; ++i) {
        absl::StatusOr<PJRT_Buffer*> buffer =
            HostToDevice(api_, client_, *arguments[d][i], devices_[d],
                         i < argument_layouts_.size()
                             ? absl::Span<const int64_t>(argument_layouts_[i])
                             : absl::Span<const int64_t>());
        if (!buffer.ok()) {
          return absl::Status(
              buffer.status().code(),
              absl::StrCat("argument ", i, ": ", buffer.status().message()));
        }
        inputs[d][i] = *buffer;
      }
    }
    BufferLists results(api_, devices, num_outputs_);
    std::vector<PJRT_Buffer* const*> argument_lists(devices);
    std::vector<PJRT_Buffer**> output_lists(devices);
    for (size_t d = 0; d < devices; ++d) {
      argument_lists[d] = inputs[d].data();
      output_lists[d] = results[d].data();
    }
    std::vector<PJRT_Event*> done(devices, nullptr);
    PJRT_ExecuteOptions options = KILN_PJRT_ARGS(PJRT_ExecuteOptions);
    PJRT_LoadedExecutable_Execute_Args execute =
        KILN_PJRT_ARGS(PJRT_LoadedExecutable_Execute_Args);
    execute.executable = executable_;
    execute.options = &options;
    execute.argument_lists = argument_lists.data();
    execute.num_devices = devices;
    execute.num_args = num_args;
    execute.output_lists = output_lists.data();
    execute.device_complete_events = done.data();
    absl::Status status = ToStatus(
        api_, api_->PJRT_LoadedExecutable_Execute(&execute), "execute");
    for (PJRT_Event* event : done) {
      absl::Status s = AwaitAndDestroy(api_, event, "execute");
      if (status.ok()) status = s;
    }
    if (!status.ok()) return status;
    std::vector<std::vector<Literal>> values(devices);
    for (size_t d = 0; d < devices; ++d) {
      for (size_t i = 0; i < num_outputs_; ++i) {
        absl::StatusOr<Literal> value =
            DeviceToHost(api_, results[d][i], outputs[i]);
        if (!value.ok()) return value.status();
        values[d].push_back(*std::move(value));
      }
    }
    return values;
  }

  absl::StatusOr<std::vector<std::unique_ptr<PluginBuffer>>> ExecuteBuffers(
      absl::Span<PluginBuffer* const> arguments,
      absl::Span<const Shape> outputs) override {
    if (devices_.size() != 1) {
      return absl::UnimplementedError(absl::StrCat(
          "pjrt: buffers run programs of one device; this one runs on ",
          devices_.size()));
    }
    if (outputs.size() != num_outputs_) {
      return absl::InternalError(absl::StrCat(
          "pjrt: the plugin's executable has ", num_outputs_,
          " outputs; the module's root has ", outputs.size(), " arrays"));
    }
    std::vector<PJRT_Buffer*> inputs;
    for (size_t i = 0; i < arguments.size(); ++i) {
      auto* buffer = dynamic_cast<PjrtBuffer*>(arguments[i]);
      if (buffer == nullptr || buffer->is_deleted()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "argument ", i, " is not a live buffer of this plugin"));
      }
      inputs.push_back(buffer->buffer());
    }
    BufferLists results(api_, 1, num_outputs_);
    PJRT_Buffer* const* argument_list = inputs.data();
    PJRT_Buffer** output_list = results[0].data();
    PJRT_Event* done = nullptr;
    PJRT_ExecuteOptions options = KILN_PJRT_ARGS(PJRT_ExecuteOptions);
    PJRT_LoadedExecutable_Execute_Args execute =
        KILN_PJRT_ARGS(PJRT_LoadedExecutable_Execute_Args);
    execute.executable = executable_;
    execute.options = &options;
    execute.argument_lists = &argument_list;
    execute.num_devices = 1;
    execute.num_args = inputs.size();
    execute.output_lists = &output_list;
    execute.device_complete_events = &done;
    absl::Status status = ToStatus(
        api_, api_->PJRT_LoadedExecutable_Execute(&execute), "execute");
    absl::Status awaited = AwaitAndDestroy(api_, done, "execute");
    if (status.ok()) status = awaited;
    if (!status.ok()) return status;
    std::vector<std::unique_ptr<PluginBuffer>> buffers;
    for (size_t i = 0; i < num_outputs_; ++i) {
      buffers.push_back(
          std::make_unique<PjrtBuffer>(api_, results[0][i], outputs[i], 0));
      results[0][i] = nullptr;  // Owned by the PjrtBuffer now.
    }
    return buffers;
  }

 private:
  const PJRT_Api* api_;
  PJRT_Client* client_;
  PJRT_LoadedExecutable* executable_;
  std::vector<PJRT_Device*> devices_;
  size_t num_outputs_;
  std::vector<std::vector<int64_t>> argument_layouts_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Program>> CompileProgram(const PJRT_Api* api,
                                                        PJRT_Client* client,
                                                        const std::string& mlir,
                                                        int64_t replicas,
                                                        int64_t partitions) {
  static const char kFormat[] = "mlir";
  std::string code = mlir;
  PJRT_Program program = KILN_PJRT_ARGS(PJRT_Program);
  program.code = code.data();
  program.code_size = code.size();
  program.format = kFormat;
  program.format_size = sizeof(kFormat) - 1;
  const std::string options = EncodeCompileOptions(replicas, partitions);
  PJRT_Client_Compile_Args compile = KILN_PJRT_ARGS(PJRT_Client_Compile_Args);
  compile.client = client;
  compile.program = &program;
  compile.compile_options = options.data();
  compile.compile_options_size = options.size();
  if (absl::Status s =
          ToStatus(api, api->PJRT_Client_Compile(&compile), "compile");
      !s.ok()) {
    // A module the plugin refuses is the module's problem as far as the
    // caller is concerned, whatever code the plugin chose.
    if (absl::IsUnimplemented(s)) return s;
    return absl::InvalidArgumentError(s.message());
  }
  PJRT_LoadedExecutable* loaded = compile.executable;
  auto destroy_loaded = [&] {
    PJRT_LoadedExecutable_Destroy_Args destroy =
        KILN_PJRT_ARGS(PJRT_LoadedExecutable_Destroy_Args);
    destroy.executable = loaded;
    (void)ToStatus(api, api->PJRT_LoadedExecutable_Destroy(&destroy),
                   "destroy executable");
  };
  PJRT_LoadedExecutable_AddressableDevices_Args devices =
      KILN_PJRT_ARGS(PJRT_LoadedExecutable_AddressableDevices_Args);
  devices.executable = loaded;
  PJRT_LoadedExecutable_GetExecutable_Args get =
      KILN_PJRT_ARGS(PJRT_LoadedExecutable_GetExecutable_Args);
  get.loaded_executable = loaded;
  absl::Status status = ToStatus(
      api, api->PJRT_LoadedExecutable_AddressableDevices(&devices), "devices");
  if (status.ok()) {
    status = ToStatus(api, api->PJRT_LoadedExecutable_GetExecutable(&get),
                      "executable");
  }
  PJRT_Executable_NumOutputs_Args outputs =
      KILN_PJRT_ARGS(PJRT_Executable_NumOutputs_Args);
  if (status.ok()) {
    outputs.executable = get.executable;
    status = ToStatus(api, api->PJRT_Executable_NumOutputs(&outputs),
                      "number of outputs");
    PJRT_Executable_Destroy_Args destroy =
        KILN_PJRT_ARGS(PJRT_Executable_Destroy_Args);
    destroy.executable = get.executable;
    (void)ToStatus(api, api->PJRT_Executable_Destroy(&destroy),
                   "destroy executable");
  }
  if (status.ok() && static_cast<int64_t>(devices.num_addressable_devices) !=
                         replicas * partitions) {
    status = absl::InternalError(absl::StrCat(
        "pjrt: the executable runs on ", devices.num_addressable_devices,
        " devices, not ", replicas * partitions));
  }
  if (!status.ok()) {
    destroy_loaded();
    return status;
  }
  return std::unique_ptr<Program>(std::make_unique<LoadedProgram>(
      api, client, loaded,
      std::vector<PJRT_Device*>(
          devices.addressable_devices,
          devices.addressable_devices + devices.num_addressable_devices),
      outputs.num_outputs));
}

#endif  // KILN_HAVE_PJRT_C_API

}  // namespace kiln::pjrt::internal
