#include "compiler/ir/opcode.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(OpcodeTest, EveryOpcodeRoundTripsThroughItsName) {
  ASSERT_EQ(static_cast<int>(AllOpcodes().size()), kOpcodeCount);
  std::set<std::string> names;
  for (Opcode opcode : AllOpcodes()) {
    absl::string_view name = OpcodeName(opcode);
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(std::string(name)).second) << name;
    std::optional<Opcode> back = OpcodeFromName(name);
    ASSERT_TRUE(back.has_value()) << name;
    EXPECT_EQ(*back, opcode) << name;
  }
}

TEST(OpcodeTest, SpellingsFollowXla) {
  EXPECT_EQ(OpcodeName(Opcode::kCos), "cosine");
  EXPECT_EQ(OpcodeName(Opcode::kClz), "count-leading-zeros");
  EXPECT_EQ(OpcodeName(Opcode::kOptimizationBarrier), "opt-barrier");
  EXPECT_EQ(OpcodeFromName("get-tuple-element"), Opcode::kGetTupleElement);
  EXPECT_EQ(OpcodeFromName("exponential-minus-one"), Opcode::kExpm1);
  EXPECT_EQ(OpcodeFromName("xor"), Opcode::kXor);
  EXPECT_EQ(OpcodeFromName("abs"), Opcode::kAbs);
}

TEST(OpcodeTest, UnknownNamesAreRejected) {
  EXPECT_FALSE(OpcodeFromName("").has_value());
  EXPECT_FALSE(OpcodeFromName("cos").has_value());
  EXPECT_FALSE(OpcodeFromName("Add").has_value());
  EXPECT_FALSE(OpcodeFromName("add ").has_value());
  EXPECT_FALSE(OpcodeFromName(absl::string_view("add\0", 4)).has_value());
}

TEST(OpcodeTest, OutOfRangeOpcodeHasAPlaceholderName) {
  EXPECT_EQ(OpcodeName(static_cast<Opcode>(kOpcodeCount + 5)),
            "<invalid-opcode>");
}

}  // namespace
}  // namespace kiln
