// The `pjrt:PATH[,key=value...]` backend: runs modules on any vendor's PJRT
// plugin. Compile exports the module to StableHLO (compiler/stablehlo) and
// has the plugin compile it (program format "mlir"); executables transfer
// the arguments' array leaves as host buffers, execute on the plugin's
// devices (replicas x partitions, when the plugin has that many) and copy
// the result leaves back into a literal of the root's shape. Plugin errors
// are Kiln errors carrying the plugin's message; a module the plugin
// refuses is an error, and the process goes on.
//
// One client per process per plugin and options (Plugin::Get), shared by
// every PjrtBackend made for it; backends and executables are thread-safe.
// docs/backends.md ("pjrt") and docs/vendors.md.
#ifndef KILN_BACKENDS_PJRT_PJRT_BACKEND_H_
#define KILN_BACKENDS_PJRT_PJRT_BACKEND_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/backend.h"
#include "backends/pjrt/plugin.h"

namespace kiln::pjrt {

// What follows "pjrt:": the plugin path, then comma-separated key=value
// plugin options (passed to PJRT_Client_Create).
struct BackendArgument {
  std::string path;
  PluginOptions options;
};
absl::StatusOr<BackendArgument> ParseBackendArgument(
    absl::string_view argument);

class PjrtBackend : public Backend {
 public:
  explicit PjrtBackend(std::shared_ptr<Plugin> plugin)
      : plugin_(std::move(plugin)) {}

  absl::string_view name() const override { return "pjrt"; }
  // Answers from probe compiles (probes.h), cached per plugin in memory
  // and on disk for later processes (support_file.h): the type
  // must survive a convert round trip through the plugin, and an op with a
  // probe template must export and compile on it. Tuples and tokens are
  // supported (tokens not as entry parameters or results), opaque not.
  bool Supports(Opcode opcode, ElementType type) const override;
  // The exporter legalizes client form itself.
  bool accepts_client_form() const override { return true; }
  std::vector<Device> Devices() const override { return plugin_->Devices(); }
  // Arrays go into the plugin's device memory (PluginBuffer), so that
  // executions on them (kiln bench) copy nothing; tuples stay on the host.
  absl::StatusOr<std::unique_ptr<DeviceBuffer>> TransferToDevice(
      Literal value, int64_t device = 0) override;
  absl::StatusOr<Literal> TransferToHost(const DeviceBuffer& buffer) override;
  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override;

  const Plugin& plugin() const { return *plugin_; }

 private:
  // The memo key saying that the support file was read into the plugin.
  static constexpr char kFileLoaded[] = "#support file read";

  bool Probe(const std::string& key, Opcode opcode, ElementType type) const;
  // Memoizes an answer in the plugin and appends it to the support file.
  void Remember(const std::string& key, bool supported) const;

  std::shared_ptr<Plugin> plugin_;
};

}  // namespace kiln::pjrt

#endif  // KILN_BACKENDS_PJRT_PJRT_BACKEND_H_
