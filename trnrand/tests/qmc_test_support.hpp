#pragma once
// Oracles for the QMC tests, independent of the library code under test:
//  * a Sobol reference that parses Joe & Kuo's raw file in trnrand/data (not the library's compiled
//    table), runs the recurrence on the integers m_i (Bratley–Fox form, not the library's left-aligned
//    form) and builds point n directly as ⊕ of v_j over the set bits of gray(n) (no Gray-code walk);
//  * the t-value of a point set in base 2, by counting points in every elementary interval.

#include <trnrand/qmc.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace trnrand_test {

/// SobolOptions or HaltonOptions (both trnrand::detail::SequenceOptions, deriving from trncore::Options,
/// so their fields are set by assignment) for a scramble, seed and first index.
template <class Scramble>
trnrand::detail::SequenceOptions<Scramble> sequence_options(Scramble scramble, std::uint64_t seed, std::int64_t skip) {
  trnrand::detail::SequenceOptions<Scramble> o;
  o.scramble = scramble;
  o.seed = seed;
  o.skip = skip;
  return o;
}
inline trnrand::LatinHypercubeOptions lhs_options(std::uint64_t seed, bool centered) {
  trnrand::LatinHypercubeOptions o;
  o.seed = seed;
  o.centered = centered;
  return o;
}

struct JoeKuoRecord {
  int degree = 0;                // s; 1 for dimension 1 by convention (polynomial x)
  std::vector<std::uint32_t> v;  // v_1 … v_32 scaled by 2^32
};

/// Direction numbers of dimensions 1 … 21201, parsed from trnrand/data/new-joe-kuo-6.21201.
inline const std::vector<JoeKuoRecord>& joe_kuo_reference() {
  static const std::vector<JoeKuoRecord> records = [] {
    std::vector<JoeKuoRecord> out(1);
    out[0].degree = 1;
    for (int i = 1; i <= 32; ++i) out[0].v.push_back(std::uint32_t{1} << (32 - i));  // van der Corput
    std::ifstream in(std::string(TRNRAND_DATA_DIR) + "/new-joe-kuo-6.21201");
    if (!in) return out;  // the tests that need it fail on the size check
    std::string header;
    std::getline(in, header);
    std::uint64_t d = 0, s = 0, a = 0;
    while (in >> d >> s >> a) {
      std::vector<std::uint64_t> m(33, 0);  // m[1..32]
      for (std::uint64_t i = 1; i <= s; ++i) in >> m[i];
      // m_i = 2c_1 m_{i−1} ⊕ 2²c_2 m_{i−2} ⊕ … ⊕ 2^{s−1}c_{s−1} m_{i−s+1} ⊕ 2^s m_{i−s} ⊕ m_{i−s}
      for (std::uint64_t i = s + 1; i <= 32; ++i) {
        std::uint64_t x = m[i - s] ^ (m[i - s] << s);
        for (std::uint64_t k = 1; k < s; ++k)
          if ((a >> (s - 1 - k)) & 1u) x ^= m[i - k] << k;
        m[i] = x;
      }
      JoeKuoRecord r;
      r.degree = static_cast<int>(s);
      for (std::uint64_t i = 1; i <= 32; ++i) r.v.push_back(static_cast<std::uint32_t>(m[i] << (32 - i)));
      out.push_back(std::move(r));
    }
    return out;
  }();
  return records;
}

/// Coordinate `dim` (1-based) of Sobol point n, scaled by 2^32: ⊕ v_j over the set bits j of gray(n).
inline std::uint32_t reference_sobol(std::uint64_t n, int dim) {
  const auto& v = joe_kuo_reference().at(static_cast<std::size_t>(dim - 1)).v;
  const std::uint64_t gray = n ^ (n >> 1);
  std::uint32_t x = 0;
  for (int j = 0; j < 32; ++j)
    if ((gray >> j) & 1u) x ^= v[static_cast<std::size_t>(j)];
  return x;
}

/// True if every elementary interval of shape (k_1, …, k_s), Σk = m − t, of 2^m points (rows of `s`
/// 32-bit coordinates) holds exactly 2^t points.
inline bool is_net(const std::vector<std::uint32_t>& points, int s, int m, int t) {
  const int total = m - t;
  std::vector<int> k(static_cast<std::size_t>(s), 0);
  std::vector<std::uint32_t> count(std::size_t{1} << total);
  bool ok = true;
  std::function<void(int, int)> shapes = [&](int j, int left) {
    if (!ok) return;
    if (j == s - 1) {
      k[static_cast<std::size_t>(j)] = left;
      std::fill(count.begin(), count.end(), 0);
      for (std::size_t p = 0; p < points.size(); p += static_cast<std::size_t>(s)) {
        std::uint64_t box = 0;
        for (int c = 0; c < s; ++c) {
          const int bits = k[static_cast<std::size_t>(c)];
          if (bits > 0) box = (box << bits) | (points[p + static_cast<std::size_t>(c)] >> (32 - bits));
        }
        ++count[box];
      }
      for (std::uint32_t c : count)
        if (c != (std::uint32_t{1} << t)) ok = false;
      return;
    }
    for (int b = 0; b <= left; ++b) {
      k[static_cast<std::size_t>(j)] = b;
      shapes(j + 1, left - b);
    }
  };
  shapes(0, total);
  return ok;
}

/// The smallest t for which the 2^m points form a (t, m, s)-net in base 2.
inline int t_value(const std::vector<std::uint32_t>& points, int s, int m) {
  for (int t = 0; t < m; ++t)
    if (is_net(points, s, m, t)) return t;
  return m;
}

}  // namespace trnrand_test
