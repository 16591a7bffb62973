// libFuzzer target over the module generator: the input bytes are the
// generator's decisions (ByteSource), so coverage guidance steers the same
// generator `kiln fuzz` drives from seeds. Checked on every input:
//   - the generator builds a module (a refusal is a generator bug);
//   - it verifies, prints to text that parses back and prints the same;
//   - after broadcast legalization it verifies in strict form;
//   - the reference evaluator runs it without crashing (errors such as its
//     step budget are fine), on arguments drawn from the input's hash.
// A violated property aborts, which libFuzzer reports as a crash. The
// differential oracles (backends, pipelines) are `kiln fuzz`'s.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/pass/pass.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "fuzz/fuzz_target.h"
#include "fuzz/generator/decisions.h"
#include "fuzz/generator/generator.h"
#include "fuzz/generator/inputs.h"

namespace kiln::fuzzgen {
namespace {

[[noreturn]] void Fail(const char* what, absl::string_view detail) {
  std::fprintf(stderr, "module_fuzzer: %s\n%.*s\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

uint64_t Hash(const uint8_t* data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 0x100000001b3ULL;
  return hash;
}

void CheckOne(const uint8_t* data, size_t size) {
  ByteSource source(absl::MakeConstSpan(data, size));
  GeneratorOptions options;
  options.max_ops = 4;
  absl::StatusOr<GeneratedModule> generated = GenerateFrom(source, options);
  if (!generated.ok())
    Fail("the generator failed", generated.status().message());
  const Module& module = *generated->module;
  const std::string text = PrintModule(module);
  if (absl::Status verified = VerifyModule(module); !verified.ok()) {
    Fail("a generated module does not verify",
         std::string(verified.message()) + "\n" + text);
  }
  absl::StatusOr<std::unique_ptr<Module>> parsed = ParseModule(text);
  if (!parsed.ok()) {
    Fail("the printed module does not parse",
         std::string(parsed.status().message()) + "\n" + text);
  }
  if (PrintModule(**parsed) != text)
    Fail("print(parse(print(m))) != print(m)", text);
  std::unique_ptr<Pass> legalize =
      PassRegistry::Global().Create("broadcast-legalization");
  if (legalize != nullptr) {
    if (!legalize->Run(**parsed).ok()) Fail("legalization failed", text);
    VerifyOptions strict;
    strict.form = ShapeForm::kStrict;
    if (absl::Status ok = VerifyModule(**parsed, strict); !ok.ok()) {
      Fail("not strict after legalization",
           std::string(ok.message()) + "\n" + text);
    }
  }
  if (generated->replicas != 1) return;
  std::vector<Shape> parameters;
  for (const Instruction* p : module.entry()->parameters()) {
    parameters.push_back(p->shape());
  }
  SplitMix64Source values(Hash(data, size));
  absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
      RandomArguments(parameters, 1, values);
  if (!arguments.ok()) return;
  EvalOptions eval;
  eval.max_steps = 1 << 20;
  eval.max_while_iterations = 64;
  (void)Evaluate(module, (*arguments)[0], eval);
}

}  // namespace
}  // namespace kiln::fuzzgen

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln::fuzzgen::CheckOne(data, size);
  return 0;
}
