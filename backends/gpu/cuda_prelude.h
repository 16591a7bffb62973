// What generated CUDA C++ needs on a real device, before the kernel
// prelude: the launch line is metadata read by the host (kernel_target.h,
// ParseLaunches), and KILN_SHARED declares a block's shared array. The
// emulation defines both differently (emulation/cuda_shim.h).
#ifndef KILN_BACKENDS_GPU_CUDA_PRELUDE_H_
#define KILN_BACKENDS_GPU_CUDA_PRELUDE_H_

#define KILN_LAUNCH(NAME, GRID, BLOCK, COOPERATIVE)
#define KILN_SHARED(TYPE, NAME, COUNT) __shared__ TYPE NAME[COUNT]

#endif  // KILN_BACKENDS_GPU_CUDA_PRELUDE_H_
