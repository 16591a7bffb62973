// The op generators: one per op (or op form), grouped by family in
// elementwise.cc, data_movement.cc, reduction.cc, indexing.cc, linalg.cc,
// io.cc, control_flow.cc and collectives.cc. Each draws its operands and
// attributes through a Context so that what it builds satisfies the op's
// shape rule.
#ifndef KILN_FUZZ_GENERATOR_OPS_H_
#define KILN_FUZZ_GENERATOR_OPS_H_

#include <vector>

#include "compiler/builder/builder.h"
#include "fuzz/generator/context.h"

namespace kiln::fuzzgen {

struct OpGenerator {
  // The op's HLO name, or "name.form" for a second form of it.
  const char* name;
  // Needs several replicas (a collective).
  bool collective;
  // Adds the op; returns its result, or an invalid op (with no error
  // recorded) when it chose to add nothing.
  XlaOp (*generate)(Context& context);
};

void AddElementwiseGenerators(std::vector<OpGenerator>* generators);
void AddDataMovementGenerators(std::vector<OpGenerator>* generators);
void AddReductionGenerators(std::vector<OpGenerator>* generators);
void AddIndexingGenerators(std::vector<OpGenerator>* generators);
void AddLinalgGenerators(std::vector<OpGenerator>* generators);
void AddControlFlowGenerators(std::vector<OpGenerator>* generators);
void AddCollectiveGenerators(std::vector<OpGenerator>* generators);
void AddIoGenerators(std::vector<OpGenerator>* generators);
void AddTemplateGenerators(std::vector<OpGenerator>* generators);

// Every generator, in a fixed order.
const std::vector<OpGenerator>& AllGenerators();

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_OPS_H_
