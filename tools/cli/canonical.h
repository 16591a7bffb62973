// Canonical HLO text with the round-trip guarantee checked: the text is
// parsed, printed, and the print is parsed and printed again; both prints
// must be identical. This is what `kiln fmt` shows and `kiln fmt --check`
// compares against.
#ifndef KILN_TOOLS_CLI_CANONICAL_H_
#define KILN_TOOLS_CLI_CANONICAL_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace kiln::cli {

// Returns the canonical print of the module in `text`. Parse errors come back
// as "filename:line:col: error: ..."; a print that does not parse back to
// itself is an InternalError naming the first differing line.
absl::StatusOr<std::string> CanonicalText(absl::string_view text,
                                          const std::string& filename);

// 1-based number of the first line where `a` and `b` differ, or 0 if equal.
int64_t FirstDifferentLine(absl::string_view a, absl::string_view b);

}  // namespace kiln::cli

#endif  // KILN_TOOLS_CLI_CANONICAL_H_
