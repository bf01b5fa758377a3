// The Eigen adapters alias the Eigen object's memory in both storage orders, through Map, Ref and
// Block (outer stride), and reject non-unit inner strides.
#include <trncore/view_eigen.hpp>

#include <Eigen/Core>
#include <gtest/gtest.h>

namespace {

TEST(ViewEigen, MatricesOfBothStorageOrdersAlias) {
  Eigen::Matrix<double, 5, 7> cm;
  Eigen::Matrix<double, 5, 7, Eigen::RowMajor> rm;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) cm(i, j) = rm(i, j) = 10 * i + j;
  auto vc = trncore::matrix_view(cm);
  auto vr = trncore::matrix_view(rm);
  EXPECT_EQ(vc.layout(), trncore::Layout::col_major);
  EXPECT_EQ(vr.layout(), trncore::Layout::row_major);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      EXPECT_EQ(&vc(i, j), &cm(i, j));
      EXPECT_EQ(&vr(i, j), &rm(i, j));
    }
  // A block keeps the parent's outer stride as its leading dimension.
  auto block = cm.block(1, 2, 3, 4);
  auto vb = trncore::matrix_view(block);
  EXPECT_EQ(vb.ld(), 5);
  EXPECT_EQ(&vb(2, 3), &cm(3, 5));
  Eigen::Ref<Eigen::MatrixXd> ref = cm.block(0, 1, 5, 3);
  EXPECT_EQ(&trncore::matrix_view(ref)(4, 2), &cm(4, 3));
  const Eigen::MatrixXd& cref = cm;
  const auto vconst = trncore::matrix_view(cref);
  EXPECT_EQ(vconst(2, 2), 22.0);
}

TEST(ViewEigen, VectorsAndStrides) {
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(6, 0, 5);
  auto vv = trncore::vector_view(v);
  EXPECT_EQ(&vv[3], &v(3));
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(4, 4);
  auto row = m.row(2);  // inner stride 4 in a column-major matrix
  auto vrow = trncore::vector_view(row);
  EXPECT_EQ(vrow.inc(), 4);
  EXPECT_EQ(&vrow[1], &m(2, 1));
  auto strided = Eigen::Map<Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, 2>>(
      m.data(), 2, 2, Eigen::Stride<Eigen::Dynamic, 2>(4, 2));
  EXPECT_THROW(trncore::matrix_view(strided), trncore::InvalidArgument);
}

}  // namespace
