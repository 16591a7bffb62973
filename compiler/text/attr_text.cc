// Attribute-value text codec: dispatch by AttrKind for parsing (a table)
// and by the value's type for printing (std::visit), plus the scalar and
// list kinds. Structured kinds live in attr_text_structured.cc and
// attr_text_groups.cc.
#include "compiler/text/attr_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/computation.h"
#include "compiler/text/attr_text_internal.h"

namespace kiln {
namespace text_internal {

absl::Status ParseInt64ListInto(AttrScanner* s, Int64List* out) {
  if (!s->SkipAndConsume('{')) return s->Expected("'{' to start a list");
  if (s->SkipAndConsume('}')) return absl::OkStatus();
  // One allocation: count the entries up to the closing brace first.
  size_t entries = 1;
  for (size_t i = s->pos(); i < s->text().size(); ++i) {
    const char c = s->text()[i];
    if (c == '}') break;
    if (c == ',') ++entries;
  }
  out->reserve(out->size() + entries);
  do {
    absl::StatusOr<int64_t> value = s->ParseInt("an integer");
    if (!value.ok()) return value.status();
    out->push_back(*value);
  } while (s->SkipAndConsume(','));
  if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in list");
  return absl::OkStatus();
}

void AppendInt64List(const Int64List& list, std::string* out) {
  out->push_back('{');
  absl::StrAppend(out, absl::StrJoin(list, ","));
  out->push_back('}');
}

namespace {

template <typename T>
absl::StatusOr<AttrValue> Wrap(absl::StatusOr<T> value) {
  if (!value.ok()) return value.status();
  return AttrValue(std::in_place_type<T>, *std::move(value));
}

absl::StatusOr<AttrValue> ParseBoolValue(const AttrSpec&, AttrScanner* s) {
  return Wrap<bool>(s->ParseBool());
}

absl::StatusOr<AttrValue> ParseInt64Value(const AttrSpec&, AttrScanner* s) {
  return Wrap<int64_t>(s->ParseInt("an integer"));
}

bool IsFloatChar(char c) {
  return IsDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

absl::StatusOr<AttrValue> ParseFloatValue(const AttrSpec&, AttrScanner* s) {
  s->SkipSpace();
  const size_t start = s->pos();
  const bool negative = s->Consume('-');
  if (s->SkipAndConsumeWord("inf")) {
    return AttrValue(std::in_place_type<double>,
                     negative ? -HUGE_VAL : HUGE_VAL);
  }
  if (s->SkipAndConsumeWord("nan")) {
    return AttrValue(std::in_place_type<double>,
                     negative ? -std::nan("") : std::nan(""));
  }
  while (!s->AtEnd() && IsFloatChar(s->Peek())) s->Advance();
  double value = 0;
  absl::string_view token = s->text().substr(start, s->pos() - start);
  if (token.empty() || !absl::SimpleAtod(token, &value)) {
    s->set_pos(start);
    return s->Expected("a floating-point number");
  }
  return AttrValue(std::in_place_type<double>, value);
}

absl::StatusOr<AttrValue> ParseStringValue(const AttrSpec&, AttrScanner* s) {
  return Wrap<std::string>(s->ParseQuotedString());
}

absl::StatusOr<AttrValue> ParseInt64ListValue(const AttrSpec&, AttrScanner* s) {
  Int64List list;
  absl::Status status = ParseInt64ListInto(s, &list);
  if (!status.ok()) return status;
  return AttrValue(std::in_place_type<Int64List>, std::move(list));
}

absl::StatusOr<AttrValue> ParseInt64ListListValue(const AttrSpec&,
                                                  AttrScanner* s) {
  Int64ListList lists;
  if (!s->SkipAndConsume('{')) return s->Expected("'{' to start a list");
  if (!s->SkipAndConsume('}')) {
    do {
      Int64List list;
      absl::Status status = ParseInt64ListInto(s, &list);
      if (!status.ok()) return status;
      lists.push_back(std::move(list));
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in list");
  }
  return AttrValue(std::in_place_type<Int64ListList>, std::move(lists));
}

// {true,false} or, as XLA also accepts for parameter_replication, a bare
// bool.
absl::StatusOr<AttrValue> ParseBoolListValue(const AttrSpec&, AttrScanner* s) {
  BoolList list;
  if (!s->SkipAndConsume('{')) {
    absl::StatusOr<bool> value = s->ParseBool();
    if (!value.ok()) return s->Expected("'{' or a bool");
    list.push_back(*value);
    return AttrValue(std::in_place_type<BoolList>, std::move(list));
  }
  if (!s->SkipAndConsume('}')) {
    do {
      absl::StatusOr<bool> value = s->ParseBool();
      if (!value.ok()) return value.status();
      list.push_back(*value);
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in list");
  }
  return AttrValue(std::in_place_type<BoolList>, std::move(list));
}

// Finds `word` among the spec's spellings: exactly, else ignoring case
// (XLA accepts operand_precision={HIGH}); the result is the spec's spelling.
const std::string* MatchEnum(const AttrSpec& spec, absl::string_view word) {
  for (const std::string& spelling : spec.enum_values) {
    if (spelling == word) return &spelling;
  }
  for (const std::string& spelling : spec.enum_values) {
    if (absl::EqualsIgnoreCase(spelling, word)) return &spelling;
  }
  return nullptr;
}

absl::StatusOr<std::string> ParseEnumWord(const AttrSpec& spec,
                                          AttrScanner* s) {
  s->SkipSpace();
  const size_t start = s->pos();
  absl::string_view word = s->ParseIdentifier();
  const std::string* spelling = MatchEnum(spec, word);
  if (spelling == nullptr) {
    s->set_pos(start);
    return s->Expected(
        absl::StrCat("one of ", absl::StrJoin(spec.enum_values, ", ")));
  }
  return *spelling;
}

absl::StatusOr<AttrValue> ParseEnumValue(const AttrSpec& spec, AttrScanner* s) {
  absl::StatusOr<std::string> spelling = ParseEnumWord(spec, s);
  if (!spelling.ok()) return spelling.status();
  return AttrValue(EnumValue{*std::move(spelling)});
}

absl::StatusOr<AttrValue> ParseEnumListValue(const AttrSpec& spec,
                                             AttrScanner* s) {
  EnumList list;
  if (!s->SkipAndConsume('{')) return s->Expected("'{' to start a list");
  if (!s->SkipAndConsume('}')) {
    do {
      absl::StatusOr<std::string> spelling = ParseEnumWord(spec, s);
      if (!spelling.ok()) return spelling.status();
      list.spellings.push_back(*std::move(spelling));
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in list");
  }
  return AttrValue(std::move(list));
}

absl::StatusOr<AttrValue> ParseShapeValue(const AttrSpec&, AttrScanner* s) {
  return Wrap<Shape>(ParseShape(s));
}

absl::StatusOr<AttrValue> ParseShapeListValue(const AttrSpec&, AttrScanner* s) {
  ShapeList shapes;
  if (!s->SkipAndConsume('{')) return s->Expected("'{' to start a list");
  if (!s->SkipAndConsume('}')) {
    do {
      absl::StatusOr<Shape> shape = ParseShape(s);
      if (!shape.ok()) return shape.status();
      shapes.push_back(*std::move(shape));
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in list");
  }
  return AttrValue(std::in_place_type<ShapeList>, std::move(shapes));
}

absl::StatusOr<AttrValue> ParseComputationValue(const AttrSpec&,
                                                AttrScanner* s) {
  return s->Error("computation references are resolved by the module parser");
}

// Indexed by AttrKind, in enum order.
constexpr AttrParser kParsers[] = {
    ParseBoolValue,        ParseInt64Value,       ParseFloatValue,
    ParseStringValue,      ParseInt64ListValue,   ParseInt64ListListValue,
    ParseBoolListValue,    ParseWindowValue,      ParseConvDimLabelsValue,
    ParsePaddingValue,     ParseSliceValue,       ParseReplicaGroupsValue,
    ParseEnumValue,        ParseEnumListValue,    ParseAliasingValue,
    ParseRawTextValue,     ParseShapeValue,       ParseShapeListValue,
    ParseComputationValue, ParseComputationValue,
};
static_assert(sizeof(kParsers) / sizeof(kParsers[0]) ==
                  static_cast<int>(AttrKind::kComputationList) + 1,
              "kParsers must have one entry per AttrKind");

// The shortest text that parses back to the same double ("0.001", "1e-05").
void AppendShortestDouble(double value, std::string* out) {
  if (std::isnan(value)) {
    out->append(std::signbit(value) ? "-nan" : "nan");
    return;
  }
  if (std::isinf(value)) {
    out->append(value < 0 ? "-inf" : "inf");
    return;
  }
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    const int n =
        std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value || precision == 17) {
      out->append(buffer, n);
      return;
    }
  }
}

void AppendComputationName(const Computation* computation, std::string* out) {
  out->push_back('%');
  if (computation != nullptr) out->append(computation->name());
}

// One overload per AttrValue alternative.
struct ValuePrinter {
  std::string* out;
  void operator()(bool v) const { out->append(v ? "true" : "false"); }
  void operator()(int64_t v) const { absl::StrAppend(out, v); }
  void operator()(double v) const { AppendShortestDouble(v, out); }
  void operator()(const std::string& v) const {
    absl::StrAppend(out, "\"", absl::CEscape(v), "\"");
  }
  void operator()(const Int64List& v) const { AppendInt64List(v, out); }
  void operator()(const Int64ListList& v) const {
    out->push_back('{');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendInt64List(v[i], out);
    }
    out->push_back('}');
  }
  void operator()(const BoolList& v) const {
    out->push_back('{');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out->push_back(',');
      out->append(v[i] ? "true" : "false");
    }
    out->push_back('}');
  }
  void operator()(const Window& v) const { PrintWindow(v, out); }
  void operator()(const ConvolutionDimensionNumbers& v) const {
    PrintConvDimLabels(v, out);
  }
  void operator()(const PaddingConfig& v) const { PrintPadding(v, out); }
  void operator()(const SliceRanges& v) const { PrintSlice(v, out); }
  void operator()(const ReplicaGroups& v) const { PrintReplicaGroups(v, out); }
  void operator()(const EnumValue& v) const { out->append(v.spelling); }
  void operator()(const EnumList& v) const {
    absl::StrAppend(out, "{", absl::StrJoin(v.spellings, ","), "}");
  }
  void operator()(const OutputOperandAliasing& v) const {
    PrintAliasing(v, out);
  }
  void operator()(const RawText& v) const { out->append(v.text); }
  void operator()(const Shape& v) const { out->append(v.ToString()); }
  void operator()(const ShapeList& v) const {
    out->push_back('{');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out->append(", ");
      out->append(v[i].ToString());
    }
    out->push_back('}');
  }
  void operator()(Computation* v) const { AppendComputationName(v, out); }
  void operator()(const ComputationList& v) const {
    out->push_back('{');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out->append(", ");
      AppendComputationName(v[i], out);
    }
    out->push_back('}');
  }
};

}  // namespace
}  // namespace text_internal

absl::StatusOr<AttrValue> ParseAttrValue(const AttrSpec& spec,
                                         absl::string_view text,
                                         size_t* consumed,
                                         size_t* error_offset) {
  text_internal::AttrScanner scanner(text, spec.name);
  const int kind = static_cast<int>(spec.kind);
  absl::StatusOr<AttrValue> value =
      text_internal::kParsers[kind](spec, &scanner);
  if (!value.ok()) {
    if (error_offset != nullptr) *error_offset = scanner.error_offset();
    return value.status();
  }
  if (consumed != nullptr) *consumed = scanner.pos();
  return value;
}

void PrintAttrValue(const AttrSpec& spec, const AttrValue& value,
                    std::string* out) {
  (void)spec;  // The value's own type decides; the spec is for symmetry.
  std::visit(text_internal::ValuePrinter{out}, value);
}

}  // namespace kiln
