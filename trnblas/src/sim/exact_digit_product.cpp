#include "sim/exact_digit_product.hpp"

#include "sim/row_blocks.hpp"

#include <cblas.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace trnblas::detail {

namespace {

__extension__ typedef unsigned __int128 UInt128;  // as Int128: __extension__ keeps -Wpedantic quiet

// Bits an exact DGEMM of two grouped digit matrices may use: products of a g_a-digit and a g_b-digit
// integer summed over k stay below 2^53 when bits·(g_a + g_b) + ceil(log2 k) ≤ 53.
int log2_ceil(std::int64_t k) { return k <= 1 ? 0 : 64 - std::countl_zero(static_cast<std::uint64_t>(k - 1)); }

struct Range {
  int begin, end;  // digits [begin, end)
  int size() const { return end - begin; }
  friend bool operator<(Range x, Range y) { return std::pair(x.begin, x.end) < std::pair(y.begin, y.end); }
};

// One DGEMM: the digit ranges of A and of B it multiplies (grouped into wide integers).
struct Rect {
  Range a, b;
};

// The fewest DGEMMs covering the pairs {(s, t): s + t ≤ S − 1} exactly (every pair once, none outside, so
// the sum is the dropped-pair scheme's): rectangles that lie inside the triangle and fit the budget,
// found by optimal guillotine cuts (memoised over sub-rectangles; S ≤ 64 keeps the state count small
// because only rectangles reachable by cuts of the full square that meet the triangle are visited).
class CoverPlanner {
 public:
  CoverPlanner(int count, int bits, int budget) : last_(count - 1), bits_(bits), budget_(budget) {}

  std::vector<Rect> plan(int count) {
    std::vector<Rect> out;
    emit({0, count}, {0, count}, out);
    return out;
  }

 private:
  struct Choice {
    int cost;
    int cut;  // 0: nothing to do (outside), 1: one DGEMM; > 1: cut A at cut − 2 … encoded with the axis
    bool cut_a;
  };

  static std::uint32_t key(Range a, Range b) {
    return static_cast<std::uint32_t>(a.begin) | static_cast<std::uint32_t>(a.end) << 8 |
           static_cast<std::uint32_t>(b.begin) << 16 | static_cast<std::uint32_t>(b.end) << 24;
  }

  bool fits(Range a, Range b) const {
    return (a.end - 1) + (b.end - 1) <= last_ && bits_ * (a.size() + b.size()) <= budget_;
  }

  const Choice& best(Range a, Range b) {
    const std::uint32_t k = key(a, b);
    if (auto it = memo_.find(k); it != memo_.end()) return it->second;
    Choice c{0, 0, false};
    if (a.begin + b.begin > last_) {
      c = {0, 0, false};
    } else if (fits(a, b)) {
      c = {1, 1, false};
    } else {
      c.cost = 1 << 30;
      for (int m = a.begin + 1; m < a.end; ++m) {
        const int cost = best({a.begin, m}, b).cost + best({m, a.end}, b).cost;
        if (cost < c.cost) c = {cost, m + 2, true};
      }
      for (int m = b.begin + 1; m < b.end; ++m) {
        const int cost = best(a, {b.begin, m}).cost + best(a, {m, b.end}).cost;
        if (cost < c.cost) c = {cost, m + 2, false};
      }
    }
    return memo_.emplace(k, c).first->second;
  }

  void emit(Range a, Range b, std::vector<Rect>& out) {
    const Choice c = best(a, b);
    if (c.cut == 0) return;
    if (c.cut == 1) {
      out.push_back({a, b});
      return;
    }
    const int m = c.cut - 2;
    if (c.cut_a) {
      emit({a.begin, m}, b, out);
      emit({m, a.end}, b, out);
    } else {
      emit(a, {b.begin, m}, out);
      emit(a, {m, b.end}, out);
    }
  }

  int last_, bits_, budget_;
  std::unordered_map<std::uint32_t, Choice> memo_;
};

// Plans depend only on (count, bits, budget): computed once per process and shared (thread-safe).
const std::vector<Rect>& cover_plan(int count, int bits, int budget) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int>, std::vector<Rect>> plans;
  const std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = plans.try_emplace({count, bits, budget});
  if (inserted) it->second = CoverPlanner(count, bits, budget).plan(count);
  return it->second;
}

// trunc(a) for 0 ≤ a < 2^52: a + 2^52 − 2^52 rounds a to the nearest integer (the sum lies in [2^52, 2^53),
// where the spacing is 1; the subtraction is exact), one less when that rounded up.
inline double trunc_below_2p52(double a) {
  const double t = (a + 0x1p52) - 0x1p52;
  return t - static_cast<double>(t > a);  // arithmetic, not a branch: the loops below vectorise
}

// One operand's digit groups Σ_{s ∈ r} d_s · 2^(bits·(r.end − 1 − s)) as exact doubles (r.size()·bits ≤ 53),
// built on demand by `fill(r, from, to, g)` for the elements [from, to) in row blocks, and recycled: a group
// whose last DGEMM has run gives its buffer to the next group (fewer freshly faulted pages per call).
template <class Fill>
class Grouper {
 public:
  Grouper(std::int64_t rows, std::int64_t cols, int threads, Fill fill)
      : rows_(rows), cols_(cols), threads_(threads), fill_(std::move(fill)) {}

  void expect(Range r) { ++uses_[r]; }

  const Buffer<double>& group(Range r) {
    auto [it, inserted] = cache_.try_emplace(r);
    if (inserted) {
      Buffer<double>& g = it->second;
      if (!spare_.empty()) {
        g.swap(spare_.back());
        spare_.pop_back();
      }
      g.resize(static_cast<std::size_t>(rows_ * cols_));
      for_row_blocks(rows_, row_block_count(rows_, cols_, threads_), threads_,
                     [&](std::int64_t, std::int64_t begin, std::int64_t end) {
                       fill_(r, static_cast<std::size_t>(begin * cols_), static_cast<std::size_t>(end * cols_), g);
                     });
    }
    return it->second;
  }

  // After a DGEMM that used r: the last use frees its buffer for the next group.
  void used(Range r) {
    if (--uses_[r] > 0) return;
    auto it = cache_.find(r);
    spare_.push_back(std::move(it->second));
    cache_.erase(it);
  }

 private:
  std::int64_t rows_, cols_;
  int threads_;
  Fill fill_;
  std::map<Range, int> uses_;
  std::map<Range, Buffer<double>> cache_;
  std::vector<Buffer<double>> spare_;
};

// The largest |Σ_q g_a g_b| a rectangle's DGEMM can produce: k·(2^(bits·|a|) − 1)·(2^(bits·|b|) − 1).
UInt128 rect_peak(const Rect& r, std::int64_t k, int bits) {
  const auto one = [&](int digits) { return (static_cast<UInt128>(1) << (bits * digits)) - 1; };
  return static_cast<UInt128>(k) * one(r.a.size()) * one(r.b.size());
}

// Z from the plan: rectangles of equal shift are summed by chained DGEMMs (β = 1) into one fp64 accumulator
// while the sum of their peaks stays below 2^53 (every partial sum is then an exact integer), and each chain
// is added to Z once in 128-bit integers — a few passes over Z instead of one per DGEMM.
template <class FillA, class FillB>
Buffer<Int128> combine(std::int64_t m, std::int64_t n, std::int64_t k, int count, int bits, int threads, FillA fill_a,
                       FillB fill_b) {
  Buffer<Int128> z(static_cast<std::size_t>(m * n));
  if (m == 0 || n == 0) return z;
  if (k == 0 || count == 0) {
    std::fill(z.begin(), z.end(), Int128{0});
    return z;
  }
  std::vector<Rect> rects = cover_plan(count, bits, 53 - log2_ceil(k));
  const int last = count - 1;
  const auto shift_of = [&](const Rect& r) { return bits * (last - (r.a.end - 1) - (r.b.end - 1)); };
  std::stable_sort(rects.begin(), rects.end(), [&](const Rect& x, const Rect& y) { return shift_of(x) > shift_of(y); });
  Grouper a(m, k, threads, std::move(fill_a));
  Grouper b(k, n, threads, std::move(fill_b));
  for (const Rect& r : rects) {
    a.expect(r.a);
    b.expect(r.b);
  }
  Buffer<double> product(static_cast<std::size_t>(m * n));
  const std::int64_t blocks = row_block_count(m, n, threads);
  constexpr UInt128 kExact = static_cast<UInt128>(1) << 53;
  bool first_flush = true;
  for (std::size_t at = 0; at < rects.size();) {
    // One chain: consecutive rectangles of one shift whose peaks sum below 2^53.
    const int shift = shift_of(rects[at]);
    UInt128 peak = 0;
    std::size_t end = at;
    while (end < rects.size() && shift_of(rects[end]) == shift && peak + rect_peak(rects[end], k, bits) < kExact)
      peak += rect_peak(rects[end++], k, bits);
    for (std::size_t q = at; q < end; ++q) {
      const Rect& r = rects[q];
      const auto& ga = a.group(r.a);
      const auto& gb = b.group(r.b);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                  static_cast<int>(k), 1.0, ga.data(), static_cast<int>(k), gb.data(), static_cast<int>(n),
                  q == at ? 0.0 : 1.0, product.data(), static_cast<int>(n));
      a.used(r.a);
      b.used(r.b);
    }
    const bool assign = first_flush;
    for_row_blocks(m, blocks, threads, [&](std::int64_t, std::int64_t begin, std::int64_t stop) {
      // The chain's sum is an exact integer below 2^53 in magnitude: int64 holds it (one instruction, where a
      // direct double → 128-bit conversion is a library call).
      for (auto i = static_cast<std::size_t>(begin * n); i < static_cast<std::size_t>(stop * n); ++i) {
        const Int128 v = static_cast<Int128>(static_cast<std::int64_t>(product[i])) << shift;
        z[i] = assign ? v : z[i] + v;
      }
    });
    first_flush = false;
    at = end;
  }
  return z;
}

}  // namespace

Buffer<Int128> exact_digit_product(std::int64_t m, std::int64_t n, std::int64_t k,
                                   const std::vector<Buffer<float>>& a_digits,
                                   const std::vector<Buffer<float>>& b_digits, int bits, int threads) {
  const double radix = static_cast<double>(std::int64_t{1} << bits);
  const auto from_digits = [radix](const std::vector<Buffer<float>>& digits) {
    return [&digits, radix](Range r, std::size_t from, std::size_t to, Buffer<double>& g) {
      for (std::size_t i = from; i < to; ++i) g[i] = 0.0;
      for (int s = r.begin; s < r.end; ++s) {
        const auto& d = digits[static_cast<std::size_t>(s)];
        for (std::size_t i = from; i < to; ++i) g[i] = g[i] * radix + static_cast<double>(d[i]);
      }
    };
  };
  return combine(m, n, k, static_cast<int>(a_digits.size()), bits, threads, from_digits(a_digits),
                 from_digits(b_digits));
}

Buffer<Int128> exact_digit_product(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const double> a_scaled,
                                   std::span<const double> b_scaled, int count, int bits, int threads) {
  // The first e digits of a truncated expansion of y (|y| < 1), read as one integer, are trunc(y·2^(bits·e))
  // (each digit step of split_fixed is exact). Digits [b, e) are therefore
  // trunc(y·2^(bits·e)) − trunc(y·2^(bits·b))·2^(bits·(e−b)): both terms are exact doubles (power-of-two
  // scalings of a double below 1, and truncations), and their difference is an integer below 2^(bits·(e−b))
  // ≤ 2^53, so the subtraction is exact too.
  // Computed as trunc(f·2^(bits·(e−b))) with f = u − trunc(u), u = y·2^(bits·b): the same integer, since
  // trunc(u)·2^(bits·(e−b)) is an integer of y's sign. |u| ≥ 2^52 is an integer (f = 0); below it trunc is
  // trunc_below_2p52, branch-free so the loop vectorises (std::trunc is a library call on baseline x86-64).
  const auto from_scaled = [bits](std::span<const double> y) {
    return [y, bits](Range r, std::size_t from, std::size_t to, Buffer<double>& g) {
      const double low = std::ldexp(1.0, bits * r.begin), width = std::ldexp(1.0, bits * r.size());
      const double* __restrict in = y.data() + from;
      double* __restrict out = g.data() + from;
      for (std::size_t i = 0; i < to - from; ++i) {  // on magnitudes; the sign is y's (u's)
        // Clamping at 2^52 makes f = 0 for |u| ≥ 2^52 (an integer) without a branch.
        const double u = in[i] * low, a = std::min(std::abs(u), 0x1p52);
        const double f = a - trunc_below_2p52(a);
        out[i] = std::copysign(trunc_below_2p52(f * width), u);
      }
    };
  };
  return combine(m, n, k, count, bits, threads, from_scaled(a_scaled), from_scaled(b_scaled));
}

std::int64_t exact_digit_product_gemms(std::int64_t k, int count, int bits) {
  return count > 0 ? static_cast<std::int64_t>(cover_plan(count, bits, 53 - log2_ceil(k)).size()) : 0;
}

}  // namespace trnblas::detail
