// The module parser's state, shared by the files that implement it:
// parser.cc (module and computation structure), module_header_parser.cc
// (the HloModule line) and instruction_parser.cc (one instruction line).
// Not part of the public API; use parser.h.
#ifndef KILN_COMPILER_TEXT_PARSER_INTERNAL_H_
#define KILN_COMPILER_TEXT_PARSER_INTERNAL_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/op_schema.h"
#include "compiler/text/generic_attrs.h"
#include "compiler/text/lexer.h"
#include "compiler/text/parser.h"

namespace kiln {
namespace text_internal {

// A computation name used before its definition may be known; resolved
// once the whole module is read.
struct ComputationRef {
  absl::string_view name;
  size_t offset = 0;
};

struct PendingComputationAttr {
  Instruction* instruction = nullptr;
  Computation* caller = nullptr;
  std::string attr_name;
  bool is_list = false;
  std::vector<ComputationRef> refs;
};

// "custom-call-start" -> async-start wrapping a custom-call, and so on.
struct AsyncSugar {
  Opcode async_opcode;
  Opcode wrapped_opcode;
};
std::optional<AsyncSugar> MatchAsyncSugar(absl::string_view opcode_name);

class HloTextParser {
 public:
  HloTextParser(absl::string_view text, const ParseOptions& options);

  absl::StatusOr<std::unique_ptr<Module>> Run();

  // --- Shared helpers (parser.cc) ---
  // "file:line:col: error: message" at `offset`.
  absl::Status ErrorAt(size_t offset, absl::string_view message);
  // Turns a lexer failure into a positioned error.
  absl::Status LexerError(const absl::Status& status);
  // Skips trivia; errors (unterminated comments) are positioned.
  absl::Status Skip() {
    absl::Status status = lexer_.SkipTrivia();
    if (!status.ok()) return LexerError(status);
    return status;
  }
  // Skips trivia then requires `c`; `context` says what was being read.
  absl::Status Expect(char c, absl::string_view context);
  // A shape at the cursor (after trivia). Array shapes without a layout get
  // the default layout when `fill_default_layout` (as XLA's parser does).
  absl::StatusOr<Shape> ParseShapeHere(bool fill_default_layout);
  // A "..." string at the cursor, unescaped.
  absl::StatusOr<std::string> ParseUnescapedString();
  // {key="value", key={json}} at the cursor.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
  ParseFrontendAttributes();
  // A raw value kept verbatim (metadata, sharding, backend_config, ...).
  absl::StatusOr<RawText> ParseRawValue();
  // {1,2} or {} at the cursor.
  absl::StatusOr<std::vector<int64_t>> ParseShapeIndex();
  absl::StatusOr<int64_t> ParseInt64(absl::string_view context);

  // --- Module header (module_header_parser.cc) ---
  absl::Status ParseModuleHeader();
  // FileNames/FunctionNames/FileLocations/StackFrames after the header.
  absl::Status ParseStackFrameTables();

  // --- One instruction line (instruction_parser.cc) ---
  // Parses "[ROOT] name = shape opcode(operands), attrs" into
  // `computation`. Sets `*is_root` when the line starts with ROOT.
  absl::StatusOr<Instruction*> ParseInstruction(Computation* computation,
                                                bool* is_root);

  const ParseOptions& options() const { return options_; }
  Lexer& lexer() { return lexer_; }
  Module* module() { return module_.get(); }

 private:
  // parser.cc
  absl::Status ParseComputation();
  absl::Status ParseSignature(std::vector<Shape>* parameter_shapes);
  absl::Status ParseInstructionList(Computation* computation,
                                    size_t computation_offset);
  absl::Status CheckParameters(Computation* computation,
                               size_t computation_offset);
  absl::Status ResolveComputationRefs();
  absl::Status CheckForCallCycles();

  // parser_shapes.cc: once every computation is resolved, callees first,
  // infers the shapes the text omitted and (ParseOptions::check_shapes)
  // checks every declared shape against the op's rule.
  absl::Status InferAndCheckShapes();
  absl::Status InferOrCheckShape(Instruction* instruction);
  absl::Status CheckDeferredOperandShapes();

  // instruction_parser.cc
  // The opcode at the cursor; sets `*sugar` for "<op>-start" and the like.
  absl::StatusOr<Opcode> ParseOpcode(std::optional<AsyncSugar>* sugar);
  absl::Status CheckOperandCount(Opcode opcode, int64_t count, size_t offset);
  // "(" operands ")" (or the literal / parameter number), counted against
  // the schema.
  absl::Status ParseOperandList(Instruction* instruction,
                                const std::optional<AsyncSugar>& sugar,
                                size_t name_offset, size_t opcode_offset);
  // ", name=value" up to the end of the instruction, then the checks and
  // the wrapped computation of a sugared async start.
  absl::Status ParseInstructionAttributes(
      Instruction* instruction, const std::optional<AsyncSugar>& sugar,
      size_t opcode_offset, bool allow_attributes);
  // "shape? opcode(operands), attrs" after "name =" (`nested`: an anonymous
  // operand "f32[] constant(1)", named "<opcode>.anon", no attributes).
  // Adds the instruction to `computation`.
  absl::StatusOr<Instruction*> ParseInstructionRhs(Computation* computation,
                                                   absl::string_view name,
                                                   size_t name_offset,
                                                   bool nested);
  absl::StatusOr<Instruction*> ParseNestedOperand(size_t offset);
  // A long-form operand's written shape against the operand's (deferred
  // when the operand's shape is still to be inferred).
  absl::Status CheckOperandShape(const Shape* declared, Instruction* operand,
                                 absl::string_view name, size_t shape_offset);
  // broadcast of a scalar without dimensions= gets dimensions={} (XLA).
  void ImplyScalarBroadcastDimensions(Instruction* instruction, size_t offset);
  absl::Status ParseOperands(Instruction* instruction);
  absl::Status ParseConstantOperand(Instruction* instruction);
  absl::Status ParseParameterOperand(Instruction* instruction,
                                     size_t name_offset);
  // `wrapped` (may be null) is the instruction inside a sugared async
  // start: it takes the op-specific attributes, `instruction` the rest.
  absl::Status ParseAttributes(Instruction* instruction, const OpSchema& schema,
                               Instruction* wrapped);
  absl::Status CheckRequiredAttributes(const Instruction& instruction,
                                       size_t offset);

  // async_parser.cc
  absl::StatusOr<std::unique_ptr<Instruction>> MakeWrappedInstruction(
      const Instruction& start, Opcode wrapped_opcode, size_t opcode_offset);
  absl::Status AddWrappedComputation(Instruction* start,
                                     std::unique_ptr<Instruction> wrapped);
  void InferAsyncCalls(Instruction* instruction);
  absl::Status ParseGenericAttribute(Instruction* instruction,
                                     absl::string_view name);
  absl::Status ParseSchemaAttribute(Instruction* instruction,
                                    const AttrSpec& spec);
  absl::Status ParseComputationAttribute(Instruction* instruction,
                                         const AttrSpec& spec);
  absl::Status ParseControlPredecessors(Instruction* instruction);
  absl::StatusOr<Instruction*> LookupInstruction(absl::string_view name,
                                                 size_t offset);

  Lexer lexer_;
  const ParseOptions& options_;
  std::unique_ptr<Module> module_;

  // Shapes repeat throughout a module: each distinct shape text is parsed
  // once. Keys are slices of the input.
  absl::StatusOr<const Shape*> ParseShapeCached();
  absl::flat_hash_map<absl::string_view, Shape> shape_cache_;
  // The last shape text found in shape_cache_ and its entry: operands and
  // results in a row usually share a shape, and checking this first skips
  // the extent scan and the hash. Cleared when the cache grows (entries
  // move on rehash).
  absl::string_view last_shape_text_;
  const Shape* last_shape_ = nullptr;
  Shape uncached_shape_;

  // Module-wide: computation names as written -> computation.
  absl::flat_hash_map<absl::string_view, Computation*> computations_;
  Computation* last_text_computation_ = nullptr;
  std::vector<PendingComputationAttr> pending_;
  // Index in pending_ of each instruction's unresolved `calls`.
  absl::flat_hash_map<const Instruction*, size_t> pending_calls_;

  // Per computation: instruction names as written -> instruction, and the
  // text offset of each instruction (for parameter-number errors).
  absl::flat_hash_map<absl::string_view, Instruction*> instructions_;
  std::vector<std::pair<Instruction*, size_t>> parameters_seen_;
  // control-predecessors of the instruction being parsed; the edges are
  // added once it belongs to the computation.
  std::vector<Instruction*> control_predecessors_;
  Computation* current_computation_ = nullptr;

  // Instructions whose text omitted the shape (XLA allows it where the
  // operands and attributes determine it); inferred by InferAndCheckShapes.
  absl::flat_hash_set<const Instruction*> omitted_shapes_;
  // Long-form operands ("f32[2] x") naming an instruction whose shape is
  // omitted: checked once that shape is inferred.
  struct DeferredOperandCheck {
    Shape declared;  // A copy: shape-cache entries move on rehash.
    const Instruction* operand = nullptr;
    size_t offset = 0;
  };
  std::vector<DeferredOperandCheck> deferred_operand_checks_;
  // Broadcasts given dimensions={} because their operand looked like it
  // could be a scalar before its shape was inferred: checked once it is.
  absl::flat_hash_map<const Instruction*, size_t> implied_broadcast_dimensions_;
  int nested_operand_depth_ = 0;
};

// True for the ops whose result shape the text may leave out (the operands
// and attributes determine it); the same set as XLA's parser accepts, plus
// Kiln's extra unary math ops.
bool ShapeMayBeOmitted(Opcode opcode);

}  // namespace text_internal
}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_PARSER_INTERNAL_H_
