#include "sim/exact_digit_product.hpp"

#include <cblas.h>

#include <bit>
#include <map>
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

class Grouper {
public:
  Grouper(const std::vector<std::vector<float>>& digits, std::size_t elements, int bits)
      : digits_(digits), elements_(elements), bits_(bits) {}

  // Σ_{s ∈ r} d_s · 2^(bits·(r.end − 1 − s)) as exact doubles (r.size()·bits ≤ 53).
  const std::vector<double>& group(Range r) {
    auto [it, inserted] = cache_.try_emplace(r);
    if (inserted) {
      std::vector<double> g(elements_, 0.0);
      const double radix = static_cast<double>(std::int64_t{1} << bits_);
      for (int s = r.begin; s < r.end; ++s) {
        const auto& d = digits_[static_cast<std::size_t>(s)];
        for (std::size_t i = 0; i < elements_; ++i) g[i] = g[i] * radix + static_cast<double>(d[i]);
      }
      it->second = std::move(g);
    }
    return it->second;
  }

private:
  const std::vector<std::vector<float>>& digits_;
  std::size_t elements_;
  int bits_;
  std::map<Range, std::vector<double>> cache_;
};

struct Context {
  std::int64_t m, n, k;
  int count, bits, budget;
  Grouper* a;
  Grouper* b;
  std::vector<double>* product;
  std::vector<Int128>* z;
  std::int64_t* gemms;  // counts only when z is null (dry run)
};

// Adds Σ_{s ∈ I, t ∈ J, s + t ≤ S−1} D^A_s D^B_t 2^(bits(S−1−s−t)) to z: one DGEMM when the rectangle lies
// inside the triangle and fits the exactness budget, else halves the longer side.
void cover(const Context& c, Range ia, Range jb) {
  const int last = c.count - 1;
  if (ia.begin + jb.begin > last) return;  // wholly outside the triangle
  const bool inside = (ia.end - 1) + (jb.end - 1) <= last;
  if (inside && c.bits * (ia.size() + jb.size()) <= c.budget) {
    if (c.z == nullptr) {
      ++*c.gemms;
      return;
    }
    const auto& ga = c.a->group(ia);
    const auto& gb = c.b->group(jb);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(c.m), static_cast<int>(c.n),
                static_cast<int>(c.k), 1.0, ga.data(), static_cast<int>(c.k), gb.data(), static_cast<int>(c.n), 0.0,
                c.product->data(), static_cast<int>(c.n));
    const int shift = c.bits * (last - (ia.end - 1) - (jb.end - 1));
    for (std::size_t i = 0; i < c.product->size(); ++i)
      (*c.z)[i] += static_cast<Int128>((*c.product)[i]) << shift;  // the DGEMM result is an exact integer
    return;
  }
  if (ia.size() >= jb.size()) {
    const int mid = ia.begin + ia.size() / 2;
    cover(c, {ia.begin, mid}, jb);
    cover(c, {mid, ia.end}, jb);
  } else {
    const int mid = jb.begin + jb.size() / 2;
    cover(c, ia, {jb.begin, mid});
    cover(c, ia, {mid, jb.end});
  }
}

}  // namespace

std::vector<Int128> exact_digit_product(std::int64_t m, std::int64_t n, std::int64_t k,
                                        const std::vector<std::vector<float>>& a_digits,
                                        const std::vector<std::vector<float>>& b_digits, int bits) {
  const int count = static_cast<int>(a_digits.size());
  std::vector<Int128> z(static_cast<std::size_t>(m * n), 0);
  if (m == 0 || n == 0 || k == 0 || count == 0) return z;
  Grouper a(a_digits, static_cast<std::size_t>(m * k), bits);
  Grouper b(b_digits, static_cast<std::size_t>(k * n), bits);
  std::vector<double> product(static_cast<std::size_t>(m * n));
  std::int64_t unused = 0;
  const Context c{m, n, k, count, bits, 53 - log2_ceil(k), &a, &b, &product, &z, &unused};
  cover(c, {0, count}, {0, count});
  return z;
}

std::int64_t exact_digit_product_gemms(std::int64_t k, int count, int bits) {
  std::int64_t gemms = 0;
  const Context c{0, 0, k, count, bits, 53 - log2_ceil(k), nullptr, nullptr, nullptr, nullptr, &gemms};
  if (count > 0) cover(c, {0, count}, {0, count});
  return gemms;
}

}  // namespace trnblas::detail
