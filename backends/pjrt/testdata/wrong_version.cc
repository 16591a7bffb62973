// A PJRT plugin from the future: its GetPjrtApi reports a major version one
// past the headers' (and has no functions; Kiln must stop at the version).
#include <cstring>

#if __has_include("xla/pjrt/c/pjrt_c_api.h")
#include "xla/pjrt/c/pjrt_c_api.h"

extern "C" const PJRT_Api* GetPjrtApi() {
  static PJRT_Api api = [] {
    PJRT_Api table;
    std::memset(&table, 0, sizeof(table));
    table.struct_size = PJRT_Api_STRUCT_SIZE;
    table.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
    table.pjrt_api_version.major_version = PJRT_API_MAJOR + 1;
    table.pjrt_api_version.minor_version = 0;
    return table;
  }();
  return &api;
}
#endif
