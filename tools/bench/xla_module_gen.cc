#include "tools/bench/xla_module_gen.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace kiln::bench {
namespace {

constexpr char kMatrix[] = "f32[64,128]{1,0}";
constexpr char kBf16Matrix[] = "bf16[64,128]{1,0}";
constexpr char kPredMatrix[] = "pred[64,128]{1,0}";
constexpr char kWeights[] = "f32[128,128]{1,0}";
constexpr char kRow[] = "f32[128]{0}";
constexpr char kColumn[] = "f32[64]{0}";
constexpr char kScalar[] = "f32[]";
constexpr char kPair[] = "(f32[64,128]{1,0}, f32[64]{0})";
constexpr int kLayerSize = 17;  // Instructions emitted by EmitLayer.

// Writes instructions into `out` and counts them.
class Emitter {
 public:
  explicit Emitter(std::string* out) : out_(out) {}

  // Appends `%name = shape op(operands), attrs` and returns "%name".
  std::string Emit(const std::string& name, absl::string_view shape,
                   absl::string_view op, absl::string_view operands,
                   absl::string_view attributes = "") {
    absl::StrAppend(out_, "  %", name, " = ", shape, " ", op, "(", operands,
                    ")", attributes.empty() ? "" : ", ", attributes, "\n");
    ++count_;
    return absl::StrCat("%", name);
  }
  int64_t count() const { return count_; }

 private:
  std::string* out_;
  int64_t count_ = 0;
};

std::string Operand(absl::string_view shape, absl::string_view name) {
  return absl::StrCat(shape, " ", name);
}

std::string Metadata(int64_t layer, absl::string_view op) {
  return absl::StrFormat(
      "metadata={op_type=\"%s\" op_name=\"jit(model)/layer_%d/%s\" "
      "source_file=\"/src/model.py\" source_line=%d}",
      op, layer, op, 100 + layer % 900);
}

// A vector constant with 128 distinct, exactly printable values.
std::string RowConstant(int64_t layer) {
  std::string values;
  for (int i = 0; i < 128; ++i) {
    absl::StrAppend(&values, i == 0 ? "" : ", ",
                    static_cast<double>((layer * 31 + i * 7) % 1000) / 8);
  }
  return absl::StrCat("{", values, "}");
}

// One layer of a dense model: 17 instructions from `x` to the returned
// value, all of shape f32[64,128].
std::string EmitLayer(Emitter& e, int64_t layer, const std::string& x) {
  auto n = [layer](absl::string_view stem) {
    return absl::StrCat(stem, ".", layer);
  };
  std::string scale =
      e.Emit(n("scale"), kScalar, "constant",
             absl::StrCat(static_cast<double>(layer % 97 + 1) / 64));
  std::string bias =
      layer % 8 == 0
          ? e.Emit(n("bias_const"), kRow, "constant", RowConstant(layer))
          : e.Emit(n("bias_copy"), kRow, "copy", Operand(kRow, "%bias"));
  std::string scale_b = e.Emit(n("scale_b"), kMatrix, "broadcast",
                               Operand(kScalar, scale), "dimensions={}");
  std::string bias_b = e.Emit(n("bias_b"), kMatrix, "broadcast",
                              Operand(kRow, bias), "dimensions={1}");
  std::string mul =
      e.Emit(n("mul"), kMatrix, "multiply",
             absl::StrCat(Operand(kMatrix, x), ", ", Operand(kMatrix, scale_b)),
             layer % 2 == 0 ? Metadata(layer, "mul") : "");
  std::string add = e.Emit(
      n("add"), kMatrix, "add",
      absl::StrCat(Operand(kMatrix, mul), ", ", Operand(kMatrix, bias_b)));
  std::string act = e.Emit(n("tanh"), kMatrix, "tanh", Operand(kMatrix, add),
                           Metadata(layer, "tanh"));
  std::string dot = e.Emit(
      n("dot"), kMatrix, "dot",
      absl::StrCat(Operand(kMatrix, act), ", ", Operand(kWeights, "%w")),
      absl::StrCat("lhs_contracting_dims={1}, rhs_contracting_dims={0}",
                   layer % 4 == 0 ? ", " : "",
                   layer % 4 == 0 ? Metadata(layer, "dot_general") : ""));
  std::string sum = e.Emit(
      n("sum"), kColumn, "reduce",
      absl::StrCat(Operand(kMatrix, dot), ", ", Operand(kScalar, "%zero")),
      "dimensions={1}, to_apply=%add_f32");
  std::string sum_b = e.Emit(n("sum_b"), kMatrix, "broadcast",
                             Operand(kColumn, sum), "dimensions={0}");
  std::string centered = e.Emit(
      n("centered"), kMatrix, "subtract",
      absl::StrCat(Operand(kMatrix, dot), ", ", Operand(kMatrix, sum_b)));
  std::string positive = e.Emit(
      n("positive"), kPredMatrix, "compare",
      absl::StrCat(Operand(kMatrix, centered), ", ", Operand(kMatrix, scale_b)),
      "direction=GT");
  std::string chosen = e.Emit(
      n("select"), kMatrix, "select",
      absl::StrCat(Operand(kPredMatrix, positive), ", ",
                   Operand(kMatrix, centered), ", ", Operand(kMatrix, add)));
  std::string pair = e.Emit(
      n("pair"), kPair, "tuple",
      absl::StrCat(Operand(kMatrix, chosen), ", ", Operand(kColumn, sum)));
  std::string first = e.Emit(n("first"), kMatrix, "get-tuple-element",
                             Operand(kPair, pair), "index=0");
  std::string narrow =
      e.Emit(n("narrow"), kBf16Matrix, "convert", Operand(kMatrix, first));
  return e.Emit(n("wide"), kMatrix, "convert", Operand(kBf16Matrix, narrow));
}

}  // namespace

std::string GenerateXlaModuleText(int64_t instruction_count) {
  instruction_count = std::max<int64_t>(instruction_count, 16);
  std::string text = absl::StrCat(
      "HloModule generated_model, entry_computation_layout={(", kMatrix, ", ",
      kWeights, ", ", kRow, ", ", kScalar, ")->", kMatrix,
      "}\n\n"
      "%add_f32 (lhs: f32[], rhs: f32[]) -> f32[] {\n"
      "  %lhs = f32[] parameter(0)\n"
      "  %rhs = f32[] parameter(1)\n"
      "  ROOT %sum = f32[] add(f32[] %lhs, f32[] %rhs)\n"
      "}\n\n"
      "ENTRY %main (x: f32[64,128], w: f32[128,128], bias: f32[128], "
      "zero: f32[]) -> f32[64,128] {\n");
  text.reserve(instruction_count * 160);
  Emitter e(&text);
  std::string x = e.Emit("x", kMatrix, "parameter", "0");
  e.Emit("w", kWeights, "parameter", "1");
  e.Emit("bias", kRow, "parameter", "2");
  e.Emit("zero", kScalar, "parameter", "3");
  int64_t layer = 0;
  while (e.count() + kLayerSize < instruction_count) {
    x = EmitLayer(e, layer++, x);
  }
  while (e.count() + 1 < instruction_count) {
    x = e.Emit(absl::StrCat("neg.", e.count()), kMatrix, "negate",
               Operand(kMatrix, x));
  }
  absl::StrAppend(&text, "  ROOT %result = ", kMatrix, " abs(",
                  Operand(kMatrix, x), ")\n}\n");
  return text;
}

}  // namespace kiln::bench
