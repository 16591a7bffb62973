// EvaluateReplicated: simulated devices for the collectives (not written
// yet).
#include "compiler/evaluator/evaluator.h"

namespace kiln {

absl::StatusOr<std::vector<Literal>> EvaluateReplicated(
    const Module&, absl::Span<const std::vector<Literal>>, int64_t, int64_t,
    const EvalOptions&) {
  return absl::UnimplementedError("EvaluateReplicated is not written yet");
}

}  // namespace kiln
