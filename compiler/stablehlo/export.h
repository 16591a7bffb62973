// `kiln export --to=stablehlo`: an HLO module as StableHLO MLIR text (the
// `mlir` program format of PJRT), parsed by stablehlo-opt, JAX's MLIR
// bindings and XLA's PJRT plugins. docs/stablehlo.md maps every HLO op to
// its StableHLO op and lists the refusals.
#ifndef KILN_COMPILER_STABLEHLO_EXPORT_H_
#define KILN_COMPILER_STABLEHLO_EXPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "compiler/ir/module.h"

namespace kiln::stablehlo {

// The module as MLIR text: `module @name` holding `func.func @main` (the
// entry) and one private func.func per computation called by `call` or
// `fusion`; other called computations become regions. The module may be in
// client form: a copy runs broadcast-legalization first. Operations are in
// MLIR's generic form. Entry parameters and results are flattened to their
// array and token leaves, in order; non-default entry layouts are carried as
// `mhlo.layout_mode` argument and result attributes. An instruction with no
// StableHLO form is an error naming it, its location and the reason.
absl::StatusOr<std::string> ExportModule(const Module& module);

}  // namespace kiln::stablehlo

#endif  // KILN_COMPILER_STABLEHLO_EXPORT_H_
