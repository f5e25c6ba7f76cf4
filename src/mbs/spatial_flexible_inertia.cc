#include "mbs/spatial_flexible_inertia.h"

#include <algorithm>
#include <type_traits>

#include "core/error.h"
#include "mbs/body_matrix.h"
#include "mbs/dual.h"
#include "mbs/euler_parameters.h"

namespace jointdyn::mbs::spatial {
namespace {

using Vec4 = Eigen::Vector4d;
using Mat34 = Eigen::Matrix<double, 3, 4>;
constexpr int kFrame = 7;  // R, p
// The frame's kinematic inputs of the tangents: p, R', p'.
constexpr int kInputs = 11;
using D = Dual<kInputs>;

Mat3 Skew(const Vec3& x) {
  return (Mat3() << 0.0, -x(2), x(1), x(2), 0.0, -x(0), -x(1), x(0), 0.0).finished();
}

// sum_b x_b m_b.
template <class M>
M Sum(const std::array<M, 3>& m, const Vec3& x) {
  return x(0) * m[0] + x(1) * m[1] + x(2) * m[2];
}

// The 3 x n matrix with rows (m_b' y)'.
template <class M>
MatX TransposedRows(const std::array<M, 3>& m, const VecX& y) {
  MatX r(3, m[0].cols());
  for (int b = 0; b < 3; ++b) r.row(b) = (m[b].transpose() * y).transpose();
  return r;
}

// The n x n integrals G_bc and H_b of an evaluation: dense (a reduced basis) or sparse.
template <class M>
struct Shapes {
  const std::array<std::array<M, 3>, 3>& g;
  const std::array<M, 3>& h;
};

// f(shapes) with the body's dense integrals when it has them, else its sparse ones.
template <class F>
decltype(auto) WithShapes(const FlexibleInertia& b, F&& f) {
  if (b.dense()) return f(Shapes<MatX>{b.g_dense, b.h_dense});
  return f(Shapes<SparseMatrix>{b.g, b.h});
}

// The state-dependent quantities of one evaluation (spatial_flexible_inertia.h): the frame's
// A, G', the quasi-velocities and their rates, C, C', J, J', H, H' (n x 3), E_bc and the
// momenta pi_w, pi_omega.
struct Kinematics {
  Vec4 p, p_rate, p_acc;
  Mat3 a;
  Mat34 g_bar;
  Vec3 w, omega, w_rate, alpha, pi_w, pi_omega;
  VecX zeta, zeta_rate, zeta_acc;
  Mat3 c, c_rate, j, j_rate;
  MatX h, h_rate;
  std::array<std::array<VecX, 3>, 3> e;

  // sum_bc x_b y_c E_bc.
  VecX E(const Vec3& x, const Vec3& y) const {
    VecX r = VecX::Zero(zeta.size());
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c) r += x(b) * y(c) * e[b][c];
    return r;
  }
  // d(J x)/dzeta: rows b = sum_c x_c (E_bc + E_cb)'.
  MatX JGradient(const Vec3& x) const {
    MatX r = MatX::Zero(3, zeta.size());
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c) r.row(b) += x(c) * (e[b][c] + e[c][b]).transpose();
    return r;
  }
};

// E_bc(zeta) and J(zeta) = g00_bc + e0_bc.zeta + E_cb.zeta.
template <class M>
Mat3 RotationalInertia(const FlexibleInertia& b, const Shapes<M>& s, const VecX& zeta,
                       std::array<std::array<VecX, 3>, 3>& e) {
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) e[i][k] = b.e0[i][k] + s.g[i][k] * zeta;
  Mat3 j;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) j(i, k) = b.g00(i, k) + (b.e0[i][k] + e[k][i]).dot(zeta);
  return j;
}

template <class M>
Kinematics Gather(const FlexibleInertia& b, const Shapes<M>& s, const VecX& q, const VecX& v,
                  const VecX& acc) {
  const int n = b.modes();
  Kinematics k;
  k.p = q.segment<4>(3);
  k.p_rate = v.segment<4>(3);
  k.p_acc = acc.segment<4>(3);
  k.a = RotationMatrix(k.p);
  k.g_bar = GBarMatrix(k.p);
  k.w = k.a.transpose() * v.head<3>();
  k.omega = 2.0 * k.g_bar * k.p_rate;
  k.w_rate = k.a.transpose() * acc.head<3>() - k.omega.cross(k.w);
  k.alpha = 2.0 * k.g_bar * k.p_acc;
  k.zeta = q.tail(n);
  k.zeta_rate = v.tail(n);
  k.zeta_acc = acc.tail(n);
  k.h.resize(n, 3);
  k.h_rate.resize(n, 3);
  for (int c = 0; c < 3; ++c) {
    k.c.col(c) = b.c0.col(c) + b.c1[c] * k.zeta;
    k.c_rate.col(c) = b.c1[c] * k.zeta_rate;
    k.h.col(c) = b.h0[c] + s.h[c] * k.zeta;
    k.h_rate.col(c) = s.h[c] * k.zeta_rate;
  }
  k.j = RotationalInertia(b, s, k.zeta, k.e);
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 3; ++c) k.j_rate(i, c) = (k.e[i][c] + k.e[c][i]).dot(k.zeta_rate);
  k.pi_w = b.m_ww * k.w + k.c * k.omega + b.s_f * k.zeta_rate;
  k.pi_omega = k.c.transpose() * k.w + k.j * k.omega + k.h.transpose() * k.zeta_rate;
  return k;
}

// The forces on the quasi-velocities (F_w, M_w, F_zeta).
struct QuasiForce {
  Vec3 w, omega;
  VecX zeta;
};

template <class M>
QuasiForce Quasi(const FlexibleInertia& b, const Shapes<M>& s, const Kinematics& k) {
  QuasiForce f;
  f.w = b.m_ww * k.w_rate + k.c * k.alpha + k.c_rate * k.omega + b.s_f * k.zeta_acc +
        k.omega.cross(k.pi_w);
  f.omega = k.c.transpose() * k.w_rate + k.c_rate.transpose() * k.w + k.j * k.alpha +
            k.j_rate * k.omega + k.h.transpose() * k.zeta_acc + k.h_rate.transpose() * k.zeta_rate +
            k.omega.cross(k.pi_omega) + k.w.cross(k.pi_w);
  f.zeta = b.s_f.transpose() * k.w_rate + k.h * k.alpha + k.h_rate * k.omega + b.m_ff * k.zeta_acc -
           Sum(b.c1, k.omega).transpose() * k.w - Sum(s.h, k.omega).transpose() * k.zeta_rate -
           k.E(k.omega, k.omega);
  return f;
}

// trace J(0): the scale of the normalization term.
double NormalizationScale(const FlexibleInertia& b) { return b.g00.trace(); }

void Force(const FlexibleInertia& b, const Kinematics& k, const QuasiForce& quasi, VecX& f) {
  const int n = b.modes();
  f.resize(kFrame + n);
  f.head<3>() = k.a * quasi.w;
  f.segment<4>(3) = 2.0 * k.g_bar.transpose() * quasi.omega +
                    NormalizationScale(b) * (k.p.dot(k.p_acc) + k.p_rate.squaredNorm()) * k.p;
  f.tail(n) = quasi.zeta;
}

// B' Y for the quasi rows Y = (w, omega, zeta) of a matrix: (A Y_w, 2 G'^T Y_omega, Y_zeta).
MatX MapRows(const Kinematics& k, const MatX& y) {
  MatX r(kFrame + y.rows() - 6, y.cols());
  r.topRows<3>() = k.a * y.topRows<3>();
  r.middleRows<4>(3) = 2.0 * k.g_bar.transpose() * y.middleRows<3>(3);
  r.bottomRows(y.rows() - 6) = y.bottomRows(y.rows() - 6);
  return r;
}

solvers::Matrix Mass(const FlexibleInertia& b, const Kinematics& k) {
  const int n = b.modes();
  BodyMatrix m(kFrame, n);
  const Mat34 c_g = 2.0 * k.c * k.g_bar;
  m.rows().topLeftCorner<3, 3>() = k.a * b.m_ww * k.a.transpose();
  m.rows().block<3, 4>(0, 3) = k.a * c_g;
  m.rows().topRightCorner(3, n) = k.a * b.s_f;
  m.rows().block<4, 3>(3, 0) = m.rows().block<3, 4>(0, 3).transpose();
  m.rows().block<4, 4>(3, 3) =
      4.0 * k.g_bar.transpose() * k.j * k.g_bar + NormalizationScale(b) * k.p * k.p.transpose();
  m.rows().block(3, kFrame, 4, n) = 2.0 * k.g_bar.transpose() * k.h.transpose();
  m.columns() = m.rows().rightCols(n).transpose();
  return m.Build(b.m_ff);
}

// d(F_w, M_w, F_zeta) / d(w, omega, w', omega'): (6 + n) x 12.
template <class M>
MatX QuasiVelocityDerivative(const FlexibleInertia& b, const Shapes<M>& s, const Kinematics& k) {
  const int n = b.modes();
  const Mat3 sw = Skew(k.w), so = Skew(k.omega);
  MatX d(6 + n, 12);
  d.block<3, 3>(0, 0) = so * b.m_ww;
  d.block<3, 3>(3, 0) = k.c_rate.transpose() + so * k.c.transpose() + sw * b.m_ww - Skew(k.pi_w);
  d.block(6, 0, n, 3) = -Sum(b.c1, k.omega).transpose();
  d.block<3, 3>(0, 3) = k.c_rate + so * k.c - Skew(k.pi_w);
  d.block<3, 3>(3, 3) = k.j_rate + so * k.j - Skew(k.pi_omega) + sw * k.c;
  d.block(6, 3, n, 3) = k.h_rate - TransposedRows(b.c1, k.w).transpose() -
                        TransposedRows(s.h, k.zeta_rate).transpose() -
                        k.JGradient(k.omega).transpose();
  d.block<3, 3>(0, 6) = b.m_ww;
  d.block<3, 3>(3, 6) = k.c.transpose();
  d.block(6, 6, n, 3) = b.s_f.transpose();
  d.block<3, 3>(0, 9) = k.c;
  d.block<3, 3>(3, 9) = k.j;
  d.block(6, 9, n, 3) = k.h;
  return d;
}

// The frame's kinematics k = (w, omega, w', omega') and f_R = A F_w, f_p = 2 G'^T M_w (at
// fixed F_w, M_w) as functions of x = (p, R', p'): d k/dx (12 x 11) and d(f_R, f_p)/dp (7 x 4).
struct FrameDerivatives {
  Eigen::Matrix<double, 12, kInputs> kinematics;
  Eigen::Matrix<double, 7, 4> map;
};

FrameDerivatives FrameJets(const VecX& v, const VecX& acc, const Kinematics& k,
                           const QuasiForce& quasi) {
  V4<D> p, p_rate;
  V3<D> r_rate;
  for (int i = 0; i < 4; ++i) {
    p[i] = D::Variable(k.p(i), i);
    p_rate[i] = D::Variable(k.p_rate(i), 7 + i);
  }
  for (int i = 0; i < 3; ++i) r_rate[i] = D::Variable(v(i), 4 + i);
  const V3<double> r_acc = {acc(0), acc(1), acc(2)};
  const V4<double> p_acc = {k.p_acc(0), k.p_acc(1), k.p_acc(2), k.p_acc(3)};
  const V3<D> w = Rotate(p, r_rate, true), omega_half = GBar(p, p_rate);
  const V3<D> omega = {2.0 * omega_half[0], 2.0 * omega_half[1], 2.0 * omega_half[2]};
  const V3<D> w_rate = Difference(Rotate(p, r_acc, true), Cross(omega, w));
  const V3<D> alpha_half = GBar(p, p_acc);
  FrameDerivatives out;
  for (int i = 0; i < 3; ++i) {
    out.kinematics.row(i) = w[i].g.transpose();
    out.kinematics.row(3 + i) = omega[i].g.transpose();
    out.kinematics.row(6 + i) = w_rate[i].g.transpose();
    out.kinematics.row(9 + i) = 2.0 * alpha_half[i].g.transpose();
  }
  const V3<D> f_r = Rotate(p, quasi.w);
  const V4<D> f_p = GBarTranspose(p, V3<double>{quasi.omega(0), quasi.omega(1), quasi.omega(2)});
  for (int i = 0; i < 3; ++i) out.map.row(i) = f_r[i].g.head<4>().transpose();
  for (int i = 0; i < 4; ++i) out.map.row(3 + i) = 2.0 * f_p[i].g.head<4>().transpose();
  return out;
}

// d f / dq and d f / dv.
template <class M>
void Tangents(const FlexibleInertia& b, const Shapes<M>& s, const Kinematics& k,
              const QuasiForce& quasi, const VecX& v, const VecX& acc, InertiaTerms& out) {
  const int n = b.modes();
  const FrameDerivatives frame = FrameJets(v, acc, k, quasi);
  // Columns p (d q), R' and p' (d v) through the frame's kinematics.
  const MatX through = MapRows(k, QuasiVelocityDerivative(b, s, k) * frame.kinematics);
  BodyMatrix q(kFrame, n), r(kFrame, n);
  q.rows().middleCols<4>(3) = through.topRows<kFrame>().leftCols<4>() + frame.map;
  q.columns().middleCols<4>(3) = through.bottomRows(n).leftCols<4>();
  r.rows().leftCols<kFrame>() = through.topRows<kFrame>().rightCols<kFrame>();
  r.columns() = through.bottomRows(n).rightCols<kFrame>();
  // The normalization term c p (p.p'' + p'.p').
  const double c = NormalizationScale(b);
  q.rows().block<4, 4>(3, 3) +=
      c * ((k.p.dot(k.p_acc) + k.p_rate.squaredNorm()) * Eigen::Matrix4d::Identity() +
           k.p * k.p_acc.transpose());
  r.rows().block<4, 4>(3, 3) += 2.0 * c * k.p * k.p_rate.transpose();
  // Columns zeta and zeta': the frame rows of the quasi-forces' derivatives, then B'.
  const Mat3 sw = Skew(k.w), so = Skew(k.omega);
  const MatX c1_omega = Sum(b.c1, k.omega);
  const MatX momentum_zeta =
      TransposedRows(b.c1, k.w) + k.JGradient(k.omega) + TransposedRows(s.h, k.zeta_rate);
  MatX d_zeta(6, n), d_rate(6, n);
  d_zeta.topRows<3>() = Sum(b.c1, k.alpha) + so * c1_omega;
  d_zeta.bottomRows<3>() = TransposedRows(b.c1, k.w_rate) + k.JGradient(k.alpha) +
                           TransposedRows(s.h, k.zeta_acc) + so * momentum_zeta + sw * c1_omega;
  for (int i = 0; i < 3; ++i)
    for (int c2 = 0; c2 < 3; ++c2)
      d_zeta.row(3 + i) +=
          k.omega(c2) * (s.g[i][c2] * k.zeta_rate + s.g[c2][i] * k.zeta_rate).transpose();
  d_rate.topRows<3>() = c1_omega + so * b.s_f;
  d_rate.bottomRows<3>() = TransposedRows(b.c1, k.w) + k.JGradient(k.omega) +
                           TransposedRows(s.h, k.zeta_rate) + k.h_rate.transpose() +
                           so * k.h.transpose() + sw * b.s_f;
  q.rows().rightCols(n) = MapRows(k, MatX(d_zeta)).topRows<kFrame>();
  r.rows().rightCols(n) = MapRows(k, MatX(d_rate)).topRows<kFrame>();
  M g_omega = (k.omega(0) * k.omega(0)) * s.g[0][0];
  for (int i = 0; i < 3; ++i)
    for (int c2 = 0; c2 < 3; ++c2)
      if (i + c2 > 0) g_omega += k.omega(i) * k.omega(c2) * s.g[i][c2];
  const M h_omega = Sum(s.h, k.omega), h_omega_t = h_omega.transpose();
  const M elastic_q = Sum(s.h, k.alpha) - g_omega, elastic_v = h_omega - h_omega_t;
  out.d_dq = q.Build(elastic_q);
  out.d_dv = r.Build(elastic_v);
}

// S_b: each point's translation u -> e_b x u (rotation DOFs 0); (e_b x u)_a = eps_abc u_c.
SparseMatrix CrossOperator(const PointDofs& d, int b) {
  std::vector<Eigen::Triplet<double>> entries;
  for (const std::array<int, 3>& t : d.translation) {
    const int a1 = (b + 1) % 3, a2 = (b + 2) % 3;  // eps(a1, b, a2) = -1, eps(a2, b, a1) = +1
    entries.emplace_back(t[a1], t[a2], -1.0);
    entries.emplace_back(t[a2], t[a1], 1.0);
  }
  SparseMatrix s(d.count, d.count);
  s.setFromTriplets(entries.begin(), entries.end());
  return s;
}

template <class Basis>
FlexibleInertia Integrals(const PointDofs& d, const SparseMatrix& m, const Basis& phi,
                          const Vec3& origin) {
  MatX t = MatX::Zero(d.count, 3), gamma0 = MatX::Zero(d.count, 3);
  for (size_t p = 0; p < d.translation.size(); ++p) {
    const Vec3 r = d.position[p] - origin;
    for (int b = 0; b < 3; ++b) {
      t(d.translation[p][b], b) = 1.0;
      const Vec3 turned = Vec3::Unit(b).cross(r);
      for (int a = 0; a < 3; ++a) gamma0(d.translation[p][a], b) = turned(a);
      if (d.rotation[p][b] >= 0) gamma0(d.rotation[p][b], b) = 1.0;
    }
  }
  const MatX m_t = m * t, m_gamma0 = m * gamma0;
  const Basis m_phi = m * phi;
  std::array<Basis, 3> psi, m_psi;
  for (int b = 0; b < 3; ++b) {
    psi[b] = CrossOperator(d, b) * phi;
    m_psi[b] = m * psi[b];
  }
  FlexibleInertia body;
  body.m_ww = t.transpose() * m_t;
  body.c0 = t.transpose() * m_gamma0;
  body.s_f = t.transpose() * m_phi;
  body.g00 = gamma0.transpose() * m_gamma0;
  body.g00 = 0.5 * (body.g00 + body.g00.transpose()).eval();
  body.m_ww = 0.5 * (body.m_ww + body.m_ww.transpose()).eval();
  const SparseMatrix m_ff = ToSparse(phi.transpose() * m_phi);
  body.m_ff = 0.5 * (m_ff + SparseMatrix(m_ff.transpose()));
  for (int b = 0; b < 3; ++b) {
    body.c1[b] = t.transpose() * m_psi[b];
    body.h0[b] = phi.transpose() * m_gamma0.col(b);
    body.h[b] = ToSparse(phi.transpose() * m_psi[b]);
    for (int c = 0; c < 3; ++c) body.e0[b][c] = psi[b].transpose() * m_gamma0.col(c);
    for (int c = b; c < 3; ++c) {
      body.g[b][c] = ToSparse(psi[b].transpose() * m_psi[c]);
      if (c == b) body.g[b][b] = 0.5 * (body.g[b][b] + SparseMatrix(body.g[b][b].transpose()));
    }
    for (int c = 0; c < b; ++c) body.g[b][c] = body.g[c][b].transpose();
  }
  if constexpr (std::is_same_v<Basis, MatX>) {
    for (int b = 0; b < 3; ++b) {
      body.h_dense[b] = MatX(body.h[b]);
      for (int c = 0; c < 3; ++c) body.g_dense[b][c] = MatX(body.g[b][c]);
    }
  }
  body.Check();
  return body;
}

}  // namespace

FlexibleInertia InertiaIntegrals(const PointDofs& dofs, const SparseMatrix& mass, const MatX& phi,
                                 const Vec3& origin) {
  return Integrals(dofs, mass, phi, origin);
}

FlexibleInertia InertiaIntegrals(const PointDofs& dofs, const SparseMatrix& mass,
                                 const SparseMatrix& phi, const Vec3& origin) {
  return Integrals(dofs, mass, phi, origin);
}

Mat3 FlexibleInertia::RotationalInertia(const VecX& zeta) const {
  std::array<std::array<VecX, 3>, 3> e;
  return WithShapes(*this,
                    [&](const auto& s) { return spatial::RotationalInertia(*this, s, zeta, e); });
}

void FlexibleInertia::Check() const {
  const int n = modes();
  bool sizes = s_f.rows() == 3 && s_f.cols() == n && m_ff.cols() == n;
  double asymmetry = solvers::MaxAbsEntry(m_ff - SparseMatrix(m_ff.transpose()));
  for (int b = 0; b < 3; ++b) {
    sizes = sizes && c1[b].rows() == 3 && c1[b].cols() == n && h0[b].size() == n &&
            h[b].rows() == n && h[b].cols() == n;
    for (int c = 0; c < 3; ++c) {
      sizes = sizes && e0[b][c].size() == n && g[b][c].rows() == n && g[b][c].cols() == n;
      if (sizes)
        asymmetry =
            std::max(asymmetry, solvers::MaxAbsEntry(g[b][c] - SparseMatrix(g[c][b].transpose())));
    }
  }
  JD_CHECK(sizes, "spatial FlexibleInertia: C1, S_f (3 x n), e0, h0 (n), G, H, M_ff (n x n) sizes");
  const double scale = std::max(1.0, solvers::MaxAbsEntry(m_ff));
  JD_CHECK(asymmetry <= 1e-12 * scale && (m_ww - m_ww.transpose()).norm() <= 1e-12 * m_ww.norm() &&
               (g00 - g00.transpose()).norm() <= 1e-12 * std::max(1.0, g00.norm()),
           "spatial FlexibleInertia: M_ww, g00, M_ff must be symmetric and G_cb = G_bc'");
}

double FlexibleInertia::KineticEnergy(const VecX& q, const VecX& v) const {
  const Kinematics k = WithShapes(
      *this, [&](const auto& s) { return Gather(*this, s, q, v, VecX::Zero(v.size())); });
  return 0.5 * (k.w.dot(k.pi_w) + k.omega.dot(k.pi_omega) +
                k.zeta_rate.dot(s_f.transpose() * k.w + k.h * k.omega + m_ff * k.zeta_rate));
}

std::pair<Vec3, Vec3> FlexibleInertia::Momenta(const VecX& q, const VecX& v) const {
  const Kinematics k = WithShapes(
      *this, [&](const auto& s) { return Gather(*this, s, q, v, VecX::Zero(v.size())); });
  return {k.pi_w, k.pi_omega};
}

void EvaluateInertia(const FlexibleInertia& body, const VecX& q, const VecX& v, const VecX& a,
                     bool tangents, InertiaTerms& out) {
  WithShapes(body, [&](const auto& s) {
    const Kinematics k = Gather(body, s, q, v, a);
    const QuasiForce quasi = Quasi(body, s, k);
    Force(body, k, quasi, out.force);
    if (!tangents) return;
    out.mass = Mass(body, k);
    Tangents(body, s, k, quasi, v, a, out);
  });
}

}  // namespace jointdyn::mbs::spatial
