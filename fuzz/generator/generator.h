// The module generator: valid HLO modules built with the builder, one per
// seed (or per stream of decisions), with arguments for every device.
// docs/fuzzing.md describes what it covers.
//
//   absl::StatusOr<GeneratedModule> m = Generate(42, GeneratorOptions());
//   PrintModule(*m->module);  // The same text for seed 42 everywhere.
#ifndef KILN_FUZZ_GENERATOR_GENERATOR_H_
#define KILN_FUZZ_GENERATOR_GENERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "fuzz/generator/context.h"
#include "fuzz/generator/decisions.h"

namespace kiln::fuzzgen {

struct GeneratedModule {
  std::unique_ptr<Module> module;
  // Devices it runs on (module config replica_count); 1 without
  // collectives.
  int64_t replicas = 1;
  // One argument list per device, device 0 first.
  std::vector<std::vector<Literal>> arguments;
  // The op generators used, in order.
  std::vector<std::string> generators;
  // Generators whose op the builder refused on an earlier attempt for this
  // seed, with the error: bugs of the generator, reported by --coverage.
  std::vector<std::string> rejected;
};

// One attempt: every decision drawn from `source`. An error when an op
// generator built something its rule refuses (the error names it).
absl::StatusOr<GeneratedModule> GenerateFrom(DecisionSource& source,
                                             const GeneratorOptions& options);

// The module of `seed`: GenerateFrom a SplitMix64Source(seed); an op the
// builder refuses is banned and the seed tried again (up to 8 times), so
// every seed gives a module. Arguments come from a second stream of the
// seed.
absl::StatusOr<GeneratedModule> Generate(uint64_t seed,
                                         const GeneratorOptions& options);

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_GENERATOR_H_
