// NumPy .npy files (format versions 1.0, 2.0 and 3.0) to and from literals,
// for `kiln run --args=@x.npy` and `kiln run --output=DIR`.
//
// Types map as NumPy names them: bool <-> pred, int8..int64 <-> s8..s64,
// uint8..uint64 <-> u8..u64, float16/32/64 <-> f16/f32/f64, complex64/128
// <-> c64/c128. NumPy has no native type for the others; ml_dtypes saves
// its bfloat16 arrays with the raw 2-byte dtype 'V2' and its 1-byte types
// (float8_*, int4, ...) as 'V1'. Kiln reads such raw dtypes as the element
// type the caller names (the parameter's type) when the widths agree, and
// writes bf16 as 'V2' and the 1-byte narrow types (f8*, f6*, f4*, s1..s4,
// u1..u4) as 'V1' holding Kiln's literal bytes (the bit pattern in the low
// bits), so a round trip through Kiln keeps every bit.
#ifndef KILN_TOOLS_CLI_NPY_H_
#define KILN_TOOLS_CLI_NPY_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"

namespace kiln::cli {

struct NpyReadOptions {
  // The element type raw dtypes ('V1', 'V2') are read as; kInvalid refuses
  // them.
  ElementType raw_type = ElementType::kInvalid;
  // Arrays larger than this are refused before any allocation.
  int64_t max_bytes = kDefaultMaxLiteralBytes;
};

// Decodes the bytes of a .npy file. Accepts little- and big-endian data
// ('<', '>', '|'; '=' is taken as little-endian, the byte order of every
// machine Kiln runs on) and fortran_order (transposed into row-major).
// Structured dtypes, object arrays and truncated files are errors.
absl::StatusOr<Literal> ParseNpy(absl::string_view bytes,
                                 const NpyReadOptions& options = {});

// Encodes an array literal as a version 1.0 .npy file (2.0 if the header
// needs it), little-endian, C order. Tuples and tokens are errors.
absl::StatusOr<std::string> SerializeNpy(const Literal& literal);

// The same through files; errors start with "PATH: ".
absl::StatusOr<Literal> ReadNpyFile(const std::string& path,
                                    const NpyReadOptions& options = {});
absl::Status WriteNpyFile(const std::string& path, const Literal& literal);

}  // namespace kiln::cli

#endif  // KILN_TOOLS_CLI_NPY_H_
