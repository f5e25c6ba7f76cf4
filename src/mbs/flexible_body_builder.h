// A planar FFRF body (planar_model.h: FlexibleBody) from a 2D FE model without supports:
// the Craig-Bampton basis on the named reference nodes (the body's interface: its markers
// sit there), orthogonalized to free-free modes (the rigid-body modes removed, seed 003
// section 2.2.3), the frame at the centre of mass, and the inertia shape integrals of
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

namespace jointdyn::mbs {

struct FlexibleBodySpec {
  std::vector<std::string> interface;  // reference nodes: the boundary DOFs and the body's nodes
  int vibration_modes = 6;             // fixed-interface normal modes, >= 0
  double rigid_ratio = 1e-6;           // free-free orthogonalization (reduction/free_free.h)
  // The body's joints on the FE model's independent DOFs (reduced onto the body's basis).
  std::vector<joint::JointOperator> joints;
};

struct FlexibleBodyResult {
  Status status;  // failure: the reduction's message
  std::shared_ptr<FlexibleBody> body;
  Vec2 centre_of_mass = Vec2::Zero();  // in the FE model's coordinates [m]
  VecX frequencies;                    // free-free frequencies of the basis [Hz]
  int rigid_modes = 0;                 // removed by the orthogonalization (3 for a free body)
};

// Throws InputError for a model that is not 2D or names unknown reference nodes.
FlexibleBodyResult BuildFlexibleBody(const fe::FeModel& model, const FlexibleBodySpec& spec);

}  // namespace jointdyn::mbs
