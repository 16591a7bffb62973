// The CUDA emulation shim: what the GPU backend's generated CUDA C++ needs
// to compile as host C++ and run on the CPU (the `gpu-emulated` backend).
// It is not compiled into Kiln: backends/gpu pastes it after the CPU
// kernel prelude into every emulated translation unit, and the host
// compiler builds it into the kernel library (so the block scheduler and
// its stack switching run in the uninstrumented library, never in an
// ASan-instrumented Kiln).
//
// The model, and what it checks:
// - A launch runs `grid` blocks (in parallel over OpenMP threads, each
//   block on one OS thread) of `block` threads. threadIdx, blockIdx,
//   blockDim and gridDim are per OS thread, set before each emulated
//   thread runs.
// - A kernel launched without cooperation (no barrier, no shuffle: the
//   emitter says which in KILN_LAUNCH) runs its threads one after another;
//   one that calls __syncthreads or a shuffle anyway is reported.
// - A cooperative kernel runs each thread of a block as a fiber (its own
//   stack; switched by a few instructions on x86-64, by ucontext elsewhere)
//   on its own stack, in thread order; a fiber runs until it reaches a
//   barrier (__syncthreads, __syncwarp, a shuffle's exchange), which it
//   passes once every thread of its scope has arrived. A thread that reads
//   another's shared memory without a barrier between the write and the
//   read therefore sees the value before the write: shared memory (from
//   KILN_SHARED) is filled with 0xff bytes (NaN, -1) when a block starts,
//   so a missing barrier gives a wrong result rather than a lucky one. A
//   barrier that not every thread reaches (CUDA's undefined behaviour) is
//   reported instead of hanging.
// - Warp shuffles exchange through per-thread slots between two warp
//   barriers; atomics are the host's atomics (blocks run in parallel).
// Errors are collected and taken by Kiln after each run
// (kiln_emu_take_error), naming the kernel.
#ifndef KILN_BACKENDS_GPU_EMULATION_CUDA_SHIM_H_
#define KILN_BACKENDS_GPU_EMULATION_CUDA_SHIM_H_

#include <sys/mman.h>
#include <ucontext.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
// Statically declared shared memory: one copy per OS thread, shared by
// the fibers of the block running there (not poisoned: the emitter uses
// KILN_SHARED).
#define __shared__ static thread_local
// An array of shared memory of the block, poisoned when the block starts.
#define KILN_SHARED(TYPE, NAME, COUNT) \
  TYPE* const NAME = kiln_emu::SharedArray<TYPE>(COUNT)

namespace kiln_emu {

// A fiber's saved state, and the switch between two: on x86-64 the
// callee-saved registers and the floating-point control words pushed on
// the fiber's own stack (no system call, unlike swapcontext, which saves
// the signal mask); elsewhere ucontext.
#if defined(__x86_64__)
extern "C" void kiln_emu_switch(void** save, void* load);
asm(R"(
  .text
  .hidden kiln_emu_switch
  .globl kiln_emu_switch
  .type kiln_emu_switch,@function
kiln_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size kiln_emu_switch,.-kiln_emu_switch
)");
struct Context {
  void* sp = nullptr;
};
inline void Switch(Context& from, Context& to) {
  kiln_emu_switch(&from.sp, to.sp);
}
// A context that starts `entry` (which never returns) on `stack`: the
// frame kiln_emu_switch pops, then `entry` as the return address.
inline void Prepare(Context& context, char* stack, size_t size,
                    void (*entry)()) {
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t{15};
  uint64_t* frame = reinterpret_cast<uint64_t*>(top) - 9;
  uint32_t mxcsr;
  uint16_t control;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(control));
  frame[0] = mxcsr | (static_cast<uint64_t>(control) << 32);
  for (int k = 1; k <= 6; ++k) frame[k] = 0;  // r15 .. rbp.
  frame[7] = reinterpret_cast<uint64_t>(entry);
  frame[8] = 0;  // Where entry's return address would be (16-byte ABI).
  context.sp = frame;
}
#else
struct Context {
  ucontext_t uc;
};
inline void Switch(Context& from, Context& to) {
  swapcontext(&from.uc, &to.uc);
}
inline void Prepare(Context& context, char* stack, size_t size,
                    void (*entry)()) {
  getcontext(&context.uc);
  context.uc.uc_stack.ss_sp = stack;
  context.uc.uc_stack.ss_size = size;
  context.uc.uc_link = nullptr;
  makecontext(&context.uc, entry, 0);
}
#endif

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};
using KernelFunction = void (*)(const void* const*, void* const*);

inline constexpr int kWarp = 32;
inline constexpr int kMaxThreads = 1024;
inline constexpr size_t kSharedBytes = 48 * 1024;
inline constexpr size_t kStackBytes = 256 * 1024;

// The emulated thread running on this OS thread, and its block.
struct ThreadState {
  Dim3 thread_idx, block_idx, block_dim, grid_dim;
};
inline ThreadState& Current() {
  static thread_local ThreadState state;
  return state;
}

// The first error of the library's kernels until Kiln takes it: written
// once (state 0 -> 1 -> 2), taken by copying it out.
struct ErrorSlot {
  std::atomic<int> state{0};
  char text[512];
};
inline ErrorSlot& Error() {
  static ErrorSlot slot;
  return slot;
}
inline void Fail(const char* kernel, const char* what, int64_t block) {
  ErrorSlot& slot = Error();
  int empty = 0;
  if (!slot.state.compare_exchange_strong(empty, 1)) return;
  std::snprintf(slot.text, sizeof slot.text,
                "gpu-emulated kernel %s, block %lld: %s", kernel,
                static_cast<long long>(block), what);
  slot.state.store(2);
}

// One block in flight on this OS thread.
struct Block {
  const char* name = "";
  KernelFunction kernel = nullptr;
  const void* const* in = nullptr;
  void* const* out = nullptr;
  int threads = 0;
  int64_t index = 0;
  bool cooperative = false;
  bool failed = false;
  // Fibers.
  Context scheduler;
  std::vector<Context> contexts = std::vector<Context>(kMaxThreads);
  std::vector<char> done = std::vector<char>(kMaxThreads);
  char* stacks = nullptr;
  int current = 0;
  uint64_t progress = 0;
  // The block's barrier and the warps' barriers (arrivals, generation).
  int arrived = 0;
  uint64_t generation = 0;
  int warp_arrived[kMaxThreads / kWarp] = {};
  uint64_t warp_generation[kMaxThreads / kWarp] = {};
  // Shuffle slots, one per thread.
  std::vector<unsigned char> exchange =
      std::vector<unsigned char>(kMaxThreads * 16);
  // Shared memory, and how much of it each thread has declared so far
  // (every thread declares the same arrays in the same order).
  std::vector<unsigned char> shared = std::vector<unsigned char>(kSharedBytes);
  std::vector<size_t> shared_used = std::vector<size_t>(kMaxThreads);
};
inline Block& ThisBlock() {
  static thread_local Block block;
  return block;
}

template <typename T>
T* SharedArray(int64_t count) {
  Block& b = ThisBlock();
  size_t& used = b.shared_used[Current().thread_idx.x];
  used = (used + 15) / 16 * 16;
  const size_t bytes = static_cast<size_t>(count) * sizeof(T);
  if (used + bytes > kSharedBytes) {
    Fail(b.name, "more shared memory than a block has (48 KiB)", b.index);
    used = 0;
  }
  T* array = reinterpret_cast<T*>(b.shared.data() + used);
  used += bytes;
  return array;
}

inline void Yield(Block& b) { Switch(b.contexts[b.current], b.scheduler); }

// Waits until `expected` threads have arrived at the barrier
// (arrived, generation).
inline void Barrier(Block& b, int& arrived, uint64_t& generation,
                    int expected) {
  ++b.progress;
  const uint64_t mine = generation;
  if (++arrived == expected) {
    arrived = 0;
    ++generation;
    return;
  }
  while (generation == mine && !b.failed) Yield(b);
}

inline bool CheckCooperative(Block& b, const char* construct) {
  if (b.cooperative) return true;
  static thread_local char text[128];
  std::snprintf(text, sizeof text,
                "%s in a kernel launched without cooperative threads",
                construct);
  Fail(b.name, text, b.index);
  return false;
}

inline void SyncThreads() {
  Block& b = ThisBlock();
  if (!CheckCooperative(b, "__syncthreads")) return;
  Barrier(b, b.arrived, b.generation, b.threads);
}

inline void SyncWarp() {
  Block& b = ThisBlock();
  if (!CheckCooperative(b, "a warp barrier")) return;
  const int warp = b.current / kWarp;
  const int lanes =
      b.threads - warp * kWarp < kWarp ? b.threads - warp * kWarp : kWarp;
  Barrier(b, b.warp_arrived[warp], b.warp_generation[warp], lanes);
}

// The value `value` of the lane `source(lane)` of this thread's warp
// (its own where that lane does not exist).
template <typename T, typename Source>
T Shuffle(T value, Source source) {
  static_assert(sizeof(T) <= 16 && std::is_trivially_copyable_v<T>);
  Block& b = ThisBlock();
  const int t = b.current;
  std::memcpy(&b.exchange[t * 16], &value, sizeof(T));
  SyncWarp();
  const int lane = t % kWarp, from = source(lane);
  T result = value;
  if (from >= 0 && from < kWarp && t - lane + from < b.threads) {
    std::memcpy(&result, &b.exchange[(t - lane + from) * 16], sizeof(T));
  }
  SyncWarp();
  return result;
}

// A fiber's body: the kernel, then back to the scheduler for good.
inline void FiberMain() {
  Block& b = ThisBlock();
  b.kernel(b.in, b.out);
  b.done[b.current] = 1;
  ++b.progress;
  Switch(b.contexts[b.current], b.scheduler);
  __builtin_unreachable();
}

inline void SetThread(Block& b, int t) {
  Current().thread_idx.x = static_cast<unsigned>(t);
  b.current = t;
  b.shared_used[t] = 0;
}

// Runs the block's threads as fibers, each until its next barrier, in
// thread order, until all are done.
inline void RunFibers(Block& b) {
  if (b.stacks == nullptr) {
    void* stacks =
        mmap(nullptr, kStackBytes * kMaxThreads, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (stacks == MAP_FAILED) {
      Fail(b.name, "cannot map the fibers' stacks", b.index);
      return;
    }
    b.stacks = static_cast<char*>(stacks);
  }
  for (int t = 0; t < b.threads; ++t) {
    Prepare(b.contexts[t], b.stacks + t * kStackBytes, kStackBytes, &FiberMain);
    b.done[t] = 0;
  }
  b.arrived = 0;
  for (int w = 0; w < kMaxThreads / kWarp; ++w) b.warp_arrived[w] = 0;
  int remaining = b.threads;
  while (remaining > 0 && !b.failed) {
    const uint64_t before = b.progress;
    for (int t = 0; t < b.threads; ++t) {
      if (b.done[t]) continue;
      SetThread(b, t);
      // Resuming continues where the fiber stopped; shared_used only
      // matters before its first barrier, where it is 0 again.
      Switch(b.scheduler, b.contexts[t]);
      if (b.done[t]) --remaining;
    }
    if (remaining > 0 && b.progress == before) {
      Fail(b.name,
           "a barrier (__syncthreads, __syncwarp or a shuffle) is not "
           "reached by every thread of its block or warp",
           b.index);
      b.failed = true;
    }
  }
}

inline void RunBlock(const char* name, KernelFunction kernel, int64_t grid,
                     int64_t block, bool cooperative, int64_t index,
                     const void* const* in, void* const* out) {
  Block& b = ThisBlock();
  b.name = name;
  b.kernel = kernel;
  b.in = in;
  b.out = out;
  b.threads = static_cast<int>(block);
  b.index = index;
  b.cooperative = cooperative;
  b.failed = false;
  ThreadState& state = Current();
  state.block_idx.x = static_cast<unsigned>(index);
  state.block_dim.x = static_cast<unsigned>(block);
  state.grid_dim.x = static_cast<unsigned>(grid);
  std::memset(b.shared.data(), 0xff, b.shared.size());
  if (!cooperative) {
    for (int t = 0; t < b.threads; ++t) {
      SetThread(b, t);
      kernel(in, out);
    }
    return;
  }
  RunFibers(b);
}

inline void Launch(const char* name, KernelFunction kernel, int64_t grid,
                   int64_t block, bool cooperative, const void* const* in,
                   void* const* out) {
  if (block < 1 || block > kMaxThreads || grid < 1) {
    Fail(name, "a launch configuration CUDA refuses", 0);
    return;
  }
#pragma omp parallel for schedule(dynamic, 1) \
    num_threads(KilnThreads()) if (grid > 1)
  for (int64_t index = 0; index < grid; ++index) {
    RunBlock(name, kernel, grid, block, cooperative, index, in, out);
  }
}

// Atomics: read-modify-write of `address` by `update`, returning the old
// value (CUDA's convention), through the host's compare-and-swap.
template <typename T, typename Update>
T AtomicUpdate(T* address, Update update) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  T old;
  __atomic_load(address, &old, __ATOMIC_SEQ_CST);
  T desired = update(old);
  while (!__atomic_compare_exchange(address, &old, &desired, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    desired = update(old);
  }
  return old;
}

}  // namespace kiln_emu

#define threadIdx (kiln_emu::Current().thread_idx)
#define blockIdx (kiln_emu::Current().block_idx)
#define blockDim (kiln_emu::Current().block_dim)
#define gridDim (kiln_emu::Current().grid_dim)
#define warpSize 32

inline void __syncthreads() { kiln_emu::SyncThreads(); }
inline void __syncwarp(unsigned = 0xffffffffu) { kiln_emu::SyncWarp(); }
inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

template <typename T>
T __shfl_down_sync(unsigned, T value, unsigned delta, int = 32) {
  return kiln_emu::Shuffle(
      value, [&](int lane) { return lane + static_cast<int>(delta); });
}
template <typename T>
T __shfl_xor_sync(unsigned, T value, int mask, int = 32) {
  return kiln_emu::Shuffle(value, [&](int lane) { return lane ^ mask; });
}
template <typename T>
T __shfl_sync(unsigned, T value, int source, int = 32) {
  return kiln_emu::Shuffle(value, [&](int) { return source; });
}

template <typename T>
T atomicAdd(T* address, T value) {
  return kiln_emu::AtomicUpdate(address, [&](T old) { return old + value; });
}
template <typename T>
T atomicMax(T* address, T value) {
  return kiln_emu::AtomicUpdate(
      address, [&](T old) { return old < value ? value : old; });
}
template <typename T>
T atomicMin(T* address, T value) {
  return kiln_emu::AtomicUpdate(
      address, [&](T old) { return value < old ? value : old; });
}
template <typename T>
T atomicExch(T* address, T value) {
  return kiln_emu::AtomicUpdate(address, [&](T) { return value; });
}
template <typename T>
T atomicCAS(T* address, T compare, T value) {
  return kiln_emu::AtomicUpdate(
      address, [&](T old) { return old == compare ? value : old; });
}

// The host entry of kernel NAME_gpu: what the CPU backend's kernel thunks
// call.
#define KILN_LAUNCH(NAME, GRID, BLOCK, COOPERATIVE)                          \
  extern "C" void NAME(const void* const* in, void* const* out) {            \
    kiln_emu::Launch(#NAME, &NAME##_gpu, GRID, BLOCK, COOPERATIVE, in, out); \
  }

extern "C" __attribute__((used)) const char* kiln_emu_take_error() {
  kiln_emu::ErrorSlot& slot = kiln_emu::Error();
  if (slot.state.load() != 2) return nullptr;
  static thread_local char taken[sizeof slot.text];
  std::memcpy(taken, slot.text, sizeof taken);
  slot.state.store(0);
  return taken;
}

#endif  // KILN_BACKENDS_GPU_EMULATION_CUDA_SHIM_H_
