// Internal to backends/pjrt: a program compiled by a plugin's client, with
// the transfers of arguments and results around each execution.
#ifndef KILN_BACKENDS_PJRT_PROGRAM_H_
#define KILN_BACKENDS_PJRT_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backends/pjrt/api.h"
#include "backends/pjrt/plugin.h"

namespace kiln::pjrt::internal {

// xla.CompileOptionsProto, serialized by hand (Kiln has no protobuf): the
// executable build options' device_ordinal -1 (unset), num_replicas and
// num_partitions. Exposed for its test.
std::string EncodeCompileOptions(int64_t replicas, int64_t partitions);

#if KILN_HAVE_PJRT_C_API
// Compiles `mlir` (StableHLO text) on `client`.
absl::StatusOr<std::unique_ptr<Program>> CompileProgram(const PJRT_Api* api,
                                                        PJRT_Client* client,
                                                        const std::string& mlir,
                                                        int64_t replicas,
                                                        int64_t partitions);
#endif

}  // namespace kiln::pjrt::internal

#endif  // KILN_BACKENDS_PJRT_PROGRAM_H_
