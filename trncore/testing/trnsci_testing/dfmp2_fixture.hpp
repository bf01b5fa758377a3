#pragma once
// Test support (not installed for users' programs): the DF-MP2 fixtures in data/dfmp2 (cc-pVDZ) and
// data/dfmp2-aug-cc-pvdz, with psi4 1.3.2's reference energies from each meta.json. One loader for
// trnblas's df_mp2_test and trntensor's chemistry_test.

#include <trncore/io/npy.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace trnsci_testing {

/// One molecule: B[i][a][Q] (row-major) with its shape, the orbital energies, the raw integrals (P|ia) and
/// metric J when the fixture ships them (C6H6 does not), and psi4's energies in hartree.
struct Dfmp2Fixture {
  std::string name;
  std::int64_t nocc = 0, nvir = 0, naux = 0;
  std::vector<std::int64_t> shape;  ///< {nocc, nvir, naux}
  std::vector<double> b, eps_occ, eps_vir, pia, j;
  double e_corr = 0, e_ss = 0, e_os = 0;
};

/// The number after "key": in a flat JSON text. @throws std::runtime_error when the key is absent.
inline double json_number(const std::string& text, const std::string& key) {
  const auto at = text.find("\"" + key + "\":");
  if (at == std::string::npos) throw std::runtime_error("meta.json lacks " + key);
  return std::stod(text.substr(at + key.size() + 3));
}

/// The fixture `name`, loaded once per process: "H2O" → <data_dir>/dfmp2/H2O (cc-pVDZ), "aug/H2O" →
/// <data_dir>/dfmp2-aug-cc-pvdz/H2O. data_dir is the repository's data/ (TRNSCI_DATA_DIR in the tests).
inline const Dfmp2Fixture& dfmp2_fixture(const std::string& data_dir, const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, Dfmp2Fixture> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const bool aug = name.rfind("aug/", 0) == 0;
  const std::string dir = data_dir + (aug ? "/dfmp2-aug-cc-pvdz/" + name.substr(4) : "/dfmp2/" + name) + "/";
  Dfmp2Fixture f;
  f.name = name;
  const auto b = trncore::io::read_npy(dir + "B_iaQ.npy");
  f.shape = b.shape;
  f.nocc = b.shape.at(0);
  f.nvir = b.shape.at(1);
  f.naux = b.shape.at(2);
  f.b = b.values;
  f.eps_occ = trncore::io::read_npy(dir + "eps_occ.npy").values;
  f.eps_vir = trncore::io::read_npy(dir + "eps_vir.npy").values;
  if (std::ifstream(dir + "Pia.npy").good()) {  // C6H6 ships without the raw integrals
    f.pia = trncore::io::read_npy(dir + "Pia.npy").values;
    f.j = trncore::io::read_npy(dir + "J.npy").values;
  }
  std::ifstream meta(dir + "meta.json");
  std::stringstream text;
  text << meta.rdbuf();
  f.e_corr = json_number(text.str(), "psi4_dfmp2_correlation_energy");
  f.e_ss = json_number(text.str(), "psi4_dfmp2_same_spin");
  f.e_os = json_number(text.str(), "psi4_dfmp2_opposite_spin");
  return cache.emplace(name, std::move(f)).first->second;
}

}  // namespace trnsci_testing
