// A PJRT plugin loaded into this process through the PJRT C API: the
// shared object is dlopen'ed, GetPjrtApi is called and its API version
// checked, and one client is created with the plugin options. Plugins are
// process-wide: Plugin::Get returns the same object for the same path and
// options, so every `pjrt:` backend in the process (the conformance runner
// makes one per case, the fuzzer one per thread) shares one client. A
// plugin is never unloaded.
//
// Thread safety: every method may be called from several threads at once
// (the PJRT C API's clients and executables are thread-safe).
//
// This header names no PJRT type, so it compiles without the PJRT C API
// headers; built without them (tools/setup.sh could not fetch them),
// Plugin::Get fails with a FailedPrecondition saying so.
#ifndef KILN_BACKENDS_PJRT_PLUGIN_H_
#define KILN_BACKENDS_PJRT_PLUGIN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "backends/backend.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace kiln::pjrt {

// True when Kiln was built with the PJRT C API headers (@pjrt_c_api).
bool HaveApiHeaders();

// The PJRT C API version Kiln was built against ("0.90"), or "none".
std::string BuiltApiVersion();

// A plugin option: `key=value` of `pjrt:PATH,key=value`. Values that read
// as integers are passed as int64, `true`/`false` as bool, the rest as
// strings.
using PluginOptions = std::vector<std::pair<std::string, std::string>>;

// A value in the memory of one of the plugin's devices (a PJRT buffer):
// what the pjrt backend's TransferToDevice makes, so that `kiln bench`
// times executions, not argument copies.
class PluginBuffer : public DeviceBuffer {
 public:
  virtual absl::StatusOr<Literal> ToLiteral() const = 0;
  // Frees the device memory (a donation); the buffer is deleted afterwards.
  virtual void Delete() = 0;
};

// One compiled program on the plugin's devices.
class Program {
 public:
  virtual ~Program() = default;
  // The device layouts (minor_to_major) the program was compiled for, per
  // argument array (empty: the default, major to minor); Execute transfers
  // arguments into them.
  virtual void SetArgumentLayouts(
      std::vector<std::vector<int64_t>> minor_to_major) = 0;
  // Runs on every device the program was compiled for: arguments[d] are
  // device d's argument arrays (the leaves of the entry parameters, in
  // order), and `outputs` are the shapes of the result leaves. Returns
  // each device's result arrays.
  virtual absl::StatusOr<std::vector<std::vector<Literal>>> Execute(
      const std::vector<std::vector<const Literal*>>& arguments,
      absl::Span<const Shape> outputs) = 0;
  // Runs a one-device program on buffers of Plugin::ToDevice (the entry
  // parameters' array leaves) and returns the result leaves as buffers.
  virtual absl::StatusOr<std::vector<std::unique_ptr<PluginBuffer>>>
  ExecuteBuffers(absl::Span<PluginBuffer* const> arguments,
                 absl::Span<const Shape> outputs) = 0;
};

class Plugin {
 public:
  // The plugin at `path` with a client made with `options`: loaded and
  // created on the first call, shared afterwards. Errors: no such file, not
  // a shared object, no GetPjrtApi symbol, an API version whose major
  // number differs from Kiln's, a missing API function, or the plugin's own
  // error creating the client (its message included).
  static absl::StatusOr<std::shared_ptr<Plugin>> Get(
      const std::string& path, const PluginOptions& options);

  virtual ~Plugin() = default;

  virtual const std::string& path() const = 0;
  // "cpu", "cuda", ... (PJRT_Client_PlatformName) and the plugin's API
  // version ("0.90").
  virtual const std::string& platform() const = 0;
  virtual const std::string& api_version() const = 0;
  // The client's addressable devices.
  virtual std::vector<Device> Devices() const = 0;

  // Compiles StableHLO MLIR text (program format "mlir") for replicas x
  // partitions devices. A compile error is the plugin's message as an
  // InvalidArgument; too few devices is Unimplemented (the plugin cannot
  // run it here, which is no fault of the plugin).
  virtual absl::StatusOr<std::unique_ptr<Program>> Compile(
      const std::string& mlir, int64_t replicas, int64_t partitions) = 0;

  // Copies a static array to the client's addressable device `device`.
  virtual absl::StatusOr<std::unique_ptr<PluginBuffer>> ToDevice(
      const Literal& value, int64_t device) = 0;

  // Whether the plugin has a buffer type for `type` (false for element
  // types PJRT cannot name: s1, u1, f6*).
  static bool HasBufferType(ElementType type);

  // The memo of Backend::Supports answers (probe compiles), per plugin.
  virtual std::optional<bool> CachedSupport(const std::string& key) const = 0;
  virtual void CacheSupport(const std::string& key, bool supported) = 0;
};

}  // namespace kiln::pjrt

#endif  // KILN_BACKENDS_PJRT_PLUGIN_H_
