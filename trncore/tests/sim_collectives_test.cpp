// The chip-to-chip link model (trncore/sim/collectives.hpp): alpha-beta costs against values computed by
// hand from the published constants, monotonicity in size and chips, one chip = no communication, the
// tier a span crosses, provenance labels, and bad input.
#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using namespace trncore::sim;

// The trn2 constants the hand computations use (docs/distributed.md):
//   instance tier: 1,024 GB/s per chip published, half each way -> 512e9 B/s; latency 2 us (estimated)
//   ultraserver:   256 GB/s per chip published, half each way  -> 128e9 B/s; latency 2 us
//   EFA:           3,200 Gbps per 16-chip instance -> 25e9 B/s per chip, full line rate; latency 15 us
constexpr double kInstBw = 512e9, kUsBw = 128e9, kEfaBw = 25e9, kNlAlpha = 2e-6, kEfaAlpha = 15e-6;

// Hand values are sums of two terms computed in another order than the library: 1e-13 relative.
void expect_close(double got, double want) { EXPECT_NEAR(got, want, 1e-13 * want) << "want " << want; }

TEST(SimCollectives, Trn2ConstantsAreThePublishedOnes) {
  const TopologySpec& t = topology(Generation::trn2);
  EXPECT_EQ(t.cores_per_chip.value, 8);
  EXPECT_EQ(t.chips_per_instance.value, 16);
  EXPECT_EQ(t.chips_per_scaleup.value, 64);
  EXPECT_EQ(t.instance.bandwidth.value, 1024e9);
  EXPECT_EQ(t.instance.bandwidth.provenance, Provenance::published);
  EXPECT_EQ(t.ultraserver.bandwidth.value, 256e9);
  EXPECT_EQ(t.ultraserver.bandwidth.provenance, Provenance::published);
  EXPECT_EQ(t.efa.bandwidth.value, 25e9);
  EXPECT_EQ(t.efa.bandwidth.provenance, Provenance::derived);
  EXPECT_EQ(t.instance.effective_bandwidth(), kInstBw);
  EXPECT_EQ(t.ultraserver.effective_bandwidth(), kUsBw);
  EXPECT_EQ(t.efa.effective_bandwidth(), kEfaBw);
  EXPECT_EQ(t.instance.latency.provenance, Provenance::estimated);
  EXPECT_EQ(t.efa.latency.value, kEfaAlpha);
  // Trn3 Gen2 UltraServer: 144 chips in one NeuronLink domain; EFA 28,800 Gbps / 144 chips.
  const TopologySpec& t3 = topology(Generation::trn3);
  EXPECT_EQ(t3.chips_per_scaleup.value, 144);
  EXPECT_EQ(t3.efa.bandwidth.value, 25e9);
  EXPECT_EQ(t3.instance.bandwidth.value, 2048.0 * 1024 * 1024 * 1024);
}

TEST(SimCollectives, EveryFigureIsLabelledAndNoneClaimsMeasurement) {
  for (Generation g : {Generation::trn1, Generation::trn2, Generation::trn3}) {
    const TopologySpec& t = topology(g);
    EXPECT_EQ(t.generation, g);
    for (const Figure* f : {&t.cores_per_chip, &t.chips_per_instance, &t.chips_per_scaleup}) {
      EXPECT_FALSE(f->source.empty());
      EXPECT_NE(f->provenance, Provenance::measured);
    }
    for (LinkTier tier : {LinkTier::instance, LinkTier::ultraserver, LinkTier::efa}) {
      const LinkSpec& l = t.link(tier);
      EXPECT_EQ(l.tier, tier);
      for (const Figure* f : {&l.bandwidth, &l.usable_fraction, &l.latency}) {
        EXPECT_FALSE(f->source.empty()) << to_string(g) << " " << to_string(tier);
        EXPECT_NE(f->provenance, Provenance::measured);
        EXPECT_GT(f->value, 0.0);
      }
      // No latency is published anywhere: every one must say so.
      EXPECT_EQ(l.latency.provenance, Provenance::estimated);
    }
    const std::string text = describe_topology(g);
    EXPECT_NE(text.find("modelled"), std::string::npos);
    EXPECT_NE(text.find("[estimated: "), std::string::npos);
  }
  // trn1's NeuronLink-v2 bandwidth is not published: it must be labelled an estimate.
  EXPECT_EQ(topology(Generation::trn1).instance.bandwidth.provenance, Provenance::estimated);
}

TEST(SimCollectives, TierFollowsTheSpan) {
  EXPECT_EQ(tier_for_span(1), LinkTier::instance);
  EXPECT_EQ(tier_for_span(16), LinkTier::instance);
  EXPECT_EQ(tier_for_span(17), LinkTier::ultraserver);
  EXPECT_EQ(tier_for_span(64), LinkTier::ultraserver);
  EXPECT_EQ(tier_for_span(65), LinkTier::efa);
  EXPECT_EQ(tier_for_span(144), LinkTier::efa);
  EXPECT_EQ(tier_for_span(4, Generation::trn3), LinkTier::instance);
  EXPECT_EQ(tier_for_span(5, Generation::trn3), LinkTier::ultraserver);
  EXPECT_EQ(tier_for_span(144, Generation::trn3), LinkTier::ultraserver);
  EXPECT_EQ(tier_for_span(145, Generation::trn3), LinkTier::efa);
  EXPECT_EQ(tier_for_span(16, Generation::trn1), LinkTier::instance);
  EXPECT_EQ(tier_for_span(17, Generation::trn1), LinkTier::efa);
}

TEST(SimCollectives, HandComputedAlphaBeta) {
  // Ring allreduce, 16 chips in one instance, 1.6 MB: 30 steps; volume 2·15/16·1.6e6 = 3e6 bytes.
  CollectiveCost c =
      collective_cost(Collective::allreduce, 1'600'000, {16, 0}, Generation::trn2, CollectiveAlgorithm::ring);
  EXPECT_EQ(c.steps, 30);
  EXPECT_EQ(c.tier, LinkTier::instance);
  EXPECT_EQ(c.bytes_per_chip, 3e6);
  expect_close(c.seconds, 30 * kNlAlpha + 3e6 / kInstBw);
  // Recursive doubling: 4 steps of the whole vector; Rabenseifner: 8 steps, 3e6 bytes.
  c = collective_cost(Collective::allreduce, 1'600'000, {16, 0}, Generation::trn2,
                      CollectiveAlgorithm::recursive_doubling);
  expect_close(c.seconds, 4 * (kNlAlpha + 1.6e6 / kInstBw));
  c = collective_cost(Collective::allreduce, 1'600'000, {16, 0}, Generation::trn2, CollectiveAlgorithm::rabenseifner);
  expect_close(c.seconds, 8 * kNlAlpha + 3e6 / kInstBw);
  // Automatic picks the cheapest: recursive doubling here (2.05e-5 s against 2.19e-5 and 6.59e-5).
  c = collective_cost(Collective::allreduce, 1'600'000, {16, 0});
  EXPECT_EQ(c.algorithm, CollectiveAlgorithm::recursive_doubling);
  expect_close(c.seconds, 4 * (kNlAlpha + 1.6e6 / kInstBw));
  // A large allreduce: Rabenseifner (bandwidth-optimal with log steps) wins.
  c = collective_cost(Collective::allreduce, 1'600'000'000, {16, 0});
  EXPECT_EQ(c.algorithm, CollectiveAlgorithm::rabenseifner);

  // Ring allgather over 128 chips (two UltraServers: EFA), 128 MB gathered: 127 steps, 127e6 bytes.
  c = collective_cost(Collective::allgather, 128'000'000, {128, 0}, Generation::trn2, CollectiveAlgorithm::ring);
  EXPECT_EQ(c.tier, LinkTier::efa);
  expect_close(c.latency_seconds, 127 * kEfaAlpha);
  expect_close(c.bandwidth_seconds, 127e6 / kEfaBw);
  expect_close(c.seconds, 127 * kEfaAlpha + 127e6 / kEfaBw);

  // Broadcast of 8 MB over 8 chips: scatter-allgather 3 + 7 steps and 2·7/8·8e6 bytes; binomial 3·(a + n b).
  c = collective_cost(Collective::broadcast, 8'000'000, {8, 0}, Generation::trn2,
                      CollectiveAlgorithm::scatter_allgather);
  expect_close(c.seconds, 10 * kNlAlpha + 14e6 / kInstBw);
  c = collective_cost(Collective::broadcast, 8'000'000, {8, 0}, Generation::trn2, CollectiveAlgorithm::binomial_tree);
  expect_close(c.seconds, 3 * (kNlAlpha + 8e6 / kInstBw));
  EXPECT_EQ(collective_cost(Collective::broadcast, 8'000'000, {8, 0}).algorithm,
            CollectiveAlgorithm::scatter_allgather);
  EXPECT_EQ(collective_cost(Collective::broadcast, 64, {8, 0}).algorithm, CollectiveAlgorithm::binomial_tree);

  // Reduce-scatter over 32 chips within the UltraServer (ring): 31 steps, 31/32 of 64 MB.
  c = collective_cost(Collective::reduce_scatter, 64'000'000, {32, 0}, Generation::trn2, CollectiveAlgorithm::ring);
  EXPECT_EQ(c.tier, LinkTier::ultraserver);
  expect_close(c.seconds, 31 * kNlAlpha + 62e6 / kUsBw);
  // All-to-all over 4 chips: 3 pairwise steps, 3/4 of what each sends.
  c = collective_cost(Collective::all_to_all, 4'000'000, {4, 0});
  EXPECT_EQ(c.algorithm, CollectiveAlgorithm::pairwise_exchange);
  expect_close(c.seconds, 3 * kNlAlpha + 3e6 / kInstBw);
  // Point to point: neighbours in an instance, then across instances (span 17) and UltraServers (span 65).
  expect_close(collective_cost(Collective::point_to_point, 1'000'000, {2, 0}).seconds, kNlAlpha + 1e6 / kInstBw);
  expect_close(collective_cost(Collective::point_to_point, 1'000'000, {2, 17}).seconds, kNlAlpha + 1e6 / kUsBw);
  expect_close(collective_cost(Collective::point_to_point, 1'000'000, {2, 65}).seconds, kEfaAlpha + 1e6 / kEfaBw);
}

TEST(SimCollectives, OneChipCostsNothing) {
  for (Collective c : {Collective::point_to_point, Collective::broadcast, Collective::allgather,
                       Collective::reduce_scatter, Collective::allreduce, Collective::all_to_all}) {
    const CollectiveCost cost = collective_cost(c, 1'000'000'000, {1, 0});
    EXPECT_EQ(cost.seconds, 0.0) << to_string(c);
    EXPECT_EQ(cost.steps, 0);
    EXPECT_EQ(cost.algorithm, CollectiveAlgorithm::none);
  }
  // Zero bytes over many chips still pays the latency of the steps.
  const CollectiveCost empty = collective_cost(Collective::allreduce, 0, {64, 0});
  EXPECT_EQ(empty.bandwidth_seconds, 0.0);
  EXPECT_GT(empty.latency_seconds, 0.0);
}

TEST(SimCollectives, MonotoneInBytesChipsAndSpan) {
  const std::vector<std::pair<Collective, std::vector<CollectiveAlgorithm>>> flat{
      {Collective::broadcast, {CollectiveAlgorithm::binomial_tree, CollectiveAlgorithm::scatter_allgather}},
      {Collective::allgather, {CollectiveAlgorithm::ring, CollectiveAlgorithm::recursive_doubling}},
      {Collective::reduce_scatter, {CollectiveAlgorithm::ring, CollectiveAlgorithm::recursive_doubling}},
      {Collective::allreduce,
       {CollectiveAlgorithm::ring, CollectiveAlgorithm::recursive_doubling, CollectiveAlgorithm::rabenseifner}},
      {Collective::all_to_all, {CollectiveAlgorithm::pairwise_exchange}}};
  for (const auto& [c, algorithms] : flat) {
    for (Generation g : {Generation::trn1, Generation::trn2, Generation::trn3}) {
      const auto instance = static_cast<std::int64_t>(topology(g).chips_per_instance.value);
      // Every flat algorithm costs more with more chips (more steps, a larger share, slower tiers).
      for (CollectiveAlgorithm a : algorithms) {
        double previous = 0.0;
        for (std::int64_t p = 2; p <= 200; ++p) {
          const double s = collective_cost(c, 10'000'000, {p, 0}, g, a).seconds;
          EXPECT_GE(s, previous) << to_string(c) << " " << to_string(a) << " " << to_string(g) << " p = " << p;
          previous = s;
        }
      }
      // Automatic: monotone within one instance (beyond it the two-level algorithm can get cheaper with more
      // members, which bring more links of the slow tier), and never dearer than any algorithm it may pick.
      double previous = 0.0;
      for (std::int64_t p = 1; p <= 200; ++p) {
        const double s = collective_cost(c, 10'000'000, {p, 0}, g).seconds;
        if (p <= instance) {
          EXPECT_GE(s, previous) << to_string(c) << " " << to_string(g) << " p = " << p;
        }
        for (CollectiveAlgorithm a : algorithms) {
          if (p > 1) {
            EXPECT_LE(s, collective_cost(c, 10'000'000, {p, 0}, g, a).seconds);
          }
        }
        previous = s;
      }
      previous = 0.0;
      for (std::int64_t bytes = 0; bytes <= (std::int64_t{1} << 34); bytes = bytes * 4 + 1) {
        const double s = collective_cost(c, bytes, {48, 0}, g).seconds;
        EXPECT_GE(s, previous) << to_string(c) << " bytes = " << bytes;
        previous = s;
      }
    }
    // The same 8 chips spread over more of the machine cross slower tiers: never cheaper.
    const double tight = collective_cost(c, 1 << 24, {8, 8}).seconds;
    const double wide = collective_cost(c, 1 << 24, {8, 57}).seconds;
    const double across = collective_cost(c, 1 << 24, {8, 141}).seconds;
    EXPECT_LT(tight, wide) << to_string(c);
    EXPECT_LT(wide, across) << to_string(c);
  }
}

TEST(SimCollectives, HierarchicalHandComputed) {
  // Allgather of 144 MB over 144 trn2 chips: D = 3 UltraServers (span 144 > 64), m = 48 members each.
  // Outer (EFA): ⌈log2 3⌉ = 2 steps, (2/3)/48 of the bytes; inner (48 chips of one UltraServer: the
  // ultraserver tier): ⌈log2 48⌉ = 6 steps, 47/48 of the bytes.
  const double n = 144e6;
  const CollectiveCost c = collective_cost(Collective::allgather, 144'000'000, {144, 0}, Generation::trn2,
                                           CollectiveAlgorithm::hierarchical);
  EXPECT_EQ(c.steps, 8);
  EXPECT_EQ(c.tier, LinkTier::efa);
  expect_close(c.latency_seconds, 2 * kEfaAlpha + 6 * kNlAlpha);
  expect_close(c.bandwidth_seconds, 2.0 / 3.0 / 48.0 * n / kEfaBw + 47.0 / 48.0 * n / kUsBw);
  // It beats the flat ring, whose every step runs at the EFA rate, and automatic picks it.
  EXPECT_LT(c.seconds,
            collective_cost(Collective::allgather, 144'000'000, {144, 0}, Generation::trn2, CollectiveAlgorithm::ring)
                .seconds);
  EXPECT_EQ(collective_cost(Collective::allgather, 144'000'000, {144, 0}).algorithm, CollectiveAlgorithm::hierarchical);
  // Allreduce over 32 chips (two instances, span 32 ≤ 64): outer tier ultraserver, D = 2, m = 16 (instance).
  const CollectiveCost r =
      collective_cost(Collective::allreduce, 32'000'000, {32, 0}, Generation::trn2, CollectiveAlgorithm::hierarchical);
  expect_close(r.seconds, 2 * (1 * kNlAlpha + 0.5 / 16 * 32e6 / kUsBw + 4 * kNlAlpha + 15.0 / 16 * 32e6 / kInstBw));
  // Broadcast of 64 MB over 128 chips: D = 2, m = 64; scatter and allgather inside (ultraserver tier,
  // 6 steps, 63/64 each), the outer broadcast of 1 MB between 2 UltraServers: binomial, 1 step.
  const CollectiveCost b =
      collective_cost(Collective::broadcast, 64'000'000, {128, 0}, Generation::trn2, CollectiveAlgorithm::hierarchical);
  expect_close(b.seconds, 12 * kNlAlpha + 2 * 63.0 / 64 * 64e6 / kUsBw + kEfaAlpha + 1e6 / kEfaBw);
  // Within one instance, or for all_to_all, there is no second level.
  EXPECT_THROW(collective_cost(Collective::allgather, 8, {16, 0}, Generation::trn2, CollectiveAlgorithm::hierarchical),
               trncore::InvalidArgument);
  EXPECT_THROW(
      collective_cost(Collective::all_to_all, 8, {144, 0}, Generation::trn2, CollectiveAlgorithm::hierarchical),
      trncore::InvalidArgument);
  EXPECT_EQ(
      collective_cost(Collective::allgather, 8, {1, 0}, Generation::trn2, CollectiveAlgorithm::hierarchical).algorithm,
      CollectiveAlgorithm::none);
}

TEST(SimCollectives, CrossingIntoEfaIsLimitedByEfa) {
  // 64 chips fit one Trn2 UltraServer; 65 span two and the whole collective runs at the EFA rate.
  const CollectiveCost in =
      collective_cost(Collective::allgather, 1'000'000'000, {64, 0}, Generation::trn2, CollectiveAlgorithm::ring);
  const CollectiveCost out =
      collective_cost(Collective::allgather, 1'000'000'000, {65, 0}, Generation::trn2, CollectiveAlgorithm::ring);
  EXPECT_EQ(in.tier, LinkTier::ultraserver);
  EXPECT_EQ(out.tier, LinkTier::efa);
  expect_close(in.bandwidth_seconds, 63.0 / 64.0 * 1e9 / kUsBw);
  expect_close(out.bandwidth_seconds, 64.0 / 65.0 * 1e9 / kEfaBw);
  // On trn3 the same 65 chips stay inside the 144-chip NeuronLink domain.
  EXPECT_EQ(collective_cost(Collective::allgather, 1'000'000'000, {65, 0}, Generation::trn3).tier,
            LinkTier::ultraserver);
}

TEST(SimCollectives, BadInputNamesTheFunctionAndValues) {
  auto expect_invalid = [](auto&& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "no throw; wanted " << needle;
    } catch (const trncore::InvalidArgument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(needle), std::string::npos) << what;
      EXPECT_FALSE(e.hint().empty());
    }
  };
  expect_invalid(
      [] {
        collective_cost(Collective::allreduce, -1, {4, 0});
      },
      "trncore::sim::collective_cost: bytes = -1 is negative");
  expect_invalid([] { collective_cost(Collective::allreduce, 8, {0, 0}); }, "group.chips = 0");
  expect_invalid([] { collective_cost(Collective::allreduce, 8, {-3, 0}); }, "group.chips = -3");
  expect_invalid([] { collective_cost(Collective::allreduce, 8, {8, 4}); }, "group.span = 4 with group.chips = 8");
  expect_invalid([] { collective_cost(Collective::allreduce, 8, {8, -1}); }, "group.span = -1");
  expect_invalid([] { collective_cost(Collective::point_to_point, 8, {3, 0}); }, "point_to_point over group.chips = 3");
  expect_invalid(
      [] {
        collective_cost(Collective::broadcast, 8, {4, 0}, Generation::trn2, CollectiveAlgorithm::ring);
      },
      "algorithm ring does not apply to broadcast");
  expect_invalid(
      [] {
        collective_cost(Collective::allgather, 8, {1, 0}, Generation::trn2, CollectiveAlgorithm::binomial_tree);
      },
      "algorithm binomial_tree does not apply to allgather");
  expect_invalid(
      [] {
        collective_cost(Collective::allreduce, 8, {4, 0}, Generation::trn2, CollectiveAlgorithm::none);
      },
      "algorithm none over group.chips = 4");
  expect_invalid([] { collective_cost(static_cast<Collective>(42), 8, {4, 0}); }, "collective value 42");
  expect_invalid(
      [] {
        collective_cost(Collective::allreduce, 8, {4, 0}, Generation::trn2, static_cast<CollectiveAlgorithm>(99));
      },
      "algorithm value 99");
  expect_invalid(
      [] {
        collective_cost(Collective::allreduce, 8, {4, 0}, static_cast<Generation>(7));
      },
      "generation value 7");
  expect_invalid([] { tier_for_span(0); }, "trncore::sim::tier_for_span: span_chips = 0 is below 1");
}

TEST(SimCollectives, OrderedSumAsTrncoreMpiRunsIt) {
  // 1000 blocks of 8 KB over 8 chips of one instance: indices allgather 8000 bytes (recursive doubling:
  // 3 steps, 7/8 of the bytes), all_to_all of ⌈1000/8⌉ = 125 blocks = 1,024,000 bytes (7 steps, 7/8),
  // allgather of the 8192-byte result (3 steps, 7/8).
  const OrderedSumCost c = ordered_sum_cost(1000, 8192, {8, 0});
  expect_close(c.indices.seconds, 3 * kNlAlpha + 7000.0 / kInstBw);
  expect_close(c.exchange.seconds, 7 * kNlAlpha + 896000.0 / kInstBw);
  expect_close(c.gather.seconds, 3 * kNlAlpha + 7168.0 / kInstBw);
  expect_close(c.seconds, 13 * kNlAlpha + (7000.0 + 896000.0 + 7168.0) / kInstBw);
  EXPECT_EQ(ordered_sum_cost(1000, 8192, {1, 0}).seconds, 0.0);
  // More blocks never cost less; spanning past the UltraServer costs more.
  EXPECT_LE(ordered_sum_cost(10, 8192, {8, 0}).seconds, c.seconds);
  EXPECT_LT(c.seconds, ordered_sum_cost(1000, 8192, {8, 100}).seconds);
  EXPECT_THROW(ordered_sum_cost(-1, 8, {2, 0}), trncore::InvalidArgument);
  EXPECT_THROW(ordered_sum_cost(1, -8, {2, 0}), trncore::InvalidArgument);
  EXPECT_THROW(ordered_sum_cost(1, 8, {0, 0}), trncore::InvalidArgument);
  EXPECT_THROW(ordered_sum_cost(std::int64_t{1} << 40, std::int64_t{1} << 40, {2, 0}), trncore::InvalidArgument);
}

TEST(SimCollectives, ToStringSaysModelled) {
  const std::string s = collective_cost(Collective::allreduce, 1 << 20, {144, 0}).to_string();
  EXPECT_NE(s.find("modelled allreduce"), std::string::npos) << s;
  EXPECT_NE(s.find("144 chips, efa tier"), std::string::npos) << s;
  EXPECT_EQ(to_string(Provenance::estimated), "estimated");
  EXPECT_EQ(to_string(CollectiveAlgorithm::scatter_allgather), "scatter_allgather");
  EXPECT_EQ(to_string(LinkTier::ultraserver), "ultraserver");
}

}  // namespace
