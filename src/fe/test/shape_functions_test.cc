#include "fe/shape_functions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace jointdyn::fe {
namespace {

const std::vector<ElementType> kAllTypes{
    ElementType::kLine2, ElementType::kLine3, ElementType::kTri3, ElementType::kTri6,
    ElementType::kQuad4, ElementType::kQuad8, ElementType::kTet4, ElementType::kTet10,
    ElementType::kHex8,  ElementType::kHex20};

bool IsSimplex(ElementType type) {
  return type == ElementType::kTri3 || type == ElementType::kTri6 || type == ElementType::kTet4 ||
         type == ElementType::kTet10;
}

bool IsQuadratic(ElementType type) {
  return type == ElementType::kLine3 || type == ElementType::kTri6 || type == ElementType::kQuad8 ||
         type == ElementType::kTet10 || type == ElementType::kHex20;
}

// A random point inside the reference element.
VecX RandomPoint(ElementType type, std::mt19937& rng) {
  const int dim = Dimension(type);
  std::uniform_real_distribution<double> u(IsSimplex(type) ? 0.0 : -1.0, 1.0);
  VecX xi(dim);
  do {
    for (int d = 0; d < dim; ++d) xi(d) = u(rng);
  } while (IsSimplex(type) && xi.sum() > 1.0);
  return xi;
}

double Factorial(int n) { return std::tgamma(n + 1.0); }

// Exact integral of prod xi_d^e_d over the reference element: on [-1, 1]^D the product of
// (1 + (-1)^e) / (e + 1); on the unit simplex prod e_d! / (sum e + D)!.
double ExactMonomialIntegral(ElementType type, const std::vector<int>& e) {
  if (IsSimplex(type)) {
    double num = 1.0;
    int sum = 0;
    for (int x : e) {
      num *= Factorial(x);
      sum += x;
    }
    return num / Factorial(sum + static_cast<int>(e.size()));
  }
  double value = 1.0;
  for (int x : e) value *= (x % 2 == 0) ? 2.0 / (x + 1.0) : 0.0;
  return value;
}

TEST(ShapeFunctions, KroneckerAtNodesAndPartitionOfUnity) {
  std::mt19937 rng(7);
  for (ElementType type : kAllTypes) {
    SCOPED_TRACE(Name(type));
    const MatX nodes = ReferenceNodes(type);
    ASSERT_EQ(nodes.rows(), NodesPerElement(type));
    ASSERT_EQ(nodes.cols(), Dimension(type));
    ShapeValues s;
    for (int i = 0; i < nodes.rows(); ++i) {
      const VecX xi = nodes.row(i).transpose();
      EvaluateShape(type, xi.data(), s);
      for (int j = 0; j < nodes.rows(); ++j) EXPECT_NEAR(s.n(j), i == j ? 1.0 : 0.0, 1e-14);
    }
    for (int trial = 0; trial < 20; ++trial) {
      const VecX xi = RandomPoint(type, rng);
      EvaluateShape(type, xi.data(), s);
      EXPECT_NEAR(s.n.sum(), 1.0, 1e-14);
      EXPECT_LT(s.dn.colwise().sum().cwiseAbs().maxCoeff(), 1e-13);
    }
  }
}

// sum N_i x_i reproduces the linear fields (all types) and the complete quadratic fields
// (quadratic types: serendipity elements contain them too) exactly.
TEST(ShapeFunctions, ReproducePolynomialFields) {
  std::mt19937 rng(11);
  for (ElementType type : kAllTypes) {
    SCOPED_TRACE(Name(type));
    const MatX nodes = ReferenceNodes(type);
    const int dim = Dimension(type);
    ShapeValues s;
    for (int trial = 0; trial < 20; ++trial) {
      const VecX xi = RandomPoint(type, rng);
      EvaluateShape(type, xi.data(), s);
      for (int a = 0; a < dim; ++a) {
        EXPECT_NEAR(s.n.dot(nodes.col(a)), xi(a), 1e-14);
        EXPECT_NEAR(s.dn.col(a).dot(nodes.col(a)), 1.0, 1e-13);
        if (!IsQuadratic(type)) continue;
        for (int b = a; b < dim; ++b) {
          const VecX field = nodes.col(a).cwiseProduct(nodes.col(b));
          EXPECT_NEAR(s.n.dot(field), xi(a) * xi(b), 1e-14);
        }
      }
    }
  }
}

TEST(ShapeFunctions, DerivativesMatchCentralDifferences) {
  std::mt19937 rng(3);
  const double h = 1e-6;
  for (ElementType type : kAllTypes) {
    SCOPED_TRACE(Name(type));
    ShapeValues s, plus, minus;
    for (int trial = 0; trial < 10; ++trial) {
      const VecX xi = RandomPoint(type, rng);
      EvaluateShape(type, xi.data(), s);
      for (int d = 0; d < Dimension(type); ++d) {
        VecX xp = xi, xm = xi;
        xp(d) += h;
        xm(d) -= h;
        EvaluateShape(type, xp.data(), plus);
        EvaluateShape(type, xm.data(), minus);
        // Quadratic functions: the central difference is exact up to rounding ~1e-16 / h.
        EXPECT_LT(((plus.n - minus.n) / (2.0 * h) - s.dn.col(d)).cwiseAbs().maxCoeff(), 1e-9);
      }
    }
  }
}

TEST(Quadrature, IntegratesMonomialsUpToItsDegree) {
  for (ElementType type : kAllTypes) {
    const int dim = Dimension(type);
    for (int degree = 0; degree <= 8; ++degree) {
      const QuadratureRule rule = Quadrature(type, degree);
      SCOPED_TRACE(std::string(Name(type)) + " degree " + std::to_string(degree));
      // Every monomial of total degree <= degree.
      std::vector<int> e(dim, 0);
      for (;;) {
        int total = 0;
        for (int x : e) total += x;
        if (total <= degree) {
          double sum = 0.0;
          for (int k = 0; k < rule.size(); ++k) {
            double value = rule.weights(k);
            for (int d = 0; d < dim; ++d) value *= std::pow(rule.points(k, d), e[d]);
            sum += value;
          }
          const double exact = ExactMonomialIntegral(type, e);
          EXPECT_NEAR(sum, exact, 1e-14 * std::max(1.0, std::abs(exact)));
        }
        int d = 0;
        while (d < dim && ++e[d] > degree) e[d++] = 0;
        if (d == dim) break;
      }
    }
  }
}

}  // namespace
}  // namespace jointdyn::fe
