#pragma once
/// @file
/// The closed-shell DF-MP2 correlation energy with the fitted tensor B[i][a][Q] distributed over MPI ranks:
/// each rank holds only its block, split over occupied orbitals (i) or over auxiliary functions (Q); no
/// rank ever holds the whole B or the whole set of pair products. Same formulas as trnblas::df_mp2_energy
/// (docs/trnblas.md, "DF-MP2"); the energy is bitwise the same on every rank and for every rank count.

#include <trncore/accuracy_report.hpp>
#include <trncore/mpi.hpp>
#include <trncore/options.hpp>

#include <trnblas/df_mp2.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace trntensor::mpi {

/// Which index of B[i][a][Q] the ranks split.
enum class Mp2Split : std::uint8_t {
  /// Occupied orbitals: rank r holds B[i0:i1][:][:]; at steps t = 1 … ⌊p/2⌋ every rank sends its block, one
  /// occupied orbital at a time, to rank r − t and forms the pairs with the orbitals of rank r + t (so a rank
  /// holds its block plus one orbital); each pair (i ≤ j) is formed on exactly one rank.
  occupied,
  /// Auxiliary functions: rank r holds B[:][:][q0:q1]; each rank forms the partial products of its Q
  /// blocks of kQBlock functions and the partials are added in ascending global Q-block order
  /// (trncore::mpi::ordered_sum, one occupied row i at a time), then the pairs are shared out.
  auxiliary,
};

/// The fixed width of the global Q blocks of the auxiliary split: ranks must own whole blocks (the last
/// block may be short), which is what makes the products independent of the rank count.
inline constexpr std::int64_t kQBlock = 64;

/// One rank's part of B. occupied: `local` = B[begin:begin+count][:][:] (count·nvir·naux doubles, row-major);
/// auxiliary: `local` = B[:][:][begin:begin+count] (nocc·nvir·count doubles, row-major, Q fastest).
struct DistributedB {
  Mp2Split split = Mp2Split::occupied;  ///< the split index
  std::int64_t nocc = 0;                ///< global occupied orbitals
  std::int64_t nvir = 0;                ///< global virtual orbitals
  std::int64_t naux = 0;                ///< global auxiliary functions
  std::int64_t begin = 0;               ///< the first global index of the split index this rank holds
  std::int64_t count = 0;               ///< how many (0 allowed)
  std::vector<double> local;            ///< this rank's block (see above)
};

/// What the distributed energy did, identical on every rank.
struct DistributedMp2Report {
  trncore::AccuracyReport accuracy;          ///< the certified bound in hartree, the methods, met
  int ranks = 0;                             ///< communicator size
  Mp2Split split = Mp2Split::occupied;       ///< the split used
  std::int64_t pairs = 0;                    ///< occupied pairs i ≤ j
  std::vector<std::int64_t> pairs_per_rank;  ///< how many pairs each rank computed
  std::vector<std::int64_t> bytes_per_rank;  ///< bytes each rank sent (B blocks, partial products, records)
  std::int64_t largest_block_bytes = 0;      ///< the largest B block any rank held at one time
  /// A readable summary (energies, bound, split, pairs and bytes per rank).
  std::string to_string(const trnblas::Mp2Energy& energy) const;
};

/// Reads this rank's block of B straight from a fixture's B_iaQ.npy (little-endian float64, C order,
/// shape (nocc, nvir, naux)): only the rank's rows (occupied) or its Q columns (auxiliary) are read, never
/// the whole file into memory. The split gives rank r an even share: occupied orbitals n/P (the first
/// n % P ranks one more), or whole Q blocks of kQBlock likewise.
/// Collective (the shape is read on every rank and checked to agree).
/// @throws trncore::InvalidArgument on every rank (via trncore::mpi::CollectiveCheck, which reports the
///         reading rank's IoError as InvalidArgument with its message) for a file that cannot be opened or
///         read, or a header other than '<f8', C order, 3-d.
DistributedB read_distributed_b(const trncore::mpi::Communicator& comm, const std::filesystem::path& b_npy,
                                Mp2Split split);

/// The DF-MP2 correlation energy of a B distributed over comm's ranks.
///
/// @param comm     the ranks (every rank calls, with its own block in `b`)
/// @param b        this rank's block; nocc, nvir, naux and split must agree on every rank, and the ranges
///                 must tile the split index (any order of ranks, empty ones allowed); for the auxiliary
///                 split every range must start on a multiple of kQBlock (and end on one, or at naux)
/// @param eps_occ  all nocc occupied energies (the same on every rank)
/// @param eps_vir  all nvir virtual energies, each above every occupied one (the same on every rank)
/// @param options  backend host (fp64 pair products by OpenBLAS DGEMM, one per occupied pair); or backend
///                 sim with math_mode ozaki (the pair products by trnblas::gemm on the modelled TensorEngine,
///                 Ozaki slicing to 2^-36 componentwise); the energy stage is host double-double in both
/// @param report   filled identically on every rank
/// @returns the energies, bitwise identical on every rank.
///
/// Reproducibility: each pair (i, j) is one product of fixed shape (OpenBLAS held single-threaded for the
/// call, its count restored after: its bits depend on its thread count) and one fixed-order energy sum, and
/// the pair sums are combined in ascending global pair order on every rank (the records are gathered, then
/// added as trnblas::df_mp2_energy adds them), so the energy, the bound and the records are bitwise the same
/// for every rank count, range layout and CPU binding (for one OpenBLAS build; tested). The occupied split
/// on host equals trnblas::df_mp2_energy (one process, OpenBLAS single-threaded) bitwise: OpenBLAS gives a
/// pair tile the values it has in the panel (tested on this build). The auxiliary split adds Q-block partial products in
/// global block order: bitwise the same for every rank count, within the bound of the one-process energy.
/// Accuracy: the bound of trnblas::df_mp2_energy's host stage (hartree), with the products' componentwise ε
/// (host γ_naux; sim the gemm report's bound). Measured against psi4 (tests): see docs/distributed.md.
/// @throws on every rank (never a hang): trncore::DimensionMismatch when sizes disagree across ranks, the
///         ranges do not tile, a block's size is not its range's, or the energies' lengths differ;
///         trncore::InvalidArgument for non-finite inputs, an occupied energy ≥ a virtual one, an auxiliary
///         range off the kQBlock grid or invalid options; trncore::NotSupported for a sim mode other than
///         ozaki or a host mode other than automatic/fp64; trncore::TargetNotMet (report overload: met =
///         false) when the result is not certified or misses options.target_forward_error (hartree).
trnblas::Mp2Energy df_mp2_energy(const trncore::mpi::Communicator& comm, const DistributedB& b,
                                 std::span<const double> eps_occ, std::span<const double> eps_vir,
                                 const trncore::Options& options, DistributedMp2Report& report);

/// df_mp2_energy without the report: TargetNotMet when the report's met would be false.
trnblas::Mp2Energy df_mp2_energy(const trncore::mpi::Communicator& comm, const DistributedB& b,
                                 std::span<const double> eps_occ, std::span<const double> eps_vir,
                                 const trncore::Options& options = {});

/// The showcase entry: reads a DF-MP2 fixture directory (B_iaQ.npy, eps_occ.npy, eps_vir.npy, as
/// data/dfmp2-aug-cc-pvdz/C6H6 in the repository) with each rank reading only its block, and returns the
/// energy and the report (identical on every rank). @throws as read_distributed_b and df_mp2_energy.
trnblas::Mp2Energy df_mp2_energy_from_directory(const trncore::mpi::Communicator& comm,
                                                const std::filesystem::path& directory, Mp2Split split,
                                                const trncore::Options& options, DistributedMp2Report& report);

}  // namespace trntensor::mpi
