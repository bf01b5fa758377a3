// The random choices of the sparse sign and SRHT sketches, and the fast Walsh–Hadamard transform.
#include "sketch_draws.hpp"

#include "common.hpp"

#include <trncore/detail/parallel.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

namespace trnsolver::randomized_detail {

namespace {

// Floyd's algorithm: `count` distinct values of [0, range), uniformly, draw t from randint window
// (first_window + t) of s: t-th step picks r in [0, range − count + t]; a repeat takes the bound itself.
void distinct_picks(trnrand::Stream s, std::uint64_t first_window, std::int64_t range, std::int64_t count,
                    std::int64_t* out) {
  for (std::int64_t t = 0; t < count; ++t) {
    const std::int64_t bound = range - count + t;
    std::int64_t r = 0;
    trnrand::randint(trnrand::skip_ahead(s, (first_window + static_cast<std::uint64_t>(t)) << 32),
                     std::span<std::int64_t>(&r, 1), 0, bound);
    if (std::find(out, out + t, r) != out + t) r = bound;
    out[t] = r;
  }
}

template <class T>
T sign_of(std::uint32_t word) {
  return (word >> 31) != 0 ? T(-1) : T(1);
}

}  // namespace

std::int64_t hadamard_length(std::int64_t n) {
  std::int64_t length = 1;
  while (length < n) length *= 2;
  return length;
}

template <class T>
SparseSignRows<T> sparse_sign_rows(const Sketch& sketch, std::int64_t n, std::int64_t l, int threads) {
  SparseSignRows<T> rows;
  rows.zeta = std::min(sketch.nonzeros_per_row, l);
  if (rows.zeta == 0 || n == 0) return rows;
  const auto total = static_cast<std::size_t>(n * rows.zeta);
  rows.cols.resize(total);
  rows.vals.resize(total);
  const trnrand::Stream picks = trnrand::make_stream(sketch.seed, sketch.stream + 1);
  const trnrand::Stream signs = trnrand::make_stream(sketch.seed, sketch.stream + 2);
  std::vector<std::uint32_t> words(total);
  trnrand::fill_uint32(signs, words, trncore::Options{}.with_threads(threads));
  const T magnitude = static_cast<T>(std::sqrt(static_cast<double>(l) / static_cast<double>(rows.zeta)));
  trncore::detail::parallel_for(n, threads, [&](std::int64_t i) {
    const std::int64_t first = i * rows.zeta;
    distinct_picks(picks, static_cast<std::uint64_t>(first), l, rows.zeta, rows.cols.data() + first);
    for (std::int64_t t = 0; t < rows.zeta; ++t)
      rows.vals[static_cast<std::size_t>(first + t)] =
          magnitude * sign_of<T>(words[static_cast<std::size_t>(first + t)]);
  });
  return rows;
}

template <class T>
SrhtDraws<T> srht_draws(const Sketch& sketch, std::int64_t n, std::int64_t l, const char* function) {
  SrhtDraws<T> d;
  d.length = hadamard_length(n);
  if (l > d.length)
    throw trncore::InvalidArgument(function,
                                   "an SRHT of " + std::to_string(n) + " rows has " + std::to_string(d.length) +
                                       " distinct columns but l = " + std::to_string(l) + " were asked for",
                                   "use l <= " + std::to_string(d.length) + " or another SketchKind");
  std::vector<std::uint32_t> words(static_cast<std::size_t>(n));
  trnrand::fill_uint32(trnrand::make_stream(sketch.seed, sketch.stream), words, trncore::Options{}.with_threads(1));
  d.signs.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < words.size(); ++i) d.signs[i] = sign_of<T>(words[i]);
  d.picks.resize(static_cast<std::size_t>(l));
  distinct_picks(trnrand::make_stream(sketch.seed, sketch.stream + 1), 0, d.length, l, d.picks.data());
  return d;
}

template <class T>
void fwht_interleaved(T* x, std::int64_t length, std::int64_t width) {
  for (std::int64_t h = 1; h < length; h *= 2)
    for (std::int64_t i = 0; i < length; i += 2 * h)
      for (std::int64_t j = i; j < i + h; ++j) {
        T* lo = x + j * width;
        T* hi = x + (j + h) * width;
        for (std::int64_t c = 0; c < width; ++c) {
          const T a = lo[c], b = hi[c];
          lo[c] = a + b;
          hi[c] = a - b;
        }
      }
}

template SparseSignRows<float> sparse_sign_rows<float>(const Sketch&, std::int64_t, std::int64_t, int);
template SparseSignRows<double> sparse_sign_rows<double>(const Sketch&, std::int64_t, std::int64_t, int);
template SrhtDraws<float> srht_draws<float>(const Sketch&, std::int64_t, std::int64_t, const char*);
template SrhtDraws<double> srht_draws<double>(const Sketch&, std::int64_t, std::int64_t, const char*);
template void fwht_interleaved<float>(float*, std::int64_t, std::int64_t);
template void fwht_interleaved<double>(double*, std::int64_t, std::int64_t);

}  // namespace trnsolver::randomized_detail
