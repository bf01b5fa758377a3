#pragma once
// The NeuronCore model the bf16 Krylov variants run on (krylov.hpp): bf16 A and vectors, TensorEngine
// matvec with exact bf16 products and fp32 accumulation, fp32 dot products, updates rounded to bf16 to
// nearest or stochastically with counter-based random bits. Files using it are compiled with
// -ffp-contract=off: every fp32 operation of the model rounds on its own.

#include "common.hpp"

#include <trncore/convert.hpp>
#include <trncore/error.hpp>
#include <trncore/detail/parallel.hpp>
#include <trncore/rounding.hpp>
#include <trncore/small_float.hpp>
#include <trncore/detail/format_number.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
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

/// The checks every bf16 variant makes first: a square A, b and x of n elements each, valid options and an
/// update rounding the model has (nearest_even or stochastic).
template <class In>
void check_bf16_shapes(const char* fn, trncore::MatrixView<const In> a, std::span<const In> b, std::span<In> x,
                       const KrylovOptions& options) {
  check_square(fn, a.rows(), a.cols());
  const std::int64_t n = a.rows();
  if (static_cast<std::int64_t>(b.size()) != n || static_cast<std::int64_t>(x.size()) != n)
    throw trncore::DimensionMismatch(fn,
                                     "A is " + std::to_string(n) + "x" + std::to_string(n) + " but b has " +
                                         std::to_string(b.size()) + " and x " + std::to_string(x.size()) + " elements",
                                     "pass b and x with n elements each");
  check_options(fn, options, /*model=*/true);
  const trncore::RoundingMode mode = options.rounding.mode;
  if (mode != trncore::RoundingMode::nearest_even && mode != trncore::RoundingMode::stochastic)
    throw trncore::InvalidArgument(
        fn, "options.rounding.mode = " + std::string(trncore::to_string(mode)) + " is not modelled",
        "use RoundingMode::nearest_even or RoundingMode::stochastic");
}

/// Then: b, the initial guess x and A hold finite values (in that order).
template <class In>
void check_bf16_values(const char* fn, trncore::MatrixView<const In> a, std::span<const In> b, std::span<In> x) {
  check_finite<In>(fn, "b", b);
  check_finite<In>(fn, "x (the initial guess)", std::span<const In>(x));
  for (std::int64_t i = 0; i < a.rows(); ++i)
    for (std::int64_t j = 0; j < a.cols(); ++j)
      if (!std::isfinite(a(i, j)))
        throw trncore::InvalidArgument(fn,
                                       "a(" + std::to_string(i) + ", " + std::to_string(j) + ") = " +
                                           trncore::detail::sci(static_cast<double>(a(i, j))) + " is not finite",
                                       "pass a matrix of finite values");
}

/// v rounded once to bf16, to nearest-even, as the float that holds it exactly.
inline float to_bf16(double v) { return bf16::from_double(v, trncore::Rounding{}).to_float(); }

/// The model of A (rounded to bf16, row-major) with the run's rounding, seed and threads.
template <class In>
Model make_model(trncore::MatrixView<const In> a, const KrylovOptions& options) {
  const std::int64_t n = a.rows();
  const auto un = static_cast<std::size_t>(n);
  Model model{n, options.threads, options.rounding, options.seed, std::vector<float>(un * un), std::vector<bf16>(un)};
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      model.a[static_cast<std::size_t>(i * n + j)] = to_bf16(static_cast<double>(a(i, j)));
  return model;
}

/// ‖b − A·x‖₂ in double against the caller's A and b for the model's iterate x: a measurement of the
/// modelled run, not part of it.
template <class In>
double true_residual_norm(trncore::MatrixView<const In> a, std::span<const In> b, const std::vector<float>& x) {
  double s = 0;
  for (std::int64_t i = 0; i < a.rows(); ++i) {
    double e = static_cast<double>(b[static_cast<std::size_t>(i)]);
    for (std::int64_t j = 0; j < a.cols(); ++j)
      e -= static_cast<double>(a(i, j)) * static_cast<double>(x[static_cast<std::size_t>(j)]);
    s += e * e;
  }
  return std::sqrt(s);
}

}  // namespace trnsolver::detail
