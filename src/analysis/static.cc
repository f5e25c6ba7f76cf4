#include "analysis/static.h"

#include <algorithm>
#include <cmath>

#include "analysis/fe_setup.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/stop.h"

namespace jointdyn::analysis {
namespace {

using solvers::SparseMatrix;

std::string SupportKey(int support) { return "supports[" + std::to_string(support) + "]"; }

// The forces and held values over t on the state [q; h] (`free` entries q, then h).
class LoadHistory {
 public:
  LoadHistory(const StaticOptions& options, const fe::FeModel& model, const SparseMatrix& extended)
      : options_(options), free_(model.dofs->num_free_dofs()) {
    for (size_t i = 0; i < options.loads.size(); ++i)
      loads_.push_back(extended.transpose() *
                       fe::AssembleNodeLoads(model, options.loads[i].loads,
                                             "loads[" + std::to_string(i) + "].loads"));
    size_ = static_cast<int>(extended.cols());
  }

  VecX Load(double t) const {
    VecX f = VecX::Zero(size_);
    for (size_t i = 0; i < loads_.size(); ++i)
      f += options_.loads[i].factor.At(t, options_.steps) * loads_[i];
    return f;
  }

  // The values of the held entries h(t) [m, rad]: zero but where prescribed.
  VecX HeldValues(const fe::DofMap& dofs, double t) const {
    VecX h = VecX::Zero(size_ - free_);
    for (const PrescribedMotion& motion : options_.prescribed)
      for (int held : dofs.SupportHeld(motion.support))
        h(held) = motion.value.At(t, options_.steps);
    return h;
  }

 private:
  const StaticOptions& options_;
  const int free_;
  int size_ = 0;
  std::vector<VecX> loads_;  // per StepLoad: [T T_h]^T f_i
};

// A prescribed support must hold some DOF, and hold it alone (one value per DOF).
void CheckPrescribed(const StaticOptions& options, const fe::FeModel& model) {
  const fe::DofMap& dofs = *model.dofs;
  std::vector<int> holders(dofs.held_dofs().size(), 0);
  for (size_t s = 0; s < options.fe.supports.size(); ++s)
    for (int held : dofs.SupportHeld(static_cast<int>(s))) ++holders[held];
  for (const PrescribedMotion& motion : options.prescribed) {
    const std::string key = SupportKey(motion.support) + ".value";
    const std::vector<int>& held = dofs.SupportHeld(motion.support);
    const std::string& set = options.fe.supports[motion.support].set;
    if (held.empty())
      throw InputError(key, set, "the support holds no DOF of the model: nothing to prescribe");
    for (int h : held) {
      if (holders[h] == 1) continue;
      const int dof = dofs.held_dofs()[h];
      const std::string what = dof < dofs.num_mesh_dofs()
                                   ? model.mesh.NodeName(dof / model.mesh.dim) + " component " +
                                         std::to_string(dof % model.mesh.dim)
                                   : "reference DOF " + std::to_string(dof - dofs.num_mesh_dofs());
      throw InputError(key, set,
                       what +
                           " is held by another support too: a prescribed DOF must be held "
                           "by one support only");
    }
  }
}

// Where each held DOF is (a point) and which component of a reference node it is (-1 for
// a mesh DOF); and the first support that holds it.
struct HeldGeometry {
  std::vector<Vec3> position;
  std::vector<int> reference_component;
  std::vector<int> owner;
  std::vector<Vec3> points;  // per support: the centroid of its held DOFs' positions
};

HeldGeometry MakeHeldGeometry(const fe::FeModel& model, int supports) {
  const fe::DofMap& dofs = *model.dofs;
  const int dim = model.mesh.dim;
  HeldGeometry g;
  for (int dof : dofs.held_dofs()) {
    if (dof < dofs.num_mesh_dofs()) {
      Vec3 x = Vec3::Zero();
      x.head(dim) = model.mesh.nodes.row(dof / dim).head(dim).transpose();
      g.position.push_back(x);
      g.reference_component.push_back(-1);
    } else {
      const int r = (dof - dofs.num_mesh_dofs()) / 6;
      g.position.push_back(model.reference_nodes[r].position);
      g.reference_component.push_back((dof - dofs.num_mesh_dofs()) % 6);
    }
  }
  g.owner.assign(dofs.held_dofs().size(), -1);
  for (int s = 0; s < supports; ++s) {
    Vec3 sum = Vec3::Zero();
    for (int h : dofs.SupportHeld(s)) {
      sum += g.position[h];
      if (g.owner[h] < 0) g.owner[h] = s;
    }
    const auto count = static_cast<double>(dofs.SupportHeld(s).size());
    g.points.push_back(count > 0 ? Vec3(sum / count) : Vec3::Zero());
  }
  return g;
}

std::vector<Reaction> Reactions(const fe::FeModel& model, const HeldGeometry& g,
                                const VecX& reactions) {
  const int dim = model.mesh.dim;
  std::vector<Reaction> out(g.points.size());
  for (size_t s = 0; s < out.size(); ++s) out[s].point = g.points[s];
  for (Eigen::Index h = 0; h < reactions.size(); ++h) {
    Reaction& r = out[g.owner[h]];
    const int dof = model.dofs->held_dofs()[h];
    const int c = g.reference_component[h] >= 0 ? g.reference_component[h] : dof % dim;
    if (c >= 3) {
      r.moment(c - 3) += reactions(h);
      continue;
    }
    const Vec3 force = reactions(h) * Vec3::Unit(c);
    r.force += force;
    r.moment += (g.position[h] - r.point).cross(force);
  }
  return out;
}

JointFigures Figures(std::span<const joint::JointOperator> joints) {
  JointFigures f;
  double squares = 0.0;
  for (const joint::JointOperator& joint : joints) {
    for (int p = 0; p < joint.num_pairs(); ++p) {
      const joint::PairOutput pair = joint.Output(p);
      squares += pair.gap * pair.gap;
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
  return f;
}

// "step 2/4 (t = 2): 6 Newton iterations; 120 of 596 pairs closed (stick 100, slip 20),
// max pressure 3.1e+07 Pa"
std::string StepNote(const StaticStep& step, int steps, int pairs) {
  const JointFigures& f = step.joints;
  std::string note = "step " + std::to_string(step.index) + "/" + std::to_string(steps) +
                     " (t = " + FormatValue(step.t) +
                     "): " + std::to_string(step.solve.iterations) + " Newton iterations";
  if (step.solve.cutbacks > 0) note += ", " + std::to_string(step.solve.cutbacks) + " cutbacks";
  if (pairs > 0)
    note += "; " + std::to_string(pairs - f.open_pairs) + " of " + std::to_string(pairs) +
            " pairs closed (stick " + std::to_string(f.sticking_pairs) + ", slip " +
            std::to_string(f.slipping_pairs) + "), max pressure " + FormatValue(f.max_pressure) +
            " Pa";
  return note;
}

}  // namespace

void StaticOptions::Validate() const {
  if (steps < 1) throw InputError("static.steps", std::to_string(steps), "must be >= 1");
  if (const Status status = solver.Validate(); !status)
    throw InputError("static", "", status.message);
  for (size_t j = 0; j < joints.size(); ++j)
    if (!joints[j].normal)
      throw InputError("joints[" + std::to_string(j) + "].normal", "", "missing: a normal law");
  std::vector<bool> prescribed_once(fe.supports.size(), false);
  for (const PrescribedMotion& motion : prescribed) {
    if (motion.support < 0 || motion.support >= static_cast<int>(fe.supports.size()))
      throw InputError("prescribed", std::to_string(motion.support), "must index a support");
    if (prescribed_once[motion.support])
      throw InputError(SupportKey(motion.support) + ".value", "", "is prescribed twice");
    prescribed_once[motion.support] = true;
  }
}

StaticResult RunStatic(const StaticOptions& options, StaticObserver& observer) {
  const Clock::time_point start = Clock::now();
  options.Validate();
  StaticResult result;
  result.model = BuildModel(options.fe, observer);
  const fe::FeModel& model = result.model;
  const fe::DofMap& dofs = *model.dofs;
  CheckPrescribed(options, model);
  const SparseMatrix extended = dofs.ExtendedTransform();
  const SparseMatrix mesh_rows = extended.topRows(dofs.num_mesh_dofs());
  const SparseMatrix stiffness = dofs.Reduce(model.stiffness, model.reference_stiffness, extended);
  std::vector<joint::JointOperator> joints =
      BuildJoints(model, options.joints, mesh_rows, {}, result.joint_pairs);
  const LoadHistory history(options, model, extended);
  result.free_dofs = dofs.num_free_dofs();
  result.held_dofs = static_cast<int>(dofs.held_dofs().size());
  const HeldGeometry geometry =
      MakeHeldGeometry(model, static_cast<int>(options.fe.supports.size()));
  int pairs = 0;
  for (int p : result.joint_pairs) pairs += p;
  observer.ModelBuilt(model);

  joint::StaticLoadPath path{.start = VecX::Zero(stiffness.rows())};
  for (int h = 0; h < result.held_dofs; ++h) path.held.push_back(result.free_dofs + h);
  result.displacement = VecX::Zero(dofs.num_mesh_dofs());
  observer.Progress("load steps", 0, options.steps);
  for (int k = 1; k <= options.steps; ++k) {
    if (StopRequested()) {
      result.status = Status::Failure(StopReason() + " before step " + std::to_string(k));
      break;
    }
    path.start_load = history.Load(k - 1);
    path.end_load = history.Load(k);
    path.end_values = history.HeldValues(dofs, k);
    StaticStep step{.index = k, .t = static_cast<double>(k)};
    step.solve = joint::SolveStatic(stiffness, joints, path, options.solver);
    if (!step.solve.status) {
      result.status =
          Status::Failure("step " + std::to_string(k) + " (t = " + std::to_string(k - 1) + " -> " +
                          std::to_string(k) + "): " + step.solve.status.message);
      break;
    }
    path.start = std::move(step.solve.q);
    for (joint::JointOperator& joint : joints) (void)joint.Evaluate(path.start);
    step.reactions = Reactions(model, geometry, step.solve.reactions);
    step.joints = Figures(joints);
    result.displacement = mesh_rows * path.start;
    observer.Note(StepNote(step, options.steps, pairs));
    result.steps.push_back(std::move(step));
    observer.Step(result.steps.back(), joints, result.displacement);
    observer.Progress("load steps", k, options.steps);
  }
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
