#include "ancf/circle_contact.h"

#include <algorithm>
#include <cmath>

namespace jointdyn::ancf {

bool BoundingBox::Near(const Vec2& point, double distance) const {
  const Vec2 nearest = point.cwiseMax(min).cwiseMin(max);
  return (nearest - point).norm() <= distance;
}

BoundingBox ElementBox(const ElementVector& q, double length) {
  BoundingBox box;
  const Vec2 start = Interpolate(q, length, 0.0, 0), end = Interpolate(q, length, length, 0);
  box.min = start.cwiseMin(end);
  box.max = start.cwiseMax(end);
  // r'(x) = a1 + 2 a2 x + 3 a3 x^2 per coordinate: its coefficients from r' at 0, L/2, L.
  const Vec2 d0 = Interpolate(q, length, 0.0, 1), dm = Interpolate(q, length, 0.5 * length, 1),
             d1 = Interpolate(q, length, length, 1);
  for (int c = 0; c < 2; ++c) {
    // In u = x / L: r' = d0 + b u + a u^2 with a + b = d1 - d0, a / 4 + b / 2 = dm - d0.
    const double a = 2.0 * (d1(c) - d0(c)) - 4.0 * (dm(c) - d0(c)), b = d1(c) - d0(c) - a;
    double roots[2];
    int count = 0;
    if (std::abs(a) > 1e-14 * (std::abs(b) + std::abs(d0(c)))) {
      const double disc = b * b - 4.0 * a * d0(c);
      if (disc >= 0.0) {
        const double s = std::sqrt(disc);
        roots[count++] = (-b - s) / (2.0 * a);
        roots[count++] = (-b + s) / (2.0 * a);
      }
    } else if (b != 0.0) {
      roots[count++] = -d0(c) / b;
    }
    for (int k = 0; k < count; ++k) {
      if (!(roots[k] > 0.0 && roots[k] < 1.0)) continue;
      const double value = Interpolate(q, length, roots[k] * length, 0)(c);
      box.min(c) = std::min(box.min(c), value);
      box.max(c) = std::max(box.max(c), value);
    }
  }
  return box;
}

SegmentGap ChordGap(const Vec2& p0, const Vec2& p1, const Vec2& centre, double radius) {
  SegmentGap g;
  const Vec2 vs = p1 - p0, vp = centre - p0;
  const double squared = vs.squaredNorm();
  g.rho = squared > 0.0 ? std::clamp(vp.dot(vs) / squared, 0.0, 1.0) : 0.0;
  g.point = p0 + g.rho * vs;
  const Vec2 d = g.point - centre;
  g.distance = d.norm();
  g.gap = g.distance - radius;
  g.normal = g.distance > 0.0 ? Vec2(d / g.distance) : Vec2::UnitY();
  g.tangent = squared > 0.0 ? Vec2(vs / std::sqrt(squared)) : Vec2::UnitX();
  return g;
}

std::pair<Vec2, Vec2> Chord(const ElementVector& q, double length, int s, int segments) {
  const double step = length / segments;
  return {Interpolate(q, length, s * step, 0), Interpolate(q, length, (s + 1) * step, 0)};
}

}  // namespace jointdyn::ancf
