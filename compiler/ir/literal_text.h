// Literal text exactly as XLA prints it: nested braces, true/false, inf,
// -inf, nan, -nan, nan(0x...) payloads, complex as (re, im), tuples as
// ( ... ), and the {...} elision for large values when asked for.
// Floats print as XLA's RoundTripFpToString does ("%.6g" else "%.9g" for
// f32, "%.15g" else "%.17g" for f64, "%.<max_digits10>g" for the others),
// which always parses back to the same bits.
#ifndef KILN_COMPILER_IR_LITERAL_TEXT_H_
#define KILN_COMPILER_IR_LITERAL_TEXT_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/float_convert.h"
#include "compiler/ir/literal.h"

namespace kiln {

struct LiteralPrintOptions {
  // Print "{...}" instead of values when the literal has more elements than
  // this. Negative: never elide.
  int64_t elide_above = -1;
  // Shortest round-trip digits (canonical) or XLA's fixed digit counts.
  FloatTextStyle float_style = FloatTextStyle::kShortest;
};

// The value part only, as inside constant(...): "{1, 2, 3}", "3.5",
// "{ { 1, 2 }, { 3, 4 } }" (XLA's spacing), "( 1, {2} )" for tuples; pred
// arrays print as 1/0 and a pred scalar as true/false, as XLA does.
std::string LiteralValueToString(const Literal& literal,
                                 const LiteralPrintOptions& options = {});

// Decimal text of one element of a float type that parses back to the same
// bits ("0.1", "1e+10", "inf", "-nan", "nan(0x7)").
// "(3,2)" for a dynamic array: every dimension's size, as XLA prints after
// the shape; "" for anything else.
std::string DynamicSizesToString(const Literal& literal);

// The literal as XLA's Literal::ToString writes it on one line: shape
// (without layout), dynamic sizes, a blank and the value, e.g.
// "f32[<=4](3) {1, 2, 3}" (only a dynamic array's valid elements print).
std::string LiteralToString(const Literal& literal,
                            const LiteralPrintOptions& options = {});

std::string FloatBitsToString(ElementType type, uint64_t bits,
                              FloatTextStyle style = FloatTextStyle::kShortest);

// Parses the value part for `shape` from the start of `text` (blanks and
// /* comments */ are allowed between tokens). "{...}" (values elided by the
// printer) is an error unless `allow_elided`, which reads it as all zeros.
// On success `*consumed` is the number of bytes read. On error the status
// message is prefixed with nothing; `*error_offset` says where in `text` it
// occurred, so callers can turn it into line:col.
absl::StatusOr<Literal> ParseLiteralValue(
    const Shape& shape, absl::string_view text, size_t* consumed,
    size_t* error_offset, int64_t max_bytes = kDefaultMaxLiteralBytes,
    bool allow_elided = false);

}  // namespace kiln

#endif  // KILN_COMPILER_IR_LITERAL_TEXT_H_
