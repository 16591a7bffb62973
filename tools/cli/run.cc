// `kiln run`: runs a module's entry computation on a backend (the reference
// evaluator by default) and prints the results as HLO literals.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "backends/backend.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"
#include "tools/cli/module_loading.h"
#include "tools/cli/npy.h"
#include "tools/cli/run_args.h"

ABSL_FLAG(std::string, backend, "reference",
          "run: the backend to run on (an unknown name lists the registered "
          "ones)");
ABSL_FLAG(std::optional<std::string>, args, std::nullopt,
          "run: the arguments, separated by ';': HLO literals "
          "('f32[2] {1, 2}'), @FILE.npy or FILE.npy");
ABSL_FLAG(std::optional<std::string>, args_file, std::nullopt,
          "run: a file of arguments, one literal (or @FILE.npy) per "
          "parameter, separated by blank lines or one per line");
ABSL_FLAG(std::optional<std::string>, random_args, std::nullopt,
          "run: random arguments drawn from seed SEED (--random_args=SEED)");
ABSL_FLAG(int64_t, replicas, 0,
          "run: simulated replicas (0: the module's replica_count)");
ABSL_FLAG(int64_t, partitions, 0,
          "run: simulated partitions (0: the module's num_partitions)");
ABSL_FLAG(std::optional<std::string>, output, std::nullopt,
          "run: also write each result to DIR/result_N.npy");
ABSL_FLAG(int64_t, max_while_iterations, int64_t{1} << 24,
          "run: a while loop running more iterations than this is an error");
ABSL_FLAG(int64_t, max_steps, int64_t{1} << 32,
          "run: the whole run's budget: evaluating more instructions than "
          "this (all loops, calls and devices' own counts) is an error");
ABSL_FLAG(int32_t, unsupported_exit, 1,
          "run: exit status when the backend does not support the module "
          "(`kiln conform --isolate` asks for 77, the exec: protocol's)");
ABSL_FLAG(int64_t, max_live_bytes, 0,
          "run: the values alive together may take at most this many bytes "
          "(0: half the physical memory, at most 16 GiB)");
ABSL_FLAG(int64_t, threads, 0,
          "run: intra-op threads of compiled backends (generated loops, "
          "library calls); 0: every core the process may use");

namespace kiln::cli {

absl::StatusOr<std::unique_ptr<Module>> LoadModule(const std::string& path) {
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) return text.status();
  // The verifier checks every declared shape right after, so the parser
  // need not check them too.
  ParseOptions options = InputParseOptions(DisplayName(path));
  options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(*text, options);
  if (!module.ok()) return module.status();
  if (absl::Status status = VerifyModule(**module); !status.ok()) {
    return status;
  }
  return module;
}

absl::StatusOr<CompileOptions> MakeCompileOptions(const Module& module) {
  CompileOptions options;
  options.replica_count = absl::GetFlag(FLAGS_replicas);
  options.num_partitions = absl::GetFlag(FLAGS_partitions);
  if (options.replica_count < 0 || options.num_partitions < 0) {
    return absl::InvalidArgumentError(
        "--replicas and --partitions must not be negative");
  }
  if (options.replica_count == 0) {
    options.replica_count = module.config().replica_count;
  }
  if (options.num_partitions == 0) {
    options.num_partitions = module.config().num_partitions;
  }
  options.max_while_iterations = absl::GetFlag(FLAGS_max_while_iterations);
  options.max_steps = absl::GetFlag(FLAGS_max_steps);
  options.max_live_bytes = absl::GetFlag(FLAGS_max_live_bytes);
  options.threads = absl::GetFlag(FLAGS_threads);
  if (options.threads < 0 || options.threads > 4096) {
    return absl::InvalidArgumentError(
        "--threads must be between 0 (every core) and 4096");
  }
  return options;
}

absl::StatusOr<std::unique_ptr<Backend>> MakeBackend() {
  const std::string name = absl::GetFlag(FLAGS_backend);
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      BackendRegistry::Global().Create(name);
  if (!backend.ok()) {
    return absl::Status(
        backend.status().code(),
        absl::StrCat("--backend: ", backend.status().message()));
  }
  return backend;
}

namespace {

absl::StatusOr<ArgumentSources> MakeArgumentSources(int64_t device_count) {
  ArgumentSources sources;
  sources.args = absl::GetFlag(FLAGS_args);
  sources.args_file = absl::GetFlag(FLAGS_args_file);
  sources.device_count = device_count;
  if (std::optional<std::string> seed = absl::GetFlag(FLAGS_random_args)) {
    uint64_t value;
    if (!absl::SimpleAtoi(*seed, &value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--random_args takes a seed, a non-negative integer (got '", *seed,
          "'); write --random_args=0 for the first one"));
    }
    sources.random_seed = value;
  }
  return sources;
}

// "f32[2] {3, 4}": the literal as a line of HLO literal syntax.
std::string LiteralLine(const Literal& literal) {
  return absl::StrCat(LiteralToString(literal), "\n");
}

// A tuple result prints one line per element; anything else one line.
std::vector<const Literal*> ResultParts(const Literal& result) {
  std::vector<const Literal*> parts;
  if (result.shape().IsTuple()) {
    for (const Literal& element : result.tuple_elements()) {
      parts.push_back(&element);
    }
  } else {
    parts.push_back(&result);
  }
  return parts;
}

// Writes each array part of `result` as DIR/<prefix>result_N.npy; parts
// that are not arrays (tokens, nested tuples) are skipped with a note.
absl::Status WriteResults(const std::string& directory,
                          const std::string& prefix, const Literal& result) {
  std::vector<const Literal*> parts = ResultParts(result);
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string name = absl::StrCat(prefix, "result_", i, ".npy");
    if (!parts[i]->shape().IsArray()) {
      WriteStderr(absl::StrCat("kiln run: ", name, " not written: ",
                               parts[i]->shape().ToString(false),
                               " is not an array"));
      continue;
    }
    absl::Status status =
        WriteNpyFile(absl::StrCat(directory, "/", name), *parts[i]);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status MakeDirectory(const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return absl::UnavailableError(absl::StrCat(
        directory, ": cannot create the directory: ", error.message()));
  }
  return absl::OkStatus();
}

// Prints every device's results (and writes them with --output).
absl::Status Report(const std::vector<Literal>& results,
                    const CompileOptions& options) {
  const std::optional<std::string> output = absl::GetFlag(FLAGS_output);
  if (output.has_value()) {
    if (absl::Status status = MakeDirectory(*output); !status.ok()) {
      return status;
    }
  }
  const bool several = results.size() > 1;
  for (size_t device = 0; device < results.size(); ++device) {
    if (several) {
      WriteStdout(absl::StrCat("device ", device, " (replica ",
                               device / options.num_partitions, ", partition ",
                               device % options.num_partitions, "):\n"));
    }
    for (const Literal* part : ResultParts(results[device])) {
      WriteStdout(LiteralLine(*part));
    }
    if (output.has_value()) {
      const std::string prefix =
          several ? absl::StrCat("device_", device, "_") : "";
      absl::Status status = WriteResults(*output, prefix, results[device]);
      if (!status.ok()) return status;
    }
  }
  return absl::OkStatus();
}

absl::Status RunModule(const std::string& path) {
  absl::StatusOr<std::unique_ptr<Backend>> backend = MakeBackend();
  if (!backend.ok()) return backend.status();
  absl::StatusOr<std::unique_ptr<Module>> module = LoadModule(path);
  if (!module.ok()) return module.status();
  absl::StatusOr<CompileOptions> options = MakeCompileOptions(**module);
  if (!options.ok()) return options.status();
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      (*backend)->Compile(**module, *options);
  if (!executable.ok()) return executable.status();

  const int64_t devices = options->replica_count * options->num_partitions;
  absl::StatusOr<ArgumentSources> sources = MakeArgumentSources(devices);
  if (!sources.ok()) return sources.status();
  absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
      BuildArguments(*sources, (*executable)->parameter_shapes());
  if (!arguments.ok()) return arguments.status();

  std::vector<Literal> results;
  if (devices == 1) {
    absl::StatusOr<Literal> result = (*executable)->Run((*arguments)[0]);
    if (!result.ok()) return result.status();
    results.push_back(*std::move(result));
  } else {
    absl::StatusOr<std::vector<Literal>> replicated =
        (*executable)->RunReplicated(*arguments);
    if (!replicated.ok()) return replicated.status();
    results = *std::move(replicated);
  }
  return Report(results, *options);
}

// A usage error for a limit flag out of its range, or "".
std::string BadLimitFlag() {
  const int64_t iterations = absl::GetFlag(FLAGS_max_while_iterations);
  const int64_t steps = absl::GetFlag(FLAGS_max_steps);
  const int64_t live = absl::GetFlag(FLAGS_max_live_bytes);
  if (iterations < 0) {
    return absl::StrCat("--max_while_iterations must be >= 0 (got ", iterations,
                        ")");
  }
  if (steps < 1) {
    return absl::StrCat("--max_steps must be >= 1 (got ", steps, ")");
  }
  if (live < 0) {
    return absl::StrCat("--max_live_bytes must be >= 0 (got ", live,
                        "; 0 is the default budget)");
  }
  return "";
}

int RunRun(const std::vector<std::string>& args) {
  if (std::string bad = BadLimitFlag(); !bad.empty()) {
    WriteStderr(absl::StrCat("kiln run: ", bad));
    return kExitUsage;
  }
  const std::optional<std::string> seed = absl::GetFlag(FLAGS_random_args);
  uint64_t unused;
  if (args.empty() && seed.has_value() && !absl::SimpleAtoi(*seed, &unused)) {
    // `--random_args FILE`: the flag took the file name as its value.
    WriteStderr(
        absl::StrCat("kiln run: --random_args needs a seed: write "
                     "--random_args=SEED (it read '",
                     *seed, "' as the seed)"));
    return kExitUsage;
  }
  if (args.size() != 1) {
    WriteStderr(args.empty() ? "kiln run: no input file (use - for standard "
                               "input)"
                             : "kiln run: give exactly one input file");
    return kExitUsage;
  }
  absl::Status status = RunModule(args[0]);
  if (!status.ok()) {
    // An error at a place in FILE reads like every command's (FILE:LINE:COL:
    // error: ...); one about the arguments or flags names the command.
    const std::string name = DisplayName(args[0]);
    const bool in_file =
        HasFileLocation(name, status.message()) ||
        absl::StartsWith(status.message(), absl::StrCat(name, ": error: "));
    WriteStderr(in_file ? FileError(name, status)
                        : absl::StrCat("kiln run: ", status.message()));
    if (absl::IsUnimplemented(status)) {
      return absl::GetFlag(FLAGS_unsupported_exit);
    }
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

KILN_REGISTER_COMMAND(
    run, "run a module's entry computation and print the results",
    "usage: kiln run [--backend=reference] [--args='LITERAL;LITERAL']\n"
    "                [--args_file=FILE] [--random_args=SEED]\n"
    "                [--replicas=N] [--partitions=M] [--output=DIR]\n"
    "                [--max_while_iterations=N] [--max_steps=N]\n"
    "                [--max_live_bytes=N] FILE\n"
    "\n"
    "Parses FILE (- is standard input) as HLO text, verifies it, runs its\n"
    "entry computation on the backend and prints the result as an HLO\n"
    "literal, e.g. `f32[2] {4, 6}`; a tuple result prints one line per\n"
    "element. Arguments, one per entry parameter, come from --args (HLO\n"
    "literals separated by ';'; an item @X.npy or X.npy reads a NumPy\n"
    "file), from --args_file (one literal per parameter, separated by\n"
    "blank lines or one per line) or are random (--random_args=SEED).\n"
    "With several devices (--replicas x --partitions, by default the\n"
    "module's replica_count x num_partitions) every device gets the same\n"
    "arguments, or give one per parameter per device, device 0's first;\n"
    "each device's results follow a line `device D (replica R, partition\n"
    "P):`. --output=DIR also writes DIR/result_N.npy (device_D_result_N.npy\n"
    "for several devices). --max_while_iterations bounds each loop,\n"
    "--max_steps the instructions evaluated in all, --max_live_bytes the\n"
    "memory the values alive together take. Errors go to stderr with exit\n"
    "status 1 (2 for a bad command line).\n"
    "See docs/kiln_run.md.\n",
    RunRun);

}  // namespace kiln::cli
