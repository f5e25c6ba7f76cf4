// The local view of one multibody element (a joint's rows, a spring, a load): the system
// coordinates of the bodies it touches, and the map from them to the element's N
// intermediate coordinates (jet.h), in which the element is written. The intermediate
// coordinates are linear in the bodies' coordinates, so a jet's derivatives carry over
// exactly: gradient map' g, Hessian map' H map. Shared by the planar and spatial systems.
#pragma once

#include <Eigen/Sparse>
#include <algorithm>
#include <array>
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

  // Intermediate coordinate i as a jet (or as another differentiating scalar T: a first-order
  // dual, dual.h, where no second derivatives are wanted).
  template <class T = J>
  T Variable(int i) const {
    return T::Variable(values(i), i);
  }
  // d/dt of a jet's (or dual's) value and its gradient in the element's coordinates.
  template <class T>
  double Rate(const T& value) const {
    return value.g.dot(rates);
  }
  template <class T>
  VecX Gradient(const T& value) const {
    return map.transpose() * value.g;
  }
  MatX Hessian(const J& value) const { return map.transpose() * value.h * map; }
};

// The slots of an element's intermediate coordinates: per body (a slot of `size` entries
// from `offset`) its frame's `frame` coordinates (planar x, y, angle; spatial x, y, z and
// the Euler parameters), then from `point` the marker's point in the body frame and its
// elastic rotation (a rigid body's: the marker's fixed position; a flexible body's: the
// node's position plus Phi zeta, linear in the body's coordinates).
struct SlotLayout {
  int size = 0, frame = 0, point = 0;
};

// The coordinates of `body` an element at `marker` (-1: the body's frame only) depends on,
// as offsets from the body's first: its frame's, and on a flexible body the elastic
// coordinates that move the marker's node (all of a reduced basis; a few unit DOFs of an
// unreduced body).
template <class Model>
std::vector<int> SlotCoordinates(const Model& model, const SlotLayout& layout, int body,
                                 int marker) {
  std::vector<int> offsets;
  if (body < 0) return offsets;  // the ground
  const auto& b = model.bodies[body];
  for (int k = 0; k < std::min(b.coordinates(), layout.frame); ++k) offsets.push_back(k);
  if (!b.flexible || marker < 0) return offsets;
  const MatX& shape = b.flexible->nodes[model.markers[marker].node].shape;
  for (int j = 0; j < shape.cols(); ++j)
    if (!shape.col(j).isZero(0.0)) offsets.push_back(layout.frame + j);
  return offsets;
}

// Fills the slot from `offset` for `marker` on `body` (first: per body the index of its first
// coordinate), whose coordinates `offsets` (SlotCoordinates) become the local columns from
// `column` on.
template <int N, class Model>
void FillSlot(const Model& model, const std::vector<int>& first, const SlotLayout& layout,
              int offset, int body, int marker, const std::vector<int>& offsets, const VecX& q,
              int column, LocalCoordinates<N>& local) {
  const auto* m = marker >= 0 ? &model.markers[marker] : nullptr;
  const int dim = m ? int(m->position.size()) : 0;
  if (m && m->node < 0) local.values.segment(offset + layout.point, dim) = m->position;
  if (body < 0) return;  // the ground
  const auto& b = model.bodies[body];
  const auto* node = b.flexible && m ? &b.flexible->nodes[m->node] : nullptr;
  if (node) local.values.segment(offset + layout.point, dim) = node->position;
  for (size_t i = 0; i < offsets.size(); ++i) {
    const int k = offsets[i], c = column + int(i);
    local.index.push_back(first[body] + k);
    if (k < layout.frame)
      local.map(offset + k, c) = 1.0;
    else
      local.map.block(offset + layout.point, c, node->shape.rows(), 1) =
          node->shape.col(k - layout.frame);
    local.values.segment(offset, layout.size) +=
        local.map.block(offset, c, layout.size, 1) * q(first[body] + k);
  }
}

// The local coordinates of markers a and b (-1: none; `body_a` names slot 0's body when
// marker_a is -1, for drivers) in slots 0 and 1; values from q and, when given, rates from v.
template <int N, class Model>
LocalCoordinates<N> Gather(const Model& model, const std::vector<int>& first,
                           const SlotLayout& layout, int marker_a, int marker_b, const VecX& q,
                           const VecX* v, int body_a) {
  LocalCoordinates<N> local;
  int columns = 0;
  const int markers[2] = {marker_a, marker_b};
  int bodies[2] = {body_a, -1};
  std::array<std::vector<int>, 2> offsets;
  for (int slot = 0; slot < 2; ++slot) {
    if (markers[slot] >= 0) bodies[slot] = model.markers[markers[slot]].body;
    offsets[slot] = SlotCoordinates(model, layout, bodies[slot], markers[slot]);
    columns += int(offsets[slot].size());
  }
  local.map.setZero(N, columns);
  for (int slot = 0, column = 0; slot < 2; column += int(offsets[slot++].size()))
    FillSlot(model, first, layout, layout.size * slot, bodies[slot], markers[slot], offsets[slot],
             q, column, local);
  if (v) {
    VecX rate(columns);
    for (int k = 0; k < columns; ++k) rate(k) = (*v)(local.index[k]);
    local.rates = local.map * rate;
  }
  return local;
}

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
