#pragma once
// Shared by trnsparse's tests: random sparse matrices with the awkward features every op must survive
// (empty rows, duplicate entries, explicit zeros), and a dense long-double oracle built straight from the
// COO triples, so it shares no code with the conversions under test.

#include <trnsparse/formats.hpp>

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace trnsparse_test {

/// A rows×cols COO with about `density`·rows·cols entries drawn uniformly in [-1, 1], every third row
/// left empty, and (when duplicates) about 10% of entries repeated at the same position.
template <class T, class I>
trnsparse::Coo<T, I> random_coo(std::int64_t rows, std::int64_t cols, double density, std::uint64_t seed,
                                bool duplicates = true) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  trnsparse::Coo<T, I> a;
  a.rows = rows;
  a.cols = cols;
  for (std::int64_t r = 0; r < rows; ++r) {
    if (r % 3 == 1) continue;
    for (std::int64_t c = 0; c < cols; ++c) {
      if (coin(gen) >= density) continue;
      const int copies = duplicates && coin(gen) < 0.1 ? 2 : 1;
      for (int k = 0; k < copies; ++k) {
        a.row.push_back(static_cast<I>(r));
        a.col.push_back(static_cast<I>(c));
        a.values.push_back(static_cast<T>(val(gen)));
      }
    }
  }
  // Shuffle so the COO order is arbitrary, as files and users give it.
  std::vector<std::size_t> perm(a.values.size());
  for (std::size_t k = 0; k < perm.size(); ++k) perm[k] = k;
  std::shuffle(perm.begin(), perm.end(), gen);
  trnsparse::Coo<T, I> s = a;
  for (std::size_t k = 0; k < perm.size(); ++k) {
    s.row[k] = a.row[perm[k]];
    s.col[k] = a.col[perm[k]];
    s.values[k] = a.values[perm[k]];
  }
  return s;
}

/// The value/index type pairs of the typed tests.
template <class T_, class I_>
struct Types {
  using T = T_;
  using I = I_;
};
using AllTypes = ::testing::Types<Types<float, std::int32_t>, Types<float, std::int64_t>, Types<double, std::int32_t>,
                                  Types<double, std::int64_t>>;

/// n values uniform in [-spread, spread].
template <class T>
std::vector<T> random_vector(std::int64_t n, std::uint64_t seed, double spread = 1.0) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(-spread, spread);
  std::vector<T> v(static_cast<std::size_t>(std::max<std::int64_t>(0, n)));
  for (auto& e : v) e = static_cast<T>(d(gen));
  return v;
}

/// Dense row-major long-double matrix of the COO (duplicates summed).
template <class T, class I>
std::vector<long double> dense_oracle(const trnsparse::Coo<T, I>& a) {
  std::vector<long double> d(static_cast<std::size_t>(a.rows * a.cols), 0.0L);
  for (std::size_t k = 0; k < a.values.size(); ++k)
    d[static_cast<std::size_t>(a.row[k] * a.cols + a.col[k])] += static_cast<long double>(a.values[k]);
  return d;
}

/// The sizes every format test walks: empty, 1×1, skewed, primes, and both sides of the 128 tile edge.
inline const std::vector<std::pair<std::int64_t, std::int64_t>>& awkward_shapes() {
  static const std::vector<std::pair<std::int64_t, std::int64_t>> shapes{
      {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 17}, {17, 1}, {7, 13}, {31, 29}, {127, 129}, {128, 128}, {129, 3}};
  return shapes;
}

}  // namespace trnsparse_test
