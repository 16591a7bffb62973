// Internal to backends/pjrt: helpers around the PJRT C API's structs
// (include only where KILN_HAVE_PJRT_C_API is set): argument structs with
// their struct_size, plugin errors as absl::Status, and the element types.
#ifndef KILN_BACKENDS_PJRT_API_H_
#define KILN_BACKENDS_PJRT_API_H_

#if __has_include("xla/pjrt/c/pjrt_c_api.h")
#define KILN_HAVE_PJRT_C_API 1
#include "xla/pjrt/c/pjrt_c_api.h"
#else
#define KILN_HAVE_PJRT_C_API 0
#endif

#if KILN_HAVE_PJRT_C_API

#include <cstring>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/element_type.h"

namespace kiln::pjrt::internal {

// A zeroed argument struct with its struct_size: KILN_PJRT_ARGS(
// PJRT_Client_Create_Args) (the sizes come from the header's traits).
template <typename T>
T ZeroedArgs(size_t struct_size) {
  T args;
  std::memset(&args, 0, sizeof(args));
  args.struct_size = struct_size;
  return args;
}
#define KILN_PJRT_ARGS(type) \
  ::kiln::pjrt::internal::ZeroedArgs<type>(type##_STRUCT_SIZE)

// Takes ownership of `error` (destroys it): OK for nullptr, else the
// plugin's code and message, prefixed with `what` ("compile: ...").
absl::Status ToStatus(const PJRT_Api* api, PJRT_Error* error,
                      absl::string_view what);

// Waits for `event` (may be null), destroys it and returns its error.
absl::Status AwaitAndDestroy(const PJRT_Api* api, PJRT_Event* event,
                             absl::string_view what);

// Kiln's element type as a PJRT buffer type; nullopt when PJRT has none.
std::optional<PJRT_Buffer_Type> BufferType(ElementType type);

// Destroys a buffer (ignoring errors: nothing can be done about them).
void DestroyBuffer(const PJRT_Api* api, PJRT_Buffer* buffer);

// The device's description as Kiln's "kind" and text.
std::string DeviceKind(const PJRT_Api* api, PJRT_Device* device);
std::string DeviceText(const PJRT_Api* api, PJRT_Device* device);

}  // namespace kiln::pjrt::internal

#endif  // KILN_HAVE_PJRT_C_API
#endif  // KILN_BACKENDS_PJRT_API_H_
