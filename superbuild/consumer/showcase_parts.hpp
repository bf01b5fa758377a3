#pragma once
// The showcase sections that live in their own files (one per library area), called from showcase.cpp.

#include <trncore/error.hpp>
#include <trncore/io/npy.hpp>

#include <cstdio>
#include <optional>
#include <string>

/// The DF-MP2 fixture of one molecule in the suite's shared data (B_iaQ and the orbital energies).
struct DfMp2Fixture {
  trncore::io::NpyArray b, eps_occ, eps_vir;
};

/// Reads `<dir>/B_iaQ.npy`, `eps_occ.npy` and `eps_vir.npy`; prints why and returns nothing when the shared
/// data is not there (the showcase then skips that section instead of failing).
inline std::optional<DfMp2Fixture> read_dfmp2_fixture(const std::string& dir) {
  try {
    return DfMp2Fixture{trncore::io::read_npy(dir + "B_iaQ.npy"), trncore::io::read_npy(dir + "eps_occ.npy"),
                        trncore::io::read_npy(dir + "eps_vir.npy")};
  } catch (const trncore::Error& e) {
    std::printf("  skipped: %s\n", e.what());
    return std::nullopt;
  }
}

/// trnsolver randomized NLA: one rsvd against LAPACK gesdd and one Hutch++ trace estimate.
void showcase_rnla();
/// trnsparse: the Matrix Market file installed with the package, solved with CG and CHOLMOD.
void showcase_trnsparse();
/// trntensor: the plan of a 3-operand contraction and the DF-MP2 energy of H2O by einsum.
void showcase_trntensor(const std::string& shared_data_dir);
