// trncore::Tensor and trncore::TensorView: the argument checks name the function and the values, and strided,
// permuted, sliced and broadcast views (real and complex) read the elements that index arithmetic done by hand
// says they should.
#include <trncore/tensor.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace {

using trncore::Shape;
using trncore::Tensor;
using trncore::TensorView;
using trnsci_testing::expect_error;
using cf = std::complex<float>;
using cd = std::complex<double>;

TEST(Tensor, ChecksNameTheFunctionAndTheValues) {
  expect_error<trncore::InvalidArgument>([] { Tensor<double>({2, -1}); }, "trncore::Tensor", {"negative extent"});
  expect_error<trncore::InvalidArgument>(
      [] {
        Tensor<double>({1ll << 40, 1ll << 40});
      },
      "trncore::Tensor", {"more than 2^63"});
  expect_error<trncore::DimensionMismatch>(
      [] {
        Tensor<double>({2, 2}, {1.0, 2.0});
      },
      "trncore::Tensor", {"4 elements but 2 values"});
  expect_error<trncore::DimensionMismatch>([] { Tensor<cd>({3}, std::vector<cd>(2)); }, "trncore::Tensor",
                                           {"3 elements but 2 values"});
  double x = 0;
  expect_error<trncore::InvalidArgument>([&] { TensorView<double>(&x, {2}, {-1}); }, "trncore::TensorView",
                                         {"negative"});
  expect_error<trncore::DimensionMismatch>(
      [&] {
        TensorView<double>(&x, {2}, {1, 1});
      },
      "trncore::TensorView", {"2 strides"});
  expect_error<trncore::InvalidArgument>([&] { TensorView<double>(nullptr, {2}); }, "trncore::TensorView",
                                         {"null pointer"});
  expect_error<trncore::InvalidArgument>(
      [&] {
        TensorView<double>(&x, {3, 3}, {1ll << 62, 1});
      },
      "trncore::TensorView", {"beyond 2^63"});
  Tensor<double> t({2, 3});
  expect_error<trncore::InvalidArgument>([&] { t.at({2, 0}); }, "trncore::TensorView::at", {"index [2, 0]"});
  expect_error<trncore::InvalidArgument>([&] { t.at({0}); }, "trncore::TensorView::at", {"index [0]", "[2, 3]"});
  expect_error<trncore::InvalidArgument>([&] { t.view().slice(1, 2, 4); }, "trncore::TensorView::slice",
                                         {"range [2, 4)"});
  expect_error<trncore::InvalidArgument>([&] { t.view().slice(2, 0, 1); }, "trncore::TensorView::slice", {"of axis 2"});
  const int bad[] = {0, 0};
  expect_error<trncore::InvalidArgument>([&] { t.view().permuted(bad); }, "trncore::TensorView::permuted",
                                         {"not a permutation"});
  const int short_axes[] = {1};
  expect_error<trncore::InvalidArgument>([&] { t.view().permuted(short_axes); }, "trncore::TensorView::permuted",
                                         {"not a permutation"});
}

TEST(Tensor, ShapesSizesAndZeros) {
  const Tensor<double> scalar;
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.size(), 1);
  EXPECT_EQ(scalar(), 0.0);
  const Tensor<cf> z({2, 0, 3});
  EXPECT_EQ(z.size(), 0);
  EXPECT_EQ(z.rank(), 3);
  // A zero extent beside extents whose product would overflow is an empty tensor, not an error.
  EXPECT_EQ(Tensor<float>({0, 1ll << 40, 1ll << 40}).size(), 0);
  const Tensor<cd> c({2, 3});
  for (const cd& v : c.values()) EXPECT_EQ(v, cd(0.0, 0.0));
  EXPECT_EQ(trncore::detail::row_major_strides(Shape{2, 3, 4}), (Shape{12, 4, 1}));
  EXPECT_EQ(trncore::detail::row_major_strides(Shape{2, 0, 4}), (Shape{4, 4, 1}));
  EXPECT_EQ(trncore::detail::shape_string(Shape{2, 3, 4}), "[2, 3, 4]");
  EXPECT_EQ(trncore::detail::checked_size("f", Shape{}), 1);
}

TEST(Tensor, TakesItsValuesWithoutACopy) {
  std::vector<cd> values(24);
  for (std::size_t e = 0; e < values.size(); ++e) values[e] = cd(static_cast<double>(e), -static_cast<double>(e));
  const cd* storage = values.data();
  const Tensor<cd> t({2, 3, 4}, std::move(values));
  EXPECT_EQ(t.data(), storage);  // the vector's buffer itself, moved in
  // Row-major: (i, j, k) is element 12 i + 4 j + k.
  for (std::int64_t i = 0; i < 2; ++i)
    for (std::int64_t j = 0; j < 3; ++j)
      for (std::int64_t k = 0; k < 4; ++k) {
        const auto e = static_cast<double>(12 * i + 4 * j + k);
        EXPECT_EQ(t(i, j, k), cd(e, -e));
        EXPECT_EQ(t.at({i, j, k}), cd(e, -e));
      }
  // values() of an expiring tensor moves the buffer out, again without a copy.
  Tensor<cd> u = t;
  const cd* u_storage = u.data();
  const std::vector<cd> out = std::move(u).values();
  EXPECT_EQ(out.data(), u_storage);
  EXPECT_EQ(out, t.values());
}

// A complex view that is sliced on one axis and permuted reads element (a, b, c) of the result at the offset
// computed by hand from the original row-major strides.
TEST(TensorView, PermutedAndSlicedComplexViewsReadTheRightElements) {
  // Shape [3, 4, 5], element (i, j, k) = (100 i + 10 j + k) + i·(i + j + k).
  std::vector<cf> data(60);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k)
        data[static_cast<std::size_t>(20 * i + 5 * j + k)] =
            cf(static_cast<float>(100 * i + 10 * j + k), static_cast<float>(i + j + k));
  const TensorView<cf> v(data.data(), {3, 4, 5});
  EXPECT_TRUE(v.is_row_major_contiguous());
  const TensorView<cf> s = v.slice(1, 1, 3);  // j in [1, 3)
  EXPECT_EQ(s.shape(), (Shape{3, 2, 5}));
  EXPECT_FALSE(s.is_row_major_contiguous());
  const int axes[] = {2, 0, 1};
  const TensorView<const cf> p = static_cast<TensorView<const cf>>(s).permuted(axes);  // (k, i, j')
  EXPECT_EQ(p.shape(), (Shape{5, 3, 2}));
  EXPECT_EQ(p.strides(), (Shape{1, 20, 5}));
  for (std::int64_t k = 0; k < 5; ++k)
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t jj = 0; jj < 2; ++jj) {
        const std::int64_t j = jj + 1;
        const cf expect = data[static_cast<std::size_t>(20 * i + 5 * j + k)];
        EXPECT_EQ(p.at({k, i, jj}), expect) << k << " " << i << " " << jj;
        const std::int64_t idx[] = {k, i, jj};
        EXPECT_EQ(p(idx), expect);
      }
  // copy_of gathers the permuted, sliced view into a dense row-major tensor of the same elements.
  const Tensor<cf> dense = Tensor<cf>::copy_of(p);
  EXPECT_EQ(dense.shape(), (Shape{5, 3, 2}));
  for (std::int64_t k = 0; k < 5; ++k)
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t jj = 0; jj < 2; ++jj)
        EXPECT_EQ(dense(k, i, jj), data[static_cast<std::size_t>(20 * i + 5 * (jj + 1) + k)]);
  // Writing through a mutable complex view changes the element the index arithmetic names.
  s.at({2, 1, 4}) = cf(-1.0f, -2.0f);
  EXPECT_EQ(data[static_cast<std::size_t>(20 * 2 + 5 * 2 + 4)], cf(-1.0f, -2.0f));
}

TEST(TensorView, ExplicitStridesAndBroadcast) {
  // A column-major 3×2 complex<double> matrix viewed with strides {1, 3}: (i, j) is data[i + 3 j].
  std::vector<cd> data(6);
  for (std::size_t e = 0; e < 6; ++e) data[e] = cd(static_cast<double>(e), 0.5 * static_cast<double>(e));
  const TensorView<const cd> m(data.data(), {3, 2}, {1, 3});
  EXPECT_FALSE(m.is_row_major_contiguous());
  for (std::int64_t i = 0; i < 3; ++i)
    for (std::int64_t j = 0; j < 2; ++j) EXPECT_EQ(m.at({i, j}), data[static_cast<std::size_t>(i + 3 * j)]);
  const int t_axes[] = {1, 0};
  EXPECT_TRUE(m.permuted(t_axes).is_row_major_contiguous());  // its transpose is row-major 2×3
  // Stride 0 repeats one element along an axis.
  const TensorView<const cd> b(data.data() + 4, {2, 3}, {0, 0});
  for (std::int64_t i = 0; i < 2; ++i)
    for (std::int64_t j = 0; j < 3; ++j) EXPECT_EQ(b.at({i, j}), data[4]);
  // An empty slice keeps the shape's other extents.
  EXPECT_EQ(m.slice(0, 2, 2).size(), 0);
  // A Tensor passes where a read-only view is expected, over the same storage.
  const Tensor<float> t({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  const TensorView<const float> tv = t;
  EXPECT_EQ(tv.data(), t.data());
  EXPECT_EQ(tv.at({1, 0}), 3.0f);
}

}  // namespace
