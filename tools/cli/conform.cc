// `kiln conform`: runs the conformance suite (spec_tests/) on a backend and
// reports pass/fail per case, op and element type (docs/conformance.md).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "compiler/ir/opcode.h"
#include "re2/re2.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"
#include "tools/conform/case_file.h"
#include "tools/conform/coverage.h"
#include "tools/conform/expectations.h"
#include "tools/conform/report.h"
#include "tools/conform/runner.h"
#include "tools/conform/sample.h"
#include "tools/conform/spec_index.h"

// Defined by `kiln run`; conform reads the same flag.
ABSL_DECLARE_FLAG(std::string, backend);

ABSL_FLAG(std::string, filter, "",
          "conform: run only cases whose name matches this RE2 (partial "
          "match)");
ABSL_FLAG(std::string, ops, "",
          "conform: run only cases exercising one of these ops (comma list "
          "of HLO opcode names)");
ABSL_FLAG(std::string, types, "",
          "conform: run only cases exercising one of these element types "
          "(comma list)");
ABSL_FLAG(int32_t, jobs, 0, "conform: worker threads (0: one per core)");
ABSL_FLAG(double, time_limit, 60,
          "conform: seconds one case may take before it counts as failed "
          "(0: no limit)");
ABSL_FLAG(std::optional<std::string>, expectations, std::nullopt,
          "conform: the expectations file (default: "
          "DIR/expectations/<backend>.txt for the first DIR given)");
ABSL_FLAG(bool, update_expectations, false,
          "conform: rewrite the expectations file from this run's results");
ABSL_FLAG(std::optional<std::string>, report, std::nullopt,
          "conform: write report.json, summary.md and report.html into DIR");
ABSL_FLAG(bool, coverage, false,
          "conform: print the spec coverage of the cases instead of running "
          "them");
ABSL_FLAG(std::optional<std::string>, spec, std::nullopt,
          "conform: the spec's operation_semantics.md, to check every case's "
          "spec: line (default: looked up beside the suite)");
ABSL_FLAG(bool, isolate, false,
          "conform: run each case in a `kiln run --backend=...` process of "
          "its own through the exec: protocol, so that a backend that "
          "crashes fails that case only");
ABSL_FLAG(std::string, sample, "",
          "conform: a deterministic part of the selected cases (those the "
          "expectations skip left out): 'cover' keeps the first case of "
          "every op and of every element type, 'pairs' the first of every "
          "op x element type pair");
ABSL_FLAG(bool, keep_exec_files, false,
          "conform: keep the temporary directories of exec: runs");

namespace kiln::cli {
namespace {

using conform::Case;
using conform::CaseResult;
using conform::CaseTraits;

std::vector<std::string> CommaList(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipEmpty());
}

bool Exists(const std::string& path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

bool IsDirectory(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

// The spec: --spec, else $KILN_SPEC, else a copy beside the suite
// (DIR/spec/, DIR/../docs/spec/). Empty when none is found.
std::string FindSpec(const std::vector<std::string>& paths) {
  if (std::optional<std::string> spec = absl::GetFlag(FLAGS_spec)) return *spec;
  if (const char* env = getenv("KILN_SPEC"); env != nullptr && *env != '\0') {
    return env;
  }
  for (const std::string& path : paths) {
    const std::string dir =
        IsDirectory(path) ? path
                          : std::filesystem::path(path).parent_path().string();
    for (const char* candidate : {"/spec/operation_semantics.md",
                                  "/../docs/spec/operation_semantics.md",
                                  "/../../docs/spec/operation_semantics.md"}) {
      const std::string file = absl::StrCat(dir.empty() ? "." : dir, candidate);
      if (Exists(file)) return file;
    }
  }
  return "";
}

absl::Status CheckOpNames(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    for (const std::string& op : c.ops) {
      if (!OpcodeFromName(op).has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(
            c.Location(), ": error: case ", c.name, ": op '", op,
            "' is not an HLO opcode name (write it as in HLO text, e.g. "
            "add, dynamic-slice)"));
      }
    }
  }
  return absl::OkStatus();
}

bool HasAny(const std::vector<std::string>& have,
            const std::vector<std::string>& wanted) {
  for (const std::string& w : wanted) {
    if (std::find(have.begin(), have.end(), w) != have.end()) return true;
  }
  return false;
}

std::vector<std::string> TypeNames(const CaseTraits& traits) {
  std::vector<std::string> names;
  for (ElementType t : traits.types) names.emplace_back(ElementTypeName(t));
  return names;
}

// Indices of the cases the filters select.
absl::StatusOr<std::vector<size_t>> SelectCases(
    const std::vector<Case>& cases, const std::vector<CaseTraits>& traits) {
  const std::string filter = absl::GetFlag(FLAGS_filter);
  std::unique_ptr<RE2> re;
  if (!filter.empty()) {
    re = std::make_unique<RE2>(filter, RE2::Quiet);
    if (!re->ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--filter: bad RE2 '", filter, "': ", re->error()));
    }
  }
  const std::vector<std::string> ops = CommaList(absl::GetFlag(FLAGS_ops));
  const std::vector<std::string> types = CommaList(absl::GetFlag(FLAGS_types));
  std::vector<size_t> selected;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (re != nullptr && !RE2::PartialMatch(cases[i].name, *re)) continue;
    if (!ops.empty() && !HasAny(traits[i].ops, ops)) continue;
    if (!types.empty() && !HasAny(TypeNames(traits[i]), types)) continue;
    selected.push_back(i);
  }
  return selected;
}

// "[120/3000] 2 failed, ETA 40s" on a terminal, rewritten in place.
class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
  void Update(int64_t done, int64_t total, int64_t failures) {
    if (!enabled_) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    const double eta = done == 0 ? 0 : elapsed / done * (total - done);
    std::fprintf(stderr, "\r[%lld/%lld] %lld failed, ETA %.0fs   ",
                 static_cast<long long>(done), static_cast<long long>(total),
                 static_cast<long long>(failures), eta);
    if (done == total) std::fprintf(stderr, "\r%60s\r", "");
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
};

// --isolate: the exec: command running `kiln run --backend=SPEC` (this
// very binary) on each case; exit 77 marks the module unsupported.
absl::StatusOr<std::string> IsolatedBackend(const std::string& spec) {
  if (absl::StartsWith(spec, "exec:")) {
    return absl::InvalidArgumentError(
        "--isolate runs a registered backend out of process; exec: "
        "backends are out of process already");
  }
  std::error_code error;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return absl::UnavailableError(absl::StrCat(
        "--isolate: cannot find the kiln binary: ", error.message()));
  }
  auto quote = [](const std::string& text) {
    return absl::StrCat("'", absl::StrReplaceAll(text, {{"'", "'\\''"}}), "'");
  };
  return absl::StrCat(
      "exec:if grep -q '[^[:space:]]' {args}; then set -- --args_file={args};"
      " else set --; fi; exec ",
      quote(self.string()), " run \"$@\" --backend=", quote(spec),
      " --unsupported_exit=77 --replicas={replicas} --partitions={partitions}"
      " {module} >{out}");
}

// "pjrt" of "pjrt:/x.so,k=v", "cpu" of "cpu": what the expectations file
// is named after (the backend as given, also under --isolate).
std::string BackendName(const std::string& backend_flag) {
  return backend_flag.substr(0, backend_flag.find(':'));
}

// The expectations file: --expectations, else DIR/expectations/NAME.txt for
// the first suite DIR given, where NAME is the backend's name ("cpu",
// "reference", "exec"). A PJRT plugin is named after its file:
// pjrt:/x/xla_cpu_plugin.so reads pjrt-xla-cpu.txt (the file name without
// a "lib" prefix, "_plugin"/"pjrt_plugin_" parts and ".so", '_' as '-'),
// else pjrt.txt; when neither exists the first is where
// --update_expectations writes.
std::string ExpectationsPath(const std::vector<std::string>& paths,
                             const std::string& backend_flag) {
  if (std::optional<std::string> path = absl::GetFlag(FLAGS_expectations)) {
    return *path;
  }
  if (paths.empty() || !IsDirectory(paths[0])) return "";
  const std::string dir = absl::StrCat(paths[0], "/expectations/");
  const std::string name = BackendName(backend_flag);
  if (name != "pjrt" || backend_flag.size() <= 5) {
    return absl::StrCat(dir, name, ".txt");
  }
  std::string plugin =
      std::filesystem::path(
          std::string(absl::string_view(backend_flag)
                          .substr(5, backend_flag.find(',') - 5)))
          .filename()
          .string();
  if (absl::EndsWith(plugin, ".so")) plugin.resize(plugin.size() - 3);
  if (absl::StartsWith(plugin, "lib")) plugin = plugin.substr(3);
  plugin = absl::StrReplaceAll(
      plugin, {{"pjrt_plugin_", ""}, {"_pjrt_plugin", ""}, {"_plugin", ""}});
  absl::StrReplaceAll({{"_", "-"}}, &plugin);
  const std::string named = absl::StrCat(dir, "pjrt-", plugin, ".txt");
  const std::string plain = absl::StrCat(dir, "pjrt.txt");
  if (plugin.empty() || (!Exists(named) && Exists(plain))) return plain;
  return named;
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) return absl::UnavailableError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

struct Loaded {
  std::vector<Case> cases;
  std::vector<CaseTraits> traits;
  conform::SpecIndex spec;
  bool has_spec = false;
};

absl::StatusOr<Loaded> LoadSuite(const std::vector<std::string>& paths) {
  absl::StatusOr<std::vector<std::string>> files =
      conform::FindCaseFiles(paths);
  if (!files.ok()) return files.status();
  Loaded loaded;
  absl::StatusOr<std::vector<Case>> cases = conform::LoadCases(*files);
  if (!cases.ok()) return cases.status();
  loaded.cases = *std::move(cases);
  if (absl::Status s = CheckOpNames(loaded.cases); !s.ok()) return s;
  const std::string spec_path = FindSpec(paths);
  if (!spec_path.empty()) {
    absl::StatusOr<conform::SpecIndex> spec =
        conform::SpecIndex::Load(spec_path);
    if (!spec.ok()) return spec.status();
    loaded.spec = *std::move(spec);
    loaded.has_spec = true;
    absl::Status s = conform::CheckSpecReferences(loaded.cases, loaded.spec);
    if (!s.ok()) return s;
  } else if (absl::GetFlag(FLAGS_coverage)) {
    return absl::NotFoundError(
        "--coverage needs the spec: give --spec=operation_semantics.md");
  } else {
    WriteStderr(
        "kiln conform: note: spec not found, spec: lines not checked "
        "(give --spec=FILE)");
  }
  for (const Case& c : loaded.cases) {
    loaded.traits.push_back(conform::ComputeTraits(c));
  }
  return loaded;
}

void PrintResult(const conform::ReportEntry& e) {
  if (!conform::IsUnexpected(e.status)) return;
  std::string text =
      e.status == conform::Status::kUnexpectedPass
          ? absl::StrCat("passed, but ",
                         "the expectations "
                         "file lists it as failing (",
                         e.expectation_reason, "): remove the entry")
          : e.result.message;
  WriteStdout(absl::StrCat(
      conform::StatusName(e.status) == "failed" ? "FAIL " : "UNEXPECTED PASS ",
      e.c->name, " (", e.c->Location(), ")\n", text,
      text.empty() || text.back() == '\n' ? "" : "\n"));
}

conform::ReportEntry MakeEntry(const Case& c, const CaseTraits& traits,
                               CaseResult result,
                               const conform::Expectations& expectations) {
  conform::ReportEntry entry;
  entry.c = &c;
  entry.traits = traits;
  entry.status = expectations.Classify(c, traits, result);
  entry.result = std::move(result);
  if (const conform::Expectation* e = expectations.Find(c, traits)) {
    entry.expectation_reason = e->reason;
  }
  return entry;
}

int Finish(const conform::RunSummary& summary, bool abandoned_threads) {
  const conform::Counts counts = summary.Totals();
  int status = counts.failed > 0 ? kExitFailure : kExitOk;
  if (std::optional<std::string> dir = absl::GetFlag(FLAGS_report)) {
    absl::Status written = conform::WriteReports(summary, *dir);
    if (!written.ok()) {
      WriteStderr(absl::StrCat("kiln conform: ", written.message()));
      status = kExitFailure;
    } else {
      WriteStdout(absl::StrCat("report: ", *dir, "/report.html, ", *dir,
                               "/summary.md, ", *dir, "/report.json\n"));
    }
  }
  WriteStdout(absl::StrCat(conform::SummaryLine(counts),
                           counts.unexpected_passes > 0
                               ? absl::StrCat(" (", counts.unexpected_passes,
                                              " unexpected pass(es))")
                               : "",
                           "\n"));
  if (abandoned_threads) {
    // Threads of cases past their time limit still run; returning from
    // main would destroy what they use.
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(status);
  }
  return status;
}

int RunSelected(const Loaded& loaded, const std::vector<size_t>& selected,
                const conform::BackendSpec& backend,
                const conform::Expectations& expectations,
                const std::string& expectations_path,
                std::chrono::steady_clock::time_point start) {
  std::vector<Case> to_run;
  std::vector<size_t> run_index;  // Into `selected`.
  for (size_t k = 0; k < selected.size(); ++k) {
    const size_t i = selected[k];
    if (expectations.SkipsCase(loaded.cases[i], loaded.traits[i])) continue;
    to_run.push_back(loaded.cases[i]);
    run_index.push_back(k);
  }
  Progress progress(isatty(STDERR_FILENO) != 0);
  conform::RunOptions options;
  options.jobs = absl::GetFlag(FLAGS_jobs);
  options.time_limit_seconds = absl::GetFlag(FLAGS_time_limit);
  options.progress = [&](int64_t done, int64_t total, int64_t failures) {
    progress.Update(done, total, failures);
  };
  conform::SuiteRun run = conform::RunCases(to_run, backend, options);

  std::vector<std::optional<CaseResult>> results(selected.size());
  for (size_t r = 0; r < run_index.size(); ++r) {
    results[run_index[r]] = run.results[r];
  }
  conform::RunSummary summary;
  summary.backend = absl::GetFlag(FLAGS_backend);
  for (size_t k = 0; k < selected.size(); ++k) {
    const size_t i = selected[k];
    CaseResult result;
    if (results[k].has_value()) {
      result = *results[k];
    } else {
      result.outcome = conform::Outcome::kUnsupported;
      result.message = "listed unsupported in the expectations file";
    }
    summary.entries.push_back(MakeEntry(loaded.cases[i], loaded.traits[i],
                                        std::move(result), expectations));
    PrintResult(summary.entries.back());
  }
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (absl::GetFlag(FLAGS_update_expectations)) {
    if (expectations_path.empty()) {
      WriteStderr(
          "kiln conform: --update_expectations needs "
          "--expectations=FILE (or a suite directory)");
      return kExitUsage;
    }
    std::vector<const Case*> ran;
    for (const Case& c : to_run) ran.push_back(&c);
    absl::Status s = WriteText(
        expectations_path,
        expectations.Updated(ran, run.results, loaded.cases,
                             BackendName(absl::GetFlag(FLAGS_backend))));
    if (!s.ok()) {
      WriteStderr(absl::StrCat("kiln conform: ", s.message()));
      return kExitFailure;
    }
    WriteStdout(absl::StrCat("updated ", expectations_path, "\n"));
  }
  return Finish(summary, run.abandoned_threads);
}

// Under `bazel test` with shard_count = N (TEST_TOTAL_SHARDS, and
// TEST_SHARD_INDEX for this shard), keeps every N-th selected case, so that
// a backend's suite spreads over N machines; tells Bazel that sharding is
// understood (TEST_SHARD_STATUS_FILE).
absl::Status KeepShard(std::vector<size_t>& selected) {
  const char* total_text = std::getenv("TEST_TOTAL_SHARDS");
  if (total_text == nullptr || *total_text == '\0') return absl::OkStatus();
  int64_t total = 0, index = 0;
  const char* index_text = std::getenv("TEST_SHARD_INDEX");
  if (!absl::SimpleAtoi(total_text, &total) || total < 1 ||
      index_text == nullptr || !absl::SimpleAtoi(index_text, &index) ||
      index < 0 || index >= total) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad TEST_TOTAL_SHARDS/TEST_SHARD_INDEX ('", total_text,
                     "', '", index_text == nullptr ? "" : index_text, "')"));
  }
  if (const char* status = std::getenv("TEST_SHARD_STATUS_FILE")) {
    std::ofstream(status).flush();
  }
  std::vector<size_t> mine;
  for (size_t k = 0; k < selected.size(); ++k) {
    if (static_cast<int64_t>(k % total) == index) mine.push_back(selected[k]);
  }
  selected = std::move(mine);
  return absl::OkStatus();
}

int RunConform(const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> paths = args;
  if (paths.empty()) paths.push_back("spec_tests");
  absl::StatusOr<Loaded> loaded = LoadSuite(paths);
  if (!loaded.ok()) {
    WriteStderr(absl::StrCat("kiln conform: ", loaded.status().message()));
    return kExitFailure;
  }
  if (absl::GetFlag(FLAGS_coverage)) {
    WriteStdout(conform::CoverageText(
        conform::ComputeCoverage(loaded->cases, loaded->traits, loaded->spec)));
    return kExitOk;
  }
  absl::StatusOr<std::vector<size_t>> selected =
      SelectCases(loaded->cases, loaded->traits);
  if (!selected.ok()) {
    WriteStderr(absl::StrCat("kiln conform: ", selected.status().message()));
    return kExitUsage;
  }
  const std::string sample = absl::GetFlag(FLAGS_sample);
  if (!sample.empty() && sample != "cover" && sample != "pairs") {
    WriteStderr(absl::StrCat("kiln conform: --sample: '", sample,
                             "' is not a sample (cover or pairs)"));
    return kExitUsage;
  }
  const double limit = absl::GetFlag(FLAGS_time_limit);
  std::string backend_flag = absl::GetFlag(FLAGS_backend);
  if (absl::GetFlag(FLAGS_isolate)) {
    absl::StatusOr<std::string> isolated = IsolatedBackend(backend_flag);
    if (!isolated.ok()) {
      WriteStderr(absl::StrCat("kiln conform: ", isolated.status().message()));
      return kExitUsage;
    }
    backend_flag = *std::move(isolated);
  }
  absl::StatusOr<conform::BackendSpec> backend = conform::BackendSpec::Parse(
      backend_flag, limit, absl::GetFlag(FLAGS_keep_exec_files));
  if (!backend.ok()) {
    WriteStderr(
        absl::StrCat("kiln conform: --backend: ", backend.status().message()));
    return kExitUsage;
  }
  const std::string expectations_path =
      ExpectationsPath(paths, absl::GetFlag(FLAGS_backend));
  absl::StatusOr<conform::Expectations> expectations =
      expectations_path.empty()
          ? conform::Expectations()
          : conform::Expectations::Load(expectations_path);
  if (!expectations.ok()) {
    WriteStderr(
        absl::StrCat("kiln conform: ", expectations.status().message()));
    return kExitFailure;
  }
  for (const conform::Expectation* e : expectations->Stale(loaded->cases)) {
    WriteStderr(absl::StrCat("kiln conform: note: ", expectations_path, ":",
                             e->line, ": no case named '", e->target, "'"));
  }
  if (!sample.empty()) {
    std::vector<size_t> runnable;
    for (size_t i : *selected) {
      if (!expectations->SkipsCase(loaded->cases[i], loaded->traits[i])) {
        runnable.push_back(i);
      }
    }
    *selected =
        conform::CoverSample(loaded->traits, runnable,
                             sample == "pairs" ? conform::Cover::kPairs
                                               : conform::Cover::kOpsAndTypes);
    WriteStderr(absl::StrCat("kiln conform: --sample=", sample, ": ",
                             selected->size(), " of ", runnable.size(),
                             " runnable cases"));
  }
  if (absl::Status status = KeepShard(*selected); !status.ok()) {
    WriteStderr(absl::StrCat("kiln conform: ", status.message()));
    return kExitUsage;
  }
  return RunSelected(*loaded, *selected, *backend, *expectations,
                     expectations_path, start);
}

}  // namespace

KILN_REGISTER_COMMAND(
    conform, "run the conformance suite (spec_tests/) on a backend",
    "usage: kiln conform [--backend=reference|pjrt:PLUGIN|exec:COMMAND]\n"
    "                    [--isolate] [--filter=RE2] [--sample=cover|pairs]\n"
    "                    [--ops=a,b] [--types=f32,s8] [--jobs=N]\n"
    "                    [--time_limit=SECONDS] [--expectations=FILE]\n"
    "                    [--update_expectations] [--report=DIR]\n"
    "                    [--coverage] [--spec=FILE] [DIR|FILE.hlotest...]\n"
    "\n"
    "Runs every case of the .hlotest files under DIR (default spec_tests)\n"
    "on the backend: run cases compare the result with the expected value\n"
    "under the case's tolerance, reject cases must be refused by the parser\n"
    "or the verifier with the named rule, implementation-defined cases must\n"
    "run without error. Cases run in parallel, each with a time limit; a\n"
    "terminal shows a progress line. Failures print with expected and\n"
    "actual values; the last line reads `N passed, N failed, N\n"
    "expected-failure, N unsupported`. The expectations file of the backend\n"
    "(DIR/expectations/<backend>.txt; pjrt-<plugin>.txt for a PJRT plugin\n"
    "file <plugin>.so) lists known failures and unsupported cases; the exit "
    "status is 1 on any result it does not predict,\n"
    "unexpected passes included. --backend=exec:COMMAND runs an external\n"
    "toolchain through files ({module} {args} {out} {dir} {replicas}\n"
    "{partitions} are replaced in COMMAND). --coverage prints every op of\n"
    "the spec with its cases and the spec sentences no case cites.\n"
    "--sample=cover runs the first case of every op and of every element\n"
    "type, --sample=pairs the first of every op x element type pair.\n"
    "See docs/conformance.md.\n",
    RunConform);

}  // namespace kiln::cli
