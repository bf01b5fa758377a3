// Sharded contraction: output-parallel results bitwise equal to the unsharded einsum (host fp64 and sim),
// reduce-parallel within its bound of the long-double oracle and identical for any transport thread count
// or shard execution order (partials are added in shard order).
#include "expr_corpus.hpp"

#include <trntensor/sharded.hpp>

#include <gtest/gtest.h>

namespace trntensor::test {
namespace {

Tensor<double> random_tensor(Shape s, std::uint64_t seed) {
  Tensor<double> t(std::move(s));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& x : t.values()) x = u(rng);
  return t;
}

// Runs shards one at a time in reverse order: a stand-in for a remote engine with its own scheduling.
class ReverseTransport final : public ShardTransport {
 public:
  void for_each_shard(std::int64_t shards, const std::function<void(std::int64_t)>& work) override {
    for (std::int64_t s = shards; s-- > 0;) work(s);
    ++runs;
  }
  void reduce_sum(std::span<const std::span<const double>> p, std::span<double> out) override {
    ThreadTransport(1).reduce_sum(p, out);
  }
  void reduce_sum(std::span<const std::span<const float>> p, std::span<float> out) override {
    ThreadTransport(1).reduce_sum(p, out);
  }
  int runs = 0;
};

TEST(Sharded, SplitAndGatherRoundTrip) {
  const Tensor<double> t = random_tensor({7, 5, 3}, 1);
  for (int axis = 0; axis < 3; ++axis)
    for (int shards : {1, 2, 3, 8}) {
      const ShardedTensor<double> s(t.view(), axis, shards);
      EXPECT_EQ(s.gather().values(), t.values());
      std::int64_t total = 0;
      for (int k = 0; k < shards; ++k) total += s.shard(k).extent(axis);
      EXPECT_EQ(total, t.extent(axis));
    }
  EXPECT_THROW(ShardedTensor<double>(t.view(), 3, 2), trncore::InvalidArgument);
  EXPECT_THROW(ShardedTensor<double>(t.view(), 0, 0), trncore::InvalidArgument);
}

TEST(Sharded, OutputParallelIsBitwiseTheUnshardedResultWhereTheOrderIsFixed) {
  ThreadTransport two(2);
  // Host, split GEMM rows (i = 129 straddles a tile edge): OpenBLAS picks its kernels by m, so the sum order
  // of an element is not fixed across row blocks and bitwise equality is not promised; each element is
  // within the GEMM bound γ_{K+2}·(|A||B|) of the long-double oracle instead (K = 64).
  const Tensor<double> a = random_tensor({129, 64}, 2), b = random_tensor({64, 33}, 3);
  const TensorView<const double> bo[] = {b.view()};
  const Expr e = plain_expr("ij,jk->ik", {{129, 64}, {64, 33}}, "ij,jk->ik");
  const std::vector<std::vector<double>> v{a.values(), b.values()};
  const auto exact = naive_einsum(e, v), mag = naive_einsum(e, v, true);
  const double bound = 66 * std::numeric_limits<double>::epsilon() / 2 * 1.0001;
  for (int shards : {1, 2, 3, 5}) {
    const ShardedTensor<double> sa(a.view(), 0, shards);
    const auto r = sharded_einsum<double>("ij,jk->ik", sa, 0, bo, two);
    for (std::size_t i = 0; i < exact.size(); ++i) ASSERT_LE(std::fabs(r.values()[i] - exact[i]), bound * mag[i]) << i;
  }
  // Host, split a batch label (also in the other operand, which is sliced): every batch entry is the same
  // GEMM call sharded or not, so the order is fixed and the result is bitwise the unsharded one.
  const Tensor<double> x = random_tensor({6, 17, 9}, 4), y = random_tensor({6, 9, 11}, 5);
  const TensorView<const double> yo[] = {y.view()};
  const ShardedTensor<double> sx(x.view(), 0, 4);
  EXPECT_EQ(sharded_einsum<double>("bij,bjk->bik", sx, 0, yo, two).values(), einsum("bij,bjk->bik", x, y).values());
  // Sim (bf16): the TensorEngine model fixes each element's order (ascending K in fp32 PSUM) whatever the row
  // or column blocking, so splitting the columns (the sharded operand second, its label last in the output)
  // is bitwise the unsharded result.
  const trncore::Options sim =
      trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16);
  const TensorView<const double> ao[] = {a.view()};
  const TensorView<const double> ab[] = {a.view(), b.view()};
  const ShardedTensor<double> sb(b.view(), 1, 3);
  EXPECT_EQ(sharded_einsum<double>("ij,jk->ik", sb, 1, ao, two, sim).values(),
            einsum<double>("ij,jk->ik", ab, sim).values());
}

TEST(Sharded, ReduceParallelMeetsItsBoundAndIsDeterministic) {
  const Tensor<double> a = random_tensor({31, 200}, 6), b = random_tensor({200, 7}, 7);
  const TensorView<const double> bo[] = {b.view()};
  const ShardedTensor<double> sa(a.view(), 1, 4);  // split the contracted j: 4 partials of K = 50
  ThreadTransport one(1), two(2);
  ReverseTransport reverse;
  const Tensor<double> r1 = sharded_einsum<double>("ij,jk->ik", sa, 0, bo, one);
  EXPECT_EQ(sharded_einsum<double>("ij,jk->ik", sa, 0, bo, two).values(), r1.values());
  EXPECT_EQ(sharded_einsum<double>("ij,jk->ik", sa, 0, bo, reverse).values(), r1.values());
  EXPECT_EQ(reverse.runs, 1);
  const Expr e = plain_expr("ij,jk->ik", {{31, 200}, {200, 7}}, "ij,jk->ik");
  const std::vector<std::vector<double>> v{a.values(), b.values()};
  const auto exact = naive_einsum(e, v), mag = naive_einsum(e, v, true);
  // Each partial: γ_{50+2}; the shard-order sum of 4: γ_3; composed (1+γ_52)(1+γ_3) − 1 < 56u.
  const double bound = 56 * std::numeric_limits<double>::epsilon() / 2;
  for (std::size_t i = 0; i < exact.size(); ++i) EXPECT_LE(std::fabs(r1.values()[i] - exact[i]), bound * mag[i]) << i;
  // The split label twice in the sharded operand (a trace): both axes are cut to the shard's range, so the
  // partial traces add up to the trace (9 terms: error ≤ γ_8·Σ|a_ii| in any order).
  const Tensor<double> sq = random_tensor({9, 9}, 8);
  const ShardedTensor<double> ssq(sq.view(), 1, 2);
  const auto trace = sharded_einsum<double>("ii->", ssq, 0, {}, two);
  long double t = 0, m = 0;
  for (int i = 0; i < 9; ++i) {
    t += sq(i, i);
    m += std::fabs(sq(i, i));
  }
  EXPECT_LE(std::fabs(trace.values()[0] - t), 9 * std::numeric_limits<double>::epsilon() * m);
}

TEST(Sharded, BadArguments) {
  const Tensor<double> a = random_tensor({4, 4}, 9);
  const ShardedTensor<double> sa(a.view(), 0, 2);
  ThreadTransport t(1);
  EXPECT_THROW(sharded_einsum<double>("ij,jk->ik", sa, 2, std::span<const TensorView<const double>>{}, t),
               trncore::InvalidArgument);
  EXPECT_THROW(sharded_einsum<double>("ij,jk->ik", sa, 0, std::span<const TensorView<const double>>{}, t),
               trncore::ParseError);
}

}  // namespace
}  // namespace trntensor::test
