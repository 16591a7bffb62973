// Eigen's own GEMM, the peer of Kiln's dot in vs_xla.py: compiled by the
// script with the same flags as Kiln's host library (-O3 -march=native
// -fopenmp) and run pinned to the same cores. Prints the median seconds
// of `runs` products C = A * B of row-major N x N f32 matrices.
//
//   eigen_gemm N RUNS
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: eigen_gemm N RUNS\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int runs = std::atoi(argv[2]);
  if (n <= 0 || runs <= 0) return 2;
  using Matrix =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Matrix a = Matrix::Random(n, n), b = Matrix::Random(n, n), c(n, n);
  std::vector<double> seconds;
  for (int run = 0; run < runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    c.noalias() = a * b;
    seconds.push_back(std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("%.9f %f\n", seconds[seconds.size() / 2], c(0, 0));
  return 0;
}
