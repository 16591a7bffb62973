// Names of the HloModule header attributes that Kiln does not interpret but
// keeps verbatim (ModuleConfig::extra_attributes), shared by the parser and
// the printer.
#ifndef KILN_COMPILER_TEXT_MODULE_HEADER_TEXT_H_
#define KILN_COMPILER_TEXT_MODULE_HEADER_TEXT_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace kiln {

// Key in ModuleConfig::extra_attributes of the stack-frame tables that
// newer XLA writes between the HloModule line and the first computation
// (FileNames, FunctionNames, FileLocations, StackFrames), kept verbatim.
// '<' cannot start a header attribute name, so the key cannot collide.
inline constexpr absl::string_view kStackFrameTablesKey = "<stack_frames>";

absl::Span<const absl::string_view> KnownExtraModuleAttributes();
bool IsKnownExtraModuleAttribute(absl::string_view name);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_MODULE_HEADER_TEXT_H_
