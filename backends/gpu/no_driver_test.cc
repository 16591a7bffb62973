// Without a driver the gpu backend compiles and emits, and every run fails
// at once with kNoDevice. The test's first argument is the driver library
// to try (BUILD gives a missing path, and the fake driver with no device).
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "backends/backend.h"
#include "backends/gpu/cuda_driver.h"
#include "backends/gpu/gpu_backend.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::gpu {
namespace {

TEST(NoDriverTest, RunsFailAtOnceWithTheNoDeviceMessage) {
  absl::Status device = CudaDeviceStatus();
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StartsWith(device.message(), kNoDevice)) << device;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  ROOT y = f32[8] add(x, x)
}
)");
  ASSERT_TRUE(module.ok());
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      MakeDeviceBackend()->Compile(**module, CompileOptions());
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_TRUE((*executable)->Emit("cuda").ok());
  absl::StatusOr<Literal> result =
      (*executable)
          ->Run(
              {Literal::Create(Shape::Array(ElementType::kF32, {8})).value()});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StartsWith(result.status().message(), kNoDevice))
      << result.status();
}

}  // namespace
}  // namespace kiln::gpu

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (absl::StartsWith(argument, "--driver=")) {
      setenv("KILN_CUDA_DRIVER_LIBRARY", argument.substr(9).c_str(), 1);
    } else if (argument == "--no_devices") {
      setenv("FAKE_CUDA_DEVICE_COUNT", "0", 1);
    }
  }
  return RUN_ALL_TESTS();
}
