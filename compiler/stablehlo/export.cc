#include "compiler/stablehlo/export.h"

#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/stablehlo/emitter.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"
#include "passes/broadcast_legalization.h"

namespace kiln::stablehlo {

Handler FindHandler(Opcode opcode) {
  static const HandlerTable* const table = [] {
    auto* t = new HandlerTable();
    AddElementwiseHandlers(t);
    AddDataHandlers(t);
    AddComputeHandlers(t);
    AddControlHandlers(t);
    AddCollectiveHandlers(t);
    AddScanHandler(t);
    return t;
  }();
  auto it = table->find(opcode);
  return it == table->end() ? nullptr : it->second;
}

namespace {

// "@name", quoted when it is not a bare MLIR identifier.
std::string SymbolText(const std::string& name) {
  bool bare = !name.empty() && (absl::ascii_isalpha(name[0]) || name[0] == '_');
  for (char c : name) {
    bare &= absl::ascii_isalnum(c) || c == '_' || c == '$' || c == '.';
  }
  return bare ? absl::StrCat("@", name)
              : absl::StrCat("@", StringLiteral(name));
}

// Whether `layout` is the default (major-to-minor) one.
bool IsDefaultLayout(const Shape& shape) {
  if (!shape.IsArray() || !shape.has_layout()) return true;
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major();
  for (size_t i = 0; i < m2m.size(); ++i) {
    if (m2m[i] != static_cast<int64_t>(m2m.size() - 1 - i)) return false;
  }
  return true;
}

// The attribute dictionary of one entry argument or result: the layout
// when it is not the default, and the alias.
std::string LeafAttrs(const Shape* layout_shape, int64_t alias_output) {
  std::vector<std::string> attrs;
  if (layout_shape != nullptr && !IsDefaultLayout(*layout_shape)) {
    attrs.push_back(absl::StrCat(
        "mhlo.layout_mode = \"{",
        absl::StrJoin(layout_shape->layout().minor_to_major(), ","), "}\""));
  }
  if (alias_output >= 0) {
    attrs.push_back(
        absl::StrCat("tf.aliasing_output = ", alias_output, " : i32"));
  }
  if (attrs.empty()) return "";
  return absl::StrCat(" {", absl::StrJoin(attrs, ", "), "}");
}

// The index among the leaves of `shape` of the leaf at `path`, or -1.
int64_t LeafIndex(const Shape& shape, const std::vector<int64_t>& path) {
  int64_t index = 0;
  const Shape* current = &shape;
  for (int64_t step : path) {
    if (!current->IsTuple() || step >= current->tuple_size()) return -1;
    for (int64_t k = 0; k < step; ++k) {
      index += LeafShapes(current->tuple_shape(k)).size();
    }
    current = &current->tuple_shape(step);
  }
  return current->IsTuple() ? -1 : index;
}

class Exporter : public SymbolTable {
 public:
  explicit Exporter(const Module& module) : module_(module) {
    used_symbols_.insert("main");
  }

  std::string FunctionSymbol(const Computation* computation) override {
    auto it = symbols_.find(computation);
    if (it != symbols_.end()) return it->second;
    std::string name = computation->name();
    for (int n = 1; used_symbols_.contains(name); ++n) {
      name = absl::StrCat(computation->name(), ".", n);
    }
    used_symbols_.insert(name);
    std::string symbol = SymbolText(name);
    symbols_[computation] = symbol;
    pending_.push_back(computation);
    return symbol;
  }

  absl::StatusOr<std::string> Run() {
    const ModuleConfig& config = module_.config();
    std::string text = absl::StrCat(
        "module ", SymbolText(module_.name()),
        " attributes {mhlo.num_partitions = ", config.num_partitions,
        " : i32, mhlo.num_replicas = ", config.replica_count, " : i32} {\n");
    absl::Status status = Function(*module_.entry(), "@main", true, &text);
    while (status.ok() && !pending_.empty()) {
      const Computation* next = pending_.front();
      pending_.pop_front();
      std::string symbol = symbols_.at(next);  // Function adds symbols.
      status = Function(*next, symbol, false, &text);
    }
    if (!status.ok()) return status;
    absl::StrAppend(&text, "}\n");
    return text;
  }

 private:
  // The entry's per-leaf argument attributes (layouts and aliases).
  std::vector<std::string> ArgumentAttrs(const Computation& entry) const;
  std::vector<std::string> ResultAttrs(const Shape& result) const;

  absl::Status Function(const Computation& computation,
                        const std::string& symbol, bool entry,
                        std::string* text);

  const Module& module_;
  absl::flat_hash_map<const Computation*, std::string> symbols_;
  absl::flat_hash_set<std::string> used_symbols_;
  std::deque<const Computation*> pending_;
};

std::vector<std::string> Exporter::ArgumentAttrs(
    const Computation& entry) const {
  const ModuleConfig& config = module_.config();
  std::vector<std::string> attrs;
  for (const Instruction* parameter : entry.parameters()) {
    int64_t number = parameter->parameter_number();
    const Shape* layout = nullptr;
    if (config.entry_computation_layout.has_value() &&
        number < static_cast<int64_t>(
                     config.entry_computation_layout->parameters.size())) {
      layout = &config.entry_computation_layout->parameters[number];
    }
    std::vector<Shape> leaves =
        LeafShapes(layout ? *layout : parameter->shape());
    for (size_t k = 0; k < leaves.size(); ++k) {
      int64_t alias = -1;
      for (const InputOutputAlias& a : config.input_output_alias) {
        if (a.parameter_number == number &&
            LeafIndex(parameter->shape(), a.parameter_index) ==
                static_cast<int64_t>(k)) {
          alias = LeafIndex(entry.root()->shape(), a.output_index);
        }
      }
      attrs.push_back(LeafAttrs(layout ? &leaves[k] : nullptr, alias));
    }
  }
  return attrs;
}

std::vector<std::string> Exporter::ResultAttrs(const Shape& result) const {
  const ModuleConfig& config = module_.config();
  std::vector<Shape> leaves =
      LeafShapes(config.entry_computation_layout.has_value()
                     ? config.entry_computation_layout->result
                     : result);
  std::vector<std::string> attrs;
  for (const Shape& leaf : leaves) {
    attrs.push_back(config.entry_computation_layout.has_value()
                        ? LeafAttrs(&leaf, -1)
                        : "");
  }
  return attrs;
}

absl::Status Exporter::Function(const Computation& computation,
                                const std::string& symbol, bool entry,
                                std::string* text) {
  std::string body;
  FunctionEmitter emitter(this, &body, 2);
  std::vector<Value> params, leaves;
  absl::Status status = emitter.BindParameters(computation, &params, &leaves);
  if (!status.ok()) return status;
  absl::StatusOr<Value> root = emitter.EmitBody(computation, params);
  if (!root.ok()) return root.status();
  status = emitter.Return(*root, "func.return");
  if (!status.ok()) return status;
  std::vector<std::string> arg_attrs, result_attrs;
  std::vector<Shape> results = LeafShapes(computation.root()->shape());
  if (entry) {
    arg_attrs = ArgumentAttrs(computation);
    result_attrs = ResultAttrs(computation.root()->shape());
  }
  arg_attrs.resize(leaves.size());
  result_attrs.resize(results.size());
  std::vector<std::string> args, result_types;
  for (size_t i = 0; i < leaves.size(); ++i) {
    args.push_back(
        absl::StrCat(leaves[i].ssa, ": ", leaves[i].type, arg_attrs[i]));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    absl::StatusOr<std::string> type = TypeString(results[i]);
    if (!type.ok()) return type.status();
    result_types.push_back(absl::StrCat(*type, result_attrs[i]));
  }
  absl::StrAppend(text, "  func.func ", entry ? "" : "private ", symbol, "(",
                  absl::StrJoin(args, ", "), ") -> (",
                  absl::StrJoin(result_types, ", "), ") {\n", body, "  }\n");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ExportModule(const Module& module) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError(
        "stablehlo export: the module has no entry computation");
  }
  std::unique_ptr<Module> copy = module.Clone();
  BroadcastLegalizationPass legalization;
  absl::StatusOr<bool> changed = legalization.Run(*copy);
  if (!changed.ok()) return changed.status();
  return Exporter(*copy).Run();
}

}  // namespace kiln::stablehlo
