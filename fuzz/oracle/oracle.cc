#include "fuzz/oracle/oracle.h"

#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal_text.h"
#include "compiler/ir/op_traits.h"
#include "compiler/pass/instrumentation.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "re2/re2.h"
#include "tools/conform/compare.h"
#include "tools/conform/exec_backend.h"
#include "tools/conform/tolerance.h"

namespace kiln::fuzz {
namespace {

// The custom-call target of generated modules (fuzz/generator/templates.cc):
// the identity, so the reference evaluator runs them.
const bool kFuzzTargetRegistered = [] {
  GlobalCustomCallRegistry().Register(
      "kiln_fuzz",
      [](absl::Span<const Literal* const> operands, const Shape&,
         absl::string_view) -> absl::StatusOr<Literal> {
        if (operands.empty()) {
          return absl::InvalidArgumentError("kiln_fuzz takes one operand");
        }
        return *operands[0];
      });
  return true;
}();

std::string ResultsText(const std::vector<Literal>& results) {
  std::vector<std::string> lines;
  for (size_t d = 0; d < results.size(); ++d) {
    lines.push_back(absl::StrCat(
        results.size() > 1 ? absl::StrCat("device ", d, ": ") : std::string(),
        LiteralToString(results[d])));
  }
  return absl::StrJoin(lines, "\n");
}

int64_t Devices(const Module& module) {
  return module.config().replica_count * module.config().num_partitions;
}

}  // namespace

bool NeedsEveryDevice(const Module& module) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      const Opcode opcode = instruction->opcode();
      if (GetOpTraits(opcode).collective || opcode == Opcode::kReplicaId ||
          opcode == Opcode::kPartitionId) {
        return true;
      }
    }
  }
  return false;
}

namespace {

// The reference results: the evaluator on every device.
absl::StatusOr<std::vector<Literal>> Reference(const Module& module,
                                               const Case& c,
                                               const OracleOptions& options) {
  EvalOptions eval;
  eval.max_steps = options.max_steps;
  eval.max_while_iterations = 64;
  if (Devices(module) == 1) {
    absl::StatusOr<Literal> result = Evaluate(module, c.arguments[0], eval);
    if (!result.ok()) return result.status();
    std::vector<Literal> results;
    results.push_back(*std::move(result));
    return results;
  }
  return EvaluateReplicated(module, c.arguments, module.config().replica_count,
                            module.config().num_partitions, eval);
}

// The finding kind of a backend's error: a crashed or hung exec: command
// is contained and reported as such.
std::string ErrorKind(const absl::Status& status, const char* otherwise) {
  if (absl::IsDeadlineExceeded(status)) return "hang";
  if (absl::IsAborted(status)) return "crash";
  return otherwise;
}

// Runs a registered pass on `module`.
absl::Status RunNamedPass(absl::string_view name, Module& module) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(name);
  if (pass == nullptr) {
    return absl::NotFoundError(absl::StrCat("no pass named ", name));
  }
  return pass->Run(module).status();
}

bool HasOp(const Module& module, std::initializer_list<Opcode> ops) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      for (Opcode op : ops) {
        if (instruction->opcode() == op) return true;
      }
    }
  }
  return false;
}

// What one backend gave for a case: `results` on every device when
// `outcome` passes; otherwise why not (a skip when the backend does not
// claim the module, a finding when it fails on it).
struct BackendRun {
  Outcome outcome;
  std::vector<Literal> results;
};

BackendRun RunBackend(Backend& backend, const Case& c) {
  const Module& module = *c.module;
  BackendRun run;
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) {
    run.outcome = Outcome::Skip(std::string(copy.status().message()));
    return run;
  }
  if (!backend.accepts_client_form()) {
    absl::Status legal = RunNamedPass("broadcast-legalization", **copy);
    if (!legal.ok()) {
      run.outcome = Outcome::Finding("pass-error", "broadcast-legalization",
                                     std::string(legal.message()));
      return run;
    }
  }
  if (!CheckSupported(backend, **copy).ok()) {
    run.outcome =
        Outcome::Skip("the backend does not support an op of the module");
    return run;
  }
  const std::string name(backend.name());
  CompileOptions compile;
  compile.replica_count = module.config().replica_count;
  compile.num_partitions = module.config().num_partitions;
  compile.threads = 1;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend.Compile(**copy, compile);
  if (!executable.ok()) {
    run.outcome =
        absl::IsUnimplemented(executable.status())
            ? Outcome::Skip(std::string(executable.status().message()))
            : Outcome::Finding(ErrorKind(executable.status(), "compile-error"),
                               name,
                               std::string(executable.status().message()));
    return run;
  }
  absl::StatusOr<std::vector<Literal>> results;
  if (Devices(module) == 1) {
    absl::StatusOr<Literal> result = (*executable)->Run(c.arguments[0]);
    if (result.ok()) {
      results.emplace();
      results->push_back(*std::move(result));
    } else {
      results = result.status();
    }
  } else {
    results = (*executable)->RunReplicated(c.arguments);
  }
  if (!results.ok()) {
    run.outcome =
        Outcome::Finding(ErrorKind(results.status(), "run-error"), name,
                         std::string(results.status().message()));
  } else if (results->size() != static_cast<size_t>(Devices(module))) {
    run.outcome =
        Outcome::Finding("run-error", name, "wrong number of device results");
  } else {
    run.results = *std::move(results);
  }
  return run;
}

// The first device on which `a` and `b` differ beyond the conformance
// tolerances, and the comparison's report; nullopt when they agree.
std::optional<std::pair<size_t, std::string>> FirstDifference(
    const Module& module, const std::vector<Literal>& a,
    const std::vector<Literal>& b) {
  const conform::ToleranceFor tolerance = [&](ElementType type) {
    return conform::DefaultTolerance(module, type);
  };
  for (size_t d = 0; d < a.size() && d < b.size(); ++d) {
    conform::Comparison comparison =
        conform::CompareLiterals(a[d], b[d], tolerance);
    if (!comparison.ok) return std::make_pair(d, comparison.report);
  }
  return std::nullopt;
}

// A mismatch between the backend and the reference evaluator, put to the
// referee (a third implementation): when its results agree with the
// backend's and not with the evaluator's, the evaluator is blamed. Any
// other answer (it agrees with the evaluator, with neither, or cannot run
// the module) leaves the blame on the backend, and the detail says so.
void ConsultReferee(const Case& c, const std::vector<Literal>& expected,
                    const std::vector<Literal>& actual,
                    const OracleOptions& options, Outcome& outcome) {
  const std::string name(options.referee_backend->name());
  BackendRun third = RunBackend(*options.referee_backend, c);
  std::string verdict;
  if (third.outcome.verdict != Outcome::Verdict::kPass) {
    verdict = absl::StrCat(
        "cannot run the module (",
        third.outcome.detail.substr(0, third.outcome.detail.find('\n')), ")");
  } else {
    const bool with_backend =
        !FirstDifference(*c.module, third.results, actual).has_value();
    const bool with_reference =
        !FirstDifference(*c.module, third.results, expected).has_value();
    if (with_backend && !with_reference) {
      outcome.blamed = "reference";
      verdict = "agrees with the backend, not with the reference evaluator";
    } else {
      verdict = with_reference ? "agrees with the reference evaluator"
                               : "agrees with neither";
    }
  }
  outcome.detail =
      absl::StrCat(outcome.detail, "\nreferee ", name, ": ", verdict);
}

Outcome BackendOracle(const Case& c, Backend* backend,
                      const OracleOptions& options) {
  const Module& module = *c.module;
  absl::StatusOr<std::vector<Literal>> expected = Reference(module, c, options);
  if (!expected.ok()) {
    return Outcome::Skip(
        absl::StrCat("reference: ", expected.status().message()));
  }
  // rng draws from each implementation's own generator: no one answer.
  if (HasOp(module, {Opcode::kRng, Opcode::kRngGetAndUpdateState})) {
    return Outcome::Skip("rng values are implementation-defined");
  }
  BackendRun run = RunBackend(*backend, c);
  if (run.outcome.verdict != Outcome::Verdict::kPass) return run.outcome;
  std::optional<std::pair<size_t, std::string>> difference =
      FirstDifference(module, *expected, run.results);
  if (!difference) return Outcome::Pass();
  Outcome outcome = Outcome::Finding(
      "mismatch", std::string(backend->name()),
      absl::StrCat(run.results.size() > 1
                       ? absl::StrCat("device ", difference->first, ": ")
                       : std::string(),
                   difference->second));
  outcome.expected = ResultsText(*expected);
  outcome.actual = ResultsText(run.results);
  if (options.referee_backend != nullptr) {
    ConsultReferee(c, *expected, run.results, options, outcome);
  }
  return outcome;
}

// "pass 'NAME'" in an instrumentation error.
std::string PassNamed(absl::string_view message) {
  std::string pass;
  RE2::PartialMatch(std::string(message), "pass '([^']+)'", &pass);
  return pass;
}

Outcome PipelineOracle(const Case& c, const OracleOptions& options) {
  const Module& module = *c.module;
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return Outcome::Skip(std::string(copy.status().message()));
  // A registered pipeline, or else a pass by that name.
  std::unique_ptr<PassPipeline> pipeline =
      PipelineRegistry::Global().Create(options.pipeline);
  if (pipeline == nullptr) {
    absl::StatusOr<std::unique_ptr<PassPipeline>> from_names =
        PipelineFromNames(options.pipeline, {options.pipeline});
    if (!from_names.ok()) {
      return Outcome::Skip(std::string(from_names.status().message()));
    }
    pipeline = *std::move(from_names);
  }
  // Several devices only matter with collectives: otherwise device 0's
  // arguments go through the semantic checker, which names the pass.
  const bool replicated = Devices(module) > 1 && NeedsEveryDevice(module);
  absl::StatusOr<std::vector<Literal>> expected;
  PipelineOptions pipeline_options;
  pipeline_options.verify_each = true;
  pipeline_options.eval_options.max_steps = options.max_steps;
  pipeline_options.eval_options.max_while_iterations = 64;
  if (!replicated) {
    // The same evaluation the semantic checker makes, to skip the case
    // when the input cannot be evaluated at all.
    expected = Reference(module, c, options);
    if (!expected.ok()) {
      return Outcome::Skip(
          absl::StrCat("reference: ", expected.status().message()));
    }
    pipeline_options.semantic_check_arguments.push_back({});
    for (const Literal& argument : c.arguments[0]) {
      pipeline_options.semantic_check_arguments.back().push_back(argument);
    }
  }
  absl::StatusOr<bool> ran = RunPipeline(*pipeline, **copy, pipeline_options);
  if (!ran.ok()) {
    const std::string message(ran.status().message());
    std::string kind = "pass-error";
    if (message.find("check-semantics: pass") != std::string::npos) {
      kind = "semantic";
    } else if (message.find("does not verify") != std::string::npos) {
      kind = "verify";
    } else if (message.find("check-semantics") != std::string::npos) {
      return Outcome::Skip(message);
    }
    Outcome outcome = Outcome::Finding(kind, PassNamed(message), message);
    if (expected.ok() && !expected->empty()) {
      outcome.expected = ResultsText(*expected);
    }
    return outcome;
  }
  if (replicated) {
    // The semantic checker runs one device; collectives need all of them:
    // compare the whole pipeline's result on every device.
    absl::StatusOr<std::vector<Literal>> before = Reference(module, c, options);
    if (!before.ok()) {
      return Outcome::Skip(
          absl::StrCat("reference: ", before.status().message()));
    }
    absl::StatusOr<std::vector<Literal>> after = Reference(**copy, c, options);
    if (!after.ok()) {
      return Outcome::Finding(
          "semantic", options.pipeline,
          absl::StrCat("evaluation after the pipeline fails: ",
                       after.status().message()));
    }
    for (size_t d = 0; d < before->size(); ++d) {
      std::optional<std::string> difference =
          DescribeDifference((*before)[d], (*after)[d]);
      if (difference) {
        Outcome outcome =
            Outcome::Finding("semantic", options.pipeline,
                             absl::StrCat("pipeline '", options.pipeline,
                                          "' changed the result on device ", d,
                                          ": ", *difference));
        outcome.expected = ResultsText(*before);
        outcome.actual = ResultsText(*after);
        return outcome;
      }
    }
  }
  return Outcome::Pass();
}

Outcome RoundTripOracle(const Case& c) {
  const std::string text = PrintModule(*c.module);
  absl::StatusOr<std::unique_ptr<Module>> parsed = ParseModule(text);
  if (!parsed.ok()) {
    return Outcome::Finding("roundtrip", "parser",
                            absl::StrCat("the printed module does not parse: ",
                                         parsed.status().message()));
  }
  const std::string again = PrintModule(**parsed);
  if (again != text) {
    Outcome outcome = Outcome::Finding("roundtrip", "printer",
                                       "print(parse(print(m))) != print(m)");
    outcome.expected = text;
    outcome.actual = again;
    return outcome;
  }
  std::unique_ptr<PassPipeline> pipeline =
      PipelineRegistry::Global().Create("default");
  PipelineOptions options;
  options.verify_each = true;
  absl::StatusOr<bool> ran = RunPipeline(*pipeline, **parsed, options);
  if (!ran.ok()) {
    const std::string message(ran.status().message());
    return Outcome::Finding(message.find("does not verify") != std::string::npos
                                ? "verify"
                                : "pass-error",
                            PassNamed(message), message);
  }
  VerifyOptions strict;
  strict.form = ShapeForm::kStrict;
  absl::Status verified = VerifyModule(**parsed, strict);
  if (!verified.ok()) {
    return Outcome::Finding("strict", "default",
                            absl::StrCat("not strict after the default "
                                         "pipeline: ",
                                         verified.message()));
  }
  return Outcome::Pass();
}

}  // namespace

absl::StatusOr<OracleKind> ParseOracle(absl::string_view name) {
  if (name == "backend") return OracleKind::kBackend;
  if (name == "pipeline") return OracleKind::kPipeline;
  if (name == "roundtrip") return OracleKind::kRoundTrip;
  if (name == "crash") return OracleKind::kCrash;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown oracle '", name, "' (backend, pipeline, roundtrip, crash)"));
}

absl::string_view OracleName(OracleKind kind) {
  switch (kind) {
    case OracleKind::kBackend:
      return "backend";
    case OracleKind::kPipeline:
      return "pipeline";
    case OracleKind::kRoundTrip:
      return "roundtrip";
    case OracleKind::kCrash:
      return "crash";
  }
  return "";
}

Outcome Outcome::Skip(std::string reason) {
  Outcome outcome;
  outcome.verdict = Verdict::kSkip;
  outcome.detail = std::move(reason);
  return outcome;
}

Outcome Outcome::Finding(std::string kind, std::string blamed,
                         std::string detail) {
  Outcome outcome;
  outcome.verdict = Verdict::kFinding;
  outcome.kind = std::move(kind);
  outcome.blamed = std::move(blamed);
  outcome.detail = std::move(detail);
  return outcome;
}

absl::StatusOr<std::unique_ptr<Backend>> CreateBackend(
    const std::string& spec, double time_limit_seconds) {
  if (absl::StartsWith(spec, "exec:")) {
    conform::ExecOptions options;
    options.command = spec.substr(5);
    options.time_limit_seconds = time_limit_seconds;
    return conform::MakeExecBackend(options);
  }
  return BackendRegistry::Global().Create(spec);
}

absl::StatusOr<std::unique_ptr<Backend>> CreateBackendIfNamed(
    const std::string& spec, double time_limit_seconds) {
  if (spec.empty()) return std::unique_ptr<Backend>();
  return CreateBackend(spec, time_limit_seconds);
}

absl::StatusOr<std::unique_ptr<Module>> CopyModule(const Module& module) {
  ParseOptions options;
  return ParseModule(PrintModule(module), options);
}

Outcome RunOracle(OracleKind kind, const Case& c, Backend* backend,
                  const OracleOptions& options) {
  if (c.module == nullptr || c.module->entry() == nullptr) {
    return Outcome::Skip("no entry computation");
  }
  if (static_cast<int64_t>(c.arguments.size()) != Devices(*c.module)) {
    return Outcome::Skip("one argument list per device is needed");
  }
  switch (kind) {
    case OracleKind::kBackend:
      if (backend == nullptr) return Outcome::Skip("no backend");
      return BackendOracle(c, backend, options);
    case OracleKind::kPipeline:
      return PipelineOracle(c, options);
    case OracleKind::kRoundTrip:
      return RoundTripOracle(c);
    case OracleKind::kCrash:
      return Outcome::Skip("the crash oracle runs in a child process");
  }
  return Outcome::Skip("unknown oracle");
}

std::unique_ptr<Module> Localize(OracleKind kind, const Case& c,
                                 Backend* backend, const OracleOptions& options,
                                 const Outcome& outcome) {
  if (kind == OracleKind::kRoundTrip || kind == OracleKind::kCrash) {
    return nullptr;
  }
  const std::vector<Instruction*> order = c.module->entry()->instructions();
  for (size_t i = 0; i < order.size(); ++i) {
    const Instruction* target = order[i];
    if (!target->shape().IsArray() || target->opcode() == Opcode::kParameter ||
        target->opcode() == Opcode::kConstant ||
        target == c.module->entry()->root()) {
      continue;
    }
    absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(*c.module);
    if (!copy.ok()) return nullptr;
    Computation* entry = (*copy)->entry();
    Instruction* root = entry->instructions()[i];
    entry->set_root(root);
    if ((*copy)->config().entry_computation_layout) {
      (*copy)->config().entry_computation_layout->result = root->shape();
    }
    if (!RunNamedPass("dce", **copy).ok() || !VerifyModule(**copy).ok()) {
      continue;
    }
    Case smaller;
    smaller.module = copy->get();
    for (const auto& device : c.arguments) {
      smaller.arguments.emplace_back();
      for (const Literal& argument : device) {
        smaller.arguments.back().push_back(argument);
      }
    }
    Outcome again = RunOracle(kind, smaller, backend, options);
    if (again.finding() && again.kind == outcome.kind &&
        again.blamed == outcome.blamed) {
      return *std::move(copy);
    }
  }
  return nullptr;
}

std::string Signature(OracleKind kind, const Outcome& outcome,
                      const Module* localized) {
  std::string where;
  // Wrong values are told apart by the op that computes them; errors by
  // their message (one broken invariant, whatever op the module ends in).
  const bool wrong_value =
      outcome.kind == "mismatch" || outcome.kind == "semantic";
  if (localized != nullptr && wrong_value) {
    const Instruction* root = localized->entry()->root();
    std::string type(ElementTypeName(root->shape().element_type()));
    if (!root->operands().empty() && root->operand(0)->shape().IsArray()) {
      type = std::string(
          ElementTypeName(root->operand(0)->shape().element_type()));
    }
    where = absl::StrCat(OpcodeName(root->opcode()), "-", type);
  } else {
    // FNV-1a of the first line without its locations, instruction names,
    // shapes, quoted names and numbers: one cause, one signature.
    std::string line = outcome.detail.substr(0, outcome.detail.find('\n'));
    RE2::GlobalReplace(&line, "<input>:[0-9]+:[0-9]+: error: [\\w.-]+: ", "");
    RE2::GlobalReplace(&line, "\\w+\\[[^\\]]*\\](\\{[^}]*\\})?", "S");
    RE2::GlobalReplace(&line, "'[^']*'|[0-9]+", "");
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char ch : line) {
      hash = (hash ^ ch) * 0x100000001b3ULL;
    }
    where = absl::StrCat("h", absl::Hex(hash & 0xffffffffu));
  }
  std::string signature = absl::StrCat(
      OracleName(kind), "-", outcome.blamed.empty() ? "none" : outcome.blamed,
      "-", outcome.kind, "-", where);
  for (char& ch : signature) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
                    ch == '.';
    if (!ok) ch = '_';
  }
  return signature;
}

}  // namespace kiln::fuzz
