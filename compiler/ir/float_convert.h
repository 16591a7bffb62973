// Conversions between doubles and the bit patterns of every float type,
// rounding to nearest even, with each type's rules for NaN, infinity,
// overflow, negative zero and subnormals, matching XLA and ml_dtypes.
#ifndef KILN_COMPILER_IR_FLOAT_CONVERT_H_
#define KILN_COMPILER_IR_FLOAT_CONVERT_H_

#include <cstdint>
#include <string>

#include "compiler/ir/element_type.h"
#include "compiler/ir/float_bits.h"

namespace kiln {

// `type` must be a float type (IsFloatType). The result holds the type's
// bit pattern in its low bit_width bits.
uint64_t FloatToBits(ElementType type, double value);
// Exact: every value of every float type up to f64 is a double.
double BitsToFloat(ElementType type, uint64_t bits);

// What float_bits.h's conversions take for `type` (a float type). The
// kernel emitter prints it into kernels (backends/cpu).
kiln_float::Format FloatFormatOf(ElementType type);

// Largest finite value, smallest normal, etc. as doubles.
double FloatMax(ElementType type);
double FloatMinNormal(ElementType type);
double FloatMinSubnormal(ElementType type);  // == min normal if none.
bool FloatBitsIsNaN(ElementType type, uint64_t bits);

// True if the finite `value` does not fit `type`: it rounds to inf or NaN,
// or, for types with neither (which saturate), lies at or beyond max plus
// half an ulp. inf and NaN themselves are never out of range. Parsers
// refuse such values rather than change them.
bool IsOutOfRange(ElementType type, double value);

// How finite floats are spelled. Both spellings parse back to the same bits.
enum class FloatTextStyle {
  // The fewest significant digits that read back to the same bits of the
  // type (f16 0.1 prints "0.1"). Kiln's canonical form.
  kShortest,
  // XLA's RoundTripFpToString: f32 "%.6g" else "%.9g", f64 "%.15g" else
  // "%.17g", other types "%.<max_digits10>g" (f16 0.1 prints "0.099976").
  // For output that must match XLA's dumps byte for byte.
  kXla,
};

// Appends the decimal text of one float ("0.1", "1e+10", "inf", "-nan",
// "nan(0x7)"), which parses back to the same bits (see literal_text.h).
// Types of at most 16 bits print from a table built on first use. Nothing
// is appended for a non-float type.
void AppendFloatText(std::string* out, ElementType type, uint64_t bits,
                     FloatTextStyle style = FloatTextStyle::kShortest);

}  // namespace kiln

#endif  // KILN_COMPILER_IR_FLOAT_CONVERT_H_
