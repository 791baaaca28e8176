#include <cuda_runtime.h>

// y = a * x + y, one thread per element
__global__ void __launch_bounds__(256) saxpy(int n, float a, const float *x, float *y)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ __forceinline__ float sq(float v) { return v * v; }

int main()
{
  const int N = 1 << 20;
  float *x, *y;
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));
  saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, x, y);
  cudaDeviceSynchronize();
  cudaFree(x);
  return 0;
}
