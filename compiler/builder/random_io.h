// Builder functions for random number generation (rng, rng-bit-generator,
// rng-get-and-update-state), host and device transfers (infeed, outfeed,
// send/recv and their -done halves) and custom-call, in the style of XLA's
// XlaBuilder.
//
//   XlaOp noise = RngNormal(zero, one, Shape::Array(ElementType::kF32, {8}));
//   XlaOp data = Infeed(&b, shape);          // on a fresh after-all token
//   XlaOp data_and_token = InfeedWithToken(token, shape);
//
// These ops take their result's shape from the caller (XLA's `shape`
// argument); the op's rule checks it against the operands.
#ifndef KILN_COMPILER_BUILDER_RANDOM_IO_H_
#define KILN_COMPILER_BUILDER_RANDOM_IO_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/builder/collectives.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {

// rng(a, b), distribution=rng_uniform: `shape`'s dims, of a and b's type.
XlaOp RngUniform(XlaOp a, XlaOp b, const Shape& shape);

// rng(mu, sigma), distribution=rng_normal.
XlaOp RngNormal(XlaOp mu, XlaOp sigma, const Shape& shape);

// (new_state, data): data is an integral array of `shape`; the state's
// shape depends on the algorithm (u64[2] for three-fry, u64[2] or u64[3]
// for philox).
XlaOp RngBitGenerator(RandomAlgorithm algorithm, XlaOp initial_state,
                      const Shape& shape);

// u64[2]: the old RNG state, advanced by `delta`.
XlaOp RngGetAndUpdateState(XlaBuilder* builder, int64_t delta);

// The data of `shape` read from the infeed (an infeed on a fresh token,
// then its element 0).
XlaOp Infeed(XlaBuilder* builder, const Shape& shape,
             absl::string_view config = "");

// infeed(token): the (data, token) tuple.
XlaOp InfeedWithToken(XlaOp token, const Shape& shape,
                      absl::string_view config = "");

// outfeed(operand, fresh token). `shape_with_layout` must match operand's
// shape; it fixes the layout of the data transferred.
void Outfeed(XlaOp operand, const Shape& shape_with_layout,
             absl::string_view outfeed_config);

// outfeed(operand, token): the new token.
XlaOp OutfeedWithToken(XlaOp operand, XlaOp token,
                       const Shape& shape_with_layout,
                       absl::string_view outfeed_config);

// send(operand, fresh token) and its send-done.
void Send(XlaOp operand, const ChannelHandle& handle);

// send(operand, token) and send-done: the send-done's token.
XlaOp SendWithToken(XlaOp operand, XlaOp token, const ChannelHandle& handle);

// recv(fresh token) of `shape` and recv-done: the received data.
XlaOp Recv(XlaBuilder* builder, const Shape& shape,
           const ChannelHandle& handle);

// recv(token) and recv-done: the (data, token) tuple.
XlaOp RecvWithToken(XlaOp token, const Shape& shape,
                    const ChannelHandle& handle);

// Host transfers (is_host_transfer=true): the handle's type must be
// kDeviceToHost for SendToHost and kHostToDevice for RecvFromHost.
XlaOp SendToHost(XlaOp operand, XlaOp token, const Shape& shape_with_layout,
                 const ChannelHandle& handle);
XlaOp RecvFromHost(XlaOp token, const Shape& shape,
                   const ChannelHandle& handle);

// The halves of Send and Recv, for code that schedules them apart.
XlaOp SendStart(XlaOp operand, XlaOp token, const ChannelHandle& handle);
XlaOp SendDone(XlaOp send, const ChannelHandle& handle);
XlaOp RecvStart(XlaOp token, const Shape& shape, const ChannelHandle& handle);
XlaOp RecvDone(XlaOp recv, const ChannelHandle& handle);

// CustomCallSchedule / CustomCallApiVersion, as XLA spells them.
enum class CustomCallSchedule { kNone, kLatest, kEarliest };
enum class CustomCallApiVersion {
  kUnspecified,
  kOriginal,
  kStatusReturning,
  kStatusReturningUnified,
  kTypedFfi,
};

// One output_to_operand_aliasing entry: output index {..} aliases operand
// `operand`'s index {..}.
struct CustomCallAlias {
  std::vector<int64_t> output_index;
  int64_t operand = 0;
  std::vector<int64_t> operand_index;
};

// Everything of a custom-call but its target, operands and shape.
// `opaque` becomes backend_config="..." as in XLA.
struct CustomCallOptions {
  std::string opaque;
  bool has_side_effect = false;
  std::vector<CustomCallAlias> output_operand_aliasing;
  CustomCallSchedule schedule = CustomCallSchedule::kNone;
  CustomCallApiVersion api_version = CustomCallApiVersion::kOriginal;
};

XlaOp CustomCall(
    XlaBuilder* builder, absl::string_view call_target_name,
    absl::Span<const XlaOp> operands, const Shape& shape,
    absl::string_view opaque = "", bool has_side_effect = false,
    absl::Span<const CustomCallAlias> output_operand_aliasing = {},
    CustomCallSchedule schedule = CustomCallSchedule::kNone,
    CustomCallApiVersion api_version = CustomCallApiVersion::kOriginal);

// A custom-call that calls `computation` (called_computations={...}).
XlaOp CustomCallWithComputation(XlaBuilder* builder,
                                absl::string_view call_target_name,
                                absl::Span<const XlaOp> operands,
                                const XlaComputation& computation,
                                const Shape& shape,
                                const CustomCallOptions& options = {});

// A custom-call that fixes its operands' layouts
// (operand_layout_constraints={...}): one shape per operand, equal to it
// but for the layout; `shape_with_layout` is the result.
XlaOp CustomCallWithLayout(XlaBuilder* builder,
                           absl::string_view call_target_name,
                           absl::Span<const XlaOp> operands,
                           const Shape& shape_with_layout,
                           absl::Span<const Shape> operand_shapes_with_layout,
                           const CustomCallOptions& options = {});

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_RANDOM_IO_H_
