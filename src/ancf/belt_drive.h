// Belt drives (seed 002 section 4): a closed ANCF belt wrapped round two pulleys, generated
// from the geometry (eq. 35), its frictionless static pre-solve (eq. 36), and the belt's
// axial force and speed where it passes a point. The seed's drive (tables 2-3) is
// examples/belt_drive/seed_belt_drive.yaml.
#pragma once

#include "ancf/cable_system.h"

namespace jointdyn::ancf {

// A closed belt round two pulleys with centres `left` and `right` (on a horizontal line),
// its centreline on circles of `centreline_radius` (the pulley's radius plus half the
// belt's height), in `elements` equal elements from the top of the left pulley along the
// top span (the arc-length parameter s_l of seed 002 fig. 11), round the right pulley,
// back along the bottom span and round the left pulley; reference length the geometric
// one (eq. 35: 2 pi R + 2 d), with the reference strain `reference_strain` (a stress-free
// length (1 + eps_ref) times it: the pre-tension -EA eps_ref, eq. 36).
CableModel ClosedBelt(const Vec2& left, const Vec2& right, double centreline_radius, int elements,
                      const CableSection& section, double reference_strain);

// The belt where it passes a fixed point (a span's middle), at the middle of the element
// whose middle is nearest to the point: its elastic axial force EA (eps - eps_ref) [N] and
// its speed along its tangent [m/s] (signed: along the element's direction).
struct BeltSection {
  int element = 0;
  double axial_force = 0.0, speed = 0.0;
};
BeltSection BeltAt(const CableSystem& system, const VecX& q, const VecX& v, const Vec2& point);
// ... at the reference arc length s from the first node (in [0, the cable's length]).
BeltSection CableAt(const CableSystem& system, const VecX& q, const VecX& v, double s);

// An open straight cable from `start` to `end` in `elements` equal elements with the
// reference strain `reference_strain`, its ends held as `supports` (start, end): pinned (x,
// y), clamped (also the slope's component across the cable: the cable along x or y) or free.
enum class Support { kPinned, kClamped, kFree };
CableModel OpenCable(const Vec2& start, const Vec2& end, int elements, const CableSection& section,
                     double reference_strain, Support start_support, Support end_support);

// The static equilibrium of `model` without friction (SolveStatic: the circles' angles held,
// moving centres free), by Newton from the model's nodes: the model with its nodes, its
// mechanism's bodies' positions and its moving pulleys' shifts at the solution. Fails naming
// Newton's message.
struct PreSolveResult {
  Status status;
  int iterations = 0;  // Newton's
};
PreSolveResult PreSolve(CableModel& model);

}  // namespace jointdyn::ancf
