#include "fuzz/generator/generator.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/builder/builder.h"
#include "compiler/builder/data_movement.h"
#include "fuzz/generator/inputs.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

bool Contains(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The ops models are mostly made of: elementwise arithmetic, compare and
// select, convert, the shape ops, reduce, dot and gather. Where rewrites,
// legalization and fusion do most of their work, so a third of the steps
// draw from these alone.
bool IsCommon(absl::string_view name) {
  static const absl::flat_hash_set<absl::string_view>* const kCommon =
      new absl::flat_hash_set<absl::string_view>{
          "add",          "subtract",  "multiply", "divide",    "maximum",
          "minimum",      "compare",   "select",   "convert",   "negate",
          "abs",          "broadcast", "reshape",  "transpose", "slice",
          "concatenate",  "reduce",    "dot",      "pad",       "gather",
          "dynamic-slice"};
  return kCommon->contains(name);
}

}  // namespace

const std::vector<OpGenerator>& AllGenerators() {
  static const std::vector<OpGenerator>* const kAll = [] {
    auto* all = new std::vector<OpGenerator>();
    AddElementwiseGenerators(all);
    AddDataMovementGenerators(all);
    AddReductionGenerators(all);
    AddIndexingGenerators(all);
    AddLinalgGenerators(all);
    AddControlFlowGenerators(all);
    AddCollectiveGenerators(all);
    AddIoGenerators(all);
    AddTemplateGenerators(all);
    return all;
  }();
  return *kAll;
}

absl::StatusOr<GeneratedModule> GenerateFrom(DecisionSource& source,
                                             const GeneratorOptions& options) {
  GeneratedModule result;
  result.replicas =
      source.Chance(options.collective_percent) ? source.Range(2, 4) : 1;
  std::vector<const OpGenerator*> allowed;
  for (const OpGenerator& generator : AllGenerators()) {
    if (generator.collective && result.replicas == 1) continue;
    if (Contains(options.banned, generator.name)) continue;
    if (!options.only.empty() && !Contains(options.only, generator.name)) {
      continue;
    }
    allowed.push_back(&generator);
  }
  if (allowed.empty()) {
    return absl::InvalidArgumentError("no op generator is allowed");
  }
  std::vector<const OpGenerator*> common;
  for (const OpGenerator* generator : allowed) {
    if (IsCommon(generator->name)) common.push_back(generator);
  }
  XlaBuilder builder("fuzz");
  Context context(source, options, &builder, result.replicas, 0);
  const int64_t steps = source.Range(1, std::max<int64_t>(1, options.max_ops));
  for (int64_t step = 0; step < steps; ++step) {
    const OpGenerator& generator = !common.empty() && source.Chance(33)
                                       ? *source.Pick(common)
                                       : *source.Pick(allowed);
    result.generators.push_back(generator.name);
    XlaOp op = generator.generate(context);
    if (!builder.ok()) {
      return absl::InternalError(
          absl::StrCat("generator '", generator.name,
                       "': ", builder.first_error().message()));
    }
    context.Add(op);
  }
  // The root: every result no later op used (so nothing built is dead).
  std::vector<XlaOp> leaves;
  for (XlaOp op : context.results()) {
    if (op.instruction()->user_count() == 0) leaves.push_back(op);
  }
  if (leaves.empty()) leaves.push_back(context.Any(kAnyClass));
  XlaOp root = leaves.size() == 1 ? leaves[0] : Tuple(&builder, leaves);
  absl::StatusOr<XlaComputation> built = builder.Build(root);
  if (!built.ok()) {
    return absl::InternalError(
        absl::StrCat("generator root: ", built.status().message()));
  }
  result.module = built->TakeModule();
  result.module->config().replica_count = result.replicas;
  return result;
}

absl::StatusOr<GeneratedModule> Generate(uint64_t seed,
                                         const GeneratorOptions& options) {
  GeneratorOptions attempt_options = options;
  std::vector<std::string> rejected;
  absl::Status last;
  for (int attempt = 0; attempt < 8; ++attempt) {
    SplitMix64Source source(seed);
    absl::StatusOr<GeneratedModule> generated =
        GenerateFrom(source, attempt_options);
    if (generated.ok()) {
      generated->rejected = rejected;
      std::vector<Shape> parameters;
      for (const Instruction* parameter :
           generated->module->entry()->parameters()) {
        parameters.push_back(parameter->shape());
      }
      SplitMix64Source values(seed ^ 0x5851f42d4c957f2dULL);
      absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
          RandomArguments(parameters, generated->replicas, values);
      if (!arguments.ok()) return arguments.status();
      generated->arguments = *std::move(arguments);
      return generated;
    }
    last = generated.status();
    // "generator 'NAME': ..." names the op to ban.
    const std::string message(last.message());
    const size_t open = message.find('\'');
    const size_t close = message.find('\'', open + 1);
    if (open == std::string::npos || close == std::string::npos) break;
    rejected.push_back(message);
    attempt_options.banned.push_back(
        message.substr(open + 1, close - open - 1));
  }
  return last;
}

}  // namespace kiln::fuzzgen
