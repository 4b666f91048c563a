// Head-bit marks of CSR segments (one bit per element, each segment's start set), three ways,
// 2^26 elements in segments of 1-32 (and ~1000): a thread per segment with an atomicOr each (the
// segmented scan's marks kernel), K consecutive segments per thread OR-ed in a register before
// each atomicOr, and a warp's segments grouped by word (__match_any_sync) with one atomicOr per word.
#include <cstdio>
#include <cstdint>
#include <random>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s at %d\n", cudaGetErrorString(e), __LINE__); return 1; } } while (0)
__global__ void per_segment(const long* offsets, long count, unsigned* bits) {
  const long s = blockIdx.x * long(blockDim.x) + threadIdx.x;
  if (s >= count) return;
  const long start = offsets[s];
  if (start < offsets[s + 1]) atomicOr(bits + (start >> 5), 1u << (start & 31));
}
template <int K>
__global__ void per_thread_run(const long* offsets, long count, unsigned* bits) {
  const long first = (blockIdx.x * long(blockDim.x) + threadIdx.x) * K;
  if (first >= count) return;
  long word = -1;
  unsigned acc = 0;
  long next = offsets[first];
  for (int k = 0; k < K && first + k < count; ++k) {
    const long start = next;
    next = offsets[first + k + 1];
    if (start >= next) continue;  // empty
    if ((start >> 5) != word) {
      if (word >= 0) atomicOr(bits + word, acc);
      word = start >> 5;
      acc = 0;
    }
    acc |= 1u << (start & 31);
  }
  if (word >= 0) atomicOr(bits + word, acc);
}
__global__ void warp_grouped(const long* offsets, long count, unsigned* bits) {
  const long s = blockIdx.x * long(blockDim.x) + threadIdx.x;
  const bool live = s < count && offsets[s] < offsets[s + 1];
  const long start = live ? offsets[s] : -1;
  const unsigned active = __ballot_sync(0xffffffffu, live);
  if (!live) return;
  const long word = start >> 5;
  const unsigned peers = __match_any_sync(active, word);
  const unsigned combined = __reduce_or_sync(peers, 1u << (start & 31));
  if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicOr(bits + word, combined);
}
int main() {
  const long n = 1L << 26;
  for (int mix : {32, 1000}) {
    std::mt19937_64 rng(1);
    std::vector<long> off{0};
    while (off.back() < n) off.push_back(std::min(n, off.back() + (mix == 32 ? 1 + long(rng() % 32) : 500 + long(rng() % 1001))));
    const long count = long(off.size()) - 1;
    long* d_off; unsigned *bits, *ref;
    const size_t words = (n + 31) / 32;
    CK(cudaMalloc(&d_off, off.size() * sizeof(long)));
    CK(cudaMalloc(&bits, words * 4)); CK(cudaMalloc(&ref, words * 4));
    CK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(long), cudaMemcpyHostToDevice));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    auto time = [&](auto launch, unsigned* out) {
      float best = 1e9;
      for (int r = 0; r < 20; ++r) {
        cudaMemsetAsync(out, 0, words * 4);
        cudaEventRecord(a); launch(out); cudaEventRecord(b); cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); if (r >= 2 && ms < best) best = ms;
      }
      return best * 1000;
    };
    const int T = 256;
    const float t0 = time([&](unsigned* o) { per_segment<<<(count + T - 1) / T, T>>>(d_off, count, o); }, ref);
    std::vector<unsigned> h_ref(words), h(words);
    CK(cudaMemcpy(h_ref.data(), ref, words * 4, cudaMemcpyDeviceToHost));
    auto check = [&](const char* name, float us) {
      cudaMemcpy(h.data(), bits, words * 4, cudaMemcpyDeviceToHost);
      std::printf("mix %d segments %ld %-22s %.1f us (per segment: %.1f) %s\n", mix, count, name, us, t0, h == h_ref ? "same" : "DIFFER");
    };
    check("K=4 per thread", time([&](unsigned* o) { per_thread_run<4><<<(count / 4 + T) / T, T>>>(d_off, count, o); }, bits));
    check("K=8 per thread", time([&](unsigned* o) { per_thread_run<8><<<(count / 8 + T) / T, T>>>(d_off, count, o); }, bits));
    check("K=16 per thread", time([&](unsigned* o) { per_thread_run<16><<<(count / 16 + T) / T, T>>>(d_off, count, o); }, bits));
    check("warp grouped", time([&](unsigned* o) { warp_grouped<<<(count + T - 1) / T, T>>>(d_off, count, o); }, bits));
    cudaFree(d_off); cudaFree(bits); cudaFree(ref);
  }
}
