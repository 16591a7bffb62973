#include "compiler/ir/attr_names.h"

namespace kiln {
namespace attr {
namespace {

constexpr absl::string_view kAllNames[] = {
#define KILN_ATTR_NAME_VALUE(constant, spelling) constant,
    KILN_ATTR_NAME_LIST(KILN_ATTR_NAME_VALUE)
#undef KILN_ATTR_NAME_VALUE
};

}  // namespace

absl::Span<const absl::string_view> AllNames() {
  return absl::MakeConstSpan(kAllNames);
}

}  // namespace attr
}  // namespace kiln
