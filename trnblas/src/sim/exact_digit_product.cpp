#include "sim/exact_digit_product.hpp"

#include "sim/row_blocks.hpp"

#include <cblas.h>

#include <bit>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace trnblas::detail {

namespace {

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

class Grouper {
 public:
  Grouper(const std::vector<Buffer<float>>& digits, std::int64_t rows, std::int64_t cols, int bits, int threads)
      : digits_(digits), rows_(rows), cols_(cols), bits_(bits), threads_(threads) {}

  // Σ_{s ∈ r} d_s · 2^(bits·(r.end − 1 − s)) as exact doubles (r.size()·bits ≤ 53).
  const Buffer<double>& group(Range r) {
    auto [it, inserted] = cache_.try_emplace(r);
    if (inserted) {
      Buffer<double>& g = it->second;
      g.resize(static_cast<std::size_t>(rows_ * cols_));
      const double radix = static_cast<double>(std::int64_t{1} << bits_);
      for_row_blocks(rows_, row_block_count(rows_, cols_, threads_), threads_,
                     [&](std::int64_t, std::int64_t begin, std::int64_t end) {
                       const auto from = static_cast<std::size_t>(begin * cols_),
                                  to = static_cast<std::size_t>(end * cols_);
                       for (std::size_t i = from; i < to; ++i) g[i] = 0.0;
                       for (int s = r.begin; s < r.end; ++s) {
                         const auto& d = digits_[static_cast<std::size_t>(s)];
                         for (std::size_t i = from; i < to; ++i) g[i] = g[i] * radix + static_cast<double>(d[i]);
                       }
                     });
    }
    return it->second;
  }

 private:
  const std::vector<Buffer<float>>& digits_;
  std::int64_t rows_, cols_;
  int bits_, threads_;
  std::map<Range, Buffer<double>> cache_;
};

}  // namespace

std::vector<Int128> exact_digit_product(std::int64_t m, std::int64_t n, std::int64_t k,
                                        const std::vector<Buffer<float>>& a_digits,
                                        const std::vector<Buffer<float>>& b_digits, int bits, int threads) {
  const int count = static_cast<int>(a_digits.size());
  std::vector<Int128> z(static_cast<std::size_t>(m * n), 0);
  if (m == 0 || n == 0 || k == 0 || count == 0) return z;
  Grouper a(a_digits, m, k, bits, threads);
  Grouper b(b_digits, k, n, bits, threads);
  Buffer<double> product(static_cast<std::size_t>(m * n));
  const int last = count - 1;
  const std::int64_t blocks = row_block_count(m, n, threads);
  for (const Rect& r : cover_plan(count, bits, 53 - log2_ceil(k))) {
    const auto& ga = a.group(r.a);
    const auto& gb = b.group(r.b);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0, ga.data(), static_cast<int>(k), gb.data(), static_cast<int>(n), 0.0,
                product.data(), static_cast<int>(n));
    const int shift = bits * (last - (r.a.end - 1) - (r.b.end - 1));
    for_row_blocks(m, blocks, threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      // The DGEMM result is an exact integer below 2^53 in magnitude: int64 holds it (one instruction,
      // where a direct double → 128-bit conversion is a library call).
      for (auto i = static_cast<std::size_t>(begin * n); i < static_cast<std::size_t>(end * n); ++i)
        z[i] += static_cast<Int128>(static_cast<std::int64_t>(product[i])) << shift;
    });
  }
  return z;
}

std::int64_t exact_digit_product_gemms(std::int64_t k, int count, int bits) {
  return count > 0 ? static_cast<std::int64_t>(cover_plan(count, bits, 53 - log2_ceil(k)).size()) : 0;
}

}  // namespace trnblas::detail
