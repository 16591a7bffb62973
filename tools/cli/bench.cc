// `kiln bench`: compiles a module once for a backend and times its runs:
// compile time cold (an empty kernel cache) and warm (the cache filled),
// the minimum and median time per run, and GFLOP/s and GB/s from a simple
// cost model (cost_model below). Arguments as for `kiln run`.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "backends/backend.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"
#include "tools/cli/module_loading.h"
#include "tools/cli/run_args.h"

ABSL_DECLARE_FLAG(std::optional<std::string>, args);
ABSL_DECLARE_FLAG(std::optional<std::string>, args_file);
ABSL_DECLARE_FLAG(std::optional<std::string>, random_args);

ABSL_FLAG(int64_t, runs, 10, "bench: timed runs after one warm-up run");
ABSL_FLAG(bool, json, false,
          "bench: print one JSON object instead of the table");

namespace kiln::cli {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Work a module does, as a roofline would count it: floating-point
// operations (dot and convolution 2 per multiply-add, one per element of
// every other arithmetic op and per reduced element) and the bytes of the
// entry's parameters and result (the least memory traffic possible).
struct Cost {
  double flops = 0;
  double bytes = 0;
};

double Elements(const Shape& shape) {
  absl::StatusOr<int64_t> n = shape.ElementCount();
  return n.ok() ? static_cast<double>(*n) : 0;
}

double Bytes(const Shape& shape) {
  if (shape.IsTuple()) {
    double total = 0;
    for (const Shape& element : shape.tuple_shapes()) total += Bytes(element);
    return total;
  }
  absl::StatusOr<int64_t> n = shape.ByteSize();
  return n.ok() ? static_cast<double>(*n) : 0;
}

double InstructionFlops(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kDot: {
      // 2 x result elements x contracted size.
      const auto* contracting =
          instruction.attrs().Get<Int64List>(attr::kLhsContractingDims);
      double k = 1;
      if (contracting != nullptr) {
        for (int64_t d : *contracting) {
          k *= instruction.operand(0)->shape().dimension(d);
        }
      }
      return 2 * Elements(instruction.shape()) * k;
    }
    case Opcode::kConvolution:
      return 2 * Elements(instruction.shape()) *
             Elements(instruction.operand(1)->shape()) /
             std::max<double>(1, instruction.shape().rank() > 0
                                     ? instruction.shape().dimension(
                                           instruction.shape().rank() - 1)
                                     : 1);
    case Opcode::kReduce:
      return Elements(instruction.operand(0)->shape());
    case Opcode::kParameter:
    case Opcode::kConstant:
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kTranspose:
    case Opcode::kCopy:
    case Opcode::kSlice:
    case Opcode::kFusion:
      return 0;
    default:
      return instruction.shape().IsArray() ? Elements(instruction.shape()) : 0;
  }
}

Cost EstimateCost(const Module& module) {
  Cost cost;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      cost.flops += InstructionFlops(*instruction);
    }
  }
  const Computation* entry = module.entry();
  for (const Instruction* parameter : entry->parameters()) {
    cost.bytes += Bytes(parameter->shape());
  }
  cost.bytes += Bytes(entry->root()->shape());
  return cost;
}

// Compiles with KILN_CACHE_DIR pointed at an empty folder (cold), then
// again with the folder filled (warm); leaves the variable as it was.
struct Compiled {
  std::unique_ptr<Executable> executable;
  double cold_seconds = 0;
  double warm_seconds = 0;
};

absl::StatusOr<Compiled> CompileColdAndWarm(Backend& backend,
                                            const Module& module,
                                            const CompileOptions& options) {
  const char* previous = std::getenv("KILN_CACHE_DIR");
  const std::string saved = previous != nullptr ? previous : "";
  std::string scratch = "/tmp/kiln-bench-cache.XXXXXX";
  if (mkdtemp(scratch.data()) == nullptr) {
    return absl::InternalError("cannot create a temporary kernel cache");
  }
  setenv("KILN_CACHE_DIR", scratch.c_str(), 1);
  Compiled compiled;
  auto start = Clock::now();
  absl::StatusOr<std::unique_ptr<Executable>> cold =
      backend.Compile(module, options);
  compiled.cold_seconds = Seconds(start);
  absl::Status status = cold.status();
  if (cold.ok()) {
    cold->reset();  // The warm compile must find the cache on disk.
    start = Clock::now();
    absl::StatusOr<std::unique_ptr<Executable>> warm =
        backend.Compile(module, options);
    compiled.warm_seconds = Seconds(start);
    if (warm.ok()) {
      compiled.executable = *std::move(warm);
    } else {
      status = warm.status();
    }
  }
  if (previous != nullptr) {
    setenv("KILN_CACHE_DIR", saved.c_str(), 1);
  } else {
    unsetenv("KILN_CACHE_DIR");
  }
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  if (!status.ok()) return status;
  return compiled;
}

absl::Status Bench(const std::string& path) {
  const int64_t runs = absl::GetFlag(FLAGS_runs);
  if (runs < 1) return absl::InvalidArgumentError("--runs must be at least 1");
  absl::StatusOr<std::unique_ptr<Backend>> backend = MakeBackend();
  if (!backend.ok()) return backend.status();
  absl::StatusOr<std::unique_ptr<Module>> module = LoadModule(path);
  if (!module.ok()) return module.status();
  absl::StatusOr<CompileOptions> options = MakeCompileOptions(**module);
  if (!options.ok()) return options.status();
  if (options->replica_count * options->num_partitions != 1) {
    return absl::UnimplementedError("kiln bench runs one device");
  }
  absl::StatusOr<Compiled> compiled =
      CompileColdAndWarm(**backend, **module, *options);
  if (!compiled.ok()) return compiled.status();
  Executable& executable = *compiled->executable;

  ArgumentSources sources;
  sources.args = absl::GetFlag(FLAGS_args);
  sources.args_file = absl::GetFlag(FLAGS_args_file);
  if (std::optional<std::string> seed = absl::GetFlag(FLAGS_random_args)) {
    uint64_t value;
    if (!absl::SimpleAtoi(*seed, &value)) {
      return absl::InvalidArgumentError("--random_args takes a seed");
    }
    sources.random_seed = value;
  } else if (!sources.args.has_value() && !sources.args_file.has_value()) {
    sources.random_seed = 0;
  }
  absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
      BuildArguments(sources, executable.parameter_shapes());
  if (!arguments.ok()) return arguments.status();

  // The arguments go to the device once; each run executes on buffers, so
  // the times are the executions', not argument copies'.
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<DeviceBuffer*> pointers;
  for (Literal& argument : (*arguments)[0]) {
    absl::StatusOr<std::unique_ptr<DeviceBuffer>> buffer =
        (*backend)->TransferToDevice(std::move(argument));
    if (!buffer.ok()) return buffer.status();
    pointers.push_back(buffer->get());
    buffers.push_back(*std::move(buffer));
  }
  const bool terminal = isatty(STDERR_FILENO) != 0;
  std::vector<double> times;
  for (int64_t run = 0; run <= runs; ++run) {  // Run 0 warms up.
    const auto start = Clock::now();
    ExecuteResult result = executable.Execute(pointers).get();
    const double seconds = Seconds(start);
    if (!result.ok()) return result.status();
    if (run > 0) times.push_back(seconds);
    if (terminal) {
      std::fputs(absl::StrFormat("\rkiln bench: run %d/%d", run, runs).c_str(),
                 stderr);
    }
  }
  if (terminal) std::fputs("\r\033[K", stderr);
  std::sort(times.begin(), times.end());
  const double best = times.front();
  const double median = times[times.size() / 2];
  const Cost cost = EstimateCost(**module);
  // A device backend (gpu) also says how long the device itself took,
  // without copying the arguments in and the result out.
  double device_min = 0, device_median = 0;
  if (absl::StatusOr<std::string> device = executable.Emit("device_times");
      device.ok()) {
    std::sscanf(device->c_str(), "%lf %lf", &device_min, &device_median);
  }
  if (absl::GetFlag(FLAGS_json)) {
    WriteStdout(absl::StrFormat(
        "{\"compile_cold_s\": %.6f, \"compile_warm_s\": %.6f, "
        "\"run_min_s\": %.9f, \"run_median_s\": %.9f, \"runs\": %d, "
        "\"flops\": %.0f, \"bytes\": %.0f%s}\n",
        compiled->cold_seconds, compiled->warm_seconds, best, median, runs,
        cost.flops, cost.bytes,
        device_min > 0 ? absl::StrFormat(", \"device_min_s\": %.9f, "
                                         "\"device_median_s\": %.9f",
                                         device_min, device_median)
                       : ""));
    return absl::OkStatus();
  }
  if (device_min > 0) {
    WriteStdout(absl::StrFormat(
        "device:  %.3f ms min, %.3f ms median (without the copies in and "
        "out; %.2f GB/s at the min)\n",
        1e3 * device_min, 1e3 * device_median, cost.bytes / device_min / 1e9));
  }
  WriteStdout(absl::StrFormat(
      "compile: %.1f ms cold, %.1f ms warm\n"
      "run:     %.3f ms min, %.3f ms median (%d runs)\n"
      "rate:    %.2f GFLOP/s, %.2f GB/s (at the median; %.3g flop, %.3g "
      "bytes)\n",
      1e3 * compiled->cold_seconds, 1e3 * compiled->warm_seconds, 1e3 * best,
      1e3 * median, runs, cost.flops / median / 1e9, cost.bytes / median / 1e9,
      cost.flops, cost.bytes));
  return absl::OkStatus();
}

int RunBench(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    WriteStderr("kiln bench: give exactly one input file (- is stdin)");
    return kExitUsage;
  }
  if (absl::Status status = Bench(args[0]); !status.ok()) {
    WriteStderr(absl::StrCat("kiln bench: ", status.message()));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace
}  // namespace kiln::cli

KILN_REGISTER_COMMAND(
    bench, "compile a module once and time its runs on a backend",
    "usage: kiln bench --backend=cpu [--args=... | --args_file=FILE |\n"
    "                  --random_args=SEED] [--runs=N] [--json] FILE\n"
    "\n"
    "Compiles FILE twice, first with an empty kernel cache (cold) and then\n"
    "with the cache filled (warm), runs it once to warm up and then --runs\n"
    "times, and prints the compile times, the minimum and median time per\n"
    "run, and GFLOP/s and GB/s at the median from a cost model (2 flops per\n"
    "multiply-add of dot and convolution, one per element of other\n"
    "arithmetic; bytes of the parameters and the result). Arguments as\n"
    "for `kiln run` (random from seed 0 when none is given). A terminal\n"
    "shows a progress line. --json prints one JSON object (the benchmark\n"
    "scripts under tools/bench/ read it).",
    ::kiln::cli::RunBench);
