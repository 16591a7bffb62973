// `kiln reduce`: shrinks a module that fails an oracle of `kiln fuzz` while
// it keeps failing the same way (fuzz/oracle/reduce.h; docs/fuzzing.md).
#include "fuzz/oracle/reduce.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "backends/backend.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "fuzz/generator/decisions.h"
#include "fuzz/generator/inputs.h"
#include "fuzz/oracle/findings.h"
#include "fuzz/oracle/oracle.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

ABSL_DECLARE_FLAG(std::string, backend);
ABSL_DECLARE_FLAG(std::string, pipeline);
ABSL_DECLARE_FLAG(std::string, referee);
ABSL_DECLARE_FLAG(std::string, oracle);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(double, reduce_seconds);
ABSL_DECLARE_FLAG(double, time_limit);

namespace kiln::cli {
namespace {

using fuzz::Case;
using fuzz::OracleKind;
using fuzz::OracleOptions;
using fuzz::Outcome;

int Fail(const std::string& message) {
  WriteStderr(absl::StrCat("kiln reduce: ", message));
  return kExitFailure;
}

int RunReduce(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 2) {
    WriteStderr("kiln reduce: expected a finding folder, or MODULE [ARGS]");
    return kExitUsage;
  }
  std::string module_text;
  std::vector<std::vector<Literal>> arguments;
  OracleKind kind = OracleKind::kBackend;
  OracleOptions options;
  options.backend = absl::GetFlag(FLAGS_backend);
  options.referee = absl::GetFlag(FLAGS_referee);
  options.pipeline = absl::GetFlag(FLAGS_pipeline).empty()
                         ? "default"
                         : absl::GetFlag(FLAGS_pipeline);
  bool have_arguments = false;
  if (std::filesystem::is_directory(args[0])) {
    absl::StatusOr<fuzz::Finding> finding = fuzz::ReadFinding(args[0]);
    if (!finding.ok()) return Fail(std::string(finding.status().message()));
    module_text = finding->module_text;
    arguments = std::move(finding->arguments);
    kind = finding->oracle;
    options = finding->options;
    have_arguments = true;
  } else {
    absl::StatusOr<std::string> text = ReadInput(args[0]);
    if (!text.ok()) return Fail(std::string(text.status().message()));
    module_text = *std::move(text);
    absl::StatusOr<OracleKind> parsed =
        fuzz::ParseOracle(absl::GetFlag(FLAGS_oracle));
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    kind = *parsed;
    if (args.size() == 2) {
      absl::StatusOr<std::string> args_text = ReadInput(args[1]);
      if (!args_text.ok())
        return Fail(std::string(args_text.status().message()));
      absl::StatusOr<std::vector<std::vector<Literal>>> parsed_args =
          fuzz::ParseArgumentsText(*args_text);
      if (!parsed_args.ok()) {
        return Fail(std::string(parsed_args.status().message()));
      }
      arguments = *std::move(parsed_args);
      have_arguments = true;
    }
  }
  if (kind == OracleKind::kCrash) {
    return Fail(
        "crash findings are reduced by replaying their oracles; "
        "give --oracle=backend, pipeline or roundtrip");
  }
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(module_text, InputParseOptions(DisplayName(args[0])));
  if (!module.ok()) return Fail(std::string(module.status().message()));
  if (!have_arguments) {
    // Edge-value arguments from seed 0, one list per device.
    std::vector<Shape> parameters;
    for (const Instruction* p : (*module)->entry()->parameters()) {
      parameters.push_back(p->shape());
    }
    fuzzgen::SplitMix64Source source(0);
    absl::StatusOr<std::vector<std::vector<Literal>>> random =
        fuzzgen::RandomArguments(parameters,
                                 (*module)->config().replica_count *
                                     (*module)->config().num_partitions,
                                 source);
    if (!random.ok()) return Fail(std::string(random.status().message()));
    arguments = *std::move(random);
  }
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      fuzz::CreateBackend(options.backend, absl::GetFlag(FLAGS_time_limit));
  if (kind == OracleKind::kBackend && !backend.ok()) {
    return Fail(std::string(backend.status().message()));
  }
  Backend* under_test = backend.ok() ? backend->get() : nullptr;
  absl::StatusOr<std::unique_ptr<Backend>> referee = fuzz::CreateBackendIfNamed(
      options.referee, absl::GetFlag(FLAGS_time_limit));
  if (!referee.ok()) {
    return Fail(absl::StrCat("--referee: ", referee.status().message()));
  }
  options.referee_backend = referee->get();
  Case c;
  c.module = module->get();
  c.arguments = std::move(arguments);
  const Outcome outcome = fuzz::RunOracle(kind, c, under_test, options);
  if (!outcome.finding()) {
    return Fail(absl::StrCat(
        "the module does not fail the ", fuzz::OracleName(kind), " oracle",
        outcome.detail.empty() ? "" : ": ", outcome.detail));
  }
  const absl::Time start = absl::Now();
  double seconds = absl::GetFlag(FLAGS_reduce_seconds);
  if (seconds <= 0) seconds = 20;
  absl::StatusOr<fuzz::Reduced> reduced = fuzz::ReduceCase(
      kind, c, under_test, options, outcome, absl::Seconds(seconds));
  if (!reduced.ok()) return Fail(std::string(reduced.status().message()));
  const std::string text = PrintModule(*reduced->module);
  const std::string arguments_text = fuzz::ArgumentsText(reduced->arguments);
  WriteStderr(
      absl::StrCat(fuzz::OracleName(kind), " ", outcome.kind, " blamed on ",
                   outcome.blamed, ": ", reduced->instructions_before, " -> ",
                   reduced->instructions_after, " instructions, ",
                   reduced->kept, " of ", reduced->tried, " candidates kept, ",
                   absl::FormatDuration(absl::Trunc(absl::Now() - start,
                                                    absl::Milliseconds(1)))));
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) {
    WriteStdout(absl::StrCat(text, "\n// arguments\n", arguments_text));
    return kExitOk;
  }
  std::error_code error;
  std::filesystem::create_directories(out, error);
  std::ofstream(std::filesystem::path(out) / "module.hlo") << text;
  std::ofstream(std::filesystem::path(out) / "args.txt") << arguments_text;
  if (error) return Fail(absl::StrCat("cannot write ", out));
  return kExitOk;
}

}  // namespace

KILN_REGISTER_COMMAND(
    reduce, "shrink a module that fails a kiln fuzz oracle",
    "kiln reduce FINDING_DIR\n"
    "kiln reduce MODULE.hlo [ARGS.txt] --oracle=backend|pipeline|roundtrip\n"
    "            [--backend=NAME] [--referee=NAME] [--pipeline=NAME]\n"
    "            [--out=DIR]\n\n"
    "Reduces the module while the oracle keeps failing the same way (the\n"
    "same kind of finding, blamed on the same backend or pass): moves the\n"
    "root earlier, replaces instructions and parameters by constants of\n"
    "their reference values, drops unused parameters. ARGS.txt holds one\n"
    "literal per line (\"# device N\" before each device's); without it the\n"
    "arguments are edge values from seed 0. Prints the reduced module and its\n"
    "arguments (or writes DIR/module.hlo and DIR/args.txt), and the sizes on\n"
    "stderr. --reduce_seconds bounds the time (default 20).",
    RunReduce);

}  // namespace kiln::cli
