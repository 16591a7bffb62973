// The builder example of docs/builder.md (softmax_builder.cc).
#ifndef KILN_EXAMPLES_SOFTMAX_BUILDER_H_
#define KILN_EXAMPLES_SOFTMAX_BUILDER_H_

#include <string>

#include "absl/status/statusor.h"

namespace kiln {

// The HLO text of a row-wise softmax over f32[4,10], or the builder's
// first error.
absl::StatusOr<std::string> SoftmaxHlo();

}  // namespace kiln

#endif  // KILN_EXAMPLES_SOFTMAX_BUILDER_H_
