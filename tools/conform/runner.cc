#include "tools/conform/runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/op_traits.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"

namespace kiln::conform {
namespace {

CaseResult Fail(std::string message) {
  return CaseResult{Outcome::kFail, std::move(message)};
}

CaseResult Unsupported(std::string message) {
  return CaseResult{Outcome::kUnsupported, std::move(message)};
}

ParseOptions CaseParseOptions(const Case& c, bool check_shapes) {
  ParseOptions options;
  options.filename = absl::StrCat(c.file, " (case ", c.name, ", module)");
  options.check_shapes = check_shapes;
  return options;
}

void AddType(const Shape& shape, std::set<ElementType>* types) {
  if (shape.IsTuple()) {
    for (const Shape& s : shape.tuple_shapes()) AddType(s, types);
  } else if (shape.IsArray()) {
    types->insert(shape.element_type());
  }
}

CaseResult RunReject(const Case& c, const BackendSpec& spec) {
  if (spec.is_exec()) {
    absl::Status status = ExecExpectRejection(spec.exec(), c.module_text);
    if (status.ok()) return CaseResult{};
    if (absl::IsUnimplemented(status)) return Unsupported(status.ToString());
    return Fail(std::string(status.message()));
  }
  const bool parse_stage = c.reject_stage == RejectStage::kParse;
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(c.module_text, CaseParseOptions(c, parse_stage));
  std::string error;
  if (parse_stage) {
    if (module.ok()) {
      return Fail(
          absl::StrCat("the module parsed, but the parser must reject "
                       "it with '",
                       c.reject_rule, "'"));
    }
    error = std::string(module.status().message());
  } else {
    if (!module.ok()) {
      return Fail(
          absl::StrCat("the parser (without shape checks) refused the "
                       "module; the verifier was to reject it with '",
                       c.reject_rule, "': ", module.status().message()));
    }
    VerifyReport report = VerifyModuleReport(**module);
    if (report.ok()) {
      return Fail(
          absl::StrCat("the module verified, but the verifier must "
                       "reject it with '",
                       c.reject_rule, "'"));
    }
    for (const absl::Status& e : report.errors) {
      if (absl::StrContains(e.message(), c.reject_rule)) return CaseResult{};
    }
    error = std::string(report.errors[0].message());
  }
  if (absl::StrContains(error, c.reject_rule)) return CaseResult{};
  return Fail(absl::StrCat("rejected, but the error does not name '",
                           c.reject_rule, "': ", error));
}

CompileOptions MakeCompileOptions(const Case& c) {
  CompileOptions options;
  options.replica_count = c.replicas;
  options.num_partitions = c.partitions;
  return options;
}

absl::StatusOr<std::vector<Literal>> Execute(Executable& executable,
                                             const Case& c) {
  std::vector<std::vector<Literal>> arguments(c.device_count());
  for (int64_t d = 0; d < c.device_count(); ++d) {
    for (const Literal* a : c.ArgumentsFor(d)) arguments[d].push_back(*a);
    absl::Status fits =
        CheckArguments(executable.parameter_shapes(), arguments[d]);
    if (!fits.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the case's arg: values do not fit the module",
          c.device_count() > 1 ? absl::StrCat(" (device ", d, ")") : "", ": ",
          fits.message()));
    }
  }
  if (c.device_count() == 1) {
    absl::StatusOr<Literal> result = executable.Run(arguments[0]);
    if (!result.ok()) return result.status();
    std::vector<Literal> results;
    results.push_back(*std::move(result));
    return results;
  }
  return executable.RunReplicated(arguments);
}

CaseResult CompareResults(const Case& c, const Module& module,
                          const std::vector<Literal>& results) {
  if (static_cast<int64_t>(results.size()) != c.device_count()) {
    return Fail(absl::StrCat("the backend returned ", results.size(),
                             " device results for ", c.device_count(),
                             " devices"));
  }
  ToleranceFor tolerance = [&](ElementType type) {
    return c.tolerance.has_value() ? *c.tolerance
                                   : DefaultTolerance(module, type);
  };
  std::string report;
  for (int64_t d = 0; d < c.device_count(); ++d) {
    Comparison comparison =
        CompareLiterals(*c.ExpectedFor(d), results[d], tolerance);
    if (comparison.ok) continue;
    absl::StrAppend(
        &report, c.device_count() > 1 ? absl::StrCat("device ", d, ":\n") : "",
        comparison.report);
  }
  if (report.empty()) return CaseResult{};
  return Fail(absl::StrCat("wrong result\n", report));
}

CaseResult RunModule(const Case& c, const BackendSpec& spec) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(c.module_text, CaseParseOptions(c, true));
  if (!module.ok()) {
    return Fail(
        absl::StrCat("the module does not parse: ", module.status().message()));
  }
  if (absl::Status s = VerifyModule(**module); !s.ok()) {
    return Fail(absl::StrCat("the module does not verify: ", s.message()));
  }
  absl::StatusOr<std::unique_ptr<Backend>> backend = spec.Create();
  if (!backend.ok()) return Fail(std::string(backend.status().message()));
  if (absl::Status s = CheckSupported(**backend, **module); !s.ok()) {
    return Unsupported(std::string(s.message()));
  }
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      (*backend)->Compile(**module, MakeCompileOptions(c));
  absl::StatusOr<std::vector<Literal>> results =
      executable.ok()
          ? Execute(**executable, c)
          : absl::StatusOr<std::vector<Literal>>(executable.status());
  if (!results.ok()) {
    if (absl::IsUnimplemented(results.status())) {
      return Unsupported(std::string(results.status().message()));
    }
    return Fail(absl::StrCat(executable.ok() ? "run" : "compile",
                             " error: ", results.status().message()));
  }
  if (c.kind == CaseKind::kImplementationDefined) return CaseResult{};
  return CompareResults(c, **module, *results);
}

// State shared by a worker and the thread running one case, which may
// outlive the worker when it runs past the time limit.
struct CaseSlot {
  Case c;
  BackendSpec spec;
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  CaseResult result;
};

CaseResult RunWithTimeLimit(const Case& c, const BackendSpec& spec,
                            double limit, bool* abandoned) {
  if (limit <= 0) return RunCase(c, spec);
  auto slot = std::make_shared<CaseSlot>();
  slot->c = c;
  slot->spec = spec;
  std::thread thread([slot] {
    CaseResult result = RunCase(slot->c, slot->spec);
    std::lock_guard<std::mutex> lock(slot->mutex);
    slot->result = std::move(result);
    slot->done = true;
    slot->done_cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(slot->mutex);
  // exec: commands get the limit themselves; allow them a moment to be
  // killed and reported before the watchdog gives up on the thread.
  const double grace = spec.is_exec() ? 5 : 0;
  const bool finished =
      slot->done_cv.wait_for(lock, std::chrono::duration<double>(limit + grace),
                             [&] { return slot->done; });
  if (!finished) {
    lock.unlock();
    thread.detach();
    *abandoned = true;
    return Fail(
        absl::StrCat("timed out: ran past the time limit of ", limit, " s"));
  }
  lock.unlock();
  thread.join();
  return slot->result;
}

}  // namespace

absl::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kFail:
      return "fail";
    case Outcome::kUnsupported:
      return "unsupported";
  }
  return "?";
}

CaseTraits ComputeTraits(const Case& c) {
  CaseTraits traits;
  traits.ops = c.ops;
  traits.types = c.types;
  if (!traits.ops.empty() && !traits.types.empty()) return traits;
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(c.module_text, CaseParseOptions(c, false));
  if (!module.ok()) return traits;
  std::set<std::string> ops;
  std::set<ElementType> types;
  const bool infer_ops = traits.ops.empty();
  for (const Computation* computation : (*module)->computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      const std::string name(OpcodeName(instruction->opcode()));
      const bool selected =
          infer_ops
              ? !GetOpTraits(instruction->opcode()).plumbing
              : std::find(c.ops.begin(), c.ops.end(), name) != c.ops.end();
      if (!selected) continue;
      if (infer_ops) ops.insert(name);
      for (const Instruction* operand : instruction->operands()) {
        AddType(operand->shape(), &types);
      }
      // Conversions exercise their result type as much as their operand's.
      if (instruction->operands().empty() ||
          GetOpTraits(instruction->opcode()).converts) {
        AddType(instruction->shape(), &types);
      }
    }
  }
  if (infer_ops) traits.ops.assign(ops.begin(), ops.end());
  if (traits.types.empty()) traits.types.assign(types.begin(), types.end());
  return traits;
}

absl::StatusOr<BackendSpec> BackendSpec::Parse(const std::string& spec,
                                               double time_limit_seconds,
                                               bool keep_exec_files) {
  BackendSpec result;
  result.spec_ = spec;
  if (absl::StartsWith(spec, "exec:")) {
    ExecOptions exec;
    exec.command = spec.substr(5);
    if (exec.command.empty()) {
      return absl::InvalidArgumentError(
          "--backend=exec:COMMAND needs a command");
    }
    exec.time_limit_seconds = time_limit_seconds;
    exec.keep_files = keep_exec_files;
    result.exec_ = exec;
    result.name_ = "exec";
    return result;
  }
  // Fail now, listing the registered backends, rather than once per case.
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      BackendRegistry::Global().Create(spec);
  if (!backend.ok()) return backend.status();
  result.name_ = spec;
  return result;
}

absl::StatusOr<std::unique_ptr<Backend>> BackendSpec::Create() const {
  if (exec_.has_value()) return MakeExecBackend(*exec_);
  return BackendRegistry::Global().Create(spec_);
}

CaseResult RunCase(const Case& c, const BackendSpec& backend) {
  const auto start = std::chrono::steady_clock::now();
  CaseResult result = c.kind == CaseKind::kReject ? RunReject(c, backend)
                                                  : RunModule(c, backend);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

SuiteRun RunCases(const std::vector<Case>& cases, const BackendSpec& backend,
                  const RunOptions& options) {
  SuiteRun run;
  run.results.resize(cases.size());
  int jobs = options.jobs > 0
                 ? options.jobs
                 : static_cast<int>(std::thread::hardware_concurrency());
  jobs = std::max(1, std::min<int>(jobs, std::max<size_t>(cases.size(), 1)));
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  int64_t done = 0;
  int64_t failures = 0;
  std::atomic<bool> abandoned{false};
  auto worker = [&] {
    while (true) {
      const size_t i = next.fetch_add(1);
      if (i >= cases.size()) return;
      bool gave_up = false;
      CaseResult result = RunWithTimeLimit(
          cases[i], backend, options.time_limit_seconds, &gave_up);
      if (gave_up) abandoned = true;
      std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      failures += result.outcome == Outcome::kFail;
      run.results[i] = std::move(result);
      if (options.progress) {
        options.progress(done, static_cast<int64_t>(cases.size()), failures);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  run.abandoned_threads = abandoned;
  return run;
}

}  // namespace kiln::conform
