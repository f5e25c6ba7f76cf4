// The planar FFRF inertia force f = M(q) a - Q_v(q, v) against Lagrange's equations of the
// kinetic energy T = p' M^(zeta) p / 2, differentiated to second order by jets (an
// independent route to M, Q_v and dT/dq), and its closed-form tangents against central
// differences; for inertia blocks without the simplifications of a centred free-free
// frame (c0, S_f, h0, M_ww off-diagonal all non-zero).
#include "mbs/flexible_inertia.h"

#include <gtest/gtest.h>

#include <cmath>

#include "mbs/jet.h"

namespace jointdyn::mbs {
namespace {

constexpr int kModes = 3;
constexpr int kVars = 2 * (3 + kModes);  // q and v
using J = Jet<kVars>;

FlexibleInertia RandomBody() {
  std::srand(7);
  FlexibleInertia b;
  const MatX r = MatX::Random(kModes, kModes);
  b.m_ww << 2.0, 0.1, 0.1, 2.3;
  b.c0 << 0.05, -0.02;
  b.c1 = 0.1 * MatX::Random(2, kModes);
  b.s_f = 0.1 * MatX::Random(2, kModes);
  b.g00 = 0.4;
  b.g01 = 0.1 * VecX::Random(kModes);
  b.g11 = MatX(0.2 * (r + r.transpose()) + MatX::Identity(kModes, kModes)).sparseView();
  b.h0 = 0.1 * VecX::Random(kModes);
  b.h = MatX(0.3 * MatX::Random(kModes, kModes)).sparseView();
  b.m_ff = MatX(r * r.transpose() + MatX::Identity(kModes, kModes)).sparseView();
  b.Check();
  return b;
}

// T(q, v) as a jet of the 12 variables (q, v).
J Kinetic(const FlexibleInertia& b, const VecX& q, const VecX& v) {
  std::array<J, kVars> x;
  for (int i = 0; i < 3 + kModes; ++i) {
    x[i] = J::Variable(q(i), i);
    x[3 + kModes + i] = J::Variable(v(i), 3 + kModes + i);
  }
  const J* qv = x.data();
  const J* vv = x.data() + 3 + kModes;
  const J c = cos(qv[2]), s = sin(qv[2]);
  const J w[2] = {c * vv[0] + s * vv[1], -1.0 * s * vv[0] + c * vv[1]};
  const J omega = vv[2];
  J t = 0.0, m_tt = b.g00;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) t += 0.5 * b.m_ww(i, j) * (w[i] * w[j]);
  for (int i = 0; i < 2; ++i) {
    J ci = b.c0(i);
    for (int k = 0; k < kModes; ++k) ci += b.c1(i, k) * qv[3 + k];
    t += w[i] * ci * omega;
    for (int k = 0; k < kModes; ++k) t += b.s_f(i, k) * (w[i] * vv[3 + k]);
  }
  for (int k = 0; k < kModes; ++k) {
    m_tt += 2.0 * b.g01(k) * qv[3 + k];
    J hk = b.h0(k);
    for (int l = 0; l < kModes; ++l) {
      m_tt += b.g11.coeff(k, l) * (qv[3 + k] * qv[3 + l]);
      hk += b.h.coeff(k, l) * qv[3 + l];
      t += 0.5 * b.m_ff.coeff(k, l) * (vv[3 + k] * vv[3 + l]);
    }
    t += omega * hk * vv[3 + k];
  }
  return t + 0.5 * m_tt * (omega * omega);
}

TEST(FlexibleInertia, ForceAndMassAreLagrangesEquations) {
  const FlexibleInertia body = RandomBody();
  const int n = 3 + kModes;
  VecX q(n), v(n), a(n);
  q << 0.3, -0.2, 0.7, 0.01, -0.02, 0.015;
  v << 0.5, 0.4, -2.0, 0.3, 0.1, -0.2;
  a << 1.0, -3.0, 5.0, 2.0, -1.0, 0.5;
  const J t = Kinetic(body, q, v);
  // f = d/dt dT/dv - dT/dq = T_vv a + T_vq v - T_q.
  const MatX t_vv = t.h.bottomRightCorner(n, n), t_vq = t.h.bottomLeftCorner(n, n);
  const VecX lagrange = t_vv * a + t_vq * v - t.g.head(n);
  InertiaTerms terms;
  EvaluateInertia(body, q, v, a, true, terms);
  EXPECT_LT((terms.force - lagrange).cwiseAbs().maxCoeff(), 1e-12 * lagrange.cwiseAbs().maxCoeff());
  EXPECT_LT((terms.mass.ToDense() - t_vv).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_NEAR(body.KineticEnergy(q, v), t.v, 1e-13);

  // Tangents against central differences of the force.
  const double h = 1e-6;
  MatX d_dq(n, n), d_dv(n, n);
  for (int j = 0; j < n; ++j) {
    const VecX e = h * VecX::Unit(n, j);
    InertiaTerms plus, minus;
    EvaluateInertia(body, q + e, v, a, false, plus);
    EvaluateInertia(body, q - e, v, a, false, minus);
    d_dq.col(j) = (plus.force - minus.force) / (2 * h);
    EvaluateInertia(body, q, v + e, a, false, plus);
    EvaluateInertia(body, q, v - e, a, false, minus);
    d_dv.col(j) = (plus.force - minus.force) / (2 * h);
  }
  EXPECT_LT((terms.d_dq.ToDense() - d_dq).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((terms.d_dv.ToDense() - d_dv).cwiseAbs().maxCoeff(), 1e-7);
}

}  // namespace
}  // namespace jointdyn::mbs
