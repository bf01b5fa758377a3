#include <trnrand/halton.hpp>

#include "qmc/checks.hpp"
#include "qmc/random_words.hpp"

#include <trncore/error.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

namespace trnrand {

namespace {

constexpr std::int64_t kLastIndex = std::numeric_limits<std::int64_t>::max();
constexpr double kBelowOne = 0x1.fffffffffffffp-1;  // the largest double < 1
constexpr int kMaxDigits = 64;                      // base-2 digits of any int64 index, with room to spare

// The first `count` primes, by trial division: 21201 primes need divisors up to 489 only.
std::vector<std::uint32_t> first_primes(std::size_t count) {
  std::vector<std::uint32_t> primes;
  primes.reserve(count);
  for (std::uint32_t c = 2; primes.size() < count; ++c) {
    bool prime = true;
    for (std::uint32_t p : primes) {
      if (p * p > c) break;
      if (c % p == 0) {
        prime = false;
        break;
      }
    }
    if (prime) primes.push_back(c);
  }
  return primes;
}

// Number of base-b digits of the largest index: positions beyond it are always leading zeros, whose
// permuted values form the tail; b^-K there is below 2^-63, under a double's resolution.
int digits_of_last_index(std::uint32_t b) {
  int k = 0;
  for (auto i = static_cast<std::uint64_t>(kLastIndex); i > 0; i /= b) ++k;
  return k;
}

}  // namespace

Halton::Halton(std::int64_t dims, HaltonOptions options) : options_(options) {
  detail::check_qmc_options("trnrand::Halton", options);
  detail::check_dims("trnrand::Halton", dims, kHaltonMaxDims, "pass 1 <= dims <= 21201");
  detail::check_scramble("trnrand::Halton", to_string(options.scramble), static_cast<int>(options.scramble),
                         "HaltonScramble", "none or random_permutation");
  if (options.skip < 0)
    throw trncore::InvalidArgument("trnrand::Halton", "options.skip = " + std::to_string(options.skip) + " is negative",
                                   "pass skip >= 0");
  bases_ = first_primes(static_cast<std::size_t>(dims));
  if (options.scramble == HaltonScramble::random_permutation) {
    permutations_.resize(bases_.size());
    tail_.resize(bases_.size());
    for (std::size_t d = 0; d < bases_.size(); ++d) {
      const std::uint32_t b = bases_[d];
      const int last = digits_of_last_index(b);
      tail_[d].assign(static_cast<std::size_t>(last) + 1, 0.0);
      // π_k(0) is the first draw of π_k's Fisher–Yates shuffle (see permutation()), so drawing it alone
      // here gives the same value the full permutation will have.
      for (int k = last - 1; k >= 0; --k) {
        detail::WordStream words(options.seed, detail::Purpose::halton_permutation, static_cast<std::uint32_t>(d),
                                 static_cast<std::uint32_t>(k + 1));
        tail_[d][k] = (static_cast<double>(words.below(b)) + tail_[d][k + 1]) / b;
      }
    }
  }
  index_ = options.skip;
}

std::int64_t Halton::base(std::int64_t d) const {
  if (d < 0 || d >= dims())
    throw trncore::InvalidArgument("trnrand::Halton::base",
                                   "d = " + std::to_string(d) + " is outside [0, " + std::to_string(dims()) + ")",
                                   "pass a 0-based dimension below dims()");
  return bases_[static_cast<std::size_t>(d)];
}

// π_k of dimension d (k ≥ 1), generated on first need by a forward Fisher–Yates shuffle: step i swaps
// position i with a uniform position in [i, b), so position 0 is settled by the first draw alone.
const std::uint32_t* Halton::permutation(std::size_t d, int k) {
  const std::uint32_t b = bases_[d];
  std::vector<std::uint32_t>& all = permutations_[d];
  while (all.size() < static_cast<std::size_t>(k) * b) {
    const auto level = static_cast<std::uint32_t>(all.size() / b + 1);
    const std::size_t begin = all.size();
    all.resize(begin + b);
    std::uint32_t* pi = &all[begin];
    std::iota(pi, pi + b, std::uint32_t{0});
    detail::WordStream words(options_.seed, detail::Purpose::halton_permutation, static_cast<std::uint32_t>(d), level);
    for (std::uint32_t i = 0; i + 1 < b; ++i) std::swap(pi[i], pi[i + words.below(b - i)]);
  }
  return &all[static_cast<std::size_t>(k - 1) * b];
}

void Halton::write_current(double* out) {
  const bool scrambled = options_.scramble == HaltonScramble::random_permutation;
  for (std::size_t d = 0; d < bases_.size(); ++d) {
    const std::uint32_t b = bases_[d];
    std::uint32_t digit[kMaxDigits];
    int count = 0;
    for (auto i = static_cast<std::uint64_t>(index_); i > 0; i /= b) digit[count++] = static_cast<std::uint32_t>(i % b);
    // Horner from the last digit keeps every partial value in [0, 1): each step divides by b.
    double x = scrambled ? tail_[d][static_cast<std::size_t>(count)] : 0.0;
    for (int k = count; k >= 1; --k) {
      const std::uint32_t v = scrambled ? permutation(d, k)[digit[k - 1]] : digit[k - 1];
      x = (static_cast<double>(v) + x) / b;
    }
    out[d] = std::min(x, kBelowOne);  // rounding may reach 1.0 when all digits are b − 1
  }
}

void Halton::next(std::span<double> point) {
  detail::check_point_size("trnrand::Halton::next", point.size(), dims());
  if (index_ == kLastIndex)
    throw trncore::ResourceExhausted("trnrand::Halton::next", "index 2^63 - 1 reached", "seek() back");
  write_current(point.data());
  ++index_;
}

void Halton::fill(std::int64_t n, double* out, std::int64_t ld) {
  const char* function = "trnrand::Halton::fill";
  detail::check_rows(function, n, dims(), "dims()", out, ld);
  if (n == 0) return;
  if (n > kLastIndex - index_)
    throw trncore::ResourceExhausted(
        function, "n = " + std::to_string(n) + " points at index " + std::to_string(index_) + " pass index 2^63 - 1",
        "request fewer points");
  for (std::int64_t i = 0; i < n; ++i) {
    write_current(out + i * ld);
    ++index_;
  }
}

void Halton::fill(std::span<double> out) {
  detail::check_whole_points("trnrand::Halton::fill", out.size(), dims());
  fill(static_cast<std::int64_t>(out.size()) / dims(), out.data(), dims());
}

void Halton::skip(std::int64_t n) {
  if (n < 0 || n > kLastIndex - index_)
    throw trncore::InvalidArgument(
        "trnrand::Halton::skip",
        "n = " + std::to_string(n) + " at index " + std::to_string(index_) + " leaves [0, 2^63 - 1]",
        "skip by 0 <= n <= 2^63 - 1 - index()");
  index_ += n;
}

void Halton::seek(std::int64_t index) {
  if (index < 0)
    throw trncore::InvalidArgument("trnrand::Halton::seek", "index = " + std::to_string(index) + " is negative",
                                   "pass index >= 0");
  index_ = index;
}

void halton(std::int64_t n, std::int64_t dims, std::span<double> out, HaltonOptions options) {
  detail::check_qmc_options("trnrand::halton", options);
  if (n < 0)
    throw trncore::InvalidArgument("trnrand::halton", "n = " + std::to_string(n) + " is negative", "pass n >= 0");
  Halton sequence(dims, options);
  detail::check_span_rows("trnrand::halton", out.size(), n, dims);
  sequence.fill(n, out.data(), dims);
}

}  // namespace trnrand
