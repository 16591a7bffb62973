// What a device backend built on the CPU backend's lowering plugs in (the
// gpu backend, backends/gpu/device_executor.h): the same programs, thunk
// sequences and buffer assignment, with the values in device memory.
//
// DeviceMemory is what the control-flow thunks (control_thunks.h) and the
// thunk loop ask when RunState::device is set: they allocate nested
// arenas, copy loop state and read predicates through it, and run every
// other thunk through RunThunk. DeviceExecutor runs a whole execution of
// the entry program (CpuBackend's executable hands Run to it).
#ifndef KILN_BACKENDS_CPU_DEVICE_RUNTIME_H_
#define KILN_BACKENDS_CPU_DEVICE_RUNTIME_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "backends/cpu/thunks.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/literal.h"

namespace kiln::cpu {

// Device memory, freed by its deleter when the last reference goes.
using DeviceArena = std::shared_ptr<uint8_t>;

class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // Runs a thunk of state.program: a kernel, library call or fallback on
  // the device (or on host copies of its slots); a control thunk's Run.
  virtual absl::Status RunThunk(const Thunk& thunk, RunState& state) = 0;
  // `bytes` of device memory (ResourceExhausted when there is not enough).
  virtual absl::StatusOr<DeviceArena> Allocate(int64_t bytes) = 0;
  virtual absl::Status CopyOnDevice(uint8_t* to, const uint8_t* from,
                                    int64_t bytes) = 0;
  virtual absl::Status CopyToHost(void* to, const uint8_t* from,
                                  int64_t bytes) = 0;
  // Where a constant slot's literal lives on the device.
  virtual absl::StatusOr<uint8_t*> ConstantAddress(const Literal* constant) = 0;
  // Called once `state`'s addresses are all set, before its thunks run
  // (the place to build what its kernels' launches need).
  virtual absl::Status Bound(RunState& state) = 0;
};

// Runs `thunk` on the host, or through state.device when it is set.
inline absl::Status RunThunk(const Thunk& thunk, RunState& state) {
  return state.device != nullptr ? state.device->RunThunk(thunk, state)
                                 : thunk.Run(state);
}

class DeviceExecutor {
 public:
  virtual ~DeviceExecutor() = default;
  // One execution of `entry` on the device: the arguments copied in, the
  // result (of `result_shape`) copied out. Thread safe.
  virtual absl::StatusOr<Literal> Run(
      const Program& entry, const std::vector<const Literal*>& arguments,
      const Shape& result_shape, eval::EvalContext& eval) = 0;
  // Lines for `kiln compile --emit=stats`: what runs on the device and
  // what falls back to the host.
  virtual std::string Stats() const = 0;
  // The device's time of each execution so far (from its first thunk to
  // the device finishing the last, without the argument and result
  // copies), for `kiln bench`.
  virtual std::vector<double> DeviceSeconds() const = 0;
};

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_DEVICE_RUNTIME_H_
