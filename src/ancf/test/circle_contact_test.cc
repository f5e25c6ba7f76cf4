// The contact geometry of seed 002 section 2.3: the element's bounding box against dense
// sampling of the curve, the chord gap against the exact distance of a point from a
// segment, and the segments' gap along an element bent round a circle converging to the
// exact gap as the segments are refined.
#include "ancf/circle_contact.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace jointdyn::ancf {
namespace {

TEST(CircleContact, BoundingBoxIsTheCurvesExtent) {
  ElementVector q;
  q << 0.1, -0.2, 1.5, 2.0, 0.5, 0.1, -1.0, 1.2;  // an S-shaped cubic
  const double length = 0.4;
  const BoundingBox box = ElementBox(q, length);
  Vec2 lo = Vec2::Constant(1e9), hi = Vec2::Constant(-1e9);
  for (int i = 0; i <= 100000; ++i) {
    const Vec2 r = Interpolate(q, length, length * i / 100000.0, 0);
    lo = lo.cwiseMin(r);
    hi = hi.cwiseMax(r);
  }
  EXPECT_LT((box.min - lo).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((box.max - hi).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_TRUE((box.max - box.min).minCoeff() > (hi - lo).minCoeff() - 1e-9);
  EXPECT_TRUE(box.Near(Vec2(lo.x() - 0.05, 0.5 * (lo.y() + hi.y())), 0.051));
  EXPECT_FALSE(box.Near(Vec2(lo.x() - 0.05, 0.5 * (lo.y() + hi.y())), 0.049));
}

TEST(CircleContact, ChordGapIsTheDistanceToTheSegment) {
  const Vec2 p0(0.0, 0.0), p1(2.0, 0.0);
  // Above the inside: the perpendicular distance; beyond an end: the end's distance.
  const SegmentGap inside = ChordGap(p0, p1, {0.5, 1.0}, 0.4);
  EXPECT_NEAR(inside.rho, 0.25, 1e-15);
  EXPECT_NEAR(inside.gap, 0.6, 1e-15);
  EXPECT_LT((inside.normal - Vec2(0.0, -1.0)).norm(), 1e-15);
  EXPECT_LT((inside.tangent - Vec2(1.0, 0.0)).norm(), 1e-15);
  const SegmentGap beyond = ChordGap(p0, p1, {3.0, 1.0}, 0.4);
  EXPECT_EQ(beyond.rho, 1.0);
  EXPECT_NEAR(beyond.distance, std::sqrt(2.0), 1e-15);
}

// An element bent round a circle (the positions and slopes of an arc of radius R - 1 mm
// about its centre): the deepest penetration of its chords approaches the curve's own (by
// dense sampling) as the segments shrink, at second order (the chords' sagitta).
TEST(CircleContact, SegmentGapsConvergeToTheCurvesGap) {
  const double r = 0.1, arc = 0.5, press = 1e-3;  // arc angle [rad]
  const double rb = r - press;                    // the element's radius
  ElementVector q;
  q << rb, 0.0, 0.0, 1.0, rb * std::cos(arc), rb * std::sin(arc), -std::sin(arc), std::cos(arc);
  const double length = rb * arc;
  double exact = 1.0;
  for (int i = 0; i <= 100000; ++i)
    exact = std::min(exact, Interpolate(q, length, length * i / 100000.0, 0).norm() - r);
  std::vector<double> errors;
  for (const int n : {2, 4, 8, 16}) {
    double deepest = 1.0;
    for (int s = 0; s < n; ++s) {
      const auto [p0, p1] = Chord(q, length, s, n);
      deepest = std::min(deepest, ChordGap(p0, p1, Vec2::Zero(), r).gap);
    }
    errors.push_back(std::abs(deepest - exact));
    std::printf("segments %2d: deepest chord gap %.6e m, curve %.6e m, error %.2e m\n", n, deepest,
                exact, errors.back());
  }
  EXPECT_LT(errors.back(), 1.5e-4 * r);           // the sagitta of a 16th of 0.5 rad: 1.2e-4 R
  EXPECT_NEAR(errors[1] / errors[3], 16.0, 3.0);  // second order in the segment length
}

}  // namespace
}  // namespace jointdyn::ancf
