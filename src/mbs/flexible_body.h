// A flexible body in the floating frame of reference (seed 003 section 2.1.1), planar
// (planar_model.h) or spatial (spatial_model.h): its inertia shape integrals, modal
// stiffness, the nodes markers may use, its joints and its mesh for drawing.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/mesh.h"
#include "joint/joint_operator.h"
#include "solvers/matrix.h"

namespace jointdyn::mbs {

// A node of a flexible body that markers may sit on: its position in the body frame and
// its displacement per modal coordinate.
template <int Dim>
struct FlexibleNodeOf {
  std::string name;
  Eigen::Matrix<double, Dim, 1> position = Eigen::Matrix<double, Dim, 1>::Zero();  // [m]
  // Per modal coordinate: planar 3 x n (ux, uy [m], rz [rad]); spatial 6 x n (ux, uy, uz
  // [m], rx, ry, rz [rad]).
  MatX shape;
};

template <class Inertia, int Dim>
struct FlexibleBodyOf {
  Inertia inertia;
  solvers::SparseMatrix stiffness;  // K_ff [n x n] (on the modal coordinates)
  // A constant load on the modal coordinates [N or N m per unit coordinate], fixed in the
  // body (a bolt preload: the locked bolts' forces; empty: none). K_ff zeta - load is the
  // elastic force, 0.5 zeta' K_ff zeta - load' zeta its potential.
  VecX elastic_load;
  // The displacement per unit of each modal coordinate [m] (its largest nodal entry), for
  // the integrator's scales (SecondOrderSystem::CoordinateUnits).
  VecX units;
  std::vector<FlexibleNodeOf<Dim>> nodes;
  // Contact and friction inside the body (seed 003 eq. 3.13-3.15: the joint forces act on
  // the modal coordinates only), on the modal coordinates, with the history they were built
  // with; each system evaluates its own copies.
  std::vector<joint::JointOperator> joints;
  // Per joint, the slave mesh node of each pair (for drawing the contact fields; empty:
  // not drawn).
  std::vector<std::vector<int>> joint_nodes;
  // The FE mesh, for drawing the deformed body: its nodes' positions from the frame's
  // origin in the body frame (nodes x Dim [m]) and their displacements per modal
  // coordinate (rows x0, y0, (z0,) x1, ...; Dim nodes x n [m]).
  std::shared_ptr<const fe::Mesh> mesh;
  MatX mesh_positions;
  solvers::SparseMatrix mesh_shapes;
  int modes() const { return inertia.modes(); }
  // The mesh nodes' global positions (nodes x Dim [m]) at the modal coordinates `modal`, the
  // frame turned by `rotation` (Dim x Dim) and at `origin`.
  MatX MeshPositions(const VecX& modal, const MatX& rotation, const VecX& origin) const {
    const VecX displacement = mesh_shapes * modal;
    const MatX local =
        mesh_positions + displacement.reshaped<Eigen::RowMajor>(mesh_positions.rows(), Dim);
    return (local * rotation.transpose()).rowwise() + origin.transpose();
  }
};

// Whether the body's basis moves its centre of mass (S_f != 0: an unreduced body's frame fixed
// to a node), so that gravity loads its elastic coordinates. A basis mass-orthogonal to the
// translations (free-free modes) has S_f zero to rounding: column j is compared with its
// bound sqrt(m M_ff(j, j)) (Cauchy-Schwarz).
template <class Inertia>
bool MovesCentreOfMass(const Inertia& inertia) {
  for (int j = 0; j < inertia.modes(); ++j)
    if (inertia.s_f.col(j).norm() > 1e-10 * std::sqrt(inertia.mass() * inertia.m_ff.coeff(j, j)))
      return true;
  return false;
}

// Marker m's point in its body's frame at the body's initial modal coordinates (a flexible
// body's node moved by them; else the marker's position).
template <class Body, class Marker>
auto InitialLocalPoint(const Body& body, const Marker& m) {
  auto local = m.position;
  if (!body.flexible) return local;
  const auto& node = body.flexible->nodes[m.node];
  local = node.position;
  if (body.modal_coordinates.size() > 0)
    local += node.shape.topRows(local.size()) * body.modal_coordinates;
  return local;
}

}  // namespace jointdyn::mbs
