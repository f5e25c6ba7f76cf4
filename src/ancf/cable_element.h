// The planar cubic ANCF cable element (seed 002 section 2.1, eq. 1-8): two nodes with the
// position r and the slope r' = dr/dx each, q = [r0, r0', r1, r1'] (8 coordinates), cubic
// Hermite shape functions on the reference length L. Axial strain eps = |r'| - 1 and the
// material curvature K = (r' x r'') / |r'|^2 enter the virtual work of elastic forces
//   dW = int EA (eps - eps0) d eps + int EI (K - K0) d K dx   (eq. 4)
// and of strain-rate damping d_eps eps' d eps + d_K K' d K (eq. 6-8), integrated with one of
// the selective reduced schemes of table 1 (axial / bending): a 5 / 3 Gauss-Legendre points,
// b 4 / 2, c 3 Gauss-Lobatto (0, L/2, L) / 2 Gauss-Legendre. eps and K are evaluated on
// second-order jets (mbs/jet.h) of the 8 coordinates: the forces, the stiffness and the
// damping tangent are exact. SI units.
#pragma once

#include <Eigen/Dense>
#include <array>

#include "core/types.h"

namespace jointdyn::ancf {

using ElementVector = Eigen::Matrix<double, 8, 1>;
using ElementMatrix = Eigen::Matrix<double, 8, 8>;

// Seed 002 table 1.
enum class Integration { kA, kB, kC };

struct CableSection {
  double axial_stiffness = 0.0;    // EA [N], > 0
  double bending_stiffness = 0.0;  // EI [N m^2], >= 0
  double mass_per_length = 0.0;    // rho A [kg/m], > 0
  double axial_damping = 0.0;      // d_eps [N s], >= 0
  double bending_damping = 0.0;    // d_K [N m^2 s], >= 0
  Integration integration = Integration::kC;
};

// One element's reference state.
struct CableElement {
  double length = 0.0;               // reference length L [m], > 0
  double reference_strain = 0.0;     // eps0 [-] (a pre-strain: the cable is stress-free at it)
  double reference_curvature = 0.0;  // K0 [1/m]
};

// The shape functions S1..S4 (eq. 3) or their `derivative`-th derivatives (0, 1, 2) at
// x in [0, L].
std::array<double, 4> Shape(double x, double length, int derivative);

// r(x), r'(x) or r''(x) (derivative 0, 1, 2) of the element with coordinates q.
Vec2 Interpolate(const ElementVector& q, double length, double x, int derivative);

// The axial strain eps = |r'| - 1 and the curvature K at x.
double AxialStrain(const ElementVector& q, double length, double x);
double Curvature(const ElementVector& q, double length, double x);

// The element's internal force f (elastic and viscous, f in M q'' + f = f_ext [N]) at the
// coordinates q and rates v; when `stiffness` is given also K = df/dq and D = df/dv. Returns
// the element's strain energy [J] (axial and bending, at the integration points).
double ElementForces(const CableSection& section, const CableElement& element,
                     const ElementVector& q, const ElementVector& v, ElementVector& f,
                     ElementMatrix* stiffness, ElementMatrix* damping);

// The consistent mass matrix rho A int S' S dx and the load of a distributed force per
// length p [N/m] (gravity: rho A g), int S' p dx.
ElementMatrix ElementMass(double mass_per_length, double length);
ElementVector ElementLoad(const Vec2& per_length, double length);

}  // namespace jointdyn::ancf
