// FFTW wisdom import/export under the planner mutex.
#include <trnfft/plan.hpp>
#include <trnfft/wisdom.hpp>

#include "host/fftw_api.hpp"

#include <trncore/error.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>

namespace trnfft {

template <Real T>
std::string export_wisdom() {
  char* text = nullptr;
  {
    std::lock_guard<std::mutex> lock(planner_mutex());
    text = host::Fftw<T>::export_wisdom();
  }
  if (text == nullptr) throw std::bad_alloc();
  std::string out(text);
  std::free(text);
  return out;
}

template <Real T>
void import_wisdom(std::string_view text) {
  const std::string copy(text);  // FFTW wants a NUL-terminated string
  int ok = 0;
  {
    std::lock_guard<std::mutex> lock(planner_mutex());
    ok = host::Fftw<T>::import_wisdom(copy.c_str());
  }
  if (ok == 0)
    throw trncore::ParseError("trnfft::import_wisdom",
                              "FFTW rejected the " + std::to_string(copy.size()) + "-character wisdom text" +
                                  (std::is_same_v<T, float> ? " (float)" : " (double)"),
                              "pass text from export_wisdom of the same precision and a compatible FFTW build", 0, 0);
}

template <Real T>
void export_wisdom_to_file(const std::string& path) {
  const std::string text = export_wisdom<T>();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    throw trncore::IoError("trnfft::export_wisdom_to_file", "cannot write wisdom to '" + path + "'",
                           "check that the directory exists and is writable");
}

template <Real T>
void import_wisdom_from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw trncore::IoError("trnfft::import_wisdom_from_file", "cannot open '" + path + "' for reading",
                           "check the path (export_wisdom_to_file writes such a file)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw trncore::IoError("trnfft::import_wisdom_from_file", "cannot read '" + path + "'", "check the file");
  try {
    import_wisdom<T>(text.str());
  } catch (const trncore::ParseError&) {
    throw trncore::ParseError("trnfft::import_wisdom_from_file", "FFTW rejected the wisdom in '" + path + "'",
                              "pass a file written by export_wisdom_to_file of the same precision", 0, 0);
  }
}

template <Real T>
void forget_wisdom() {
  std::lock_guard<std::mutex> lock(planner_mutex());
  host::Fftw<T>::forget_wisdom();
}

template std::string export_wisdom<float>();
template std::string export_wisdom<double>();
template void import_wisdom<float>(std::string_view);
template void import_wisdom<double>(std::string_view);
template void export_wisdom_to_file<float>(const std::string&);
template void export_wisdom_to_file<double>(const std::string&);
template void import_wisdom_from_file<float>(const std::string&);
template void import_wisdom_from_file<double>(const std::string&);
template void forget_wisdom<float>();
template void forget_wisdom<double>();

}  // namespace trnfft
