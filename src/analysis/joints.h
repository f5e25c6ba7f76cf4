// The joints of an FE analysis (model file: `joints`): per contact of the FE model a normal
// law and a friction law, evaluated pointwise on the contact pairs (joint/joint_operator.h)
// of a state of the model: the independent DOFs of the DofMap (joint dynamics), or those
// followed by the held DOFs (a static analysis with prescribed displacements).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fe/fe_model.h"
#include "joint/contact_kinematics.h"
#include "joint/joint_operator.h"
#include "joint/static_solver.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"

namespace jointdyn::analysis {

// One joint: a contact of the FE model with its laws.
struct JointSpec {
  std::string contact;  // the contact's name (FeModelSpec::contacts)
  std::shared_ptr<const laws::NormalLaw> normal;
  std::shared_ptr<const laws::TangentialLaw> friction;  // 2D; null: frictionless
};

// The kinematics of contact `contact_index` on the mesh DOFs (joint::BuildContactKinematics).
// Throws InputError at `key` (e.g. "joints[0].contact") for a pair with a negative area
// weight (a corner of a quadratic face with area_weighting: consistent): a negative penalty.
joint::ContactKinematics ContactKinematicsOf(const fe::FeModel& model, int contact_index,
                                             const std::string& key);

// The joint options of transients (joint_dynamics, multibody): no touch band
// (joint_operator.h), since the mass keeps the step's tangent regular, and a band whose
// tangent the residual lacks holds Newton to linear convergence while the joint moves by
// less than the band (the first steps from rest). Static solutions keep the default band.
inline constexpr joint::JointOptions kTransientJointOptions{.touch_band = 0.0};

// The joint operators of `joints` on the state x whose mesh DOFs are u = E x (`mesh_rows`:
// E, num_mesh_dofs rows), in order; the pairs of each are appended to `pairs`. Throws
// InputError at "joints[j].contact".
std::vector<joint::JointOperator> BuildJoints(const fe::FeModel& model,
                                              const std::vector<JointSpec>& joints,
                                              const solvers::SparseMatrix& mesh_rows,
                                              const joint::JointOptions& options,
                                              std::vector<int>& pairs);

// The state of joints (over the pairs of all joints) after their last evaluation.
struct JointFigures {
  double gap_norm = 0.0;      // ||g||_2 [m]
  double force_norm = 0.0;    // ||A_p t_p||_2, the contact-force norm [N] (seed 003 fig. F.8)
  double max_pressure = 0.0;  // [Pa]
  double normal_force = 0.0;  // sum A p [N]
  int open_pairs = 0, sticking_pairs = 0, slipping_pairs = 0;  // frictionless closed: slip
};

JointFigures JointFiguresOf(std::span<const joint::JointOperator> joints);

// One line on a static solution with joints and bolts, for the observer: "<what>: 6 Newton
// iterations[, 2 cutbacks]; 120 of 596 pairs closed (stick 100, slip 20), max pressure
// 3.1e+07 Pa, normal force 2000 N[; bolt forces 1999.1 N, 2000.6 N]" (no pairs: no joint
// part).
std::string StaticStateNote(const std::string& what, const joint::StaticResult& solve,
                            const JointFigures& joints, int pairs,
                            const std::vector<double>& bolt_forces);

}  // namespace jointdyn::analysis
