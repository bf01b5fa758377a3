// The distributed DF-MP2 energy: B split over occupied orbitals (blocks exchanged at distances 1 … p/2) or over the
// auxiliary index (Q-block partial products added by trncore::mpi::ordered_sum), one product and one
// fixed-order energy sum per occupied pair, the pair records gathered and combined in global pair order.
//
// The per-pair energy stage, the row-norm bounds and the pair-order combination are trnblas::df_mp2_energy's
// host stage itself (<trnblas/detail/df_mp2_pair_stage.hpp>), so equal products give bitwise equal energies.
#include <trntensor/mpi/df_mp2.hpp>

#include <trnblas/detail/df_mp2_pair_stage.hpp>
#include <trnblas/gemm.hpp>
#include <trncore/dd.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/io/npy.hpp>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace trntensor::mpi {

namespace {

using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;
using trncore::mpi::Range;

constexpr const char* kFunction = "trntensor::mpi::df_mp2_energy";
constexpr double kU64 = 0x1p-53;
// A pair record: os.hi, os.lo, ss.hi, ss.lo, bound, abs, positive, global pair index.
constexpr int kRecord = 8;
// The sim products' componentwise target, as trnblas's sim DF-MP2 asks of ozaki.
constexpr double kSimProductTarget = 0x1p-36;

double gamma(double n, double u) {
  const double nu = n * u;
  return nu >= 1.0 ? std::numeric_limits<double>::infinity() : nu / (1.0 - nu);
}

std::int64_t pair_index(std::int64_t i, std::int64_t j, std::int64_t nocc) {
  return i * nocc - i * (i - 1) / 2 + (j - i);
}

// One pair's record (its trnblas::detail::Mp2PairSums as kRecord doubles) from its tile K[a][c] = (ia|jc)
// (rows stride ld), appended to `out`.
void pair_record(std::int64_t i, std::int64_t j, std::int64_t nocc, std::int64_t nvir, const double* kb,
                 std::int64_t ld, const double* nui, const double* nuj, const double* eo, const double* ev, double ek,
                 std::vector<double>& out) {
  thread_local std::vector<double> scratch;
  const trnblas::detail::Mp2PairSums p =
      trnblas::detail::df_mp2_pair_sums(i, j, nvir, kb, ld, nui, nuj, eo, ev, ek, scratch);
  out.insert(out.end(), {p.opposite_spin.hi(), p.opposite_spin.lo(), p.same_spin.hi(), p.same_spin.lo(), p.bound, p.abs,
                         p.positive ? 1.0 : 0.0, static_cast<double>(pair_index(i, j, nocc))});
}

// The pair products: host DGEMM or sim ozaki gemm; the largest componentwise ε and certification.
struct Products {
  trncore::Options gemm_options;
  bool sim = false;
  bool certified = true;
  std::string caveat;

  // C (m × n, ldc) = X (m × k, ldx) · Y (n × k, ldy)ᵀ.
  void product(std::int64_t m, std::int64_t n, std::int64_t k, const double* x, std::int64_t ldx, const double* y,
               std::int64_t ldy, double* c, std::int64_t ldc) {
    if (!sim) {
      trnblas::gemm<double>(trnblas::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::trans, m, n, k, 1.0, x, ldx,
                            y, ldy, 0.0, c, ldc, gemm_options);
      return;
    }
    trncore::AccuracyReport r;
    trnblas::gemm<double>(trnblas::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::trans, m, n, k, 1.0, x, ldx,
                          y, ldy, 0.0, c, ldc, gemm_options, r);
    if (!r.met && certified) {
      certified = false;
      caveat = "pair products: " +
               (r.certified ? "bound " + trncore::detail::sci(r.a_priori_bound) + " above 2^-36 componentwise"
                            : r.uncertified_reason);
    }
  }
};

// OpenBLAS single-threaded for the guard's lifetime (its count saved and restored): its DGEMM bits depend on
// its thread count (measured here: the pair tiles change between 1 and 2 threads, and the count follows the
// process's CPU binding, which mpirun sets by rank count), and the reproducibility contract must not depend
// on the environment; one thread per rank is MPI's model anyway (as trnsolver_mpi's randomized routines).
class SingleThreadedBlas {
 public:
  SingleThreadedBlas() : saved_(openblas_get_num_threads()) {
    if (saved_ != 1) openblas_set_num_threads(1);
  }
  ~SingleThreadedBlas() {
    if (saved_ != 1) openblas_set_num_threads(saved_);
  }
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int saved_;
};

// The gathered records in global pair order, combined as trnblas's host stage combines its pairs.
trnblas::detail::Mp2StageTotal combine(const std::vector<double>& records, std::int64_t npairs, std::int64_t nvir) {
  std::vector<const double*> by_pair(static_cast<std::size_t>(npairs), nullptr);
  for (std::size_t r = 0; r + kRecord <= records.size(); r += kRecord) {
    const auto t = static_cast<std::int64_t>(records[r + 7]);
    if (t < 0 || t >= npairs || by_pair[static_cast<std::size_t>(t)] != nullptr)
      throw trncore::Error(kFunction, "internal: pair record " + std::to_string(t) + " duplicated or out of range",
                           "report this bug");
    by_pair[static_cast<std::size_t>(t)] = records.data() + r;
  }
  std::vector<trnblas::detail::Mp2PairSums> pairs(static_cast<std::size_t>(npairs));
  for (std::int64_t t = 0; t < npairs; ++t) {  // global pair order, whatever the rank count
    const double* p = by_pair[static_cast<std::size_t>(t)];
    if (p == nullptr)
      throw trncore::Error(kFunction, "internal: pair " + std::to_string(t) + " was computed by no rank",
                           "report this bug");
    pairs[static_cast<std::size_t>(t)] = {trncore::dd::from_sum(p[0], p[1]), trncore::dd::from_sum(p[2], p[3]), p[4],
                                          p[5], p[6] != 0};
  }
  return trnblas::detail::df_mp2_combine_pairs(pairs, nvir);
}

void validate(const Communicator& comm, const DistributedB& b, std::span<const double> eo, std::span<const double> ev,
              const trncore::Options& options) {
  trncore::mpi::CollectiveCheck check(comm, kFunction);
  check.same("split", static_cast<std::int64_t>(b.split));
  check.same("nocc", b.nocc);
  check.same("nvir", b.nvir);
  check.same("naux", b.naux);
  check.capture([&] {
    trncore::validate(options, kFunction);
    using trncore::detail::sci;
    if (b.nocc < 0 || b.nvir < 0 || b.naux < 0)
      throw trncore::InvalidArgument(
          kFunction,
          "nocc " + std::to_string(b.nocc) + ", nvir " + std::to_string(b.nvir) + ", naux " + std::to_string(b.naux),
          "pass non-negative sizes");
    const std::int64_t n = b.split == Mp2Split::occupied ? b.nocc : b.naux;
    if (b.begin < 0 || b.count < 0 || b.begin + b.count > n)
      throw trncore::DimensionMismatch(kFunction,
                                       "this rank's range [" + std::to_string(b.begin) + ", " +
                                           std::to_string(b.begin + b.count) + ") is outside [0, " + std::to_string(n) +
                                           ")",
                                       "give each rank a range of the split index");
    const std::int64_t want = b.split == Mp2Split::occupied ? b.count * b.nvir * b.naux : b.nocc * b.nvir * b.count;
    if (static_cast<std::int64_t>(b.local.size()) != want)
      throw trncore::DimensionMismatch(kFunction,
                                       "the local block has " + std::to_string(b.local.size()) +
                                           " values but its range needs " + std::to_string(want),
                                       "store the rank's block row-major as DistributedB documents");
    if (b.split == Mp2Split::auxiliary && b.count > 0 &&
        (b.begin % kQBlock != 0 || ((b.begin + b.count) % kQBlock != 0 && b.begin + b.count != b.naux)))
      throw trncore::InvalidArgument(
          kFunction,
          "the auxiliary range [" + std::to_string(b.begin) + ", " + std::to_string(b.begin + b.count) +
              ") is off the grid of " + std::to_string(kQBlock) + "-function blocks",
          "give each rank whole Q blocks (begin and end multiples of kQBlock, or end = naux)");
    if (static_cast<std::int64_t>(eo.size()) != b.nocc || static_cast<std::int64_t>(ev.size()) != b.nvir)
      throw trncore::DimensionMismatch(kFunction,
                                       std::to_string(eo.size()) + " occupied and " + std::to_string(ev.size()) +
                                           " virtual energies for nocc " + std::to_string(b.nocc) + ", nvir " +
                                           std::to_string(b.nvir),
                                       "pass every rank all nocc occupied and nvir virtual energies");
    for (const double x : b.local)
      if (!std::isfinite(x))
        throw trncore::InvalidArgument(kFunction, "the local block of B holds " + sci(x), "pass finite integrals");
    for (const double x : eo)
      if (!std::isfinite(x))
        throw trncore::InvalidArgument(kFunction, "eps_occ holds " + sci(x), "pass finite energies");
    for (const double x : ev)
      if (!std::isfinite(x))
        throw trncore::InvalidArgument(kFunction, "eps_vir holds " + sci(x), "pass finite energies");
    if (!eo.empty() && !ev.empty()) {
      const double homo = *std::max_element(eo.begin(), eo.end()), lumo = *std::min_element(ev.begin(), ev.end());
      if (!(homo < lumo))
        throw trncore::InvalidArgument(
            kFunction, "the highest occupied energy " + sci(homo) + " is not below the lowest virtual " + sci(lumo),
            "pass the orbital energies of a closed-shell reference");
    }
    if (options.backend == trncore::Backend::host) {
      if (options.math_mode != trncore::MathMode::automatic && options.math_mode != trncore::MathMode::fp64)
        throw trncore::NotSupported(kFunction,
                                    "math mode " + std::string(trncore::to_string(options.math_mode)) + " on the host",
                                    "use MathMode::automatic or fp64 on the host, ozaki on sim");
    } else if (options.math_mode != trncore::MathMode::ozaki && options.math_mode != trncore::MathMode::automatic) {
      throw trncore::NotSupported(kFunction,
                                  "math mode " + std::string(trncore::to_string(options.math_mode)) +
                                      " has no distributed DF-MP2 kernel on sim",
                                  "use MathMode::ozaki (or automatic, which means ozaki) on sim");
    }
  });
  check.finish();
}

}  // namespace

trnblas::Mp2Energy df_mp2_energy(const Communicator& comm, const DistributedB& b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options,
                                 DistributedMp2Report& report) {
  validate(comm, b, eps_occ, eps_vir, options);
  const std::int64_t nocc = b.nocc, nvir = b.nvir, naux = b.naux;
  const bool occ = b.split == Mp2Split::occupied;
  const auto ranges = trncore::mpi::gather_ranges(comm, kFunction, occ ? "occupied orbitals" : "auxiliary functions",
                                                  occ ? nocc : naux, Range{b.begin, b.count});
  const int p = comm.size(), me = comm.rank();
  const std::int64_t npairs = nocc * (nocc + 1) / 2;
  const double* eo = eps_occ.data();
  const double* ev = eps_vir.data();

  DistributedMp2Report rep;
  rep.ranks = p;
  rep.split = b.split;
  rep.pairs = npairs;
  rep.accuracy.target = options.target_forward_error;
  rep.accuracy.references = {"closed-shell DF-MP2: Weigend, Haeser, Chem. Phys. Lett. 294 (1998) 143",
                             "double-word arithmetic bounds: Joldes, Muller, Popescu, ACM TOMS 44(2) (2017) 15",
                             "bound and target: absolute error of E_corr in hartree"};
  const SingleThreadedBlas single_threaded;
  Products prod;
  prod.sim = options.backend == trncore::Backend::sim;
  prod.gemm_options = options;
  prod.gemm_options.target_forward_error.reset();
  if (prod.sim) {
    prod.gemm_options.math_mode = trncore::MathMode::ozaki;
    prod.gemm_options.target_forward_error = kSimProductTarget;
  }
  // The products' componentwise bound ε relative to |B||B|ᵀ, known before any product: host DGEMM γ_K;
  // sim every gemm must certify ≤ 2^-36 (else the result is reported uncertified); the auxiliary split adds
  // its Q-block partials in order (γ_{blocks−1} on (1 + ε)·|B||B|ᵀ).
  const std::int64_t nqblocks = (naux + kQBlock - 1) / kQBlock;
  const double eps_one =
      prod.sim ? kSimProductTarget : gamma(static_cast<double>(occ ? naux : std::min(naux, kQBlock)), kU64);
  const double ek =
      occ ? eps_one
          : eps_one + gamma(static_cast<double>(std::max<std::int64_t>(nqblocks - 1, 0)), kU64) * (1 + eps_one);
  std::int64_t sent = 0, largest = static_cast<std::int64_t>(b.local.size()) * 8, computed = 0;
  std::vector<double> records;

  if (nocc > 0 && nvir > 0 && naux > 0) {
    if (occ) {
      // Steps t = 0 … ⌊p/2⌋: at step t every rank r sends its own block, one occupied orbital (nvir × naux)
      // at a time, to rank r − t and receives rank v = r + t's likewise (mod p), so a rank holds its block and
      // one visiting orbital, never the whole B. Step 0 forms the pairs inside the own block; step t < p/2 all
      // pairs between blocks r and v; at t = p/2 (p even) both partners hold both blocks and share the pairs
      // by the parity of i + j. Each pair is formed by exactly one rank.
      const std::int64_t row = nvir * naux;
      const auto norms = [&](const double* blk, std::int64_t count) {
        std::vector<double> nu(static_cast<std::size_t>(count * nvir));
        for (std::int64_t r = 0; r < count * nvir; ++r) {
          const double* x = blk + r * naux;
          double s2 = 0;
          for (std::int64_t q = 0; q < naux; ++q) s2 += x[q] * x[q];
          nu[static_cast<std::size_t>(r)] = trnblas::detail::df_mp2_row_norm_bound(s2, naux);
        }
        return nu;
      };
      const std::vector<double> nu_mine = norms(b.local.data(), b.count);
      std::vector<double> tile(static_cast<std::size_t>(nvir * nvir));
      const auto form = [&](std::int64_t i, const double* bi, const double* nui, std::int64_t j, const double* bj,
                            const double* nuj) {
        prod.product(nvir, nvir, naux, bi, naux, bj, naux, tile.data(), nvir);
        pair_record(i, j, nocc, nvir, tile.data(), nvir, nui, nuj, eo, ev, ek, records);
        ++computed;
      };
      const Range& mine = ranges[static_cast<std::size_t>(me)];
      for (std::int64_t i = mine.begin; i < mine.begin + mine.count; ++i)
        for (std::int64_t j = i; j < mine.begin + mine.count; ++j)
          form(i, b.local.data() + (i - mine.begin) * row, nu_mine.data() + (i - mine.begin) * nvir, j,
               b.local.data() + (j - mine.begin) * row, nu_mine.data() + (j - mine.begin) * nvir);
      std::vector<double> visiting(static_cast<std::size_t>(row));
      for (int t = 1; 2 * t <= p; ++t) {
        const int v = (me + t) % p, u = (me - t + p) % p;
        const bool shared = 2 * t == p;  // both partners form this block pair, by parity
        const Range& theirs = ranges[static_cast<std::size_t>(v)];
        const std::int64_t steps = std::max(mine.count, theirs.count);
        for (std::int64_t k = 0; k < steps; ++k) {
          trncore::mpi::Request s;
          if (k < mine.count) {
            s = comm.isend(std::span<const double>(b.local.data() + k * row, static_cast<std::size_t>(row)), u,
                           1000 + t);
            sent += row * 8;
          }
          if (k < theirs.count) {
            comm.recv(std::span<double>(visiting), v, 1000 + t);
            const std::int64_t g = theirs.begin + k;  // the visiting orbital's global index
            const std::vector<double> nu_g = norms(visiting.data(), 1);
            for (std::int64_t m = mine.begin; m < mine.begin + mine.count; ++m) {
              const std::int64_t i = std::min(m, g), j = std::max(m, g);
              if (shared && (i + j) % 2 != (me < v ? 0 : 1)) continue;
              const double* bm = b.local.data() + (m - mine.begin) * row;
              const double* num = nu_mine.data() + (m - mine.begin) * nvir;
              if (m < g)
                form(i, bm, num, j, visiting.data(), nu_g.data());
              else
                form(i, visiting.data(), nu_g.data(), j, bm, num);
            }
          }
          s.wait();
        }
        largest = std::max<std::int64_t>(largest, static_cast<std::int64_t>((b.local.size() + visiting.size()) * 8));
      }
    } else {
      // This rank's global Q blocks and, per occupied row i, their partial products (ia|jb), j ≥ i, added in
      // ascending block order by ordered_sum; pair t of row i is then formed by rank t mod p.
      const std::int64_t w = b.count, rows = nocc * nvir;
      std::vector<std::int64_t> blocks;
      for (std::int64_t q = b.begin; q < b.begin + b.count; q += kQBlock) blocks.push_back(q / kQBlock);
      const auto width = [&](std::int64_t blk) { return std::min(kQBlock, naux - blk * kQBlock); };
      std::vector<double> s2p(blocks.size() * static_cast<std::size_t>(rows));
      for (std::size_t k = 0; k < blocks.size(); ++k) {
        const std::int64_t off = blocks[k] * kQBlock - b.begin;
        for (std::int64_t r = 0; r < rows; ++r) {
          const double* x = b.local.data() + r * w + off;
          double s = 0;
          for (std::int64_t q = 0; q < width(blocks[k]); ++q) s += x[q] * x[q];
          s2p[k * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r)] = s;
        }
      }
      sent += static_cast<std::int64_t>(s2p.size()) * 8;
      const std::vector<double> s2 = trncore::mpi::ordered_sum<double>(comm, blocks, s2p, rows);
      std::vector<double> nu(s2.size());
      for (std::size_t r = 0; r < s2.size(); ++r) nu[r] = trnblas::detail::df_mp2_row_norm_bound(s2[r], naux);
      for (std::int64_t i = 0; i < nocc; ++i) {
        const std::int64_t n = (nocc - i) * nvir, len = nvir * n;
        std::vector<double> partials(blocks.size() * static_cast<std::size_t>(len));
        for (std::size_t k = 0; k < blocks.size(); ++k) {
          const double* x = b.local.data() + (blocks[k] * kQBlock - b.begin) + i * nvir * w;
          prod.product(nvir, n, width(blocks[k]), x, w, x, w, partials.data() + k * static_cast<std::size_t>(len), n);
        }
        sent += static_cast<std::int64_t>(partials.size()) * 8;
        const std::vector<double> krow = trncore::mpi::ordered_sum<double>(comm, blocks, partials, len);
        largest = std::max<std::int64_t>(
            largest, static_cast<std::int64_t>((b.local.size() + partials.size() + krow.size()) * 8));
        for (std::int64_t j = i; j < nocc; ++j) {
          if (pair_index(i, j, nocc) % p != me) continue;
          pair_record(i, j, nocc, nvir, krow.data() + (j - i) * nvir, n, nu.data() + i * nvir, nu.data() + j * nvir, eo,
                      ev, ek, records);
          ++computed;
        }
      }
    }
  }
  sent += static_cast<std::int64_t>(records.size()) * 8;
  const std::vector<double> all = comm.allgatherv(std::span<const double>(records));
  const trnblas::detail::Mp2StageTotal c = combine(all, npairs, nvir);
  // Certification must agree on every rank.
  const bool certified = comm.all_of(prod.certified);
  std::string caveat = prod.caveat;
  {
    std::vector<char> mine(caveat.begin(), caveat.end());
    const std::vector<char> every = comm.allgatherv(std::span<const char>(mine));
    caveat.assign(every.begin(), every.end());
  }
  const std::int64_t sent_copy[] = {sent}, computed_copy[] = {computed};
  rep.bytes_per_rank = comm.allgatherv(std::span<const std::int64_t>(sent_copy));
  rep.pairs_per_rank = comm.allgatherv(std::span<const std::int64_t>(computed_copy));
  rep.largest_block_bytes = comm.allreduce_max(largest);

  auto& acc = rep.accuracy;
  acc.trajectory.push_back(
      {std::string("distribution: B split over ") +
       (occ ? "occupied orbitals; blocks exchanged one orbital at a time at distances 1 ... p/2 (one product per pair)"
            : "auxiliary functions in blocks of " + std::to_string(kQBlock) +
                  "; partial products added in global Q-block order (ordered_sum)") +
       ", " + std::to_string(p) + " ranks"});
  acc.trajectory.push_back({prod.sim ? "pair products: trnblas::gemm on the modelled TensorEngine, ozaki, each "
                                       "certified to 2^-36 componentwise"
                                     : "pair products: fp64 DGEMM (OpenBLAS) per occupied pair"});
  acc.trajectory.push_back(
      {"energy stage: fp64 terms, double-double sums per pair (host), pair records gathered and "
       "combined in global pair order"});
  if (nocc == 0 || nvir == 0 || naux == 0) {
    acc.certify(0.0);
  } else {
    acc.certify(c.bound);
    if (!certified)
      acc.uncertify(caveat.empty() ? "the pair products are not certified" : caveat);
    else if (!std::isfinite(c.bound))
      acc.uncertify("a denominator e_i + e_j - e_a - e_b is within the stage's rounding error of 0");
    else if (!std::isfinite(c.energy.correlation))
      acc.uncertify("the energy overflowed (inf or NaN from finite inputs)");
  }
  report = std::move(rep);
  return c.energy;
}

trnblas::Mp2Energy df_mp2_energy(const Communicator& comm, const DistributedB& b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options) {
  DistributedMp2Report report;
  const trnblas::Mp2Energy e = df_mp2_energy(comm, b, eps_occ, eps_vir, options, report);
  trncore::require_target_met(report.accuracy, kFunction);
  return e;
}

std::string DistributedMp2Report::to_string(const trnblas::Mp2Energy& energy) const {
  std::ostringstream o;
  o.precision(16);
  o << "distributed DF-MP2 (trntensor::mpi): E_corr = " << energy.correlation << " Ha (same-spin " << energy.same_spin
    << ", opposite-spin " << energy.opposite_spin << ")\n";
  o << "  certified bound " << accuracy.a_priori_bound << " Ha, certified " << (accuracy.certified ? "yes" : "no")
    << ", met " << (accuracy.met ? "yes" : "no") << "\n";
  o << "  " << ranks << " ranks, split over " << (split == Mp2Split::occupied ? "occupied orbitals" : "Q") << ", "
    << pairs << " pairs; per rank (pairs, bytes sent):";
  for (std::size_t r = 0; r < pairs_per_rank.size(); ++r)
    o << " [" << r << ": " << pairs_per_rank[r] << ", " << bytes_per_rank[r] << "]";
  o << "\n  largest B data held by one rank at once: " << largest_block_bytes << " bytes\n";
  for (const auto& t : accuracy.trajectory) o << "  " << t.description << "\n";
  return o.str();
}

namespace {

// The header of a .npy file: '<f8', C order, its shape and the data offset.
struct NpyHeader {
  std::vector<std::int64_t> shape;
  std::int64_t data_offset = 0;
};

NpyHeader read_header(const std::filesystem::path& path) {
  constexpr const char* kRead = "trntensor::mpi::read_distributed_b";
  std::ifstream f(path, std::ios::binary);
  if (!f) throw trncore::IoError(kRead, "cannot open " + path.string(), "check the fixture directory");
  char magic[8];
  f.read(magic, 8);
  if (!f || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    throw trncore::InvalidArgument(kRead, path.string() + " is not a .npy file", "pass B_iaQ.npy");
  std::int64_t hlen = 0, pre = 0;
  if (magic[6] == 1) {
    unsigned char l[2];
    f.read(reinterpret_cast<char*>(l), 2);
    hlen = l[0] | (l[1] << 8);
    pre = 10;
  } else {
    unsigned char l[4];
    f.read(reinterpret_cast<char*>(l), 4);
    hlen = static_cast<std::int64_t>(l[0]) | (static_cast<std::int64_t>(l[1]) << 8) |
           (static_cast<std::int64_t>(l[2]) << 16) | (static_cast<std::int64_t>(l[3]) << 24);
    pre = 12;
  }
  std::string h(static_cast<std::size_t>(hlen), ' ');
  f.read(h.data(), hlen);
  if (!f) throw trncore::IoError(kRead, "cannot read the header of " + path.string(), "check the file");
  if (h.find("'<f8'") == std::string::npos || h.find("'fortran_order': False") == std::string::npos)
    throw trncore::InvalidArgument(kRead, path.string() + " header " + h, "store B as little-endian float64, C order");
  NpyHeader r;
  const auto open = h.find('(', h.find("'shape'")), close = h.find(')', open);
  std::stringstream dims(h.substr(open + 1, close - open - 1));
  std::string d;
  while (std::getline(dims, d, ','))
    if (d.find_first_of("0123456789") != std::string::npos) r.shape.push_back(std::stoll(d));
  if (r.shape.size() != 3)
    throw trncore::InvalidArgument(kRead, path.string() + " has " + std::to_string(r.shape.size()) + " dimensions",
                                   "B must be (nocc, nvir, naux)");
  r.data_offset = pre + hlen;
  return r;
}

}  // namespace

DistributedB read_distributed_b(const Communicator& comm, const std::filesystem::path& b_npy, Mp2Split split) {
  constexpr const char* kRead = "trntensor::mpi::read_distributed_b";
  trncore::mpi::CollectiveCheck check(comm, kRead);
  NpyHeader h;
  check.capture([&] { h = read_header(b_npy); });
  check.finish();
  DistributedB b;
  b.split = split;
  b.nocc = h.shape[0];
  b.nvir = h.shape[1];
  b.naux = h.shape[2];
  const auto p = static_cast<std::int64_t>(comm.size()), r = static_cast<std::int64_t>(comm.rank());
  const std::int64_t units = split == Mp2Split::occupied ? b.nocc : (b.naux + kQBlock - 1) / kQBlock;
  const std::int64_t first = r * (units / p) + std::min(r, units % p), mine = units / p + (r < units % p ? 1 : 0);
  if (split == Mp2Split::occupied) {
    b.begin = first;
    b.count = mine;
  } else {
    b.begin = std::min(first * kQBlock, b.naux);
    b.count = std::min((first + mine) * kQBlock, b.naux) - b.begin;
  }
  std::ifstream f(b_npy, std::ios::binary);
  bool ok = static_cast<bool>(f);
  if (split == Mp2Split::occupied) {
    b.local.resize(static_cast<std::size_t>(b.count * b.nvir * b.naux));
    f.seekg(h.data_offset + b.begin * b.nvir * b.naux * 8);
    f.read(reinterpret_cast<char*>(b.local.data()), static_cast<std::streamsize>(b.local.size() * 8));
    ok = ok && static_cast<bool>(f);
  } else {
    b.local.resize(static_cast<std::size_t>(b.nocc * b.nvir * b.count));
    for (std::int64_t row = 0; row < b.nocc * b.nvir && ok && b.count > 0; ++row) {
      f.seekg(h.data_offset + (row * b.naux + b.begin) * 8);
      f.read(reinterpret_cast<char*>(b.local.data() + row * b.count), b.count * 8);
      ok = static_cast<bool>(f);
    }
  }
  trncore::mpi::CollectiveCheck read(comm, kRead);
  read.require(ok, ErrorKind::invalid_argument, "cannot read this rank's block of " + b_npy.string(),
               "check the file is complete");
  read.finish();
  return b;
}

trnblas::Mp2Energy df_mp2_energy_from_directory(const Communicator& comm, const std::filesystem::path& directory,
                                                Mp2Split split, const trncore::Options& options,
                                                DistributedMp2Report& report) {
  const DistributedB b = read_distributed_b(comm, directory / "B_iaQ.npy", split);
  std::vector<double> eo, ev;
  trncore::mpi::CollectiveCheck check(comm, "trntensor::mpi::df_mp2_energy_from_directory");
  check.capture([&] {
    eo = trncore::io::read_npy(directory / "eps_occ.npy").values;
    ev = trncore::io::read_npy(directory / "eps_vir.npy").values;
  });
  check.finish();
  return df_mp2_energy(comm, b, eo, ev, options, report);
}

}  // namespace trntensor::mpi
