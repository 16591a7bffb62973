// The oracles of `kiln fuzz` (docs/fuzzing.md): what a generated (or
// replayed) module must satisfy, and the finding when it does not.
//
//   backend    the backend's results match the reference evaluator's within
//              the conformance runner's tolerance table (tools/conform);
//   pipeline   each pipeline (default, cpu, ...) leaves the module's results
//              unchanged, bitwise, with the first pass that changes them
//              named (the instrumentation of `kiln opt --check-semantics`),
//              and every pass leaves a module that verifies;
//   roundtrip  print -> parse -> print gives the same text, and the module
//              verifies in strict form after the default pipeline;
//   crash      none of the above crashes or hangs (run in a child process
//              by `kiln fuzz`, which reports the signal or the time limit).
#ifndef KILN_FUZZ_ORACLE_ORACLE_H_
#define KILN_FUZZ_ORACLE_ORACLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/backend.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace kiln::fuzz {

enum class OracleKind { kBackend, kPipeline, kRoundTrip, kCrash };

absl::StatusOr<OracleKind> ParseOracle(absl::string_view name);
absl::string_view OracleName(OracleKind kind);

struct OracleOptions {
  // The backend under test (backend oracle); a registry name or exec:CMD.
  std::string backend = "cpu";
  // The pipeline under test (pipeline oracle): a registered pipeline or
  // a single pass.
  std::string pipeline = "default";
  // The referee of the backend oracle (a registry name or exec:CMD; ""
  // for none): a third implementation run on each mismatch, so that a bug
  // of the reference evaluator is blamed on it ("reference") when the
  // referee sides with the backend. XLA's own CPU compiler through its
  // PJRT plugin is the natural one (docs/fuzzing.md, "Blame").
  std::string referee;
  // The referee itself, made from `referee` by the caller, who owns it
  // (null: none is consulted).
  Backend* referee_backend = nullptr;
  // Budget of the reference evaluation (evaluated instructions).
  int64_t max_steps = int64_t{1} << 22;
};

// What one oracle said about one case.
struct Outcome {
  enum class Verdict { kPass, kSkip, kFinding };
  Verdict verdict = Verdict::kPass;
  // Finding kind: "mismatch", "compile-error", "run-error", "semantic",
  // "pass-error", "verify", "roundtrip", "strict", "crash", "hang" (an
  // exec: backend's command killed by a signal or by the time limit is
  // "crash" or "hang" too).
  std::string kind;
  // The backend or the pass blamed ("" when none can be).
  std::string blamed;
  // Why: the comparison report or the error. For skips, the reason.
  std::string detail;
  // The reference (expected) and the tested (actual) results as text.
  std::string expected;
  std::string actual;

  bool finding() const { return verdict == Verdict::kFinding; }
  static Outcome Pass() { return Outcome(); }
  static Outcome Skip(std::string reason);
  static Outcome Finding(std::string kind, std::string blamed,
                         std::string detail);
};

// The case under test: a module and one argument list per device.
struct Case {
  const Module* module = nullptr;
  std::vector<std::vector<Literal>> arguments;
};

// Runs `kind` (not kCrash: that is the caller's child process) on `c`.
// `backend` is the backend under test for kBackend (may be null for the
// others). Never crashes on a valid module unless the code under test
// does.
Outcome RunOracle(OracleKind kind, const Case& c, Backend* backend,
                  const OracleOptions& options);

// The backend `spec` names: a registered one ("cpu"), or "exec:COMMAND"
// (the conformance runner's exec: protocol, tools/conform/exec_backend.h),
// whose every run is stopped after `time_limit_seconds` (<= 0: none).
absl::StatusOr<std::unique_ptr<Backend>> CreateBackend(
    const std::string& spec, double time_limit_seconds);

// CreateBackend, or null for an empty `spec` (an optional backend such
// as the referee).
absl::StatusOr<std::unique_ptr<Backend>> CreateBackendIfNamed(
    const std::string& spec, double time_limit_seconds);

// Whether results depend on more than one device: collectives, replica-id
// or partition-id anywhere. Without them each device's result is a
// one-device evaluation of its arguments.
bool NeedsEveryDevice(const Module& module);

// A copy of `module` through its text (print, parse), or the parse error.
absl::StatusOr<std::unique_ptr<Module>> CopyModule(const Module& module);

// The instruction of the entry computation the finding is about: each
// array-valued instruction, in order, is made the root of a copy (dead code
// removed); the first copy on which `kind` gives a finding of the same kind
// and blame is returned, smaller than the original (or null when none
// fails alone). `reduced` receives its text.
std::unique_ptr<Module> Localize(OracleKind kind, const Case& c,
                                 Backend* backend, const OracleOptions& options,
                                 const Outcome& outcome);

// The finding's signature, for deduplication: oracle, blamed, kind, and
// for wrong values ("mismatch", "semantic") the root op and element type
// of the localized module, e.g. "backend-cpu-mismatch-exponential-f16";
// for errors, or without a localized module, a hash of the detail's first
// line with its locations, names, shapes and numbers dropped.
// Only [A-Za-z0-9._-]: it names a folder.
std::string Signature(OracleKind kind, const Outcome& outcome,
                      const Module* localized);

}  // namespace kiln::fuzz

#endif  // KILN_FUZZ_ORACLE_ORACLE_H_
