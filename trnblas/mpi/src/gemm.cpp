// trnblas::mpi::gemm: SUMMA over a block-cyclic process grid. Every rank gathers, per K panel, the rows of
// op(A) and the columns of op(B) its C blocks need (an all-to-all per operand that also transposes and
// re-blocks), runs one local trnblas::gemm on them, and the per-rank certificates are composed into one report
// that every rank receives. Derivations of the bound and of the reproducibility contract: gemm.hpp and
// docs/distributed.md.
#include <trnblas/gemm.hpp>
#include <trnblas/mpi/gemm.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/mpi.hpp>
#include <trncore/philox.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/small_float.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace trnblas::mpi {

namespace {

namespace tm = trncore::mpi;
using tm::DistMatrix;
using tm::ErrorKind;
using tm::ProcessGrid;

constexpr const char* kFunction = "trnblas::mpi::gemm";

std::string str(std::int64_t v) { return std::to_string(v); }

// One distributed dimension: n indices in blocks of nb dealt over nprocs processes from src.
struct Dim {
  std::int64_t n = 0, nb = 1, src = 0, nprocs = 1;

  std::int64_t owner(std::int64_t g) const { return (g / nb + src) % nprocs; }
  // The local index of global index g on its owner.
  std::int64_t local(std::int64_t g) const { return (g / nb / nprocs) * nb + g % nb; }
  // The global indices process p owns, in local order (ascending).
  std::vector<std::int64_t> owned(std::int64_t p) const {
    std::vector<std::int64_t> out;
    out.reserve(static_cast<std::size_t>(tm::numroc(n, nb, p, src, nprocs)));
    const std::int64_t blocks = (n + nb - 1) / nb;
    for (std::int64_t blk = ((p - src) % nprocs + nprocs) % nprocs; blk < blocks; blk += nprocs)
      for (std::int64_t g = blk * nb; g < std::min(n, (blk + 1) * nb); ++g) out.push_back(g);
    return out;
  }
};

bool valid_op(Op op) { return op == Op::no_trans || op == Op::trans || op == Op::conj_trans; }

// ---------------------------------------------------------------------------------------------------------------
// The exchange. Operand role a: op(A) rows are matched to C's rows (dealt over process rows), its K index runs
// along the working panel's columns (W_A is m_loc × kw, column-major). Role b: op(B) columns are matched to C's
// columns (process columns), K along W_B's rows (kw × n_loc). The stored index that carries C's index is the
// stored row of A (no_trans) or its column (trans), the stored column of B (no_trans) or its row (trans).
enum class Role : std::uint8_t { a, b };

struct Exchange {
  Role role = Role::a;
  bool c_index_is_stored_row = true;
  Dim rows, cols;  // the stored operand's row and column distributions
  Dim cdim;        // C's distribution along the matched index
  std::int64_t classes = 1;
  std::int64_t c_stride = 1, k_stride = 1;  // position in the working panel: c_local·c_stride + (q − base)·k_stride

  int class_of_rank(int rank, const ProcessGrid& g) const {
    return role == Role::a ? rank / g.cols() : rank % g.cols();
  }
  int my_class(const ProcessGrid& g) const { return role == Role::a ? g.row() : g.col(); }
};

Exchange make_exchange(const ProcessGrid& grid, Role role, Op op, const tm::Descriptor& x, const tm::Descriptor& c) {
  Exchange e;
  e.role = role;
  e.c_index_is_stored_row = (role == Role::a) == (op == Op::no_trans);
  e.rows = Dim{x.m, x.mb, x.rsrc, grid.rows()};
  e.cols = Dim{x.n, x.nb, x.csrc, grid.cols()};
  e.cdim = role == Role::a ? Dim{c.m, c.mb, c.rsrc, grid.rows()} : Dim{c.n, c.nb, c.csrc, grid.cols()};
  e.classes = role == Role::a ? grid.rows() : grid.cols();
  return e;
}

// Indices (positions in `globals`) selected for class d: those owned by d in C's distribution (the C index) or
// those in [lo, hi) (the K index).
std::vector<std::int64_t> select(const std::vector<std::int64_t>& globals, bool c_index, const Dim& cdim,
                                 std::int64_t d, std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < globals.size(); ++i) {
    const std::int64_t g = globals[i];
    if (c_index ? cdim.owner(g) == d : (g >= lo && g < hi)) out.push_back(static_cast<std::int64_t>(i));
  }
  return out;
}

// Whether the selected positions form one run of consecutive values.
bool contiguous(const std::vector<std::int64_t>& v) {
  return !v.empty() && v.back() - v.front() == static_cast<std::int64_t>(v.size()) - 1;
}

// The working-panel offsets of the selected stored rows (or columns) of a source's operand.
std::vector<std::int64_t> offsets(const Exchange& e, const std::vector<std::int64_t>& globals,
                                  const std::vector<std::int64_t>& selected, bool c_index, std::int64_t base) {
  std::vector<std::int64_t> out(selected.size());
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const std::int64_t g = globals[static_cast<std::size_t>(selected[i])];
    out[i] = c_index ? e.cdim.local(g) * e.c_stride : (g - base) * e.k_stride;
  }
  return out;
}

// One source's part of a working panel: the selected stored rows and columns (positions in its local order)
// and their offsets in the panel.
struct Part {
  std::vector<std::int64_t> rows, cols, row_offsets, col_offsets;
  std::int64_t size() const { return static_cast<std::int64_t>(rows.size() * cols.size()); }
};

// An uninitialised array of n ≥ 0 values (every entry is written before it is read).
template <class T>
std::unique_ptr<T[]> uninitialised(std::int64_t n) {
  return std::unique_ptr<T[]>(new T[static_cast<std::size_t>(std::max<std::int64_t>(1, n))]);
}

// Fills the working panel's entries for K indices [lo, hi) (positions relative to `base`) from every rank's
// stored operand: this rank's own part by a direct copy, the others' by one MPI_Alltoallv whose counts both
// sides compute from the descriptors (no count exchange). Collective over the grid.
template <class T>
void fetch(const ProcessGrid& grid, const Exchange& e, const DistMatrix<const T>& x, std::int64_t lo, std::int64_t hi,
           std::int64_t base, T* work) {
  const auto& comm = grid.comm();
  const int me = comm.rank(), size = comm.size();
  const std::int64_t lld = x.desc.lld;
  const auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  // Sender: for each destination class the selected stored rows and columns; every rank of a class receives
  // the same block, packed column by column.
  const std::vector<std::int64_t> my_rows = e.rows.owned(grid.row()), my_cols = e.cols.owned(grid.col());
  std::vector<std::vector<std::int64_t>> sel_rows(at(e.classes)), sel_cols(at(e.classes));
  for (std::int64_t d = 0; d < e.classes; ++d) {
    sel_rows[at(d)] = select(my_rows, e.c_index_is_stored_row, e.cdim, d, lo, hi);
    sel_cols[at(d)] = select(my_cols, !e.c_index_is_stored_row, e.cdim, d, lo, hi);
  }
  // Receiver: the same selection made on each source's index lists.
  const std::int64_t mine = e.my_class(grid);
  std::vector<Part> parts(at(size));
  for (int s = 0; s < size; ++s) {
    Part& p = parts[at(s)];
    const bool self = s == me;
    const std::vector<std::int64_t> rows = self ? my_rows : e.rows.owned(s / grid.cols());
    const std::vector<std::int64_t> cols = self ? my_cols : e.cols.owned(s % grid.cols());
    p.rows = self ? sel_rows[at(mine)] : select(rows, e.c_index_is_stored_row, e.cdim, mine, lo, hi);
    p.cols = self ? sel_cols[at(mine)] : select(cols, !e.c_index_is_stored_row, e.cdim, mine, lo, hi);
    p.row_offsets = offsets(e, rows, p.rows, e.c_index_is_stored_row, base);
    p.col_offsets = offsets(e, cols, p.cols, !e.c_index_is_stored_row, base);
  }
  // Counts and displacements (each all-to-all carries at most 2^30 values per rank: see the slabs in run()).
  std::vector<int> scount(at(size), 0), sdispl(at(size), 0), rcount(at(size), 0), rdispl(at(size), 0);
  std::int64_t stotal = 0, rtotal = 0;
  for (int r = 0; r < size; ++r) {
    if (r == me) continue;
    const auto d = at(e.class_of_rank(r, grid));
    const auto sc = static_cast<std::int64_t>(sel_rows[d].size() * sel_cols[d].size());
    sdispl[at(r)] = static_cast<int>(stotal);
    scount[at(r)] = static_cast<int>(sc);
    stotal += sc;
    rdispl[at(r)] = static_cast<int>(rtotal);
    rcount[at(r)] = static_cast<int>(parts[at(r)].size());
    rtotal += parts[at(r)].size();
  }
  auto send = uninitialised<T>(stotal);
  T* to = send.get();
  for (int r = 0; r < size; ++r) {
    if (r == me) continue;
    const auto d = at(e.class_of_rank(r, grid));
    const auto& sr = sel_rows[d];
    const bool run = contiguous(sr);
    for (const std::int64_t jl : sel_cols[d]) {
      const T* column = x.data + jl * lld;
      if (run)
        to = std::copy(column + sr.front(), column + sr.front() + static_cast<std::int64_t>(sr.size()), to);
      else
        for (const std::int64_t il : sr) *to++ = column[il];
    }
  }
  auto recv = uninitialised<T>(rtotal);
  if (size > 1)
    tm::detail::check(MPI_Alltoallv(send.get(), scount.data(), sdispl.data(), tm::datatype<T>(), recv.get(),
                                    rcount.data(), rdispl.data(), tm::datatype<T>(), comm.native()),
                      "MPI_Alltoallv");
  send.reset();

  // Placement: the other ranks' parts from the receive buffer, this rank's own straight from its local array.
  for (int s = 0; s < size; ++s) {
    const Part& p = parts[at(s)];
    const bool run = contiguous(p.row_offsets);
    const auto len = static_cast<std::int64_t>(p.row_offsets.size());
    if (s == me) {
      const bool source_run = contiguous(p.rows);
      for (std::size_t j = 0; j < p.cols.size(); ++j) {
        const T* column = x.data + p.cols[j] * lld;
        T* dest = work + p.col_offsets[j];
        if (run && source_run)
          std::copy(column + p.rows.front(), column + p.rows.front() + len, dest + p.row_offsets.front());
        else
          for (std::size_t i = 0; i < p.rows.size(); ++i) dest[p.row_offsets[i]] = column[p.rows[i]];
      }
      continue;
    }
    const T* from = recv.get() + rdispl[at(s)];
    for (const std::int64_t co : p.col_offsets) {
      if (run)
        std::copy(from, from + len, work + co + p.row_offsets.front());
      else
        for (std::size_t i = 0; i < p.row_offsets.size(); ++i) work[co + p.row_offsets[i]] = from[i];
      from += len;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The sr mode. trnblas::gemm's sr stores each result element to bf16 with stochastic rounding, its random word
// keyed by the element's row-major index i·n + j in the call. Locally that index would be the local one, so the
// local calls run MathMode::bf16 (the same TensorEngine plan: sr's product is a bf16 single pass) and the store
// happens here with the GLOBAL index — for panel l at l·m·n + i·n + j, so panel 0 (and the default single panel)
// uses the serial call's words and later panels draw fresh ones.
constexpr double kSrStore = 0x1p-7;  // one bf16 ulp, relative (trnblas's sim_gemm)

template <class T>
bool left_normal_range(T exact, float rounded) {
  return exact != T(0) && std::isfinite(exact) && !(std::abs(rounded) >= std::numeric_limits<float>::min());
}

struct SrCounts {
  std::int64_t underflows = 0, overflows = 0;
};

template <class T>
SrCounts sr_store(const ProcessGrid& grid, const tm::Descriptor& cd, T* c, std::int64_t m_loc, std::int64_t n_loc,
                  std::int64_t panel, const trncore::Options& options) {
  const trncore::RandomBits bits{options.seed, options.stream};
  const auto base =
      static_cast<std::uint64_t>(panel) * static_cast<std::uint64_t>(cd.m) * static_cast<std::uint64_t>(cd.n);
  SrCounts counts;
  for (std::int64_t jl = 0; jl < n_loc; ++jl) {
    const std::int64_t jg = tm::local_to_global_col(jl, cd, grid);
    for (std::int64_t il = 0; il < m_loc; ++il) {
      const std::int64_t ig = tm::local_to_global_row(il, cd, grid);
      T& out = c[il + jl * cd.lld];
      const T value = out;
      const auto word = bits(base + static_cast<std::uint64_t>(ig * cd.n + jg));
      const T stored = static_cast<T>(
          trncore::bf16::from_double(static_cast<double>(value), trncore::RoundingMode::stochastic, word).to_double());
      counts.underflows += left_normal_range(value, static_cast<float>(stored));
      counts.overflows += std::isfinite(value) && !std::isfinite(stored);
      out = stored;
    }
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------------------------
// The report. Each rank composes its local calls: with ε_l the bound call l certifies (relative to |α||A_l||B_l| +
// |β_l||Ĉ_{l−1}|, β_1 = β, β_l = 1 after), |Ĉ_L − C| ≤ δ_L·(|α||A||B| + |β||C|) with δ_l = δ_{l−1} + ε_l(1 + δ_{l−1})
// (induction: |Ĉ_{l−1}| ≤ (1 + δ_{l−1})M_{l−1} and M_{l−1} + |α||A_l||B_l| = M_l). Evaluated rounding upward.
double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

struct Summary {
  bool work = false;  // this rank made local calls
  double delta = 0.0;
  bool certified = true;
  std::string reason;
  std::int64_t reason_panel = -1;
  std::vector<std::string> steps, references;
  bool has_cost = false;
  trncore::sim::EngineStats stats;
  // An unexpected exception from a local call (after validation): reported on every rank at the end.
  bool failed = false;
  int failure_kind = 0;  // 0 Error, 1 InvalidArgument, 2 DimensionMismatch, 3 NotSupported, 4 ResourceExhausted
  std::string failure;

  void add_unique(std::vector<std::string>& list, const std::string& s) {
    if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
  }
  void add(const trncore::AccuracyReport& r, std::int64_t panel, std::int64_t calls) {
    const double eps = r.a_priori_bound;
    delta = calls == 0 ? eps : up(delta + up(eps * up(1.0 + delta)));
    if (!r.certified && certified) {
      certified = false;
      reason = r.uncertified_reason;
      reason_panel = panel;
    }
    for (const auto& s : r.trajectory) add_unique(steps, s.description);
    for (const auto& s : r.references) add_unique(references, s);
    if (r.cost) {
      has_cost = true;
      stats += r.cost->stats;
    }
  }
};

constexpr std::size_t kNumbers = 8 + 4 * trncore::sim::kEngineCount;
constexpr char kField = '\x1e', kItem = '\x1f';

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? std::string(1, kItem) : std::string()) + items[i];
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return out;
}

std::string rank_list(const std::vector<int>& ranks) {
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

[[noreturn]] void throw_kind(int kind, const std::string& problem) {
  const std::string hint = "see the message of the local trnblas::gemm call above";
  switch (kind) {
    case 1: throw trncore::InvalidArgument(kFunction, problem, hint);
    case 2: throw trncore::DimensionMismatch(kFunction, problem, hint);
    case 3: throw trncore::NotSupported(kFunction, problem, hint);
    case 4: throw trncore::ResourceExhausted(kFunction, problem, hint);
    default: throw trncore::Error(kFunction, problem, hint);
  }
}

struct Plan {
  std::int64_t m = 0, n = 0, k = 0, kb = 0, panels = 0;
  bool stochastic = false;
};

// Every rank's summary to every rank, and the one report built from them (the same bytes everywhere).
trncore::AccuracyReport compose(const ProcessGrid& grid, const Summary& mine, const Plan& plan,
                                const GemmOptions& options) {
  std::vector<double> numbers(kNumbers, 0.0);
  numbers[0] = mine.work ? 1.0 : 0.0;
  numbers[1] = mine.delta;
  numbers[2] = mine.certified ? 1.0 : 0.0;
  numbers[3] = static_cast<double>(mine.reason_panel);
  numbers[4] = mine.has_cost ? 1.0 : 0.0;
  numbers[5] = mine.failed ? 1.0 : 0.0;
  numbers[6] = static_cast<double>(mine.failure_kind);
  for (int e = 0; e < trncore::sim::kEngineCount; ++e) {
    const auto& ec = mine.stats.engines[static_cast<std::size_t>(e)];
    numbers[8 + 4 * e] = static_cast<double>(ec.instructions);
    numbers[9 + 4 * e] = static_cast<double>(ec.elements);
    numbers[10 + 4 * e] = static_cast<double>(ec.bytes);
    numbers[11 + 4 * e] = ec.cycles;
  }
  const std::string text =
      (mine.failed ? mine.failure : mine.reason) + kField + join(mine.steps) + kField + join(mine.references);
  numbers[7] = static_cast<double>(text.size());
  const auto& comm = grid.comm();
  const std::vector<double> all = comm.allgatherv(std::span<const double>(numbers));
  const std::vector<char> chars = comm.allgatherv(std::span<const char>(text.data(), text.size()));

  const int size = comm.size();
  std::vector<std::vector<std::string>> fields(static_cast<std::size_t>(size));
  std::size_t at = 0;
  for (int r = 0; r < size; ++r) {
    const auto len = static_cast<std::size_t>(all[static_cast<std::size_t>(r) * kNumbers + 7]);
    fields[static_cast<std::size_t>(r)] = split(std::string(chars.data() + at, len), kField);
    at += len;
  }
  const auto num = [&](int r, std::size_t i) { return all[static_cast<std::size_t>(r) * kNumbers + i]; };

  for (int r = 0; r < size; ++r)
    if (num(r, 5) != 0.0)
      throw_kind(static_cast<int>(num(r, 6)), "on rank " + std::to_string(r) + ", the local trnblas::gemm failed: " +
                                                  fields[static_cast<std::size_t>(r)][0]);

  trncore::AccuracyReport report;
  report.target = options.target_forward_error;
  const bool sim = options.backend == trncore::Backend::sim;
  report.trajectory.push_back(
      {"SUMMA on a " + str(grid.rows()) + "x" + str(grid.cols()) + " grid: " +
       (plan.panels == 0
            ? std::string("no product (k = 0 or alpha = 0), C = beta*C by one local trnblas::gemm per rank")
            : "the rows of op(A) and columns of op(B) each rank's C blocks need gathered by all-to-all, K = " +
                  str(plan.k) + " in " + str(plan.panels) + " panel(s) of " + str(plan.kb) +
                  ", one local trnblas::gemm per panel") +
       " (" + (sim ? "sim" : "host") + " backend" +
       (plan.stochastic ? ", sr: bf16 products, stochastic store keyed by the global index" : "") + ")"});
  // The local steps, in order of first appearance over ranks, with the ranks that ran them when not all did.
  std::vector<int> working;
  for (int r = 0; r < size; ++r)
    if (num(r, 0) != 0.0) working.push_back(r);
  std::vector<std::string> steps;
  std::vector<std::vector<int>> step_ranks;
  for (const int r : working)
    for (const auto& s : split(fields[static_cast<std::size_t>(r)][1], kItem)) {
      if (s.empty()) continue;
      const auto it = std::find(steps.begin(), steps.end(), s);
      if (it == steps.end()) {
        steps.push_back(s);
        step_ranks.push_back({r});
      } else {
        step_ranks[static_cast<std::size_t>(it - steps.begin())].push_back(r);
      }
    }
  for (std::size_t i = 0; i < steps.size(); ++i)
    report.trajectory.push_back(
        {step_ranks[i].size() == working.size() ? steps[i] : rank_list(step_ranks[i]) + ": " + steps[i]});
  for (const int r : working)
    for (const auto& s : split(fields[static_cast<std::size_t>(r)][2], kItem))
      if (!s.empty() && std::find(report.references.begin(), report.references.end(), s) == report.references.end())
        report.references.push_back(s);
  if (plan.panels > 1)
    report.references.push_back(
        "K panels composed: 1 + bound = prod over panels of (1 + local bound), rounded upward (docs/distributed.md)");

  double bound = 0.0;
  int first_failing = -1;
  std::vector<int> failing;
  for (const int r : working) {
    bound = std::max(bound, num(r, 1));
    if (num(r, 2) == 0.0) {
      if (first_failing < 0) first_failing = r;
      failing.push_back(r);
    }
  }
  // Cost: the busiest rank's modelled NeuronCore (the ranks run in parallel).
  double busiest = -1.0;
  for (const int r : working) {
    if (num(r, 4) == 0.0) continue;
    trncore::sim::EngineStats stats;
    for (int e = 0; e < trncore::sim::kEngineCount; ++e) {
      auto& ec = stats.engines[static_cast<std::size_t>(e)];
      ec.instructions = static_cast<std::int64_t>(num(r, static_cast<std::size_t>(8 + 4 * e)));
      ec.elements = static_cast<std::int64_t>(num(r, static_cast<std::size_t>(9 + 4 * e)));
      ec.bytes = static_cast<std::int64_t>(num(r, static_cast<std::size_t>(10 + 4 * e)));
      ec.cycles = num(r, static_cast<std::size_t>(11 + 4 * e));
    }
    auto cost = trncore::sim::estimate_cost(stats, options.generation);
    if (cost.upper_bound_seconds > busiest) {
      busiest = cost.upper_bound_seconds;
      report.cost = cost;
    }
  }
  report.certify(bound);
  if (first_failing >= 0) {
    std::string reason = "on rank " + std::to_string(first_failing) + ", K panel " +
                         str(static_cast<std::int64_t>(num(first_failing, 3)) + 1) + " of " + str(plan.panels) + ": " +
                         fields[static_cast<std::size_t>(first_failing)][0];
    if (failing.size() > 1) {
      failing.erase(failing.begin());
      reason += " (also not certified on " + rank_list(failing) + ")";
    }
    report.trajectory.push_back({"bound not certified: " + reason});
    report.uncertify(reason);
  }
  return report;
}

// ---------------------------------------------------------------------------------------------------------------
// Validation: one CollectiveCheck before any other communication.
template <class T>
std::int64_t scalar_bits(T v) {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<std::int32_t>(v);
  else
    return std::bit_cast<std::int64_t>(v);
}

struct Region {
  const char* begin = nullptr;
  const char* end = nullptr;
};

template <class T>
Region region(const ProcessGrid& grid, const tm::Descriptor& d, const T* data) {
  const std::int64_t rows = tm::local_rows(d, grid), cols = tm::local_cols(d, grid);
  if (rows == 0 || cols == 0 || data == nullptr) return {};
  const auto* p = reinterpret_cast<const char*>(data);
  return {p, p + ((cols - 1) * d.lld + rows) * static_cast<std::int64_t>(sizeof(T))};
}

bool overlap(const Region& x, const Region& y) {
  return x.begin != nullptr && y.begin != nullptr && x.begin < y.end && y.begin < x.end;
}

template <class T>
void validate(const ProcessGrid& grid, Op transa, Op transb, T alpha, const DistMatrix<const T>& a,
              const DistMatrix<const T>& b, T beta, const DistMatrix<T>& c, const GemmOptions& options) {
  tm::CollectiveCheck check(grid.comm(), kFunction);
  const bool ops = valid_op(transa) && valid_op(transb);
  check.require(valid_op(transa), ErrorKind::invalid_argument,
                "transa has the invalid value " + std::to_string(static_cast<int>(transa)),
                "pass Op::no_trans, Op::trans or Op::conj_trans");
  check.require(valid_op(transb), ErrorKind::invalid_argument,
                "transb has the invalid value " + std::to_string(static_cast<int>(transb)),
                "pass Op::no_trans, Op::trans or Op::conj_trans");
  check.same("transa", static_cast<std::int64_t>(transa)).same("transb", static_cast<std::int64_t>(transb));
  tm::check_descriptor(check, grid, a.desc, "a");
  tm::check_descriptor(check, grid, b.desc, "b");
  tm::check_descriptor(check, grid, c.desc, "c");
  check.same("alpha (bits)", scalar_bits(alpha)).same("beta (bits)", scalar_bits(beta));
  check.same("options.backend", static_cast<std::int64_t>(options.backend))
      .same("options.math_mode", static_cast<std::int64_t>(options.math_mode))
      .same("options.target_forward_error (bits, -1 = none)",
            options.target_forward_error ? std::bit_cast<std::int64_t>(*options.target_forward_error) : -1)
      .same("options.generation", static_cast<std::int64_t>(options.generation))
      .same("options.product (-1 = default)", options.product ? static_cast<std::int64_t>(*options.product) : -1)
      .same("options.seed", static_cast<std::int64_t>(options.seed))
      .same("options.stream", static_cast<std::int64_t>(options.stream))
      .same("options.panel", options.panel);
  check.capture([&] { trncore::validate(options, kFunction); });
  check.require(options.panel >= 0, ErrorKind::invalid_argument,
                "options.panel = " + str(options.panel) + " is negative",
                "pass a K panel width >= 1, or 0 for the whole K");
  constexpr bool is_double = std::is_same_v<T, double>;
  const auto mode = options.math_mode;
  const std::string mode_name(trncore::to_string(mode));
  if (options.backend == trncore::Backend::sim) {
    check.require(mode != trncore::MathMode::fp64, ErrorKind::not_supported,
                  "math mode fp64 has no TensorEngine algorithm on the sim backend",
                  "use MathMode::ozaki for fp64-accurate results on sim, or Backend::host");
  } else {
    const bool ok = mode == trncore::MathMode::automatic || (mode == trncore::MathMode::fp64 && is_double) ||
                    (mode == trncore::MathMode::fp32 && !is_double);
    check.require(
        ok, ErrorKind::not_supported,
        "math mode " + mode_name + " is not a host mode for " + (is_double ? "double" : "single") + "-precision data",
        "use Backend::sim for reduced-precision modes, or MathMode::automatic");
  }
  if (ops) {
    const bool ta = transa != Op::no_trans, tb = transb != Op::no_trans;
    const std::int64_t am = ta ? a.desc.n : a.desc.m, ak = ta ? a.desc.m : a.desc.n;
    const std::int64_t bk = tb ? b.desc.n : b.desc.m, bn = tb ? b.desc.m : b.desc.n;
    check.require(ak == bk && am == c.desc.m && bn == c.desc.n, ErrorKind::dimension_mismatch,
                  "op(A) is " + str(am) + "x" + str(ak) + " (transa = " + std::string(to_string(transa)) +
                      "), op(B) is " + str(bk) + "x" + str(bn) + " (transb = " + std::string(to_string(transb)) +
                      "), C is " + str(c.desc.m) + "x" + str(c.desc.n),
                  "pass conforming shapes: op(A) m x k, op(B) k x n, C m x n");
  }
  // Local arrays (only when this rank's descriptors are usable: check_descriptor recorded nothing here).
  if (!check.failed_locally()) {
    const auto elements = [&](const tm::Descriptor& d) { return tm::local_rows(d, grid) * tm::local_cols(d, grid); };
    const auto null_check = [&](const void* p, const tm::Descriptor& d, const char* name) {
      check.require(p != nullptr || elements(d) == 0, ErrorKind::invalid_argument,
                    std::string(name) + "'s local array is null but holds " + str(elements(d)) + " elements",
                    "pass the local array of the distributed matrix");
    };
    null_check(a.data, a.desc, "a");
    null_check(b.data, b.desc, "b");
    null_check(c.data, c.desc, "c");
    const Region rc = region(grid, c.desc, static_cast<const T*>(c.data));
    check.require(!overlap(rc, region(grid, a.desc, a.data)), ErrorKind::invalid_argument,
                  "C's local array overlaps A's", "pass C in storage of its own (it is written while A is read)");
    check.require(!overlap(rc, region(grid, b.desc, b.data)), ErrorKind::invalid_argument,
                  "C's local array overlaps B's", "pass C in storage of its own (it is written while B is read)");
    if (options.backend != trncore::Backend::sim && ops) {
      const std::int64_t k = transa != Op::no_trans ? a.desc.m : a.desc.n;
      const std::int64_t limit = std::numeric_limits<std::int32_t>::max();
      const std::int64_t m_loc = tm::local_rows(c.desc, grid), n_loc = tm::local_cols(c.desc, grid);
      check.require(m_loc <= limit && n_loc <= limit && k <= limit && c.desc.lld <= limit, ErrorKind::not_supported,
                    "local sizes m = " + str(m_loc) + ", n = " + str(n_loc) + ", k = " + str(k) +
                        ", lld = " + str(c.desc.lld) + " exceed OpenBLAS's 32-bit integers",
                    "use more ranks (smaller local parts) or Backend::sim");
    }
  }
  check.finish();
}

int failure_kind(const trncore::Error& e) {
  if (dynamic_cast<const trncore::InvalidArgument*>(&e)) return 1;
  if (dynamic_cast<const trncore::DimensionMismatch*>(&e)) return 2;
  if (dynamic_cast<const trncore::NotSupported*>(&e)) return 3;
  if (dynamic_cast<const trncore::ResourceExhausted*>(&e)) return 4;
  return 0;
}

template <class T>
void run(const ProcessGrid& grid, Op transa, Op transb, T alpha, DistMatrix<const T> a, DistMatrix<const T> b, T beta,
         DistMatrix<T> c, const GemmOptions& options, trncore::AccuracyReport* out) {
  validate(grid, transa, transb, alpha, a, b, beta, c, options);
  const trncore::Options& base = options;
  const tm::Descriptor& cd = c.desc;
  Plan plan;
  plan.m = cd.m;
  plan.n = cd.n;
  plan.k = transa != Op::no_trans ? a.desc.m : a.desc.n;
  trncore::AccuracyReport report;

  const bool one_panel = options.panel == 0 || options.panel >= plan.k;
  if (plan.m == 0 || plan.n == 0 || (grid.rows() == 1 && grid.cols() == 1 && one_panel)) {
    // Nothing to distribute: trnblas::gemm itself (on a 1x1 grid the local arrays are the matrices; an empty C
    // gives every rank the serial call's report for this shape without touching any array).
    const bool empty = plan.m == 0 || plan.n == 0;
    trnblas::gemm<T>(Layout::col_major, transa, transb, plan.m, plan.n, plan.k, alpha, empty ? nullptr : a.data,
                     empty ? 1 : a.desc.lld, empty ? nullptr : b.data, empty ? 1 : b.desc.lld, beta,
                     empty ? nullptr : c.data, empty ? 1 : cd.lld, base, report);
  } else {
    const std::int64_t m_loc = tm::local_rows(cd, grid), n_loc = tm::local_cols(cd, grid);
    const bool no_product = plan.k == 0 || alpha == T(0);
    plan.kb = no_product ? 0 : one_panel ? plan.k : options.panel;
    plan.panels = no_product ? 0 : (plan.k + plan.kb - 1) / plan.kb;
    plan.stochastic = options.backend == trncore::Backend::sim && options.math_mode == trncore::MathMode::sr;
    trncore::Options local = base;
    if (plan.stochastic) local.math_mode = trncore::MathMode::bf16;
    if (local.target_forward_error && plan.panels > 1) {
      // (1 + t_l)^L ≤ 1 + t, with t_l rounded down.
      double t = std::expm1(std::log1p(*local.target_forward_error) / static_cast<double>(plan.panels));
      t = std::nextafter(std::nextafter(t * (1 - 0x1p-40), 0.0), 0.0);
      local.target_forward_error = t;
    }
    // Slabs: at most 2^30 values per all-to-all on any rank (sends are at most size × the largest receive).
    const std::int64_t c_rows_max = tm::numroc(cd.m, cd.mb, cd.rsrc, cd.rsrc, grid.rows());
    const std::int64_t c_cols_max = tm::numroc(cd.n, cd.nb, cd.csrc, cd.csrc, grid.cols());
    const std::int64_t widest = std::max<std::int64_t>({c_rows_max, c_cols_max, 1}) * grid.comm().size();
    const std::int64_t slab = std::max<std::int64_t>(1, (std::int64_t{1} << 30) / widest);

    Exchange ea = make_exchange(grid, Role::a, transa, a.desc, cd);
    Exchange eb = make_exchange(grid, Role::b, transb, b.desc, cd);
    // In place: when an operand's local array already is its working panel — op = no_trans, the whole K on
    // every rank (one process column for A, one process row for B) and the C index dealt like C's — the local
    // gemm reads it directly (same values in the same order, so the same result; no copy, no exchange).
    const bool a_in_place = transa == Op::no_trans && grid.cols() == 1 && a.desc.mb == cd.mb && a.desc.rsrc == cd.rsrc;
    const bool b_in_place = transb == Op::no_trans && grid.rows() == 1 && b.desc.nb == cd.nb && b.desc.csrc == cd.csrc;
    const std::int64_t lda = a_in_place ? a.desc.lld : std::max<std::int64_t>(1, m_loc);
    // Working panels (every entry is written by fetch before it is read; no zero fill).
    const std::unique_ptr<T[]> wa(
        new T[static_cast<std::size_t>(a_in_place ? 1 : std::max<std::int64_t>(1, lda * plan.kb))]);
    const std::unique_ptr<T[]> wb(
        new T[static_cast<std::size_t>(b_in_place ? 1 : std::max<std::int64_t>(1, plan.kb * n_loc))]);
    const T* pa = wa.get();
    const T* pb = wb.get();
    std::int64_t ldb = 1;
    Summary summary;
    summary.work = m_loc > 0 && n_loc > 0;
    std::int64_t calls = 0;
    const auto local_call = [&](std::int64_t panel, std::int64_t kw, T beta_l) {
      if (!summary.work || summary.failed) return;
      try {
        trncore::AccuracyReport r;
        const T zero[1] = {T(0)};
        trnblas::gemm<T>(Layout::col_major, Op::no_trans, Op::no_trans, m_loc, n_loc, kw, alpha, kw == 0 ? zero : pa,
                         lda, kw == 0 ? zero : pb, ldb, beta_l, c.data, cd.lld, local, r);
        if (plan.stochastic) {
          const SrCounts sr = sr_store(grid, cd, c.data, m_loc, n_loc, panel, base);
          const double b0 = r.a_priori_bound;
          const bool was_certified = r.certified;
          std::string reason = r.uncertified_reason;
          const auto add = [&](const std::string& what) { reason += (reason.empty() ? "" : "; ") + what; };
          if (sr.underflows > 0)
            add(str(sr.underflows) +
                " value(s) fall below bf16's normal range in the stochastic store, where the "
                "relative rounding bound does not hold");
          if (sr.overflows > 0 && reason.empty())
            add(str(sr.overflows) + " result entries overflow bf16's range in the stochastic store");
          r.certify(b0 + kSrStore * (1 + b0));
          // The step that produced the result: the last one before any "bound not certified" note.
          for (auto it = r.trajectory.rbegin(); it != r.trajectory.rend(); ++it)
            if (it->description.rfind("bound not certified", 0) != 0) {
              it->description += ", result stored to bf16 with stochastic rounding";
              break;
            }
          if (!was_certified || !reason.empty()) r.uncertify(reason);
        }
        summary.add(r, panel, calls++);
      } catch (const trncore::Error& e) {
        summary.failed = true;
        summary.failure_kind = failure_kind(e);
        summary.failure = e.what();
      }
    };
    if (plan.panels == 0) {
      local_call(0, 0, beta);
    } else {
      ea.c_stride = 1;
      ea.k_stride = lda;
      for (std::int64_t l = 0; l < plan.panels; ++l) {
        const std::int64_t q0 = l * plan.kb, q1 = std::min(plan.k, q0 + plan.kb), kw = q1 - q0;
        eb.c_stride = std::max<std::int64_t>(1, kw);
        eb.k_stride = 1;
        for (std::int64_t s0 = q0; s0 < q1; s0 += slab) {
          const std::int64_t s1 = std::min(q1, s0 + slab);
          if (!a_in_place) fetch(grid, ea, a, s0, s1, q0, wa.get());
          if (!b_in_place) fetch(grid, eb, b, s0, s1, q0, wb.get());
        }
        // The panel's first column of A (row of B) in place: global K index q0 is local index q0 there.
        pa = a_in_place ? a.data + q0 * a.desc.lld : wa.get();
        pb = b_in_place ? b.data + q0 : wb.get();
        ldb = b_in_place ? b.desc.lld : std::max<std::int64_t>(1, kw);
        local_call(l, kw, l == 0 ? beta : T(1));
      }
    }
    report = compose(grid, summary, plan, options);
  }
  if (out != nullptr)
    *out = std::move(report);
  else
    trncore::require_target_met(report, kFunction);
}

}  // namespace

void gemm(const ProcessGrid& grid, Op transa, Op transb, float alpha, DistMatrix<const float> a,
          DistMatrix<const float> b, float beta, DistMatrix<float> c, const GemmOptions& options) {
  run<float>(grid, transa, transb, alpha, a, b, beta, c, options, nullptr);
}

void gemm(const ProcessGrid& grid, Op transa, Op transb, double alpha, DistMatrix<const double> a,
          DistMatrix<const double> b, double beta, DistMatrix<double> c, const GemmOptions& options) {
  run<double>(grid, transa, transb, alpha, a, b, beta, c, options, nullptr);
}

void gemm(const ProcessGrid& grid, Op transa, Op transb, float alpha, DistMatrix<const float> a,
          DistMatrix<const float> b, float beta, DistMatrix<float> c, const GemmOptions& options,
          trncore::AccuracyReport& report) {
  run<float>(grid, transa, transb, alpha, a, b, beta, c, options, &report);
}

void gemm(const ProcessGrid& grid, Op transa, Op transb, double alpha, DistMatrix<const double> a,
          DistMatrix<const double> b, double beta, DistMatrix<double> c, const GemmOptions& options,
          trncore::AccuracyReport& report) {
  run<double>(grid, transa, transb, alpha, a, b, beta, c, options, &report);
}

}  // namespace trnblas::mpi
