// Test helpers shared by the gather/scatter simplification and expander
// tests: run a pass on HLO text and compare the reference evaluator's
// results before and after on seeded random arguments whose integers
// (the indices) include out-of-bounds and repeated values.
#ifndef KILN_PASSES_GATHER_SIMPLIFICATION_TESTING_H_
#define KILN_PASSES_GATHER_SIMPLIFICATION_TESTING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace kiln {
namespace gather_scatter_testing {

struct ValueCheck {
  // Argument sets drawn at random (seeds 1..random_sets).
  int random_sets = 8;
  // Integer arguments (indices) are drawn from [int_low, int_high].
  int64_t int_low = -3;
  int64_t int_high = 8;
  // Extra argument sets written as literal text, one per parameter.
  std::vector<std::vector<std::string>> fixed_sets;
  bool expect_change = true;
  // False: any answer of the pass is fine (random configurations).
  bool check_change = true;
};

// A random valid gather (or scatter) module with `seed`: operand rank 1-3
// with small dims, 0-2 index batch dims, index_vector_dim anywhere
// (implicit too), batching dims, collapsed/inserted dims, permuted
// index maps, offset/window dims anywhere; scatters get a random update
// computation (add, subtract, overwrite, maximum) and sometimes two
// operands.
std::string RandomGatherModule(uint32_t seed);
std::string RandomScatterModule(uint32_t seed);

// One literal per entry parameter: integers in [low, high] (wrapped to
// the type), floats small random values, pred random.
std::vector<Literal> RandomArguments(const Module& module, uint32_t seed,
                                     int64_t low, int64_t high);

// Parses `hlo`, evaluates it on every argument set, runs `pass`, then
// expects: the pass reported a change (or not, per `check`), the module
// verifies in strict form and round-trips through text, and every result
// is bitwise the one before. Returns the printed module after the pass
// ("" on a parse failure, which is a test failure too).
std::string RunAndCompare(const std::string& hlo, const std::string& pass,
                          const ValueCheck& check = {});

// The result of evaluating `hlo` on the given argument texts, before and
// after `pass`, as literal text ("error: ..." when evaluation fails).
struct BeforeAfter {
  std::string before, after, printed;
};
BeforeAfter EvaluateAround(const std::string& hlo, const std::string& pass,
                           const std::vector<std::string>& arguments);

// "name { a = T[] parameter(0)  b = T[] parameter(1)
//        ROOT r = T[] op(a, b) }": a scatter combiner.
std::string Combiner(const std::string& name, const std::string& type,
                     const std::string& op);
// The combiner `assign` that keeps the update (an overwriting scatter).
extern const char kOverwrite[];

// The spec's scatter example with batching dimensions (values from JAX, as
// in compiler/evaluator/indexing_generated_test.cc): checks the values
// before and after `pass` against the expected literal and RunAndCompare's
// checks on them; returns the module after the pass.
std::string CheckJaxScatterSpecExample(const std::string& pass);

}  // namespace gather_scatter_testing
}  // namespace kiln

#endif  // KILN_PASSES_GATHER_SIMPLIFICATION_TESTING_H_
