#include "fe/beam.h"

#include <cmath>
#include <numbers>

#include "core/error.h"

namespace jointdyn::fe {

BeamSection BeamSection::Circular(double diameter, double poisson_ratio) {
  JD_CHECK(diameter > 0.0, "BeamSection::Circular: the diameter must be > 0");
  const double d2 = diameter * diameter;
  const double pi = std::numbers::pi;
  return {.area = pi * d2 / 4.0,
          .inertia = pi * d2 * d2 / 64.0,
          .torsion = pi * d2 * d2 / 32.0,
          .shear_factor = 6.0 * (1.0 + poisson_ratio) / (7.0 + 6.0 * poisson_ratio)};
}

namespace {

// Adds the 4 x 4 bending block `b` (DOF order: deflection a, rotation a, deflection b,
// rotation b) at the local DOFs `dofs`.
void AddBending(Mat12& m, const int (&dofs)[4], const Eigen::Matrix4d& b) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m(dofs[i], dofs[j]) += b(i, j);
}

// Adds [[diagonal, off_diagonal], [off_diagonal, diagonal]] at the DOFs i and j of the two
// ends (the axial and torsional bar).
void AddBar(Mat12& m, int i, int j, double diagonal, double off_diagonal) {
  m(i, i) += diagonal;
  m(j, j) += diagonal;
  m(i, j) += off_diagonal;
  m(j, i) += off_diagonal;
}

// Bending in the plane of local axes x and y (deflection v = uy, rotation rz) has the
// signs below; in the x-z plane (w = uz, ry = -dw/dx) the coupling terms change sign:
// `sign` = 1 for x-y, -1 for x-z.
Eigen::Matrix4d BendingStiffness(double ei, double length, double phi, double sign) {
  const double l = length;
  const double c = ei / (l * l * l * (1.0 + phi));
  const double s = sign * 6.0 * l;
  Eigen::Matrix4d k;
  k << 12.0, s, -12.0, s,                               //
      s, (4.0 + phi) * l * l, -s, (2.0 - phi) * l * l,  //
      -12.0, -s, 12.0, -s,                              //
      s, (2.0 - phi) * l * l, -s, (4.0 + phi) * l * l;
  return c * k;
}

Eigen::Matrix4d BendingMass(double mass, double length, double sign) {
  const double l = length;
  const double a = sign * 22.0 * l;
  const double b = sign * 13.0 * l;
  Eigen::Matrix4d m;
  m << 156.0, a, 54.0, -b,              //
      a, 4.0 * l * l, b, -3.0 * l * l,  //
      54.0, b, 156.0, -a,               //
      -b, -3.0 * l * l, -a, 4.0 * l * l;
  return (mass / 420.0) * m;
}

}  // namespace

BeamMatrices BeamElement(const Vec3& xa, const Vec3& xb, const BeamSection& section,
                         const ElasticMaterial& material) {
  const Vec3 axis = xb - xa;
  const double length = axis.norm();
  JD_CHECK(length > 0.0, "BeamElement: the two nodes coincide");
  JD_CHECK(section.area > 0.0 && section.inertia > 0.0 && section.torsion > 0.0 &&
               section.shear_factor > 0.0,
           "BeamElement: section constants must be > 0");
  // Local axes: e1 along the beam, e2 and e3 any orthonormal pair across it.
  const Vec3 e1 = axis / length;
  const Vec3 helper = std::abs(e1.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 e2 = e1.cross(helper).normalized();
  const Vec3 e3 = e1.cross(e2);

  const double e = material.youngs_modulus;
  const double g = material.ShearModulus();
  const double ei = e * section.inertia;
  const double phi = 12.0 * ei / (section.shear_factor * g * section.area * length * length);
  const double mass = material.density * section.area * length;

  Mat12 k = Mat12::Zero();
  Mat12 m = Mat12::Zero();
  const double axial = e * section.area / length;
  const double torsion = g * section.torsion / length;
  AddBar(k, 0, 6, axial, -axial);
  AddBar(k, 3, 9, torsion, -torsion);
  AddBar(m, 0, 6, mass / 3.0, mass / 6.0);
  const double torsional_mass = material.density * section.torsion * length;
  AddBar(m, 3, 9, torsional_mass / 3.0, torsional_mass / 6.0);
  const int xy[4] = {1, 5, 7, 11};  // v_a, rz_a, v_b, rz_b
  const int xz[4] = {2, 4, 8, 10};  // w_a, ry_a, w_b, ry_b
  AddBending(k, xy, BendingStiffness(ei, length, phi, 1.0));
  AddBending(k, xz, BendingStiffness(ei, length, phi, -1.0));
  AddBending(m, xy, BendingMass(mass, length, 1.0));
  AddBending(m, xz, BendingMass(mass, length, -1.0));

  // Global DOFs: u_global = R^T u_local per 3-vector, with the rows of R the local axes.
  Mat3 rotation;
  rotation.row(0) = e1.transpose();
  rotation.row(1) = e2.transpose();
  rotation.row(2) = e3.transpose();
  Mat12 r = Mat12::Zero();
  for (int block = 0; block < 4; ++block) r.block<3, 3>(3 * block, 3 * block) = rotation;
  return {.stiffness = r.transpose() * k * r, .mass = r.transpose() * m * r};
}

}  // namespace jointdyn::fe
