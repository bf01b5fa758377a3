#pragma once
// FFTW's double and float APIs behind one name per call, so the host backend is written once for both
// precisions. Plans are kept as void* (fftw_plan and fftwf_plan are pointers to distinct opaque structs).

#include <fftw3.h>

#include <cstdio>
#include <cstdlib>

namespace trnfft::host {

template <class T>
struct Fftw;

template <>
struct Fftw<double> {
  using plan_t = fftw_plan;
  using complex_t = fftw_complex;
  static plan_t cast(void* p) noexcept { return static_cast<plan_t>(p); }
  static void* guru_dft(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* hd, void* in, void* out, int sign,
                        unsigned flags) {
    return fftw_plan_guru64_dft(r, d, hr, hd, static_cast<complex_t*>(in), static_cast<complex_t*>(out), sign, flags);
  }
  static void* guru_split_dft(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* hd, double* ri, double* ii,
                              double* ro, double* io, unsigned flags) {
    return fftw_plan_guru64_split_dft(r, d, hr, hd, ri, ii, ro, io, flags);
  }
  static void* guru_r2c(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* hd, double* in, void* out,
                        unsigned flags) {
    return fftw_plan_guru64_dft_r2c(r, d, hr, hd, in, static_cast<complex_t*>(out), flags);
  }
  static void* guru_split_r2c(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* hd, double* in, double* ro,
                              double* io, unsigned flags) {
    return fftw_plan_guru64_split_dft_r2c(r, d, hr, hd, in, ro, io, flags);
  }
  static void* guru_c2r(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* hd, void* in, double* out,
                        unsigned flags) {
    return fftw_plan_guru64_dft_c2r(r, d, hr, hd, static_cast<complex_t*>(in), out, flags);
  }
  static void* guru_split_c2r(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* hd, double* ri, double* ii,
                              double* out, unsigned flags) {
    return fftw_plan_guru64_split_dft_c2r(r, d, hr, hd, ri, ii, out, flags);
  }
  static void execute(void* p) { fftw_execute(cast(p)); }
  static void execute_dft(void* p, void* in, void* out) {
    fftw_execute_dft(cast(p), static_cast<complex_t*>(in), static_cast<complex_t*>(out));
  }
  static void execute_split_dft(void* p, double* ri, double* ii, double* ro, double* io) {
    fftw_execute_split_dft(cast(p), ri, ii, ro, io);
  }
  static void execute_r2c(void* p, double* in, void* out) {
    fftw_execute_dft_r2c(cast(p), in, static_cast<complex_t*>(out));
  }
  static void execute_split_r2c(void* p, double* in, double* ro, double* io) {
    fftw_execute_split_dft_r2c(cast(p), in, ro, io);
  }
  static void execute_c2r(void* p, void* in, double* out) {
    fftw_execute_dft_c2r(cast(p), static_cast<complex_t*>(in), out);
  }
  static void execute_split_c2r(void* p, double* ri, double* ii, double* out) {
    fftw_execute_split_dft_c2r(cast(p), ri, ii, out);
  }
  static void destroy(void* p) { fftw_destroy_plan(cast(p)); }
  static char* sprint(void* p) { return fftw_sprint_plan(cast(p)); }
  static int alignment_of(const double* p) { return fftw_alignment_of(const_cast<double*>(p)); }
  static int init_threads() { return fftw_init_threads(); }
  static void plan_with_nthreads(int n) { fftw_plan_with_nthreads(n); }
  static char* export_wisdom() { return fftw_export_wisdom_to_string(); }
  static int import_wisdom(const char* s) { return fftw_import_wisdom_from_string(s); }
  static void forget_wisdom() { fftw_forget_wisdom(); }
};

template <>
struct Fftw<float> {
  using plan_t = fftwf_plan;
  using complex_t = fftwf_complex;
  static plan_t cast(void* p) noexcept { return static_cast<plan_t>(p); }
  static void* guru_dft(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* hd, void* in, void* out, int sign,
                        unsigned flags) {
    return fftwf_plan_guru64_dft(r, d, hr, hd, static_cast<complex_t*>(in), static_cast<complex_t*>(out), sign, flags);
  }
  static void* guru_split_dft(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* hd, float* ri, float* ii,
                              float* ro, float* io, unsigned flags) {
    return fftwf_plan_guru64_split_dft(r, d, hr, hd, ri, ii, ro, io, flags);
  }
  static void* guru_r2c(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* hd, float* in, void* out,
                        unsigned flags) {
    return fftwf_plan_guru64_dft_r2c(r, d, hr, hd, in, static_cast<complex_t*>(out), flags);
  }
  static void* guru_split_r2c(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* hd, float* in, float* ro,
                              float* io, unsigned flags) {
    return fftwf_plan_guru64_split_dft_r2c(r, d, hr, hd, in, ro, io, flags);
  }
  static void* guru_c2r(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* hd, void* in, float* out,
                        unsigned flags) {
    return fftwf_plan_guru64_dft_c2r(r, d, hr, hd, static_cast<complex_t*>(in), out, flags);
  }
  static void* guru_split_c2r(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* hd, float* ri, float* ii,
                              float* out, unsigned flags) {
    return fftwf_plan_guru64_split_dft_c2r(r, d, hr, hd, ri, ii, out, flags);
  }
  static void execute(void* p) { fftwf_execute(cast(p)); }
  static void execute_dft(void* p, void* in, void* out) {
    fftwf_execute_dft(cast(p), static_cast<complex_t*>(in), static_cast<complex_t*>(out));
  }
  static void execute_split_dft(void* p, float* ri, float* ii, float* ro, float* io) {
    fftwf_execute_split_dft(cast(p), ri, ii, ro, io);
  }
  static void execute_r2c(void* p, float* in, void* out) {
    fftwf_execute_dft_r2c(cast(p), in, static_cast<complex_t*>(out));
  }
  static void execute_split_r2c(void* p, float* in, float* ro, float* io) {
    fftwf_execute_split_dft_r2c(cast(p), in, ro, io);
  }
  static void execute_c2r(void* p, void* in, float* out) {
    fftwf_execute_dft_c2r(cast(p), static_cast<complex_t*>(in), out);
  }
  static void execute_split_c2r(void* p, float* ri, float* ii, float* out) {
    fftwf_execute_split_dft_c2r(cast(p), ri, ii, out);
  }
  static void destroy(void* p) { fftwf_destroy_plan(cast(p)); }
  static char* sprint(void* p) { return fftwf_sprint_plan(cast(p)); }
  static int alignment_of(const float* p) { return fftwf_alignment_of(const_cast<float*>(p)); }
  static int init_threads() { return fftwf_init_threads(); }
  static void plan_with_nthreads(int n) { fftwf_plan_with_nthreads(n); }
  static char* export_wisdom() { return fftwf_export_wisdom_to_string(); }
  static int import_wisdom(const char* s) { return fftwf_import_wisdom_from_string(s); }
  static void forget_wisdom() { fftwf_forget_wisdom(); }
};

}  // namespace trnfft::host
