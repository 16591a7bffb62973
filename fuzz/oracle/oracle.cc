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
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return Outcome::Skip(std::string(copy.status().message()));
  if (!backend->accepts_client_form()) {
    absl::Status legal = RunNamedPass("broadcast-legalization", **copy);
    if (!legal.ok()) {
      return Outcome::Finding("pass-error", "broadcast-legalization",
                              std::string(legal.message()));
    }
  }
  if (!CheckSupported(*backend, **copy).ok()) {
    return Outcome::Skip("the backend does not support an op of the module");
  }
  const std::string name(backend->name());
  CompileOptions compile;
  compile.replica_count = module.config().replica_count;
  compile.num_partitions = module.config().num_partitions;
  compile.threads = 1;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend->Compile(**copy, compile);
  if (!executable.ok()) {
    if (absl::IsUnimplemented(executable.status())) {
      return Outcome::Skip(std::string(executable.status().message()));
    }
    return Outcome::Finding(ErrorKind(executable.status(), "compile-error"),
                            name, std::string(executable.status().message()));
  }
  std::vector<Literal> actual;
  if (Devices(module) == 1) {
    absl::StatusOr<Literal> result = (*executable)->Run(c.arguments[0]);
    if (!result.ok()) {
      return Outcome::Finding(ErrorKind(result.status(), "run-error"), name,
                              std::string(result.status().message()));
    }
    actual.push_back(*std::move(result));
  } else {
    absl::StatusOr<std::vector<Literal>> results =
        (*executable)->RunReplicated(c.arguments);
    if (!results.ok()) {
      return Outcome::Finding(ErrorKind(results.status(), "run-error"), name,
                              std::string(results.status().message()));
    }
    actual = *std::move(results);
  }
  if (actual.size() != expected->size()) {
    return Outcome::Finding("run-error", name,
                            "wrong number of device results");
  }
  const conform::ToleranceFor tolerance = [&](ElementType type) {
    return conform::DefaultTolerance(module, type);
  };
  for (size_t d = 0; d < actual.size(); ++d) {
    conform::Comparison comparison =
        conform::CompareLiterals((*expected)[d], actual[d], tolerance);
    if (!comparison.ok) {
      Outcome outcome = Outcome::Finding(
          "mismatch", name,
          absl::StrCat(actual.size() > 1 ? absl::StrCat("device ", d, ": ")
                                         : std::string(),
                       comparison.report));
      outcome.expected = ResultsText(*expected);
      outcome.actual = ResultsText(actual);
      return outcome;
    }
  }
  return Outcome::Pass();
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
