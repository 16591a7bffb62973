// The named pipelines (issue 6), registered for `kiln opt --pipeline=NAME`:
//
//   default  broadcast-legalization
//            -> fixed-point(simplify: algebraic-simplifier,
//                 tuple-simplification, constant-folding, cse,
//                 zero-sized-elimination, dce)
//            -> gather-simplification, scatter-simplification
//            -> fixed-point(the same cleanups), only if the two before
//               changed something (else the module is already there)
//   cpu      call-inliner -> default -> layout-assignment (the "cpu"
//            constraints) -> fusion (the "cpu" policy) -> dce
//   gpu      the same with the "gpu" constraints and policy
//
// The "cpu" fusion policy is the CPU backend's (backends/cpu/
// cpu_fusion_policy.h, linked into binaries with that backend), the "gpu"
// policy the GPU backends' (backends/gpu/gpu_fusion_policy.h). The layout
// constraints of both are in layout_constraints.cc.
//
// Layout assignment runs before fusion, as in XLA's CPU and GPU pipelines,
// so that fusion sees the copies and bitcasts the layouts need and fuses
// them with their neighbours.
#ifndef KILN_PASSES_PIPELINES_H_
#define KILN_PASSES_PIPELINES_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/pass/pipeline.h"

namespace kiln {

std::unique_ptr<PassPipeline> MakeDefaultPipeline();

// `default` followed by the backend's layout assignment and fusion; an
// error when no layout constraints or fusion policy is registered under
// `backend`.
absl::StatusOr<std::unique_ptr<PassPipeline>> MakeBackendPipeline(
    absl::string_view backend);

}  // namespace kiln

#endif  // KILN_PASSES_PIPELINES_H_
