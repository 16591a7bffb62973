#include "compiler/stablehlo/emitter.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/opcode.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

constexpr absl::string_view kMarker = "stablehlo export: ";

// HLO names are MLIR suffix-ids already, except for characters outside
// [A-Za-z0-9$._-], which become '_'.
std::string SanitizeName(absl::string_view name) {
  std::string out;
  for (char c : name) {
    bool ok =
        absl::ascii_isalnum(c) || c == '$' || c == '.' || c == '_' || c == '-';
    out.push_back(ok ? c : '_');
  }
  if (out.empty()) out = "v";
  return out;
}

// A tuple value of `elements` (for Return).
Value KnownTupleOf(const std::vector<Value>& elements) {
  Value value;
  std::vector<Shape> shapes;
  for (const Value& element : elements) shapes.push_back(element.shape);
  value.shape = Shape::Tuple(std::move(shapes));
  value.elements = elements;
  return value;
}

std::string Types(const std::vector<Value>& values) {
  std::vector<std::string> types;
  for (const Value& value : values) types.push_back(value.type);
  return absl::StrJoin(types, ", ");
}

// An error from emitting `instruction` that does not name it yet.
absl::Status Annotate(const Instruction& instruction,
                      const absl::Status& status) {
  if (absl::StrContains(status.message(), kMarker)) return status;
  return FunctionEmitter::Refuse(instruction, status.message());
}

}  // namespace

FunctionEmitter::FunctionEmitter(SymbolTable* symbols, std::string* out,
                                 int indent)
    : symbols_(symbols), out_(out), indent_(indent) {}

absl::Status FunctionEmitter::Refuse(const Instruction& instruction,
                                     absl::string_view reason) {
  std::string where = instruction.location.ToString();
  return absl::InvalidArgumentError(
      absl::StrCat(where.empty() ? "" : absl::StrCat(where, ": error: "),
                   kMarker, "%", instruction.name(), " (",
                   OpcodeName(instruction.opcode()), "): ", reason));
}

std::string FunctionEmitter::Fresh(absl::string_view hint) {
  std::string base = SanitizeName(hint);
  std::string name = base;
  while (names_.contains(name)) {
    name = absl::StrCat(base, "_", next_suffix_[base]++);
  }
  names_.insert(name);
  return absl::StrCat("%", name);
}

absl::StatusOr<Value> FunctionEmitter::Leaf(std::string ssa,
                                            const Shape& shape) {
  absl::StatusOr<std::string> type = TypeString(shape);
  if (!type.ok()) return type.status();
  Value value;
  value.ssa = std::move(ssa);
  value.type = *std::move(type);
  value.shape = shape;
  return value;
}

Value FunctionEmitter::Pack(const Shape& shape,
                            const std::vector<Value>& leaves, size_t* next) {
  if (!shape.IsTuple()) return leaves[(*next)++];
  Value value;
  value.shape = shape;
  for (const Shape& element : shape.tuple_shapes()) {
    value.elements.push_back(Pack(element, leaves, next));
  }
  return value;
}

const Value& FunctionEmitter::Operand(const Instruction& instruction,
                                      int64_t i) const {
  return values_.at(instruction.operand(i));
}

absl::StatusOr<std::vector<Value>> FunctionEmitter::Leaves(const Value& value) {
  if (value.is_leaf() && !value.shape.IsTuple()) return std::vector{value};
  std::vector<Value> leaves;
  for (int64_t i = 0; i < value.shape.tuple_size(); ++i) {
    Value element;
    if (value.is_leaf()) {
      Op op{"stablehlo.get_tuple_element",
            {value},
            absl::StrCat("index = ", i, " : i32"),
            {},
            {value.shape.tuple_shape(i)}};
      absl::StatusOr<std::vector<Value>> got = Emit(op, "gte");
      if (!got.ok()) return got.status();
      element = (*got)[0];
    } else {
      element = value.elements[i];
    }
    absl::StatusOr<std::vector<Value>> more = Leaves(element);
    if (!more.ok()) return more.status();
    leaves.insert(leaves.end(), more->begin(), more->end());
  }
  return leaves;
}

absl::StatusOr<std::vector<Value>> FunctionEmitter::OperandLeaves(
    const Instruction& instruction) {
  std::vector<Value> leaves;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    absl::StatusOr<std::vector<Value>> more = Leaves(Operand(instruction, i));
    if (!more.ok()) return more.status();
    leaves.insert(leaves.end(), more->begin(), more->end());
  }
  return leaves;
}

absl::StatusOr<Value> FunctionEmitter::Whole(const Value& value) {
  if (value.is_leaf()) return value;
  std::vector<Value> elements;
  for (const Value& element : value.elements) {
    absl::StatusOr<Value> whole = Whole(element);
    if (!whole.ok()) return whole.status();
    elements.push_back(*std::move(whole));
  }
  Op op{"stablehlo.tuple", elements, "", {}, {value.shape}};
  absl::StatusOr<std::vector<Value>> got = Emit(op, "tuple");
  if (!got.ok()) return got.status();
  return (*got)[0];
}

absl::StatusOr<std::vector<Value>> FunctionEmitter::Emit(
    const Op& op, absl::string_view hint) {
  std::vector<Value> results;
  std::string name = op.results.empty() ? "" : Fresh(hint);
  std::vector<std::string> result_types;
  for (size_t i = 0; i < op.results.size(); ++i) {
    std::string ssa =
        op.results.size() == 1 ? name : absl::StrCat(name, "#", i);
    absl::StatusOr<Value> leaf = Leaf(std::move(ssa), op.results[i]);
    if (!leaf.ok()) return leaf.status();
    result_types.push_back(leaf->type);
    results.push_back(*std::move(leaf));
  }
  std::string line = Indent();
  if (results.size() == 1) absl::StrAppend(&line, name, " = ");
  if (results.size() > 1) {
    absl::StrAppend(&line, name, ":", results.size(), " = ");
  }
  std::vector<std::string> operands;
  for (const Value& operand : op.operands) operands.push_back(operand.ssa);
  absl::StrAppend(&line, "\"", op.name, "\"(", absl::StrJoin(operands, ", "),
                  ")");
  if (!op.regions.empty()) {
    absl::StrAppend(&line, " (", absl::StrJoin(op.regions, ", "), ")");
  }
  if (!op.attrs.empty()) absl::StrAppend(&line, " {", op.attrs, "}");
  std::string results_text = absl::StrJoin(result_types, ", ");
  if (result_types.size() != 1) results_text = "(" + results_text + ")";
  // The name location carries the HLO name through XLA's import, so that
  // a PJRT plugin's messages name the instruction.
  absl::StrAppend(&line, " : (", Types(op.operands), ") -> ", results_text,
                  " loc(", StringLiteral(hint), ")\n");
  absl::StrAppend(out_, line);
  return results;
}

absl::StatusOr<Value> FunctionEmitter::EmitAs(const Op& op, const Shape& shape,
                                              absl::string_view hint) {
  absl::StatusOr<std::vector<Value>> results = Emit(op, hint);
  if (!results.ok()) return results.status();
  size_t next = 0;
  return Pack(shape, *results, &next);
}

absl::Status FunctionEmitter::BindParameters(const Computation& computation,
                                             std::vector<Value>* params,
                                             std::vector<Value>* leaves) {
  for (const Instruction* parameter : computation.parameters()) {
    std::vector<Value> mine;
    std::vector<Shape> shapes = LeafShapes(parameter->shape());
    for (size_t i = 0; i < shapes.size(); ++i) {
      absl::StatusOr<Value> leaf = Leaf(Fresh(parameter->name()), shapes[i]);
      if (!leaf.ok()) return Annotate(*parameter, leaf.status());
      mine.push_back(*leaf);
      leaves->push_back(*std::move(leaf));
    }
    size_t next = 0;
    params->push_back(Pack(parameter->shape(), mine, &next));
  }
  return absl::OkStatus();
}

absl::Status FunctionEmitter::Return(const Value& root,
                                     absl::string_view terminator) {
  absl::StatusOr<std::vector<Value>> leaves = Leaves(root);
  if (!leaves.ok()) return leaves.status();
  std::vector<std::string> names;
  for (const Value& leaf : *leaves) names.push_back(leaf.ssa);
  absl::StrAppend(out_, Indent(), "\"", terminator, "\"(",
                  absl::StrJoin(names, ", "), ") : (", Types(*leaves),
                  ") -> ()\n");
  return absl::OkStatus();
}

absl::StatusOr<std::string> FunctionEmitter::Nested(
    const Computation& computation, const std::vector<Value>& params,
    absl::string_view block_header) {
  std::string text = "{\n";
  if (!block_header.empty()) {
    absl::StrAppend(&text, Indent(), block_header, "\n");
  }
  std::string* saved = out_;
  out_ = &text;
  ++indent_;
  absl::StatusOr<Value> root = EmitBody(computation, params);
  absl::Status status =
      root.ok() ? Return(*root, "stablehlo.return") : root.status();
  --indent_;
  out_ = saved;
  if (!status.ok()) return status;
  absl::StrAppend(&text, Indent(), "}");
  return text;
}

absl::StatusOr<std::string> FunctionEmitter::Region(
    const Computation& computation, const std::vector<Shape>& extra) {
  std::vector<Value> params, leaves;
  absl::Status bound = BindParameters(computation, &params, &leaves);
  if (!bound.ok()) return bound;
  for (const Shape& shape : extra) {
    absl::StatusOr<Value> leaf = Leaf(Fresh("unused"), shape);
    if (!leaf.ok()) return leaf.status();
    leaves.push_back(*std::move(leaf));
  }
  std::vector<std::string> args;
  for (const Value& leaf : leaves) {
    args.push_back(absl::StrCat(leaf.ssa, ": ", leaf.type));
  }
  return Nested(computation, params,
                absl::StrCat("^bb0(", absl::StrJoin(args, ", "), "):"));
}

absl::StatusOr<std::string> FunctionEmitter::BuiltRegion(
    const std::vector<Shape>& arg_shapes,
    const std::function<absl::StatusOr<std::vector<Value>>(
        const std::vector<Value>& args)>& body) {
  std::vector<Value> args;
  std::vector<std::string> header;
  for (const Shape& shape : arg_shapes) {
    absl::StatusOr<Value> arg = Leaf(Fresh("arg"), shape);
    if (!arg.ok()) return arg.status();
    header.push_back(absl::StrCat(arg->ssa, ": ", arg->type));
    args.push_back(*std::move(arg));
  }
  std::string text = absl::StrCat("{\n", Indent(), "^bb0(",
                                  absl::StrJoin(header, ", "), "):\n");
  std::string* saved = out_;
  out_ = &text;
  ++indent_;
  absl::StatusOr<std::vector<Value>> results = body(args);
  absl::Status status = results.ok()
                            ? Return(KnownTupleOf(*results), "stablehlo.return")
                            : results.status();
  --indent_;
  out_ = saved;
  if (!status.ok()) return status;
  absl::StrAppend(&text, Indent(), "}");
  return text;
}

absl::StatusOr<std::string> FunctionEmitter::CapturingRegion(
    const Computation& computation, const std::vector<Value>& params) {
  return Nested(computation, params, "");
}

absl::StatusOr<Value> FunctionEmitter::EmitBody(
    const Computation& computation, const std::vector<Value>& params) {
  for (size_t i = 0; i < params.size(); ++i) {
    values_[computation.parameter(i)] = params[i];
  }
  absl::StatusOr<std::vector<Instruction*>> order = computation.PostOrder();
  if (!order.ok()) return order.status();
  for (const Instruction* instruction : *order) {
    if (instruction->opcode() == Opcode::kParameter) continue;
    absl::Status status = EmitInstruction(*instruction);
    if (!status.ok()) return status;
  }
  return values_.at(computation.root());
}

absl::Status FunctionEmitter::EmitInstruction(const Instruction& instruction) {
  Handler handler = FindHandler(instruction.opcode());
  if (handler == nullptr) {
    return Refuse(instruction, "no StableHLO form (docs/stablehlo.md)");
  }
  absl::StatusOr<Value> value = handler(*this, instruction);
  if (!value.ok()) return Annotate(instruction, value.status());
  values_[&instruction] = *std::move(value);
  return absl::OkStatus();
}

absl::StatusOr<Value> EmitSimple(FunctionEmitter& emitter,
                                 const Instruction& instruction,
                                 absl::string_view name, std::string attrs,
                                 std::vector<std::string> regions) {
  absl::StatusOr<std::vector<Value>> operands =
      emitter.OperandLeaves(instruction);
  if (!operands.ok()) return operands.status();
  Op op{std::string(name), *std::move(operands), std::move(attrs),
        std::move(regions), LeafShapes(instruction.shape())};
  return emitter.EmitAs(op, instruction.shape(), instruction.name());
}

}  // namespace kiln::stablehlo
