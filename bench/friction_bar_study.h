// The friction bar of seed 003 section 4.1.1 for the benchmarks, built as a user's run
// builds it: examples/dynamics/friction_bar_dynamic_study.yaml read by the model layer
// (tet10 sheets, sheet 1 clamped, rigid bolts at the two middle holes, the tip force a
// haversine step to 50 N in 0.01 s, linear penalty 5e4 N/mm^3, three-parameter Coulomb
// mu = 0.15), with the mesh size changed, and its full system (analysis/joint_dynamics.h).
#pragma once

#include <string>

#include "analysis/joint_dynamics.h"
#include "model/joint_dynamics_reader.h"

namespace jointdyn::bench {

inline analysis::JointDynamicsOptions FrictionBarStudy(double mesh_size) {
  const model::ModelNode root = model::ModelNode::LoadFile(
      std::string(JOINTDYN_SOURCE_DIR) + "/examples/dynamics/friction_bar_dynamic_study.yaml");
  analysis::JointDynamicsOptions options = model::ReadJointDynamics(root);
  options.fe.friction_bar.mesh.mesh_size = mesh_size;
  return options;
}

// The full system of the study at `mesh_size` [m].
inline analysis::JointDynamicsSystem FrictionBarSystem(double mesh_size) {
  analysis::Observer quiet;
  return analysis::BuildJointDynamicsSystem(FrictionBarStudy(mesh_size), quiet);
}

}  // namespace jointdyn::bench
