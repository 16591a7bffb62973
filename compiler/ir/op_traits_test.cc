#include "compiler/ir/op_traits.h"

#include <memory>
#include <string>

#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::string Name(Opcode opcode) { return std::string(OpcodeName(opcode)); }

TEST(OpTraitsTest, AsyncPairsPointAtEachOther) {
  int starts = 0;
  for (Opcode opcode : AllOpcodes()) {
    const OpTraits& traits = GetOpTraits(opcode);
    SCOPED_TRACE(Name(opcode));
    switch (traits.async_role) {
      case AsyncRole::kNone:
        EXPECT_EQ(traits.async_partner, opcode);
        EXPECT_EQ(AsyncStartOpcode(opcode), opcode);
        EXPECT_EQ(AsyncDoneOpcode(opcode), opcode);
        break;
      case AsyncRole::kStart: {
        ++starts;
        const OpTraits& done = GetOpTraits(traits.async_partner);
        EXPECT_EQ(done.async_role, AsyncRole::kDone);
        EXPECT_EQ(done.async_partner, opcode);
        // The halves of a pair agree on what kind of op they are.
        EXPECT_EQ(done.collective, traits.collective);
        EXPECT_EQ(done.side_effect, traits.side_effect);
        break;
      }
      case AsyncRole::kUpdate:
      case AsyncRole::kDone:
        EXPECT_EQ(GetOpTraits(traits.async_partner).async_role,
                  AsyncRole::kStart);
        break;
    }
  }
  // async, copy, all-reduce, all-gather, collective-permute, send, recv.
  EXPECT_EQ(starts, 7);
  EXPECT_EQ(AsyncDoneOpcode(Opcode::kAsyncUpdate), Opcode::kAsyncDone);
  EXPECT_EQ(AsyncStartOpcode(Opcode::kAsyncUpdate), Opcode::kAsyncStart);
  EXPECT_EQ(AsyncDoneOpcode(Opcode::kSend), Opcode::kSendDone);
  EXPECT_EQ(AsyncStartOpcode(Opcode::kRecvDone), Opcode::kRecv);
}

TEST(OpTraitsTest, TraitsAreConsistent) {
  for (Opcode opcode : AllOpcodes()) {
    const OpTraits& t = GetOpTraits(opcode);
    SCOPED_TRACE(Name(opcode));
    // A commutative op is a binary elementwise op that broadcasts.
    if (t.commutative) {
      EXPECT_TRUE(t.elementwise);
      EXPECT_EQ(t.broadcasting, BroadcastingOperands::kAll);
    }
    // Only elementwise ops broadcast, and only arithmetic costs by value.
    if (t.broadcasting != BroadcastingOperands::kNone) {
      EXPECT_TRUE(t.elementwise);
    }
    if (t.cost == CostClass::kCheap || t.cost == CostClass::kExpensive) {
      EXPECT_TRUE(t.elementwise);
    }
    // A channel decides the side effect of collectives only.
    if (t.side_effect == SideEffect::kIfChannel) {
      EXPECT_TRUE(t.collective);
    }
    // Collectives and async halves never omit their shapes.
    if (t.collective || t.async_role != AsyncRole::kNone) {
      EXPECT_FALSE(t.shape_optional);
      EXPECT_EQ(t.cost, CostClass::kOpaque);
    }
  }
  EXPECT_EQ(GetOpTraits(Opcode::kCustomCall).side_effect,
            SideEffect::kIfFlagged);
  EXPECT_EQ(GetOpTraits(Opcode::kClamp).broadcasting,
            BroadcastingOperands::kClamp);
  EXPECT_EQ(GetOpTraits(Opcode::kExp).cost, CostClass::kExpensive);
  EXPECT_EQ(GetOpTraits(Opcode::kTranspose).cost, CostClass::kIndexing);
  EXPECT_EQ(GetOpTraits(Opcode::kMap).cost, CostClass::kOpaque);
  EXPECT_TRUE(GetOpTraits(Opcode::kMap).elementwise);
}

std::unique_ptr<Instruction> Make(Opcode opcode,
                                  ElementType type = ElementType::kF32) {
  return std::make_unique<Instruction>(opcode, Shape::Array(type, {}),
                                       Name(opcode));
}

TEST(OpTraitsTest, SideEffectResolvesAttributes) {
  EXPECT_FALSE(HasOwnSideEffect(*Make(Opcode::kAdd)));
  EXPECT_TRUE(HasOwnSideEffect(*Make(Opcode::kOutfeed)));
  EXPECT_TRUE(HasOwnSideEffect(*Make(Opcode::kCollectiveBroadcast)));
  for (Opcode opcode :
       {Opcode::kAllReduce, Opcode::kAllGather, Opcode::kAllToAll,
        Opcode::kReduceScatter, Opcode::kCollectivePermute}) {
    SCOPED_TRACE(Name(opcode));
    auto plain = Make(opcode);
    EXPECT_FALSE(HasOwnSideEffect(*plain));
    auto channel = Make(opcode);
    channel->mutable_attrs()->Set("channel_id", int64_t{1});
    EXPECT_TRUE(HasOwnSideEffect(*channel));
    auto constrained = Make(opcode);
    constrained->mutable_attrs()->Set("constrain_layout", true);
    EXPECT_TRUE(HasOwnSideEffect(*constrained));
  }
  auto call = Make(Opcode::kCustomCall);
  EXPECT_FALSE(HasOwnSideEffect(*call));
  call->mutable_attrs()->Set("custom_call_has_side_effect", false);
  EXPECT_FALSE(HasOwnSideEffect(*call));
  call->mutable_attrs()->Set("custom_call_has_side_effect", true);
  EXPECT_TRUE(HasOwnSideEffect(*call));
}

TEST(OpTraitsTest, CommutativeForExcludesFloatMinMax) {
  auto with_two_operands = [](Opcode opcode, ElementType type) {
    auto x = Make(Opcode::kParameter, type);
    auto op = Make(opcode, type);
    op->AppendOperand(x.get());
    op->AppendOperand(x.get());
    const bool result = IsCommutativeFor(*op);
    op->DetachOperands();
    return result;
  };
  EXPECT_TRUE(with_two_operands(Opcode::kAdd, ElementType::kF32));
  EXPECT_TRUE(with_two_operands(Opcode::kMaximum, ElementType::kS32));
  EXPECT_FALSE(with_two_operands(Opcode::kMaximum, ElementType::kF32));
  EXPECT_FALSE(with_two_operands(Opcode::kMinimum, ElementType::kC64));
  EXPECT_FALSE(with_two_operands(Opcode::kSubtract, ElementType::kS32));
  EXPECT_FALSE(IsCommutativeFor(*Make(Opcode::kAdd)));  // no operands
}

}  // namespace
}  // namespace kiln
