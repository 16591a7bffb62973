// An example of the builder (docs/builder.md): a row-wise softmax of a
// f32[4,10] matrix, written in client form and printed as HLO text.
#include "examples/softmax_builder.h"

#include "compiler/builder/builder.h"
#include "compiler/builder/computations.h"
#include "compiler/builder/constants.h"
#include "compiler/builder/elementwise.h"
#include "compiler/builder/reduction.h"
#include "compiler/text/printer.h"

namespace kiln {

absl::StatusOr<std::string> SoftmaxHlo() {
  XlaBuilder b("softmax");
  XlaOp x = Parameter(&b, 0, Shape::Array(ElementType::kF32, {4, 10}), "x");
  XlaOp max = Reduce(x, MinValue(&b, ElementType::kF32),
                     CreateScalarMaxComputation(ElementType::kF32, &b), {1});
  // Client form: the f32[4] row maxima broadcast along dimension 0.
  XlaOp e = Exp(Sub(x, max, /*broadcast_dimensions=*/{0}));
  XlaOp sum = Reduce(e, Zero(&b, ElementType::kF32),
                     CreateScalarAddComputation(ElementType::kF32, &b), {1});
  Div(e, sum, {0});
  absl::StatusOr<XlaComputation> softmax =
      b.Build();  // The first error, if any.
  if (!softmax.ok()) return softmax.status();
  return PrintModule(*softmax->TakeModule());
}

}  // namespace kiln
