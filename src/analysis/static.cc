#include "analysis/static.h"

#include <algorithm>
#include <cmath>

#include "analysis/fe_setup.h"
#include "analysis/static_basis.h"
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
    for (size_t i = 0; i < options.loads.size(); ++i) {
      const StepLoad& load = options.loads[i];
      VecX f = fe::AssembleNodeLoads(model, load.loads, "loads[" + std::to_string(i) + "].loads");
      f += fe::AssemblePressureLoads(model, load.pressures, "pressures");
      if (load.gravity != Vec3::Zero()) f += fe::GravityLoad(model, load.gravity);
      loads_.push_back(extended.transpose() * f);
    }
    size_ = static_cast<int>(extended.cols());
  }

  VecX Load(double t) const {
    VecX f = VecX::Zero(size_);
    for (size_t i = 0; i < loads_.size(); ++i)
      f += options_.loads[i].factor.At(t, options_.steps) * loads_[i];
    return f;
  }

  // The load vector of each StepLoad on [q; h] [N].
  const std::vector<VecX>& vectors() const { return loads_; }

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
      throw InputError(key, set,
                       fe::DofName(model.mesh, dofs.num_mesh_dofs(), dofs.held_dofs()[h]) +
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

// The steps of a run: the state, the stiffness and joints on it, and what loads it. The
// Newton solve runs on the extended state [q; h] (full) or on the coordinates x of the basis
// W (reduced: x_ext = W x, analysis/static_basis.h); the joints and bolts on the extended
// state give the outputs and the reactions at x_ext.
class StepSolver {
 public:
  StepSolver(const StaticOptions& options, StaticResult& result, StaticObserver& observer)
      : options_(options),
        result_(result),
        observer_(observer),
        model_(result.model),
        extended_(model_.dofs->ExtendedTransform()),
        mesh_rows_(extended_.topRows(model_.dofs->num_mesh_dofs())),
        stiffness_(model_.dofs->Reduce(model_.stiffness, model_.reference_stiffness, extended_)),
        joints_(BuildJoints(model_, options.joints, mesh_rows_, {}, result.joint_pairs)),
        history_(options, model_, extended_),
        geometry_(MakeHeldGeometry(model_, static_cast<int>(options.fe.supports.size()))),
        bolts_(MakeBolts(options.preloads, options.fe, model_, extended_)) {
    result.free_dofs = model_.dofs->num_free_dofs();
    result.held_dofs = static_cast<int>(model_.dofs->held_dofs().size());
    for (int p : result.joint_pairs) pairs_ += p;
    for (int h = 0; h < result.held_dofs; ++h) path_.held.push_back(result.free_dofs + h);
    Start(stiffness_.rows());
    result.displacement = VecX::Zero(model_.dofs->num_mesh_dofs());
  }

  // Solves on the basis of options.reduction from here on.
  Status Reduce() {
    const Clock::time_point start = Clock::now();
    // The static loads: each load of the history and the bolts' preload, on the free DOFs.
    const int free = result_.free_dofs;
    const std::vector<VecX>& vectors = history_.vectors();
    MatX loads(free, static_cast<Eigen::Index>(vectors.size() + (bolts_.empty() ? 0 : 1)));
    for (size_t i = 0; i < vectors.size(); ++i)
      loads.col(static_cast<Eigen::Index>(i)) = vectors[i].head(free);
    if (!bolts_.empty()) loads.rightCols(1) = BoltLoad(bolts_, true, stiffness_.rows()).head(free);
    // The tangent at the start: K and the joints' pairs that touch or penetrate there.
    SparseMatrix tangent = stiffness_, jacobian;
    for (joint::JointOperator& joint : joints_) {
      (void)joint.Evaluate(VecX::Zero(stiffness_.rows()));
      joint.Jacobian(jacobian);
      tangent += jacobian;
    }
    tangent = 0.5 * (tangent + SparseMatrix(tangent.transpose()));
    StaticBasis basis = BuildStaticBasis(*options_.reduction, loads, options_.prescribed, model_,
                                         stiffness_, tangent, observer_);
    if (!basis.status) return basis.status;
    reduced_.emplace(Reduced{.w = std::move(basis.w), .joints = {}});
    for (const joint::JointOperator& joint : joints_)
      reduced_->joints.push_back(joint.Reduced(reduced_->w));
    path_.held = std::move(basis.held);
    Start(reduced_->w.cols());
    result_.basis = basis.description;
    result_.coordinates = static_cast<int>(reduced_->w.cols());
    result_.basis_seconds = Seconds(start);
    observer_.Note("reduced: " + basis.description + ", " + std::to_string(result_.coordinates) +
                   " coordinates");
    return Status::Ok();
  }

  // Step k (0: the preload step) from the last state; records it in the result.
  Status Step(int k) {
    const bool preload = k == 0;
    const VecX load = history_.Load(k) + BoltLoad(bolts_, preload, stiffness_.rows());
    path_.end_load = Project(load);
    path_.end_values = HeldValues(k);
    StaticStep step{.index = k, .t = static_cast<double>(k)};
    const SparseMatrix unbolted =
        preload ? WithoutBoltStiffness(stiffness_, bolts_) : SparseMatrix();
    const SparseMatrix& stiffness = preload ? unbolted : stiffness_;
    step.solve = Solve(stiffness);
    if (!step.solve.status)
      return Status::Failure((preload
                                  ? std::string("the preload step (t = 0)")
                                  : "step " + std::to_string(k) + " (t = " + std::to_string(k - 1) +
                                        " -> " + std::to_string(k) + ")") +
                             ": " + step.solve.status.message);
    path_.start = std::move(step.solve.q);
    const VecX state = reduced_ ? VecX(reduced_->w * path_.start) : path_.start;
    if (preload) LockBolts(bolts_, state);
    path_.start_load = Project(history_.Load(k) + BoltLoad(bolts_, false, stiffness_.rows()));
    for (size_t j = 0; reduced_ && j < joints_.size(); ++j)
      joints_[j].CopyHistory(reduced_->joints[j]);
    step.reactions = Reactions(model_, geometry_, HeldResidual(stiffness, state, load));
    for (const Bolt& bolt : bolts_) step.bolt_forces.push_back(bolt.Force(state));
    step.joints = JointFiguresOf(joints_);
    result_.displacement = mesh_rows_ * state;
    observer_.Note(StaticStateNote(preload ? std::string("preload step")
                                           : "step " + std::to_string(k) + "/" +
                                                 std::to_string(options_.steps) +
                                                 " (t = " + FormatValue(step.t) + ")",
                                   step.solve, step.joints, pairs_, step.bolt_forces));
    result_.steps.push_back(std::move(step));
    observer_.Step(result_.steps.back(), joints_, result_.displacement);
    return Status::Ok();
  }

 private:
  struct Reduced {
    MatX w;                                    // the basis of the extended state
    std::vector<joint::JointOperator> joints;  // on R W
  };

  void Start(Eigen::Index size) {
    path_.start = VecX::Zero(size);
    path_.start_load = VecX::Zero(size);
  }

  VecX Project(const VecX& extended) const {
    return reduced_ ? VecX(reduced_->w.transpose() * extended) : extended;
  }

  // The held entries of the solved state at t = k: the held DOFs, or the prescribed
  // supports' amplitudes.
  VecX HeldValues(int k) const {
    if (!reduced_) return history_.HeldValues(*model_.dofs, k);
    VecX values(options_.prescribed.size());
    for (size_t s = 0; s < options_.prescribed.size(); ++s)
      values(static_cast<Eigen::Index>(s)) = options_.prescribed[s].value.At(k, options_.steps);
    return values;
  }

  joint::StaticResult Solve(const SparseMatrix& stiffness) {
    if (!reduced_) return joint::SolveStatic(stiffness, joints_, path_, options_.solver);
    const MatX& w = reduced_->w;
    const MatX projected = w.transpose() * (stiffness * w);
    return joint::SolveStatic(MatX(0.5 * (projected + projected.transpose())), reduced_->joints,
                              path_, options_.solver);
  }

  // The forces the supports apply at the extended state (the joints evaluated there): the
  // held rows of K x + sum f_j - f.
  VecX HeldResidual(const SparseMatrix& stiffness, const VecX& state, const VecX& load) {
    VecX residual = stiffness * state - load, force;
    for (joint::JointOperator& joint : joints_) {
      (void)joint.Evaluate(state);
      joint.Forces(force);
      residual += force;
    }
    return residual.tail(result_.held_dofs);
  }

  const StaticOptions& options_;
  StaticResult& result_;
  StaticObserver& observer_;
  const fe::FeModel& model_;
  const SparseMatrix extended_, mesh_rows_, stiffness_;
  std::vector<joint::JointOperator> joints_;
  const LoadHistory history_;
  const HeldGeometry geometry_;
  std::vector<Bolt> bolts_;
  std::optional<Reduced> reduced_;
  joint::StaticLoadPath path_;
  int pairs_ = 0;
};

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
  ValidatePreloads(preloads, fe);
}

StaticResult RunStatic(const StaticOptions& options, StaticObserver& observer) {
  const Clock::time_point start = Clock::now();
  options.Validate();
  StaticResult result;
  result.model = BuildModel(options.fe, observer);
  CheckPrescribed(options, result.model);
  StepSolver solver(options, result, observer);
  observer.ModelBuilt(result.model);
  if (options.reduction) result.status = solver.Reduce();
  const int total = options.steps + (options.preloads.empty() ? 0 : 1);
  observer.Progress("load steps", 0, total);
  for (int k = options.preloads.empty() ? 1 : 0; result.status && k <= options.steps; ++k) {
    if (StopRequested()) {
      result.status = Status::Failure(StopReason() + " before step " + std::to_string(k));
      break;
    }
    if (result.status = solver.Step(k); !result.status) break;
    observer.Progress("load steps", static_cast<int>(result.steps.size()), total);
  }
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
