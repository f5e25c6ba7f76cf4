// The ANCF cable element (seed 002 eq. 1-8): patch tests (rigid motion gives no force, a
// pure stretch the exact axial force, a small constant curvature the exact end moments),
// the consistent mass and load, and the stiffness and damping tangents against central
// differences for the three integration schemes.
#include "ancf/cable_element.h"

#include <gtest/gtest.h>

#include <cmath>

namespace jointdyn::ancf {
namespace {

constexpr double kLength = 0.4;

CableSection Section(Integration scheme) {
  return {.axial_stiffness = 8000.0,
          .bending_stiffness = 4.0 / 3.0 * 1e-3,
          .mass_per_length = 0.8288,
          .axial_damping = 1.0,
          .bending_damping = 1e-4,
          .integration = scheme};
}

// Coordinates of r(x) = origin + A (x stretch, bend x^2 / 2) (a quadratic, exact in the
// cubic element) turned by `angle`.
ElementVector Curve(double stretch, double bend, double angle, const Vec2& origin) {
  const Mat2 a = Eigen::Rotation2Dd(angle).toRotationMatrix();
  const auto r = [&](double x) { return Vec2(origin + a * Vec2(stretch * x, 0.5 * bend * x * x)); };
  const auto d = [&](double x) { return Vec2(a * Vec2(stretch, bend * x)); };
  ElementVector q;
  q << r(0.0), d(0.0), r(kLength), d(kLength);
  return q;
}

TEST(CableElement, RigidMotionGivesNoForce) {
  for (const Integration scheme : {Integration::kA, Integration::kB, Integration::kC}) {
    ElementVector f;
    const double energy =
        ElementForces(Section(scheme), {.length = kLength}, Curve(1.0, 0.0, 0.7, {0.3, -0.2}),
                      ElementVector::Zero(), f, nullptr, nullptr);
    EXPECT_LT(f.lpNorm<Eigen::Infinity>(), 1e-10);
    EXPECT_LT(energy, 1e-20);
  }
}

// A straight element stretched by e: eps = e everywhere, f = EA e (-t, 0, t, 0) exactly;
// with the reference strain e the element is stress-free.
TEST(CableElement, PureStretchGivesTheExactAxialForce) {
  const double e = 0.01, angle = -0.4;
  const Vec2 t(std::cos(angle), std::sin(angle));
  for (const Integration scheme : {Integration::kA, Integration::kB, Integration::kC}) {
    const CableSection s = Section(scheme);
    const ElementVector q = Curve(1.0 + e, 0.0, angle, {0.1, 0.2});
    ElementVector f, expected = ElementVector::Zero();
    expected.segment<2>(0) = -s.axial_stiffness * e * t;
    expected.segment<2>(4) = s.axial_stiffness * e * t;
    const double energy =
        ElementForces(s, {.length = kLength}, q, ElementVector::Zero(), f, nullptr, nullptr);
    EXPECT_LT((f - expected).lpNorm<Eigen::Infinity>(), 1e-9 * s.axial_stiffness * e);
    EXPECT_NEAR(energy, 0.5 * s.axial_stiffness * e * e * kLength, 1e-12);
    ElementForces(s, {.length = kLength, .reference_strain = e}, q, ElementVector::Zero(), f,
                  nullptr, nullptr);
    EXPECT_LT(f.lpNorm<Eigen::Infinity>(), 1e-9);
  }
}

// A small constant curvature kappa (r = (x, kappa x^2 / 2): K = kappa / (1 + kappa^2 x^2)):
// the end moments -EI kappa, +EI kappa on the slopes' normal components, nothing on the
// positions, to O(kappa L) relative (the bending terms alone: the parabola also stretches
// by kappa^2 x^2 / 2).
TEST(CableElement, SmallConstantCurvatureGivesTheEndMoments) {
  const double kappa = 1e-4;
  for (const Integration scheme : {Integration::kA, Integration::kB, Integration::kC}) {
    CableSection s = Section(scheme);
    s.axial_stiffness = 0.0;
    ElementVector f, expected = ElementVector::Zero();
    expected(3) = -s.bending_stiffness * kappa;
    expected(7) = s.bending_stiffness * kappa;
    ElementForces(s, {.length = kLength}, Curve(1.0, kappa, 0.0, Vec2::Zero()),
                  ElementVector::Zero(), f, nullptr, nullptr);
    EXPECT_LT((f - expected).lpNorm<Eigen::Infinity>(),
              2.0 * kappa * kLength * s.bending_stiffness * kappa)
        << f.transpose();
  }
}

TEST(CableElement, TangentsMatchCentralDifferences) {
  ElementVector q = Curve(1.02, 2.0, 0.3, {0.1, -0.3}), v;
  q(3) += 0.05;  // not a quadratic: the curvature varies
  v << 0.3, -0.1, 0.2, 0.5, -0.4, 0.2, 0.1, -0.3;
  for (const Integration scheme : {Integration::kA, Integration::kB, Integration::kC}) {
    const CableSection s = Section(scheme);
    const CableElement element{
        .length = kLength, .reference_strain = -0.01, .reference_curvature = 0.5};
    ElementVector f;
    ElementMatrix k, d;
    ElementForces(s, element, q, v, f, &k, &d);
    const double h = 1e-7;
    ElementMatrix k_fd, d_fd;
    for (int j = 0; j < 8; ++j) {
      ElementVector fp, fm;
      const ElementVector e = h * ElementVector::Unit(j);
      ElementForces(s, element, q + e, v, fp, nullptr, nullptr);
      ElementForces(s, element, q - e, v, fm, nullptr, nullptr);
      k_fd.col(j) = (fp - fm) / (2 * h);
      ElementForces(s, element, q, v + e, fp, nullptr, nullptr);
      ElementForces(s, element, q, v - e, fm, nullptr, nullptr);
      d_fd.col(j) = (fp - fm) / (2 * h);
    }
    EXPECT_LT((k - k_fd).lpNorm<Eigen::Infinity>(), 1e-6 * k_fd.lpNorm<Eigen::Infinity>());
    EXPECT_LT((d - d_fd).lpNorm<Eigen::Infinity>(), 1e-6 * d_fd.lpNorm<Eigen::Infinity>());
  }
}

// The mass of a rigid translation is rho A L; of a rotation about the element's centre the
// rod's rho A L^3 / 12; a distributed load sums to p L.
TEST(CableElement, MassAndLoadIntegrateExactly) {
  const double rho_a = 0.8288;
  const ElementMatrix m = ElementMass(rho_a, kLength);
  ElementVector translation;
  translation << 1, 0, 0, 0, 1, 0, 0, 0;
  EXPECT_NEAR(translation.dot(m * translation), rho_a * kLength, 1e-15);
  ElementVector rotation;  // r = (0, x - L/2) per unit angle: slopes (0, 1)
  rotation << 0, -0.5 * kLength, 0, 1, 0, 0.5 * kLength, 0, 1;
  EXPECT_NEAR(rotation.dot(m * rotation), rho_a * std::pow(kLength, 3) / 12.0, 1e-15);
  const ElementVector load = ElementLoad({0.0, -9.81 * rho_a}, kLength);
  EXPECT_NEAR(load(1) + load(5), -9.81 * rho_a * kLength, 1e-14);
  EXPECT_NEAR(load(3), -9.81 * rho_a * kLength * kLength / 12.0, 1e-14);  // end moments
}

}  // namespace
}  // namespace jointdyn::ancf
