// Conversions between doubles and the bit patterns of every float type,
// rounding to nearest even, with each type's rules for NaN, infinity,
// overflow, negative zero and subnormals, matching XLA and ml_dtypes.
#ifndef KILN_COMPILER_IR_FLOAT_CONVERT_H_
#define KILN_COMPILER_IR_FLOAT_CONVERT_H_

#include <cstdint>

#include "compiler/ir/element_type.h"

namespace kiln {

// `type` must be a float type (IsFloatType). The result holds the type's
// bit pattern in its low bit_width bits.
uint64_t FloatToBits(ElementType type, double value);
// Exact: every value of every float type up to f64 is a double.
double BitsToFloat(ElementType type, uint64_t bits);

// Largest finite value, smallest normal, etc. as doubles.
double FloatMax(ElementType type);
double FloatMinNormal(ElementType type);
double FloatMinSubnormal(ElementType type);  // == min normal if none.
bool FloatBitsIsNaN(ElementType type, uint64_t bits);

}  // namespace kiln

#endif  // KILN_COMPILER_IR_FLOAT_CONVERT_H_
