// An unchanged program linked against OpenBLAS itself (like numpy or any binary built with -lopenblas):
// `trnblas_dropin_preload_check routed|native`. With LD_PRELOAD=libtrnblas_blas.so.3 and TRNBLAS_MODE=bf16
// its dgemm_ and cblas_dgemm calls must reach the drop-in library ("routed": bf16-level errors, within the
// bf16 bound), without the preload they are OpenBLAS's ("native": fp64 errors). The drop-in library then
// forwards to the OpenBLAS already in the process, so this also runs the configuration in which a wrong
// symbol lookup would make a forwarded call re-enter the drop-in library.
#include "mode_bound.hpp"

#include <cblas.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*, std::size_t,
                       std::size_t);

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const bool routed = std::string(argv[1]) == "routed";
  const int n = 48;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> d(0.25, 1.0);
  std::vector<double> a(n * n), b(n * n);
  for (double& x : a) x = d(rng);
  for (double& x : b) x = d(rng);
  std::vector<double> c1(n * n, 0.0), c2(n * n, 0.0);
  const double one = 1, zero = 0;
  dgemm_("N", "N", &n, &n, &n, &one, a.data(), &n, b.data(), &n, &zero, c1.data(), &n, 1, 1);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c2.data(), n);
  // Positive data: |A||B| = AB, so the componentwise measure is the relative error.
  double worst1 = 0, worst2 = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      long double exact = 0;
      for (int l = 0; l < n; ++l) exact += static_cast<long double>(a[i + l * n]) * b[l + j * n];
      worst1 = std::max(worst1, static_cast<double>(std::fabs(c1[i + j * n] - exact) / exact));
      worst2 = std::max(worst2, static_cast<double>(std::fabs(c2[i + j * n] - exact) / exact));
    }
  const double host = trnblas_dropin_test::mode_bound("host", "", n, 0x1p-53);
  const double bf16 = trnblas_dropin_test::mode_bound("bf16", "bf16", n, 0x1p-53);
  std::printf("max relative error: dgemm_ %.3e, cblas_dgemm %.3e (fp64 bound %.3e, bf16 bound %.3e)\n", worst1, worst2,
              host, bf16);
  bool ok;
  if (routed)  // bf16-rounded inputs of 8 significant bits: errors far above fp64's, within bf16's bound
    ok = worst1 > 1e-6 && worst2 > 1e-6 && worst1 <= bf16 && worst2 <= bf16;
  else
    ok = worst1 <= host && worst2 <= host;
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
