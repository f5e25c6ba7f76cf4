// ReductionBasis::Append: onto an empty basis (the first block: no 0 x 0 matrix is joined
// with an n-row one, which trips Eigen's assertion in debug builds) and onto a filled one.
#include "reduction/basis.h"

#include <gtest/gtest.h>

namespace jointdyn::reduction {
namespace {

TEST(ReductionBasis, AppendsOntoAnEmptyAndAFilledBasis) {
  ReductionBasis basis;
  const MatX first = MatX::Random(5, 2), second = MatX::Random(5, 1);
  basis.Append(first, VectorKind::kJointMode, {"joint_1", "joint_2"});
  ASSERT_EQ(basis.size(), 2);
  EXPECT_EQ(basis.num_dofs(), 5);
  EXPECT_EQ(basis.vectors, first);
  basis.Append(second, VectorKind::kPreloadMode, {"preload_1"});
  ASSERT_EQ(basis.size(), 3);
  EXPECT_EQ(basis.vectors.leftCols(2), first);
  EXPECT_EQ(basis.vectors.col(2), second.col(0));
  EXPECT_EQ(basis.columns[2].name, "preload_1");
  EXPECT_EQ(basis.columns[0].kind, VectorKind::kJointMode);
  basis.Append(MatX(5, 0), VectorKind::kJointMode, {});  // nothing to add
  EXPECT_EQ(basis.size(), 3);
}

}  // namespace
}  // namespace jointdyn::reduction
