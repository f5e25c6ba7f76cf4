// Belt drives (seed 002 section 4): a closed ANCF belt wrapped round two pulleys, generated
// from the geometry (eq. 35), its frictionless static pre-solve (eq. 36), and the seed's
// belt drive (tables 2-3) as a CableModel.
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

// The static equilibrium of `model` without friction (its pulleys held), by Newton from the
// model's nodes: the model with its nodes at the solution. Fails naming Newton's message.
Status PreSolve(CableModel& model);

// Seed 002's belt drive (tables 2-3, eq. 35-37) with `elements` elements (nominal 240,
// reference 480): pulley P1 (left, index 0) driven at 12 rad/s (speed ramp 0.05-0.6 s),
// P2 (right) with inertia 0.25 kg m^2, damping 2 N m s and the torque of eq. 37 (25 N m
// from t = 1 to 1.5 s, braking: against P2's rotation); contact per table 3 with the
// velocity penalty 3.22e5 N s/m^3 that reproduces table 4 (seeds README); gravity.
CableModel SeedBeltDrive(int elements);

}  // namespace jointdyn::ancf
