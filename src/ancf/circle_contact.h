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

// The segment length L_seg in the sticking position x_curStick = x_c,p + rho L_seg (seed 002
// eq. 22-24): the reference one (the seed's and Exudyn's: "the axial stretch is not
// considered") or the chord's current length (follows the stretch).
enum class StickLength { kReference, kCurrent };

// The contact law of seed 002 per unit contact area (the belt's width times the segment's
// length): the normal pressure k_c (-g) - d_c v_n (eq. 9, n = 1) and the bristle friction
// mu_k dx_stick + mu_v v_t, limited by Coulomb's mu p (eq. 20-21).
struct ContactLaw {
  double width = 1.0;              // b [m], > 0
  double offset = 0.0;             // the contact surface's distance from the centreline [m]
  double normal_stiffness = 0.0;   // k_c [N/m^3], > 0
  double normal_damping = 0.0;     // d_c [N s/m^3], >= 0
  double friction = 0.0;           // mu [-], >= 0
  double bristle_stiffness = 0.0;  // mu_k [N/m^3], >= 0
  double velocity_penalty = 0.0;   // mu_v [N s/m^3], >= 0
  int segments = 4;                // n_s per element, >= 1
  StickLength stick_length = StickLength::kReference;
};

// A segment's data variables of the post-Newton step (eq. 26), fixed during Newton.
struct SegmentState {
  double gap = 1.0;              // x_gap [m] at the last PNS: <= 0 in contact
  int slip = -2;                 // x_slip: -2 undefined (not yet in contact), 0 stick, +-1 slip
  double stick_reference = 0.0;  // x_stickRef [m]
};

// The circle a segment touches: centre, radius, its angle and rate (a fixed circle: 0, 0)
// and its centre's velocity.
struct CircleState {
  Vec2 centre = Vec2::Zero();
  double radius = 0.0;
  double angle = 0.0, rate = 0.0;
  Vec2 velocity = Vec2::Zero();
};

// One segment's contact force as the internal force (the negative of the applied force) on
// the element's 8 coordinates and the circle's angle (9 entries), with K = df/d(q, angle) and
// D = df/d(v, rate) (eq. 31-34: the segment force at the chord's closest point, shared by its
// ends in the ratio rho; the circle's torque about its centre). A moving centre's share
// follows from these (MovingCentre).
struct SegmentForces {
  Eigen::Matrix<double, 9, 1> f = Eigen::Matrix<double, 9, 1>::Zero();
  Eigen::Matrix<double, 9, 9> k = Eigen::Matrix<double, 9, 9>::Zero();
  Eigen::Matrix<double, 9, 9> d = Eigen::Matrix<double, 9, 9>::Zero();
  double energy = 0.0;                    // the penalty's and the bristle's [J]
  double normal = 0.0, tangential = 0.0;  // the segment's forces on the belt [N]
};

// The forces of segment `s` of an element (reference length `length`) in contact per
// `state` (nothing when state.gap > 0); K and D only with `tangents`.
SegmentForces SegmentContactForces(const ContactLaw& law, const CircleState& circle, double length,
                                   int s, const SegmentState& state, const ElementVector& q,
                                   const ElementVector& v, bool tangents = true);

// The segment forces on a moving circle's centre too, on (element, angle, centre x, y): the
// forces depend on the element's positions only relative to the centre and their velocities
// relative to its velocity (the position shape functions sum to one), so with B = [I_9, -E]
// (E puts the centre's x, y onto both nodes' positions) they are B^T f, B^T K B, B^T D B.
struct CentreForces {
  Eigen::Matrix<double, 11, 1> f;
  Eigen::Matrix<double, 11, 11> k = Eigen::Matrix<double, 11, 11>::Zero();
  Eigen::Matrix<double, 11, 11> d = Eigen::Matrix<double, 11, 11>::Zero();
};
// `tangents` false: f alone (k, d zero).
CentreForces MovingCentre(const SegmentForces& forces, bool tangents = true);

// The post-Newton step of one segment (seed 002 fig. 5) at the converged state: the new
// data variables `state` (contact from the gap's sign; first contact sticks at the current
// position; in contact it sticks while the bristle force stays within mu p, else slips with
// its reference moved to the slip limit) and the switching error [N] (eq. 27-29) against the
// last pass's `state`: k_c |dg| A when the gap changed sign, | |f_t| - mu p | A when the
// stick-slip state changed. The bristle is measured from `start`, the data variables at the
// step's start (as Exudyn's): every pass of a step decides from the same reference, not from
// one a previous pass moved.
double UpdateSegment(const ContactLaw& law, const CircleState& circle, double length, int s,
                     const ElementVector& q, const ElementVector& v, const SegmentState& start,
                     SegmentState& state);

}  // namespace jointdyn::ancf
