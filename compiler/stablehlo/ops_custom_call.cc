// custom-call -> stablehlo.custom_call: the target, side effect, backend
// config, API version, called computations (as private functions) and
// output/operand aliases carry over; tuple operands stay whole and a tuple
// result becomes one result per element. The convolution-like attributes
// XLA's own custom calls may carry (window, dim_labels) have no place in
// stablehlo.custom_call and are refused.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

// XLA's CustomCallApiVersion numbers, by the spelling's position.
int ApiVersion(const Instruction& i) {
  const EnumValue* version = i.attrs().Get<EnumValue>(attr::kApiVersion);
  if (version == nullptr) return 1;
  static const char* const kNames[] = {
      "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
      "API_VERSION_STATUS_RETURNING", "API_VERSION_STATUS_RETURNING_UNIFIED",
      "API_VERSION_TYPED_FFI"};
  for (int k = 0; k < 5; ++k) {
    if (version->spelling == kNames[k]) return k;
  }
  return 1;
}

// The text of a quoted HLO string attribute, unescaped (C escapes).
std::string Unquote(const std::string& text) {
  if (text.size() < 2 || text.front() != '"') return text;
  std::string out;
  for (size_t k = 1; k + 1 < text.size(); ++k) {
    if (text[k] == '\\' && k + 2 < text.size()) {
      char c = text[++k];
      out.push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c);
    } else {
      out.push_back(text[k]);
    }
  }
  return out;
}

absl::StatusOr<std::string> BackendConfig(const Instruction& i,
                                          int api_version) {
  std::string config =
      i.backend_config.has_value() ? Unquote(i.backend_config->text) : "";
  if (api_version != 4) {
    return absl::StrCat("backend_config = ", StringLiteral(config));
  }
  if (config.empty()) return std::string("backend_config = {}");
  if (config.front() != '{') {
    return NoForm(
        "a typed-FFI custom call's backend_config must be an MLIR "
        "dictionary attribute");
  }
  return absl::StrCat("backend_config = ", config);
}

std::string Aliases(const OutputOperandAliasing& aliasing) {
  std::vector<std::string> parts;
  for (const OutputOperandAlias& a : aliasing.aliases) {
    parts.push_back(absl::StrCat(
        "#stablehlo.output_operand_alias<output_tuple_indices = ",
        I64List(a.output_index), ", operand_index = ", a.operand,
        ", operand_tuple_indices = ", I64List(a.operand_index), ">"));
  }
  return absl::StrCat("output_operand_aliases = [", absl::StrJoin(parts, ", "),
                      "]");
}

absl::StatusOr<std::string> CustomCallAttrs(FunctionEmitter& e,
                                            const Instruction& i) {
  const std::string* target =
      i.attrs().Get<std::string>(attr::kCustomCallTarget);
  if (target == nullptr) return NoForm("custom-call without a target");
  int version = ApiVersion(i);
  absl::StatusOr<std::string> config = BackendConfig(i, version);
  if (!config.ok()) return config.status();
  const bool* side_effect = i.attrs().Get<bool>(attr::kCustomCallHasSideEffect);
  std::vector<std::string> attrs = {
      absl::StrCat("call_target_name = ", StringLiteral(*target)),
      absl::StrCat("has_side_effect = ",
                   side_effect && *side_effect ? "true" : "false"),
      *std::move(config), absl::StrCat("api_version = ", version, " : i32")};
  std::vector<std::string> callees;
  if (const auto* list =
          i.attrs().Get<ComputationList>(attr::kCalledComputations)) {
    for (const Computation* c : *list) {
      callees.push_back(e.symbols().FunctionSymbol(c));
    }
  }
  if (Computation* const* c = i.attrs().Get<Computation*>(attr::kToApply)) {
    callees.push_back(e.symbols().FunctionSymbol(*c));
  }
  if (!callees.empty()) {
    attrs.push_back(absl::StrCat("called_computations = [",
                                 absl::StrJoin(callees, ", "), "]"));
  }
  if (const auto* aliasing = i.attrs().Get<OutputOperandAliasing>(
          attr::kOutputToOperandAliasing)) {
    attrs.push_back(Aliases(*aliasing));
  }
  return absl::StrJoin(attrs, ", ");
}

absl::StatusOr<Value> EmitCustomCall(FunctionEmitter& e, const Instruction& i) {
  for (absl::string_view refused :
       {attr::kWindow, attr::kDimLabels, attr::kLiteral}) {
    if (i.attrs().Has(refused)) {
      return NoForm(
          absl::StrCat("stablehlo.custom_call has no ", refused, " attribute"));
    }
  }
  absl::StatusOr<std::string> attrs = CustomCallAttrs(e, i);
  if (!attrs.ok()) return attrs.status();
  Op op{"stablehlo.custom_call", {}, *std::move(attrs), {}, {}};
  for (int64_t k = 0; k < i.operand_count(); ++k) {
    absl::StatusOr<Value> whole = e.Whole(e.Operand(i, k));
    if (!whole.ok()) return whole.status();
    op.operands.push_back(*std::move(whole));
  }
  op.results = i.shape().IsTuple() ? i.shape().tuple_shapes()
                                   : std::vector<Shape>{i.shape()};
  absl::StatusOr<std::vector<Value>> results = e.Emit(op, i.name());
  if (!results.ok()) return results.status();
  if (!i.shape().IsTuple()) return (*results)[0];
  return KnownTuple(*std::move(results));
}

}  // namespace

void AddCustomCallHandler(HandlerTable* table) {
  (*table)[Opcode::kCustomCall] = &EmitCustomCall;
}

}  // namespace kiln::stablehlo
