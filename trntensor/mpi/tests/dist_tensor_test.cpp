// DistTensor, redistribution and distributed einsum against the one-process trntensor::einsum on the whole
// tensors (each rank builds the whole tensors only as the oracle). Asserted: values after redistribution
// exactly; bytes in the plan equal to the count from the ranges; output-parallel blocks bitwise equal to the
// one-process einsum of the block, within einsum's bound of the whole; reduce-parallel bitwise equal to
// the partial einsums over each rank's range added in range order (the ordered_sum contract), and within
// einsum's bound of the one-process result; empty ranges (more ranks than indices); bad input on one rank.
#include <trntensor/mpi/dist_tensor.hpp>

#include <trntensor/einsum.hpp>

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using trncore::mpi::Communicator;
using trntensor::Shape;
using trntensor::Tensor;
using trntensor::mpi::DistTensor;

namespace {

double value(std::span<const std::int64_t> idx, double salt) {
  double s = salt;
  for (std::size_t d = 0; d < idx.size(); ++d) s += std::sin(0.37 * static_cast<double>(idx[d] + 1) * (d + 1.3));
  return s;
}

Tensor<double> whole(const Shape& shape, double salt) {
  Tensor<double> t(shape);
  std::vector<std::int64_t> idx(shape.size(), 0);
  for (std::int64_t e = 0; e < t.size(); ++e) {
    t.data()[e] = value(idx, salt);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<std::size_t>(d)] < shape[static_cast<std::size_t>(d)]) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
  return t;
}

DistTensor<double> dist(const Communicator& comm, const Shape& shape, int axis, double salt) {
  return DistTensor<double>::from_function(comm, shape, axis,
                                           [salt](std::span<const std::int64_t> i) { return value(i, salt); });
}

std::int64_t overlap(trncore::mpi::Range a, trncore::mpi::Range b) {
  return std::max<std::int64_t>(0, std::min(a.begin + a.count, b.begin + b.count) - std::max(a.begin, b.begin));
}

}  // namespace

TEST(DistTensor, RedistributionKeepsValuesAndCountsBytes) {
  const Communicator comm = Communicator::world();
  const int p = comm.size();
  for (const Shape& shape : {Shape{7, 5, 3}, Shape{3, 1, 11}, Shape{0, 4, 2}}) {
    const Tensor<double> ref = whole(shape, 0.25);
    DistTensor<double> x = dist(comm, shape, 0, 0.25);
    EXPECT_TRUE(x.gather_all().values() == ref.values());
    EXPECT_LE(x.local().size(), (shape[0] + p - 1) / p * shape[1] * shape[2]);
    for (const int to : {1, 2, 0, -1, 2}) {
      std::int64_t bytes = -1;
      const DistTensor<double> y = trntensor::mpi::redistribute(x, to, &bytes);
      EXPECT_TRUE(y.gather_all().values() == ref.values()) << "to axis " << to;
      std::int64_t want = 0;
      const std::int64_t all = shape[0] * shape[1] * shape[2];
      if (to == -1 && x.axis() >= 0) {
        want = all * (p - 1) * 8;
      } else if (to >= 0 && x.axis() >= 0) {
        for (int s = 0; s < p; ++s)
          for (int d = 0; d < p; ++d) {
            if (s == d) continue;
            const auto so = x.ranges()[static_cast<std::size_t>(s)];
            const auto dn = y.ranges()[static_cast<std::size_t>(d)];
            const std::int64_t ea = shape[static_cast<std::size_t>(x.axis())], eb = shape[static_cast<std::size_t>(to)];
            if (to == x.axis())
              want += ea == 0 ? 0 : overlap(so, dn) * (all / ea) * 8;
            else
              want += (ea == 0 || eb == 0) ? 0 : so.count * dn.count * (all / ea / eb) * 8;
          }
      }
      EXPECT_EQ(bytes, want) << "to axis " << to;
      x = y;
    }
  }
}

// Each rank's output block equals the one-process einsum of its block of A (bitwise), and the whole within
// einsum's bound γ_{K+2}·(|A||B|) of the one-process einsum of the whole A (small GEMMs may take another
// OpenBLAS kernel for fewer rows, so not bitwise in general).
void expect_output_parallel(const Communicator& comm, const DistTensor<double>& c, const Tensor<double>& a,
                            const Tensor<double>& b, const Tensor<double>& ref) {
  const auto r = c.range();
  const trntensor::TensorView<const double> ops[] = {a.view().slice(0, r.begin, r.begin + r.count), b.view()};
  EXPECT_TRUE(c.local().values() == trntensor::einsum<double>("ij,jk->ik", ops).values());
  const Tensor<double> all = c.gather_all();
  const std::int64_t n = b.extent(1), k = b.extent(0);
  for (std::int64_t e = 0; e < ref.size(); ++e) {
    double mag = 0;
    for (std::int64_t j = 0; j < k; ++j) mag += std::fabs(a.data()[e / n * k + j] * b.data()[j * n + e % n]);
    EXPECT_LE(std::fabs(all.data()[e] - ref.data()[e]), 2 * static_cast<double>(k + 2) * 0x1p-53 * mag * 1.01);
  }
  (void)comm;
}

TEST(DistEinsum, OutputParallelBlocksAreTheOneProcessEinsumOfTheBlock) {
  const Communicator comm = Communicator::world();
  const Tensor<double> a = whole({13, 17}, 0.1), b = whole({17, 6}, -0.3);
  const Tensor<double> ref = trntensor::einsum("ij,jk->ik", a, b);
  // A split over i; B replicated → no communication.
  const DistTensor<double> da = dist(comm, {13, 17}, 0, 0.1), db = dist(comm, {17, 6}, -1, -0.3);
  const DistTensor<double>* ops[] = {&da, &db};
  trntensor::mpi::DistEinsumPlan plan;
  const DistTensor<double> c = trntensor::mpi::einsum<double>("ij,jk->ik", ops, {}, &plan);
  EXPECT_TRUE(plan.output_parallel);
  EXPECT_EQ(plan.split_label, "i");
  EXPECT_TRUE(plan.steps.empty());
  EXPECT_EQ(c.axis(), 0);
  expect_output_parallel(comm, c, a, b, ref);
  // B split over k (it lacks i): gathered to every rank, bytes = 17·6·8·(P − 1).
  const DistTensor<double> dbk = dist(comm, {17, 6}, 1, -0.3);
  const DistTensor<double>* ops2[] = {&da, &dbk};
  const DistTensor<double> c2 = trntensor::mpi::einsum<double>("ij,jk->ik", ops2, {}, &plan);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].bytes, 17 * 6 * 8 * (comm.size() - 1));
  expect_output_parallel(comm, c2, a, b, ref);
  if (comm.rank() == 0) std::printf("%s", plan.to_string().c_str());
}

TEST(DistEinsum, ReduceParallelAddsPartialsInRangeOrder) {
  const Communicator comm = Communicator::world();
  const Tensor<double> a = whole({9, 23}, 0.7), b = whole({23, 5}, 0.2);
  const Tensor<double> ref = trntensor::einsum("ij,jk->ik", a, b);
  // A split over j (contracted); B split over k → redistributed to j (all-to-all).
  const DistTensor<double> da = dist(comm, {9, 23}, 1, 0.7), db = dist(comm, {23, 5}, 1, 0.2);
  const DistTensor<double>* ops[] = {&da, &db};
  trntensor::mpi::DistEinsumPlan plan;
  const DistTensor<double> c = trntensor::mpi::einsum<double>("ij,jk->ik", ops, {}, &plan);
  EXPECT_FALSE(plan.output_parallel);
  EXPECT_EQ(c.axis(), -1);
  ASSERT_EQ(plan.steps.size(), 2u);  // redistribute B, then the ordered sum
  std::int64_t want = 0;
  for (int s = 0; s < comm.size(); ++s)
    for (int d = 0; d < comm.size(); ++d)
      if (s != d)
        want += db.ranges()[static_cast<std::size_t>(s)].count * da.ranges()[static_cast<std::size_t>(d)].count * 8;
  EXPECT_EQ(plan.steps[0].bytes, want);
  // The oracle of the order: each range's partial einsum, added in range order.
  Tensor<double> sum({9, 5});
  bool first = true;
  for (const auto& r : da.ranges()) {
    if (r.count == 0) continue;
    const trntensor::TensorView<const double> ops1[] = {a.view().slice(1, r.begin, r.begin + r.count),
                                                        b.view().slice(0, r.begin, r.begin + r.count)};
    const Tensor<double> part = trntensor::einsum<double>("ij,jk->ik", ops1);
    for (std::int64_t e = 0; e < sum.size(); ++e)
      sum.data()[e] = first ? part.data()[e] : sum.data()[e] + part.data()[e];
    first = false;
  }
  EXPECT_TRUE(c.local().values() == sum.values());
  // Within einsum's bound of the one-process result: |ĉ − c| ≤ γ_{K+P}·(|A||B|), K = 23.
  for (std::int64_t e = 0; e < ref.size(); ++e) {
    double mag = 0;
    const std::int64_t i = e / 5, k = e % 5;
    for (std::int64_t j = 0; j < 23; ++j) mag += std::fabs(a.data()[i * 23 + j] * b.data()[j * 5 + k]);
    EXPECT_LE(std::fabs(c.local().data()[e] - ref.data()[e]), 2 * (23 + comm.size()) * 0x1p-53 * mag * 1.01);
  }
  if (comm.rank() == 0) std::printf("%s", plan.to_string().c_str());
}

TEST(DistTensor, EmptyRangesAndBadInput) {
  const Communicator comm = Communicator::world();
  // Two rows over up to four ranks: some ranks own nothing.
  const DistTensor<double> x = dist(comm, {2, 3}, 0, 1.5);
  EXPECT_TRUE(x.gather_all().values() == whole({2, 3}, 1.5).values());
  const DistTensor<double> y = dist(comm, {3, 4}, -1, 0.5);
  const DistTensor<double>* ops[] = {&x, &y};
  const DistTensor<double> z = trntensor::mpi::einsum<double>("ij,jk->ik", ops);
  EXPECT_TRUE(z.gather_all().values() ==
              trntensor::einsum("ij,jk->ik", whole({2, 3}, 1.5), whole({3, 4}, 0.5)).values());
  // One rank disagrees about the global shape: DimensionMismatch on every rank.
  const Shape bad = comm.rank() == comm.size() - 1 ? Shape{5, 4} : Shape{5, 3};
  if (comm.size() > 1) {
    EXPECT_THROW(dist(comm, bad, 0, 0.0), trncore::DimensionMismatch);
  }
  // Ranges that overlap (every rank claims all rows) when there are several ranks.
  if (comm.size() > 1) {
    EXPECT_THROW(DistTensor<double>(comm, {4, 2}, 0, {0, 4}, Tensor<double>({4, 2})), trncore::DimensionMismatch);
  }
  // Shapes that do not conform: the einsum's error on every rank.
  const DistTensor<double> w = dist(comm, {5, 4}, 0, 0.0);
  const DistTensor<double>* bad_ops[] = {&x, &w};
  EXPECT_THROW(trntensor::mpi::einsum<double>("ij,jk->ik", bad_ops), trncore::Error);
}
