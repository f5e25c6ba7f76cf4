// The inertia of a planar flexible body in the floating frame of reference (FFRF, seed 003
// section 2.1.1 after Shabana; eq. 2.9-2.44 in 2D): coordinates q = (x, y, theta, zeta),
// the frame's origin R = (x, y), its angle theta, and the elastic (modal) coordinates zeta
// of the body's reduced basis Phi.
//
// With the body-frame velocity w = A(theta)' R' the kinetic energy is T = p' M^(zeta) p / 2,
// p = (w, theta', zeta'), with the inertia shape integrals (from the FE mass matrix, once):
//   M^ = [[M_ww, c(zeta), S_f], [c', m_tt(zeta), h(zeta)'], [S_f', h(zeta), M_ff]],
//   c = c0 + C1 zeta,  m_tt = g00 + 2 g01' zeta + zeta' G11 zeta,  h = h0 + H zeta.
// For an FE body with translation vectors I2 (n_dof x 2), the rotation field of the
// undeformed body G0 (S u0 at translations, 1 at in-plane rotation DOFs) and the operator
// S_t that rotates displacements by 90 degrees (0 at rotation DOFs): M_ww = I2' M I2,
// c0 = I2' M G0, C1 = I2' M S_t Phi, S_f = I2' M Phi, g00 = G0' M G0, g01 = Phi' S_t' M G0,
// G11 = Phi' S_t' M S_t Phi, h0 = Phi' M G0, H = Phi' M S_t Phi, M_ff = Phi' M Phi.
// A frame at the centre of mass with free-free modes makes c0, S_f and h0 zero; nothing here
// assumes it.
//
// Lagrange's equations give the inertia force f = M(q) q'' - Q_v(q, q'), evaluated in
// closed form with its exact tangents in q and q' (the derivation is in
// flexible_inertia.cc; the test checks all of it against Lagrange's equations by
// second-order forward differentiation of T).
#pragma once

#include "core/types.h"
#include "solvers/matrix.h"

namespace jointdyn::mbs {

// The n x n integrals are sparse: dense for a reduced basis, as sparse as the FE mass
// matrix for an unreduced body (unit DOFs).
struct FlexibleInertia {
  Mat2 m_ww = Mat2::Zero();
  Vec2 c0 = Vec2::Zero();
  MatX c1, s_f;  // 2 x n
  double g00 = 0.0;
  VecX g01;                    // n
  solvers::SparseMatrix g11;   // n x n, symmetric
  VecX h0;                     // n
  solvers::SparseMatrix h;     // n x n
  solvers::SparseMatrix m_ff;  // n x n, symmetric positive definite

  int modes() const { return static_cast<int>(m_ff.rows()); }
  // The body's mass: the translational inertia (M_ww is m I for a body whose mass
  // matrix does not couple x and y).
  double mass() const { return 0.5 * m_ww.trace(); }
  // Checks sizes and symmetry (an internal error naming the block otherwise).
  void Check() const;
  // The kinetic energy at (q, v) [J].
  double KineticEnergy(const VecX& q, const VecX& v) const;
};

// The inertia force of one body and, when asked for, M(q) and its tangents ((3 + n) x
// (3 + n), sparse: the frame's rows and columns and the n x n integrals' patterns).
struct InertiaTerms {
  VecX force;            // M(q) a - Q_v(q, v), 3 + n entries
  solvers::Matrix mass;  // M(q) (dense for a reduced basis, else sparse)
  solvers::Matrix d_dq;  // d force / dq at fixed v, a
  solvers::Matrix d_dv;  // d force / dv at fixed q, a
};

// q, v, a: the body's 3 + n coordinates, velocities and accelerations.
void EvaluateInertia(const FlexibleInertia& body, const VecX& q, const VecX& v, const VecX& a,
                     bool tangents, InertiaTerms& out);

}  // namespace jointdyn::mbs
