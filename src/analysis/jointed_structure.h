// The jointed FE structure of the dynamic analyses (joint_dynamics, joint_harmonic): the FE
// model, its joints with their laws, Rayleigh damping and bolt preloads, built as one
// joint::JointedSystem on the independent DOFs, started from the preload step when bolts
// are preloaded.
//
// Bolt preload (`preloads`, analysis/bolts.h): a static preload step on the full model comes
// first (joint::SolveStatic with the joints of the dynamics, the bolts' axial stiffness
// replaced by their preloads), then the bolts are locked at their length. The dynamics start
// from the preloaded state x0 with the friction history of the preload step and the locked
// bolts' load held constant. A reduced model takes x0 into its basis (WithStart): the part
// of x0 M-orthogonal to the basis is the preload mode.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/bolts.h"
#include "analysis/joints.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "joint/jointed_system.h"
#include "joint/static_solver.h"
#include "time/time_function.h"

namespace jointdyn::analysis {

// Loads on reference nodes times a time function.
struct DynamicLoad {
  std::vector<fe::NodeLoad> loads;  // [N, N m] per unit of the function
  time::TimeFunction function;      // [-]
};

struct JointedStructureOptions {
  fe::FeModelSpec fe;
  std::vector<JointSpec> joints;
  double rayleigh_alpha = 0.0;        // C = alpha M + beta K: alpha [1/s]
  double rayleigh_beta = 0.0;         // beta [s]
  std::vector<BoltPreload> preloads;  // non-empty: the dynamics start preloaded
  // The preload step's solver (load_steps: increments). Converged far tighter than a
  // static analysis: the residual left at x0 is what sets the runs in motion, and a full
  // run whose friction pairs sit at the slip limit cycles in Newton when x0 is off by more
  // (bolted lap joint of the tests: residual tolerance 1e-10 gave peak velocities of 4e-6
  // of |u0| / t_end and 12 rejected steps, 1e-13 3e-9 and none, 1e-14 9e-11).
  joint::StaticOptions preload_solver{.residual_tolerance = 1e-14, .increment_tolerance = 1e-12};
  // Throws InputError naming the option (joints without a normal law, preloads, solver).
  void ValidateStructure() const;
};

// The preloaded start: the preload step's solution.
struct PreloadStart {
  Status status;                    // the preload step's (a failure stops the analysis)
  std::vector<double> bolt_forces;  // axial force per preloaded bolt [N] (tension > 0)
  JointFigures joints;
  VecX state;                 // x0 on the independent DOFs [m, rad] (empty on failure)
  joint::StaticResult solve;  // iterations, cutbacks, factorizations, times (q moved out)
};

struct JointedStructure {
  fe::FeModel model;
  std::unique_ptr<joint::JointedSystem> system;  // on the independent DOFs of the model
  std::vector<int> joint_pairs;                  // pairs per joint
  std::optional<PreloadStart> preload;           // with preloads: the start
  // x0: the preloaded state, else zero (also when the preload step failed).
  VecX Start() const;
};

// Builds the FE model and the full system with `loads` (InputErrors at the options' keys,
// the loads' at "dynamic_loads[i].loads") and solves the preload step (its failure is in
// preload->status; the system's joints are then at the failed state). Progress: the FE
// model's stages.
JointedStructure BuildJointedStructure(const JointedStructureOptions& options,
                                       const std::vector<DynamicLoad>& loads, Observer& observer);

// The basis V extended by the part of the start x0 that is M-orthogonal to it (normalized
// in M; left out below 1e-10 of x0), and x0's coordinates q0 on the result: x0 = V q0.
std::pair<MatX, VecX> WithStart(MatX v, const VecX& x0, const solvers::SparseMatrix& mass);

}  // namespace jointdyn::analysis
