// Typed enum views, looked up in the schema spellings (see attr_enums.h).
#include "compiler/ops/attr_enums.h"

#include <string>
#include <vector>

#include "compiler/ops/op_schema.h"
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace {

const std::vector<std::string>& Spellings(Opcode opcode,
                                          absl::string_view attr) {
  static const std::vector<std::string>* const kNone =
      new std::vector<std::string>();
  const AttrSpec* spec = FindAttrSpec(GetOpSchema(opcode), attr);
  return spec == nullptr ? *kNone : spec->enum_values;
}

std::optional<int> IndexIn(const std::vector<std::string>& spellings,
                           absl::string_view spelling) {
  for (size_t i = 0; i < spellings.size(); ++i) {
    if (spellings[i] == spelling) return static_cast<int>(i);
  }
  return std::nullopt;
}

// Where each typed enum's spellings live in the schema.
template <typename E>
struct EnumSource;
#define KILN_ENUM_SOURCE(E, OPCODE, ATTR)          \
  template <>                                      \
  struct EnumSource<E> {                           \
    static const std::vector<std::string>& Get() { \
      return Spellings(OPCODE, ATTR);              \
    }                                              \
  };
KILN_ENUM_SOURCE(ComparisonDirection, Opcode::kCompare, "direction")
KILN_ENUM_SOURCE(ComparisonType, Opcode::kCompare, "type")
KILN_ENUM_SOURCE(FusionKind, Opcode::kFusion, "kind")
KILN_ENUM_SOURCE(FftType, Opcode::kFft, "fft_type")
KILN_ENUM_SOURCE(RandomDistribution, Opcode::kRng, "distribution")
KILN_ENUM_SOURCE(RandomAlgorithm, Opcode::kRngBitGenerator, "algorithm")
#undef KILN_ENUM_SOURCE
template <>
struct EnumSource<Precision> {
  static const std::vector<std::string>& Get() {
    return ops_internal::PrecisionSpellings();
  }
};

template <typename E>
std::optional<E> ParseTyped(absl::string_view spelling) {
  std::optional<int> index = IndexIn(EnumSource<E>::Get(), spelling);
  if (!index.has_value()) return std::nullopt;
  return static_cast<E>(*index);
}

template <typename E>
EnumValue ToTyped(E value) {
  return EnumValue{EnumSource<E>::Get()[static_cast<int>(value)]};
}

}  // namespace

std::optional<int> EnumIndex(Opcode opcode, absl::string_view attr,
                             absl::string_view spelling) {
  return IndexIn(Spellings(opcode, attr), spelling);
}

std::optional<ComparisonDirection> ParseComparisonDirection(
    absl::string_view spelling) {
  return ParseTyped<ComparisonDirection>(spelling);
}
std::optional<ComparisonType> ParseComparisonType(absl::string_view spelling) {
  return ParseTyped<ComparisonType>(spelling);
}
std::optional<FusionKind> ParseFusionKind(absl::string_view spelling) {
  return ParseTyped<FusionKind>(spelling);
}
std::optional<FftType> ParseFftType(absl::string_view spelling) {
  return ParseTyped<FftType>(spelling);
}
std::optional<RandomDistribution> ParseRandomDistribution(
    absl::string_view spelling) {
  return ParseTyped<RandomDistribution>(spelling);
}
std::optional<RandomAlgorithm> ParseRandomAlgorithm(
    absl::string_view spelling) {
  return ParseTyped<RandomAlgorithm>(spelling);
}
std::optional<Precision> ParsePrecision(absl::string_view spelling) {
  return ParseTyped<Precision>(spelling);
}

EnumValue ToEnumValue(ComparisonDirection value) { return ToTyped(value); }
EnumValue ToEnumValue(ComparisonType value) { return ToTyped(value); }
EnumValue ToEnumValue(FusionKind value) { return ToTyped(value); }
EnumValue ToEnumValue(FftType value) { return ToTyped(value); }
EnumValue ToEnumValue(RandomDistribution value) { return ToTyped(value); }
EnumValue ToEnumValue(RandomAlgorithm value) { return ToTyped(value); }
EnumValue ToEnumValue(Precision value) { return ToTyped(value); }

}  // namespace kiln
