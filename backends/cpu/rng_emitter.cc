#include "backends/cpu/rng_emitter.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "compiler/evaluator/bit_generator_blocks.h"
#include "compiler/evaluator/random_bits.h"
#include "compiler/ir/attr_names.h"

namespace kiln::cpu {
namespace {

// The C++ unsigned type of a `bytes`-wide element, or null.
const char* StorageType(int bytes) {
  switch (bytes) {
    case 1:
      return "uint8_t";
    case 2:
      return "uint16_t";
    case 4:
      return "uint32_t";
    case 8:
      return "uint64_t";
    default:
      return nullptr;
  }
}

// The statement that expands the generator from the state words s[] and
// stores through `store`, leaving the new counter in s[1] (and s[2]).
std::string Expansion(eval::BitGenerator generator, const Shape& data,
                      int64_t words, bool wide, int64_t elements) {
  if (generator == eval::BitGenerator::kThreeFry) {
    if (wide) {
      return absl::StrFormat(
          "  s[1] = kiln::eval::bits::ThreeFry64Expand(k0, k1, s[1], %d, "
          "store);\n",
          elements);
    }
    const eval::bits::ThreeFry32Split split =
        eval::bits::SplitForThreeFry32(data.dimensions().data(), data.rank());
    return absl::StrFormat(
        "  s[1] = kiln::eval::bits::ThreeFry32Expand(k0, k1, s[1], %d, %d, "
        "%d, store);\n",
        split.outer, split.size, split.inner);
  }
  // A u64[2] state has no high counter word: XLA takes the key word
  // (random_bits.cc).
  return absl::StrFormat(
      "  uint64_t high = s[%d];\n"
      "  s[1] = kiln::eval::bits::PhiloxExpand(k0, k1, s[1], &high, %d, %s, "
      "store);\n"
      "%s",
      words > 2 ? 2 : 0, elements, wide ? "true" : "false",
      words > 2 ? "  s[2] = high;\n" : "");
}

}  // namespace

absl::StatusOr<std::string> EmitRngBitGeneratorKernel(const Instruction& rng,
                                                      absl::string_view name) {
  const Shape& shape = rng.shape();
  const Shape& state = rng.operand(0)->shape();
  const EnumValue* algorithm = rng.attrs().Get<EnumValue>(attr::kAlgorithm);
  const eval::BitGenerator generator = eval::BitGeneratorNamed(
      algorithm == nullptr ? "rng_default" : algorithm->spelling);
  const int64_t words = state.ElementCount().value_or(0);
  if (!shape.IsTuple() || shape.tuple_size() != 2 ||
      state.element_type() != ElementType::kU64 ||
      !eval::StateFits(generator, words) || !shape.tuple_shape(1).IsArray() ||
      !shape.tuple_shape(1).is_static()) {
    return absl::UnimplementedError(
        "rng-bit-generator: the state does not fit its algorithm");
  }
  const Shape& data = shape.tuple_shape(1);
  const ElementTypeInfo& info = GetElementTypeInfo(data.element_type());
  const char* storage = StorageType(info.storage_bytes);
  if (storage == nullptr || info.bit_width > 64) {
    return absl::UnimplementedError(absl::StrCat(
        "rng-bit-generator: no kernel for ", data.ToString(false)));
  }
  const int64_t elements = data.ElementCount().value_or(0);
  const uint64_t mask =
      info.bit_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << info.bit_width) - 1;
  return absl::StrFormat(
      "extern \"C\" void %s(const void* const* in, void* const* out) {\n"
      "  uint64_t s[%d];\n"
      "  std::memcpy(s, in[0], sizeof s);\n"
      "  %s* const data = static_cast<%s*>(out[1]);\n"
      "  const uint32_t k0 = kiln::eval::bits::Low32(s[0]);\n"
      "  const uint32_t k1 = kiln::eval::bits::High32(s[0]);\n"
      "  auto store = [data](int64_t e, uint64_t bits) {\n"
      "    data[e] = static_cast<%s>(bits & %dull);\n"
      "  };\n"
      "%s"
      "  std::memcpy(out[0], s, sizeof s);\n"
      "}\n",
      name, words, storage, storage, storage, mask,
      Expansion(generator, data, words, info.bit_width > 32, elements));
}

}  // namespace kiln::cpu
