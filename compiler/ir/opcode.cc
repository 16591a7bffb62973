#include "compiler/ir/opcode.h"

#include <string>

#include "absl/container/flat_hash_map.h"

namespace kiln {
namespace {

constexpr absl::string_view kOpcodeNames[] = {
#define KILN_OPCODE_NAME(enumerator, spelling) spelling,
    KILN_OPCODE_LIST(KILN_OPCODE_NAME)
#undef KILN_OPCODE_NAME
};

constexpr Opcode kAllOpcodes[] = {
#define KILN_OPCODE_VALUE(enumerator, spelling) Opcode::enumerator,
    KILN_OPCODE_LIST(KILN_OPCODE_VALUE)
#undef KILN_OPCODE_VALUE
};

static_assert(sizeof(kOpcodeNames) / sizeof(kOpcodeNames[0]) == kOpcodeCount,
              "one name per opcode");

// Built once; the parser looks up every instruction's opcode here.
const absl::flat_hash_map<absl::string_view, Opcode>& OpcodesByName() {
  static const auto* const map = [] {
    auto* m = new absl::flat_hash_map<absl::string_view, Opcode>();
    m->reserve(kOpcodeCount);
    for (int i = 0; i < kOpcodeCount; ++i) {
      m->emplace(kOpcodeNames[i], kAllOpcodes[i]);
    }
    return m;
  }();
  return *map;
}

}  // namespace

absl::string_view OpcodeName(Opcode opcode) {
  auto index = static_cast<size_t>(opcode);
  if (index >= static_cast<size_t>(kOpcodeCount)) return "<invalid-opcode>";
  return kOpcodeNames[index];
}

std::optional<Opcode> OpcodeFromName(absl::string_view name) {
  const auto& map = OpcodesByName();
  auto it = map.find(name);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

absl::Span<const Opcode> AllOpcodes() {
  return absl::MakeConstSpan(kAllOpcodes);
}

}  // namespace kiln
