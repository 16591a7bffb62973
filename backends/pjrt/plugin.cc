#include "backends/pjrt/plugin.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "backends/pjrt/api.h"
#include "backends/pjrt/program.h"

namespace kiln::pjrt {

bool HaveApiHeaders() { return KILN_HAVE_PJRT_C_API; }

std::string BuiltApiVersion() {
#if KILN_HAVE_PJRT_C_API
  return absl::StrCat(PJRT_API_MAJOR, ".", PJRT_API_MINOR);
#else
  return "none";
#endif
}

#if !KILN_HAVE_PJRT_C_API

bool Plugin::HasBufferType(ElementType) { return false; }

absl::StatusOr<std::shared_ptr<Plugin>> Plugin::Get(const std::string&,
                                                    const PluginOptions&) {
  return absl::FailedPreconditionError(
      "pjrt: Kiln was built without the PJRT C API headers (tools/setup.sh "
      "fetches them from the tensorflow-cpu wheel into third_party/pjrt; "
      "it could not, or has not run)");
}

#else  // KILN_HAVE_PJRT_C_API

bool Plugin::HasBufferType(ElementType type) {
  return internal::BufferType(type).has_value();
}

namespace {

using internal::ToStatus;

// The API functions Kiln calls: a plugin must provide every one.
struct Required {
  const char* name;
  size_t offset;
};
#define KILN_PJRT_REQUIRED(name) \
  Required { #name, offsetof(PJRT_Api, name) }
constexpr Required kRequired[] = {
    KILN_PJRT_REQUIRED(PJRT_Error_Destroy),
    KILN_PJRT_REQUIRED(PJRT_Error_Message),
    KILN_PJRT_REQUIRED(PJRT_Error_GetCode),
    KILN_PJRT_REQUIRED(PJRT_Event_Destroy),
    KILN_PJRT_REQUIRED(PJRT_Event_Await),
    KILN_PJRT_REQUIRED(PJRT_Client_Create),
    KILN_PJRT_REQUIRED(PJRT_Client_PlatformName),
    KILN_PJRT_REQUIRED(PJRT_Client_AddressableDevices),
    KILN_PJRT_REQUIRED(PJRT_Client_Compile),
    KILN_PJRT_REQUIRED(PJRT_Client_BufferFromHostBuffer),
    KILN_PJRT_REQUIRED(PJRT_DeviceDescription_Id),
    KILN_PJRT_REQUIRED(PJRT_DeviceDescription_Kind),
    KILN_PJRT_REQUIRED(PJRT_DeviceDescription_DebugString),
    KILN_PJRT_REQUIRED(PJRT_Device_GetDescription),
    KILN_PJRT_REQUIRED(PJRT_Executable_Destroy),
    KILN_PJRT_REQUIRED(PJRT_Executable_NumOutputs),
    KILN_PJRT_REQUIRED(PJRT_LoadedExecutable_Destroy),
    KILN_PJRT_REQUIRED(PJRT_LoadedExecutable_GetExecutable),
    KILN_PJRT_REQUIRED(PJRT_LoadedExecutable_AddressableDevices),
    KILN_PJRT_REQUIRED(PJRT_LoadedExecutable_Execute),
    KILN_PJRT_REQUIRED(PJRT_Buffer_Destroy),
    KILN_PJRT_REQUIRED(PJRT_Buffer_ToHostBuffer),
};
#undef KILN_PJRT_REQUIRED

// The first required function the plugin's table lacks (beyond its
// struct_size, or null), or empty.
std::string MissingFunction(const PJRT_Api* api) {
  for (const Required& required : kRequired) {
    void* function = nullptr;
    if (api->struct_size >= required.offset + sizeof(function)) {
      std::memcpy(&function,
                  reinterpret_cast<const char*>(api) + required.offset,
                  sizeof(function));
    }
    if (function == nullptr) return required.name;
  }
  return "";
}

// The options as PJRT named values; `storage` keeps the strings alive.
std::vector<PJRT_NamedValue> NamedValues(const PluginOptions& options) {
  std::vector<PJRT_NamedValue> values;
  for (const auto& [key, value] : options) {
    PJRT_NamedValue named = KILN_PJRT_ARGS(PJRT_NamedValue);
    named.name = key.data();
    named.name_size = key.size();
    int64_t number = 0;
    if (absl::SimpleAtoi(value, &number)) {
      named.type = PJRT_NamedValue_kInt64;
      named.int64_value = number;
      named.value_size = 1;
    } else if (value == "true" || value == "false") {
      named.type = PJRT_NamedValue_kBool;
      named.bool_value = value == "true";
      named.value_size = 1;
    } else {
      named.type = PJRT_NamedValue_kString;
      named.string_value = value.data();
      named.value_size = value.size();
    }
    values.push_back(named);
  }
  return values;
}

class LoadedPlugin : public Plugin {
 public:
  LoadedPlugin(std::string path, const PJRT_Api* api, PJRT_Client* client)
      : path_(std::move(path)), api_(api), client_(client) {
    api_version_ = absl::StrCat(api->pjrt_api_version.major_version, ".",
                                api->pjrt_api_version.minor_version);
  }

  absl::Status Init() {
    PJRT_Client_PlatformName_Args name =
        KILN_PJRT_ARGS(PJRT_Client_PlatformName_Args);
    name.client = client_;
    if (absl::Status s = ToStatus(api_, api_->PJRT_Client_PlatformName(&name),
                                  "platform name");
        !s.ok()) {
      return s;
    }
    platform_.assign(name.platform_name, name.platform_name_size);
    PJRT_Client_AddressableDevices_Args devices =
        KILN_PJRT_ARGS(PJRT_Client_AddressableDevices_Args);
    devices.client = client_;
    if (absl::Status s =
            ToStatus(api_, api_->PJRT_Client_AddressableDevices(&devices),
                     "addressable devices");
        !s.ok()) {
      return s;
    }
    devices_.assign(
        devices.addressable_devices,
        devices.addressable_devices + devices.num_addressable_devices);
    if (devices_.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "pjrt: the plugin ", path_, " has no addressable device"));
    }
    return absl::OkStatus();
  }

  const std::string& path() const override { return path_; }
  const std::string& platform() const override { return platform_; }
  const std::string& api_version() const override { return api_version_; }

  std::vector<Device> Devices() const override {
    std::vector<Device> devices;
    for (size_t i = 0; i < devices_.size(); ++i) {
      devices.push_back(Device{static_cast<int64_t>(i),
                               internal::DeviceKind(api_, devices_[i]),
                               internal::DeviceText(api_, devices_[i])});
    }
    return devices;
  }

  absl::StatusOr<std::unique_ptr<Program>> Compile(
      const std::string& mlir, int64_t replicas, int64_t partitions) override {
    const int64_t needed = replicas * partitions;
    if (needed > static_cast<int64_t>(devices_.size())) {
      return absl::UnimplementedError(absl::StrCat(
          "pjrt: the module needs ", needed, " devices (", replicas,
          " replicas x ", partitions, " partitions); the plugin's client has ",
          devices_.size(),
          " (a plugin option may give more, e.g. XLA's CPU plugin takes "
          "cpu_device_count=N)"));
    }
    return internal::CompileProgram(api_, client_, mlir, replicas, partitions);
  }

  absl::StatusOr<std::unique_ptr<PluginBuffer>> ToDevice(
      const Literal& value, int64_t device) override {
    if (device < 0 || device >= static_cast<int64_t>(devices_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("pjrt: no device ", device,
                                                     " (the client has ",
                                                     devices_.size(), ")"));
    }
    absl::StatusOr<PJRT_Buffer*> buffer =
        internal::HostToDevice(api_, client_, value, devices_[device]);
    if (!buffer.ok()) return buffer.status();
    return std::unique_ptr<PluginBuffer>(std::make_unique<internal::PjrtBuffer>(
        api_, *buffer, value.shape(), device));
  }

  std::optional<bool> CachedSupport(const std::string& key) const override {
    absl::MutexLock lock(&mutex_);
    auto it = supports_.find(key);
    if (it == supports_.end()) return std::nullopt;
    return it->second;
  }
  void CacheSupport(const std::string& key, bool supported) override {
    absl::MutexLock lock(&mutex_);
    supports_[key] = supported;
  }

 private:
  std::string path_;
  const PJRT_Api* api_;
  PJRT_Client* client_;  // Never destroyed: plugins live as long as Kiln.
  std::string platform_;
  std::string api_version_;
  std::vector<PJRT_Device*> devices_;
  mutable absl::Mutex mutex_;
  absl::flat_hash_map<std::string, bool> supports_ ABSL_GUARDED_BY(mutex_);
};

// dlopen + GetPjrtApi + the version and function checks + Initialize.
absl::StatusOr<const PJRT_Api*> LoadApi(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    return absl::NotFoundError(
        absl::StrCat("pjrt: no plugin file '", path, "'"));
  }
  // RTLD_LOCAL: the plugin's own copies of LLVM, Abseil, protobuf ... stay
  // out of Kiln's symbol space.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    return absl::InvalidArgumentError(absl::StrCat(
        "pjrt: cannot load '", path,
        "' as a shared object: ", error ? error : "dlopen failed"));
  }
  using GetApiFn = const PJRT_Api* (*)();
  auto get_api = reinterpret_cast<GetApiFn>(dlsym(handle, "GetPjrtApi"));
  if (get_api == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pjrt: '", path,
        "' is not a PJRT plugin: it exports no GetPjrtApi function"));
  }
  const PJRT_Api* api = get_api();
  if (api == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("pjrt: GetPjrtApi of '", path, "' returned null"));
  }
  if (api->struct_size <
      offsetof(PJRT_Api, pjrt_api_version) + sizeof(PJRT_Api_Version)) {
    return absl::FailedPreconditionError(
        absl::StrCat("pjrt: '", path, "' returned a PJRT_Api table too short (",
                     api->struct_size, " bytes) to hold its version"));
  }
  const int major = api->pjrt_api_version.major_version;
  const int minor = api->pjrt_api_version.minor_version;
  if (major != PJRT_API_MAJOR) {
    return absl::FailedPreconditionError(
        absl::StrCat("pjrt: PJRT C API version mismatch: the plugin '", path,
                     "' implements version ", major, ".", minor,
                     ", Kiln was built against ", PJRT_API_MAJOR, ".",
                     PJRT_API_MINOR, " (the major versions must be equal)"));
  }
  if (std::string missing = MissingFunction(api); !missing.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("pjrt: the plugin '", path, "' (PJRT C API ", major, ".",
                     minor, ") lacks ", missing, ", which Kiln (built against ",
                     PJRT_API_MAJOR, ".", PJRT_API_MINOR, ") needs"));
  }
  if (api->struct_size >=
          offsetof(PJRT_Api, PJRT_Plugin_Initialize) + sizeof(void*) &&
      api->PJRT_Plugin_Initialize != nullptr) {
    PJRT_Plugin_Initialize_Args args =
        KILN_PJRT_ARGS(PJRT_Plugin_Initialize_Args);
    if (absl::Status s = ToStatus(api, api->PJRT_Plugin_Initialize(&args),
                                  "plugin initialize");
        !s.ok()) {
      return s;
    }
  }
  return api;
}

absl::StatusOr<std::shared_ptr<Plugin>> LoadPlugin(
    const std::string& path, const PluginOptions& options) {
  absl::StatusOr<const PJRT_Api*> api = LoadApi(path);
  if (!api.ok()) return api.status();
  std::vector<PJRT_NamedValue> values = NamedValues(options);
  PJRT_Client_Create_Args create = KILN_PJRT_ARGS(PJRT_Client_Create_Args);
  create.create_options = values.data();
  create.num_options = values.size();
  if (absl::Status s =
          ToStatus(*api, (*api)->PJRT_Client_Create(&create), "create client");
      !s.ok()) {
    return s;
  }
  auto plugin = std::make_shared<LoadedPlugin>(path, *api, create.client);
  if (absl::Status s = plugin->Init(); !s.ok()) return s;
  return std::shared_ptr<Plugin>(std::move(plugin));
}

}  // namespace

absl::StatusOr<std::shared_ptr<Plugin>> Plugin::Get(
    const std::string& path, const PluginOptions& options) {
  static absl::Mutex mutex(absl::kConstInit);
  // Loaded plugins, and the errors of failed loads (a failing plugin is
  // not loaded again for every case). Never destroyed.
  static auto* plugins =
      new std::map<std::string, absl::StatusOr<std::shared_ptr<Plugin>>>();
  std::string key = path;
  for (const auto& [k, v] : options) absl::StrAppend(&key, ",", k, "=", v);
  absl::MutexLock lock(&mutex);
  auto it = plugins->find(key);
  if (it == plugins->end()) {
    it = plugins->emplace(key, LoadPlugin(path, options)).first;
  }
  return it->second;
}

#endif  // KILN_HAVE_PJRT_C_API

}  // namespace kiln::pjrt
