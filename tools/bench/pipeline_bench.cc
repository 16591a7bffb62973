// Benchmarks of the pass pipelines on generated modules (xla_module_gen.h:
// the layers of a dense model, as XLA dumps them) of 10k and 100k
// instructions:
//   bazel run -c opt //tools/bench:pipeline_bench
// BM_Pipeline/<pipeline>/<instructions> runs the registered pipeline on a
// fresh copy of the module each iteration (the copy is not timed) and
// reports instructions/s of input; BM_Pass/<pass>/<instructions> does the
// same for every registered pass alone, to find the one that does not scale.
// Issue 6 asks that the 100k run take at most 12 times the 10k run (no pass is
// quadratic) and under 2 s on one core.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "benchmark/benchmark.h"
#include "compiler/ir/module.h"
#include "compiler/pass/instrumentation.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/parser.h"
#include "tools/bench/xla_module_gen.h"

namespace {

// The parsed module of each size, made once.
const kiln::Module& ModuleOfSize(int64_t instructions) {
  static auto* modules = new std::map<int64_t, std::unique_ptr<kiln::Module>>();
  std::unique_ptr<kiln::Module>& module = (*modules)[instructions];
  if (module == nullptr) {
    absl::StatusOr<std::unique_ptr<kiln::Module>> parsed =
        kiln::ParseModule(kiln::bench::GenerateXlaModuleText(instructions));
    if (!parsed.ok()) {
      fprintf(stderr, "generated module does not parse: %s\n",
              std::string(parsed.status().message()).c_str());
      std::abort();  // A bug in the generator, not user input.
    }
    module = *std::move(parsed);
  }
  return *module;
}

// Runs `pass` on fresh copies of the module of state.range(0) instructions.
void RunOnCopies(benchmark::State& state, kiln::Pass& pass) {
  const int64_t instructions = state.range(0);
  const kiln::Module& original = ModuleOfSize(instructions);
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<kiln::Module> module = original.Clone();
    state.ResumeTiming();
    absl::StatusOr<bool> changed =
        kiln::RunPipeline(pass, *module, kiln::PipelineOptions());
    if (!changed.ok()) {
      state.SkipWithError(std::string(changed.status().message()).c_str());
      break;
    }
    state.PauseTiming();
    module.reset();  // Destroying the module is not the pipeline's cost.
    state.ResumeTiming();
  }
  state.counters["instructions/s"] =
      benchmark::Counter(static_cast<double>(instructions),
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Pipeline(benchmark::State& state, const std::string& pipeline_name) {
  std::unique_ptr<kiln::PassPipeline> pipeline =
      kiln::PipelineRegistry::Global().Create(pipeline_name);
  if (pipeline == nullptr) {
    state.SkipWithError(("no pipeline " + pipeline_name).c_str());
    return;
  }
  RunOnCopies(state, *pipeline);
}

void BM_Pass(benchmark::State& state, const std::string& pass_name) {
  std::unique_ptr<kiln::Pass> pass =
      kiln::PassRegistry::Global().Create(pass_name);
  RunOnCopies(state, *pass);
}

// One BM_Pass per registered pass. Called from main: the passes register
// during static initialization, in an order relative to this file that
// C++ leaves open.
void RegisterPassBenchmarks() {
  for (const std::string& name : kiln::PassRegistry::Global().Names()) {
    benchmark::RegisterBenchmark(("BM_Pass/" + name).c_str(), BM_Pass, name)
        ->Arg(10000)
        ->Arg(100000)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

// 400k: both 100k and 400k modules are far larger than the last-level
// cache (the 10k one is not), so 400k / 100k shows the algorithmic growth
// without the step from cache to memory that 100k / 10k includes.
BENCHMARK_CAPTURE(BM_Pipeline, default, std::string("default"))
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(400000)
    ->Arg(5000)
    ->Arg(20000)
    ->Arg(40000)
    ->Arg(200000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Pipeline, cpu, std::string("cpu"))
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(400000)
    ->Arg(5000)
    ->Arg(20000)
    ->Arg(40000)
    ->Arg(200000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Pipeline, gpu, std::string("gpu"))
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  // `pipeline_bench --write_module=N PATH` writes the generated module of N
  // instructions, e.g. for `kiln opt --time-passes`.
  if (argc == 4 && std::string(argv[1]) == "--write_module") {
    std::ofstream(argv[3]) << kiln::bench::GenerateXlaModuleText(
        std::atoll(argv[2]));
    return 0;
  }
  RegisterPassBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
