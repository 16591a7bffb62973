// The Backend interface: what `kiln run`, `kiln conform` and `kiln fuzz`
// drive, and what a vendor implements. A backend compiles a module into an
// Executable, which runs on literals; a capability query says which ops and
// element types the backend supports, so that a conformance run can skip
// what a backend does not claim rather than report it as a failure.
//
// Backends accept strict form (exactly XLA's HLO); a backend that also
// accepts client form (implicit broadcasting) says so through
// accepts_client_form(). Backends are created by name from the
// BackendRegistry; each backend's library registers its factory with
// KILN_REGISTER_BACKEND (and is linked with alwayslink = 1).
//
// docs/backends.md explains how to add a backend.
#ifndef KILN_BACKENDS_BACKEND_H_
#define KILN_BACKENDS_BACKEND_H_

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"

namespace kiln {

// Options every backend understands. A backend ignores an option that does
// not apply to it (a compiled backend has no while-loop cap), but never
// ignores the device counts.
struct CompileOptions {
  // Simulated or real devices: replica_count x num_partitions. Device d is
  // replica d / num_partitions, partition d % num_partitions (XLA's order).
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  // Seed for `rng` (uniform/normal) and rng-get-and-update-state.
  uint64_t rng_seed = 0;
  // Safety limits for interpreting backends: a while loop running more
  // iterations than this, or a single value larger than this, is an error.
  int64_t max_while_iterations = int64_t{1} << 24;
  int64_t max_literal_bytes = kDefaultMaxLiteralBytes;
  // The whole run's budget of evaluated instructions, and of the bytes its
  // values take at once (0: the evaluator's default, EvalOptions).
  int64_t max_steps = int64_t{1} << 32;
  int64_t max_live_bytes = 0;
  // Intra-op threads of compiled backends (generated loops, library
  // calls); 0: every core the process may use.
  int64_t threads = 0;
};

// ---- The device layer (PJRT-like), beside the literal path ----
//
// A backend enumerates its devices; values live on a device as
// DeviceBuffers (made by Backend::TransferToDevice, read back by
// TransferToHost); Executable::Execute runs on buffers and returns a
// future of the result buffers. Literals stay the conformance boundary
// (Run); buffers are what benchmarks and long-running clients use, so that
// arguments are transferred once, not on every run.

// A device a backend runs on; ids are dense from 0.
struct Device {
  int64_t id = 0;
  std::string kind;         // "cpu", "gpu", ...
  std::string description;  // For people: "host CPU, 16 cores".
};

// A value resident on a device, with the device's shape (layouts
// included). Executions never write their arguments: a buffer is immutable
// until it is donated (ExecuteOptions::donated), which consumes it.
class DeviceBuffer {
 public:
  virtual ~DeviceBuffer() = default;
  virtual const Shape& shape() const = 0;
  virtual int64_t device() const = 0;
  // True once donated to an execution: any later use is an error.
  virtual bool is_deleted() const = 0;
};

// The buffer of backends whose device memory is host memory: a literal.
class HostBuffer : public DeviceBuffer {
 public:
  HostBuffer(Literal value, int64_t device)
      : value_(std::move(value)), device_(device) {}
  const Shape& shape() const override { return value_.shape(); }
  int64_t device() const override { return device_; }
  bool is_deleted() const override { return deleted_; }
  const Literal& value() const { return value_; }
  // Takes the value out (a donation); the buffer is deleted afterwards.
  Literal Take() {
    deleted_ = true;
    return std::move(value_);
  }

 private:
  Literal value_;
  int64_t device_;
  bool deleted_ = false;
};

// Per-execution options (CompileOptions are fixed at compile time).
struct ExecuteOptions {
  // The seed of `rng` for this execution instead of CompileOptions'.
  std::optional<uint64_t> rng_seed;
  // Argument positions whose buffers the execution consumes: they are
  // deleted when it returns, and their storage may hold its results.
  std::vector<int64_t> donated;
};

// The result of an execution: one buffer per element of a tuple root, else
// one buffer.
using ExecuteResult =
    absl::StatusOr<std::vector<std::unique_ptr<DeviceBuffer>>>;

// A compiled module. Owns everything it needs: the module passed to
// Backend::Compile may be destroyed afterwards.
//
// Thread safety: Run, RunReplicated and Execute may be called from several
// threads at once on one executable (each call has its own working
// memory); Emit is const. Arguments must not be donated by one call while
// another reads them.
class Executable {
 public:
  virtual ~Executable() = default;

  // Runs on device buffers (one per entry parameter, on device 0) and
  // returns a future of the result buffers. The default reads HostBuffers
  // as literals and runs RunOnHost; backends with device memory override
  // it. A donated argument is deleted when the future is ready.
  virtual std::future<ExecuteResult> Execute(
      absl::Span<DeviceBuffer* const> arguments,
      const ExecuteOptions& options = {});

  // Runs the entry computation on one device: one argument per entry
  // parameter. Returns the root's value (a tuple literal for a tuple root).
  virtual absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) = 0;

  // Runs on every device at once: arguments[d] are device d's arguments,
  // and the result's element d is device d's value. The default runs a
  // single-device executable through Run and refuses more devices.
  virtual absl::StatusOr<std::vector<Literal>> RunReplicated(
      absl::Span<const std::vector<Literal>> arguments);

  // Run with per-execution options; the default honours none of them and
  // refuses a per-run seed.
  virtual absl::StatusOr<Literal> RunOnHost(absl::Span<const Literal> arguments,
                                            const ExecuteOptions& options);

  // What the backend made of the module, for `kiln compile --emit=WHAT`:
  // "hlo" (the optimized module), "thunks", "cpp", "stats", ... Backends
  // say which they have; the default has none.
  virtual absl::StatusOr<std::string> Emit(absl::string_view what) const {
    return absl::UnimplementedError(
        "this backend shows nothing of its compiled form");
  }

  // The shapes of the entry parameters, and the devices compiled for.
  const std::vector<Shape>& parameter_shapes() const {
    return parameter_shapes_;
  }
  int64_t device_count() const { return device_count_; }

 protected:
  Executable(std::vector<Shape> parameter_shapes, int64_t device_count)
      : parameter_shapes_(std::move(parameter_shapes)),
        device_count_(device_count) {}

 private:
  std::vector<Shape> parameter_shapes_;
  int64_t device_count_;
};

class Backend {
 public:
  virtual ~Backend() = default;

  // The name it is registered under ("reference", "cpu", ...).
  virtual absl::string_view name() const = 0;

  // Whether the backend runs `opcode` on values of element type `type`.
  // CheckSupported asks about every element type an instruction produces
  // or consumes (compare: its operands' type and pred; convert: both);
  // tuple and token values are asked about as kTuple and kToken.
  virtual bool Supports(Opcode opcode, ElementType type) const = 0;

  // True when Compile takes client form (implicit broadcasting) as well as
  // strict form. Callers legalize client form for backends that do not.
  virtual bool accepts_client_form() const { return false; }

  // The devices the backend runs on (the default: one host device).
  virtual std::vector<Device> Devices() const;

  // Puts `value` on `device` (the default: a HostBuffer holding it), and
  // reads a buffer back (the default reads HostBuffers).
  virtual absl::StatusOr<std::unique_ptr<DeviceBuffer>> TransferToDevice(
      Literal value, int64_t device = 0);
  virtual absl::StatusOr<Literal> TransferToHost(const DeviceBuffer& buffer);

  // Compiles `module`'s entry computation. Errors: the module does not
  // verify, uses an op the backend does not support, ...
  virtual absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) = 0;
};

// What every backend checks before compiling: the device counts, that the
// module verifies, and that `backend` supports each instruction. Returns
// the entry parameter shapes.
absl::StatusOr<std::vector<Shape>> CheckCompilable(
    const Backend& backend, const Module& module,
    const CompileOptions& options);

// OK when the device counts are at least 1 and at most 4,096 devices in
// all (each simulated or threaded in one process); else an error naming
// both counts.
absl::Status CheckDeviceCounts(const CompileOptions& options);

// Helpers of the host-memory path, for backends that override Execute:
// the arguments as HostBuffers (an error for another kind, or a deleted
// one), a check that every donated position exists, and a result literal
// as buffers (one per element of a tuple).
absl::StatusOr<std::vector<const HostBuffer*>> HostArguments(
    absl::Span<DeviceBuffer* const> arguments);
absl::Status CheckDonations(absl::Span<DeviceBuffer* const> arguments,
                            const ExecuteOptions& options);
ExecuteResult ResultBuffers(Literal result);

// The first instruction of `module` (any computation) that `backend` does
// not support, as an Unimplemented error naming it, its op and its element
// type; OK when everything is supported.
absl::Status CheckSupported(const Backend& backend, const Module& module);

// Checks that `arguments` fit `parameters`: the same count, and each
// argument's shape equal to its parameter's, layouts ignored (a dynamic
// dimension takes any size up to its bound). Errors name the argument.
absl::Status CheckArguments(absl::Span<const Shape> parameters,
                            absl::Span<const Literal> arguments);

// The entry computation's parameter shapes, in parameter order.
absl::StatusOr<std::vector<Shape>> EntryParameterShapes(const Module& module);

// Makes a backend. `argument` is what follows "name:" in the name the user
// gave ("exec:./my_backend" gives "./my_backend"); empty when there was
// no colon.
using BackendFactory = std::function<absl::StatusOr<std::unique_ptr<Backend>>(
    absl::string_view argument)>;

// Backends by name. Thread-safe.
class BackendRegistry {
 public:
  // The process-wide registry that KILN_REGISTER_BACKEND fills.
  static BackendRegistry& Global();

  // Fails (AlreadyExists) when `name` is taken or (InvalidArgument) when it
  // is empty or holds a ':'.
  absl::Status Register(std::string name, BackendFactory factory);

  // Creates the backend named by `spec` ("reference", "exec:CMD"); NotFound
  // listing the registered names when there is none.
  absl::StatusOr<std::unique_ptr<Backend>> Create(absl::string_view spec) const;

  // Registered names, sorted.
  std::vector<std::string> Names() const;

 private:
  mutable absl::Mutex mutex_;
  std::vector<std::pair<std::string, BackendFactory>> factories_
      ABSL_GUARDED_BY(mutex_);
};

namespace backend_internal {
// Registers at static initialization; aborts on a duplicate name (a
// programming error every test of the binary catches at startup).
struct BackendRegistration {
  BackendRegistration(const char* name, BackendFactory factory);
};
}  // namespace backend_internal

}  // namespace kiln

// KILN_REGISTER_BACKEND(reference, factory): registers `factory` under the
// name "reference" in BackendRegistry::Global().
#define KILN_REGISTER_BACKEND(name, factory)                 \
  static const ::kiln::backend_internal::BackendRegistration \
      kiln_backend_registration_##name(#name, factory)

#endif  // KILN_BACKENDS_BACKEND_H_
