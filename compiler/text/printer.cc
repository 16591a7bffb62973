// Prints modules in XLA's HLO text format into one growing string.
#include "compiler/text/printer.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/literal_text.h"
#include "compiler/ops/op_schema.h"
#include "compiler/text/attr_text.h"
#include "compiler/text/generic_attrs.h"
#include "compiler/text/lexer.h"
#include "compiler/text/module_header_text.h"

namespace kiln {
namespace {

void AppendName(absl::string_view name, const PrintOptions& options,
                std::string* out) {
  if (options.print_percent) out->push_back('%');
  out->append(name.data(), name.size());
}

// True if `value` is one complete token as the parser keeps frontend
// attribute values: a "..." string (quotes and escapes as written) or a
// {...} group. Such values print verbatim, as XLA prints them; any other
// value (e.g. one set by code) is quoted and escaped.
bool IsVerbatimValue(absl::string_view value) {
  if (value.empty() || (value.front() != '{' && value.front() != '"')) {
    return false;
  }
  Lexer lexer(value);
  absl::StatusOr<absl::string_view> token = value.front() == '{'
                                                ? lexer.LexRawValue(1 << 20)
                                                : lexer.LexQuotedString();
  return token.ok() && lexer.AtEnd();
}

void AppendFrontendAttributes(
    const std::vector<std::pair<std::string, std::string>>& attributes,
    std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const auto& [key, value] : attributes) {
    if (!first) out->push_back(',');
    first = false;
    absl::StrAppend(out, key, "=");
    if (IsVerbatimValue(value)) {
      out->append(value);
    } else {
      absl::StrAppend(out, "\"", absl::Utf8SafeCEscape(value), "\"");
    }
  }
  out->push_back('}');
}

void AppendShapeIndex(const std::vector<int64_t>& index, std::string* out) {
  absl::StrAppend(out, "{", absl::StrJoin(index, ","), "}");
}

// Shape texts of the instructions printed so far: every operand's shape is
// printed again at each use, so it is rendered once.
class ShapeTexts {
 public:
  const std::string& Of(const Instruction& instruction) {
    auto [it, inserted] = texts_.try_emplace(&instruction);
    if (inserted) it->second = instruction.shape().ToString(true);
    return it->second;
  }

 private:
  absl::flat_hash_map<const Instruction*, std::string> texts_;
};

void AppendOperands(const Instruction& instruction, const PrintOptions& options,
                    ShapeTexts* shapes, std::string* out) {
  const std::vector<Instruction*>& operands = instruction.operands();
  for (size_t i = 0; i < operands.size(); ++i) {
    if (i > 0) {
      const int64_t interval = options.operand_index_interval;
      if (interval > 0 && i % interval == 0) {
        absl::StrAppend(out, ", /*index=", i, "*/");
      } else {
        out->append(", ");
      }
    }
    if (options.print_operand_shapes) {
      absl::StrAppend(out, shapes->Of(*operands[i]), " ");
    }
    AppendName(operands[i]->name(), options, out);
  }
}

// XLA leaves `calls` off async-update/async-done: it is the computation of
// the async-start their operand leads to, and the parser infers it so.
bool IsImpliedAsyncCalls(const Instruction& instruction,
                         absl::string_view attribute, const AttrValue& value) {
  if (attribute != "calls" || instruction.operand_count() < 1 ||
      (instruction.opcode() != Opcode::kAsyncUpdate &&
       instruction.opcode() != Opcode::kAsyncDone)) {
    return false;
  }
  const Instruction& previous = *instruction.operand(0);
  if (previous.opcode() != Opcode::kAsyncStart &&
      previous.opcode() != Opcode::kAsyncUpdate) {
    return false;
  }
  const AttrValue* previous_calls = previous.attrs().Find(attr::kCalls);
  return previous_calls != nullptr && *previous_calls == value;
}

// Computation references honour print_percent; PrintAttrValue always
// writes the '%'.
bool AppendComputationRefs(const AttrValue& value, const PrintOptions& options,
                           std::string* out) {
  if (options.print_percent) return false;
  if (const auto* single = std::get_if<Computation*>(&value)) {
    if (*single == nullptr) return false;
    out->append((*single)->name());
    return true;
  }
  const auto* list = std::get_if<ComputationList>(&value);
  if (list == nullptr) return false;
  out->push_back('{');
  for (size_t i = 0; i < list->size(); ++i) {
    if (i > 0) out->append(", ");
    if ((*list)[i] != nullptr) out->append((*list)[i]->name());
  }
  out->push_back('}');
  return true;
}

void AppendSchemaAttributes(const Instruction& instruction,
                            const PrintOptions& options, std::string* out) {
  const OpSchema& schema = GetOpSchema(instruction.opcode());
  for (const AttrSpec& spec : schema.attrs) {
    const AttrValue* value = instruction.attrs().Find(spec.name);
    if (value == nullptr) continue;
    if (IsImpliedAsyncCalls(instruction, spec.name, *value)) continue;
    if (text_internal::IsDefaultComparisonType(instruction, spec.name,
                                               *value)) {
      continue;
    }
    absl::StrAppend(out, ", ", spec.name, "=");
    if (!AppendComputationRefs(*value, options, out)) {
      PrintAttrValue(spec, *value, out);
    }
  }
}

void AppendGenericAttributes(const Instruction& instruction,
                             const PrintOptions& options, std::string* out) {
  for (absl::string_view name : text_internal::GenericAttributeOrder()) {
    if (name == "frontend_attributes") {
      if (instruction.frontend_attributes.empty()) continue;
      out->append(", frontend_attributes=");
      AppendFrontendAttributes(instruction.frontend_attributes, out);
      continue;
    }
    if (name == "control-predecessors") {
      const auto& predecessors = instruction.control_predecessors();
      if (predecessors.empty()) continue;
      out->append(", control-predecessors={");
      for (size_t i = 0; i < predecessors.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendName(predecessors[i]->name(), options, out);
      }
      out->push_back('}');
      continue;
    }
    if (name == "metadata" && !options.print_metadata) continue;
    const std::optional<RawText>* field =
        text_internal::RawGenericField(instruction, name);
    if (field == nullptr || !field->has_value()) continue;
    absl::StrAppend(out, ", ", name, "=", (*field)->text);
  }
}

void AppendInstruction(const Instruction& instruction,
                       const PrintOptions& options, ShapeTexts* shapes,
                       std::string* out) {
  AppendName(instruction.name(), options, out);
  absl::StrAppend(out, " = ", shapes->Of(instruction), " ",
                  OpcodeName(instruction.opcode()), "(");
  if (instruction.opcode() == Opcode::kConstant) {
    if (instruction.has_literal()) {
      LiteralPrintOptions literal_options;
      literal_options.elide_above = options.elide_literals_above;
      literal_options.float_style = options.float_style;
      out->append(LiteralValueToString(instruction.literal(), literal_options));
    }
  } else if (instruction.opcode() == Opcode::kParameter) {
    absl::StrAppend(out, instruction.parameter_number());
  } else {
    AppendOperands(instruction, options, shapes, out);
  }
  out->push_back(')');
  AppendSchemaAttributes(instruction, options, out);
  AppendGenericAttributes(instruction, options, out);
}

// " (p0: f32[2], p1: s32[]) -> f32[2]": parameters in number order, shapes
// without layouts, as XLA prints a program shape.
void AppendSignature(const Computation& computation, std::string* out) {
  out->append(" (");
  const std::vector<Instruction*>& parameters = computation.parameters();
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (i > 0) out->append(", ");
    if (parameters[i] == nullptr) continue;  // A hole the verifier reports.
    absl::StrAppend(out, parameters[i]->name(), ": ",
                    parameters[i]->shape().ToString(false));
  }
  out->append(") -> ");
  if (computation.root() != nullptr) {
    out->append(computation.root()->shape().ToString(false));
  }
}

void AppendComputation(const Computation& computation,
                       const PrintOptions& options, std::string* out) {
  AppendName(computation.name(), options, out);
  if (options.print_computation_signatures) AppendSignature(computation, out);
  out->append(" {\n");
  ShapeTexts shapes;
  for (const Instruction* instruction : computation.instructions()) {
    out->append(instruction == computation.root() ? "  ROOT " : "  ");
    AppendInstruction(*instruction, options, &shapes, out);
    out->push_back('\n');
  }
  out->push_back('}');
  if (computation.execution_thread() != "main") {
    absl::StrAppend(out, ", execution_thread=\"",
                    absl::Utf8SafeCEscape(computation.execution_thread()),
                    "\"");
  }
}

void AppendExtraAttributes(const ModuleConfig& config, bool before_layout,
                           std::string* out) {
  for (const auto& [name, value] : config.extra_attributes) {
    if (name == kStackFrameTablesKey) continue;
    if ((name == "alias_passthrough_params") != before_layout) continue;
    absl::StrAppend(out, ", ", name, "=", value.text);
  }
}

void AppendModuleHeader(const Module& module, std::string* out) {
  const ModuleConfig& config = module.config();
  absl::StrAppend(out, "HloModule ", module.name());
  if (config.is_scheduled) out->append(", is_scheduled=true");
  if (!config.input_output_alias.empty()) {
    out->append(", input_output_alias={ ");
    for (size_t i = 0; i < config.input_output_alias.size(); ++i) {
      const InputOutputAlias& alias = config.input_output_alias[i];
      if (i > 0) out->append(", ");
      AppendShapeIndex(alias.output_index, out);
      absl::StrAppend(out, ": (", alias.parameter_number, ", ");
      AppendShapeIndex(alias.parameter_index, out);
      out->append(alias.must_alias ? ", must-alias)" : ", may-alias)");
    }
    out->append(" }");
  }
  if (!config.buffer_donor.empty()) {
    out->append(", buffer_donor={ ");
    for (size_t i = 0; i < config.buffer_donor.size(); ++i) {
      const BufferDonor& donor = config.buffer_donor[i];
      if (i > 0) out->append(", ");
      absl::StrAppend(out, "(", donor.parameter_number, ", ");
      AppendShapeIndex(donor.parameter_index, out);
      out->push_back(')');
    }
    out->append(" }");
  }
  AppendExtraAttributes(config, /*before_layout=*/true, out);
  if (config.entry_computation_layout.has_value()) {
    const ComputationLayout& layout = *config.entry_computation_layout;
    out->append(", entry_computation_layout={(");
    for (size_t i = 0; i < layout.parameters.size(); ++i) {
      if (i > 0) out->append(", ");
      // Numbered like tuple elements and operands, as XLA prints it.
      if (i > 0 && i % 5 == 0) absl::StrAppend(out, "/*index=", i, "*/");
      out->append(layout.parameters[i].ToString(true));
    }
    absl::StrAppend(out, ")->", layout.result.ToString(true), "}");
  }
  AppendExtraAttributes(config, /*before_layout=*/false, out);
  if (config.replica_count != 1) {
    absl::StrAppend(out, ", replica_count=", config.replica_count);
  }
  if (config.num_partitions != 1) {
    absl::StrAppend(out, ", num_partitions=", config.num_partitions);
  }
  if (!config.frontend_attributes.empty()) {
    out->append(", frontend_attributes=");
    AppendFrontendAttributes(config.frontend_attributes, out);
  }
  out->append("\n\n");
  // XLA ends the stack frame tables with two blank lines.
  for (const auto& [name, value] : config.extra_attributes) {
    if (name == kStackFrameTablesKey) {
      absl::StrAppend(out, value.text, "\n\n\n");
    }
  }
}

}  // namespace

PrintOptions ShortParsablePrintOptions() {
  PrintOptions options;
  options.print_operand_shapes = false;
  options.print_percent = false;
  options.print_computation_signatures = false;
  options.operand_index_interval = 0;
  return options;
}

std::string PrintModule(const Module& module, const PrintOptions& options) {
  std::string out;
  // XLA text averages well under 128 bytes per instruction; reserving
  // avoids most regrowth copies of a large module's text.
  int64_t instructions = 0;
  for (const Computation* computation : module.computations()) {
    instructions += computation->instruction_count();
  }
  out.reserve(static_cast<size_t>(instructions) * 128);
  AppendModuleHeader(module, &out);
  absl::StatusOr<std::vector<Computation*>> post_order =
      module.PostOrderComputations();
  const std::vector<Computation*> computations =
      post_order.ok() ? *std::move(post_order) : module.computations();
  for (const Computation* computation : computations) {
    if (computation == module.entry()) out.append("ENTRY ");
    AppendComputation(*computation, options, &out);
    out.append("\n\n");
  }
  return out;
}

std::string PrintComputation(const Computation& computation,
                             const PrintOptions& options) {
  std::string out;
  AppendComputation(computation, options, &out);
  return out;
}

std::string PrintInstruction(const Instruction& instruction,
                             const PrintOptions& options) {
  std::string out;
  ShapeTexts shapes;
  AppendInstruction(instruction, options, &shapes, &out);
  return out;
}

}  // namespace kiln
