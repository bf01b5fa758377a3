// trnfft plans against the long-double FFTW oracle (fft_test_support.hpp): every kind (c2c forward and
// backward, r2c, c2r), both precisions, interleaved and split layouts, batches, strides, embeddings,
// in-place and out-of-place, and new-array execute. Sizes: 1 … 2^16 powers of two, primes up to 10007,
// 2·10007, highly composite sizes and the tile edges 127/128/129, 511/512/513.
#include "fft_test_support.hpp"

#include <trnfft/trnfft.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <variant>

namespace {

using namespace trnfft_test;
using trnfft::ComplexLayout;
using trnfft::Direction;
using trnfft::IoDim;
using trnfft::Kind;

template <class T>
class PlanOracle : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PlanOracle, Precisions);

// ---- 1-D sizes, contiguous, through the basic interface ----

const std::vector<std::int64_t> kSizes = {1,    2,    3,    4,    5,     7,     8,     11,    13,    16,    17,
                                          31,   32,   61,   64,   100,   101,   127,   128,   129,   243,   256,
                                          257,  509,  511,  512,  513,   720,   1009,  1024,  2003,  2048,  4093,
                                          4096, 5040, 7919, 8192, 10007, 10080, 16384, 20014, 32768, 55440, 65536};

template <class T>
void check_1d(Kind kind, Direction direction, std::int64_t n) {
  SCOPED_TRACE("kind " + std::string(trnfft::to_string(kind)) + " " + std::string(trnfft::to_string(direction)) +
               " n=" + std::to_string(n));
  const auto h = static_cast<std::size_t>(n / 2 + 1);
  const auto un = static_cast<std::size_t>(n);
  std::vector<cld> in_l;
  std::vector<double> err_parts;
  if (kind == Kind::c2c) {
    auto x = random_complex<T>(un, 1000 + static_cast<std::uint64_t>(n));
    std::vector<std::complex<T>> y(un);
    auto plan = trnfft::plan_dft_1d(n, x.data(), y.data(), direction);
    plan.execute();
    in_l.assign(x.begin(), x.end());
    const auto want = reference(kind, {n}, 1, in_l, direction);
    EXPECT_LE(relative_error(y, want), fft_tolerance<T>(n));
  } else if (kind == Kind::r2c) {
    auto x = random_reals<T>(un, 2000 + static_cast<std::uint64_t>(n));
    std::vector<std::complex<T>> y(h);
    auto plan = trnfft::plan_dft_r2c_1d(n, x.data(), y.data());
    plan.execute();
    in_l.assign(x.begin(), x.end());
    const auto want = reference(kind, {n}, 1, in_l, direction);
    EXPECT_LE(relative_error(y, want), fft_tolerance<T>(n));
  } else {
    in_l = hermitian_input<T>({n}, 1, 3000 + static_cast<std::uint64_t>(n));
    std::vector<std::complex<T>> x(h);
    for (std::size_t i = 0; i < h; ++i) x[i] = {static_cast<T>(in_l[i].real()), static_cast<T>(in_l[i].imag())};
    std::vector<T> y(un);
    auto plan = trnfft::plan_dft_c2r_1d(n, x.data(), y.data());
    plan.execute();
    const auto want = reference(kind, {n}, 1, in_l, direction);
    EXPECT_LE(relative_error(y, want), fft_tolerance<T>(n));
  }
}

TYPED_TEST(PlanOracle, C2cForwardAllSizes) {
  for (auto n : kSizes) check_1d<TypeParam>(Kind::c2c, Direction::forward, n);
}
TYPED_TEST(PlanOracle, C2cBackwardAllSizes) {
  for (auto n : kSizes) check_1d<TypeParam>(Kind::c2c, Direction::backward, n);
}
TYPED_TEST(PlanOracle, R2cAllSizes) {
  for (auto n : kSizes) check_1d<TypeParam>(Kind::r2c, Direction::forward, n);
}
TYPED_TEST(PlanOracle, C2rAllSizes) {
  for (auto n : kSizes) check_1d<TypeParam>(Kind::c2r, Direction::backward, n);
}

// ---- Any geometry: guru dimensions, three storage variants, in-place and out-of-place ----

enum class Storage { interleaved, split, split_interleaved };  // split_interleaved: ii = ri + 1, strides doubled

const char* name_of(Storage s) {
  return s == Storage::interleaved ? "interleaved" : s == Storage::split ? "split" : "split(ii=ri+1)";
}

struct Geometry {
  std::string name;
  Kind kind;
  Direction direction;
  std::vector<IoDim> dims;  // complex-side strides in complex elements, real-side in reals
  std::vector<IoDim> batch;
  bool in_place;
};

// Strides for a logical shape (batch dims first, then transform dims) stored with the dimensions in
// `order` from fastest to slowest and `pad` unused elements after each dimension.
std::vector<std::int64_t> strides_for(const std::vector<std::int64_t>& shape, const std::vector<int>& order,
                                      std::int64_t pad) {
  std::vector<std::int64_t> s(shape.size());
  std::int64_t span = 1;
  for (int k : order) {
    s[static_cast<std::size_t>(k)] = span;
    span *= shape[static_cast<std::size_t>(k)] + pad;
  }
  return s;
}

// dims/batch from logical shapes and the two sides' strides.
Geometry make_geometry(std::string name, Kind kind, Direction dir, std::vector<std::int64_t> batch_n,
                       std::vector<std::int64_t> dims_n, std::vector<int> in_order, std::int64_t in_pad,
                       std::vector<int> out_order, std::int64_t out_pad) {
  std::vector<std::int64_t> all = batch_n;
  all.insert(all.end(), dims_n.begin(), dims_n.end());
  auto in_shape = all, out_shape = all;
  if (kind == Kind::c2r) in_shape.back() = in_shape.back() / 2 + 1;
  if (kind == Kind::r2c) out_shape.back() = out_shape.back() / 2 + 1;
  const auto is = strides_for(in_shape, in_order, in_pad);
  const auto os = strides_for(out_shape, out_order, out_pad);
  Geometry g{std::move(name), kind, dir, {}, {}, false};
  for (std::size_t k = 0; k < all.size(); ++k) {
    IoDim d{all[k], is[k], os[k]};
    (k < batch_n.size() ? g.batch : g.dims).push_back(d);
  }
  return g;
}

std::vector<Geometry> geometries() {
  std::vector<Geometry> g;
  // c2c: dense 2-D and 3-D; a batch stored transposed and padded; batch-fastest (interleaved batch).
  g.push_back(make_geometry("c2c 2-D dense", Kind::c2c, Direction::forward, {}, {6, 10}, {1, 0}, 0, {1, 0}, 0));
  g.push_back(make_geometry("c2c 3-D dense backward", Kind::c2c, Direction::backward, {}, {4, 5, 6}, {2, 1, 0}, 0,
                            {2, 1, 0}, 0));
  g.push_back(make_geometry("c2c 2-D batch 3 transposed padded in", Kind::c2c, Direction::forward, {3}, {6, 10},
                            {1, 2, 0}, 1, {2, 1, 0}, 0));
  g.push_back(make_geometry("c2c 1-D batch 5x3 batch-fastest in, padded out", Kind::c2c, Direction::backward, {5, 3},
                            {12}, {0, 1, 2}, 0, {2, 1, 0}, 2));
  g.push_back(make_geometry("c2c 1-D n=127 batch 4 column layout", Kind::c2c, Direction::forward, {4}, {127}, {0, 1}, 0,
                            {0, 1}, 0));
  // r2c and c2r: padded rows, transposed, batched.
  g.push_back(make_geometry("r2c 2-D batch 2 padded in", Kind::r2c, Direction::forward, {2}, {9, 14}, {2, 1, 0}, 3,
                            {2, 1, 0}, 0));
  g.push_back(make_geometry("r2c 2-D transposed in", Kind::r2c, Direction::forward, {}, {5, 8}, {0, 1}, 0, {1, 0}, 0));
  g.push_back(
      make_geometry("r2c 3-D n=129 last", Kind::r2c, Direction::forward, {}, {3, 2, 129}, {2, 1, 0}, 0, {2, 1, 0}, 1));
  g.push_back(
      make_geometry("c2r 2-D batch 2", Kind::c2r, Direction::backward, {2}, {7, 9}, {2, 1, 0}, 0, {2, 1, 0}, 1));
  g.push_back(make_geometry("c2r 1-D batch 3 batch-fastest out", Kind::c2r, Direction::backward, {3}, {16}, {1, 0}, 0,
                            {0, 1}, 0));
  // In-place: c2c with equal strides; r2c/c2r with real rows padded to 2(n/2+1).
  {
    auto c = make_geometry("c2c 2-D batch 2 in-place", Kind::c2c, Direction::forward, {2}, {5, 6}, {2, 1, 0}, 0,
                           {2, 1, 0}, 0);
    c.in_place = true;
    g.push_back(c);
  }
  for (std::int64_t n : {10, 11}) {
    const std::int64_t h = n / 2 + 1;
    Geometry r{"r2c 1-D n=" + std::to_string(n) + " batch 3 in-place padded",
               Kind::r2c,
               Direction::forward,
               {{n, 1, 1}},
               {{3, 2 * h, h}},
               true};
    g.push_back(r);
    Geometry c{"c2r 1-D n=" + std::to_string(n) + " batch 3 in-place padded",
               Kind::c2r,
               Direction::backward,
               {{n, 1, 1}},
               {{3, h, 2 * h}},
               true};
    g.push_back(c);
  }
  {
    // 2-D in-place r2c: rows of 2(n1/2+1) reals = n1/2+1 complex.
    const std::int64_t n0 = 6, n1 = 7, h = n1 / 2 + 1;
    g.push_back(
        Geometry{"r2c 2-D in-place padded", Kind::r2c, Direction::forward, {{n0, 2 * h, h}, {n1, 1, 1}}, {}, true});
    g.push_back(
        Geometry{"c2r 2-D in-place padded", Kind::c2r, Direction::backward, {{n0, h, 2 * h}, {n1, 1, 1}}, {}, true});
  }
  return g;
}

// Arrays of one run: T storage for each array, aliased for in-place.
template <class T>
struct Arrays {
  std::vector<std::unique_ptr<Buffer<T>>> owned;
  std::array<T*, 4> p{};
};

template <class T>
struct Runner {
  Geometry g;  // strides as stored (doubled complex-side strides for split_interleaved)
  Storage storage;
  std::vector<std::int64_t> in_off, out_off;
  bool complex_in, complex_out;
  std::size_t offset;  // elements of T by which the arrays are shifted from 64-byte alignment

  Runner(Geometry geo, Storage st, std::size_t misalign = 0) : g(std::move(geo)), storage(st), offset(misalign) {
    complex_in = g.kind != Kind::r2c;
    complex_out = g.kind != Kind::c2r;
    if (storage == Storage::split_interleaved) {
      for (auto* list : {&g.dims, &g.batch})
        for (auto& d : *list) {
          if (complex_in) d.is *= 2;
          if (complex_out) d.os *= 2;
        }
    }
    in_off = logical_offsets(g.dims, g.batch, true, g.kind == Kind::c2r);
    out_off = logical_offsets(g.dims, g.batch, false, g.kind == Kind::r2c);
  }

  // T elements an array needs: interleaved complex arrays count 2 per element.
  std::size_t reals(bool input) const {
    const std::int64_t e = extent_of(input ? in_off : out_off);
    const bool cplx = input ? complex_in : complex_out;
    if (storage == Storage::interleaved && cplx) return static_cast<std::size_t>(2 * e);
    if (storage == Storage::split_interleaved && cplx) return static_cast<std::size_t>(e + 1);
    return static_cast<std::size_t>(e);
  }

  Arrays<T> allocate() const {
    Arrays<T> a;
    auto make = [&](std::size_t n) {
      a.owned.push_back(std::make_unique<Buffer<T>>(n, offset));
      return a.owned.back()->data();
    };
    const std::size_t shared = std::max(reals(true), reals(false));
    const bool split_in = storage == Storage::split && complex_in;
    const bool split_out = storage == Storage::split && complex_out;
    // Split pairs live in one block, the imaginary part a fixed distance after the real one, so that new
    // arrays keep the separations ii - ri and io - ro of the creation arrays (FFTW's rule).
    auto round = [](std::size_t n) { return (n + 15) / 16 * 16; };
    const std::size_t in_n = g.in_place ? shared : reals(true);
    T* in0 = make(split_in ? 2 * round(in_n) : in_n);
    T* in1 = split_in ? in0 + round(in_n) : (storage == Storage::split_interleaved && complex_in ? in0 + 1 : nullptr);
    T* out0 = g.in_place ? in0 : make(split_out ? 2 * round(reals(false)) : reals(false));
    T* out1 = nullptr;
    if (split_out)
      out1 = g.in_place && split_in ? in1 : out0 + round(reals(false));
    else if (storage == Storage::split_interleaved && complex_out)
      out1 = out0 + 1;
    int k = 0;
    a.p[k++] = in0;
    if (in1 != nullptr) a.p[k++] = in1;
    a.p[k++] = out0;
    if (out1 != nullptr) a.p[k++] = out1;
    return a;
  }

  int nread() const { return storage != Storage::interleaved && complex_in ? 2 : 1; }

  void scatter(Arrays<T>& a, const std::vector<cld>& x) const {
    for (std::size_t e = 0; e < in_off.size(); ++e) {
      const auto o = static_cast<std::size_t>(in_off[e]);
      if (!complex_in) {
        a.p[0][o] = static_cast<T>(x[e].real());
      } else if (storage == Storage::interleaved) {
        a.p[0][2 * o] = static_cast<T>(x[e].real());
        a.p[0][2 * o + 1] = static_cast<T>(x[e].imag());
      } else {
        a.p[0][o] = static_cast<T>(x[e].real());
        a.p[1][o] = static_cast<T>(x[e].imag());
      }
    }
  }

  std::vector<cld> gather(const Arrays<T>& a) const {
    const int r = nread();
    std::vector<cld> y(out_off.size());
    for (std::size_t e = 0; e < out_off.size(); ++e) {
      const auto o = static_cast<std::size_t>(out_off[e]);
      if (!complex_out)
        y[e] = a.p[r][o];
      else if (storage == Storage::interleaved)
        y[e] = cld(a.p[r][2 * o], a.p[r][2 * o + 1]);
      else
        y[e] = cld(a.p[r][o], a.p[r + 1][o]);
    }
    return y;
  }

  std::vector<std::int64_t> shape() const {
    std::vector<std::int64_t> s;
    for (auto& d : g.dims) s.push_back(d.n);
    return s;
  }
  std::int64_t howmany() const {
    std::int64_t b = 1;
    for (auto& d : g.batch) b *= d.n;
    return b;
  }

  std::vector<cld> input(std::uint64_t seed) const {
    if (g.kind == Kind::c2r) return hermitian_input<T>(shape(), howmany(), seed);
    std::vector<cld> x(in_off.size());
    if (g.kind == Kind::r2c) {
      auto r = random_reals<T>(x.size(), seed);
      x.assign(r.begin(), r.end());
    } else {
      auto c = random_complex<T>(x.size(), seed);
      x.assign(c.begin(), c.end());
    }
    return x;
  }

  std::variant<trnfft::C2CPlan<T>, trnfft::R2CPlan<T>, trnfft::C2RPlan<T>> plan(Arrays<T>& a) const {
    auto cx = [](T* p) { return reinterpret_cast<std::complex<T>*>(p); };
    const bool inter = storage == Storage::interleaved;
    switch (g.kind) {
      case Kind::c2c:
        if (inter) return trnfft::plan_guru_dft(g.dims, g.batch, cx(a.p[0]), cx(a.p[1]), g.direction);
        return trnfft::plan_guru_split_dft(g.dims, g.batch, a.p[0], a.p[1], a.p[2], a.p[3], g.direction);
      case Kind::r2c:
        if (inter) return trnfft::plan_guru_dft_r2c(g.dims, g.batch, a.p[0], cx(a.p[1]));
        return trnfft::plan_guru_split_dft_r2c(g.dims, g.batch, a.p[0], a.p[1], a.p[2]);
      case Kind::c2r:
      default:
        if (inter) return trnfft::plan_guru_dft_c2r(g.dims, g.batch, cx(a.p[0]), a.p[1]);
        return trnfft::plan_guru_split_dft_c2r(g.dims, g.batch, a.p[0], a.p[1], a.p[2]);
    }
  }

  template <class P>
  static void execute_new(const P& plan, Arrays<T>& a, bool interleaved) {
    auto cx = [](T* p) { return reinterpret_cast<std::complex<T>*>(p); };
    if constexpr (std::is_same_v<P, trnfft::C2CPlan<T>>) {
      if (interleaved)
        plan.execute(cx(a.p[0]), cx(a.p[1]));
      else
        plan.execute_split(a.p[0], a.p[1], a.p[2], a.p[3]);
    } else if constexpr (std::is_same_v<P, trnfft::R2CPlan<T>>) {
      if (interleaved)
        plan.execute(a.p[0], cx(a.p[1]));
      else
        plan.execute_split(a.p[0], a.p[1], a.p[2]);
    } else {
      if (interleaved)
        plan.execute(cx(a.p[0]), a.p[1]);
      else
        plan.execute_split(a.p[0], a.p[1], a.p[2]);
    }
  }
};

template <class T>
void run_geometry(const Geometry& geo, Storage storage) {
  if (storage == Storage::split && geo.in_place && geo.kind != Kind::c2c) return;  // covered by split_interleaved
  Runner<T> r(geo, storage);
  SCOPED_TRACE(geo.name + " " + name_of(storage));
  const auto x = r.input(77);
  const auto want = reference(geo.kind, r.shape(), r.howmany(), x, geo.direction);
  std::int64_t n = 1;
  for (auto v : r.shape()) n *= v;
  const double tol = fft_tolerance<T>(n);

  Arrays<T> a = r.allocate();
  auto plan = r.plan(a);
  r.scatter(a, x);
  std::visit([](const auto& p) { p.execute(); }, plan);
  EXPECT_LE(relative_error(r.gather(a), want), tol);
  std::visit([&](const auto& p) { EXPECT_EQ(p.in_place(), geo.in_place) << p.description(); }, plan);
  if (!geo.in_place) {
    // Output positions outside the geometry keep their NaN sentinel: nothing is written out of place.
    const int rd = r.nread();
    std::vector<char> used(r.reals(false), 0);
    for (auto o : r.out_off) {
      if (r.complex_out && storage == Storage::interleaved) {
        used[static_cast<std::size_t>(2 * o)] = used[static_cast<std::size_t>(2 * o + 1)] = 1;
      } else {
        used[static_cast<std::size_t>(o)] = 1;
      }
    }
    if (storage == Storage::interleaved || !r.complex_out || storage == Storage::split)
      for (std::size_t i = 0; i < used.size(); ++i)
        if (!used[i]) {
          ASSERT_TRUE(std::isnan(a.p[rd][i])) << "gap " << i << " written";
        }
  }

  // New-array execute on other arrays of the same layout and alignment.
  Arrays<T> b = r.allocate();
  r.scatter(b, x);
  std::visit([&](const auto& p) { Runner<T>::execute_new(p, b, storage == Storage::interleaved); }, plan);
  EXPECT_LE(relative_error(r.gather(b), want), tol);
}

TYPED_TEST(PlanOracle, GeometriesInterleaved) {
  for (const auto& g : geometries()) run_geometry<TypeParam>(g, Storage::interleaved);
}
TYPED_TEST(PlanOracle, GeometriesSplit) {
  for (const auto& g : geometries()) run_geometry<TypeParam>(g, Storage::split);
}
TYPED_TEST(PlanOracle, GeometriesSplitInterleaved) {
  for (const auto& g : geometries()) run_geometry<TypeParam>(g, Storage::split_interleaved);
}

// ---- The advanced interface: FFTW's own addressing, against the same oracle ----

TYPED_TEST(PlanOracle, ManyDftWithEmbeddingsAndStrides) {
  using T = TypeParam;
  // 3 transforms of 6x5, input embedded in 8x7 rows with istride 2 and idist 2*8*7+3; output dense.
  const std::vector<std::int64_t> n = {6, 5}, inembed = {8, 7};
  const std::int64_t howmany = 3, istride = 2, idist = 2 * 8 * 7 + 3, odist = 30;
  std::vector<std::complex<T>> in(static_cast<std::size_t>(idist * howmany)),
      out(static_cast<std::size_t>(odist * howmany));
  auto plan = trnfft::plan_many_dft(n, howmany, in.data(), inembed, istride, idist, out.data(), {}, 1, odist,
                                    Direction::forward);
  const auto x = random_complex<T>(90, 5);
  std::vector<cld> xl;
  for (std::int64_t b = 0, e = 0; b < howmany; ++b)
    for (std::int64_t i = 0; i < 6; ++i)
      for (std::int64_t j = 0; j < 5; ++j, ++e) {
        in[static_cast<std::size_t>(b * idist + istride * (j + 7 * i))] = x[static_cast<std::size_t>(e)];
        xl.push_back(x[static_cast<std::size_t>(e)]);
      }
  plan.execute();
  EXPECT_LE(relative_error(out, reference(Kind::c2c, n, howmany, xl, Direction::forward)), fft_tolerance<T>(30));
  EXPECT_EQ(plan.input_extent(), 2 * idist + istride * (4 + 7 * 5) + 1);
  EXPECT_EQ(plan.batch_count(), 3);
  EXPECT_EQ(plan.transform_size(), 30);
}

TYPED_TEST(PlanOracle, ManyR2cAndC2rRoundTripWithPaddedRows) {
  using T = TypeParam;
  // FFTW's classic in-place layout through plan_many: real rows padded to 2(n/2+1).
  const std::int64_t n0 = 4, n1 = 9, h = n1 / 2 + 1, howmany = 2;
  const std::vector<std::int64_t> n = {n0, n1}, real_embed = {n0, 2 * h};
  std::vector<std::complex<T>> buf(static_cast<std::size_t>(n0 * h * howmany));
  T* real = reinterpret_cast<T*>(buf.data());
  auto fwd = trnfft::plan_many_dft_r2c(n, howmany, real, real_embed, 1, n0 * 2 * h, buf.data(), {}, 1, n0 * h);
  auto bwd = trnfft::plan_many_dft_c2r(n, howmany, buf.data(), {}, 1, n0 * h, real, real_embed, 1, n0 * 2 * h);
  EXPECT_TRUE(fwd.in_place());
  const auto x = random_reals<T>(static_cast<std::size_t>(n0 * n1 * howmany), 9);
  std::vector<cld> xl(x.begin(), x.end());
  for (std::int64_t b = 0, e = 0; b < howmany; ++b)
    for (std::int64_t i = 0; i < n0; ++i)
      for (std::int64_t j = 0; j < n1; ++j, ++e) real[b * n0 * 2 * h + i * 2 * h + j] = x[static_cast<std::size_t>(e)];
  fwd.execute();
  const auto want = reference(Kind::r2c, n, howmany, xl, Direction::forward);
  EXPECT_LE(relative_error(buf, want), fft_tolerance<T>(n0 * n1));
  bwd.execute();
  std::vector<T> back;
  for (std::int64_t b = 0; b < howmany; ++b)
    for (std::int64_t i = 0; i < n0; ++i)
      for (std::int64_t j = 0; j < n1; ++j) back.push_back(real[b * n0 * 2 * h + i * 2 * h + j] / T(n0 * n1));
  EXPECT_LE(relative_error(back, x), 2 * fft_tolerance<T>(n0 * n1));
}

TYPED_TEST(PlanOracle, BasicInterfaceInPlaceR2c2d) {
  using T = TypeParam;
  const std::int64_t n0 = 5, n1 = 6, h = n1 / 2 + 1;
  std::vector<std::complex<T>> buf(static_cast<std::size_t>(n0 * h));
  T* real = reinterpret_cast<T*>(buf.data());
  auto plan = trnfft::plan_dft_r2c_2d(n0, n1, real, buf.data());
  EXPECT_TRUE(plan.in_place());
  EXPECT_EQ(plan.dims()[0], (IoDim{n0, 2 * h, h}));
  const auto x = random_reals<T>(static_cast<std::size_t>(n0 * n1), 4);
  for (std::int64_t i = 0; i < n0; ++i)
    for (std::int64_t j = 0; j < n1; ++j) real[i * 2 * h + j] = x[static_cast<std::size_t>(i * n1 + j)];
  plan.execute();
  std::vector<cld> xl(x.begin(), x.end());
  EXPECT_LE(relative_error(buf, reference(Kind::r2c, {n0, n1}, 1, xl, Direction::forward)), fft_tolerance<T>(30));
}

// ---- Rigor, threads and wisdom ----

// FFTW exports wisdom from a hash table: the same wisdom may come out in another line order.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TYPED_TEST(PlanOracle, MeasuredAndThreadedPlansAgreeWithTheOracle) {
  using T = TypeParam;
  const std::int64_t n = 4096;
  std::vector<std::complex<T>> x(n), y(n);
  auto measured = trnfft::plan_dft_1d(n, x.data(), y.data(), Direction::forward,
                                      trnfft::PlanOptions{}.with_rigor(trnfft::Rigor::measure));
  auto threaded = trnfft::plan_dft_1d(n, x.data(), y.data(), Direction::forward, trncore::Options{}.with_threads(2));
  EXPECT_EQ(threaded.threads(), 2);
  EXPECT_EQ(measured.threads(), 1);
  const auto in = random_complex<T>(n, 3);
  const std::vector<cld> xl(in.begin(), in.end());
  const auto want = reference(Kind::c2c, {n}, 1, xl, Direction::forward);
  for (const auto* p : {&measured, &threaded}) {
    x = in;  // measure overwrote the arrays while planning
    p->execute();
    EXPECT_LE(relative_error(y, want), fft_tolerance<T>(n)) << p->description();
  }
  EXPECT_FALSE(measured.algorithm().empty());
}

TYPED_TEST(PlanOracle, WisdomRoundTripsThroughStringAndFile) {
  using T = TypeParam;
  std::vector<std::complex<T>> x(1000), y(1000);
  {
    auto p = trnfft::plan_dft_1d(1000, x.data(), y.data(), Direction::forward,
                                 trnfft::PlanOptions{}.with_rigor(trnfft::Rigor::measure));
  }
  const std::string w = trnfft::export_wisdom<T>();
  EXPECT_NE(w.find("fftw"), std::string::npos) << w;
  trnfft::forget_wisdom<T>();
  EXPECT_NE(trnfft::export_wisdom<T>(), w);
  trnfft::import_wisdom<T>(w);
  EXPECT_EQ(sorted_lines(trnfft::export_wisdom<T>()), sorted_lines(w));
  const std::string path = ::testing::TempDir() + "trnfft_wisdom_" + (std::is_same_v<T, float> ? "f" : "d");
  trnfft::export_wisdom_to_file<T>(path);
  trnfft::forget_wisdom<T>();
  trnfft::import_wisdom_from_file<T>(path);
  EXPECT_EQ(sorted_lines(trnfft::export_wisdom<T>()), sorted_lines(w));
  std::remove(path.c_str());
}

}  // namespace
