#include "analysis/jointed_structure.h"

#include <cmath>
#include <string>

#include "analysis/fe_setup.h"
#include "core/error.h"

namespace jointdyn::analysis {
namespace {

// The preload step (analysis/bolts.h) on the full model's stiffness with `joints` (their
// committed history is the preloaded one after it): the preloaded state, the bolts locked
// there, whose load joins `loads` as a constant.
PreloadStart PreloadStep(const JointedStructureOptions& options, const fe::FeModel& model,
                         const solvers::SparseMatrix& stiffness,
                         std::span<joint::JointOperator> joints,
                         std::vector<joint::TimedLoad>& loads) {
  std::vector<Bolt> bolts = MakeBolts(options.preloads, options.fe, model, model.dofs->transform());
  const Eigen::Index n = stiffness.rows();
  PreloadStart preload;
  preload.solve = joint::SolveStatic(WithoutBoltStiffness(stiffness, bolts), joints,
                                     BoltLoad(bolts, true, n), options.preload_solver);
  preload.status = preload.solve.status;
  if (!preload.status) return preload;
  preload.state = std::move(preload.solve.q);
  LockBolts(bolts, preload.state);
  for (joint::JointOperator& joint : joints) (void)joint.Evaluate(preload.state);
  for (const Bolt& bolt : bolts) preload.bolt_forces.push_back(bolt.Force(preload.state));
  preload.joints = JointFiguresOf(joints);
  loads.push_back({BoltLoad(bolts, false, n), time::TimeFunction::Constant(1.0)});
  return preload;
}

}  // namespace

void JointedStructureOptions::ValidateStructure() const {
  for (size_t j = 0; j < joints.size(); ++j)
    if (!joints[j].normal)
      throw InputError("joints[" + std::to_string(j) + "].normal", "", "missing: a normal law");
  ValidatePreloads(preloads, fe);
  if (const Status status = preload_solver.Validate(); !status)
    throw InputError("preload_solver", "", status.message);
}

VecX JointedStructure::Start() const {
  if (preload && preload->status) return preload->state;
  return VecX::Zero(system->size());
}

JointedStructure BuildJointedStructure(const JointedStructureOptions& options,
                                       const std::vector<DynamicLoad>& loads, Observer& observer) {
  options.ValidateStructure();
  JointedStructure built;
  built.model = BuildModel(options.fe, observer);
  const fe::FeModel& model = built.model;
  joint::StructureMatrices matrices{.mass = model.ReducedMass(),
                                    .stiffness = model.ReducedStiffness()};
  if (options.rayleigh_alpha > 0.0 || options.rayleigh_beta > 0.0)
    matrices.damping = joint::RayleighDamping(matrices.mass, matrices.stiffness,
                                              options.rayleigh_alpha, options.rayleigh_beta);
  // No touch band in dynamics (kTransientJointOptions); the preload step, a static
  // solution, has it: its joints hand their history on.
  const solvers::SparseMatrix mesh_rows =
      model.dofs->transform().topRows(model.dofs->num_mesh_dofs());
  std::vector<joint::JointOperator> operators =
      BuildJoints(model, options.joints, mesh_rows, kTransientJointOptions, built.joint_pairs);
  std::vector<joint::TimedLoad> timed;
  for (size_t i = 0; i < loads.size(); ++i)
    timed.push_back(
        {fe::AssembleLoads(model, loads[i].loads, "dynamic_loads[" + std::to_string(i) + "].loads"),
         loads[i].function});
  if (!options.preloads.empty()) {
    std::vector<int> pairs;
    std::vector<joint::JointOperator> preloaded =
        BuildJoints(model, options.joints, mesh_rows, {}, pairs);
    built.preload = PreloadStep(options, model, matrices.stiffness.sparse(), preloaded, timed);
    for (size_t j = 0; j < operators.size(); ++j) operators[j].CopyHistory(preloaded[j]);
  }
  built.system = std::make_unique<joint::JointedSystem>(std::move(matrices), std::move(operators),
                                                        std::move(timed));
  return built;
}

std::pair<MatX, VecX> WithStart(MatX v, const VecX& x0, const solvers::SparseMatrix& mass) {
  if (x0.isZero(0.0)) return {std::move(v), VecX::Zero(v.cols())};
  const MatX mv = mass * v;
  const VecX c = (v.transpose() * mv).ldlt().solve(mv.transpose() * x0);
  const VecX r = x0 - v * c;
  const double norm = std::sqrt(r.dot(mass * r)), scale = std::sqrt(x0.dot(mass * x0));
  if (norm <= 1e-10 * scale) return {std::move(v), c};
  v.conservativeResize(Eigen::NoChange, v.cols() + 1);
  v.col(v.cols() - 1) = r / norm;
  VecX q0(c.size() + 1);
  q0 << c, norm;
  return {std::move(v), q0};
}

}  // namespace jointdyn::analysis
