// matmul_tiled.cu: C = A B with T x T tiles of A and B in shared memory, the
// kernel of "Tiled Matrix Multiplication and Shared Memory".
#include <cuda_runtime.h>

#define T 32 // the tile's side: a block of T x T threads

// One thread per element of C; N is a multiple of T.
__global__ void matmul_tiled(const float *A, const float *B, float *C, int N) {
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += T) {
        As[threadIdx.y][threadIdx.x] = A[row * N + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
