// One instruction line of HLO text:
//   ['ROOT'] name '=' shape opcode '(' operands ')' (',' attr '=' value)*
// Operands are "name" or "shape name"; constant() holds a literal and
// parameter() a number. Op-specific attributes follow the op's schema; the
// generic ones (metadata, sharding, ...) are kept verbatim.
#include <algorithm>
#include <array>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/attr_text.h"
#include "compiler/text/generic_attrs.h"
#include "compiler/text/parser_internal.h"

namespace kiln {
namespace text_internal {
namespace {

// True if the cursor is at a shape rather than an operand name: a tuple
// shape "(" or an element type directly followed by "[" ("f32[2]",
// "token[]").
bool AtShape(const Lexer& lexer) {
  if (lexer.Peek() == '(') return true;
  if (!Lexer::IsIdentifierStart(lexer.Peek())) return false;
  size_t ahead = 1;
  while (Lexer::IsIdentifierChar(lexer.PeekAt(ahead))) ++ahead;
  return lexer.PeekAt(ahead) == '[';
}

const AttrSpec* FindSpec(const OpSchema& schema, absl::string_view name) {
  for (const AttrSpec& spec : schema.attrs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// True if the attributes already follow the schema order (the common case:
// XLA prints them that way), so sorting can be skipped without copying.
bool InSchemaOrder(const OpSchema& schema, const AttributeMap& attrs) {
  size_t spec_index = 0;
  for (const auto& entry : attrs.entries()) {
    while (spec_index < schema.attrs.size() &&
           schema.attrs[spec_index].name != entry.first) {
      ++spec_index;
    }
    if (spec_index == schema.attrs.size()) return false;
    ++spec_index;
  }
  return true;
}

// Puts the attributes in schema order so that equal instructions have
// equal attribute maps whatever order the text used.
void SortAttributesBySchema(const OpSchema& schema, AttributeMap* attrs) {
  if (attrs->entries().size() < 2 || InSchemaOrder(schema, *attrs)) return;
  AttributeMap sorted;
  for (const AttrSpec& spec : schema.attrs) {
    if (AttrValue* value = attrs->Find(spec.name)) {
      sorted.Set(spec.name, std::move(*value));
    }
  }
  *attrs = std::move(sorted);
}

// `shape` with every element `scalar`'s value; bounded by `max_bytes` like
// any constant.
absl::StatusOr<Literal> FillArray(const Shape& shape, const Literal& scalar,
                                  int64_t max_bytes) {
  absl::StatusOr<Literal> result = Literal::Create(shape, max_bytes);
  if (!result.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot fill ", shape.ToString(false),
                     " from a scalar: ", result.status().message()));
  }
  const absl::Span<const uint8_t> element = scalar.data();
  absl::Span<uint8_t> data = result->mutable_data();
  if (element.empty()) return result;
  for (size_t offset = 0; offset + element.size() <= data.size();
       offset += element.size()) {
    std::copy(element.begin(), element.end(), data.begin() + offset);
  }
  return result;
}

}  // namespace

absl::StatusOr<Instruction*> HloTextParser::LookupInstruction(
    absl::string_view name, size_t offset) {
  auto it = instructions_.find(name);
  if (it == instructions_.end() || it->second == nullptr) {
    return ErrorAt(offset, absl::StrCat("undefined operand '", name, "'"));
  }
  return it->second;
}

absl::StatusOr<Instruction*> HloTextParser::ParseInstruction(
    Computation* computation, bool* is_root) {
  if (lexer_.AtKeyword("ROOT")) {
    lexer_.TryConsume("ROOT");
    *is_root = true;
    if (absl::Status s = Skip(); !s.ok()) return s;
  }
  const size_t name_offset = lexer_.pos();
  absl::string_view name = lexer_.LexName();
  if (name.empty()) return ErrorAt(name_offset, "expected an instruction name");
  // Reserved now (one hash lookup for both the duplicate check and the
  // definition); set once the instruction exists. Until then a use of the
  // name reads as undefined.
  auto [slot, inserted] = instructions_.try_emplace(name, nullptr);
  if (!inserted) {
    return ErrorAt(name_offset,
                   absl::StrCat("duplicate instruction name '", name, "'"));
  }
  if (absl::Status s = Expect('=', "after the instruction name"); !s.ok()) {
    return s;
  }
  absl::StatusOr<Instruction*> added =
      ParseInstructionRhs(computation, name, name_offset, /*nested=*/false);
  if (!added.ok()) return added.status();
  slot->second = *added;  // Nested operands never enter instructions_.
  return added;
}

absl::StatusOr<Instruction*> HloTextParser::ParseInstructionRhs(
    Computation* computation, absl::string_view name, size_t name_offset,
    bool nested) {
  if (absl::Status s = Skip(); !s.ok()) return s;
  // XLA lets the shape be left out where the op determines it ("x = add(a,
  // b)"); it is inferred once the module is read.
  const bool shape_omitted = !AtShape(lexer_);
  const Shape* shape = nullptr;
  if (!shape_omitted) {
    // Used straight from the cache: one copy, into the instruction.
    absl::StatusOr<const Shape*> parsed = ParseShapeCached();
    if (!parsed.ok()) return parsed.status();
    shape = *parsed;
    if (absl::Status s = Skip(); !s.ok()) return s;
  }
  const size_t opcode_offset = lexer_.pos();
  std::optional<AsyncSugar> sugar;
  absl::StatusOr<Opcode> opcode = ParseOpcode(&sugar);
  if (!opcode.ok()) return opcode.status();
  // A nested operand has no name: XLA calls it "<opcode>.anon" and makes it
  // unique like any other name.
  const std::string instruction_name =
      nested ? absl::StrCat(OpcodeName(*opcode), ".anon") : std::string(name);
  if (shape_omitted && (sugar.has_value() || !ShapeMayBeOmitted(*opcode))) {
    return ErrorAt(
        opcode_offset,
        absl::StrCat("the shape of '", instruction_name,
                     "' must be written before the opcode: the "
                     "shape of ",
                     OpcodeName(*opcode), " cannot be inferred (as in XLA)"));
  }

  auto instruction = std::make_unique<Instruction>(
      *opcode, shape_omitted ? Shape::Tuple({}) : *shape, instruction_name);
  instruction->mutable_shape()->SetDefaultLayoutIfMissing();
  if (shape_omitted) omitted_shapes_.insert(instruction.get());
  const LineColumn position = lexer_.Position(name_offset);
  instruction->location.file = options_.filename;
  instruction->location.line = position.line;
  instruction->location.column = position.column;
  if (absl::Status s = ParseOperandList(instruction.get(), sugar, name_offset,
                                        opcode_offset);
      !s.ok()) {
    return s;
  }
  // A nested operand takes no attributes: its comma would be ambiguous
  // (XLA's rule).
  if (absl::Status s =
          ParseInstructionAttributes(instruction.get(), sugar, opcode_offset,
                                     /*allow_attributes=*/!nested);
      !s.ok()) {
    return s;
  }
  Instruction* added = computation->AddInstruction(std::move(instruction));
  if (*opcode == Opcode::kParameter) {
    parameters_seen_.emplace_back(added, name_offset);
  }
  if (nested) return added;
  for (Instruction* predecessor : control_predecessors_) {
    if (absl::Status s = predecessor->AddControlDependencyTo(added); !s.ok()) {
      return ErrorAt(name_offset, s.message());
    }
  }
  return added;
}

absl::StatusOr<Opcode> HloTextParser::ParseOpcode(
    std::optional<AsyncSugar>* sugar) {
  const size_t offset = lexer_.pos();
  absl::string_view name = lexer_.LexIdentifier();
  if (name.empty()) return ErrorAt(offset, "expected an opcode");
  if (std::optional<Opcode> opcode = OpcodeFromName(name)) return *opcode;
  *sugar = MatchAsyncSugar(name);
  if (!sugar->has_value()) {
    return ErrorAt(offset, absl::StrCat("unknown opcode '", name, "'"));
  }
  return (*sugar)->async_opcode;
}

absl::Status HloTextParser::CheckOperandCount(Opcode opcode, int64_t count,
                                              size_t offset) {
  const OpSchema& schema = GetOpSchema(opcode);
  if (count >= schema.min_operands &&
      (schema.max_operands < 0 || count <= schema.max_operands)) {
    return absl::OkStatus();
  }
  const std::string expected =
      schema.max_operands < 0 ? absl::StrCat("at least ", schema.min_operands)
      : schema.min_operands == schema.max_operands
          ? absl::StrCat(schema.min_operands)
          : absl::StrCat(schema.min_operands, " to ", schema.max_operands);
  return ErrorAt(offset, absl::StrCat(OpcodeName(opcode), " takes ", expected,
                                      " operands but has ", count));
}

absl::Status HloTextParser::ParseOperandList(
    Instruction* instruction, const std::optional<AsyncSugar>& sugar,
    size_t name_offset, size_t opcode_offset) {
  if (absl::Status s = Expect('(', "after the opcode"); !s.ok()) return s;
  switch (instruction->opcode()) {
    case Opcode::kConstant:
      return ParseConstantOperand(instruction);
    case Opcode::kParameter:
      return ParseParameterOperand(instruction, name_offset);
    default:
      break;
  }
  if (absl::Status s = ParseOperands(instruction); !s.ok()) return s;
  const int64_t count = instruction->operand_count();
  if (absl::Status s =
          CheckOperandCount(instruction->opcode(), count, opcode_offset);
      !s.ok()) {
    return s;
  }
  if (sugar.has_value() && instruction->opcode() == Opcode::kAsyncStart) {
    return CheckOperandCount(sugar->wrapped_opcode, count, opcode_offset);
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::ParseInstructionAttributes(
    Instruction* instruction, const std::optional<AsyncSugar>& sugar,
    size_t opcode_offset, bool allow_attributes) {
  std::unique_ptr<Instruction> wrapped;
  if (sugar.has_value() && instruction->opcode() == Opcode::kAsyncStart) {
    absl::StatusOr<std::unique_ptr<Instruction>> made = MakeWrappedInstruction(
        *instruction, sugar->wrapped_opcode, opcode_offset);
    if (!made.ok()) return made.status();
    wrapped = *std::move(made);
  }
  const OpSchema& schema = GetOpSchema(instruction->opcode());
  control_predecessors_.clear();
  if (allow_attributes) {
    if (absl::Status s = ParseAttributes(instruction, schema, wrapped.get());
        !s.ok()) {
      return s;
    }
  }
  if (wrapped != nullptr) {
    if (absl::Status s = CheckRequiredAttributes(*wrapped, opcode_offset);
        !s.ok()) {
      return s;
    }
    SortAttributesBySchema(GetOpSchema(wrapped->opcode()),
                           wrapped->mutable_attrs());
    if (absl::Status s = AddWrappedComputation(instruction, std::move(wrapped));
        !s.ok()) {
      return s;
    }
  }
  if (instruction->opcode() == Opcode::kAsyncUpdate ||
      instruction->opcode() == Opcode::kAsyncDone) {
    InferAsyncCalls(instruction);
  }
  ImplyScalarBroadcastDimensions(instruction, opcode_offset);
  if (absl::Status s = CheckRequiredAttributes(*instruction, opcode_offset);
      !s.ok()) {
    return s;
  }
  SortAttributesBySchema(schema, instruction->mutable_attrs());
  return absl::OkStatus();
}

void HloTextParser::ImplyScalarBroadcastDimensions(Instruction* instruction,
                                                   size_t offset) {
  // XLA: `dimensions` may be left out when broadcasting a scalar; it is then
  // {} (and printed so). An operand whose shape is still to be inferred is
  // checked to be a scalar once it is (InferOrCheckShape).
  if (instruction->opcode() != Opcode::kBroadcast ||
      instruction->operand_count() != 1 ||
      instruction->attrs().Has(attr::kDimensions)) {
    return;
  }
  const Instruction* operand = instruction->operand(0);
  const bool pending = omitted_shapes_.contains(operand);
  if (!pending &&
      !(operand->shape().IsArray() && operand->shape().IsScalar())) {
    return;  // Reported as a missing required attribute.
  }
  instruction->mutable_attrs()->Set(attr::kDimensions, Int64List());
  if (pending) implied_broadcast_dimensions_.emplace(instruction, offset);
}

absl::Status HloTextParser::CheckRequiredAttributes(
    const Instruction& instruction, size_t offset) {
  for (const AttrSpec& spec : GetOpSchema(instruction.opcode()).attrs) {
    if (spec.required && !instruction.attrs().Has(spec.name)) {
      return ErrorAt(offset,
                     absl::StrCat("missing required attribute '", spec.name,
                                  "' of ", OpcodeName(instruction.opcode())));
    }
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::ParseOperands(Instruction* instruction) {
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (lexer_.TryConsume(')')) return absl::OkStatus();
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    // "[shape] name", or a nested instruction "[shape] opcode(...)".
    const Shape* declared = nullptr;
    const size_t shape_offset = lexer_.pos();
    if (AtShape(lexer_)) {
      absl::StatusOr<const Shape*> shape = ParseShapeCached();
      if (!shape.ok()) return shape.status();
      declared = *shape;
      if (absl::Status s = Skip(); !s.ok()) return s;
    }
    const size_t offset = lexer_.pos();
    absl::string_view name = lexer_.LexName();
    if (name.empty()) return ErrorAt(offset, "expected an operand name");
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.Peek() == '(') {
      // A nested anonymous instruction, "add(f32[] parameter(0), ...)", as
      // XLA's parser accepts: added before the instruction that uses it.
      lexer_.set_pos(shape_offset);
      absl::StatusOr<Instruction*> nested = ParseNestedOperand(shape_offset);
      if (!nested.ok()) return nested.status();
      instruction->AppendOperand(*nested);
    } else {
      absl::StatusOr<Instruction*> operand = LookupInstruction(name, offset);
      if (!operand.ok()) return operand.status();
      if (absl::Status s =
              CheckOperandShape(declared, *operand, name, shape_offset);
          !s.ok()) {
        return s;
      }
      instruction->AppendOperand(*operand);
    }
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.TryConsume(')')) return absl::OkStatus();
    if (!lexer_.TryConsume(',')) {
      return ErrorAt(lexer_.pos(),
                     lexer_.AtEnd() ? "unterminated operand list"
                                    : "expected ',' or ')' after an operand");
    }
  }
}

absl::StatusOr<Instruction*> HloTextParser::ParseNestedOperand(size_t offset) {
  if (nested_operand_depth_ >= options_.max_nesting_depth) {
    return ErrorAt(offset, absl::StrCat("nested operands deeper than ",
                                        options_.max_nesting_depth));
  }
  ++nested_operand_depth_;
  absl::StatusOr<Instruction*> nested =
      ParseInstructionRhs(current_computation_, "", offset, /*nested=*/true);
  --nested_operand_depth_;
  return nested;
}

absl::Status HloTextParser::CheckOperandShape(const Shape* declared,
                                              Instruction* operand,
                                              absl::string_view name,
                                              size_t shape_offset) {
  // Long form "f32[2]{0} %x": the written shape must agree with the
  // operand's (layouts aside), as XLA's parser requires.
  if (declared == nullptr) return absl::OkStatus();
  if (omitted_shapes_.contains(operand)) {
    deferred_operand_checks_.push_back({*declared, operand, shape_offset});
    return absl::OkStatus();
  }
  if (declared->Compatible(operand->shape())) return absl::OkStatus();
  return ErrorAt(
      shape_offset,
      absl::StrCat("the declared operand shape ", declared->ToString(false),
                   " is not compatible with the shape of operand '", name,
                   "', ", operand->shape().ToString(false)));
}

absl::Status HloTextParser::ParseConstantOperand(Instruction* instruction) {
  if (absl::Status s = Skip(); !s.ok()) return s;
  const size_t start = lexer_.pos();
  size_t consumed = 0;
  size_t error_offset = 0;
  const Shape& shape = instruction->shape();
  // XLA fills an array from a single scalar: "f32[9] constant(0)".
  const bool scalar_fill = shape.IsArray() && shape.rank() > 0 &&
                           lexer_.Peek() != '{' && !lexer_.AtEnd();
  absl::StatusOr<Literal> literal = ParseLiteralValue(
      scalar_fill ? Shape::Scalar(shape.element_type()) : shape, lexer_.Rest(),
      &consumed, &error_offset, options_.max_literal_bytes,
      options_.allow_elided_constants);
  if (!literal.ok()) {
    return ErrorAt(start + error_offset, literal.status().message());
  }
  if (scalar_fill) {
    literal = FillArray(shape, *literal, options_.max_literal_bytes);
    if (!literal.ok()) return ErrorAt(start, literal.status().message());
  }
  lexer_.set_pos(start + consumed);
  instruction->set_literal(std::move(*literal));
  return Expect(')', "to close the constant");
}

absl::Status HloTextParser::ParseParameterOperand(Instruction* instruction,
                                                  size_t name_offset) {
  absl::StatusOr<int64_t> number = ParseInt64("as parameter number");
  if (!number.ok()) return number.status();
  // A computation with n parameters needs well over 8n bytes of text, so a
  // larger number is out of range whatever follows; refusing it here keeps
  // the computation's parameter table from growing to the number.
  const int64_t limit = static_cast<int64_t>(lexer_.text().size() / 8);
  if (*number < 0 || *number > limit) {
    return ErrorAt(name_offset,
                   absl::StrCat("parameter number ", *number, " out of range"));
  }
  instruction->set_parameter_number(*number);
  return Expect(')', "to close the parameter number");
}

absl::Status HloTextParser::ParseAttributes(Instruction* instruction,
                                            const OpSchema& schema,
                                            Instruction* wrapped) {
  absl::InlinedVector<absl::string_view, 8> seen;
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (!lexer_.TryConsume(',')) return absl::OkStatus();
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t offset = lexer_.pos();
    absl::string_view name = lexer_.LexAttributeName();
    if (name.empty()) return ErrorAt(offset, "expected an attribute name");
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      return ErrorAt(offset, absl::StrCat("duplicate attribute '", name, "'"));
    }
    seen.push_back(name);
    if (absl::Status s = Expect('=', "after the attribute name"); !s.ok()) {
      return s;
    }
    if (absl::Status s = Skip(); !s.ok()) return s;
    // In sugared async starts only async_execution_thread belongs to the
    // async-start itself.
    Instruction* target = instruction;
    const AttrSpec* spec = nullptr;
    if (wrapped != nullptr && name != "async_execution_thread") {
      target = wrapped;
      spec = FindSpec(GetOpSchema(wrapped->opcode()), name);
    } else {
      spec = FindSpec(schema, name);
    }
    absl::Status status;
    if (spec != nullptr) {
      status = ParseSchemaAttribute(target, *spec);
    } else if (IsGenericAttributeName(name)) {
      status = ParseGenericAttribute(instruction, name);
    } else {
      return ErrorAt(offset, absl::StrCat("unknown attribute '", name, "' for ",
                                          OpcodeName(target->opcode())));
    }
    if (!status.ok()) return status;
  }
}

absl::Status HloTextParser::ParseSchemaAttribute(Instruction* instruction,
                                                 const AttrSpec& spec) {
  if (spec.kind == AttrKind::kComputation ||
      spec.kind == AttrKind::kComputationList) {
    return ParseComputationAttribute(instruction, spec);
  }
  const size_t start = lexer_.pos();
  size_t consumed = 0;
  size_t error_offset = 0;
  absl::StatusOr<AttrValue> value =
      ParseAttrValue(spec, lexer_.Rest(), &consumed, &error_offset);
  if (!value.ok())
    return ErrorAt(start + error_offset, value.status().message());
  lexer_.set_pos(start + consumed);
  if (IsDefaultComparisonType(*instruction, spec.name, *value)) {
    return absl::OkStatus();  // Implied, as in XLA; see generic_attrs.h.
  }
  instruction->mutable_attrs()->Set(spec.name, std::move(*value));
  return absl::OkStatus();
}

absl::Status HloTextParser::ParseComputationAttribute(Instruction* instruction,
                                                      const AttrSpec& spec) {
  PendingComputationAttr pending;
  pending.instruction = instruction;
  pending.caller = current_computation_;
  pending.attr_name = spec.name;
  pending.is_list = spec.kind == AttrKind::kComputationList;
  auto parse_ref = [&]() -> absl::Status {
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t offset = lexer_.pos();
    absl::string_view name = lexer_.LexName();
    if (name.empty()) {
      return ErrorAt(
          offset, absl::StrCat("expected a computation name for ", spec.name));
    }
    pending.refs.push_back({name, offset});
    return absl::OkStatus();
  };
  if (!pending.is_list) {
    if (absl::Status s = parse_ref(); !s.ok()) return s;
    instruction->mutable_attrs()->Set(spec.name,
                                      static_cast<Computation*>(nullptr));
  } else {
    if (absl::Status s = Expect('{', absl::StrCat("to open ", spec.name));
        !s.ok()) {
      return s;
    }
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (!lexer_.TryConsume('}')) {
      while (true) {
        if (absl::Status s = parse_ref(); !s.ok()) return s;
        if (absl::Status s = Skip(); !s.ok()) return s;
        if (lexer_.TryConsume('}')) break;
        if (!lexer_.TryConsume(',')) {
          return ErrorAt(lexer_.pos(),
                         absl::StrCat("expected ',' or '}' in ", spec.name));
        }
      }
    }
    instruction->mutable_attrs()->Set(spec.name, ComputationList());
  }
  if (spec.name == "calls") pending_calls_[instruction] = pending_.size();
  pending_.push_back(std::move(pending));
  return absl::OkStatus();
}

absl::Status HloTextParser::ParseControlPredecessors(Instruction* instruction) {
  if (absl::Status s = Expect('{', "to open control-predecessors"); !s.ok()) {
    return s;
  }
  absl::flat_hash_set<const Instruction*> seen;
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (lexer_.TryConsume('}')) return absl::OkStatus();
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t offset = lexer_.pos();
    absl::string_view name = lexer_.LexName();
    if (name.empty()) {
      return ErrorAt(offset,
                     "expected an instruction name in "
                     "control-predecessors");
    }
    auto it = instructions_.find(name);
    if (it == instructions_.end() || it->second == nullptr) {
      return ErrorAt(
          offset, absl::StrCat("undefined control predecessor '", name, "'"));
    }
    if (!seen.insert(it->second).second) {
      return ErrorAt(
          offset, absl::StrCat("duplicate control predecessor '", name, "'"));
    }
    control_predecessors_.push_back(it->second);
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.TryConsume('}')) return absl::OkStatus();
    if (!lexer_.TryConsume(',')) {
      return ErrorAt(lexer_.pos(),
                     "expected ',' or '}' in "
                     "control-predecessors");
    }
  }
}

absl::Status HloTextParser::ParseGenericAttribute(Instruction* instruction,
                                                  absl::string_view name) {
  if (name == "control-predecessors") {
    return ParseControlPredecessors(instruction);
  }
  if (name == "frontend_attributes") {
    auto value = ParseFrontendAttributes();
    if (!value.ok()) return value.status();
    instruction->frontend_attributes = std::move(*value);
    return absl::OkStatus();
  }
  std::optional<RawText>* field = RawGenericField(instruction, name);
  if (field == nullptr) {
    return ErrorAt(lexer_.pos(),
                   absl::StrCat("unknown attribute '", name, "'"));
  }
  absl::StatusOr<RawText> value = ParseRawValue();
  if (!value.ok()) return value.status();
  *field = std::move(*value);
  return absl::OkStatus();
}

}  // namespace text_internal
}  // namespace kiln
