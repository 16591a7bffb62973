#include "backends/cpu/sort_emitter.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cpu/loop_emitter.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"

namespace kiln::cpu {

absl::StatusOr<std::string> EmitSortKernel(const Instruction& sort,
                                           absl::string_view name) {
  const auto* dimensions = sort.attrs().Get<Int64List>(attr::kDimensions);
  const auto* comparator = sort.attrs().Get<Computation*>(attr::kToApply);
  if (sort.opcode() != Opcode::kSort || sort.operand_count() == 0 ||
      dimensions == nullptr || dimensions->size() != 1 ||
      comparator == nullptr || *comparator == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat(sort.name(), ": not a sort along one dimension"));
  }
  const Shape& shape = sort.operand(0)->shape();
  const int64_t dimension = (*dimensions)[0];
  if (!shape.IsArray() || !shape.is_static() || dimension < 0 ||
      dimension >= shape.rank()) {
    return absl::UnimplementedError(
        absl::StrCat(sort.name(), ": sort of a dynamic or non-array shape"));
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (d < dimension) outer *= shape.dimension(d);
    if (d > dimension) inner *= shape.dimension(d);
  }
  const int64_t size = shape.dimension(dimension);

  std::string header =
      absl::StrCat("extern \"C\" void ", name,
                   "(const void* const* in, void* const* out) {\n");
  std::vector<std::string> names;
  std::string loads, stores;
  for (int64_t k = 0; k < sort.operand_count(); ++k) {
    const Shape& operand = sort.operand(k)->shape();
    std::optional<std::string> type = NativeCType(operand.element_type());
    if (!type.has_value() || !operand.is_static() ||
        operand.dimensions() != shape.dimensions()) {
      return absl::UnimplementedError(
          absl::StrCat(sort.name(), ": operand ", k,
                       " is not a native array of the "
                       "sorted shape"));
    }
    absl::StrAppend(&header, "  const ", *type, "* const p", k,
                    " = static_cast<const ", *type, "*>(in[", k, "]);\n  ",
                    *type, "* const o", k, " = static_cast<", *type, "*>(out[",
                    k, "]);\n");
    names.push_back(absl::StrCat("p", k, "[base + a * ", inner, "]"));
    names.push_back(absl::StrCat("p", k, "[base + b * ", inner, "]"));
    absl::StrAppend(&stores, "        o", k, "[base + j * ", inner, "] = p", k,
                    "[base + items[j] * ", inner, "];\n");
  }
  absl::StatusOr<ScalarFunction> less =
      EmitScalarFunction(**comparator, names, absl::StrCat(name, "_less"), 4);
  if (!less.ok()) {
    return absl::UnimplementedError(
        absl::StrCat(sort.name(), ": comparator: ", less.status().message()));
  }
  return absl::StrCat(
      less->globals, header, "  std::vector<int64_t> items(", size,
      "), buffer(", size, ");\n", "  for (int64_t o = 0; o < ", outer,
      "; ++o) {\n    for (int64_t i = 0; i < ", inner, "; ++i) {\n",
      "      const int64_t base = o * ", size * inner, " + i;\n",
      "      for (int64_t j = 0; j < ", size, "; ++j) items[j] = j;\n",
      "      kiln_cpu::StableMergeSort(items, buffer, [&](int64_t a, int64_t "
      "b) "
      "{\n",
      less->body, "        return ", less->result, ";\n      });\n",
      "      for (int64_t j = 0; j < ", size, "; ++j) {\n", stores,
      "      }\n    }\n  }\n}\n");
}

}  // namespace kiln::cpu
