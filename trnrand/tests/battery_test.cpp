// A small crush-style battery over 10^8 bits per stream (frequency, serial, gap, birthday spacings,
// byte chi-square) and linear complexity over 10^6 bits, for Philox4x32-10 and Threefry4x32-20 on two
// keys each. Each statistic's p-value comes from its reference distribution; a p-value outside
// [1e-4, 1 − 1e-4] fails. With 24 p-values the family-wise false-alarm probability of a perfect
// generator is below 24 · 2e-4 ≈ 0.5%, and the seeds are fixed, so a pass is repeatable. Negative
// controls (a counter and a 32-bit LCG's low byte) must fail, which shows each test can fail.
#include <trnrand/stream.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

namespace {

// Q(a, x), the regularised upper incomplete gamma function: series for x < a + 1, Lentz continued
// fraction otherwise (both to relative 1e-15).
double igamc(double a, double x) {
  if (x <= 0) return 1.0;
  const double lg = std::lgamma(a);
  if (x < a + 1) {
    double sum = 1.0 / a, term = sum;
    for (int n = 1; n < 10000 && std::abs(term) > std::abs(sum) * 1e-16; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return 1.0 - sum * std::exp(-x + a * std::log(x) - lg);
  }
  double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (std::abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-16) break;
  }
  return std::exp(-x + a * std::log(x) - lg) * h;
}

double chi2_p(double chi2, double dof) { return igamc(dof / 2, chi2 / 2); }

using Words = std::vector<std::uint32_t>;

// NIST SP 800-22 §2.1: S = Σ(2b − 1), p = erfc(|S| / √(2n)).
double frequency(const Words& w) {
  std::int64_t ones = 0;
  for (std::uint32_t x : w) ones += std::popcount(x);
  const double n = 32.0 * static_cast<double>(w.size());
  return std::erfc(std::abs(2.0 * static_cast<double>(ones) - n) / std::sqrt(2.0 * n));
}

// Bytes: χ² of the 256 byte counts, 255 degrees of freedom.
double bytes(const Words& w) {
  std::array<double, 256> c{};
  for (std::uint32_t x : w)
    for (int k = 0; k < 4; ++k) ++c[(x >> (8 * k)) & 0xFF];
  const double e = 4.0 * static_cast<double>(w.size()) / 256;
  double chi2 = 0;
  for (double o : c) chi2 += (o - e) * (o - e) / e;
  return chi2_p(chi2, 255);
}

// NIST §2.11 serial test with m = 10 over the bit sequence (cyclic overlapping patterns):
// ∇ψ²_m = ψ²_m − ψ²_{m−1} ~ χ²(2^{m−1}); returns that p-value.
double serial(const Words& w) {
  const int m = 10;
  const std::size_t n = 32 * w.size();
  auto bit = [&](std::size_t i) { return (w[(i % n) / 32] >> (i % 32)) & 1u; };
  auto psi2 = [&](int len) {
    std::vector<double> count(std::size_t{1} << len, 0.0);
    std::uint32_t v = 0;
    for (int i = 0; i < len - 1; ++i) v = (v << 1) | bit(static_cast<std::size_t>(i));
    const std::uint32_t mask = (1u << len) - 1;
    for (std::size_t i = 0; i < n; ++i) {
      v = ((v << 1) | bit(i + static_cast<std::size_t>(len) - 1)) & mask;
      ++count[v];
    }
    double s = 0;
    for (double c : count) s += c * c;
    return s * static_cast<double>(std::size_t{1} << len) / static_cast<double>(n) - static_cast<double>(n);
  };
  return chi2_p(psi2(m) - psi2(m - 1), std::ldexp(1.0, m - 1));
}

// Knuth's gap test (TAOCP 2, §3.3.2 D) on 24-bit uniforms u = w·2^-32, interval [0, 1/2): gap lengths
// r ≥ 0 have P(r) = (1/2)^{r+1}; lengths ≥ 16 are pooled. χ² with 16 degrees of freedom.
double gap(const Words& w) {
  std::array<double, 17> c{};
  std::int64_t r = 0, gaps = 0;
  for (std::uint32_t x : w) {
    if (x < 0x80000000u) {
      ++c[static_cast<std::size_t>(std::min<std::int64_t>(r, 16))];
      ++gaps;
      r = 0;
    } else {
      ++r;
    }
  }
  double chi2 = 0;
  for (int k = 0; k <= 16; ++k) {
    const double p = k < 16 ? std::ldexp(1.0, -(k + 1)) : std::ldexp(1.0, -16);
    const double e = static_cast<double>(gaps) * p;
    chi2 += (c[static_cast<std::size_t>(k)] - e) * (c[static_cast<std::size_t>(k)] - e) / e;
  }
  return chi2_p(chi2, 16);
}

// Marsaglia's birthday spacings: m = 512 birthdays in a year of 2^24 days (the top 24 bits of a word);
// the number of repeated spacings is asymptotically Poisson(λ = m³/(4·2^24) = 2). Over all complete
// samples in the stream, χ² of the counts 0…5, ≥6 against Poisson(2), 6 degrees of freedom.
double birthday(const Words& w) {
  const std::size_t m = 512;
  std::array<double, 7> c{};
  std::vector<std::uint32_t> days(m), spacings(m);
  const std::size_t samples = w.size() / m;
  for (std::size_t s = 0; s < samples; ++s) {
    for (std::size_t i = 0; i < m; ++i) days[i] = w[s * m + i] >> 8;
    std::sort(days.begin(), days.end());
    spacings[0] = days[0];
    for (std::size_t i = 1; i < m; ++i) spacings[i] = days[i] - days[i - 1];
    std::sort(spacings.begin(), spacings.end());
    std::size_t repeats = 0;
    for (std::size_t i = 1; i < m; ++i) repeats += spacings[i] == spacings[i - 1];
    ++c[std::min<std::size_t>(repeats, 6)];
  }
  double chi2 = 0, tail = 1;
  for (int k = 0; k <= 6; ++k) {
    double p = std::exp(-2.0) * std::pow(2.0, k) / std::tgamma(k + 1.0);
    if (k == 6) p = tail;
    tail -= p;
    const double e = static_cast<double>(samples) * p;
    chi2 += (c[static_cast<std::size_t>(k)] - e) * (c[static_cast<std::size_t>(k)] - e) / e;
  }
  return chi2_p(chi2, 6);
}

// NIST §2.10 linear complexity: blocks of M = 500 bits, Berlekamp–Massey, T = (−1)^M (L − μ) + 2/9
// binned into 7 classes with NIST's probabilities; χ² with 6 degrees of freedom. Uses the first
// 2000 blocks (10^6 bits): BM is quadratic in M.
double linear_complexity(const Words& w) {
  const int M = 500;
  const std::size_t blocks = std::min<std::size_t>(2000, 32 * w.size() / M);
  const double mu = M / 2.0 + (9.0 + 1.0) / 36.0 - (M / 3.0 + 2.0 / 9.0) / std::pow(2.0, M);
  const double pi[7] = {0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833};
  std::array<double, 7> nu{};
  std::vector<int> s(M), b(M), c(M), t(M);
  for (std::size_t blk = 0; blk < blocks; ++blk) {
    for (int i = 0; i < M; ++i) {
      const std::size_t bi = blk * M + static_cast<std::size_t>(i);
      s[static_cast<std::size_t>(i)] = static_cast<int>((w[bi / 32] >> (bi % 32)) & 1u);
    }
    std::fill(b.begin(), b.end(), 0);
    std::fill(c.begin(), c.end(), 0);
    b[0] = c[0] = 1;
    int L = 0, mm = -1;
    for (int n = 0; n < M; ++n) {
      int d = s[static_cast<std::size_t>(n)];
      for (int i = 1; i <= L; ++i) d ^= c[static_cast<std::size_t>(i)] & s[static_cast<std::size_t>(n - i)];
      if (d) {
        t = c;
        for (int i = 0; i + n - mm < M; ++i) c[static_cast<std::size_t>(i + n - mm)] ^= b[static_cast<std::size_t>(i)];
        if (L <= n / 2) {
          L = n + 1 - L;
          mm = n;
          b = t;
        }
      }
    }
    const double T = (M % 2 == 0 ? 1 : -1) * (L - mu) + 2.0 / 9.0;
    const int cls = T <= -2.5 ? 0 : T <= -1.5 ? 1 : T <= -0.5 ? 2 : T <= 0.5 ? 3 : T <= 1.5 ? 4 : T <= 2.5 ? 5 : 6;
    ++nu[static_cast<std::size_t>(cls)];
  }
  double chi2 = 0;
  for (int k = 0; k < 7; ++k) {
    const double e = static_cast<double>(blocks) * pi[k];
    chi2 += (nu[static_cast<std::size_t>(k)] - e) * (nu[static_cast<std::size_t>(k)] - e) / e;
  }
  return chi2_p(chi2, 6);
}

struct Statistic {
  const char* name;
  double (*run)(const Words&);
};
const Statistic kTests[] = {{"frequency", frequency}, {"bytes", bytes},
                            {"serial", serial},       {"gap", gap},
                            {"birthday", birthday},   {"linear_complexity", linear_complexity}};

constexpr std::size_t kWords = 3125000;  // 10^8 bits
bool plausible(double p) { return p >= 1e-4 && p <= 1 - 1e-4; }

TEST(Battery, PhiloxAndThreefryPassOnTwoKeys) {
  for (auto g : {trnrand::Generator::philox4x32_10, trnrand::Generator::threefry4x32_20})
    for (std::uint64_t seed : {0ull, 0x243F6A8885A308D3ull}) {
      Words w(kWords);
      trnrand::fill_uint32(trnrand::make_stream(seed, 0, 0, g), w);
      for (const Statistic& t : kTests) {
        const double p = t.run(w);
        EXPECT_TRUE(plausible(p)) << trnrand::to_string(g) << " seed " << seed << " " << t.name << " p = " << p;
        std::printf("battery %-16s seed %-20llu %-18s p = %.4f\n", std::string(trnrand::to_string(g)).c_str(),
                    static_cast<unsigned long long>(seed), t.name, p);
      }
    }
}

// Weak generators the battery must reject: a counter (structured bits everywhere), the low byte of
// x ← 69069x + 1 mod 2^32 replicated into a word (low bits of a power-of-two LCG have short periods), and
// the bits of the maximal-length LFSR a_n = a_{n−28} ⊕ a_{n−31} (balanced, but of linear complexity 31).
TEST(Battery, NegativeControlsFail) {
  Words counter(kWords), lcg(kWords), lfsr(kWords);
  std::uint32_t x = 12345;
  std::vector<std::uint8_t> a(32 * kWords + 31, 0);
  a[0] = 1;  // any nonzero seed of the 31-bit register
  for (std::size_t n = 31; n < a.size(); ++n) a[n] = a[n - 28] ^ a[n - 31];
  for (std::size_t i = 0; i < kWords; ++i) {
    counter[i] = static_cast<std::uint32_t>(i);
    x = 69069u * x + 1u;
    const std::uint32_t low = x & 0xFF;
    lcg[i] = low | (low << 8) | (low << 16) | (low << 24);
    std::uint32_t word = 0;
    for (int k = 0; k < 32; ++k) word |= static_cast<std::uint32_t>(a[31 + 32 * i + static_cast<std::size_t>(k)]) << k;
    lfsr[i] = word;
  }
  int counter_fails = 0, lcg_fails = 0;
  for (const Statistic& t : kTests) {
    const double pc = t.run(counter), pl = t.run(lcg), pf = t.run(lfsr);
    std::printf("negative control %-18s counter p = %.3g, lcg low byte p = %.3g, lfsr p = %.3g\n", t.name, pc, pl, pf);
    counter_fails += !plausible(pc);
    lcg_fails += !plausible(pl);
    EXPECT_TRUE(!plausible(pc) || !plausible(pl) || !plausible(pf)) << t.name << " catches none of the weak generators";
  }
  EXPECT_GE(counter_fails, 4);
  EXPECT_GE(lcg_fails, 3);
  EXPECT_FALSE(plausible(linear_complexity(lfsr)));
}

}  // namespace
