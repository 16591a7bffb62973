// The passes ask the trait table (compiler/ir/op_traits.h) instead of
// keeping opcode lists of their own. These tests build one instruction of
// every opcode (with and without the attributes that decide a side effect)
// and check that what dce, Computation::RemoveDeadInstructions and cse do
// with it is what its traits say, and that the side-effecting set is XLA's.
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/op_schema.h"
#include "gtest/gtest.h"
#include "passes/fusion_cost_model.h"
#include "passes/opcode_classes.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::pass_test::RunPass;

// One way to write an instruction of some opcode: the attributes it gets.
struct Variant {
  Opcode opcode;
  std::string label;
  std::vector<std::pair<std::string, AttrValue>> attrs;
};

std::vector<Variant> AllVariants() {
  std::vector<Variant> variants;
  for (Opcode opcode : AllOpcodes()) {
    if (opcode == Opcode::kParameter) continue;
    const std::string name(OpcodeName(opcode));
    variants.push_back({opcode, name, {}});
    switch (GetOpTraits(opcode).side_effect) {
      case SideEffect::kIfChannel:
        variants.push_back(
            {opcode, name + " channel_id", {{"channel_id", int64_t{1}}}});
        // Only where the op has the attribute (collective-permute has not).
        if (FindAttrSpec(GetOpSchema(opcode), "constrain_layout") != nullptr) {
          variants.push_back({opcode,
                              name + " constrain_layout",
                              {{"constrain_layout", true}}});
        }
        break;
      case SideEffect::kIfFlagged:
        variants.push_back({opcode,
                            name + " has_side_effect",
                            {{"custom_call_has_side_effect", true}}});
        break;
      default:
        break;
    }
  }
  return variants;
}

std::unique_ptr<Instruction> Make(const Variant& v, Instruction* operand) {
  auto x = std::make_unique<Instruction>(v.opcode,
                                         Shape::Scalar(ElementType::kF32), "x");
  x->AppendOperand(operand);
  for (const auto& [name, value] : v.attrs)
    x->mutable_attrs()->Set(name, value);
  return x;
}

// ENTRY { p = f32[] parameter(0); x = op(p), unused; ROOT p }.
std::unique_ptr<Module> DeadInstructionModule(const Variant& v) {
  auto module = std::make_unique<Module>("m");
  auto entry = std::make_unique<Computation>("e");
  Instruction* p = entry->AddInstruction(std::make_unique<Instruction>(
      Opcode::kParameter, Shape::Scalar(ElementType::kF32), "p"));
  entry->AddInstruction(Make(v, p));
  entry->set_root(p);
  module->AddEntryComputation(std::move(entry));
  return module;
}

bool Survives(const Module& module) {
  return module.entry()->instructions().size() == 2;
}

// What XLA's HloInstruction::HasSideEffectNoRecurse keeps (without SPMD).
const std::set<std::string>& XlaSideEffecting() {
  static const auto* const kSet = new std::set<std::string>{
      "send",
      "send-done",
      "recv",
      "recv-done",
      "infeed",
      "outfeed",
      "rng",
      "rng-get-and-update-state",
      "all-reduce-start",
      "all-reduce-done",
      "all-gather-start",
      "all-gather-done",
      "collective-broadcast",
      "collective-permute-start",
      "collective-permute-done",
      "all-reduce channel_id",
      "all-reduce constrain_layout",
      "all-gather channel_id",
      "all-gather constrain_layout",
      "all-to-all channel_id",
      "all-to-all constrain_layout",
      "reduce-scatter channel_id",
      "reduce-scatter constrain_layout",
      "collective-permute channel_id",
      "custom-call has_side_effect",
  };
  return *kSet;
}

TEST(OpTraitsAgreementTest, DceKeepsExactlyTheSideEffectingOps) {
  std::set<std::string> kept_by_dce;
  for (const Variant& v : AllVariants()) {
    SCOPED_TRACE(v.label);
    std::unique_ptr<Module> module = DeadInstructionModule(v);
    const bool effect = HasOwnSideEffect(*module->entry()->instructions()[1]);
    std::unique_ptr<Module> other = DeadInstructionModule(v);
    absl::StatusOr<bool> changed = RunPass("dce", *module);
    ASSERT_TRUE(changed.ok()) << changed.status();
    EXPECT_EQ(Survives(*module), effect);
    if (Survives(*module)) kept_by_dce.insert(v.label);
    // The IR's own dead-code removal uses the same rule (it used to keep
    // no channel collective: the two lists disagreed).
    other->entry()->RemoveDeadInstructions();
    EXPECT_EQ(Survives(*other), effect);
  }
  EXPECT_EQ(kept_by_dce, XlaSideEffecting());
}

// ENTRY { p; a = op(p); b = op(p); ROOT t = (a, b) }: does cse merge b
// into a?
bool CseMerges(const Variant& v) {
  auto module = std::make_unique<Module>("m");
  auto entry = std::make_unique<Computation>("e");
  const Shape f32 = Shape::Scalar(ElementType::kF32);
  Instruction* p = entry->AddInstruction(
      std::make_unique<Instruction>(Opcode::kParameter, f32, "p"));
  Instruction* a = entry->AddInstruction(Make(v, p));
  Instruction* b = entry->AddInstruction(Make(v, p));
  auto tuple = std::make_unique<Instruction>(Opcode::kTuple,
                                             Shape::Tuple({f32, f32}), "t");
  tuple->AppendOperand(a);
  tuple->AppendOperand(b);
  entry->set_root(entry->AddInstruction(std::move(tuple)));
  module->AddEntryComputation(std::move(entry));
  absl::StatusOr<bool> changed = RunPass("cse", *module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  const Instruction* root = module->entry()->root();
  return root->operand(0) == root->operand(1);
}

TEST(OpTraitsAgreementTest, CseNeverMergesSideEffectsOrAsyncHalves) {
  for (const Variant& v : AllVariants()) {
    SCOPED_TRACE(v.label);
    std::unique_ptr<Module> module = DeadInstructionModule(v);
    const Instruction& x = *module->entry()->instructions()[1];
    const bool excluded = HasOwnSideEffect(x) || IsAsyncOpcode(v.opcode) ||
                          v.opcode == Opcode::kDomain;
    EXPECT_EQ(CseMerges(v), !excluded);
  }
}

TEST(OpTraitsAgreementTest, PassClassesFollowTheTraits) {
  for (Opcode opcode : AllOpcodes()) {
    SCOPED_TRACE(std::string(OpcodeName(opcode)));
    const OpTraits& traits = GetOpTraits(opcode);
    EXPECT_EQ(IsElementwiseOpcode(opcode),
              traits.elementwise && opcode != Opcode::kCopy);
    EXPECT_EQ(IsLoopFusibleOpcode(opcode), traits.cost != CostClass::kOpaque);
    EXPECT_EQ(IsExpensiveOpcode(opcode), traits.cost == CostClass::kExpensive);
    // Loop fusion takes every elementwise op but map (it calls a
    // computation) and stochastic-convert (not costed).
    if (IsElementwiseOpcode(opcode) && opcode != Opcode::kMap &&
        opcode != Opcode::kStochasticConvert) {
      EXPECT_TRUE(IsLoopFusibleOpcode(opcode));
    }
  }
}

}  // namespace
}  // namespace kiln
