// Contractions: convolution, dot, ragged-dot, scaled-dot; and fft.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

void RegisterConvolutionDotSchemas(SchemaTable* table) {
  Define(table, Opcode::kConvolution, 2, 2,
         Concat({Optional("window", AttrKind::kWindow),
                 Required("dim_labels", AttrKind::kConvDimLabels),
                 Optional("feature_group_count", AttrKind::kInt64),
                 Optional("batch_group_count", AttrKind::kInt64)},
                PrecisionConfigAttrs()));
  // Operands: lhs, rhs, then up to two sparsity metadata arrays described
  // by `sparsity=L.1@2:4` (kept verbatim).
  Define(table, Opcode::kDot, 2, 4,
         Concat(Concat(DotDimensionAttrs(), PrecisionConfigAttrs()),
                {Optional("sparsity", AttrKind::kRawText)}));
  // Operands: lhs, rhs, group_sizes.
  Define(table, Opcode::kRaggedDot, 3, 3,
         Concat(Concat(DotDimensionAttrs(),
                       {Optional("lhs_ragged_dims", AttrKind::kInt64List),
                        Optional("rhs_group_dims", AttrKind::kInt64List)}),
                PrecisionConfigAttrs()));
  // Operands: lhs, rhs, lhs_scale, rhs_scale (newer XLA may append two
  // global scales).
  Define(table, Opcode::kScaledDot, 4, 6,
         Concat(DotDimensionAttrs(), PrecisionConfigAttrs()));
  Define(table, Opcode::kFft, 1, 1,
         {Enum("fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"},
               /*required=*/true),
          Required("fft_length", AttrKind::kInt64List)});
}

}  // namespace ops_internal
}  // namespace kiln
