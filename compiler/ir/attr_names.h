// The names of op attributes, one constant per name that some op's schema
// (compiler/ops/) declares: code that reads or writes an attribute writes
// attr::kDimensions, not "dimensions", so that a misspelt name fails to
// compile. compiler/ops/op_schema_test checks that this list and the
// schemas name the same attributes; a new attribute gets its row here and
// its AttrSpec in its family's schema (docs/writing-a-pass.md, "Op traits").
#ifndef KILN_COMPILER_IR_ATTR_NAMES_H_
#define KILN_COMPILER_IR_ATTR_NAMES_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace kiln {

#define KILN_ATTR_NAME_LIST(V)                                    \
  V(kAlgorithm, "algorithm")                                      \
  V(kApiVersion, "api_version")                                   \
  V(kAsyncExecutionThread, "async_execution_thread")              \
  V(kBatchGroupCount, "batch_group_count")                        \
  V(kBody, "body")                                                \
  V(kBranchComputations, "branch_computations")                   \
  V(kBroadcastDimensions, "broadcast_dimensions")                 \
  V(kCalledComputations, "called_computations")                   \
  V(kCalls, "calls")                                              \
  V(kChannelId, "channel_id")                                     \
  V(kCollapsedSliceDims, "collapsed_slice_dims")                  \
  V(kCondition, "condition")                                      \
  V(kConstrainLayout, "constrain_layout")                         \
  V(kCrossProgramPrefetchIndex, "cross_program_prefetch_index")   \
  V(kCustomCallHasSideEffect, "custom_call_has_side_effect")      \
  V(kCustomCallTarget, "custom_call_target")                      \
  V(kDelta, "delta")                                              \
  V(kDimLabels, "dim_labels")                                     \
  V(kDimensions, "dimensions")                                    \
  V(kDirection, "direction")                                      \
  V(kDistribution, "distribution")                                \
  V(kDomain, "domain")                                            \
  V(kDynamicSliceSizes, "dynamic_slice_sizes")                    \
  V(kEpsilon, "epsilon")                                          \
  V(kExponentBits, "exponent_bits")                               \
  V(kFalseComputation, "false_computation")                       \
  V(kFeatureGroupCount, "feature_group_count")                    \
  V(kFeatureIndex, "feature_index")                               \
  V(kFftLength, "fft_length")                                     \
  V(kFftType, "fft_type")                                         \
  V(kHasDynamicRoot, "has_dynamic_root")                          \
  V(kIndex, "index")                                              \
  V(kIndexVectorDim, "index_vector_dim")                          \
  V(kIndicesAreSorted, "indices_are_sorted")                      \
  V(kInfeedConfig, "infeed_config")                               \
  V(kInferredDimension, "inferred_dimension")                     \
  V(kInputBatchingDims, "input_batching_dims")                    \
  V(kInsertedWindowDims, "inserted_window_dims")                  \
  V(kIotaDimension, "iota_dimension")                             \
  V(kIsAssociative, "is_associative")                             \
  V(kIsComposite, "is_composite")                                 \
  V(kIsHostTransfer, "is_host_transfer")                          \
  V(kIsReverse, "is_reverse")                                     \
  V(kIsStable, "is_stable")                                       \
  V(kK, "k")                                                      \
  V(kKind, "kind")                                                \
  V(kLargest, "largest")                                          \
  V(kLeftSide, "left_side")                                       \
  V(kLhsBatchDims, "lhs_batch_dims")                              \
  V(kLhsContractingDims, "lhs_contracting_dims")                  \
  V(kLhsRaggedDims, "lhs_ragged_dims")                            \
  V(kLiteral, "literal")                                          \
  V(kLower, "lower")                                              \
  V(kMantissaBits, "mantissa_bits")                               \
  V(kNumCarries, "num_carries")                                   \
  V(kOffsetDims, "offset_dims")                                   \
  V(kOperandBatchingDims, "operand_batching_dims")                \
  V(kOperandLayoutConstraints, "operand_layout_constraints")      \
  V(kOperandPrecision, "operand_precision")                       \
  V(kOutfeedConfig, "outfeed_config")                             \
  V(kOutfeedShape, "outfeed_shape")                               \
  V(kOutputToOperandAliasing, "output_to_operand_aliasing")       \
  V(kPadding, "padding")                                          \
  V(kPaddingType, "padding_type")                                 \
  V(kParameterReplication, "parameter_replication")               \
  V(kReplicaGroups, "replica_groups")                             \
  V(kRhsBatchDims, "rhs_batch_dims")                              \
  V(kRhsContractingDims, "rhs_contracting_dims")                  \
  V(kRhsGroupDims, "rhs_group_dims")                              \
  V(kScatter, "scatter")                                          \
  V(kScatterDimsToOperandDims, "scatter_dims_to_operand_dims")    \
  V(kScatterIndicesBatchingDims, "scatter_indices_batching_dims") \
  V(kSchedule, "schedule")                                        \
  V(kSelect, "select")                                            \
  V(kSlice, "slice")                                              \
  V(kSliceSizes, "slice_sizes")                                   \
  V(kSourceTargetPairs, "source_target_pairs")                    \
  V(kSparsity, "sparsity")                                        \
  V(kStartIndexMap, "start_index_map")                            \
  V(kStartIndicesBatchingDims, "start_indices_batching_dims")     \
  V(kToApply, "to_apply")                                         \
  V(kTransposeA, "transpose_a")                                   \
  V(kTrueComputation, "true_computation")                         \
  V(kType, "type")                                                \
  V(kUniqueIndices, "unique_indices")                             \
  V(kUnitDiagonal, "unit_diagonal")                               \
  V(kUpdateWindowDims, "update_window_dims")                      \
  V(kUseGlobalDeviceIds, "use_global_device_ids")                 \
  V(kWindow, "window")

namespace attr {

#define KILN_DECLARE_ATTR_NAME(constant, spelling) \
  inline constexpr absl::string_view constant = spelling;
KILN_ATTR_NAME_LIST(KILN_DECLARE_ATTR_NAME)
#undef KILN_DECLARE_ATTR_NAME

// Every name above, in the list's (alphabetical) order.
absl::Span<const absl::string_view> AllNames();

}  // namespace attr
}  // namespace kiln

#endif  // KILN_COMPILER_IR_ATTR_NAMES_H_
