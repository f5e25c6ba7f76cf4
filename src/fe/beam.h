// A straight two-node 3D beam between two reference nodes (a bolt shank between the
// reference nodes of its two holes, a stiffener, a connector): stiffness and mass on the 12
// DOFs ux, uy, uz, rx, ry, rz of node a then node b (the reference-node DOF order of
// fe/constraints.h).
//
// Stiffness: the Timoshenko beam with shear deformation (Przemieniecki's frame element):
// axial EA / L, torsion GJ / L, and in each bending plane the cubic element with
// Phi = 12 E I / (kappa G A L^2), exact for end loads: a cantilever's tip deflection under
// a tip force P is P L^3 / (3 E I) + P L / (kappa G A). Short stubby bolts (L of the order
// of d) deform mostly in shear, which the Euler-Bernoulli element (Phi = 0) overrates by a
// factor 1 + Phi.
// Mass: the consistent mass of the Euler-Bernoulli beam (translations rho A L, torsion
// rho J L); the shear and rotary-inertia corrections of the mass are left out (a bolt's
// mass is a fraction of a per cent of a jointed structure's).
#pragma once

#include <Eigen/Dense>

#include "core/types.h"
#include "fe/material.h"

namespace jointdyn::fe {

// Cross-section constants.
struct BeamSection {
  double area = 0.0;          // A [m^2]
  double inertia = 0.0;       // I = I_y = I_z [m^4] (a section symmetric about both axes)
  double torsion = 0.0;       // J [m^4] (also the polar moment of the torsional mass)
  double shear_factor = 1.0;  // kappa [-] > 0 (large: no shear deformation, Euler-Bernoulli)

  // A solid circular section of diameter d [m] > 0: A = pi d^2 / 4, I = pi d^4 / 64,
  // J = pi d^4 / 32, kappa = 6 (1 + nu) / (7 + 6 nu) (Cowper).
  static BeamSection Circular(double diameter, double poisson_ratio);
};

using Mat12 = Eigen::Matrix<double, 12, 12>;

struct BeamMatrices {
  Mat12 stiffness;  // [N/m, N, N m]
  Mat12 mass;       // [kg, kg m, kg m^2]
};

// The matrices in global axes of the beam from xa to xb (distinct points). The bending
// planes are any two orthogonal planes through the axis (the section is symmetric).
BeamMatrices BeamElement(const Vec3& xa, const Vec3& xb, const BeamSection& section,
                         const ElasticMaterial& material);

}  // namespace jointdyn::fe
