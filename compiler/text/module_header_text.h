// Names of the HloModule header attributes that Kiln does not interpret but
// keeps verbatim (ModuleConfig::extra_attributes), shared by the parser and
// the printer.
#ifndef KILN_COMPILER_TEXT_MODULE_HEADER_TEXT_H_
#define KILN_COMPILER_TEXT_MODULE_HEADER_TEXT_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace kiln {

absl::Span<const absl::string_view> KnownExtraModuleAttributes();
bool IsKnownExtraModuleAttribute(absl::string_view name);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_MODULE_HEADER_TEXT_H_
