// The entry point every libFuzzer target defines. Declared here so the
// standalone driver and the corpus tests can call it in a normal build.
#ifndef KILN_FUZZ_FUZZ_TARGET_H_
#define KILN_FUZZ_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#endif  // KILN_FUZZ_FUZZ_TARGET_H_
