#include "backends/gpu/device_executor.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "backends/gpu/cublas.h"
#include "backends/gpu/device_module.h"
#include "compiler/ir/element_type.h"

namespace kiln::gpu {
namespace {

using cpu::BufferSlot;
using cpu::DeviceArena;
using cpu::Program;
using cpu::RunState;
using cpu::Thunk;
using cpu::ValueTree;

constexpr int64_t kAlignment = 256;  // cudaMalloc's alignment.

int64_t RoundUp(int64_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

CuDevicePtr Device(const uint8_t* address) {
  return reinterpret_cast<CuDevicePtr>(address);
}

// Where each parameter and result slot of the entry lives in an
// execution's allocation (after the arena), and how big that is.
struct IoLayout {
  absl::flat_hash_map<int64_t, int64_t> offsets;  // By slot.
  int64_t bytes = 0;
};

IoLayout LayOut(const Program& entry) {
  IoLayout layout;
  int64_t offset = RoundUp(entry.arena_bytes);
  for (size_t i = 0; i < entry.slots.size(); ++i) {
    const BufferSlot& slot = entry.slots[i];
    if (slot.kind != BufferSlot::Kind::kParameter &&
        slot.kind != BufferSlot::Kind::kResult) {
      continue;
    }
    layout.offsets[i] = offset;
    offset += RoundUp(std::max<int64_t>(slot.bytes, 1));
  }
  layout.bytes = std::max<int64_t>(offset, kAlignment);
  return layout;
}

// Every program `program` runs, `program` first.
void CollectPrograms(const Program& program, std::vector<const Program*>* out) {
  out->push_back(&program);
  for (const auto& thunk : program.thunks) {
    for (const Program* nested : thunk->NestedPrograms()) {
      CollectPrograms(*nested, out);
    }
  }
}

// The pointer arrays of a program binding's kernels, on the device.
struct Binding {
  DeviceArena table;
  absl::flat_hash_map<const Thunk*, std::pair<CuDevicePtr, CuDevicePtr>>
      arrays;  // A kernel thunk's `in` and `out`.
};

// Why a dot runs on the host instead of cuBLAS, or "" when it does not.
std::string DotOnHostReason(const cpu::DotThunk& dot) {
  const ElementType type = dot.instruction().shape().element_type();
  if (!CublasSupports(type)) {
    return absl::StrCat("cuBLAS path takes f32, f64, f16, bf16, not ",
                        ElementTypeName(type));
  }
  const cpu::DotThunk::Dimensions& d = dot.dimensions();
  for (const std::vector<int64_t>* permutation :
       {&d.lhs_permutation, &d.rhs_permutation}) {
    for (size_t i = 0; i < permutation->size(); ++i) {
      if ((*permutation)[i] != static_cast<int64_t>(i)) {
        return "an operand needs a transposing copy";
      }
    }
  }
  if (d.k == 0) return "an empty contraction";
  if (!CublasStatus().ok()) return std::string(CublasStatus().message());
  return "";
}

class GpuExecutor : public cpu::DeviceExecutor, public cpu::DeviceMemory {
 public:
  GpuExecutor(const CudaDevice& device, const Program& entry)
      : device_(device),
        driver_(device.driver),
        entry_(entry),
        layout_(LayOut(entry)) {
    sync_each_launch_ = std::getenv("KILN_GPU_SYNC") != nullptr &&
                        std::string(std::getenv("KILN_GPU_SYNC")) == "1";
  }

  // Device memory is freed with the primary context current.
  ~GpuExecutor() override { MakeCurrent(device_).IgnoreError(); }

  absl::Status Load(const std::string& unit,
                    const cpu::KernelCompilerOptions& options);

  // DeviceExecutor.
  absl::StatusOr<Literal> Run(const Program& entry,
                              const std::vector<const Literal*>& arguments,
                              const Shape& result_shape,
                              eval::EvalContext& eval) override;
  std::string Stats() const override;
  std::vector<double> DeviceSeconds() const override {
    absl::MutexLock lock(&mutex_);
    return device_seconds_;
  }

  // DeviceMemory.
  absl::Status RunThunk(const Thunk& thunk, RunState& state) override;
  absl::StatusOr<DeviceArena> Allocate(int64_t bytes) override;
  absl::Status CopyOnDevice(uint8_t* to, const uint8_t* from,
                            int64_t bytes) override;
  absl::Status CopyToHost(void* to, const uint8_t* from,
                          int64_t bytes) override;
  absl::StatusOr<uint8_t*> ConstantAddress(const Literal* constant) override;
  absl::Status Bound(RunState& state) override;

 private:
  absl::Status CopyToDevice(uint8_t* to, const void* from, int64_t bytes);
  absl::Status Launch(const cpu::KernelThunk& kernel, RunState& state);
  absl::Status Gemm(const cpu::DotThunk& dot, const RunState& state);
  absl::Status OnHost(const Thunk& thunk, RunState& state);
  absl::Status UploadConstants();
  void Classify();
  // A driver error at a copy or synchronization, which may be a kernel's
  // earlier fault: names the last kernels launched.
  absl::Status AsyncError(CuResult error, absl::string_view what);
  absl::StatusOr<RunState> BindEntry(
      uint8_t* base, const std::vector<const Literal*>& arguments);
  absl::Status CopyResult(const ValueTree& tree, std::vector<int64_t>& path,
                          const RunState& state, Literal& result);
  DeviceArena TakeArena();
  void ReturnArena(DeviceArena arena);
  void RecordTime(double seconds);

  const CudaDevice& device_;
  const CudaDriver& driver_;
  const Program& entry_;
  const IoLayout layout_;
  std::unique_ptr<DeviceModule> module_;
  bool sync_each_launch_ = false;
  absl::flat_hash_map<const Literal*, DeviceArena> constants_;
  // What runs where, counted when the executable loads.
  int64_t device_kernels_ = 0, cublas_calls_ = 0, control_thunks_ = 0;
  std::vector<std::string> host_thunks_;  // "what (why)".
  absl::flat_hash_set<const Thunk*> dots_on_host_;
  std::atomic<int64_t> host_round_trips_{0};

  mutable absl::Mutex mutex_;
  std::vector<DeviceArena> arenas_ ABSL_GUARDED_BY(mutex_);
  std::vector<double> device_seconds_ ABSL_GUARDED_BY(mutex_);
  std::deque<std::string> recent_launches_ ABSL_GUARDED_BY(mutex_);
};

absl::Status GpuExecutor::Load(const std::string& unit,
                               const cpu::KernelCompilerOptions& options) {
  if (!unit.empty()) {
    absl::StatusOr<std::unique_ptr<DeviceModule>> module =
        LoadDeviceModule(device_, unit, options);
    if (!module.ok()) return module.status();
    module_ = *std::move(module);
  }
  Classify();
  return UploadConstants();
}

void GpuExecutor::Classify() {
  std::vector<const Program*> programs;
  CollectPrograms(entry_, &programs);
  for (const Program* program : programs) {
    for (const auto& thunk : program->thunks) {
      if (!thunk->NestedPrograms().empty()) {
        ++control_thunks_;
      } else if (dynamic_cast<const cpu::KernelThunk*>(thunk.get())) {
        ++device_kernels_;
      } else if (auto* dot = dynamic_cast<const cpu::DotThunk*>(thunk.get())) {
        const std::string why = DotOnHostReason(*dot);
        if (why.empty()) {
          ++cublas_calls_;
          continue;
        }
        dots_on_host_.insert(thunk.get());
        host_thunks_.push_back(absl::StrCat(thunk->ToString(), " (", why, ")"));
      } else {
        host_thunks_.push_back(
            absl::StrCat(thunk->ToString(), " (no device path)"));
      }
    }
  }
}

absl::Status GpuExecutor::UploadConstants() {
  std::vector<const Program*> programs;
  CollectPrograms(entry_, &programs);
  if (absl::Status status = MakeCurrent(device_); !status.ok()) return status;
  for (const Program* program : programs) {
    for (const BufferSlot& slot : program->slots) {
      if (slot.kind != BufferSlot::Kind::kConstant ||
          constants_.contains(slot.constant)) {
        continue;
      }
      absl::Span<const uint8_t> data = slot.constant->data();
      absl::StatusOr<DeviceArena> memory = Allocate(data.size());
      if (!memory.ok()) return memory.status();
      if (absl::Status status =
              CopyToDevice(memory->get(), data.data(), data.size());
          !status.ok()) {
        return status;
      }
      constants_[slot.constant] = *std::move(memory);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<DeviceArena> GpuExecutor::Allocate(int64_t bytes) {
  CuDevicePtr pointer = 0;
  const int64_t size = std::max<int64_t>(bytes, 1);
  if (CuResult error = driver_.mem_alloc(&pointer, size); error != 0) {
    absl::Status status = CudaError(
        driver_, error,
        absl::StrCat("cannot allocate ", size, " bytes of device memory"));
    if (absl::IsResourceExhausted(status)) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "device out of memory: ", status.message(), " on ", device_.name));
    }
    return status;
  }
  const CudaDriver* driver = &driver_;
  return DeviceArena(reinterpret_cast<uint8_t*>(pointer), [driver](uint8_t* p) {
    driver->mem_free(reinterpret_cast<CuDevicePtr>(p));
  });
}

absl::Status GpuExecutor::AsyncError(CuResult error, absl::string_view what) {
  std::string launches;
  {
    absl::MutexLock lock(&mutex_);
    launches = absl::StrJoin(recent_launches_, ", ");
  }
  absl::Status status = CudaError(driver_, error, what);
  if (launches.empty()) return status;
  return absl::Status(
      status.code(),
      absl::StrCat(status.message(),
                   "; the device may report a fault of an earlier kernel "
                   "here: the last launched were ",
                   launches, " (KILN_GPU_SYNC=1 names the one)"));
}

absl::Status GpuExecutor::CopyOnDevice(uint8_t* to, const uint8_t* from,
                                       int64_t bytes) {
  if (bytes == 0) return absl::OkStatus();
  if (CuResult error = driver_.memcpy_dtod(Device(to), Device(from), bytes);
      error != 0) {
    return AsyncError(error, "cuMemcpyDtoD");
  }
  return absl::OkStatus();
}

absl::Status GpuExecutor::CopyToHost(void* to, const uint8_t* from,
                                     int64_t bytes) {
  if (bytes == 0) return absl::OkStatus();
  if (CuResult error = driver_.memcpy_dtoh(to, Device(from), bytes);
      error != 0) {
    return AsyncError(error, "cuMemcpyDtoH");
  }
  return absl::OkStatus();
}

absl::Status GpuExecutor::CopyToDevice(uint8_t* to, const void* from,
                                       int64_t bytes) {
  if (bytes == 0) return absl::OkStatus();
  if (CuResult error = driver_.memcpy_htod(Device(to), from, bytes);
      error != 0) {
    return AsyncError(error, "cuMemcpyHtoD");
  }
  return absl::OkStatus();
}

absl::StatusOr<uint8_t*> GpuExecutor::ConstantAddress(const Literal* constant) {
  auto found = constants_.find(constant);
  if (found == constants_.end()) {
    return absl::InternalError("a constant was not copied to the device");
  }
  return found->second.get();
}

absl::Status GpuExecutor::Bound(RunState& state) {
  std::vector<CuDevicePtr> table;
  std::vector<std::pair<const Thunk*, size_t>> starts;
  for (const auto& thunk : state.program->thunks) {
    auto* kernel = dynamic_cast<const cpu::KernelThunk*>(thunk.get());
    if (kernel == nullptr) continue;
    starts.push_back({kernel, table.size()});
    for (int64_t slot : kernel->inputs()) {
      table.push_back(Device(state.addresses[slot]));
    }
    for (int64_t slot : kernel->outputs()) {
      table.push_back(Device(state.addresses[slot]));
    }
  }
  if (table.empty()) return absl::OkStatus();
  const int64_t bytes = table.size() * sizeof(CuDevicePtr);
  absl::StatusOr<DeviceArena> memory = Allocate(bytes);
  if (!memory.ok()) return memory.status();
  if (absl::Status status = CopyToDevice(memory->get(), table.data(), bytes);
      !status.ok()) {
    return status;
  }
  auto binding = std::make_shared<Binding>();
  const CuDevicePtr base = Device(memory->get());
  for (const auto& [thunk, start] : starts) {
    auto* kernel = static_cast<const cpu::KernelThunk*>(thunk);
    const CuDevicePtr in = base + start * sizeof(CuDevicePtr);
    binding->arrays[thunk] = {
        in, in + kernel->inputs().size() * sizeof(CuDevicePtr)};
  }
  binding->table = *std::move(memory);
  state.binding = std::move(binding);
  return absl::OkStatus();
}

absl::Status GpuExecutor::Launch(const cpu::KernelThunk& kernel,
                                 RunState& state) {
  const DeviceKernel* found =
      module_ != nullptr ? module_->Find(kernel.symbol()) : nullptr;
  auto* binding = static_cast<Binding*>(state.binding.get());
  if (found == nullptr || binding == nullptr ||
      !binding->arrays.contains(&kernel)) {
    return absl::InternalError(absl::StrCat("kernel ", kernel.symbol(),
                                            "_gpu (instruction ", kernel.name(),
                                            ") is not loaded on the device"));
  }
  const std::string label =
      absl::StrCat(found->device_name, " (instruction ", kernel.name(), ")");
  auto [in, out] = binding->arrays.at(&kernel);
  void* parameters[] = {&in, &out};
  const cpu::LaunchDims& dims = found->dims;
  const CuResult error =
      driver_.launch_kernel(found->function, dims.grid, 1, 1, dims.block, 1, 1,
                            0, nullptr, parameters, nullptr);
  if (error != 0) {
    return CudaError(driver_, error,
                     absl::StrCat("launching kernel ", label, " with grid ",
                                  dims.grid, " x block ", dims.block));
  }
  {
    absl::MutexLock lock(&mutex_);
    recent_launches_.push_back(label);
    if (recent_launches_.size() > 4) recent_launches_.pop_front();
  }
  if (sync_each_launch_) {
    if (CuResult sync = driver_.ctx_synchronize(); sync != 0) {
      return CudaError(driver_, sync,
                       absl::StrCat("kernel ", label, " failed on the device"));
    }
  }
  return absl::OkStatus();
}

absl::Status GpuExecutor::Gemm(const cpu::DotThunk& dot,
                               const RunState& state) {
  const cpu::DotThunk::Dimensions& d = dot.dimensions();
  GemmCall call;
  call.type = dot.instruction().shape().element_type();
  call.batch = d.batch;
  call.m = d.m;
  call.k = d.k;
  call.n = d.n;
  call.transpose_lhs = d.transpose_lhs;
  call.transpose_rhs = d.transpose_rhs;
  call.lhs = Device(state.addresses[dot.lhs()]);
  call.rhs = Device(state.addresses[dot.rhs()]);
  call.out = Device(state.addresses[dot.out()]);
  if (call.batch * call.m * call.n == 0) return absl::OkStatus();
  absl::Status status = CublasGemm(call);
  if (!status.ok()) {
    return absl::Status(
        status.code(),
        absl::StrCat("dot ", dot.instruction().name(), ": ", status.message()));
  }
  return absl::OkStatus();
}

absl::Status GpuExecutor::OnHost(const Thunk& thunk, RunState& state) {
  std::vector<int64_t> reads, writes;
  thunk.SlotUse(&reads, &writes);
  if (reads.empty() && writes.empty()) {
    return absl::InternalError(absl::StrCat(
        "the gpu runtime has no device or host path for ", thunk.ToString()));
  }
  RunState host;
  host.program = state.program;
  host.eval = state.eval;
  host.addresses.assign(state.addresses.size(), nullptr);
  // One host buffer per slot, 64-byte aligned as the host arenas are.
  std::vector<std::unique_ptr<uint8_t, void (*)(void*)>> buffers;
  auto bind = [&](int64_t slot, bool read) -> absl::Status {
    if (host.addresses[slot] != nullptr) return absl::OkStatus();
    const BufferSlot& info = state.program->slots[slot];
    if (info.kind == BufferSlot::Kind::kConstant) {
      host.addresses[slot] = const_cast<uint8_t*>(info.constant->data().data());
      return absl::OkStatus();
    }
    buffers.emplace_back(static_cast<uint8_t*>(std::aligned_alloc(
                             64, (info.bytes + 63) / 64 * 64 + 64)),
                         &std::free);
    if (buffers.back() == nullptr) {
      return absl::ResourceExhaustedError("cannot allocate a host copy");
    }
    host.addresses[slot] = buffers.back().get();
    return read ? CopyToHost(host.addresses[slot], state.addresses[slot],
                             info.bytes)
                : absl::OkStatus();
  };
  for (int64_t slot : reads) {
    if (absl::Status status = bind(slot, true); !status.ok()) return status;
  }
  for (int64_t slot : writes) {
    if (absl::Status status = bind(slot, false); !status.ok()) return status;
  }
  ++host_round_trips_;
  if (absl::Status status = thunk.Run(host); !status.ok()) return status;
  for (int64_t slot : writes) {
    absl::Status status =
        CopyToDevice(state.addresses[slot], host.addresses[slot],
                     state.program->slots[slot].bytes);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status GpuExecutor::RunThunk(const Thunk& thunk, RunState& state) {
  if (!thunk.NestedPrograms().empty()) return thunk.Run(state);
  if (auto* kernel = dynamic_cast<const cpu::KernelThunk*>(&thunk)) {
    return Launch(*kernel, state);
  }
  if (auto* dot = dynamic_cast<const cpu::DotThunk*>(&thunk);
      dot != nullptr && !dots_on_host_.contains(&thunk)) {
    return Gemm(*dot, state);
  }
  return OnHost(thunk, state);
}

void GpuExecutor::RecordTime(double seconds) {
  absl::MutexLock lock(&mutex_);
  // The first 10000 executions: enough for any benchmark.
  if (device_seconds_.size() < 10000) device_seconds_.push_back(seconds);
}

DeviceArena GpuExecutor::TakeArena() {
  absl::MutexLock lock(&mutex_);
  if (arenas_.empty()) return nullptr;
  DeviceArena arena = std::move(arenas_.back());
  arenas_.pop_back();
  return arena;
}

void GpuExecutor::ReturnArena(DeviceArena arena) {
  absl::MutexLock lock(&mutex_);
  arenas_.push_back(std::move(arena));
}

absl::StatusOr<RunState> GpuExecutor::BindEntry(
    uint8_t* base, const std::vector<const Literal*>& arguments) {
  RunState state;
  state.program = &entry_;
  state.device = this;
  state.addresses.resize(entry_.slots.size());
  for (size_t i = 0; i < entry_.slots.size(); ++i) {
    const BufferSlot& slot = entry_.slots[i];
    switch (slot.kind) {
      case BufferSlot::Kind::kArena:
        state.addresses[i] = base + slot.offset;
        break;
      case BufferSlot::Kind::kResult:
        state.addresses[i] = base + layout_.offsets.at(i);
        break;
      case BufferSlot::Kind::kParameter: {
        state.addresses[i] = base + layout_.offsets.at(i);
        const Literal* literal = arguments[slot.parameter];
        for (int64_t index : slot.path) {
          literal = &literal->tuple_elements()[index];
        }
        absl::Span<const uint8_t> data = literal->data();
        if (absl::Status status =
                CopyToDevice(state.addresses[i], data.data(), data.size());
            !status.ok()) {
          return status;
        }
        break;
      }
      case BufferSlot::Kind::kConstant: {
        absl::StatusOr<uint8_t*> address = ConstantAddress(slot.constant);
        if (!address.ok()) return address.status();
        state.addresses[i] = *address;
        break;
      }
    }
  }
  if (absl::Status status = Bound(state); !status.ok()) return status;
  return state;
}

absl::Status GpuExecutor::CopyResult(const ValueTree& tree,
                                     std::vector<int64_t>& path,
                                     const RunState& state, Literal& result) {
  if (tree.slot >= 0) {
    Literal* leaf = &result;
    for (int64_t index : path) {
      leaf = &(*leaf->mutable_tuple_elements())[index];
    }
    absl::Span<uint8_t> data = leaf->mutable_data();
    return CopyToHost(data.data(), state.addresses[tree.slot], data.size());
  }
  for (size_t i = 0; i < tree.elements.size(); ++i) {
    path.push_back(i);
    absl::Status status = CopyResult(tree.elements[i], path, state, result);
    path.pop_back();
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> GpuExecutor::Run(
    const Program& entry, const std::vector<const Literal*>& arguments,
    const Shape& result_shape, eval::EvalContext& eval) {
  if (&entry != &entry_) {
    return absl::InternalError("the device executor runs another program");
  }
  if (absl::Status status = MakeCurrent(device_); !status.ok()) return status;
  DeviceArena arena = TakeArena();
  if (arena == nullptr) {
    absl::StatusOr<DeviceArena> fresh = Allocate(layout_.bytes);
    if (!fresh.ok()) return fresh.status();
    arena = *std::move(fresh);
  }
  absl::StatusOr<Literal> result = Literal::CreateForOverwrite(result_shape);
  if (!result.ok()) return result.status();
  absl::StatusOr<RunState> state = BindEntry(arena.get(), arguments);
  absl::Status status = state.status();
  if (status.ok()) {
    state->eval = &eval;
    const auto start = std::chrono::steady_clock::now();
    for (const auto& thunk : entry_.thunks) {
      status = RunThunk(*thunk, *state);
      if (!status.ok()) break;
    }
    if (CuResult error = status.ok() ? driver_.ctx_synchronize() : 0;
        error != 0) {
      status = AsyncError(error, "cuCtxSynchronize after the execution");
    }
    RecordTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  if (status.ok()) {
    std::vector<int64_t> path;
    status = CopyResult(entry_.result, path, *state, *result);
  }
  ReturnArena(std::move(arena));
  if (!status.ok()) return status;
  return result;
}

std::string GpuExecutor::Stats() const {
  std::string out =
      absl::StrCat("device: ", device_.name, " (compute capability ",
                   device_.major, ".", device_.minor, ")\n");
  if (module_ != nullptr) {
    const cpu::KernelBuildStats& build = module_->build();
    absl::StrAppend(
        &out, "device image: ", module_->image(), ", kernel cache ",
        build.cache_hit ? "hit" : "miss",
        build.rebuilt_corrupt_entry ? " (corrupt entry rebuilt)" : "",
        absl::StrFormat(" (NVRTC %.3f s) ", build.compile_seconds), build.path,
        "\n");
  }
  absl::StrAppend(&out, "device kernels: ", device_kernels_,
                  "\ndevice library calls (cuBLAS): ", cublas_calls_,
                  "\nhost control thunks: ", control_thunks_,
                  "\nhost fallback thunks (operands copied to the host, "
                  "results back): ",
                  host_thunks_.size(), "\n");
  for (const std::string& line : host_thunks_) {
    absl::StrAppend(&out, "  on host: ", line, "\n");
  }
  absl::StrAppend(&out, "host round trips so far: ", host_round_trips_.load(),
                  "\n");
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<cpu::DeviceExecutor>> LoadDeviceExecutor(
    const CudaDevice& device, const std::string& unit,
    const cpu::Program& entry, const cpu::KernelCompilerOptions& options) {
  auto executor = std::make_unique<GpuExecutor>(device, entry);
  if (absl::Status status = executor->Load(unit, options); !status.ok()) {
    return status;
  }
  return std::unique_ptr<cpu::DeviceExecutor>(std::move(executor));
}

}  // namespace kiln::gpu
