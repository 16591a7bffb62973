// The attributes of the "HloModule name, ..." line.
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/module_header_text.h"
#include "compiler/text/parser_internal.h"

namespace kiln {

namespace text_internal {
namespace {

absl::StatusOr<bool> ParseBool(HloTextParser& parser,
                               absl::string_view attribute) {
  if (absl::Status s = parser.Skip(); !s.ok()) return s;
  Lexer& lexer = parser.lexer();
  const size_t offset = lexer.pos();
  absl::string_view word = lexer.LexIdentifier();
  if (word == "true") return true;
  if (word == "false") return false;
  return parser.ErrorAt(offset,
                        absl::StrCat("expected true or false for ", attribute));
}

absl::StatusOr<ComputationLayout> ParseComputationLayout(
    HloTextParser& parser) {
  ComputationLayout layout;
  Lexer& lexer = parser.lexer();
  if (absl::Status s = parser.Expect('{', "to open entry_computation_layout");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = parser.Expect('(', "to open the parameter layouts");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = parser.Skip(); !s.ok()) return s;
  if (!lexer.TryConsume(')')) {
    while (true) {
      absl::StatusOr<Shape> shape = parser.ParseShapeHere(false);
      if (!shape.ok()) return shape.status();
      layout.parameters.push_back(std::move(*shape));
      if (absl::Status s = parser.Skip(); !s.ok()) return s;
      if (lexer.TryConsume(')')) break;
      if (!lexer.TryConsume(',')) {
        return parser.ErrorAt(
            lexer.pos(), "expected ',' or ')' in entry_computation_layout");
      }
    }
  }
  if (absl::Status s = parser.Skip(); !s.ok()) return s;
  if (!lexer.TryConsume("->")) {
    return parser.ErrorAt(lexer.pos(),
                          "expected '->' in entry_computation_layout");
  }
  absl::StatusOr<Shape> result = parser.ParseShapeHere(false);
  if (!result.ok()) return result.status();
  layout.result = std::move(*result);
  if (absl::Status s = parser.Expect('}', "to close entry_computation_layout");
      !s.ok()) {
    return s;
  }
  return layout;
}

// Runs `parse_one` for each element of "{ a, b, ... }".
template <typename ParseOne>
absl::Status ParseBracedList(HloTextParser& parser, absl::string_view what,
                             ParseOne parse_one) {
  Lexer& lexer = parser.lexer();
  if (absl::Status s = parser.Expect('{', absl::StrCat("to open ", what));
      !s.ok()) {
    return s;
  }
  if (absl::Status s = parser.Skip(); !s.ok()) return s;
  if (lexer.TryConsume('}')) return absl::OkStatus();
  while (true) {
    if (absl::Status s = parse_one(); !s.ok()) return s;
    if (absl::Status s = parser.Skip(); !s.ok()) return s;
    if (lexer.TryConsume('}')) return absl::OkStatus();
    if (!lexer.TryConsume(',')) {
      return parser.ErrorAt(lexer.pos(),
                            absl::StrCat("expected ',' or '}' in ", what));
    }
  }
}

// {0}: (0, {}, may-alias)
absl::Status ParseOneAlias(HloTextParser& parser,
                           std::vector<InputOutputAlias>* aliases) {
  Lexer& lexer = parser.lexer();
  InputOutputAlias alias;
  absl::StatusOr<std::vector<int64_t>> output = parser.ParseShapeIndex();
  if (!output.ok()) return output.status();
  alias.output_index = std::move(*output);
  if (absl::Status s = parser.Expect(':', "in input_output_alias"); !s.ok()) {
    return s;
  }
  if (absl::Status s = parser.Expect('(', "in input_output_alias"); !s.ok()) {
    return s;
  }
  absl::StatusOr<int64_t> number = parser.ParseInt64("as parameter number");
  if (!number.ok()) return number.status();
  alias.parameter_number = *number;
  if (absl::Status s = parser.Expect(',', "in input_output_alias"); !s.ok()) {
    return s;
  }
  absl::StatusOr<std::vector<int64_t>> index = parser.ParseShapeIndex();
  if (!index.ok()) return index.status();
  alias.parameter_index = std::move(*index);
  if (absl::Status s = parser.Skip(); !s.ok()) return s;
  if (lexer.TryConsume(',')) {
    if (absl::Status s = parser.Skip(); !s.ok()) return s;
    const size_t kind_offset = lexer.pos();
    absl::string_view kind = lexer.LexIdentifier();
    if (kind == "must-alias") {
      alias.must_alias = true;
    } else if (kind != "may-alias") {
      return parser.ErrorAt(kind_offset, "expected may-alias or must-alias");
    }
  }
  if (absl::Status s = parser.Expect(')', "in input_output_alias"); !s.ok()) {
    return s;
  }
  aliases->push_back(std::move(alias));
  return absl::OkStatus();
}

// (0, {})
absl::Status ParseOneDonor(HloTextParser& parser,
                           std::vector<BufferDonor>* donors) {
  BufferDonor donor;
  if (absl::Status s = parser.Expect('(', "in buffer_donor"); !s.ok()) return s;
  absl::StatusOr<int64_t> number = parser.ParseInt64("as parameter number");
  if (!number.ok()) return number.status();
  donor.parameter_number = *number;
  if (absl::Status s = parser.Expect(',', "in buffer_donor"); !s.ok()) return s;
  absl::StatusOr<std::vector<int64_t>> index = parser.ParseShapeIndex();
  if (!index.ok()) return index.status();
  donor.parameter_index = std::move(*index);
  if (absl::Status s = parser.Expect(')', "in buffer_donor"); !s.ok()) return s;
  donors->push_back(std::move(donor));
  return absl::OkStatus();
}

constexpr absl::string_view kStackFrameSections[] = {
    "FileNames", "FunctionNames", "FileLocations", "StackFrames"};

}  // namespace

absl::Status HloTextParser::ParseStackFrameTables() {
  if (absl::Status s = Skip(); !s.ok()) return s;
  const size_t start = lexer_.pos();
  size_t end = start;
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t section_start = lexer_.pos();
    bool is_section = false;
    for (absl::string_view section : kStackFrameSections) {
      if (lexer_.AtKeyword(section)) {
        lexer_.TryConsume(section);
        is_section = true;
        break;
      }
    }
    if (!is_section) break;
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (!absl::ascii_isdigit(static_cast<unsigned char>(lexer_.Peek()))) {
      // A computation that happens to be named like a section.
      lexer_.set_pos(section_start);
      break;
    }
    // Rows: "<id> <value>", the value a quoted string or a {...} record.
    while (absl::ascii_isdigit(static_cast<unsigned char>(lexer_.Peek()))) {
      absl::StatusOr<int64_t> id = ParseInt64("as a table row id");
      if (!id.ok()) return id.status();
      absl::StatusOr<RawText> value = ParseRawValue();
      if (!value.ok()) return value.status();
      end = lexer_.pos();
      if (absl::Status s = Skip(); !s.ok()) return s;
    }
  }
  lexer_.set_pos(end > start ? end : start);
  if (end > start) {
    module_->config().extra_attributes.emplace_back(
        std::string(kStackFrameTablesKey),
        RawText{std::string(lexer_.text().substr(start, end - start))});
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::ParseModuleHeader() {
  ModuleConfig& config = module_->config();
  std::vector<absl::string_view> seen;
  while (true) {
    if (absl::Status s = Skip(); !s.ok()) return s;
    if (!lexer_.TryConsume(',')) return ParseStackFrameTables();
    if (absl::Status s = Skip(); !s.ok()) return s;
    const size_t offset = lexer_.pos();
    absl::string_view name = lexer_.LexAttributeName();
    if (name.empty()) return ErrorAt(offset, "expected a module attribute");
    for (absl::string_view previous : seen) {
      if (previous == name) {
        return ErrorAt(offset,
                       absl::StrCat("duplicate module attribute '", name, "'"));
      }
    }
    seen.push_back(name);
    if (absl::Status s = Expect('=', "after a module attribute name");
        !s.ok()) {
      return s;
    }
    absl::Status status;
    if (name == "is_scheduled") {
      absl::StatusOr<bool> value = ParseBool(*this, name);
      status = value.status();
      if (value.ok()) config.is_scheduled = *value;
    } else if (name == "replica_count" || name == "num_partitions") {
      absl::StatusOr<int64_t> value = ParseInt64(absl::StrCat("for ", name));
      status = value.status();
      if (value.ok()) {
        (name == "replica_count" ? config.replica_count
                                 : config.num_partitions) = *value;
      }
    } else if (name == "entry_computation_layout") {
      absl::StatusOr<ComputationLayout> value = ParseComputationLayout(*this);
      status = value.status();
      if (value.ok()) config.entry_computation_layout = std::move(*value);
    } else if (name == "input_output_alias") {
      status = ParseBracedList(*this, name, [&] {
        return ParseOneAlias(*this, &config.input_output_alias);
      });
    } else if (name == "buffer_donor") {
      status = ParseBracedList(*this, name, [&] {
        return ParseOneDonor(*this, &config.buffer_donor);
      });
    } else if (name == "frontend_attributes") {
      auto value = ParseFrontendAttributes();
      status = value.status();
      if (value.ok()) config.frontend_attributes = std::move(*value);
    } else if (IsKnownExtraModuleAttribute(name)) {
      absl::StatusOr<RawText> value = ParseRawValue();
      status = value.status();
      if (value.ok()) {
        config.extra_attributes.emplace_back(std::string(name),
                                             std::move(*value));
      }
    } else {
      return ErrorAt(offset,
                     absl::StrCat("unknown module attribute '", name, "'"));
    }
    if (!status.ok()) return status;
  }
}

}  // namespace text_internal
}  // namespace kiln
