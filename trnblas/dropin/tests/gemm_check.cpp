// Checks the drop-in library from a program that links it as its BLAS: `trnblas_dropin_gemm_check MODE`
// with TRNBLAS_MODE (and TRNBLAS_PRODUCT_MODEL) set by ctest. Oracles: a long-double product for every
// routed GEMM, with the mode's a-priori bound (docs/trnblas-sim.md; derived below per mode), and the real
// OpenBLAS (opened privately) bit for bit for host mode, the invalid-variable fallback, quick returns,
// invalid arguments and forwarded routines.
#include "mode_bound.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*, std::size_t, std::size_t);
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*, const int*,
            const float*, const int*, const float*, float*, const int*, std::size_t, std::size_t);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
double ddot_(const int*, const double*, const int*, const double*, const int*);
void daxpy_(const int*, const double*, const double*, const int*, double*, const int*);
}

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  }
}

void* openblas(const char* name) {
  static void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  return h != nullptr ? dlsym(h, name) : nullptr;
}

using trnblas_dropin_test::mode_bound;  // the documented bound of each mode (mode_bound.hpp)

template <class T>
std::vector<T> random(std::size_t n, std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(d(g));
  return v;
}

// C := αAB + βC column-major through the Fortran symbol, checked against long double.
template <class T>
void fortran_case(const std::string& mode, const std::string& product, int m, int n, int k, char ta, char tb,
                  std::mt19937_64& g) {
  const int lda = (ta == 'N' ? m : k) + 1, ldb = (tb == 'N' ? k : n) + 2, ldc = m + 1;
  const auto a = random<T>(static_cast<std::size_t>(lda * (ta == 'N' ? k : m) + 1), g);
  const auto b = random<T>(static_cast<std::size_t>(ldb * (tb == 'N' ? n : k) + 1), g);
  auto c = random<T>(static_cast<std::size_t>(ldc * n + 1), g);
  const auto c0 = c;
  const T alpha = static_cast<T>(0.75), beta = static_cast<T>(-0.5);
  if constexpr (std::is_same_v<T, double>)
    dgemm_(&ta, &tb, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(), &ldc, 1, 1);
  else
    sgemm_(&ta, &tb, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(), &ldc, 1, 1);
  const double u_t = sizeof(T) == 8 ? 0x1p-53 : 0x1p-24;
  const double eps = mode_bound(mode, product, k, u_t);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double exact = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        const long double x =
            ta == 'N' ? a[static_cast<std::size_t>(i + p * lda)] : a[static_cast<std::size_t>(p + i * lda)];
        const long double y =
            tb == 'N' ? b[static_cast<std::size_t>(p + j * ldb)] : b[static_cast<std::size_t>(j + p * ldb)];
        exact += x * y;
        mag += std::fabs(x * y);
      }
      const long double c_in = c0[static_cast<std::size_t>(i + j * ldc)];
      const long double want = static_cast<long double>(alpha) * exact + static_cast<long double>(beta) * c_in;
      const long double scale =
          std::fabs(static_cast<long double>(alpha)) * mag + std::fabs(static_cast<long double>(beta) * c_in);
      const long double err = std::fabs(static_cast<long double>(c[static_cast<std::size_t>(i + j * ldc)]) - want);
      check(err <= eps * scale * 1.0001L + 1e-300L, "gemm " + std::string(sizeof(T) == 8 ? "d" : "s") + " " + ta + tb +
                                                        " " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                                        std::to_string(k) + " element error beyond the mode's bound");
    }
  for (int j = 0; j < n; ++j)  // padding rows of C untouched
    check(c[static_cast<std::size_t>(m + j * ldc)] == c0[static_cast<std::size_t>(m + j * ldc)], "C padding written");
}

// Results of cblas_dgemm row-major and whether they equal OpenBLAS's own bit for bit.
bool cblas_equals_openblas(int m, int n, int k, std::mt19937_64& g) {
  const auto a = random<double>(static_cast<std::size_t>(m * k), g),
             b = random<double>(static_cast<std::size_t>(k * n), g);
  std::vector<double> c1(static_cast<std::size_t>(m * n), 1.0), c2 = c1;
  cblas_dgemm(101, 111, 111, m, n, k, 1.0, a.data(), k, b.data(), n, 0.5, c1.data(), n);
  using F =
      void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
  reinterpret_cast<F>(openblas("cblas_dgemm"))(101, 111, 111, m, n, k, 1.0, a.data(), k, b.data(), n, 0.5, c2.data(),
                                               n);
  return std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(double)) == 0;
}

// What f writes to stderr (file descriptor 2).
template <class F>
std::string captured_stderr(F&& f) {
  char path[] = "/tmp/trnblas_dropin_stderrXXXXXX";
  const int fd = mkstemp(path);
  const int saved = dup(2);
  dup2(fd, 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  unlink(path);
  close(fd);
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string mode = argv[1];
  const char* pm = std::getenv("TRNBLAS_PRODUCT_MODEL");
  const std::string product = pm != nullptr ? pm : "bf16";  // trn2's default
  // Capture what the library prints on its first use (an invalid variable's message), which four threads
  // make at once: the variables are read once, so the message appears once.
  std::mt19937_64 g(7);
  bool host_bits = false;
  const std::string said = captured_stderr([&] {
    std::vector<std::thread> first_calls;
    for (int t = 0; t < 4; ++t)
      first_calls.emplace_back([t] {
        std::mt19937_64 gt(100 + t);
        cblas_equals_openblas(9, 8, 7, gt);
      });
    for (auto& t : first_calls) t.join();
    host_bits = cblas_equals_openblas(33, 17, 29, g);
  });
  const auto lines = [](const std::string& text) {
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  };

  if (mode == "invalid" || mode == "invalid_product") {
    const std::string expect =
        mode == "invalid" ? "TRNBLAS_MODE=\"banana\" is not one of host, fp32, bf16, fp16, fp8_e4m3, compensated, ozaki"
                          : "TRNBLAS_PRODUCT_MODEL=\"fast\" is not one of bf16, exact";
    check(said.find(expect) != std::string::npos,
          "no message naming the variable, its value and the accepted values: " + said);
    check(lines(said) == 1, "the message was not printed exactly once: " + said);
    check(said.find("host") != std::string::npos, "the message does not say it falls back to host");
    check(host_bits, "an invalid variable did not fall back to OpenBLAS's bits");
  } else if (mode == "host") {
    check(said.empty(), "host mode printed: " + said);
    check(host_bits, "host mode differs from OpenBLAS");
  } else {
    // fp8_e4m3 has 15 binades of normal range below its row-scaled maximum: uniform(-1, 1) entries smaller
    // than 2^-15 of their row's largest occur, the bound is then not certified and the drop-in forwards the
    // call to OpenBLAS, saying so once (docs/trncore.md, "Certificates"). Every other mode certifies these data.
    const bool fp8_fallback = mode == "fp8_e4m3" && lines(said) == 1 &&
                              said.find("cannot certify a routed product") != std::string::npos &&
                              said.find("fall below fp8_e4m3's normal range") != std::string::npos;
    check(said.empty() || fp8_fallback, "mode " + mode + " printed: " + said);
    if (mode == "bf16") check(!host_bits, "bf16 mode returned OpenBLAS's bits: the call was not routed");
  }
  const std::string bound_mode = mode.rfind("invalid", 0) == 0 ? "host" : mode;
  for (const auto [m, n, k] : {std::array{1, 1, 1}, std::array{5, 3, 7}, std::array{31, 17, 13},
                               std::array{129, 3, 128}, std::array{2, 130, 1}, std::array{4, 4, 0}})
    for (const char ta : {'N', 'T'})
      for (const char tb : {'N', 'T'}) {
        fortran_case<double>(bound_mode, product, m, n, k, ta, tb, g);
        fortran_case<float>(bound_mode, product, m, n, k, ta, tb, g);
      }
  // Forwarded routines are OpenBLAS's.
  const std::vector<double> x = {1, 2, 3}, y0 = {0.5, -1, 4};
  const int three = 3, one = 1;
  using Dot = double (*)(const int*, const double*, const int*, const double*, const int*);
  check(ddot_(&three, x.data(), &one, y0.data(), &one) ==
            reinterpret_cast<Dot>(openblas("ddot_"))(&three, x.data(), &one, y0.data(), &one),
        "ddot_ differs from OpenBLAS's");
  std::vector<double> y = y0;
  const double two = 2;
  daxpy_(&three, &two, x.data(), &one, y.data(), &one);
  check(y == std::vector<double>{2.5, 3, 10}, "daxpy_ wrong");
  // Later calls print nothing (the message is printed once per process).
  const std::string later = captured_stderr([&] { cblas_equals_openblas(5, 6, 7, g); });
  check(later.empty(), "a later call printed: " + later);
  std::printf("%s: %d failure(s)\n", mode.c_str(), failures);
  return failures == 0 ? 0 : 1;
}
