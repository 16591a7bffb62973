// Benchmarks of the HLO text parser and printer on a generated XLA-style
// module of 100,000 instructions (see xla_module_gen.h):
//   bazel run -c opt //tools/bench:hlo_text_bench
// BM_Parse (with the parser's shape checks), BM_ParseWithoutShapeChecks and
// BM_Print report MB/s of text; BM_Parse also reports
// peak_mem_x_text, the peak heap growth during one parse divided by the text
// size, measured by the counting operator new/delete below in one extra,
// untimed parse. Parse times exclude destroying the module.
#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "benchmark/benchmark.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "tools/bench/xla_module_gen.h"

namespace {

// Heap accounting for allocations through operator new in this binary. It
// is switched on only around the one parse whose memory is measured, so the
// timed iterations run with plain malloc/free.
std::atomic<bool> counting{false};
std::atomic<int64_t> live_bytes{0};
std::atomic<int64_t> peak_bytes{0};

void CountAllocation(void* pointer) {
  if (pointer == nullptr || !counting.load(std::memory_order_relaxed)) return;
  int64_t size = static_cast<int64_t>(malloc_usable_size(pointer));
  int64_t live = live_bytes.fetch_add(size, std::memory_order_relaxed) + size;
  int64_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (live > peak && !peak_bytes.compare_exchange_weak(
                            peak, live, std::memory_order_relaxed)) {
  }
}

void* CountedNew(size_t size) {
  void* pointer = std::malloc(size == 0 ? 1 : size);
  if (pointer == nullptr) throw std::bad_alloc();
  CountAllocation(pointer);
  return pointer;
}

void CountedDelete(void* pointer) {
  if (pointer == nullptr) return;
  if (counting.load(std::memory_order_relaxed)) {
    live_bytes.fetch_sub(static_cast<int64_t>(malloc_usable_size(pointer)),
                         std::memory_order_relaxed);
  }
  std::free(pointer);
}

// Peak heap growth while parsing `text` (the module is still alive at the
// end, so its own size is included), in bytes.
int64_t PeakHeapGrowthOfParse(const std::string& text) {
  live_bytes = 0;
  peak_bytes = 0;
  counting = true;
  auto module = kiln::ParseModule(text);
  counting = false;
  return module.ok() ? peak_bytes.load() : -1;
}

constexpr int64_t kInstructions = 100000;

const std::string& ModuleText() {
  static const std::string* text =
      new std::string(kiln::bench::GenerateXlaModuleText(kInstructions));
  return *text;
}

// Times parsing `text` with `options` only: the module is destroyed with
// the clock paused. False (and the benchmark skipped) on a parse error.
bool TimeParses(benchmark::State& state, const std::string& text,
                const kiln::ParseOptions& options) {
  for (auto _ : state) {
    auto module = kiln::ParseModule(text, options);
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return false;
    }
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
  }
  state.SetBytesProcessed(state.iterations() * text.size());
  return true;
}

void BM_Parse(benchmark::State& state) {
  const std::string& text = ModuleText();
  if (!TimeParses(state, text, kiln::ParseOptions())) return;
  state.counters["text_MB"] = text.size() / 1e6;
  state.counters["peak_mem_x_text"] =
      static_cast<double>(PeakHeapGrowthOfParse(text)) / text.size();
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond)->MinTime(2);

// The same without the parser's shape checks (ParseOptions::check_shapes),
// so one run shows what checking every declared shape costs.
void BM_ParseWithoutShapeChecks(benchmark::State& state) {
  kiln::ParseOptions options;
  options.check_shapes = false;
  TimeParses(state, ModuleText(), options);
}
BENCHMARK(BM_ParseWithoutShapeChecks)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2);

void BM_Print(benchmark::State& state) {
  auto module = kiln::ParseModule(ModuleText());
  if (!module.ok()) {
    state.SkipWithError(std::string(module.status().message()).c_str());
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string printed = kiln::PrintModule(**module);
    bytes = printed.size();
    benchmark::DoNotOptimize(printed);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["text_MB"] = bytes / 1e6;
}
BENCHMARK(BM_Print)->Unit(benchmark::kMillisecond)->MinTime(2);

}  // namespace

void* operator new(size_t size) { return CountedNew(size); }
void* operator new[](size_t size) { return CountedNew(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  void* pointer = std::malloc(size == 0 ? 1 : size);
  if (pointer != nullptr) CountAllocation(pointer);
  return pointer;
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* pointer) noexcept { CountedDelete(pointer); }
void operator delete[](void* pointer) noexcept { CountedDelete(pointer); }
void operator delete(void* pointer, size_t) noexcept { CountedDelete(pointer); }
void operator delete[](void* pointer, size_t) noexcept {
  CountedDelete(pointer);
}

BENCHMARK_MAIN();
