// The geometry of contact between an ANCF cable element and a circle (seed 002 section
// 2.3, eq. 10-19): the element's exact bounding box (its cubic coordinates' extrema) for
// the pre-search, and per linear segment (the element split into n_s chords) the closest
// point to the circle's centre, the gap and the segment's normal and tangent.
#pragma once

#include "ancf/cable_element.h"
#include "core/types.h"

namespace jointdyn::ancf {

struct BoundingBox {
  Vec2 min = Vec2::Zero(), max = Vec2::Zero();
  // True when the box comes within `distance` of `point` (a circle's centre and its radius).
  bool Near(const Vec2& point, double distance) const;
};

// The element's bounding box: per coordinate the extrema of the cubic r(x) on [0, L] at
// the ends and at the roots of r'(x) inside (eq. 11-13).
BoundingBox ElementBox(const ElementVector& q, double length);

// The closest point of the chord p0 -> p1 to a circle (eq. 14-16).
struct SegmentGap {
  double rho = 0.0;       // position of the closest point on the chord, in [0, 1]
  double distance = 0.0;  // from the centre [m]
  double gap = 0.0;       // distance - radius [m] (< 0: penetration)
  Vec2 point = Vec2::Zero();
  Vec2 normal = Vec2::Zero();   // unit, from the centre towards the point
  Vec2 tangent = Vec2::Zero();  // unit, along the chord (p0 -> p1)
};
SegmentGap ChordGap(const Vec2& p0, const Vec2& p1, const Vec2& centre, double radius);

// The chord end points of segment `s` of `segments` of the element: r(s L / n_s) and
// r((s + 1) L / n_s).
std::pair<Vec2, Vec2> Chord(const ElementVector& q, double length, int s, int segments);

}  // namespace jointdyn::ancf
