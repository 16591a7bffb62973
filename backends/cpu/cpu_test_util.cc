#include "backends/cpu/cpu_test_util.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/reference/reference_backend.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "tools/cli/run_args.h"
#include "tools/conform/compare.h"

namespace kiln::cpu {

std::unique_ptr<Module> Parse(const std::string& text) {
  ParseOptions options;
  options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

conform::Tolerance MixedPrecisionTolerance(const Module& module,
                                           ElementType type) {
  conform::Tolerance tolerance = conform::DefaultTolerance(module, type);
  if (!IsFloatType(type)) return tolerance;
  int narrowest = BitWidth(type);
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      const ElementType inner = instruction->shape().element_type();
      if (IsFloatType(inner)) narrowest = std::min(narrowest, BitWidth(inner));
    }
  }
  if (narrowest >= BitWidth(type)) return tolerance;
  const double epsilon = narrowest >= 32 ? 1.2e-7 : 1e-2;
  const double bound =
      16 * epsilon * std::max<int64_t>(1, conform::LongestReduction(module));
  return tolerance.Loosest(conform::Tolerance::AbsRel(bound, bound));
}

ReferenceComparison CompareWithReference(const Module& module, uint64_t seed,
                                         const std::string& what) {
  CpuBackend cpu;
  return CompareBackendWithReference(cpu, module, seed, what, "stats");
}

ReferenceComparison CompareBackendWithReference(Backend& backend,
                                                const Module& module,
                                                uint64_t seed,
                                                const std::string& what,
                                                const std::string& emit) {
  ReferenceComparison result;
  ReferenceBackend reference;
  absl::StatusOr<std::unique_ptr<Executable>> native =
      backend.Compile(module, {});
  absl::StatusOr<std::unique_ptr<Executable>> oracle =
      reference.Compile(module, {});
  if (!oracle.ok()) {
    result.not_compared = absl::StrCat("the reference backend refused it: ",
                                       oracle.status().ToString());
    return result;
  }
  EXPECT_TRUE(native.ok()) << what << ": " << native.status();
  if (!native.ok()) return result;
  std::mt19937_64 generator(seed);
  std::vector<Literal> arguments;
  for (const Shape& shape : (*oracle)->parameter_shapes()) {
    absl::StatusOr<Literal> argument = cli::RandomLiteral(shape, generator);
    EXPECT_TRUE(argument.ok()) << argument.status();
    if (!argument.ok()) return result;
    arguments.push_back(*std::move(argument));
  }
  absl::StatusOr<Literal> expected = (*oracle)->Run(arguments);
  absl::StatusOr<Literal> actual = (*native)->Run(arguments);
  if (!expected.ok()) {
    EXPECT_FALSE(actual.ok())
        << what << ": the evaluator refused it (" << expected.status() << ")";
    result.not_compared = absl::StrCat("the evaluator refused to run it: ",
                                       expected.status().ToString());
    return result;
  }
  EXPECT_TRUE(actual.ok()) << what << ": " << actual.status();
  if (!actual.ok()) return result;
  conform::Comparison comparison = conform::CompareLiterals(
      *expected, *actual,
      [&](ElementType type) { return MixedPrecisionTolerance(module, type); });
  EXPECT_TRUE(comparison.ok) << what << ":\n" << comparison.report;
  absl::StatusOr<std::string> emitted = (*native)->Emit(emit);
  EXPECT_TRUE(emitted.ok()) << emitted.status();
  result.stats = emitted.ok() ? *emitted : "";
  return result;
}

std::string ExpectSameAsReference(const Module& module, uint64_t seed,
                                  const std::string& what) {
  ReferenceComparison result = CompareWithReference(module, seed, what);
  EXPECT_TRUE(result.not_compared.empty())
      << what << ": not compared: " << result.not_compared;
  return result.stats;
}

void ExpectSameAsReference(const std::string& text, uint64_t seed) {
  std::unique_ptr<Module> module = Parse(text);
  ASSERT_NE(module, nullptr);
  ExpectSameAsReference(*module, seed, text);
}

std::string ExpectBitIdenticalToReference(Backend& backend,
                                          const std::string& text,
                                          uint64_t seed,
                                          const std::string& emit) {
  std::unique_ptr<Module> module = Parse(text);
  if (module == nullptr) return "";
  ReferenceBackend reference;
  absl::StatusOr<std::unique_ptr<Executable>> native =
      backend.Compile(*module, {});
  absl::StatusOr<std::unique_ptr<Executable>> oracle =
      reference.Compile(*module, {});
  EXPECT_TRUE(native.ok()) << text << native.status();
  EXPECT_TRUE(oracle.ok()) << text << oracle.status();
  if (!native.ok() || !oracle.ok()) return "";
  std::mt19937_64 generator(seed);
  std::vector<Literal> arguments;
  for (const Shape& shape : (*oracle)->parameter_shapes()) {
    absl::StatusOr<Literal> argument = cli::RandomLiteral(shape, generator);
    EXPECT_TRUE(argument.ok()) << argument.status();
    if (!argument.ok()) return "";
    arguments.push_back(*std::move(argument));
  }
  absl::StatusOr<Literal> expected = (*oracle)->Run(arguments);
  absl::StatusOr<Literal> actual = (*native)->Run(arguments);
  EXPECT_TRUE(expected.ok()) << text << expected.status();
  EXPECT_TRUE(actual.ok()) << text << actual.status();
  if (!expected.ok() || !actual.ok()) return "";
  EXPECT_TRUE(*expected == *actual)
      << text << "\nexpected " << LiteralToString(*expected) << "\nactual   "
      << LiteralToString(*actual);
  absl::StatusOr<std::string> emitted = (*native)->Emit(emit);
  EXPECT_TRUE(emitted.ok()) << emitted.status();
  return emitted.ok() ? *emitted : "";
}

std::string Emitted(const Module& module, const std::string& what) {
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(module, {});
  EXPECT_TRUE(executable.ok()) << executable.status();
  if (!executable.ok()) return "";
  absl::StatusOr<std::string> text = (*executable)->Emit(what);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

std::pair<std::string, std::string> StepSlots(const std::string& thunks,
                                              const std::string& marker) {
  const size_t at = thunks.find(marker);
  EXPECT_NE(at, std::string::npos) << marker << "\n" << thunks;
  if (at == std::string::npos) return {};
  const size_t in = thunks.find("in=[", at) + 4;
  const size_t out = thunks.find("out=[", at) + 5;
  return {thunks.substr(in, thunks.find_first_of(",]", in) - in),
          thunks.substr(out, thunks.find(']', out) - out)};
}

}  // namespace kiln::cpu
