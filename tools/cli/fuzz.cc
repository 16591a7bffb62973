// `kiln fuzz`: differential fuzzing of the backends, the pipelines and the
// text round trip on modules from the generator (fuzz/generator), with
// findings written per signature (fuzz/oracle; docs/fuzzing.md).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "backends/backend.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "fuzz/generator/coverage.h"
#include "fuzz/generator/generator.h"
#include "fuzz/oracle/findings.h"
#include "fuzz/oracle/oracle.h"
#include "fuzz/oracle/reduce.h"
#include "re2/re2.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

ABSL_DECLARE_FLAG(std::string, backend);
ABSL_DECLARE_FLAG(std::string, pipeline);
ABSL_DECLARE_FLAG(int32_t, jobs);
ABSL_DECLARE_FLAG(bool, coverage);
ABSL_DECLARE_FLAG(double, time_limit);
// --out=DIR (shared with `kiln export`): where findings are written.
ABSL_DECLARE_FLAG(std::string, out);

ABSL_FLAG(std::string, seeds, "0..999",
          "fuzz: the seeds to run, A..B inclusive (shard a campaign by "
          "giving each machine its own range)");
ABSL_FLAG(std::string, oracle, "backend",
          "fuzz: comma-separated oracles: backend, pipeline, roundtrip, "
          "crash (crash runs the others in a child process per seed with "
          "--time_limit seconds each)");
ABSL_FLAG(absl::Duration, time, absl::InfiniteDuration(),
          "fuzz: stop starting seeds after this long (e.g. 10m)");
ABSL_FLAG(std::string, replay, "",
          "fuzz: re-check the findings under DIR (or one finding folder) "
          "instead of fuzzing");
ABSL_FLAG(int64_t, max_ops, 5, "fuzz: op steps per generated module");
ABSL_FLAG(double, reduce_seconds, 20,
          "fuzz: seconds spent reducing each new finding (0: only move the "
          "root to the first instruction that fails alone)");
ABSL_FLAG(bool, print, false,
          "fuzz: print each seed's module and arguments instead of checking");
ABSL_FLAG(int64_t, stop_after, 0,
          "fuzz: stop starting seeds once this many findings are recorded "
          "(0: never; tools/bench/fuzz_recall.sh stops at the first)");
ABSL_FLAG(std::string, referee, "",
          "fuzz: a third implementation (a backend name, exec:CMD or "
          "pjrt:PLUGIN) run on each backend-oracle mismatch: when it sides "
          "with the backend, the reference evaluator is blamed");
ABSL_FLAG(bool, fuzz_child, false,
          "fuzz: internal; set in the child processes of the crash oracle");

namespace kiln::cli {
namespace {

using fuzz::Case;
using fuzz::Finding;
using fuzz::OracleKind;
using fuzz::OracleOptions;
using fuzz::Outcome;

struct Settings {
  uint64_t first = 0, last = 0;
  std::vector<OracleKind> oracles;
  bool crash = false;
  std::vector<std::string> pipelines;
  OracleOptions options;
  std::string out;
  fuzzgen::GeneratorOptions generator;
};

absl::Status ParseSeeds(const std::string& text, uint64_t* first,
                        uint64_t* last) {
  std::vector<std::string> parts = absl::StrSplit(text, "..");
  if (parts.size() == 1) parts.push_back(parts[0]);
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], first) ||
      !absl::SimpleAtoi(parts[1], last) || *last < *first) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seeds: expected A..B with A <= B, got '", text, "'"));
  }
  return absl::OkStatus();
}

struct Totals {
  absl::Mutex mutex;
  int64_t cases = 0;
  int64_t checks = 0;
  int64_t skipped = 0;
  int64_t findings = 0;
  std::map<std::string, int64_t> signatures;  // -> hits
  std::map<std::string, int64_t> skip_reasons;
  fuzzgen::Coverage coverage;
  int64_t generator_rejects = 0;
  // Seeds whose crash-oracle child found (and wrote) something.
  int64_t child_findings = 0;
  // When the campaign started, and seconds to its first finding (before
  // reduction; < 0: none yet).
  absl::Time start = absl::Now();
  double first_finding_seconds = -1;
};

// Whether the module verifies in strict form after broadcast legalization.
bool StrictAfterLegalization(const Module& module) {
  absl::StatusOr<std::unique_ptr<Module>> copy = fuzz::CopyModule(module);
  if (!copy.ok()) return false;
  std::unique_ptr<Pass> legalize =
      PassRegistry::Global().Create("broadcast-legalization");
  if (legalize == nullptr || !legalize->Run(**copy).ok()) return false;
  VerifyOptions strict;
  strict.form = ShapeForm::kStrict;
  return VerifyModule(**copy, strict).ok();
}

// The reason without locations, instruction names and numbers, cut short:
// one line per cause in the summary.
std::string SkipKey(const std::string& reason) {
  std::string key = reason.substr(0, reason.find('\n'));
  RE2::GlobalReplace(&key, "<input>:[0-9]+:[0-9]+: error: [\\w.-]+: ", "");
  RE2::GlobalReplace(&key, "[0-9]+", "#");
  if (key.size() > 100) key.resize(100);
  return key;
}

void Record(const Settings& settings, Totals& totals, OracleKind kind,
            const Case& c, Backend* backend, const OracleOptions& options,
            uint64_t seed, const Outcome& outcome) {
  if (outcome.verdict == Outcome::Verdict::kSkip) {
    absl::MutexLock lock(&totals.mutex);
    ++totals.skipped;
    ++totals.skip_reasons[SkipKey(outcome.detail)];
    return;
  }
  if (!outcome.finding()) return;
  {
    absl::MutexLock lock(&totals.mutex);
    if (totals.first_finding_seconds < 0) {
      totals.first_finding_seconds =
          absl::ToDoubleSeconds(absl::Now() - totals.start);
    }
  }
  const absl::Time found_at = absl::Now();
  std::unique_ptr<Module> localized =
      fuzz::Localize(kind, c, backend, options, outcome);
  Finding finding;
  // A module whose root alone fails is its own localization.
  const Module* located = localized.get();
  if (located == nullptr && kind != OracleKind::kRoundTrip &&
      kind != OracleKind::kCrash &&
      c.module->entry()->root()->shape().IsArray()) {
    located = c.module;
  }
  finding.signature = fuzz::Signature(kind, outcome, located);
  finding.oracle = kind;
  finding.options = options;
  finding.seed = seed;
  finding.original_text = PrintModule(*c.module);
  finding.module_text =
      localized ? PrintModule(*localized) : finding.original_text;
  for (const auto& device : c.arguments) {
    finding.arguments.emplace_back();
    for (const Literal& argument : device) {
      finding.arguments.back().push_back(argument);
    }
  }
  finding.outcome = outcome;
  bool known = false;
  {
    absl::MutexLock lock(&totals.mutex);
    known = totals.signatures.count(finding.signature) > 0;
  }
  // Only a new signature is worth the reducer's time.
  const double seconds = absl::GetFlag(FLAGS_reduce_seconds);
  if (!known && seconds > 0 && kind != OracleKind::kCrash) {
    Case start;
    start.module = located != nullptr ? located : c.module;
    start.arguments = std::move(finding.arguments);
    absl::StatusOr<fuzz::Reduced> reduced = fuzz::ReduceCase(
        kind, start, backend, options, outcome, absl::Seconds(seconds));
    if (reduced.ok()) {
      finding.module_text = PrintModule(*reduced->module);
      finding.arguments = std::move(reduced->arguments);
      WriteStderr(absl::StrFormat(
          "reduced %s from %d to %d instructions in %.2f s (localized and "
          "reduced; %d candidates tried, %d kept)",
          finding.signature, fuzz::InstructionCount(*c.module),
          reduced->instructions_after,
          absl::ToDoubleSeconds(absl::Now() - found_at), reduced->tried,
          reduced->kept));
    } else {
      finding.arguments = std::move(start.arguments);
    }
  }
  bool is_new = false;
  {
    absl::MutexLock lock(&totals.mutex);
    ++totals.findings;
    is_new = totals.signatures[finding.signature]++ == 0;
    if (!settings.out.empty()) {
      absl::StatusOr<bool> written = fuzz::WriteFinding(settings.out, finding);
      if (!written.ok()) WriteStderr(std::string(written.status().message()));
    }
  }
  if (is_new) {
    std::string first_line =
        outcome.detail.substr(0, outcome.detail.find('\n'));
    if (first_line.size() > 300) first_line.resize(300);
    WriteStderr(absl::StrCat("finding ", finding.signature, " (seed ", seed,
                             "): ", first_line));
  }
}

// The crash oracle: this binary's other oracles on one seed in a child
// process; a signal or the time limit is the finding.
Outcome RunChild(const Settings& settings, uint64_t seed, bool* child_found) {
  std::vector<std::string> args = {
      "kiln",
      "fuzz",
      absl::StrCat("--seeds=", seed, "..", seed),
      "--fuzz_child",
      absl::StrCat("--backend=", settings.options.backend),
      absl::StrCat("--referee=", settings.options.referee),
      absl::StrCat("--max_ops=", settings.generator.max_ops)};
  std::string oracles;
  for (OracleKind kind : settings.oracles) {
    absl::StrAppend(&oracles, oracles.empty() ? "" : ",",
                    fuzz::OracleName(kind));
  }
  if (oracles.empty()) oracles = "backend,pipeline,roundtrip";
  args.push_back(absl::StrCat("--oracle=", oracles));
  if (!settings.out.empty())
    args.push_back(absl::StrCat("--out=", settings.out));
  if (!settings.pipelines.empty()) {
    args.push_back(
        absl::StrCat("--pipeline=", absl::StrJoin(settings.pipelines, ",")));
  }
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return Outcome::Skip("fork failed");
  if (pid == 0) {
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  const absl::Time deadline =
      absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_time_limit));
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (absl::GetFlag(FLAGS_time_limit) > 0 && absl::Now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return Outcome::Finding(
          "hang", settings.options.backend,
          absl::StrCat("the case ran past the per-case time limit of ",
                       absl::GetFlag(FLAGS_time_limit), " s"));
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
  if (WIFSIGNALED(status)) {
    return Outcome::Finding(
        "crash", settings.options.backend,
        absl::StrCat("the case died of signal ", WTERMSIG(status), " (",
                     strsignal(WTERMSIG(status)), ")"));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    return Outcome::Skip("the child could not start");
  }
  // Exit status 1: the child's oracles found something (it wrote it).
  *child_found = WIFEXITED(status) && WEXITSTATUS(status) == kExitFailure;
  return Outcome::Pass();
}

void RunSeed(const Settings& settings, Totals& totals, Backend* backend,
             uint64_t seed) {
  absl::StatusOr<fuzzgen::GeneratedModule> generated =
      fuzzgen::Generate(seed, settings.generator);
  if (!generated.ok()) {
    WriteStderr(absl::StrCat("seed ", seed, ": the generator failed: ",
                             generated.status().message()));
    absl::MutexLock lock(&totals.mutex);
    ++totals.generator_rejects;
    return;
  }
  if (absl::GetFlag(FLAGS_print)) {
    absl::MutexLock lock(&totals.mutex);
    WriteStdout(absl::StrCat("// seed ", seed, "\n",
                             PrintModule(*generated->module),
                             fuzz::ArgumentsText(generated->arguments)));
    return;
  }
  Case c;
  c.module = generated->module.get();
  c.arguments = std::move(generated->arguments);
  if (absl::GetFlag(FLAGS_coverage)) {
    const bool strict = StrictAfterLegalization(*c.module);
    absl::MutexLock lock(&totals.mutex);
    totals.coverage.Add(*c.module);
    totals.coverage.AddModuleOutcome(strict);
    totals.generator_rejects += generated->rejected.size();
    for (const std::string& rejected : generated->rejected) {
      WriteStderr(absl::StrCat("seed ", seed, ": generator bug: ", rejected));
    }
  }
  {
    absl::MutexLock lock(&totals.mutex);
    ++totals.cases;
  }
  if (settings.crash) {
    bool child_found = false;
    Outcome outcome = RunChild(settings, seed, &child_found);
    if (child_found) {
      absl::MutexLock lock(&totals.mutex);
      ++totals.child_findings;
    }
    Record(settings, totals, OracleKind::kCrash, c, backend, settings.options,
           seed, outcome);
    return;
  }
  for (OracleKind kind : settings.oracles) {
    if (kind == OracleKind::kPipeline) {
      for (const std::string& pipeline : settings.pipelines) {
        OracleOptions options = settings.options;
        options.pipeline = pipeline;
        Outcome outcome = fuzz::RunOracle(kind, c, backend, options);
        {
          absl::MutexLock lock(&totals.mutex);
          ++totals.checks;
        }
        Record(settings, totals, kind, c, backend, options, seed, outcome);
      }
      continue;
    }
    Outcome outcome = fuzz::RunOracle(kind, c, backend, settings.options);
    {
      absl::MutexLock lock(&totals.mutex);
      ++totals.checks;
    }
    Record(settings, totals, kind, c, backend, settings.options, seed, outcome);
  }
}

int Replay(const Settings& settings) {
  const std::vector<std::string> dirs =
      fuzz::FindingDirs(absl::GetFlag(FLAGS_replay));
  if (dirs.empty()) {
    WriteStderr(absl::StrCat("kiln fuzz: no findings under ",
                             absl::GetFlag(FLAGS_replay)));
    return kExitUsage;
  }
  int failing = 0;
  for (const std::string& dir : dirs) {
    absl::StatusOr<Finding> finding = fuzz::ReadFinding(dir);
    if (!finding.ok()) {
      WriteStderr(absl::StrCat(dir, ": ", finding.status().message()));
      ++failing;
      continue;
    }
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(finding->module_text);
    if (!module.ok()) {
      WriteStderr(
          absl::StrCat(dir, "/module.hlo: ", module.status().message()));
      ++failing;
      continue;
    }
    absl::StatusOr<std::unique_ptr<Backend>> backend = fuzz::CreateBackend(
        finding->options.backend, absl::GetFlag(FLAGS_time_limit));
    absl::StatusOr<std::unique_ptr<Backend>> referee =
        fuzz::CreateBackendIfNamed(finding->options.referee,
                                   absl::GetFlag(FLAGS_time_limit));
    finding->options.referee_backend = referee.ok() ? referee->get() : nullptr;
    Case c;
    c.module = module->get();
    c.arguments = std::move(finding->arguments);
    std::vector<OracleKind> kinds = {finding->oracle};
    if (finding->oracle == OracleKind::kCrash) {
      kinds = {OracleKind::kBackend, OracleKind::kPipeline,
               OracleKind::kRoundTrip};
    }
    bool fails = false;
    std::string why;
    for (OracleKind kind : kinds) {
      Outcome outcome = fuzz::RunOracle(
          kind, c, backend.ok() ? backend->get() : nullptr, finding->options);
      if (outcome.finding()) {
        fails = true;
        why = absl::StrCat(outcome.kind, " blamed on ", outcome.blamed, ": ",
                           outcome.detail.substr(0, outcome.detail.find('\n')));
      }
    }
    failing += fails ? 1 : 0;
    WriteStdout(absl::StrCat(
        finding->signature, ": ",
        fails ? absl::StrCat("still fails (", why, ")") : std::string("fixed"),
        "\n"));
  }
  WriteStdout(absl::StrCat(dirs.size() - failing, " fixed, ", failing,
                           " still failing\n"));
  return failing == 0 ? kExitOk : kExitFailure;
}

int RunFuzz(const std::vector<std::string>& args) {
  if (!args.empty()) {
    WriteStderr("kiln fuzz: takes no positional arguments");
    return kExitUsage;
  }
  Settings settings;
  if (absl::Status seeds = ParseSeeds(absl::GetFlag(FLAGS_seeds),
                                      &settings.first, &settings.last);
      !seeds.ok()) {
    WriteStderr(std::string(seeds.message()));
    return kExitUsage;
  }
  for (absl::string_view name :
       absl::StrSplit(absl::GetFlag(FLAGS_oracle), ',', absl::SkipEmpty())) {
    absl::StatusOr<OracleKind> kind = fuzz::ParseOracle(name);
    if (!kind.ok()) {
      WriteStderr(absl::StrCat("--oracle: ", kind.status().message()));
      return kExitUsage;
    }
    if (*kind == OracleKind::kCrash) {
      settings.crash = !absl::GetFlag(FLAGS_fuzz_child);
    } else {
      settings.oracles.push_back(*kind);
    }
  }
  const std::string pipeline = absl::GetFlag(FLAGS_pipeline);
  settings.pipelines = pipeline.empty()
                           ? PipelineRegistry::Global().Names()
                           : std::vector<std::string>(absl::StrSplit(
                                 pipeline, ',', absl::SkipEmpty()));
  settings.options.backend = absl::GetFlag(FLAGS_backend);
  settings.options.referee = absl::GetFlag(FLAGS_referee);
  settings.out = absl::GetFlag(FLAGS_out);
  settings.generator.max_ops = absl::GetFlag(FLAGS_max_ops);
  if (!absl::GetFlag(FLAGS_replay).empty()) return Replay(settings);
  // The backend is created once here to report a bad name early.
  if (absl::StatusOr<std::unique_ptr<Backend>> probe = fuzz::CreateBackend(
          settings.options.backend, absl::GetFlag(FLAGS_time_limit));
      !probe.ok()) {
    WriteStderr(absl::StrCat("--backend: ", probe.status().message()));
    return kExitUsage;
  }
  if (absl::StatusOr<std::unique_ptr<Backend>> probe =
          fuzz::CreateBackendIfNamed(settings.options.referee,
                                     absl::GetFlag(FLAGS_time_limit));
      !probe.ok()) {
    WriteStderr(absl::StrCat("--referee: ", probe.status().message()));
    return kExitUsage;
  }
  int jobs = absl::GetFlag(FLAGS_jobs);
  // --print writes the seeds in order: one worker.
  if (jobs <= 0 || absl::GetFlag(FLAGS_print)) jobs = 1;
  Totals totals;
  std::atomic<uint64_t> next{settings.first};
  const absl::Time start = totals.start;
  const absl::Time stop = start + absl::GetFlag(FLAGS_time);
  auto worker = [&]() {
    absl::StatusOr<std::unique_ptr<Backend>> backend = fuzz::CreateBackend(
        settings.options.backend, absl::GetFlag(FLAGS_time_limit));
    absl::StatusOr<std::unique_ptr<Backend>> referee =
        fuzz::CreateBackendIfNamed(settings.options.referee,
                                   absl::GetFlag(FLAGS_time_limit));
    Settings mine = settings;
    mine.options.referee_backend = referee.ok() ? referee->get() : nullptr;
    while (absl::Now() < stop) {
      if (const int64_t limit = absl::GetFlag(FLAGS_stop_after); limit > 0) {
        absl::MutexLock lock(&totals.mutex);
        if (totals.findings >= limit) break;
      }
      const uint64_t seed = next.fetch_add(1);
      if (seed > settings.last || seed < settings.first) break;
      RunSeed(mine, totals, backend.ok() ? backend->get() : nullptr, seed);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& thread : threads) thread.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  if (absl::GetFlag(FLAGS_print) || absl::GetFlag(FLAGS_fuzz_child)) {
    return totals.findings == 0 ? kExitOk : kExitFailure;
  }
  std::string report = absl::StrFormat(
      "%d cases, %d checks, %d skipped, %d findings (%d signatures), "
      "%.1f s, %.1f cases/s with %d jobs\n",
      totals.cases, totals.checks, totals.skipped, totals.findings,
      totals.signatures.size(), seconds, totals.cases / std::max(seconds, 1e-9),
      jobs);
  for (const auto& [signature, hits] : totals.signatures) {
    absl::StrAppend(&report, "  ", signature, " x", hits, "\n");
  }
  if (totals.first_finding_seconds >= 0) {
    absl::StrAppend(&report, absl::StrFormat("first finding after %.2f s\n",
                                             totals.first_finding_seconds));
  }
  if (totals.child_findings > 0) {
    absl::StrAppend(&report, totals.child_findings,
                    " seeds with findings of the other oracles (written by "
                    "the child processes",
                    settings.out.empty()
                        ? ": give --out=DIR to keep them"
                        : absl::StrCat(" under ", settings.out),
                    ")\n");
  }
  if (totals.skipped > 0) {
    absl::StrAppend(&report, "skipped because:\n");
    for (const auto& [reason, count] : totals.skip_reasons) {
      absl::StrAppend(&report, "  ", count, "  ", reason, "\n");
    }
  }
  if (absl::GetFlag(FLAGS_coverage)) {
    absl::StrAppend(&report, "generator rejections: ", totals.generator_rejects,
                    "\n", totals.coverage.Report());
  }
  WriteStdout(report);
  return totals.findings + totals.child_findings == 0 ? kExitOk : kExitFailure;
}

}  // namespace

KILN_REGISTER_COMMAND(
    fuzz, "differential fuzzing of backends, pipelines and the text format",
    "kiln fuzz [--seeds=A..B] [--oracle=backend,pipeline,roundtrip,crash]\n"
    "          [--backend=NAME|exec:CMD] [--referee=NAME|pjrt:PLUGIN]\n"
    "          [--pipeline=P,...] [--jobs=N] [--time=10m] [--out=DIR] "
    "[--coverage] [--print]\n"
    "kiln fuzz --replay=DIR\n\n"
    "Generates one valid module per seed (the same everywhere) with arguments\n"
    "holding edge values, and checks it with each oracle: backend (the\n"
    "backend against the reference evaluator, with the conformance\n"
    "tolerances), pipeline (each pipeline, every registered one by default,\n"
    "leaves the results unchanged; the first pass that changes one is\n"
    "named), roundtrip (print/parse/print, verification after every pass,\n"
    "strict form after the default pipeline), crash (the others in a child\n"
    "process per seed, --time_limit seconds each). --referee runs a third\n"
    "implementation on each backend mismatch and blames the reference\n"
    "evaluator when it sides with the backend. Findings are written to\n"
    "DIR/<signature>/ and deduplicated; --replay re-checks them. Exit status\n"
    "1 when anything was found (or still fails). docs/fuzzing.md.",
    RunFuzz);

}  // namespace kiln::cli
