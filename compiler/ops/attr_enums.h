// Typed views of the enumerated attributes. An EnumValue stores XLA's
// spelling; these helpers map it to a C++ enum whose enumerators follow the
// order of the spellings in the op's schema, so that the schema stays the
// one place that lists them.
#ifndef KILN_COMPILER_OPS_ATTR_ENUMS_H_
#define KILN_COMPILER_OPS_ATTR_ENUMS_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/opcode.h"

namespace kiln {

// compare's direction= (EQ, NE, GE, GT, LE, LT).
enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };
// compare's type= (FLOAT, TOTALORDER, SIGNED, UNSIGNED).
enum class ComparisonType { kFloat, kTotalOrder, kSigned, kUnsigned };
// fusion's kind= (kLoop, kInput, kOutput, kCustom).
enum class FusionKind { kLoop, kInput, kOutput, kCustom };
// fft's fft_type= (FFT, IFFT, RFFT, IRFFT).
enum class FftType { kFft, kIfft, kRfft, kIrfft };
// rng's distribution= (rng_uniform, rng_normal).
enum class RandomDistribution { kUniform, kNormal };
// rng-bit-generator's algorithm= (rng_default, rng_three_fry, rng_philox).
enum class RandomAlgorithm { kDefault, kThreeFry, kPhilox };
// One entry of operand_precision= (default, high, highest, packed_nibble).
enum class Precision { kDefault, kHigh, kHighest, kPackedNibble };

// The index of `spelling` among the spellings of attribute `attr` of
// `opcode`, or nullopt if the op has no such enum attribute or spelling.
std::optional<int> EnumIndex(Opcode opcode, absl::string_view attr,
                             absl::string_view spelling);

// Spelling <-> typed value. Parse* return nullopt for unknown spellings.
std::optional<ComparisonDirection> ParseComparisonDirection(
    absl::string_view spelling);
std::optional<ComparisonType> ParseComparisonType(absl::string_view spelling);
std::optional<FusionKind> ParseFusionKind(absl::string_view spelling);
std::optional<FftType> ParseFftType(absl::string_view spelling);
std::optional<RandomDistribution> ParseRandomDistribution(
    absl::string_view spelling);
std::optional<RandomAlgorithm> ParseRandomAlgorithm(absl::string_view spelling);
std::optional<Precision> ParsePrecision(absl::string_view spelling);

EnumValue ToEnumValue(ComparisonDirection value);
EnumValue ToEnumValue(ComparisonType value);
EnumValue ToEnumValue(FusionKind value);
EnumValue ToEnumValue(FftType value);
EnumValue ToEnumValue(RandomDistribution value);
EnumValue ToEnumValue(RandomAlgorithm value);
EnumValue ToEnumValue(Precision value);

}  // namespace kiln

#endif  // KILN_COMPILER_OPS_ATTR_ENUMS_H_
