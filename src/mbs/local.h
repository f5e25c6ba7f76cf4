// The local view of one multibody element (a joint's rows, a spring, a load): the system
// coordinates of the bodies it touches, and the map from them to the element's N
// intermediate coordinates (jet.h), in which the element is written. The intermediate
// coordinates are linear in the bodies' coordinates, so a jet's derivatives carry over
// exactly: gradient map' g, Hessian map' H map. Shared by the planar and spatial systems.
#pragma once

#include <Eigen/Sparse>
#include <vector>

#include "core/types.h"
#include "mbs/jet.h"
#include "mbs/matrix_assembly.h"

namespace jointdyn::mbs {

template <int N>
struct LocalCoordinates {
  using J = Jet<N>;
  using IntermediateVector = typename J::Gradient;

  std::vector<int> index;  // the element's coordinates in the system's numbering
  Eigen::Matrix<double, N, Eigen::Dynamic> map;
  IntermediateVector values = IntermediateVector::Zero();
  IntermediateVector rates = IntermediateVector::Zero();  // d/dt of values (when gathered)

  // Intermediate coordinate i as a jet.
  J Variable(int i) const { return J::Variable(values(i), i); }
  // d/dt of a jet's value.
  double Rate(const J& value) const { return value.g.dot(rates); }
  VecX Gradient(const J& value) const { return map.transpose() * value.g; }
  MatX Hessian(const J& value) const { return map.transpose() * value.h * map; }
};

template <int N>
void ScatterVector(const LocalCoordinates<N>& local, const VecX& x, double factor, VecX& out) {
  for (size_t i = 0; i < local.index.size(); ++i) out(local.index[i]) += factor * x(i);
}

template <int N>
void ScatterMatrix(const LocalCoordinates<N>& local, const MatX& x, double factor,
                   MatrixAssembly& out) {
  for (size_t i = 0; i < local.index.size(); ++i)
    for (size_t j = 0; j < local.index.size(); ++j)
      out.Add(local.index[i], local.index[j], factor * x(i, j));
}

template <int N>
void ScatterTriplets(const LocalCoordinates<N>& local, const MatX& x, double factor,
                     std::vector<Eigen::Triplet<double>>& out) {
  for (size_t i = 0; i < local.index.size(); ++i)
    for (size_t j = 0; j < local.index.size(); ++j)
      if (x(i, j) != 0.0) out.emplace_back(local.index[i], local.index[j], factor * x(i, j));
}

// A constraint row's gradient as triplets of row `row` of C_q.
template <int N>
void ScatterRow(const LocalCoordinates<N>& local, int row, const VecX& gradient,
                std::vector<Eigen::Triplet<double>>& out) {
  for (size_t i = 0; i < local.index.size(); ++i)
    if (gradient(i) != 0.0) out.emplace_back(row, local.index[i], gradient(i));
}

// A spring-damper's terms in the N intermediate coordinates for a measure m given as a jet
// (or, for the force alone, a dual: dual.h): its force k (m - rest) + c dm/dt along grad m,
// with `tangents` (jets only) the stiffness k grad grad' + force hess + c grad (hess dm)'
// and damping c grad grad', and its stored energy k (m - rest)^2 / 2.
template <int N>
struct SpringDamperTerms {
  double force = 0.0, energy = 0.0;
  typename Jet<N>::Hessian stiffness, damping;
};

template <template <int> class Measure, int N>
SpringDamperTerms<N> SpringDamper(const Measure<N>& measure,
                                  const Eigen::Matrix<double, N, 1>& rates, double k, double c,
                                  double rest, bool tangents) {
  SpringDamperTerms<N> t;
  t.force = k * (measure.v - rest) + c * measure.g.dot(rates);
  t.energy = 0.5 * k * (measure.v - rest) * (measure.v - rest);
  if constexpr (requires { measure.h; }) {
    if (!tangents) return t;
    const typename Jet<N>::Hessian gg = measure.g * measure.g.transpose();
    t.damping = c * gg;
    t.stiffness = k * gg + t.force * measure.h;
    t.stiffness.noalias() += c * measure.g * (measure.h * rates).transpose();
  }
  return t;
}

// The force k (m - rest) + c dm/dt of a spring-damper on a measure m of the element (a
// length, a relative angle).
template <int N>
double SpringDamperForce(const LocalCoordinates<N>& local, const Jet<N>& measure, double k,
                         double c, double rest) {
  return SpringDamper(measure, local.rates, k, c, rest, false).force;
}

// Adds the spring-damper's generalized force to f and its tangents (SpringDamper) to the
// system's, mapped to the element's coordinates; returns its stored energy.
template <int N>
double AddSpringDamper(const LocalCoordinates<N>& local, const Jet<N>& measure, double k, double c,
                       double rest, VecX& f, MatrixAssembly& stiffness,
                       MatrixAssembly& damping_tangent) {
  const SpringDamperTerms<N> t = SpringDamper(measure, local.rates, k, c, rest, stiffness.active());
  ScatterVector(local, local.Gradient(measure), t.force, f);
  if (stiffness.active()) {
    ScatterMatrix(local, local.map.transpose() * t.stiffness * local.map, 1.0, stiffness);
    ScatterMatrix(local, local.map.transpose() * t.damping * local.map, 1.0, damping_tangent);
  }
  return t.energy;
}

}  // namespace jointdyn::mbs
