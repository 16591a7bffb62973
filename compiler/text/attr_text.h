// Text codec for attribute values, one function pair per AttrKind. Works on
// raw text at an offset (like literal_text.h) so that the module parser can
// hand over at any position and resume after the value.
#ifndef KILN_COMPILER_TEXT_ATTR_TEXT_H_
#define KILN_COMPILER_TEXT_ATTR_TEXT_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/attributes.h"
#include "compiler/ops/op_schema.h"

namespace kiln {

// Parses the value of attribute `spec` from the start of `text` (just after
// "name="). Leading whitespace/comments are skipped. Sets `*consumed` on
// success; on error `*error_offset` is where in `text` the problem is and
// the message names the attribute and what was expected.
// kComputation / kComputationList are not handled here (the module parser
// resolves names); they return an error.
absl::StatusOr<AttrValue> ParseAttrValue(const AttrSpec& spec,
                                         absl::string_view text,
                                         size_t* consumed,
                                         size_t* error_offset);

// Appends the canonical text of `value` (the part after "name=").
// Computation kinds print their names with '%' prefixes.
void PrintAttrValue(const AttrSpec& spec, const AttrValue& value,
                    std::string* out);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_ATTR_TEXT_H_
