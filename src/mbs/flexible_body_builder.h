// A planar FFRF body (planar_model.h: FlexibleBody) from a 2D FE model, or a spatial one
// (spatial_model.h) from a 3D FE model, without supports and
// a basis of its elastic deformations (no rigid-body motion in its span): the free-free
// modes of the Craig-Bampton basis on the body's interface, its markers' reference nodes,
// optionally extended by joint modes (seed 003 section 2.2.3; analysis/joint_mode_pipeline.h
// builds it), or every independent DOF but those of one node that fix the frame (the
// unreduced body); the frame at the centre of mass, and the inertia shape integrals of
// flexible_inertia.h from the FE mass matrix on all DOFs (mesh nodes and reference nodes,
// beams included), computed once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "fe/fe_model.h"
#include "joint/joint_operator.h"
#include "mbs/planar_model.h"
#include "mbs/spatial_model.h"
#include "reduction/basis.h"

namespace jointdyn::mbs {

struct FlexibleBodySpec {
  std::vector<std::string> interface;  // reference nodes: the body's nodes (markers)
  // The body's joints on the FE model's independent DOFs (reduced onto the body's basis) and
  // the slave mesh node of each of their pairs (for drawing the contact fields).
  std::vector<joint::JointOperator> joints;
  std::vector<std::vector<int>> joint_nodes;
};

template <class Body, int Dim>
struct FlexibleBodyResultOf {
  std::shared_ptr<Body> body;
  // In the FE model's coordinates [m].
  Eigen::Matrix<double, Dim, 1> centre_of_mass = Eigen::Matrix<double, Dim, 1>::Zero();
};
using FlexibleBodyResult = FlexibleBodyResultOf<FlexibleBody, 2>;

// `elastic`: the basis on the model's independent DOFs. Throws InputError for a model that
// is not 2D or names unknown reference nodes.
FlexibleBodyResult BuildFlexibleBody(const fe::FeModel& model,
                                     const reduction::ReductionBasis& elastic,
                                     const FlexibleBodySpec& spec);

// The unreduced body: every independent DOF a coordinate but the in-plane ones (ux, uy,
// rz) of the first interface node, which stays fixed in the body frame (a frame attached
// to that node instead of the mean axes of free-free modes). Its matrices (inertia
// integrals, stiffness, joints) are sparse. Throws InputError ("interface") when that node
// has no independent ux, uy, rz.
FlexibleBodyResult BuildUnreducedBody(const fe::FeModel& model, const FlexibleBodySpec& spec);

// The unreduced body's basis: every independent DOF but those of reference node `frame`
// that its frame fixes (planar ux, uy, rz; spatial all six), which stays fixed in the body
// frame (independent DOFs x coordinates, one 1 per column). Throws InputError ("interface")
// when those DOFs are not independent.
solvers::SparseMatrix UnreducedBasis(const fe::FeModel& model, const std::string& frame);

namespace spatial {
using FlexibleBodyResult = FlexibleBodyResultOf<FlexibleBody, 3>;
}  // namespace spatial

// The same for a 3D FE model (spatial_model.h): a reduced basis without the 6 rigid-body
// motions; the unreduced body's frame fixes all six DOFs of its first interface node.
spatial::FlexibleBodyResult BuildSpatialBody(const fe::FeModel& model,
                                             const reduction::ReductionBasis& elastic,
                                             const FlexibleBodySpec& spec);
spatial::FlexibleBodyResult BuildSpatialUnreducedBody(const fe::FeModel& model,
                                                      const FlexibleBodySpec& spec);

}  // namespace jointdyn::mbs
