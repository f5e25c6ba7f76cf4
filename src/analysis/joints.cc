#include "analysis/joints.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace jointdyn::analysis {

joint::ContactKinematics ContactKinematicsOf(const fe::FeModel& model, int contact_index,
                                             const std::string& key) {
  const fe::PairingResult& pairing = model.contacts[contact_index];
  joint::ContactKinematics kinematics = joint::BuildContactKinematics(model.mesh, pairing);
  for (Eigen::Index p = 0; p < kinematics.area.size(); ++p) {
    if (kinematics.area(p) >= 0.0) continue;
    const std::string rule =
        "pair " + std::to_string(p) + " (slave " + model.mesh.NodeName(pairing.pairs[p].slave) +
        ") has a negative area weight " + FormatValue(kinematics.area(p)) +
        " (a corner of a quadratic face): set area_weighting: diagonal_scaled in the contact";
    throw InputError(key, model.contact_names[contact_index], rule);
  }
  return kinematics;
}

std::vector<joint::JointOperator> BuildJoints(const fe::FeModel& model,
                                              const std::vector<JointSpec>& joints,
                                              const solvers::SparseMatrix& mesh_rows,
                                              const joint::JointOptions& options,
                                              std::vector<int>& pairs) {
  std::vector<joint::JointOperator> operators;
  for (size_t j = 0; j < joints.size(); ++j) {
    const JointSpec& spec = joints[j];
    const std::string key = "joints[" + std::to_string(j) + "].contact";
    const joint::ContactKinematics kinematics =
        ContactKinematicsOf(model, model.ContactIndex(spec.contact, key), key);
    pairs.push_back(kinematics.relative.num_pairs());
    operators.emplace_back(
        kinematics.relative.Compose(mesh_rows), kinematics.initial_gap, kinematics.area,
        joint::JointLaws{.normal = spec.normal, .tangential = spec.friction}, options);
  }
  return operators;
}

JointFigures JointFiguresOf(std::span<const joint::JointOperator> joints) {
  JointFigures f;
  double squares = 0.0, forces = 0.0;
  for (const joint::JointOperator& joint : joints) {
    for (int p = 0; p < joint.num_pairs(); ++p) {
      const joint::PairOutput pair = joint.Output(p);
      squares += pair.gap * pair.gap;
      forces += std::pow(joint.area()(p), 2) * joint.stresses().segment<3>(3 * p).squaredNorm();
      f.max_pressure = std::max(f.max_pressure, pair.pressure);
      switch (pair.state) {
        case laws::ContactState::kOpen:
          ++f.open_pairs;
          break;
        case laws::ContactState::kStick:
          ++f.sticking_pairs;
          break;
        case laws::ContactState::kSlip:
          ++f.slipping_pairs;
          break;
      }
    }
    f.normal_force += joint.NormalForce();
  }
  f.gap_norm = std::sqrt(squares);
  f.force_norm = std::sqrt(forces);
  return f;
}

std::string StaticStateNote(const std::string& what, const joint::StaticResult& solve,
                            const JointFigures& joints, int pairs,
                            const std::vector<double>& bolt_forces) {
  std::string note = what + ": " + std::to_string(solve.iterations) + " Newton iterations";
  if (solve.cutbacks > 0) note += ", " + std::to_string(solve.cutbacks) + " cutbacks";
  if (pairs > 0)
    note += "; " + std::to_string(pairs - joints.open_pairs) + " of " + std::to_string(pairs) +
            " pairs closed (stick " + std::to_string(joints.sticking_pairs) + ", slip " +
            std::to_string(joints.slipping_pairs) + "), max pressure " +
            FormatValue(joints.max_pressure) + " Pa, normal force " +
            FormatValue(joints.normal_force) + " N";
  for (size_t b = 0; b < bolt_forces.size(); ++b)
    note += (b == 0 ? "; bolt forces " : ", ") + FormatValue(bolt_forces[b]) + " N";
  return note;
}

}  // namespace jointdyn::analysis
