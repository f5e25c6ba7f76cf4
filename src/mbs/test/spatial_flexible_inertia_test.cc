// The spatial FFRF inertia against Lagrange's equations of the kinetic energy of a small
// point model (T = V' M V / 2 with every point's body-frame velocity V = A' R' + omega x
// (x0 + Phi zeta) + Phi zeta', rotation DOFs omega + Phi zeta'), differentiated to second
// order by jets: an independent route to the integrals of InertiaIntegrals, to M(q) and to
// Q_v; and the tangents against central differences of the force.
#include "mbs/spatial_flexible_inertia.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "mbs/euler_parameters.h"
#include "mbs/jet.h"

namespace jointdyn::mbs::spatial {
namespace {

constexpr int kModes = 2;
constexpr int kCoordinates = 7 + kModes;
constexpr int kVars = 2 * kCoordinates;  // q and v
using J = Jet<kVars>;

// Four points with translations and one with rotations too (a reference node): 15 DOFs, a
// random coupled SPD mass matrix and a random basis.
struct PointModel {
  PointDofs dofs;
  MatX mass, phi;
  Vec3 origin;
};

PointModel RandomModel() {
  std::srand(11);
  PointModel model;
  int next = 0;
  for (int p = 0; p < 4; ++p) {
    model.dofs.translation.push_back({next, next + 1, next + 2});
    next += 3;
    model.dofs.position.push_back(Vec3::Random());
    model.dofs.rotation.push_back({-1, -1, -1});
  }
  model.dofs.rotation.back() = {next, next + 1, next + 2};
  next += 3;
  model.dofs.count = next;
  const MatX r = MatX::Random(next, next);
  model.mass = 0.1 * r * r.transpose() + MatX::Identity(next, next);
  model.phi = 0.2 * MatX::Random(next, kModes);
  model.origin = 0.1 * Vec3::Random();
  return model;
}

FlexibleInertia Integrals(const PointModel& model) {
  return InertiaIntegrals(model.dofs, SparseMatrix(model.mass.sparseView()), model.phi,
                          model.origin);
}

J Kinetic(const PointModel& model, const VecX& q, const VecX& v) {
  std::array<J, kVars> x;
  for (int i = 0; i < kCoordinates; ++i) {
    x[i] = J::Variable(q(i), i);
    x[kCoordinates + i] = J::Variable(v(i), kCoordinates + i);
  }
  const J* qv = x.data();
  const J* vv = x.data() + kCoordinates;
  const V4<J> p = {qv[3], qv[4], qv[5], qv[6]}, p_rate = {vv[3], vv[4], vv[5], vv[6]};
  const V3<J> w = Rotate(p, V3<J>{vv[0], vv[1], vv[2]}, true);
  V3<J> omega = GBar(p, p_rate);
  for (J& o : omega) o = 2.0 * o;
  std::vector<J> velocity(model.dofs.count, J(0.0));
  const auto elastic = [&](int dof, const J* z) {
    J sum = 0.0;
    for (int k = 0; k < kModes; ++k) sum += model.phi(dof, k) * z[7 + k];
    return sum;
  };
  for (size_t i = 0; i < model.dofs.translation.size(); ++i) {
    const std::array<int, 3>& t = model.dofs.translation[i];
    V3<J> point;
    for (int a = 0; a < 3; ++a)
      point[a] = model.dofs.position[i](a) - model.origin(a) + elastic(t[a], qv);
    const V3<J> turned = Cross(omega, point);
    for (int a = 0; a < 3; ++a) velocity[t[a]] = w[a] + turned[a] + elastic(t[a], vv);
    for (int a = 0; a < 3; ++a)
      if (model.dofs.rotation[i][a] >= 0)
        velocity[model.dofs.rotation[i][a]] = omega[a] + elastic(model.dofs.rotation[i][a], vv);
  }
  J t = 0.0;
  for (int i = 0; i < model.dofs.count; ++i)
    for (int j = 0; j < model.dofs.count; ++j)
      t += 0.5 * model.mass(i, j) * (velocity[i] * velocity[j]);
  return t;
}

TEST(SpatialFlexibleInertia, ForceAndMassAreLagrangesEquationsOnTheConstraint) {
  const PointModel model = RandomModel();
  const FlexibleInertia body = Integrals(model);
  const int n = kCoordinates;
  VecX q(n), v(n), a(n);
  Eigen::Vector4d p(0.8, 0.3, -0.4, 0.2), p_rate(0.5, -1.0, 0.7, 2.0);
  p.normalize();
  p_rate -= p.dot(p_rate) * p;  // on the normalization constraint: p.p' = 0
  q << 0.3, -0.2, 0.1, p, 0.05, -0.03;
  v << 0.5, 0.4, -0.6, p_rate, 0.3, -0.2;
  a << 1.0, -3.0, 2.0, 0.4, -0.2, 0.7, 0.1, 2.0, -1.0;
  const J t = Kinetic(model, q, v);
  const MatX t_vv = t.h.bottomRightCorner(n, n), t_vq = t.h.bottomLeftCorner(n, n);
  const VecX lagrange = t_vv * a + t_vq * v - t.g.head(n);
  InertiaTerms terms;
  EvaluateInertia(body, q, v, a, true, terms);
  const double c = body.g00.trace(), scale = lagrange.cwiseAbs().maxCoeff();
  // R and zeta rows exactly; the Euler parameters' rows up to a multiple of p.
  VecX difference = terms.force - lagrange;
  difference.segment<4>(3) -= c * (p.dot(a.segment<4>(3)) + p_rate.squaredNorm()) * p;
  difference.segment<4>(3) -= p.dot(difference.segment<4>(3)) * p;
  EXPECT_LT(difference.cwiseAbs().maxCoeff(), 1e-12 * scale) << difference.transpose();
  MatX mass = terms.mass.ToDense();
  mass.block<4, 4>(3, 3) -= c * p * p.transpose();
  EXPECT_LT((mass - t_vv).cwiseAbs().maxCoeff(), 1e-12 * t_vv.cwiseAbs().maxCoeff());
  EXPECT_NEAR(body.KineticEnergy(q, v), t.v, 1e-13 * t.v);
  // J(zeta) from T's Euler-parameter block 4 G' J G (G' G'^T = I for a unit p).
  const Eigen::Matrix<double, 3, 4> g_bar = GBarMatrix(p);
  const Mat3 j = 0.25 * g_bar * t_vv.block<4, 4>(3, 3) * g_bar.transpose();
  EXPECT_LT((body.RotationalInertia(q.tail(kModes)) - j).norm(), 1e-12 * j.norm());
}

TEST(SpatialFlexibleInertia, TangentsAreTheForcesDerivatives) {
  const PointModel model = RandomModel();
  const FlexibleInertia body = Integrals(model);
  const int n = kCoordinates;
  VecX q(n), v(n), a(n);
  q << 0.3, -0.2, 0.1, 0.7, 0.3, -0.5, 0.35, 0.05, -0.03;  // p not unit: exact everywhere
  v << 0.5, 0.4, -0.6, 0.2, -1.0, 0.7, 2.0, 0.3, -0.2;
  a << 1.0, -3.0, 2.0, 0.4, -0.2, 0.7, 0.1, 2.0, -1.0;
  InertiaTerms terms;
  EvaluateInertia(body, q, v, a, true, terms);
  const double h = 1e-6;
  MatX d_dq(n, n), d_dv(n, n), d_da(n, n);
  for (int j = 0; j < n; ++j) {
    const VecX e = h * VecX::Unit(n, j);
    InertiaTerms plus, minus;
    const auto central = [&](const VecX& dq, const VecX& dv, const VecX& da) {
      EvaluateInertia(body, q + dq, v + dv, a + da, false, plus);
      EvaluateInertia(body, q - dq, v - dv, a - da, false, minus);
      return VecX((plus.force - minus.force) / (2 * h));
    };
    const VecX zero = VecX::Zero(n);
    d_dq.col(j) = central(e, zero, zero);
    d_dv.col(j) = central(zero, e, zero);
    d_da.col(j) = central(zero, zero, e);
  }
  EXPECT_LT((terms.d_dq.ToDense() - d_dq).cwiseAbs().maxCoeff(), 1e-7)
      << terms.d_dq.ToDense() - d_dq;
  EXPECT_LT((terms.d_dv.ToDense() - d_dv).cwiseAbs().maxCoeff(), 1e-7)
      << terms.d_dv.ToDense() - d_dv;
  EXPECT_LT((terms.mass.ToDense() - d_da).cwiseAbs().maxCoeff(), 1e-7);
}

}  // namespace
}  // namespace jointdyn::mbs::spatial
