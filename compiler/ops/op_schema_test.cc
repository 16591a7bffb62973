#include "compiler/ops/op_schema.h"

#include <set>
#include <string>
#include <vector>

#include "compiler/ir/attr_names.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/schema_registry.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::vector<std::string> AttrNames(Opcode opcode) {
  std::vector<std::string> names;
  for (const AttrSpec& spec : GetOpSchema(opcode).attrs) {
    names.push_back(spec.name);
  }
  return names;
}

TEST(OpSchemaTest, EveryOpcodeHasAWellFormedSchema) {
  ASSERT_EQ(AllOpcodes().size(), static_cast<size_t>(kOpcodeCount));
  for (Opcode opcode : AllOpcodes()) {
    SCOPED_TRACE(std::string(OpcodeName(opcode)));
    EXPECT_TRUE(ops_internal::IsRegistered(opcode));
    const OpSchema& schema = GetOpSchema(opcode);
    EXPECT_EQ(schema.opcode, opcode);
    EXPECT_GE(schema.min_operands, 0);
    if (schema.max_operands != -1) {
      EXPECT_LE(schema.min_operands, schema.max_operands);
    }
    std::set<std::string> seen;
    for (const AttrSpec& spec : schema.attrs) {
      EXPECT_TRUE(seen.insert(spec.name).second) << "duplicate " << spec.name;
      EXPECT_FALSE(IsGenericAttribute(spec.name)) << spec.name;
      const bool is_enum =
          spec.kind == AttrKind::kEnum || spec.kind == AttrKind::kEnumList;
      EXPECT_EQ(is_enum, !spec.enum_values.empty()) << spec.name;
    }
  }
}

// The schema carries the trait table's row, and what the schema declares
// agrees with the traits.
TEST(OpSchemaTest, SchemaAgreesWithTraits) {
  for (Opcode opcode : AllOpcodes()) {
    SCOPED_TRACE(std::string(OpcodeName(opcode)));
    const OpSchema& schema = GetOpSchema(opcode);
    const OpTraits& traits = GetOpTraits(opcode);
    EXPECT_EQ(schema.traits.side_effect, traits.side_effect);
    EXPECT_EQ(schema.traits.async_role, traits.async_role);
    EXPECT_EQ(schema.traits.elementwise, traits.elementwise);
    EXPECT_EQ(schema.traits.shape_optional, traits.shape_optional);
    EXPECT_EQ(IsElementwiseFamilyOpcode(opcode), traits.elementwise);
    // Client-form broadcasting is declared by the broadcast_dimensions
    // attribute exactly where the trait says operands broadcast.
    EXPECT_EQ(FindAttrSpec(schema, "broadcast_dimensions") != nullptr,
              traits.broadcasting != BroadcastingOperands::kNone);
    // Binary broadcasting ops take two operands, select and clamp three.
    if (traits.broadcasting != BroadcastingOperands::kNone) {
      EXPECT_EQ(schema.min_operands, schema.max_operands);
      EXPECT_GE(schema.min_operands, 2);
    }
    if (traits.commutative) {
      EXPECT_EQ(schema.max_operands, 2);
    }
    // Side effects decided by attributes name attributes the op has.
    if (traits.side_effect == SideEffect::kIfChannel) {
      EXPECT_NE(FindAttrSpec(schema, "channel_id"), nullptr);
    }
    if (traits.side_effect == SideEffect::kIfFlagged) {
      EXPECT_NE(FindAttrSpec(schema, "custom_call_has_side_effect"), nullptr);
    }
    // A shape the text may omit has a rule to infer it.
    if (traits.shape_optional) {
      EXPECT_TRUE(schema.shape_rule != nullptr);
    }
  }
}

// attr:: (compiler/ir/attr_names.h) has one constant per attribute name
// the schemas declare, and no other.
TEST(OpSchemaTest, AttrNameConstantsAreTheSchemasNames) {
  std::set<std::string> declared;
  for (Opcode opcode : AllOpcodes()) {
    for (const AttrSpec& spec : GetOpSchema(opcode).attrs) {
      declared.insert(spec.name);
    }
  }
  std::set<std::string> constants;
  for (absl::string_view name : attr::AllNames()) {
    EXPECT_TRUE(constants.insert(std::string(name)).second) << name;
  }
  EXPECT_EQ(constants, declared);
  EXPECT_EQ(attr::kDimensions, "dimensions");
  EXPECT_EQ(attr::kToApply, "to_apply");
}

TEST(OpSchemaTest, ElementwiseArity) {
  EXPECT_EQ(GetOpSchema(Opcode::kAbs).min_operands, 1);
  EXPECT_EQ(GetOpSchema(Opcode::kAbs).max_operands, 1);
  EXPECT_EQ(GetOpSchema(Opcode::kAdd).max_operands, 2);
  EXPECT_EQ(GetOpSchema(Opcode::kSelect).min_operands, 3);
  EXPECT_EQ(GetOpSchema(Opcode::kTuple).max_operands, -1);
  // Only client-form broadcasting's broadcast_dimensions (broadcasting.md).
  ASSERT_EQ(GetOpSchema(Opcode::kAdd).attrs.size(), 1);
  EXPECT_EQ(GetOpSchema(Opcode::kAdd).attrs[0].name, "broadcast_dimensions");
  EXPECT_FALSE(GetOpSchema(Opcode::kAdd).attrs[0].required);
}

TEST(OpSchemaTest, CompareDirectionIsARequiredEnum) {
  const OpSchema& schema = GetOpSchema(Opcode::kCompare);
  const AttrSpec* direction = FindAttrSpec(schema, "direction");
  ASSERT_NE(direction, nullptr);
  EXPECT_EQ(direction->kind, AttrKind::kEnum);
  EXPECT_TRUE(direction->required);
  EXPECT_EQ(direction->enum_values,
            (std::vector<std::string>{"EQ", "NE", "GE", "GT", "LE", "LT"}));
  const AttrSpec* type = FindAttrSpec(schema, "type");
  ASSERT_NE(type, nullptr);
  EXPECT_FALSE(type->required);
  EXPECT_EQ(FindAttrSpec(schema, "dimensions"), nullptr);
}

TEST(OpSchemaTest, GatherAttributesInXlaPrintingOrder) {
  EXPECT_EQ(AttrNames(Opcode::kGather),
            (std::vector<std::string>{
                "offset_dims", "collapsed_slice_dims", "start_index_map",
                "operand_batching_dims", "start_indices_batching_dims",
                "index_vector_dim", "slice_sizes", "indices_are_sorted"}));
}

TEST(OpSchemaTest, ScatterAttributesInXlaPrintingOrder) {
  EXPECT_EQ(AttrNames(Opcode::kScatter),
            (std::vector<std::string>{
                "update_window_dims", "inserted_window_dims",
                "scatter_dims_to_operand_dims", "input_batching_dims",
                "scatter_indices_batching_dims", "index_vector_dim",
                "indices_are_sorted", "unique_indices", "to_apply"}));
}

TEST(OpSchemaTest, DotAndConvolution) {
  EXPECT_EQ(
      AttrNames(Opcode::kDot),
      (std::vector<std::string>{"lhs_batch_dims", "lhs_contracting_dims",
                                "rhs_batch_dims", "rhs_contracting_dims",
                                "operand_precision", "algorithm", "sparsity"}));
  EXPECT_EQ(AttrNames(Opcode::kConvolution),
            (std::vector<std::string>{
                "window", "dim_labels", "feature_group_count",
                "batch_group_count", "operand_precision", "algorithm"}));
  const AttrSpec* precision =
      FindAttrSpec(GetOpSchema(Opcode::kDot), "operand_precision");
  ASSERT_NE(precision, nullptr);
  EXPECT_EQ(precision->kind, AttrKind::kEnumList);
  const AttrSpec* ragged =
      FindAttrSpec(GetOpSchema(Opcode::kRaggedDot), "lhs_ragged_dims");
  ASSERT_NE(ragged, nullptr);
  EXPECT_EQ(ragged->kind, AttrKind::kInt64List);
}

TEST(OpSchemaTest, CollectivesAndControlFlow) {
  EXPECT_EQ(AttrNames(Opcode::kAllReduce),
            (std::vector<std::string>{"channel_id", "replica_groups",
                                      "constrain_layout",
                                      "use_global_device_ids", "to_apply"}));
  EXPECT_EQ(AttrNames(Opcode::kWhile),
            (std::vector<std::string>{"condition", "body"}));
  const AttrSpec* branches =
      FindAttrSpec(GetOpSchema(Opcode::kConditional), "branch_computations");
  ASSERT_NE(branches, nullptr);
  EXPECT_EQ(branches->kind, AttrKind::kComputationList);
  const AttrSpec* kind = FindAttrSpec(GetOpSchema(Opcode::kFusion), "kind");
  ASSERT_NE(kind, nullptr);
  EXPECT_EQ(kind->enum_values, (std::vector<std::string>{
                                   "kLoop", "kInput", "kOutput", "kCustom"}));
  EXPECT_EQ(GetOpSchema(Opcode::kRaggedAllToAll).min_operands, 6);
}

TEST(OpSchemaTest, ScanTopKAndCollectiveBroadcast) {
  EXPECT_EQ(AttrNames(Opcode::kScan),
            (std::vector<std::string>{"dimensions", "num_carries", "is_reverse",
                                      "is_associative", "to_apply"}));
  EXPECT_EQ(
      AttrNames(Opcode::kTopK),
      (std::vector<std::string>{"k", "largest", "is_stable", "to_apply"}));
  EXPECT_EQ(AttrNames(Opcode::kCollectiveBroadcast),
            (std::vector<std::string>{"channel_id", "replica_groups",
                                      "constrain_layout", "has_dynamic_root"}));
}

TEST(OpSchemaTest, CustomCallTargetIsRequiredString) {
  const AttrSpec* target =
      FindAttrSpec(GetOpSchema(Opcode::kCustomCall), "custom_call_target");
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->kind, AttrKind::kString);
  EXPECT_TRUE(target->required);
}

TEST(OpSchemaTest, GenericAttributes) {
  for (const char* name :
       {"metadata", "sharding", "frontend_attributes", "backend_config",
        "result_accuracy", "statistics_viz", "origin",
        "control-predecessors"}) {
    EXPECT_TRUE(IsGenericAttribute(name)) << name;
    EXPECT_TRUE(IsGenericAttributeName(name)) << name;
  }
  EXPECT_FALSE(IsGenericAttribute("dimensions"));
  EXPECT_FALSE(IsGenericAttributeName("to_apply"));
  EXPECT_FALSE(IsGenericAttributeName(""));
}

TEST(OpSchemaTest, AttrKindNames) {
  EXPECT_EQ(AttrKindName(AttrKind::kBool), "kBool");
  EXPECT_EQ(AttrKindName(AttrKind::kComputationList), "kComputationList");
}

TEST(OpSchemaTest, ElementwiseFamilyIsTheElementwiseFile) {
  for (Opcode op :
       {Opcode::kAbs, Opcode::kAdd, Opcode::kCopy, Opcode::kConvert,
        Opcode::kSelect, Opcode::kClamp, Opcode::kCompare, Opcode::kMap,
        Opcode::kStochasticConvert, Opcode::kReducePrecision, Opcode::kXor}) {
    EXPECT_TRUE(IsElementwiseFamilyOpcode(op)) << OpcodeName(op);
  }
  for (Opcode op :
       {Opcode::kBroadcast, Opcode::kDot, Opcode::kReduce, Opcode::kReshape,
        Opcode::kTuple, Opcode::kParameter, Opcode::kFusion}) {
    EXPECT_FALSE(IsElementwiseFamilyOpcode(op)) << OpcodeName(op);
  }
}

}  // namespace
}  // namespace kiln
