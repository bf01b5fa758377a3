// The trnfft Python extension (trnfft._trnfft): numpy.fft-style functions, plans, wisdom, STFT/iSTFT.
#include "bind.hpp"

#include <trnfft/version.hpp>

#include <string>

PYBIND11_MODULE(_trnfft, m) {
  namespace py = pybind11;
  m.doc() = "trnfft: FFTs of NumPy arrays on FFTW (host) or the modelled TensorEngine (sim); see docs/python.md";
  trnsci_python::init_module(m);
  m.def(
      "version", [] { return std::string(trnfft::version()); }, "The trnfft library's version.");
  trnfft_python::bind_functions(m);
  trnfft_python::bind_plan(m);
  trnfft_python::bind_stft(m);
}
