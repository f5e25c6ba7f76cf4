// CPU per time step of the README's main example, examples/dynamics/friction_bar_step.yaml
// (the friction bar of seed 003 reduced to 36 coordinates: the CMS basis, m = 16, and
// g = 20 wPOD joint modes; HHT alpha = -0.3, linear penalty contact and three-parameter
// Coulomb friction, t_end = 0.1 s in steps of 0.1 ms), with the reduced model's matrices
// stored two ways, both integrated in one process:
//   before  the reduced JointedSystem behind an adapter that hands M, C, K and the
//           tangents over as sparse matrices with every entry stored (what the system did
//           before solvers::Matrix: the integrator formed the Newton matrix by sparse sums
//           and the linear solver densified it for dense LU at every factorization);
//   after   the reduced JointedSystem as it is: dense storage throughout.
// Prints a table of steps, Newton iterations, factorizations and CPU per step of both, and
// the ratio before / after; checks that the tip deflections agree (relative to their
// largest value; exit code 1 otherwise). The reduced model is built once from the model
// file's options, by the analysis layer's stages (mesh, Craig-Bampton, TVDs, wPOD).
//
//   ./build/bench/reduced_storage [t_end s = the example's 0.1] [repeats = 1]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "analysis/fe_setup.h"
#include "analysis/joint_dynamics.h"
#include "analysis/joint_mode_pipeline.h"
#include "core/clock.h"
#include "joint/jointed_system.h"
#include "model/joint_dynamics_reader.h"
#include "time/integrator.h"

using namespace jointdyn;

namespace {

constexpr int kJointModes = 20;  // study.modes of the example

struct ReducedModel {
  std::unique_ptr<joint::JointedSystem> system;  // on the 36 coordinates, virgin history
  VecX tip_row;                                  // the row of the basis at the tip's uz
  time::IntegratorOptions integrator;
};

void Check(const std::string& what, const Status& status) {
  if (status) return;
  std::fprintf(stderr, "%s: %s\n", what.c_str(), status.message.c_str());
  std::exit(3);
}

// The full system of the model file (its joints, its loads: analysis::
// BuildJointDynamicsSystem) and the reduced one on the CMS basis extended by the first
// kJointModes wPOD joint modes, with the joint-mode pipeline the analysis runs
// (analysis/joint_mode_pipeline.h).
ReducedModel BuildReducedModel(const std::string& path) {
  const analysis::JointDynamicsOptions options =
      model::ReadJointDynamics(model::ModelNode::LoadFile(path));
  analysis::Observer quiet;
  const analysis::JointDynamicsSystem full = analysis::BuildJointDynamicsSystem(options, quiet);
  const fe::FeModel& model = full.model;
  const solvers::SparseMatrix& stiffness = full.system->stiffness().sparse();
  const solvers::SparseMatrix& mass = full.system->mass().sparse();
  const analysis::CmsSpec& cms = options.cms;
  const analysis::CmsBasis basis = analysis::BuildCmsBasis(
      stiffness, mass, analysis::BoundaryDofs(model, cms.boundary, cms.vibration_modes),
      cms.vibration_modes, cms.vibration_modes, cms.free_free, quiet);
  Check("CMS basis", basis.status);
  const reduction::TvdResult tvd =
      analysis::ComputeCmsTvds(basis, analysis::BuildJointContact(model, options.joint_modes),
                               options.joint_modes.tvd, quiet);
  Check("TVDs", tvd.status);
  const analysis::JointModeExtension extension = analysis::ExtendByJointModes(
      tvd, stiffness, basis, reduction::JointModeMethod::kWeightedPodOfTvds, kJointModes);
  Check("joint modes", extension.status);
  const reduction::ReductionBasis& extended = extension.extended.basis;
  const MatX v = extended.vectors.leftCols(std::min(extended.size(), basis.m() + kJointModes));

  ReducedModel reduced;
  reduced.system = std::make_unique<joint::JointedSystem>(joint::Reduce(*full.system, v));
  reduced.tip_row = v.row(full.measure_dof).transpose();
  reduced.integrator = options.integrator;
  reduced.integrator.output_interval = 0.0;  // every step: the tip histories are compared
  return reduced;
}

// Every entry of a dense matrix as a sparse one (a fixed, full pattern).
solvers::SparseMatrix FullPattern(const MatX& a) {
  solvers::SparseMatrix s(a.rows(), a.cols());
  s.reserve(Eigen::VectorXi::Constant(a.cols(), static_cast<int>(a.rows())));
  for (int j = 0; j < a.cols(); ++j)
    for (int i = 0; i < a.rows(); ++i) s.insert(i, j) = a(i, j);
  s.makeCompressed();
  return s;
}

// "before": the dense system's matrices and tangents as full-pattern sparse matrices.
class FullPatternSystem final : public time::SecondOrderSystem {
 public:
  explicit FullPatternSystem(joint::JointedSystem& system)
      : system_(system),
        mass_(FullPattern(system.mass().dense())),
        damping_(FullPattern(system.damping().dense())) {}

  int size() const override { return system_.size(); }
  const time::Matrix& mass() const override { return mass_; }
  const time::Matrix& damping() const override { return damping_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, time::Matrix* stiffness,
                       time::Matrix* damping_tangent) override {
    damping_tangent_ = time::Matrix();  // written by rate-dependent joints only (then dense)
    const Status status = system_.InternalForce(point, f, stiffness ? &stiffness_ : nullptr,
                                                damping_tangent ? &damping_tangent_ : nullptr);
    if (stiffness) *stiffness = FullPattern(stiffness_.dense());
    if (damping_tangent && damping_tangent_.is_dense())
      *damping_tangent = FullPattern(damping_tangent_.dense());
    return status;
  }
  void ExternalForce(double t, VecX& f) const override { system_.ExternalForce(t, f); }
  void Commit() override { system_.Commit(); }
  double StoredEnergy() const override { return system_.StoredEnergy(); }
  VecX CoordinateUnits() const override { return system_.CoordinateUnits(); }

 private:
  joint::JointedSystem& system_;
  time::Matrix mass_, damping_, stiffness_, damping_tangent_;
};

struct Run {
  time::TransientResult result;
  std::vector<double> tip;  // tip deflection per step [m]
  double cpu_per_step() const { return result.cpu_seconds / std::max(1, result.accepted_steps); }
};

// One run from rest on a copy of the reduced system (virgin joint history), handed to the
// integrator as it is or behind the full-pattern adapter.
Run Simulate(const ReducedModel& model, bool full_pattern) {
  joint::JointedSystem system = *model.system;
  FullPatternSystem adapter(system);
  time::SecondOrderSystem& integrated =
      full_pattern ? static_cast<time::SecondOrderSystem&>(adapter) : system;
  Run run;
  const VecX zero = VecX::Zero(system.size());
  run.result = time::Integrate(
      integrated, model.integrator, zero, zero,
      [&](const time::StepRecord& r) { run.tip.push_back(model.tip_row.dot(*r.q)); });
  Check("integration", run.result.status);
  return run;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five;
  in >> one >> five;
  return one + " / " + five;
}

void Row(const char* name, const char* storage, const Run& run) {
  const time::TransientResult& r = run.result;
  std::printf("| %-6s | %-28s | %5d | %6d | %6d | %8.2f | %8.3f |\n", name, storage,
              r.accepted_steps, r.newton_iterations, r.factorizations, r.cpu_seconds,
              1e3 * run.cpu_per_step());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path =
      std::string(JOINTDYN_SOURCE_DIR) + "/examples/dynamics/friction_bar_step.yaml";
  const Clock::time_point start = Clock::now();
  ReducedModel model = BuildReducedModel(path);
  if (argc > 1) model.integrator.t_end = std::atof(argv[1]);
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  std::printf(
      "friction_bar_step.yaml reduced to %d coordinates (built in %.0f s); HHT alpha = %g, "
      "dt = %g s, t_end = %g s; load average (1 / 5 min) %s\n",
      model.system->size(), Seconds(start), model.integrator.alpha, model.integrator.dt,
      model.integrator.t_end, LoadAverage().c_str());
  std::fflush(stdout);

  // Alternating runs; the fastest of each kind counts (the machine is shared).
  Run before, after;
  for (int k = 0; k < repeats; ++k) {
    const Run b = Simulate(model, true);
    const Run a = Simulate(model, false);
    if (k == 0 || b.cpu_per_step() < before.cpu_per_step()) before = b;
    if (k == 0 || a.cpu_per_step() < after.cpu_per_step()) after = a;
  }
  std::printf(
      "\n| run    | M, C, K, tangents            | steps | Newton | factor | CPU [s]  | "
      "per step [ms] |\n|---|---|---|---|---|---|---|\n");
  Row("before", "sparse, every entry stored", before);
  Row("after", "dense", after);

  double largest = 0.0, difference = 0.0;
  const bool same_steps = before.tip.size() == after.tip.size();
  for (std::size_t i = 0; same_steps && i < before.tip.size(); ++i) {
    largest = std::max(largest, std::abs(before.tip[i]));
    difference = std::max(difference, std::abs(before.tip[i] - after.tip[i]));
  }
  const double relative = largest > 0.0 ? difference / largest : difference;
  std::printf(
      "\nCPU per step before / after: %.2f (best of %d alternating runs each); tip deflection "
      "difference %.1e of its largest value %.3g mm; load average %s\n",
      before.cpu_per_step() / after.cpu_per_step(), repeats, relative, 1e3 * largest,
      LoadAverage().c_str());
  const bool agree = same_steps && relative <= 1e-10;
  if (!agree) std::printf("FAILED: the tip histories differ\n");
  return agree ? 0 : 1;
}
