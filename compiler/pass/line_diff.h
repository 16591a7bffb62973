// A small line-based unified diff, for the before/after dumps of passes.
#ifndef KILN_COMPILER_PASS_LINE_DIFF_H_
#define KILN_COMPILER_PASS_LINE_DIFF_H_

#include <string>

#include "absl/strings/string_view.h"

namespace kiln {

// The unified diff (3 lines of context, "@@ -a,b +c,d @@" hunks, headers
// "--- <before_name>" / "+++ <after_name>") turning `before` into `after`;
// "" when they are equal. Myers' O((N+M)·D) algorithm after trimming the
// common prefix and suffix: time grows with the size of the edit, so the
// typical small edit of a pass is cheap. Memory is O(D·(N+M)) for the
// trace (fine for pass dumps, not meant for huge rewrites of huge files).
std::string UnifiedLineDiff(absl::string_view before, absl::string_view after,
                            absl::string_view before_name,
                            absl::string_view after_name);

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_LINE_DIFF_H_
