// Module config checks: entry_computation_layout, input_output_alias and
// buffer_donor must refer to the entry's real parameters and result, and
// aliasing pairs each output buffer with one input buffer.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/computation.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

std::string IndexText(const std::vector<int64_t>& index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}

absl::Status ModuleError(const Module& module, absl::string_view message,
                         absl::string_view rule) {
  return MakeError(module.location(), module.name(), message, rule);
}

void CheckEntryLayout(const Module& module, const Computation& entry,
                      VerifyReport* report) {
  const ComputationLayout& layout = *module.config().entry_computation_layout;
  constexpr absl::string_view kRule = "config.entry_computation_layout";
  if (layout.parameters.size() != entry.parameters().size()) {
    report->errors.push_back(ModuleError(
        module,
        absl::StrCat("entry_computation_layout has ", layout.parameters.size(),
                     " parameters but entry computation ", entry.name(),
                     " has ", entry.parameters().size()),
        kRule));
    return;
  }
  for (size_t i = 0; i < layout.parameters.size(); ++i) {
    const Shape& declared = entry.parameters()[i]->shape();
    if (!layout.parameters[i].Compatible(declared)) {
      report->errors.push_back(
          ModuleError(module,
                      absl::StrCat("entry_computation_layout parameter ", i,
                                   " is ", layout.parameters[i].ToString(false),
                                   " but the entry parameter is ",
                                   declared.ToString(false)),
                      kRule));
    }
  }
  if (entry.root() != nullptr &&
      !layout.result.Compatible(entry.root()->shape())) {
    report->errors.push_back(ModuleError(
        module,
        absl::StrCat("entry_computation_layout result is ",
                     layout.result.ToString(false), " but the entry ROOT is ",
                     entry.root()->shape().ToString(false)),
        kRule));
  }
}

// The parameter subshape (number, index) of the entry, or nullptr after
// reporting why it does not exist.
const Shape* EntryParameterSubshape(const Module& module,
                                    const Computation& entry, int64_t number,
                                    const std::vector<int64_t>& index,
                                    absl::string_view rule,
                                    VerifyReport* report) {
  if (number < 0 || number >= static_cast<int64_t>(entry.parameters().size())) {
    report->errors.push_back(ModuleError(
        module,
        absl::StrCat(rule, " refers to parameter ", number,
                     " but the entry has ", entry.parameters().size()),
        absl::StrCat("config.", rule)));
    return nullptr;
  }
  const Shape& shape = entry.parameters()[number]->shape();
  const Shape* subshape = shape.Subshape(index);
  if (subshape == nullptr) {
    report->errors.push_back(ModuleError(
        module,
        absl::StrCat(rule, " refers to index ", IndexText(index),
                     " of parameter ", number, ", which does not exist in ",
                     shape.ToString(false)),
        absl::StrCat("config.", rule)));
  }
  return subshape;
}

void CheckAliases(const Module& module, const Computation& entry,
                  VerifyReport* report) {
  for (const InputOutputAlias& alias : module.config().input_output_alias) {
    const Shape* parameter = EntryParameterSubshape(
        module, entry, alias.parameter_number, alias.parameter_index,
        "input_output_alias", report);
    if (entry.root() == nullptr) continue;
    const Shape& result = entry.root()->shape();
    const Shape* output = result.Subshape(alias.output_index);
    if (output == nullptr) {
      report->errors.push_back(ModuleError(
          module,
          absl::StrCat(
              "input_output_alias output index ", IndexText(alias.output_index),
              " does not exist in the entry result ", result.ToString(false)),
          "config.input_output_alias"));
      continue;
    }
    if (parameter != nullptr && !parameter->Compatible(*output)) {
      report->errors.push_back(ModuleError(
          module,
          absl::StrCat(
              "input_output_alias output ", IndexText(alias.output_index),
              " is ", output->ToString(false), " but parameter ",
              alias.parameter_number, " at ", IndexText(alias.parameter_index),
              " is ", parameter->ToString(false)),
          "config.input_output_alias"));
    }
  }
  for (const BufferDonor& donor : module.config().buffer_donor) {
    EntryParameterSubshape(module, entry, donor.parameter_number,
                           donor.parameter_index, "buffer_donor", report);
  }
}

std::string ParameterBufferText(int64_t number,
                                const std::vector<int64_t>& index) {
  return absl::StrCat("parameter ", number, " at ", IndexText(index));
}

// True when both ends of `alias` exist (else CheckAliases reports it).
bool RefersToRealBuffers(const Computation& entry,
                         const InputOutputAlias& alias) {
  const int64_t number = alias.parameter_number;
  if (number < 0 || number >= static_cast<int64_t>(entry.parameters().size()) ||
      entry.root() == nullptr) {
    return false;
  }
  return entry.parameters()[number]->shape().Subshape(alias.parameter_index) !=
             nullptr &&
         entry.root()->shape().Subshape(alias.output_index) != nullptr;
}

// One output buffer has at most one input, one input buffer feeds at most
// one output, and a buffer that is aliased is not also merely donated (as
// XLA's alias and donor configs require).
void CheckAliasesAreOneToOne(const Module& module, const Computation& entry,
                             VerifyReport* report) {
  std::set<std::vector<int64_t>> outputs;
  std::set<std::pair<int64_t, std::vector<int64_t>>> inputs;
  for (const InputOutputAlias& alias : module.config().input_output_alias) {
    if (!RefersToRealBuffers(entry, alias)) continue;
    if (!outputs.insert(alias.output_index).second) {
      report->errors.push_back(ModuleError(
          module,
          absl::StrCat("input_output_alias output ",
                       IndexText(alias.output_index), " is aliased twice"),
          "config.input_output_alias"));
    }
    if (!inputs.insert({alias.parameter_number, alias.parameter_index})
             .second) {
      report->errors.push_back(
          ModuleError(module,
                      absl::StrCat("input_output_alias aliases ",
                                   ParameterBufferText(alias.parameter_number,
                                                       alias.parameter_index),
                                   " with more than one output"),
                      "config.input_output_alias"));
    }
  }
  for (const BufferDonor& donor : module.config().buffer_donor) {
    if (inputs.count({donor.parameter_number, donor.parameter_index}) == 0) {
      continue;
    }
    report->errors.push_back(ModuleError(
        module,
        absl::StrCat(
            "buffer_donor ",
            ParameterBufferText(donor.parameter_number, donor.parameter_index),
            " is also in input_output_alias"),
        "config.buffer_donor"));
  }
}

}  // namespace

void CheckModuleConfig(const Module& module, VerifyReport* report) {
  const Computation* entry = module.entry();
  if (entry == nullptr) return;  // CheckStructure reports it.
  if (module.config().entry_computation_layout.has_value()) {
    CheckEntryLayout(module, *entry, report);
  }
  CheckAliases(module, *entry, report);
  CheckAliasesAreOneToOne(module, *entry, report);
}

}  // namespace kiln::verifier_internal
