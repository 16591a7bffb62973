// scan -> stablehlo.while (StableHLO has no scan). The loop state is the
// step counter, the inputs, the carries and one accumulator per output;
// each step takes element `index` of every input along the scan dimension
// (from the end when is_reverse), calls the body as a private function,
// and writes its outputs at `index`. Steps run in order, which every
// reading of is_associative allows.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/literal.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

struct Scan {
  int64_t inputs = 0;
  int64_t carries = 0;
  int64_t outputs = 0;
  int64_t dim = 0;
  int64_t length = 0;
  bool reverse = false;
  std::string body;  // The body's function symbol.
};

absl::StatusOr<Value> Emit1(FunctionEmitter& e, Op op) {
  absl::StatusOr<std::vector<Value>> got = e.Emit(op, "scan");
  if (!got.ok()) return got.status();
  return (*got)[0];
}

absl::StatusOr<Value> S32(FunctionEmitter& e, int32_t value) {
  return EmitLiteral(e, Literal::ScalarS32(value), "scan");
}

std::vector<int64_t> WithDim(std::vector<int64_t> dims, int64_t dim,
                             int64_t size) {
  dims.insert(dims.begin() + dim, size);
  return dims;
}

// The start indices of one step: zero but `index` at the scan dimension.
absl::StatusOr<std::vector<Value>> Starts(FunctionEmitter& e, int64_t rank,
                                          int64_t dim, const Value& index) {
  absl::StatusOr<Value> zero = S32(e, 0);
  if (!zero.ok()) return zero.status();
  std::vector<Value> starts(rank, *zero);
  starts[dim] = index;
  return starts;
}

// One step over state [i, inputs, carries, accumulators].
absl::StatusOr<std::vector<Value>> Step(FunctionEmitter& e, const Scan& s,
                                        const std::vector<Value>& state) {
  const Value& i = state[0];
  Value index = i;
  if (s.reverse) {
    absl::StatusOr<Value> last = S32(e, s.length - 1);
    if (!last.ok()) return last.status();
    absl::StatusOr<Value> flipped =
        Emit1(e, Op{"stablehlo.subtract", {*last, i}, "", {}, {i.shape}});
    if (!flipped.ok()) return flipped.status();
    index = *flipped;
  }
  std::vector<Value> call_args;
  for (int64_t n = 0; n < s.inputs; ++n) {
    const Value& input = state[1 + n];
    std::vector<int64_t> sizes = input.shape.dimensions();
    sizes[s.dim] = 1;
    absl::StatusOr<std::vector<Value>> starts =
        Starts(e, input.shape.rank(), s.dim, index);
    if (!starts.ok()) return starts.status();
    Op slice{"stablehlo.dynamic_slice",
             {input},
             absl::StrCat("slice_sizes = ", I64Array(sizes)),
             {},
             {Shape::Array(input.shape.element_type(), sizes)}};
    slice.operands.insert(slice.operands.end(), starts->begin(), starts->end());
    absl::StatusOr<Value> row = Emit1(e, slice);
    if (!row.ok()) return row.status();
    std::vector<int64_t> dims = input.shape.dimensions();
    dims.erase(dims.begin() + s.dim);
    absl::StatusOr<Value> element =
        Emit1(e, Op{"stablehlo.reshape",
                    {*row},
                    "",
                    {},
                    {Shape::Array(input.shape.element_type(), dims)}});
    if (!element.ok()) return element.status();
    call_args.push_back(*element);
  }
  for (int64_t k = 0; k < s.carries; ++k) {
    call_args.push_back(state[1 + s.inputs + k]);
  }
  Op call{"func.call", call_args, absl::StrCat("callee = ", s.body), {}, {}};
  for (int64_t m = 0; m < s.outputs; ++m) {
    std::vector<int64_t> dims =
        state[1 + s.inputs + s.carries + m].shape.dimensions();
    dims.erase(dims.begin() + s.dim);
    call.results.push_back(Shape::Array(
        state[1 + s.inputs + s.carries + m].shape.element_type(), dims));
  }
  for (int64_t k = 0; k < s.carries; ++k) {
    call.results.push_back(state[1 + s.inputs + k].shape);
  }
  absl::StatusOr<std::vector<Value>> results = e.Emit(call, "scan");
  if (!results.ok()) return results.status();
  std::vector<Value> next = {i};
  for (int64_t n = 0; n < s.inputs; ++n) next.push_back(state[1 + n]);
  for (int64_t k = 0; k < s.carries; ++k) {
    next.push_back((*results)[s.outputs + k]);
  }
  for (int64_t m = 0; m < s.outputs; ++m) {
    const Value& acc = state[1 + s.inputs + s.carries + m];
    const Value& out = (*results)[m];
    absl::StatusOr<Value> row =
        Emit1(e, Op{"stablehlo.reshape",
                    {out},
                    "",
                    {},
                    {Shape::Array(out.shape.element_type(),
                                  WithDim(out.shape.dimensions(), s.dim, 1))}});
    if (!row.ok()) return row.status();
    absl::StatusOr<std::vector<Value>> starts =
        Starts(e, acc.shape.rank(), s.dim, index);
    if (!starts.ok()) return starts.status();
    Op update{
        "stablehlo.dynamic_update_slice", {acc, *row}, "", {}, {acc.shape}};
    update.operands.insert(update.operands.end(), starts->begin(),
                           starts->end());
    absl::StatusOr<Value> written = Emit1(e, update);
    if (!written.ok()) return written.status();
    next.push_back(*written);
  }
  absl::StatusOr<Value> one = S32(e, 1);
  if (!one.ok()) return one.status();
  absl::StatusOr<Value> advanced =
      Emit1(e, Op{"stablehlo.add", {i, *one}, "", {}, {i.shape}});
  if (!advanced.ok()) return advanced.status();
  next[0] = *advanced;
  return next;
}

absl::StatusOr<std::vector<Value>> Condition(FunctionEmitter& e, const Scan& s,
                                             const std::vector<Value>& state) {
  absl::StatusOr<Value> length = S32(e, s.length);
  if (!length.ok()) return length.status();
  absl::StatusOr<Value> more =
      Emit1(e, Op{"stablehlo.compare",
                  {state[0], *length},
                  "comparison_direction = #stablehlo<comparison_direction LT>, "
                  "compare_type = #stablehlo<comparison_type SIGNED>",
                  {},
                  {Shape::Scalar(ElementType::kPred)}});
  if (!more.ok()) return more.status();
  return std::vector<Value>{*more};
}

absl::StatusOr<Scan> Describe(FunctionEmitter& e, const Instruction& i) {
  Scan s;
  const int64_t* carries = i.attrs().Get<int64_t>(attr::kNumCarries);
  const Int64List* dims = i.attrs().Get<Int64List>(attr::kDimensions);
  const bool* reverse = i.attrs().Get<bool>(attr::kIsReverse);
  Computation* const* body = i.attrs().Get<Computation*>(attr::kToApply);
  if (dims == nullptr || dims->size() != 1 || body == nullptr) {
    return NoForm("scan needs one dimension and a body");
  }
  s.carries = carries ? *carries : 0;
  s.inputs = i.operand_count() - s.carries;
  s.outputs = i.shape().IsTuple() ? i.shape().tuple_size() - s.carries : -1;
  s.dim = (*dims)[0];
  s.reverse = reverse != nullptr && *reverse;
  for (const Instruction* operand : i.operands()) {
    if (!operand->shape().IsArray() || !operand->shape().is_static()) {
      return NoForm("a scan of tuples or dynamic shapes is not exported");
    }
  }
  for (const Shape& result : i.shape().tuple_shapes()) {
    if (!result.IsArray()) return NoForm("a scan with tuple results");
  }
  if (s.inputs < 1 || s.outputs < 0 || s.dim < 0 ||
      s.dim >= i.operand(0)->shape().rank()) {
    return NoForm("a scan unlike its shape rule");
  }
  s.length = i.operand(0)->shape().dimension(s.dim);
  s.body = e.symbols().FunctionSymbol(*body);
  return s;
}

absl::StatusOr<Value> EmitScan(FunctionEmitter& e, const Instruction& i) {
  absl::StatusOr<Scan> s = Describe(e, i);
  if (!s.ok()) return s.status();
  absl::StatusOr<Value> start = S32(e, 0);
  if (!start.ok()) return start.status();
  std::vector<Value> state = {*start};
  for (int64_t k = 0; k < i.operand_count(); ++k) {
    state.push_back(e.Operand(i, k));
  }
  for (int64_t m = 0; m < s->outputs; ++m) {
    absl::StatusOr<Value> zero = EmitZero(e, i.shape().tuple_shape(m));
    if (!zero.ok()) return zero.status();
    state.push_back(*std::move(zero));
  }
  std::vector<Shape> shapes;
  for (const Value& v : state) shapes.push_back(v.shape);
  absl::StatusOr<std::string> cond = e.BuiltRegion(
      shapes, [&](const std::vector<Value>& a) { return Condition(e, *s, a); });
  if (!cond.ok()) return cond.status();
  absl::StatusOr<std::string> body = e.BuiltRegion(
      shapes, [&](const std::vector<Value>& a) { return Step(e, *s, a); });
  if (!body.ok()) return body.status();
  absl::StatusOr<std::vector<Value>> loop =
      e.Emit(Op{"stablehlo.while",
                state,
                "",
                {*std::move(cond), *std::move(body)},
                shapes},
             i.name());
  if (!loop.ok()) return loop.status();
  std::vector<Value> results;
  const size_t accumulators = 1 + i.operand_count();
  for (int64_t m = 0; m < s->outputs; ++m) {
    results.push_back((*loop)[accumulators + m]);
  }
  for (int64_t k = 0; k < s->carries; ++k) {
    results.push_back((*loop)[1 + s->inputs + k]);
  }
  return KnownTuple(std::move(results));
}

}  // namespace

void AddScanHandler(HandlerTable* table) {
  (*table)[Opcode::kScan] = &EmitScan;
}

}  // namespace kiln::stablehlo
