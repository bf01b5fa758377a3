#pragma once
// The NeuronCore model the bf16 Krylov variants run on (krylov.hpp): bf16 A and vectors, TensorEngine
// matvec with exact bf16 products and fp32 accumulation, fp32 dot products, updates rounded to bf16 to
// nearest or stochastically with counter-based random bits. Files using it are compiled with
// -ffp-contract=off: every fp32 operation of the model rounds on its own.

#include <trncore/convert.hpp>
#include <trncore/detail/parallel.hpp>
#include <trncore/rounding.hpp>
#include <trncore/small_float.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace trnsolver::detail {

using trncore::bf16;

// The modelled state: every vector holds bf16 values (as floats, exactly), A is bf16 row-major.
struct Model {
  std::int64_t n;
  int threads;
  trncore::Rounding rounding;
  std::uint64_t seed;
  std::vector<float> a;
  std::vector<bf16> scratch;

  // q = A p: exact bf16 products, fp32 accumulation in ascending column order (PSUM).
  void matvec(std::span<const float> p, std::span<float> q) const {
    const std::int64_t rows = 64, tasks = (n + rows - 1) / rows;
    trncore::detail::parallel_for(tasks, n >= 256 ? threads : 1, [&](std::int64_t t) {
      for (std::int64_t i = t * rows; i < std::min(n, (t + 1) * rows); ++i) {
        const float* row = a.data() + i * n;
        float s = 0.0f;
        for (std::int64_t j = 0; j < n; ++j) s += row[j] * p[static_cast<std::size_t>(j)];
        q[static_cast<std::size_t>(i)] = s;
      }
    });
  }
  // fp32 dot product: fp32 products, fp32 accumulation in ascending order.
  static float dot32(std::span<const float> x, std::span<const float> y) {
    float s = 0.0f;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float p = x[i] * y[i];
      s += p;
    }
    return s;
  }
  // out = bf16(t) with the given rounding and the bits RandomBits{seed, stream}(i); out holds the values.
  void round(std::span<const float> t, std::span<float> out, const trncore::Rounding& r, std::uint64_t stream) {
    trncore::ConvertOptions c;
    c.rounding = r;
    c.seed = seed;
    c.stream = stream;
    c.threads = threads;
    trncore::convert<bf16>(t, std::span<bf16>(scratch), c);
    trncore::convert<bf16>(std::span<const bf16>(scratch), out, c);
  }
};

}  // namespace trnsolver::detail
