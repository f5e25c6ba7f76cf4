// The inertia of a spatial flexible body in the floating frame of reference (FFRF, seed 003
// section 2.1.1 after Shabana, eq. 2.9-2.44): coordinates q = (R, p, zeta), the frame's
// origin R, the Euler parameters p of its axes (euler_parameters.h) and the elastic (modal)
// coordinates zeta of the body's reduced basis Phi.
//
// With the body-frame velocities w = A(p)' R', omega = 2 G'(p) p' and zeta' (quasi-velocities
// u = (w, omega, zeta')), the kinetic energy is T = u' M^(zeta) u / 2 with
//   M^ = [[M_ww, C(zeta), S_f], [C', J(zeta), H(zeta)'], [S_f', H(zeta), M_ff]].
// For an FE body: T the translation vectors (all DOFs x 3), Gamma(zeta) = Gamma0 + Psi zeta
// the velocity field of a unit body-frame rotation about axis b (column b: e_b x the point's
// position x0 + Phi zeta at translations, e_b at rotation DOFs), Psi_b = S_b Phi with S_b the
// operator e_b x u at each point (0 at rotation DOFs):
//   M_ww = T' M T,  C = T' M Gamma: c0 (columns T' M gamma0_b) + C1_b zeta, C1_b = T' M Psi_b,
//   S_f = T' M Phi,  J_bc = Gamma_b' M Gamma_c = g00_bc + e0_bc.zeta + E_cb(zeta).zeta with
//   E_bc(zeta) = Psi_b' M Gamma_c = e0_bc + G_bc zeta, G_bc = Psi_b' M Psi_c,
//   H = Phi' M Gamma: columns h0_b + H_b zeta, H_b = Phi' M Psi_b,  M_ff = Phi' M Phi.
// J(zeta) is the inertia tensor about the frame's origin.
//
// The equations of motion in quasi-velocities (Hamel; the rigid body's Newton-Euler
// equations extended by the elastic coordinates):
//   F_w = d/dt(pi_w) + omega x pi_w,  M_w = d/dt(pi_omega) + omega x pi_omega + w x pi_w,
//   F_zeta = d/dt(pi_zeta) - dT/dzeta,  pi = M^ u,
// with w' = A' R'' - omega x w and omega' = 2 G'(p) p'' (G'(p') p' = 0), mapped to the
// coordinates by the transpose of u = B(q) q': f_R = A F_w, f_p = 2 G'^T M_w, f_zeta = F_zeta.
// As for the rigid body (spatial_system.h) f_p gets c p (p.p'' + p'.p'), c = trace J(0),
// which vanishes on the normalization constraint's acceleration level and makes the mass
// matrix B' M^ B + c p p' regular. These are Lagrange's equations of T on the constraint
// manifold (|p| = 1, p.p' = 0) up to a multiple of p in f_p (taken up by the normalization's
// multiplier); the test checks both against second-order forward differentiation of T.
//
// The tangents d f/dq and d f/dv are exact for these formulas: the frame's kinematics (w,
// omega, w', omega' and B' from p, R', p') by forward differentiation, the dependence on
// the quasi-velocities and on zeta, zeta' in closed form.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "core/types.h"
#include "mbs/flexible_inertia.h"  // InertiaTerms
#include "solvers/matrix.h"

namespace jointdyn::mbs::spatial {

using solvers::SparseMatrix;

// The integrals of the header's comment; the n x n ones sparse (dense for a reduced basis,
// as sparse as the FE mass matrix for an unreduced body).
struct FlexibleInertia {
  Mat3 m_ww = Mat3::Zero();
  Mat3 c0 = Mat3::Zero();
  std::array<MatX, 3> c1;  // 3 x n
  MatX s_f;                // 3 x n
  Mat3 g00 = Mat3::Zero();
  std::array<std::array<VecX, 3>, 3> e0;         // e0[b][c]: n
  std::array<std::array<SparseMatrix, 3>, 3> g;  // g[b][c] = g[c][b]': n x n
  std::array<VecX, 3> h0;                        // n
  std::array<SparseMatrix, 3> h;                 // n x n
  SparseMatrix m_ff;                             // n x n, symmetric positive definite
  // A reduced basis' G and H also dense, where an evaluation's sums and products run (empty
  // for an unreduced body).
  std::array<std::array<MatX, 3>, 3> g_dense;
  std::array<MatX, 3> h_dense;
  bool dense() const { return h_dense[0].size() > 0; }

  int modes() const { return static_cast<int>(m_ff.rows()); }
  double mass() const { return m_ww.trace() / 3.0; }
  // J(zeta), the inertia tensor about the frame's origin in body axes [kg m^2].
  Mat3 RotationalInertia(const VecX& zeta) const;
  // Checks sizes and symmetry (an internal error naming the block otherwise).
  void Check() const;
  // T at (q, v) [J] (q = (R, p, zeta), 7 + n entries).
  double KineticEnergy(const VecX& q, const VecX& v) const;
  // The momenta pi_w = dT/dw and pi_omega = dT/domega at (q, v) in body axes: the body's
  // linear momentum A pi_w, its angular momentum about the frame's origin A pi_omega.
  std::pair<Vec3, Vec3> Momenta(const VecX& q, const VecX& v) const;
};

// The roles of an FE body's DOFs (all of them: mesh nodes, then reference nodes): per point
// its x, y, z translation DOFs and its position; per point the DOFs of its rotations about
// x, y, z (-1: none, as at a solid's mesh nodes).
struct PointDofs {
  std::vector<std::array<int, 3>> translation, rotation;
  std::vector<Vec3> position;  // [m]
  int count = 0;               // all DOFs
};

// The integrals for the basis `phi` on all DOFs (dense: reduced; sparse: unit DOFs) with
// the FE mass matrix `mass` on all DOFs, about `origin` (the frame's origin in the FE
// model's coordinates).
FlexibleInertia InertiaIntegrals(const PointDofs& dofs, const SparseMatrix& mass, const MatX& phi,
                                 const Vec3& origin);
FlexibleInertia InertiaIntegrals(const PointDofs& dofs, const SparseMatrix& mass,
                                 const SparseMatrix& phi, const Vec3& origin);

// The inertia force f = M(q) a - Q_v(q, v) of one body and, when asked for, M(q) and its
// tangents ((7 + n) x (7 + n)).
void EvaluateInertia(const FlexibleInertia& body, const VecX& q, const VecX& v, const VecX& a,
                     bool tangents, InertiaTerms& out);

}  // namespace jointdyn::mbs::spatial
