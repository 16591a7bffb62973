#include "backends/pjrt/api.h"

#if KILN_HAVE_PJRT_C_API

#include "absl/strings/str_cat.h"

namespace kiln::pjrt::internal {

absl::Status ToStatus(const PJRT_Api* api, PJRT_Error* error,
                      absl::string_view what) {
  if (error == nullptr) return absl::OkStatus();
  PJRT_Error_Message_Args message = KILN_PJRT_ARGS(PJRT_Error_Message_Args);
  message.error = error;
  api->PJRT_Error_Message(&message);
  std::string text =
      absl::StrCat("pjrt: ", what, ": ",
                   absl::string_view(message.message, message.message_size));
  PJRT_Error_GetCode_Args code = KILN_PJRT_ARGS(PJRT_Error_GetCode_Args);
  code.error = error;
  PJRT_Error* code_error = api->PJRT_Error_GetCode(&code);
  PJRT_Error_Destroy_Args destroy = KILN_PJRT_ARGS(PJRT_Error_Destroy_Args);
  if (code_error != nullptr) {
    destroy.error = code_error;
    api->PJRT_Error_Destroy(&destroy);
    code.code = PJRT_Error_Code_UNKNOWN;
  }
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  // PJRT's codes are absl's (both are the canonical gRPC codes).
  absl::StatusCode status_code = static_cast<absl::StatusCode>(code.code);
  if (code.code == PJRT_Error_Code_OK) status_code = absl::StatusCode::kUnknown;
  return absl::Status(status_code, text);
}

absl::Status AwaitAndDestroy(const PJRT_Api* api, PJRT_Event* event,
                             absl::string_view what) {
  if (event == nullptr) return absl::OkStatus();
  PJRT_Event_Await_Args await = KILN_PJRT_ARGS(PJRT_Event_Await_Args);
  await.event = event;
  absl::Status status = ToStatus(api, api->PJRT_Event_Await(&await), what);
  PJRT_Event_Destroy_Args destroy = KILN_PJRT_ARGS(PJRT_Event_Destroy_Args);
  destroy.event = event;
  if (absl::Status s = ToStatus(api, api->PJRT_Event_Destroy(&destroy), what);
      status.ok()) {
    status = s;
  }
  return status;
}

std::optional<PJRT_Buffer_Type> BufferType(ElementType type) {
  switch (type) {
    case ElementType::kPred:
      return PJRT_Buffer_Type_PRED;
    case ElementType::kS2:
      return PJRT_Buffer_Type_S2;
    case ElementType::kS4:
      return PJRT_Buffer_Type_S4;
    case ElementType::kS8:
      return PJRT_Buffer_Type_S8;
    case ElementType::kS16:
      return PJRT_Buffer_Type_S16;
    case ElementType::kS32:
      return PJRT_Buffer_Type_S32;
    case ElementType::kS64:
      return PJRT_Buffer_Type_S64;
    case ElementType::kU2:
      return PJRT_Buffer_Type_U2;
    case ElementType::kU4:
      return PJRT_Buffer_Type_U4;
    case ElementType::kU8:
      return PJRT_Buffer_Type_U8;
    case ElementType::kU16:
      return PJRT_Buffer_Type_U16;
    case ElementType::kU32:
      return PJRT_Buffer_Type_U32;
    case ElementType::kU64:
      return PJRT_Buffer_Type_U64;
    case ElementType::kF16:
      return PJRT_Buffer_Type_F16;
    case ElementType::kBF16:
      return PJRT_Buffer_Type_BF16;
    case ElementType::kF32:
      return PJRT_Buffer_Type_F32;
    case ElementType::kF64:
      return PJRT_Buffer_Type_F64;
    case ElementType::kF8E5M2:
      return PJRT_Buffer_Type_F8E5M2;
    case ElementType::kF8E4M3:
      return PJRT_Buffer_Type_F8E4M3;
    case ElementType::kF8E4M3FN:
      return PJRT_Buffer_Type_F8E4M3FN;
    case ElementType::kF8E4M3B11FNUZ:
      return PJRT_Buffer_Type_F8E4M3B11FNUZ;
    case ElementType::kF8E3M4:
      return PJRT_Buffer_Type_F8E3M4;
    case ElementType::kF8E5M2FNUZ:
      return PJRT_Buffer_Type_F8E5M2FNUZ;
    case ElementType::kF8E4M3FNUZ:
      return PJRT_Buffer_Type_F8E4M3FNUZ;
    case ElementType::kF4E2M1FN:
      return PJRT_Buffer_Type_F4E2M1FN;
    case ElementType::kF8E8M0FNU:
      return PJRT_Buffer_Type_F8E8M0FNU;
    case ElementType::kC64:
      return PJRT_Buffer_Type_C64;
    case ElementType::kC128:
      return PJRT_Buffer_Type_C128;
    default:
      return std::nullopt;
  }
}

void DestroyBuffer(const PJRT_Api* api, PJRT_Buffer* buffer) {
  if (buffer == nullptr) return;
  PJRT_Buffer_Destroy_Args destroy = KILN_PJRT_ARGS(PJRT_Buffer_Destroy_Args);
  destroy.buffer = buffer;
  (void)ToStatus(api, api->PJRT_Buffer_Destroy(&destroy), "destroy buffer");
}

namespace {

PJRT_DeviceDescription* Description(const PJRT_Api* api, PJRT_Device* device) {
  PJRT_Device_GetDescription_Args args =
      KILN_PJRT_ARGS(PJRT_Device_GetDescription_Args);
  args.device = device;
  if (!ToStatus(api, api->PJRT_Device_GetDescription(&args), "device").ok()) {
    return nullptr;
  }
  return args.device_description;
}

}  // namespace

std::string DeviceKind(const PJRT_Api* api, PJRT_Device* device) {
  PJRT_DeviceDescription* description = Description(api, device);
  if (description == nullptr) return "?";
  PJRT_DeviceDescription_Kind_Args args =
      KILN_PJRT_ARGS(PJRT_DeviceDescription_Kind_Args);
  args.device_description = description;
  if (!ToStatus(api, api->PJRT_DeviceDescription_Kind(&args), "kind").ok()) {
    return "?";
  }
  return std::string(args.device_kind, args.device_kind_size);
}

std::string DeviceText(const PJRT_Api* api, PJRT_Device* device) {
  PJRT_DeviceDescription* description = Description(api, device);
  if (description == nullptr) return "?";
  PJRT_DeviceDescription_DebugString_Args args =
      KILN_PJRT_ARGS(PJRT_DeviceDescription_DebugString_Args);
  args.device_description = description;
  if (!ToStatus(api, api->PJRT_DeviceDescription_DebugString(&args), "device")
           .ok()) {
    return "?";
  }
  return std::string(args.debug_string, args.debug_string_size);
}

}  // namespace kiln::pjrt::internal

#endif  // KILN_HAVE_PJRT_C_API
