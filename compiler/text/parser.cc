// Module and computation structure of HLO text, plus the helpers the other
// parser files share. Grammar (XLA's):
//   module      := 'HloModule' name (',' header_attr)* computation+
//   computation := ['ENTRY'] name [signature] '{' instruction+ '}'
//                  [',' 'execution_thread' '=' string]
//   signature   := '(' [pname ':' shape (',' pname ':' shape)*] ')' '->' shape
#include "compiler/text/parser.h"

#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser_internal.h"
#include "compiler/text/shape_text.h"

namespace kiln {
namespace text_internal {

HloTextParser::HloTextParser(absl::string_view text,
                             const ParseOptions& options)
    : lexer_(text), options_(options) {}

absl::Status HloTextParser::ErrorAt(size_t offset, absl::string_view message) {
  const LineColumn position = lexer_.Position(offset);
  return absl::InvalidArgumentError(
      absl::StrCat(options_.filename, ":", position.line, ":", position.column,
                   ": error: ", message));
}

absl::Status HloTextParser::LexerError(const absl::Status& status) {
  return ErrorAt(lexer_.error_offset(), status.message());
}

absl::Status HloTextParser::Expect(char c, absl::string_view context) {
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (lexer_.TryConsume(c)) return absl::OkStatus();
  if (lexer_.AtEnd()) {
    return ErrorAt(lexer_.pos(),
                   absl::StrCat("expected '", std::string(1, c), "' ", context,
                                " but reached end of input"));
  }
  return ErrorAt(lexer_.pos(),
                 absl::StrCat("expected '", std::string(1, c), "' ", context));
}

namespace {

// A module without an HloModule line is named this plus the entry's name.
constexpr absl::string_view kHeaderlessModulePrefix = "module_";

// Longest shape text looked up in the cache. Bounds the lexical scan below,
// so odd input (parentheses in comments, unbalanced text) cannot make every
// operand rescan a long stretch of the module.
constexpr size_t kMaxCachedShapeText = 2048;

// Length of the shape text at the start of `text`, found lexically: a
// tuple "(...)" up to its balancing ')', or "type[...]" plus a layout "{...}"
// that immediately follows. Only a cache key: the shape parser has the last
// word on what the text means. 0 when no plausible extent is found.
size_t ShapeExtent(absl::string_view text) {
  text = text.substr(0, kMaxCachedShapeText);
  const size_t size = text.size();
  size_t p = 0;
  if (p < size && text[p] == '(') {
    int depth = 0;
    for (; p < size; ++p) {
      if (text[p] == '(') ++depth;
      if (text[p] == ')' && --depth == 0) return p + 1;
    }
    return 0;
  }
  while (p < size && Lexer::IsIdentifierChar(text[p])) ++p;
  if (p == 0 || p >= size || text[p] != '[') return 0;
  while (p < size && text[p] != ']') ++p;
  if (p >= size) return 0;
  ++p;
  if (p >= size || text[p] != '{') return p;
  int depth = 0;
  for (; p < size; ++p) {
    if (text[p] == '{') ++depth;
    if (text[p] == '}' && --depth == 0) return p + 1;
  }
  return 0;
}

// True if `text` starts with the whole shape text `shape` (a ShapeExtent
// result), i.e. ShapeExtent(text) would be shape.size(): an array shape
// without a layout must not be followed by one.
bool StartsWithShapeText(absl::string_view text, absl::string_view shape) {
  if (!absl::StartsWith(text, shape)) return false;
  return shape.back() != ']' || text.size() == shape.size() ||
         text[shape.size()] != '{';
}

}  // namespace

absl::StatusOr<const Shape*> HloTextParser::ParseShapeCached() {
  if (absl::Status s = Skip(); !s.ok()) return s;
  const size_t start = lexer_.pos();
  const absl::string_view rest = lexer_.Rest();
  if (last_shape_ != nullptr && StartsWithShapeText(rest, last_shape_text_)) {
    lexer_.set_pos(start + last_shape_text_.size());
    return last_shape_;
  }
  const size_t extent = ShapeExtent(rest);
  if (extent > 0) {
    auto it = shape_cache_.find(rest.substr(0, extent));
    if (it != shape_cache_.end()) {
      lexer_.set_pos(start + extent);
      last_shape_text_ = it->first;
      last_shape_ = &it->second;
      return last_shape_;
    }
  }
  size_t consumed = 0;
  size_t error_offset = 0;
  absl::StatusOr<Shape> shape = ParseShapeText(rest, &consumed, &error_offset);
  if (!shape.ok()) {
    return ErrorAt(start + error_offset,
                   absl::StrCat("bad shape: ", shape.status().message()));
  }
  lexer_.set_pos(start + consumed);
  if (consumed != extent) {
    // Unusual spelling (e.g. comments inside a tuple): keep it uncached.
    uncached_shape_ = *std::move(shape);
    return &uncached_shape_;
  }
  auto inserted =
      shape_cache_.emplace(rest.substr(0, extent), *std::move(shape));
  last_shape_text_ = inserted.first->first;
  last_shape_ = &inserted.first->second;
  return last_shape_;
}

absl::StatusOr<Shape> HloTextParser::ParseShapeHere(bool fill_default_layout) {
  absl::StatusOr<const Shape*> cached = ParseShapeCached();
  if (!cached.ok()) return cached.status();
  Shape shape = **cached;
  if (fill_default_layout) shape.SetDefaultLayoutIfMissing();
  return shape;
}

absl::StatusOr<std::string> HloTextParser::ParseUnescapedString() {
  if (absl::Status s = Skip(); !s.ok()) return s;
  const size_t start = lexer_.pos();
  absl::StatusOr<absl::string_view> quoted = lexer_.LexQuotedString();
  if (!quoted.ok()) return LexerError(quoted.status());
  std::string result;
  std::string error;
  if (!absl::CUnescape(quoted->substr(1, quoted->size() - 2), &result,
                       &error)) {
    return ErrorAt(start, absl::StrCat("bad escape in string: ", error));
  }
  return result;
}

absl::StatusOr<RawText> HloTextParser::ParseRawValue() {
  if (absl::Status s = Skip(); !s.ok()) return s;
  absl::StatusOr<absl::string_view> raw =
      lexer_.LexRawValue(options_.max_nesting_depth);
  if (!raw.ok()) return LexerError(raw.status());
  return RawText{std::string(*raw)};
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
HloTextParser::ParseFrontendAttributes() {
  std::vector<std::pair<std::string, std::string>> result;
  if (absl::Status s = Expect('{', "to open frontend_attributes"); !s.ok()) {
    return s;
  }
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (lexer_.TryConsume('}')) return result;
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t key_offset = lexer_.pos();
    // Keys may be dotted ("composite.name", "xla.sdy.meshes").
    absl::string_view key = lexer_.LexIdentifier();
    if (key.empty()) {
      return ErrorAt(key_offset, "expected a frontend attribute name");
    }
    if (absl::Status s = Expect('=', "after frontend attribute name");
        !s.ok()) {
      return s;
    }
    if (absl::Status s = Skip(); !s.ok()) return s;
    // Values are kept exactly as written, a quoted string with its quotes
    // and escapes or a {...} group, so that they print back byte for byte
    // (XLA prints the stored text without re-escaping it).
    absl::StatusOr<absl::string_view> value =
        lexer_.Peek() == '{' ? lexer_.LexRawValue(options_.max_nesting_depth)
                             : lexer_.LexQuotedString();
    if (!value.ok()) return LexerError(value.status());
    result.emplace_back(std::string(key), std::string(*value));
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.TryConsume('}')) return result;
    if (!lexer_.TryConsume(',')) {
      return ErrorAt(lexer_.pos(),
                     "expected ',' or '}' in frontend_attributes");
    }
  }
}

absl::StatusOr<int64_t> HloTextParser::ParseInt64(absl::string_view context) {
  if (absl::Status s = Skip(); !s.ok()) return s;
  absl::StatusOr<int64_t> value = lexer_.LexInt64();
  if (!value.ok()) {
    return ErrorAt(lexer_.error_offset(),
                   absl::StrCat(value.status().message(), " ", context));
  }
  return value;
}

absl::StatusOr<std::vector<int64_t>> HloTextParser::ParseShapeIndex() {
  std::vector<int64_t> index;
  if (absl::Status s = Expect('{', "to open a shape index"); !s.ok()) return s;
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (lexer_.TryConsume('}')) return index;
  while (true) {
    absl::StatusOr<int64_t> value = ParseInt64("in shape index");
    if (!value.ok()) return value.status();
    index.push_back(*value);
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.TryConsume('}')) return index;
    if (!lexer_.TryConsume(',')) {
      return ErrorAt(lexer_.pos(), "expected ',' or '}' in shape index");
    }
  }
}

namespace {

// A copy of `shape` keeping its layouts, with XLA's default layout where
// one is missing.
Shape WithLayoutOrDefault(const Shape& shape) {
  Shape result = shape;
  result.SetDefaultLayoutIfMissing();
  return result;
}

// Like XLA, a header without entry_computation_layout gets one from the
// entry's parameters and root, taking their layouts (XLA copies each
// instruction's layout; XLA always prints the result). Left unset while the
// entry is incomplete (a missing parameter number or root), which the
// verifier reports.
void FillMissingEntryComputationLayout(Module* module) {
  const Computation* entry = module->entry();
  if (module->config().entry_computation_layout.has_value() ||
      entry == nullptr || entry->root() == nullptr) {
    return;
  }
  ComputationLayout layout;
  for (const Instruction* parameter : entry->parameters()) {
    if (parameter == nullptr) return;
    layout.parameters.push_back(WithLayoutOrDefault(parameter->shape()));
  }
  layout.result = WithLayoutOrDefault(entry->root()->shape());
  module->config().entry_computation_layout = std::move(layout);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> HloTextParser::Run() {
  if (absl::Status s = Skip(); !s.ok()) return s;
  // XLA also reads a module without the HloModule line: computations only,
  // named after the entry (see below).
  const bool has_header = lexer_.AtKeyword("HloModule");
  const LineColumn start = lexer_.Position(lexer_.pos());
  if (has_header) {
    lexer_.TryConsume("HloModule");
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t name_offset = lexer_.pos();
    absl::string_view name = lexer_.LexName();
    if (name.empty()) return ErrorAt(name_offset, "expected a module name");
    module_ = std::make_unique<Module>(std::string(name));
    // The old header form "HloModule name:" ends the name with a colon.
    if (absl::Status s = Skip(); !s.ok()) return s;
    lexer_.TryConsume(':');
    if (absl::Status s = ParseModuleHeader(); !s.ok()) return s;
  } else {
    if (lexer_.AtEnd()) {
      return ErrorAt(lexer_.pos(), "expected 'HloModule' or a computation");
    }
    module_ = std::make_unique<Module>(std::string(kHeaderlessModulePrefix));
  }
  module_->set_location({options_.filename, start.line, start.column});

  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.AtEnd()) break;
    if (absl::Status s = ParseComputation(); !s.ok()) return s;
  }
  if (computations_.empty()) {
    return ErrorAt(lexer_.pos(), "module has no computations");
  }
  if (module_->entry() == nullptr) {
    // XLA: without ENTRY, the last computation is the entry.
    module_->set_entry(last_text_computation_);
  }
  if (!has_header) {
    // As XLA's parser names such a module: "module_" + the entry's name.
    module_->set_name(
        absl::StrCat(kHeaderlessModulePrefix, module_->entry()->name()));
  }
  if (absl::Status s = ResolveComputationRefs(); !s.ok()) return s;
  if (absl::Status s = CheckForCallCycles(); !s.ok()) return s;
  if (absl::Status s = InferAndCheckShapes(); !s.ok()) return s;
  FillMissingEntryComputationLayout(module_.get());
  return std::move(module_);
}

absl::Status HloTextParser::ParseSignature(std::vector<Shape>* parameters) {
  if (absl::Status s = Expect('(', "to open the signature"); !s.ok()) return s;
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (!lexer_.TryConsume(')')) {
    while (true) {
      if (absl::Status s = Skip(); !s.ok()) return s;
      const size_t offset = lexer_.pos();
      if (lexer_.LexName().empty()) {
        return ErrorAt(offset, "expected a parameter name in the signature");
      }
      if (absl::Status s = Expect(':', "after a signature parameter name");
          !s.ok()) {
        return s;
      }
      absl::StatusOr<Shape> shape = ParseShapeHere(false);
      if (!shape.ok()) return shape.status();
      parameters->push_back(std::move(*shape));
      if (absl::Status s = Skip(); !s.ok()) return s;
      if (lexer_.TryConsume(')')) break;
      if (!lexer_.TryConsume(',')) {
        return ErrorAt(lexer_.pos(), "expected ',' or ')' in the signature");
      }
    }
  }
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (!lexer_.TryConsume("->")) {
    return ErrorAt(lexer_.pos(), "expected '->' after the parameter list");
  }
  absl::StatusOr<Shape> result = ParseShapeHere(false);
  return result.status();
}

absl::Status HloTextParser::ParseComputation() {
  const bool is_entry = lexer_.AtKeyword("ENTRY");
  const size_t entry_offset = lexer_.pos();
  if (is_entry) {
    lexer_.TryConsume("ENTRY");
    if (module_->entry() != nullptr) {
      return ErrorAt(entry_offset, "more than one ENTRY computation");
    }
    if (absl::Status s = Skip(); !s.ok()) return s;
  }
  const size_t name_offset = lexer_.pos();
  absl::string_view name = lexer_.LexName();
  if (name.empty()) return ErrorAt(name_offset, "expected a computation name");
  if (computations_.contains(name)) {
    return ErrorAt(name_offset,
                   absl::StrCat("duplicate computation name '", name, "'"));
  }
  if (absl::Status s = Skip(); !s.ok()) return s;
  std::vector<Shape> signature;
  const bool has_signature = lexer_.Peek() == '(';
  if (has_signature) {
    if (absl::Status s = ParseSignature(&signature); !s.ok()) return s;
  }
  if (absl::Status s = Expect('{', "to open the computation body"); !s.ok()) {
    return s;
  }
  // Added to the module before its instructions so that each instruction
  // name is made unique once, module-wide, as it is added.
  auto owned = std::make_unique<Computation>(std::string(name));
  Computation* computation =
      is_entry ? module_->AddEntryComputation(std::move(owned))
               : module_->AddComputation(std::move(owned));
  computations_[name] = computation;
  last_text_computation_ = computation;
  if (absl::Status s = ParseInstructionList(computation, name_offset);
      !s.ok()) {
    return s;
  }
  if (has_signature && signature.size() != parameters_seen_.size()) {
    return ErrorAt(
        name_offset,
        absl::StrCat("signature of '", name, "' has ", signature.size(),
                     " parameters but the body has ", parameters_seen_.size()));
  }
  if (absl::Status s = Skip(); !s.ok()) return s;
  if (lexer_.TryConsume(',')) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t attr_offset = lexer_.pos();
    if (lexer_.LexAttributeName() != "execution_thread") {
      return ErrorAt(attr_offset,
                     "expected 'execution_thread' after a computation");
    }
    if (absl::Status s = Expect('=', "after execution_thread"); !s.ok()) {
      return s;
    }
    absl::StatusOr<std::string> thread = ParseUnescapedString();
    if (!thread.ok()) return thread.status();
    computation->set_execution_thread(std::move(*thread));
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::ParseInstructionList(Computation* computation,
                                                 size_t computation_offset) {
  instructions_.clear();
  parameters_seen_.clear();
  current_computation_ = computation;
  Instruction* root = nullptr;
  Instruction* last = nullptr;
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (lexer_.TryConsume('}')) break;
    if (lexer_.AtEnd()) {
      return ErrorAt(computation_offset,
                     absl::StrCat("unbalanced braces: computation '",
                                  computation->name(), "' is not closed"));
    }
    const size_t line_offset = lexer_.pos();
    bool is_root = false;
    absl::StatusOr<Instruction*> instruction =
        ParseInstruction(computation, &is_root);
    if (!instruction.ok()) return instruction.status();
    if (is_root) {
      if (root != nullptr) {
        return ErrorAt(line_offset, absl::StrCat("second ROOT in computation '",
                                                 computation->name(), "'"));
      }
      root = *instruction;
    }
    last = *instruction;
  }
  if (last == nullptr) {
    return ErrorAt(computation_offset,
                   absl::StrCat("computation '", computation->name(),
                                "' has no instructions"));
  }
  // XLA: without ROOT, the last instruction is the root.
  computation->set_root(root != nullptr ? root : last);
  return CheckParameters(computation, computation_offset);
}

absl::Status HloTextParser::CheckParameters(Computation* computation,
                                            size_t computation_offset) {
  const int64_t count = static_cast<int64_t>(parameters_seen_.size());
  std::vector<bool> seen(parameters_seen_.size(), false);
  for (const auto& [parameter, offset] : parameters_seen_) {
    const int64_t number = parameter->parameter_number();
    if (number < 0 || number >= count) {
      return ErrorAt(offset, absl::StrCat("parameter number ", number,
                                          " out of range: computation '",
                                          computation->name(), "' has ", count,
                                          " parameters"));
    }
    if (seen[number]) {
      return ErrorAt(offset,
                     absl::StrCat("duplicate parameter number ", number));
    }
    seen[number] = true;
  }
  if (static_cast<int64_t>(computation->parameters().size()) != count) {
    return ErrorAt(computation_offset, "internal: parameters not registered");
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::ResolveComputationRefs() {
  for (PendingComputationAttr& pending : pending_) {
    ComputationList resolved;
    resolved.reserve(pending.refs.size());
    for (const ComputationRef& ref : pending.refs) {
      auto it = computations_.find(ref.name);
      if (it == computations_.end()) {
        return ErrorAt(ref.offset,
                       absl::StrCat("undefined computation '", ref.name, "'"));
      }
      resolved.push_back(it->second);
    }
    AttrValue* slot =
        pending.instruction->mutable_attrs()->Find(pending.attr_name);
    if (slot == nullptr) continue;  // Cannot happen: set when parsed.
    if (pending.is_list) {
      *slot = std::move(resolved);
    } else {
      *slot = resolved.front();
    }
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::CheckForCallCycles() {
  // Caller -> (callee, offset of the reference). Iterative DFS with colors so
  // that deep call chains cannot overflow the stack.
  absl::flat_hash_map<const Computation*,
                      std::vector<std::pair<Computation*, size_t>>>
      callees;
  for (const PendingComputationAttr& pending : pending_) {
    for (const ComputationRef& ref : pending.refs) {
      callees[pending.caller].emplace_back(computations_.at(ref.name),
                                           ref.offset);
    }
  }
  enum Color : uint8_t { kWhite, kGray, kBlack };
  absl::flat_hash_map<const Computation*, Color> color;
  struct Frame {
    const Computation* computation;
    size_t next_edge;
  };
  for (Computation* start : module_->computations()) {
    if (color[start] != kWhite) continue;
    std::vector<Frame> stack = {{start, 0}};
    color[start] = kGray;
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const auto& edges = callees[frame.computation];
      if (frame.next_edge == edges.size()) {
        color[frame.computation] = kBlack;
        stack.pop_back();
        continue;
      }
      const auto& [callee, offset] = edges[frame.next_edge++];
      Color& callee_color = color[callee];
      if (callee_color == kGray) {
        return ErrorAt(offset, absl::StrCat("cycle in computation calls: '",
                                            callee->name(), "' calls itself"));
      }
      if (callee_color == kWhite) {
        callee_color = kGray;
        stack.push_back({callee, 0});
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace text_internal

absl::StatusOr<std::unique_ptr<Module>> ParseModule(
    absl::string_view text, const ParseOptions& options) {
  text_internal::HloTextParser parser(text, options);
  return parser.Run();
}

absl::StatusOr<Shape> ParseShape(absl::string_view text) {
  ParseOptions options;
  options.filename = "<shape>";
  text_internal::HloTextParser parser(text, options);
  absl::StatusOr<Shape> shape = parser.ParseShapeHere(false);
  if (!shape.ok()) return shape.status();
  if (absl::Status s = parser.Skip(); !s.ok()) return s;
  if (!parser.lexer().AtEnd()) {
    return parser.ErrorAt(parser.lexer().pos(), "unexpected text after shape");
  }
  return shape;
}

}  // namespace kiln
