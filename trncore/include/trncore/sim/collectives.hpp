#pragma once
/// @file
/// The chip-to-chip part of the cost model: a link/topology spec per Trainium generation and alpha-beta
/// (latency + bytes / bandwidth) costs of the collectives a distributed routine uses, with the algorithm
/// named and the slowest link tier the group spans. It extends the single-core engine model of
/// engine_stats.hpp (DESIGN.md §4.4) to many chips. Every figure carries its provenance: published (an AWS
/// page, named), derived (arithmetic on published figures, stated) or estimated (no published figure; the
/// value is an assumption). No figure has been measured on hardware. The model is first order: it ignores
/// hop counts, link contention between concurrent collectives, the reduction arithmetic of reducing
/// collectives and any overlap with compute; costs are modelled, never measured.
///
/// Placement: chips are numbered consecutively, filling an instance, then the scale-up domain
/// (UltraServer), then the next one. A group of chips that lies within `span` consecutive chips runs a
/// flat algorithm entirely at the slowest tier that span crosses (NeuronLink within an instance, NeuronLink
/// between the instances of one UltraServer, EFA beyond it); the two-level (hierarchical) algorithm runs
/// its inner level on the faster tier and only its outer level on the crossed one. `automatic` takes the
/// cheaper. ordered_sum_cost prices trncore::mpi::ordered_sum, the suite's reproducible reduction.

#include <trncore/sim/generation.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace trncore::sim {

/// How a figure of the model is known.
enum class Provenance : std::uint8_t {
  measured,   ///< measured on hardware (no figure of the model is, today)
  published,  ///< stated by AWS on the page named in the figure's source
  derived,    ///< computed from published figures, as the source states
  estimated   ///< not published: an assumption of the model, see the source text
};

/// "measured", "published", "derived" or "estimated". Never throws.
std::string_view to_string(Provenance provenance) noexcept;

/// One number of the link model with its provenance and where it comes from.
struct Figure {
  double value = 0.0;                             ///< the value in SI units (bytes/s, seconds, a count)
  Provenance provenance = Provenance::estimated;  ///< how the value is known
  std::string_view source;                        ///< the page it is published on, or the assumption made
};

/// The tiers of links between chips, fastest first.
enum class LinkTier : std::uint8_t {
  instance,     ///< NeuronLink between the chips of one instance (trn2: the 4×4 2-D torus of 16 chips)
  ultraserver,  ///< NeuronLink between the instances of one scale-up domain (trn2: the 64-chip UltraServer)
  efa           ///< EFA between scale-up domains
};

/// "instance", "ultraserver" or "efa". Never throws.
std::string_view to_string(LinkTier tier) noexcept;

/// One link tier: its published per-chip bandwidth, the fraction of it one collective step is assumed to
/// use in each direction, and the latency of one message step.
struct LinkSpec {
  LinkTier tier = LinkTier::instance;  ///< which tier this is
  std::string_view name;               ///< e.g. "NeuronLink-v3 within a trn2 instance (4x4 2-D torus)"
  /// The per-chip bandwidth as published, bytes/s (for EFA: the instance's rate divided by its chips).
  Figure bandwidth;
  /// The fraction of `bandwidth` a collective step sends at in each direction (e.g. 0.5 when the published
  /// figure is taken as both directions together).
  Figure usable_fraction;
  /// The time of one message step (software, DMA set-up and wire), seconds.
  Figure latency;

  /// beta⁻¹ of the alpha-beta model: bandwidth · usable_fraction, bytes/s per chip per direction. Never throws.
  double effective_bandwidth() const noexcept { return bandwidth.value * usable_fraction.value; }
};

/// The multi-chip system of a generation: chips per instance and per scale-up domain, and its link tiers.
struct TopologySpec {
  Generation generation = Generation::trn2;  ///< the generation
  std::string_view system;                   ///< the systems the figures describe
  Figure cores_per_chip;                     ///< NeuronCores per chip
  Figure chips_per_instance;                 ///< chips of one instance (a server)
  Figure chips_per_scaleup;                  ///< chips of one NeuronLink domain (an UltraServer, or an instance)
  LinkSpec instance;                         ///< LinkTier::instance
  LinkSpec ultraserver;                      ///< LinkTier::ultraserver (the instance link when there is no UltraServer)
  LinkSpec efa;                              ///< LinkTier::efa

  /// The spec of `tier`. Never throws (an invalid value gives the EFA tier).
  const LinkSpec& link(LinkTier tier) const noexcept;
};

/// The topology spec of a generation (values and sources: docs/distributed.md, "The modelled scale-out").
/// trn1: trn1.32xlarge (16 chips, no UltraServer); trn2: Trn2 UltraServer (4 trn2u.48xlarge, 64 chips);
/// trn3: Trn3 Gen2 UltraServer (36 servers of 4 chips, 144 chips). Never throws; the reference stays valid
/// for the program's lifetime.
const TopologySpec& topology(Generation generation) noexcept;

/// The slowest tier a group lying within `span_chips` consecutive chips crosses: instance when the span
/// fits one instance, ultraserver when it fits one scale-up domain, else efa. A span that starts at chip 0
/// is assumed (groups aligned to instances).
/// @throws trncore::InvalidArgument for span_chips < 1 or an invalid generation.
LinkTier tier_for_span(std::int64_t span_chips, Generation generation = Generation::trn2);

/// The collectives the model prices.
enum class Collective : std::uint8_t {
  point_to_point,  ///< one message between two chips; bytes = the message
  broadcast,       ///< root to all; bytes = the message
  allgather,       ///< all to all of equal pieces; bytes = the gathered result (each chip gives bytes/p)
  reduce_scatter,  ///< bytes = each chip's input vector; each chip ends with bytes/p of the sum
  allreduce,       ///< bytes = the vector every chip holds, in and out
  all_to_all       ///< bytes = what each chip sends in total (bytes/p to every chip)
};

/// "point_to_point", "broadcast", "allgather", "reduce_scatter", "allreduce" or "all_to_all". Never throws.
std::string_view to_string(Collective collective) noexcept;

/// The algorithm a collective cost is computed for (p chips, n bytes, alpha = latency, beta = 1/bandwidth,
/// L = ⌈log2 p⌉):
/// - direct: point to point, alpha + n·beta;
/// - binomial_tree: broadcast, L·(alpha + n·beta);
/// - scatter_allgather: broadcast (van de Geijn), (L + p − 1)·alpha + 2·(p − 1)/p·n·beta;
/// - ring: allgather and reduce_scatter (p − 1)·alpha + (p − 1)/p·n·beta; allreduce twice that;
/// - recursive_doubling: allgather / reduce_scatter (recursive halving; Bruck for p not a power of two)
///   L·alpha + (p − 1)/p·n·beta; allreduce L·(alpha + n·beta);
/// - rabenseifner: allreduce as recursive-halving reduce-scatter + recursive-doubling allgather,
///   2·L·alpha + 2·(p − 1)/p·n·beta;
/// - pairwise_exchange: all_to_all, (p − 1)·alpha + (p − 1)/p·n·beta;
/// - hierarchical: two levels for a group that crosses a boundary (the scale-up domain when the span
///   exceeds it, else the instance): D = ⌈span / domain⌉ domains with m = ⌈p / D⌉ members each; the outer
///   level runs m parallel collectives over the D domains on the crossed (slower) tier, the inner level
///   one per domain over its m members on the tier inside (each level: L_D = ⌈log2 D⌉, L_m = ⌈log2 m⌉ steps).
///   allgather: outer L_D·alpha_o + (D − 1)/(D·m)·n·beta_o, then inner L_m·alpha_i + (m − 1)/m·n·beta_i;
///   reduce_scatter: the same levels in the other order; allreduce: both; broadcast: inner scatter in
///   the root's domain (L_m·alpha_i + (m − 1)/m·n·beta_i), an outer broadcast of n/m (the cheaper of
///   binomial_tree and scatter_allgather over D), an inner allgather (as the scatter). Each member uses its
///   own link of the outer tier (for EFA: its chip's share of the instance's rate);
/// - automatic: the cheapest of the above that applies to the collective; none: a single chip (no cost).
enum class CollectiveAlgorithm : std::uint8_t {
  automatic,           ///< the cheapest that applies (never reported)
  none,                ///< one chip: nothing moves
  direct,              ///< point to point
  binomial_tree,       ///< broadcast
  scatter_allgather,   ///< broadcast (van de Geijn)
  ring,                ///< allgather, reduce_scatter, allreduce
  recursive_doubling,  ///< allgather, reduce_scatter (recursive halving / Bruck), allreduce
  rabenseifner,        ///< allreduce
  pairwise_exchange,   ///< all_to_all
  hierarchical         ///< two levels: broadcast, allgather, reduce_scatter, allreduce across a boundary
};

/// The algorithm's name as listed in CollectiveAlgorithm ("ring", "binomial_tree", ...). Never throws.
std::string_view to_string(CollectiveAlgorithm algorithm) noexcept;

/// The chips taking part in a collective: `chips` of them, lying within `span` consecutive chips (0: span =
/// chips, i.e. the group is consecutive). A column of a P×Q grid placed row by row has chips = P and span
/// = (P − 1)·Q + 1.
struct CollectiveGroup {
  std::int64_t chips = 1;  ///< members (≥ 1); point_to_point takes 1 (no message) or 2
  std::int64_t span = 0;   ///< consecutive chips the members lie within (0: = chips; else ≥ chips)
};

/// The modelled cost of one collective.
struct CollectiveCost {
  Collective collective = Collective::point_to_point;         ///< what was priced
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::none;  ///< the algorithm priced (never automatic)
  LinkTier tier = LinkTier::instance;                         ///< the slowest tier the group spans
  std::int64_t chips = 1;                                     ///< members of the group
  std::int64_t bytes = 0;                                     ///< the size as defined per Collective
  std::int64_t steps = 0;                                     ///< message steps (each costs its tier's latency)
  double bytes_per_chip = 0.0;     ///< bytes each chip sends on the critical path (the beta term's volume)
  double latency_seconds = 0.0;    ///< steps · latency (hierarchical: each level at its tier's)
  double bandwidth_seconds = 0.0;  ///< bytes_per_chip / effective bandwidth (hierarchical: per level)
  double seconds = 0.0;            ///< latency_seconds + bandwidth_seconds

  /// One line: collective, algorithm, chips, tier, bytes, both terms and the total, labelled "modelled".
  std::string to_string() const;
};

/// The alpha-beta cost of `collective` of `bytes` over `group` on `generation`'s topology, with `algorithm`
/// (automatic: the cheapest that applies). A group of one chip costs nothing (algorithm none). The tier is
/// tier_for_span(group.span or group.chips). Accuracy: a first-order model (see the file comment); its
/// figures are published per-chip bandwidths and estimated latencies and usable fractions.
/// @throws trncore::InvalidArgument for bytes < 0, group.chips < 1, group.span < 0 or 0 < span < chips,
///         point_to_point with more than 2 chips, an algorithm that does not apply to the collective,
///         or an invalid enum value; the message names the function, the values and a fix.
CollectiveCost collective_cost(Collective collective, std::int64_t bytes, CollectiveGroup group,
                               Generation generation = Generation::trn2,
                               CollectiveAlgorithm algorithm = CollectiveAlgorithm::automatic);

/// The modelled cost of trncore::mpi::ordered_sum (the reproducible reduction: partials summed in ascending
/// global block order) as that routine runs it: an allgather of the block indices (8 bytes each), an
/// all_to_all in which every chip sends each of its blocks' partials cut into one slice per chip, the
/// local in-order sums (arithmetic not priced), and an allgather of the summed slices.
struct OrderedSumCost {
  CollectiveCost indices;   ///< allgather of the global block indices: blocks · 8 bytes
  CollectiveCost exchange;  ///< all_to_all of the busiest chip's partials: ⌈blocks / chips⌉ · block_bytes
  CollectiveCost gather;    ///< allgather of the summed vector: block_bytes
  double seconds = 0.0;     ///< the sum of the three
};

/// The cost of ordered_sum of `blocks` global blocks (spread evenly: the busiest chip holds ⌈blocks/chips⌉)
/// whose partials are `block_bytes` each, over `group`. One chip costs nothing.
/// @throws trncore::InvalidArgument for blocks < 0, block_bytes < 0, or a bad group or generation (as
///         collective_cost), naming "trncore::sim::ordered_sum_cost" and the values.
OrderedSumCost ordered_sum_cost(std::int64_t blocks, std::int64_t block_bytes, CollectiveGroup group,
                                Generation generation = Generation::trn2);

/// The link-model table of `generation`: every figure with its value, provenance and source, labelled
/// modelled. Never throws for a valid generation.
std::string describe_topology(Generation generation);

}  // namespace trncore::sim
