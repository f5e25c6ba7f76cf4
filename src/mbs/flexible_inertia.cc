#include "mbs/flexible_inertia.h"

#include <cmath>
#include <vector>

#include "core/error.h"
#include "mbs/body_matrix.h"

namespace jointdyn::mbs {
namespace {

// The rotation by 90 degrees, S = dA/dtheta A'.
const Mat2 kS = (Mat2() << 0.0, -1.0, 1.0, 0.0).finished();

Mat2 Rotation(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return (Mat2() << c, -s, s, c).finished();
}

// The state-dependent quantities of one evaluation (see flexible_inertia.h):
// w = A' R', aw = A' R'', w' = aw - omega S w, pi_w = M_ww w + c omega + S_f zeta'.
struct Kinematics {
  Mat2 a;
  Vec2 w, aw, w_rate, pi_w;
  double omega = 0.0, alpha = 0.0, m_tt = 0.0;
  VecX zeta, zeta_rate, zeta_acc;
  Vec2 c;     // c0 + C1 zeta
  VecX e, h;  // g01 + G11 zeta (half the gradient of m_tt), h0 + H zeta
};

Kinematics Gather(const FlexibleInertia& b, const VecX& q, const VecX& v, const VecX& acc) {
  const int n = b.modes();
  Kinematics k;
  k.a = Rotation(q(2));
  k.w = k.a.transpose() * v.head<2>();
  k.aw = k.a.transpose() * acc.head<2>();
  k.omega = v(2);
  k.alpha = acc(2);
  k.zeta = q.tail(n);
  k.zeta_rate = v.tail(n);
  k.zeta_acc = acc.tail(n);
  k.c = b.c0 + b.c1 * k.zeta;
  k.e = b.g01 + b.g11 * k.zeta;
  k.m_tt = b.g00 + 2.0 * b.g01.dot(k.zeta) + k.zeta.dot(b.g11 * k.zeta);
  k.h = b.h0 + b.h * k.zeta;
  k.w_rate = k.aw - k.omega * kS * k.w;
  k.pi_w = b.m_ww * k.w + k.c * k.omega + b.s_f * k.zeta_rate;
  return k;
}

// Lagrange's equations d/dt dT/dq' - dT/dq (dT/dR = 0, dT/dtheta = -pi_w . S w):
//   f_R = A (pi_w' + omega S pi_w),  f_w = pi_w' + omega S pi_w
//       = M_ww w' + omega C1 zeta' + alpha c + S_f zeta'' + omega S pi_w,
//   f_theta = (C1 zeta') . w + c . w' + 2 omega e . zeta' + m_tt alpha + (H zeta') . zeta'
//             + h . zeta'' + pi_w . S w,
//   f_zeta = S_f' w' + omega H zeta' + alpha h + M_ff zeta'' - omega C1' w - omega^2 e
//            - omega H' zeta'.
Vec2 BodyFrameForce(const FlexibleInertia& b, const Kinematics& k) {
  return b.m_ww * k.w_rate + k.omega * (b.c1 * k.zeta_rate) + k.alpha * k.c + b.s_f * k.zeta_acc +
         k.omega * kS * k.pi_w;
}

void Force(const FlexibleInertia& b, const Kinematics& k, VecX& f) {
  const int n = b.modes();
  const VecX hz = b.h * k.zeta_rate;
  f.resize(3 + n);
  f.head<2>() = k.a * BodyFrameForce(b, k);
  f(2) = (b.c1 * k.zeta_rate).dot(k.w) + k.c.dot(k.w_rate) + 2.0 * k.omega * k.e.dot(k.zeta_rate) +
         k.m_tt * k.alpha + hz.dot(k.zeta_rate) + k.h.dot(k.zeta_acc) + k.pi_w.dot(kS * k.w);
  f.tail(n) = b.s_f.transpose() * k.w_rate + k.omega * hz + k.alpha * k.h + b.m_ff * k.zeta_acc -
              k.omega * (b.c1.transpose() * k.w) - k.omega * k.omega * k.e -
              k.omega * (b.h.transpose() * k.zeta_rate);
}

// M(q): the coefficients of the accelerations in the force.
solvers::Matrix Mass(const FlexibleInertia& b, const Kinematics& k) {
  const int n = b.modes();
  BodyMatrix m(3, n);
  m.rows().topLeftCorner<2, 2>() = k.a * b.m_ww * k.a.transpose();
  m.rows().block<2, 1>(0, 2) = k.a * k.c;
  m.rows().topRightCorner(2, n) = k.a * b.s_f;
  m.rows()(2, 2) = k.m_tt;
  m.rows().block(2, 3, 1, n) = k.h.transpose();
  m.rows().block<1, 2>(2, 0) = m.rows().block<2, 1>(0, 2).transpose();
  m.columns() = m.rows().rightCols(n).transpose();
  return m.Build(b.m_ff);
}

// d f / dq (columns R: zero, theta, zeta) and d f / dv (columns R', omega, zeta'), from
// dw/dtheta = -S w, d aw/dtheta = -S aw, d w'/dtheta = -S aw - omega w, d w'/d omega = -S w,
// d w'/dR' = -omega S A', dw/dR' = A', d pi_w/dtheta = -M_ww S w and dA/dtheta = A S.
void Tangents(const FlexibleInertia& b, const Kinematics& k, InertiaTerms& out) {
  const int n = b.modes();
  const Vec2 sw = kS * k.w;
  const MatX c1t = b.c1.transpose(), sft = b.s_f.transpose();
  const VecX hz = b.h * k.zeta_rate;
  BodyMatrix q(3, n), v(3, n);
  // f_R = A f_w.
  const Vec2 fw_theta = b.m_ww * (-kS * k.aw - k.omega * k.w) - k.omega * kS * b.m_ww * sw;
  q.rows().block<2, 1>(0, 2) = k.a * kS * BodyFrameForce(b, k) + k.a * fw_theta;
  q.rows().topRightCorner(2, n) = k.a * (k.alpha * b.c1 + k.omega * k.omega * kS * b.c1);
  v.rows().topLeftCorner<2, 2>() = k.a * (k.omega * (kS * b.m_ww - b.m_ww * kS)) * k.a.transpose();
  v.rows().block<2, 1>(0, 2) =
      k.a * (-b.m_ww * sw + b.c1 * k.zeta_rate + kS * k.pi_w + k.omega * kS * k.c);
  v.rows().topRightCorner(2, n) = k.a * (k.omega * b.c1 + k.omega * kS * b.s_f);
  // f_theta.
  q.rows()(2, 2) = -(b.c1 * k.zeta_rate).dot(sw) - k.c.dot(kS * k.aw) - k.omega * k.c.dot(k.w) -
                   (b.m_ww * sw).dot(sw) + k.pi_w.dot(k.w);
  q.rows().block(2, 3, 1, n) =
      (c1t * k.w_rate + 2.0 * k.omega * (b.g11 * k.zeta_rate) + 2.0 * k.alpha * k.e +
       b.h.transpose() * k.zeta_acc + k.omega * (c1t * sw))
          .transpose();
  const Vec2 g_w = b.c1 * k.zeta_rate + k.omega * kS * k.c + b.m_ww * sw - kS * k.pi_w;
  v.rows().block<1, 2>(2, 0) = (k.a * g_w).transpose();
  v.rows()(2, 2) = 2.0 * k.e.dot(k.zeta_rate);
  v.rows().block(2, 3, 1, n) = (c1t * k.w + 2.0 * k.omega * k.e + b.h * k.zeta_rate +
                                b.h.transpose() * k.zeta_rate + sft * sw)
                                   .transpose();
  // f_zeta.
  q.columns().col(2) = -sft * (kS * k.aw) - k.omega * (sft * k.w) + k.omega * (c1t * sw);
  v.columns().leftCols(2) = (-k.omega * sft * kS - k.omega * c1t) * k.a.transpose();
  v.columns().col(2) =
      -sft * sw + hz - c1t * k.w - 2.0 * k.omega * k.e - b.h.transpose() * k.zeta_rate;
  const solvers::SparseMatrix h_t = b.h.transpose();
  out.d_dq = q.Build(solvers::SparseMatrix(k.alpha * b.h - k.omega * k.omega * b.g11));
  out.d_dv = v.Build(solvers::SparseMatrix(k.omega * (b.h - h_t)));
}

}  // namespace

void FlexibleInertia::Check() const {
  const int n = modes();
  JD_CHECK(c1.rows() == 2 && c1.cols() == n && s_f.rows() == 2 && s_f.cols() == n,
           "FlexibleInertia: C1 and S_f must be 2 x n");
  JD_CHECK(g01.size() == n && h0.size() == n && g11.rows() == n && g11.cols() == n &&
               h.rows() == n && h.cols() == n && m_ff.cols() == n,
           "FlexibleInertia: g01, h0 (n) and G11, H, M_ff (n x n) sizes");
  const double scale = std::max(1.0, solvers::MaxAbsEntry(m_ff));
  const solvers::SparseMatrix g11_t = g11.transpose(), m_ff_t = m_ff.transpose();
  JD_CHECK(solvers::MaxAbsEntry(g11 - g11_t) <= 1e-12 * scale &&
               solvers::MaxAbsEntry(m_ff - m_ff_t) <= 1e-12 * scale &&
               std::abs(m_ww(0, 1) - m_ww(1, 0)) <= 1e-12 * std::abs(m_ww(0, 0)),
           "FlexibleInertia: M_ww, G11 and M_ff must be symmetric");
}

double FlexibleInertia::KineticEnergy(const VecX& q, const VecX& v) const {
  InertiaTerms terms;
  EvaluateInertia(*this, q, VecX::Zero(v.size()), v, false, terms);  // M(q) v
  return 0.5 * v.dot(terms.force);
}

void EvaluateInertia(const FlexibleInertia& body, const VecX& q, const VecX& v, const VecX& a,
                     bool tangents, InertiaTerms& out) {
  const Kinematics k = Gather(body, q, v, a);
  Force(body, k, out.force);
  if (!tangents) return;
  out.mass = Mass(body, k);
  Tangents(body, k, out);
}

}  // namespace jointdyn::mbs
