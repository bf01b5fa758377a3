#pragma once
// The showcase sections that live in their own files (one per library area), called from showcase.cpp.

#include <trncore/error.hpp>
#include <trncore/io/npy.hpp>

#include <cmath>
#include <cstdio>
#include <string>

/// The DF-MP2 fixture of one molecule in the repository's data/ (B_iaQ and the orbital energies).
struct DfMp2Fixture {
  trncore::io::NpyArray b, eps_occ, eps_vir;
};

/// Reads `<dir>/B_iaQ.npy`, `eps_occ.npy` and `eps_vir.npy`. @throws trncore::IoError when a file is missing.
inline DfMp2Fixture read_dfmp2_fixture(const std::string& dir) {
  // A missing fixture is a broken checkout: let trncore::IoError end the showcase with its message.
  return DfMp2Fixture{trncore::io::read_npy(dir + "B_iaQ.npy"), trncore::io::read_npy(dir + "eps_occ.npy"),
                      trncore::io::read_npy(dir + "eps_vir.npy")};
}

/// The number after "key": in a fixture's meta.json (the file is flat; no JSON library in the suite's
/// dependencies); NaN when the key is missing.
inline double meta_number(const std::string& text, const std::string& key) {
  const auto at = text.find("\"" + key + "\":");
  return at == std::string::npos ? NAN : std::stod(text.substr(at + key.size() + 3));
}

/// trnsolver randomized NLA: one rsvd against LAPACK gesdd and one Hutch++ trace estimate.
void showcase_rnla();
/// trnsparse: the Matrix Market file installed with the package, solved with CG and CHOLMOD.
void showcase_trnsparse();
/// trntensor: the plan of a 3-operand contraction and the DF-MP2 energy of H2O from a tensor view.
void showcase_trntensor(const std::string& data_dir);
