// Internal to backends/pjrt: a program compiled by a plugin's client, with
// the transfers of arguments and results around each execution.
#ifndef KILN_BACKENDS_PJRT_PROGRAM_H_
#define KILN_BACKENDS_PJRT_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "backends/pjrt/api.h"
#include "backends/pjrt/plugin.h"

namespace kiln::pjrt::internal {

// xla.CompileOptionsProto, serialized by hand (Kiln has no protobuf): the
// executable build options' device_ordinal -1 (unset), num_replicas and
// num_partitions. Exposed for its test.
std::string EncodeCompileOptions(int64_t replicas, int64_t partitions);

#if KILN_HAVE_PJRT_C_API
// A PJRT buffer (owned: destroyed with this object or when deleted) with
// the shape of the value it holds.
class PjrtBuffer : public PluginBuffer {
 public:
  PjrtBuffer(const PJRT_Api* api, PJRT_Buffer* buffer, Shape shape,
             int64_t device)
      : api_(api), buffer_(buffer), shape_(std::move(shape)), device_(device) {}
  ~PjrtBuffer() override { DestroyBuffer(api_, buffer_); }
  const Shape& shape() const override { return shape_; }
  int64_t device() const override { return device_; }
  bool is_deleted() const override { return buffer_ == nullptr; }
  absl::StatusOr<Literal> ToLiteral() const override;
  void Delete() override {
    DestroyBuffer(api_, buffer_);
    buffer_ = nullptr;
  }
  PJRT_Buffer* buffer() const { return buffer_; }

 private:
  const PJRT_Api* api_;
  PJRT_Buffer* buffer_;
  Shape shape_;
  int64_t device_;
};

// A static array literal into a new buffer on `device` (its storage is
// dense and row major), in the device layout `minor_to_major` (empty: the
// plugin's default, major to minor), and back (a row-major host layout is
// asked for explicitly).
absl::StatusOr<PJRT_Buffer*> HostToDevice(
    const PJRT_Api* api, PJRT_Client* client, const Literal& value,
    PJRT_Device* device, absl::Span<const int64_t> minor_to_major = {});
absl::StatusOr<Literal> DeviceToHost(const PJRT_Api* api, PJRT_Buffer* buffer,
                                     const Shape& shape);

// Compiles `mlir` (StableHLO text) on `client`.
absl::StatusOr<std::unique_ptr<Program>> CompileProgram(const PJRT_Api* api,
                                                        PJRT_Client* client,
                                                        const std::string& mlir,
                                                        int64_t replicas,
                                                        int64_t partitions);
#endif

}  // namespace kiln::pjrt::internal

#endif  // KILN_BACKENDS_PJRT_PROGRAM_H_
