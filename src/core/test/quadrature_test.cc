#include "core/quadrature.h"

#include <gtest/gtest.h>

namespace jointdyn {
namespace {

TEST(GaussLegendre, ExactToDegreeTwoNMinusOne) {
  VecX x, w;
  GaussLegendre(12, x, w);
  EXPECT_NEAR(w.sum(), 2.0, 1e-14);
  // x^22 integrates to 2 / 23 with 12 points (exact to degree 23).
  EXPECT_NEAR(w.dot(x.array().pow(22).matrix()), 2.0 / 23.0, 1e-14);
  for (int i = 1; i < x.size(); ++i) EXPECT_LT(x(i - 1), x(i));
}

TEST(GaussLegendre, OnePointIsTheMidpoint) {
  VecX x, w;
  GaussLegendre(1, x, w);
  EXPECT_NEAR(x(0), 0.0, 1e-16);
  EXPECT_DOUBLE_EQ(w(0), 2.0);
}

}  // namespace
}  // namespace jointdyn
