// The chip-to-chip link model and the alpha-beta costs of collectives (collectives.hpp). Values and
// sources are listed once here and in docs/distributed.md; every one carries its provenance.
#include <trncore/detail/enum_names.hpp>
#include <trncore/error.hpp>

#include <trncore/sim/collectives.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>

namespace trncore::sim {

namespace {

constexpr auto kProvenance = trncore::detail::EnumNames<Provenance, 4>{{{{"measured", Provenance::measured},
                                                                         {"published", Provenance::published},
                                                                         {"derived", Provenance::derived},
                                                                         {"estimated", Provenance::estimated}}}};
constexpr auto kTiers = trncore::detail::EnumNames<LinkTier, 3>{
    {{{"instance", LinkTier::instance}, {"ultraserver", LinkTier::ultraserver}, {"efa", LinkTier::efa}}}};
constexpr auto kCollectives =
    trncore::detail::EnumNames<Collective, 6>{{{{"point_to_point", Collective::point_to_point},
                                                {"broadcast", Collective::broadcast},
                                                {"allgather", Collective::allgather},
                                                {"reduce_scatter", Collective::reduce_scatter},
                                                {"allreduce", Collective::allreduce},
                                                {"all_to_all", Collective::all_to_all}}}};
constexpr auto kAlgorithms = trncore::detail::EnumNames<CollectiveAlgorithm, 10>{
    {{{"automatic", CollectiveAlgorithm::automatic},
      {"none", CollectiveAlgorithm::none},
      {"direct", CollectiveAlgorithm::direct},
      {"binomial_tree", CollectiveAlgorithm::binomial_tree},
      {"scatter_allgather", CollectiveAlgorithm::scatter_allgather},
      {"ring", CollectiveAlgorithm::ring},
      {"recursive_doubling", CollectiveAlgorithm::recursive_doubling},
      {"rabenseifner", CollectiveAlgorithm::rabenseifner},
      {"pairwise_exchange", CollectiveAlgorithm::pairwise_exchange},
      {"hierarchical", CollectiveAlgorithm::hierarchical}}}};

constexpr std::string_view kTrn2Page =
    "AWS Neuron docs, 'Amazon EC2 Trn2 architecture', Trn2 instance specifications table";
constexpr std::string_view kTrn3Page =
    "AWS Neuron docs, 'Amazon EC2 Trn3 Architecture', Trn3 Gen1/Gen2 UltraServer specifications table";

// Shared estimates (no published figure exists for any of them).
constexpr Figure kHalfEachWay{0.5, Provenance::estimated,
                              "the published per-chip NeuronLink figure is taken as both directions together, and a "
                              "collective step is assumed to use all of a chip's links (concurrent rings): half of it "
                              "each way"};
constexpr Figure kEfaLineRate{1.0, Provenance::estimated,
                              "EFA rates are per direction; the full line rate is assumed usable (an upper bound: no "
                              "protocol overhead)"};
constexpr Figure kNeuronLinkLatency{2e-6, Provenance::estimated,
                                    "no published latency: 2 us per message step assumed (CC-core and DMA set-up plus "
                                    "wire), of the order of other accelerator links"};
constexpr Figure kEfaLatency{15e-6, Provenance::estimated,
                             "no published Trainium EFA latency: 15 us per message step assumed (SRD transport, "
                             "network proxy thread, switch hops)"};

constexpr TopologySpec kTrn1{
    Generation::trn1,
    "trn1.32xlarge (16 Trainium chips, NeuronLink-v2 2-D torus), EFA between instances",
    {2, Provenance::published, "AWS Neuron docs, 'Trainium Architecture' (two NeuronCore-v2 per chip)"},
    {16, Provenance::published, "AWS Neuron docs, 'AWS Trn1 Architecture' (Trn1.32xlarge: 16 devices)"},
    {16, Provenance::published, "AWS Neuron docs, 'AWS Trn1 Architecture': no UltraServer; instances join by EFA"},
    {LinkTier::instance,
     "NeuronLink-v2 within a trn1.32xlarge",
     {384e9, Provenance::estimated,
      "no published per-chip figure (the Trn1 table says only 'Yes'); 384 GB/s per chip assumed"},
     kHalfEachWay,
     kNeuronLinkLatency},
    {LinkTier::ultraserver,
     "none (no UltraServer): the instance tier",
     {384e9, Provenance::estimated, "as the instance tier"},
     kHalfEachWay,
     kNeuronLinkLatency},
    {LinkTier::efa,
     "EFA between trn1.32xlarge instances",
     {800e9 / 8 / 16, Provenance::derived,
      "800 Gbps per trn1.32xlarge (AWS Neuron docs, 'AWS Trn1 Architecture') / 16 chips = 6.25 GB/s per chip"},
     kEfaLineRate,
     kEfaLatency}};

constexpr TopologySpec kTrn2{
    Generation::trn2,
    "Trn2 UltraServer (4 trn2u.48xlarge, 64 Trainium2 chips on NeuronLink-v3), EFA between UltraServers",
    {8, Provenance::published, "AWS Neuron docs, 'Trainium2 Architecture' (eight NeuronCore-v3 per chip)"},
    {16, Provenance::published, kTrn2Page},
    {64, Provenance::published, kTrn2Page},
    {LinkTier::instance,
     "NeuronLink-v3 within a trn2 instance (4x4 2-D torus)",
     {1024e9, Provenance::published,
      "1,024 GB/s per device, intra-instance NeuronLink-v3 (AWS Neuron docs, 'Amazon EC2 Trn2 architecture'); "
      "with the 256 GB/s inter-instance figure it makes the 1.28 TB/s per chip of the 'Trainium2 Architecture' page"},
     kHalfEachWay,
     kNeuronLinkLatency},
    {LinkTier::ultraserver,
     "NeuronLink-v3 between the 4 instances of a Trn2 UltraServer (rings through same-coordinate chips)",
     {256e9, Provenance::published,
      "256 GB/s per device, inter-instance NeuronLink-v3 (AWS Neuron docs, 'Amazon EC2 Trn2 architecture')"},
     kHalfEachWay,
     kNeuronLinkLatency},
    {LinkTier::efa,
     "EFAv3 between Trn2 UltraServers",
     {3200e9 / 8 / 16, Provenance::derived,
      "3,200 Gbps per trn2 instance (AWS Neuron docs, 'Amazon EC2 Trn2 architecture'; 12.8 Tbps per UltraServer on the "
      "EC2 Trn2 product page) / 16 chips = 25 GB/s per chip"},
     kEfaLineRate,
     kEfaLatency}};

constexpr TopologySpec kTrn3{
    Generation::trn3,
    "Trn3 Gen2 UltraServer (36 servers of 4 Trainium3 chips = 144, NeuronLink-v4 through NeuronSwitch-v1), EFA between "
    "UltraServers",
    {8, Provenance::published, "AWS Neuron docs, 'Trainium3 Architecture' (eight NeuronCore-v4 per chip)"},
    {4, Provenance::published, kTrn3Page},
    {144, Provenance::published, kTrn3Page},
    {LinkTier::instance,
     "NeuronLink-v4 within a Trn3 server (first-level NeuronSwitch-v1)",
     {2048.0 * 1073741824.0, Provenance::published,
      "2,048 GiB/s per device, NeuronLink-v4 (Trn3 UltraServer table; the 'Trainium3 Architecture' page says 2.56 "
      "TB/s)"},
     kHalfEachWay,
     kNeuronLinkLatency},
    {LinkTier::ultraserver,
     "NeuronLink-v4 between the servers of a Trn3 Gen2 UltraServer (second-level NeuronSwitch-v1)",
     {2048.0 * 1073741824.0, Provenance::published,
      "the same per-device NeuronLink-v4 figure (Trn3 UltraServer table)"},
     kHalfEachWay,
     {3e-6, Provenance::estimated, "no published latency: 3 us assumed (one more switch level than within a server)"}},
    {LinkTier::efa,
     "EFA between Trn3 Gen2 UltraServers",
     {28800e9 / 8 / 144, Provenance::derived,
      "28,800 Gbps per Trn3 Gen2 UltraServer (Trn3 UltraServer table) / 144 chips = 25 GB/s per chip"},
     kEfaLineRate,
     kEfaLatency}};

constexpr const char* kCostFunction = "trncore::sim::collective_cost";

bool valid(Generation g) noexcept { return g == Generation::trn1 || g == Generation::trn2 || g == Generation::trn3; }

std::int64_t ceil_log2(std::int64_t p) noexcept {
  std::int64_t l = 0;
  while ((std::int64_t{1} << l) < p) ++l;
  return l;
}

struct Terms {
  std::int64_t steps;
  double volume;  // bytes per chip on the critical path
};

// The (steps, volume) of `algorithm` for collective `c` over p ≥ 2 chips, or steps < 0 when it does not apply.
Terms terms(Collective c, CollectiveAlgorithm a, std::int64_t p, double n) noexcept {
  const double pm = static_cast<double>(p - 1);
  const double frac = pm / static_cast<double>(p);
  const std::int64_t l = ceil_log2(p);
  switch (c) {
    case Collective::point_to_point:
      if (a == CollectiveAlgorithm::direct) return {1, n};
      break;
    case Collective::broadcast:
      if (a == CollectiveAlgorithm::binomial_tree) return {l, static_cast<double>(l) * n};
      if (a == CollectiveAlgorithm::scatter_allgather) return {l + p - 1, 2.0 * frac * n};
      break;
    case Collective::allgather:
    case Collective::reduce_scatter:
      if (a == CollectiveAlgorithm::ring) return {p - 1, frac * n};
      if (a == CollectiveAlgorithm::recursive_doubling) return {l, frac * n};
      break;
    case Collective::allreduce:
      if (a == CollectiveAlgorithm::ring) return {2 * (p - 1), 2.0 * frac * n};
      if (a == CollectiveAlgorithm::recursive_doubling) return {l, static_cast<double>(l) * n};
      if (a == CollectiveAlgorithm::rabenseifner) return {2 * l, 2.0 * frac * n};
      break;
    case Collective::all_to_all:
      if (a == CollectiveAlgorithm::pairwise_exchange) return {p - 1, frac * n};
      break;
  }
  return {-1, 0.0};
}

// The two-level (hierarchical) cost, or steps < 0 when it does not apply (see CollectiveAlgorithm).
struct Split {
  std::int64_t steps = -1;
  double volume = 0.0, latency = 0.0, bandwidth = 0.0;
  LinkTier outer = LinkTier::efa;
};

Split hierarchical_terms(Collective c, std::int64_t p, std::int64_t span, double n, const TopologySpec& t) {
  Split s;
  if (c != Collective::broadcast && c != Collective::allgather && c != Collective::reduce_scatter &&
      c != Collective::allreduce)
    return s;
  const auto instance = static_cast<std::int64_t>(t.chips_per_instance.value);
  const auto scaleup = static_cast<std::int64_t>(t.chips_per_scaleup.value);
  std::int64_t domain = 0;
  if (span > scaleup) {
    domain = scaleup;
    s.outer = LinkTier::efa;
  } else if (span > instance) {
    domain = instance;
    s.outer = LinkTier::ultraserver;
  } else {
    return s;
  }
  const std::int64_t d = (span + domain - 1) / domain;
  const std::int64_t m = (p + d - 1) / d;
  const std::int64_t inner_span = std::min(span, domain);
  const LinkSpec& in = t.link(inner_span <= instance ? LinkTier::instance : LinkTier::ultraserver);
  const LinkSpec& out = t.link(s.outer);
  const double ai = in.latency.value, bi = 1.0 / in.effective_bandwidth();
  const double ao = out.latency.value, bo = 1.0 / out.effective_bandwidth();
  const double dd = static_cast<double>(d), dm = static_cast<double>(m);
  const std::int64_t ld = ceil_log2(d), lm = ceil_log2(m);
  const double inner_volume = (dm - 1.0) / dm * n;         // one inner allgather / reduce-scatter / scatter
  const double outer_volume = (dd - 1.0) / (dd * dm) * n;  // one outer allgather / reduce-scatter
  switch (c) {
    case Collective::allgather:
    case Collective::reduce_scatter:
      s.steps = ld + lm;
      s.volume = inner_volume + outer_volume;
      s.latency = static_cast<double>(ld) * ao + static_cast<double>(lm) * ai;
      s.bandwidth = outer_volume * bo + inner_volume * bi;
      break;
    case Collective::allreduce:
      s.steps = 2 * (ld + lm);
      s.volume = 2.0 * (inner_volume + outer_volume);
      s.latency = 2.0 * (static_cast<double>(ld) * ao + static_cast<double>(lm) * ai);
      s.bandwidth = 2.0 * (outer_volume * bo + inner_volume * bi);
      break;
    case Collective::broadcast: {
      // The outer broadcast of n/m among the D domains: the cheaper of binomial and scatter-allgather.
      const double piece = n / dm;
      const double binomial = static_cast<double>(ld) * (ao + piece * bo);
      const double sag = static_cast<double>(ld + d - 1) * ao + 2.0 * (dd - 1.0) / dd * piece * bo;
      const bool use_binomial = binomial <= sag;
      const std::int64_t outer_steps = use_binomial ? ld : ld + d - 1;
      const double outer_vol = use_binomial ? static_cast<double>(ld) * piece : 2.0 * (dd - 1.0) / dd * piece;
      s.steps = 2 * lm + outer_steps;
      s.volume = 2.0 * inner_volume + outer_vol;
      s.latency = 2.0 * static_cast<double>(lm) * ai + static_cast<double>(outer_steps) * ao;
      s.bandwidth = 2.0 * inner_volume * bi + outer_vol * bo;
      break;
    }
    default: break;
  }
  return s;
}

constexpr std::array<CollectiveAlgorithm, 7> kCandidates{CollectiveAlgorithm::direct,
                                                         CollectiveAlgorithm::binomial_tree,
                                                         CollectiveAlgorithm::scatter_allgather,
                                                         CollectiveAlgorithm::ring,
                                                         CollectiveAlgorithm::recursive_doubling,
                                                         CollectiveAlgorithm::rabenseifner,
                                                         CollectiveAlgorithm::pairwise_exchange};

}  // namespace

std::string_view to_string(Provenance p) noexcept { return kProvenance.name(p); }
std::string_view to_string(LinkTier t) noexcept { return kTiers.name(t); }
std::string_view to_string(Collective c) noexcept { return kCollectives.name(c); }
std::string_view to_string(CollectiveAlgorithm a) noexcept { return kAlgorithms.name(a); }

const LinkSpec& TopologySpec::link(LinkTier tier) const noexcept {
  switch (tier) {
    case LinkTier::instance: return instance;
    case LinkTier::ultraserver: return ultraserver;
    case LinkTier::efa: break;
  }
  return efa;
}

const TopologySpec& topology(Generation generation) noexcept {
  switch (generation) {
    case Generation::trn1: return kTrn1;
    case Generation::trn3: return kTrn3;
    case Generation::trn2: break;
  }
  return kTrn2;
}

LinkTier tier_for_span(std::int64_t span_chips, Generation generation) {
  if (!valid(generation))
    throw InvalidArgument("trncore::sim::tier_for_span",
                          "generation value " + std::to_string(static_cast<int>(generation)) + " is not a Generation",
                          "pass Generation::trn1, trn2 or trn3");
  if (span_chips < 1)
    throw InvalidArgument("trncore::sim::tier_for_span", "span_chips = " + std::to_string(span_chips) + " is below 1",
                          "pass the number of consecutive chips the group lies within (>= 1)");
  const TopologySpec& t = topology(generation);
  if (static_cast<double>(span_chips) <= t.chips_per_instance.value) return LinkTier::instance;
  if (static_cast<double>(span_chips) <= t.chips_per_scaleup.value) return LinkTier::ultraserver;
  return LinkTier::efa;
}

CollectiveCost collective_cost(Collective collective, std::int64_t bytes, CollectiveGroup group, Generation generation,
                               CollectiveAlgorithm algorithm) {
  if (!valid(generation))
    throw InvalidArgument(kCostFunction,
                          "generation value " + std::to_string(static_cast<int>(generation)) + " is not a Generation",
                          "pass Generation::trn1, trn2 or trn3");
  if (static_cast<int>(collective) > static_cast<int>(Collective::all_to_all))
    throw InvalidArgument(kCostFunction,
                          "collective value " + std::to_string(static_cast<int>(collective)) + " is not a Collective",
                          "pass a Collective enumerator");
  if (static_cast<int>(algorithm) > static_cast<int>(CollectiveAlgorithm::hierarchical))
    throw InvalidArgument(
        kCostFunction,
        "algorithm value " + std::to_string(static_cast<int>(algorithm)) + " is not a CollectiveAlgorithm",
        "pass a CollectiveAlgorithm enumerator (automatic picks the cheapest)");
  if (bytes < 0)
    throw InvalidArgument(kCostFunction, "bytes = " + std::to_string(bytes) + " is negative",
                          "pass the message size in bytes (>= 0)");
  if (group.chips < 1)
    throw InvalidArgument(kCostFunction, "group.chips = " + std::to_string(group.chips) + " is below 1",
                          "a collective needs at least one chip");
  if (group.span < 0 || (group.span > 0 && group.span < group.chips))
    throw InvalidArgument(kCostFunction,
                          "group.span = " + std::to_string(group.span) +
                              " with group.chips = " + std::to_string(group.chips) +
                              ": the members cannot lie within fewer chips than there are",
                          "pass span = 0 for a consecutive group, or span >= chips");
  if (collective == Collective::point_to_point && group.chips > 2)
    throw InvalidArgument(kCostFunction,
                          "point_to_point over group.chips = " + std::to_string(group.chips) + " (at most 2)",
                          "price one message between two chips (chips = 2, span = their distance + 1)");

  CollectiveCost cost;
  cost.collective = collective;
  cost.chips = group.chips;
  cost.bytes = bytes;
  const std::int64_t span = group.span == 0 ? group.chips : group.span;
  cost.tier = tier_for_span(span, generation);
  if (group.chips == 1) {
    const bool two_level = algorithm == CollectiveAlgorithm::hierarchical && collective != Collective::point_to_point &&
                           collective != Collective::all_to_all;
    if (algorithm != CollectiveAlgorithm::automatic && algorithm != CollectiveAlgorithm::none && !two_level &&
        terms(collective, algorithm, 2, 0.0).steps < 0)
      throw InvalidArgument(
          kCostFunction,
          "algorithm " + std::string(to_string(algorithm)) + " does not apply to " + std::string(to_string(collective)),
          "pass automatic or an algorithm listed for this collective in CollectiveAlgorithm");
    cost.algorithm = CollectiveAlgorithm::none;
    return cost;  // one chip: nothing moves
  }
  if (algorithm == CollectiveAlgorithm::none)
    throw InvalidArgument(kCostFunction,
                          "algorithm none over group.chips = " + std::to_string(group.chips) + " (none means one chip)",
                          "pass automatic or a named algorithm");

  const LinkSpec& link = topology(generation).link(cost.tier);
  const double alpha = link.latency.value;
  const double beta = 1.0 / link.effective_bandwidth();
  const double n = static_cast<double>(bytes);
  double best = std::numeric_limits<double>::infinity();
  for (CollectiveAlgorithm a : kCandidates) {
    if (algorithm != CollectiveAlgorithm::automatic && a != algorithm) continue;
    const Terms t = terms(collective, a, group.chips, n);
    if (t.steps < 0) continue;
    const double lat = static_cast<double>(t.steps) * alpha;
    const double bw = t.volume * beta;
    if (lat + bw < best) {
      best = lat + bw;
      cost.algorithm = a;
      cost.steps = t.steps;
      cost.bytes_per_chip = t.volume;
      cost.latency_seconds = lat;
      cost.bandwidth_seconds = bw;
      cost.seconds = lat + bw;
    }
  }
  if (algorithm == CollectiveAlgorithm::automatic || algorithm == CollectiveAlgorithm::hierarchical) {
    const Split h = hierarchical_terms(collective, group.chips, span, n, topology(generation));
    if (h.steps >= 0 && h.latency + h.bandwidth < best) {
      best = h.latency + h.bandwidth;
      cost.algorithm = CollectiveAlgorithm::hierarchical;
      cost.steps = h.steps;
      cost.bytes_per_chip = h.volume;
      cost.latency_seconds = h.latency;
      cost.bandwidth_seconds = h.bandwidth;
      cost.seconds = h.latency + h.bandwidth;
    }
  }
  if (best == std::numeric_limits<double>::infinity())
    throw InvalidArgument(kCostFunction,
                          "algorithm " + std::string(to_string(algorithm)) + " does not apply to " +
                              std::string(to_string(collective)) +
                              (algorithm == CollectiveAlgorithm::hierarchical
                                   ? " over a group of span " + std::to_string(span) + " (within one instance)"
                                   : std::string()),
                          "pass automatic or an algorithm listed for this collective in CollectiveAlgorithm "
                          "(hierarchical: broadcast, allgather, reduce_scatter or allreduce over a group that "
                          "crosses an instance)");
  return cost;
}

OrderedSumCost ordered_sum_cost(std::int64_t blocks, std::int64_t block_bytes, CollectiveGroup group,
                                Generation generation) {
  constexpr const char* function = "trncore::sim::ordered_sum_cost";
  if (blocks < 0)
    throw InvalidArgument(function, "blocks = " + std::to_string(blocks) + " is negative",
                          "pass the number of global blocks (>= 0)");
  if (block_bytes < 0)
    throw InvalidArgument(function, "block_bytes = " + std::to_string(block_bytes) + " is negative",
                          "pass the size of one block's partial in bytes (>= 0)");
  if (group.chips < 1)
    throw InvalidArgument(function, "group.chips = " + std::to_string(group.chips) + " is below 1",
                          "a reduction needs at least one chip");
  if (blocks > 0 && block_bytes > std::numeric_limits<std::int64_t>::max() / blocks)
    throw InvalidArgument(function,
                          "blocks = " + std::to_string(blocks) + " of block_bytes = " + std::to_string(block_bytes) +
                              " overflow 64-bit byte counts",
                          "price fewer or smaller blocks");
  OrderedSumCost c;
  const std::int64_t busiest = (blocks + group.chips - 1) / group.chips;
  c.indices = collective_cost(Collective::allgather, blocks * 8, group, generation);
  c.exchange = collective_cost(Collective::all_to_all, busiest * block_bytes, group, generation);
  c.gather = collective_cost(Collective::allgather, block_bytes, group, generation);
  c.seconds = c.indices.seconds + c.exchange.seconds + c.gather.seconds;
  return c;
}

std::string CollectiveCost::to_string() const {
  char line[320];
  std::snprintf(line, sizeof line,
                "modelled %s (%s) over %lld chips, %s tier: %lld bytes, %lld steps, latency %.3e s + bandwidth "
                "%.3e s = %.3e s",
                std::string(sim::to_string(collective)).c_str(), std::string(sim::to_string(algorithm)).c_str(),
                static_cast<long long>(chips), std::string(sim::to_string(tier)).c_str(), static_cast<long long>(bytes),
                static_cast<long long>(steps), latency_seconds, bandwidth_seconds, seconds);
  return line;
}

std::string describe_topology(Generation generation) {
  const TopologySpec& t = topology(generation);
  std::string out =
      "modelled link spec of " + std::string(sim::to_string(generation)) + ": " + std::string(t.system) + "\n";
  auto figure = [&](std::string_view what, const Figure& f) {
    char value[64];
    std::snprintf(value, sizeof value, "%.4g", f.value);
    out += "  " + std::string(what) + " = " + value + " [" + std::string(sim::to_string(f.provenance)) + ": " +
           std::string(f.source) + "]\n";
  };
  figure("cores per chip", t.cores_per_chip);
  figure("chips per instance", t.chips_per_instance);
  figure("chips per scale-up domain", t.chips_per_scaleup);
  for (const LinkSpec* l : {&t.instance, &t.ultraserver, &t.efa}) {
    out += " tier " + std::string(sim::to_string(l->tier)) + ": " + std::string(l->name) + "\n";
    figure("bandwidth, bytes/s per chip", l->bandwidth);
    figure("usable fraction each way", l->usable_fraction);
    figure("latency per step, s", l->latency);
  }
  return out;
}

}  // namespace trncore::sim
