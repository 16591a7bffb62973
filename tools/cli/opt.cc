// `kiln opt`: runs passes or a named pipeline over an HLO module, with the
// pass framework's instrumentation (docs/passes.md), and prints the result.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/pass/instrumentation.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"
#include "tools/cli/run_args.h"

ABSL_FLAG(std::string, passes, "",
          "opt: comma-separated passes (or pipelines) to run, in order");
ABSL_FLAG(std::string, pipeline, "",
          "opt: the registered pipeline to run (default when neither "
          "--passes nor --pipeline is given)");
ABSL_FLAG(bool, list_passes, false,
          "opt: list the registered passes and pipelines and exit");
ABSL_FLAG(bool, verify_each, false,
          "opt: verify the input and the module after every pass");
ABSL_FLAG(int64_t, check_semantics, 0,
          "opt: evaluate the module on N seeded random argument sets before "
          "and after every pass that changes it and stop at the first pass "
          "that changes a result (--check-semantics alone: N=3)");
ABSL_FLAG(uint64_t, semantics_seed, 0,
          "opt: seed of the random arguments of --check-semantics");
ABSL_FLAG(bool, time_passes, false,
          "opt: print per-pass wall time and change counts on stderr");
ABSL_FLAG(std::string, dump_dir, "",
          "opt: write the module (NNN-PASS.hlo) and its diff (NNN-PASS.diff) "
          "after each pass matching --dump-pass-re into this directory");
ABSL_FLAG(std::string, dump_pass_re, "",
          "opt: RE2 selecting the passes to dump (partial match; empty: all)");

namespace kiln::cli {
namespace {

int ListPasses() {
  std::string text = "passes:\n";
  for (const std::string& name : PassRegistry::Global().Names()) {
    absl::StrAppend(&text, "  ", name, "\n");
  }
  absl::StrAppend(&text, "pipelines:\n");
  for (const std::string& name : PipelineRegistry::Global().Names()) {
    absl::StrAppend(&text, "  ", name, "\n");
  }
  WriteStdout(text);
  return kExitOk;
}

// The pipeline the flags name.
absl::StatusOr<std::unique_ptr<PassPipeline>> SelectedPipeline() {
  const std::string passes = absl::GetFlag(FLAGS_passes);
  std::string pipeline = absl::GetFlag(FLAGS_pipeline);
  if (!passes.empty()) {
    std::vector<std::string> names =
        absl::StrSplit(passes, ',', absl::SkipWhitespace());
    return PipelineFromNames("passes", names);
  }
  if (pipeline.empty()) pipeline = "default";
  std::unique_ptr<PassPipeline> named =
      PipelineRegistry::Global().Create(pipeline);
  if (named == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        "unknown pipeline '", pipeline, "' (known: ",
        absl::StrJoin(PipelineRegistry::Global().Names(), ", "), ")"));
  }
  return named;
}

// `count` argument sets of random values for the entry parameters, drawn
// in order from one generator seeded with --semantics_seed.
absl::StatusOr<std::vector<std::vector<Literal>>> RandomArgumentSets(
    const Module& module, int64_t count) {
  std::mt19937_64 generator(absl::GetFlag(FLAGS_semantics_seed));
  std::vector<std::vector<Literal>> sets(count);
  for (std::vector<Literal>& arguments : sets) {
    for (const Instruction* parameter : module.entry()->parameters()) {
      absl::StatusOr<Literal> value =
          RandomLiteral(parameter->shape(), generator);
      if (!value.ok()) return value.status();
      arguments.push_back(*std::move(value));
    }
  }
  return sets;
}

absl::StatusOr<PipelineOptions> OptionsFromFlags(const Module& module) {
  PipelineOptions options;
  options.verify_each = absl::GetFlag(FLAGS_verify_each);
  options.dump_dir = absl::GetFlag(FLAGS_dump_dir);
  options.dump_pass_re = absl::GetFlag(FLAGS_dump_pass_re);
  const int64_t sets = absl::GetFlag(FLAGS_check_semantics);
  if (sets < 0) {
    return absl::InvalidArgumentError(
        "--check-semantics: the number of argument sets must be >= 0");
  }
  if (sets > 0) {
    if (module.entry() == nullptr) {
      return absl::InvalidArgumentError(
          "--check-semantics: the module has no entry computation");
    }
    absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
        RandomArgumentSets(module, sets);
    if (!arguments.ok()) return arguments.status();
    options.semantic_check_arguments = *std::move(arguments);
  }
  return options;
}

// Parses `text`, runs the pipeline and prints; errors are reported by the
// caller.
absl::Status OptimizeText(const std::string& text,
                          const std::string& display_name,
                          std::string* result) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(text, InputParseOptions(display_name));
  if (!module.ok()) return module.status();
  absl::StatusOr<std::unique_ptr<PassPipeline>> pipeline = SelectedPipeline();
  if (!pipeline.ok()) return pipeline.status();
  absl::StatusOr<PipelineOptions> options = OptionsFromFlags(**module);
  if (!options.ok()) return options.status();
  std::vector<PassStatistics> statistics;
  SemanticCheckStatistics semantic_statistics;
  absl::StatusOr<bool> changed = RunPipeline(**pipeline, **module, *options,
                                             &statistics, &semantic_statistics);
  if (absl::GetFlag(FLAGS_time_passes)) {
    std::string text = FormatPassStatistics(statistics);
    if (!options->semantic_check_arguments.empty()) {
      absl::StrAppend(
          &text,
          FormatSemanticCheckStatistics(
              semantic_statistics,
              static_cast<int64_t>(options->semantic_check_arguments.size())));
    }
    WriteStderr(text);
  }
  if (!changed.ok()) return changed.status();
  *result = PrintModule(**module);
  return absl::OkStatus();
}

// Runs every part of a split file; prints each result or error and goes on.
int OptimizeSplitFile(const std::string& path, const std::string& text) {
  bool failed = false;
  std::string output;
  std::vector<std::string> parts = SplitInputFile(text);
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string result;
    absl::Status status = OptimizeText(parts[i], DisplayName(path), &result);
    if (!status.ok()) {
      failed = true;
      WriteStderr(FileError(DisplayName(path), status));
      result = "// (error: see stderr)\n";
    }
    if (i > 0) output.append("// -----\n");
    output.append(result);
  }
  WriteStdout(output);
  return failed ? kExitFailure : kExitOk;
}

int RunOpt(const std::vector<std::string>& args) {
  if (absl::GetFlag(FLAGS_list_passes)) return ListPasses();
  if (args.size() != 1) {
    WriteStderr("kiln opt: expected one input file (- for standard input)");
    return kExitUsage;
  }
  if (!absl::GetFlag(FLAGS_passes).empty() &&
      !absl::GetFlag(FLAGS_pipeline).empty()) {
    WriteStderr("kiln opt: --passes and --pipeline are mutually exclusive");
    return kExitUsage;
  }
  absl::StatusOr<std::string> text = ReadInput(args[0]);
  if (!text.ok()) {
    WriteStderr(FileError(DisplayName(args[0]), text.status()));
    return kExitFailure;
  }
  if (absl::GetFlag(FLAGS_split_input_file)) {
    return OptimizeSplitFile(args[0], *text);
  }
  std::string result;
  absl::Status status = OptimizeText(*text, DisplayName(args[0]), &result);
  if (!status.ok()) {
    WriteStderr(FileError(DisplayName(args[0]), status));
    return kExitFailure;
  }
  WriteStdout(result);
  return kExitOk;
}

}  // namespace

KILN_REGISTER_COMMAND(
    opt, "run passes or a pipeline over an HLO module",
    "usage: kiln opt [--passes=a,b,c | --pipeline=NAME] [--verify-each]\n"
    "                [--check-semantics[=N]] [--time-passes]\n"
    "                [--dump-dir=DIR] [--dump-pass-re=RE]\n"
    "                [--split-input-file] FILE\n"
    "       kiln opt --list-passes\n"
    "\n"
    "Parses FILE (- is standard input), runs the passes named by --passes\n"
    "(a registered pipeline name works there too) or the pipeline named by\n"
    "--pipeline (default: `default`), and prints the resulting module.\n"
    "On failure prints FILE:LINE:COL: error: MESSAGE (FILE: error: MESSAGE\n"
    "when it has no place in FILE, e.g. naming the pass that raised it)\n"
    "and exits with status 1. --verify-each verifies after every pass;\n"
    "--check-semantics[=N] evaluates N random argument sets before and after\n"
    "every pass that changes the printed module and names the first pass\n"
    "that changes a result; --time-passes prints wall time and change\n"
    "counts per pass on stderr (and the number of evaluations);\n"
    "--dump-dir writes the module and a unified diff after every pass whose\n"
    "name matches --dump-pass-re. --split-input-file treats each part of\n"
    "FILE between '// -----' lines as its own module (for FileCheck tests).\n"
    "See docs/passes.md.\n",
    RunOpt);

}  // namespace kiln::cli
