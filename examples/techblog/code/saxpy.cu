// saxpy.cu: y = a * x + y on the GPU, the program of "Writing CUDA Kernels
// and Choosing Launch Configuration". Build: nvcc -O3 -arch=sm_80 -o saxpy saxpy.cu
#include <cuda_runtime.h>

// One grid-stride loop: correct for any grid size.
__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

int main(void) {
    int n = 1 << 24;
    float *x, *y;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; ++i) { x[i] = 1.0f; y[i] = 2.0f; }

    int block = 256;
    int grid = (n + block - 1) / block;
    saxpy<<<grid, block>>>(n, 2.0f, x, y);
    cudaDeviceSynchronize();

    cudaFree(x);
    cudaFree(y);
    return 0;
}
