// The static analysis of an FE model with joints (`analysis: static`): the nonlinear static
// solution with contact and friction evaluated pointwise in each joint (normal and friction
// law per contact, analysis/joints.h), under load steps of prescribed displacements and
// forces.
//
// The state is [q; h]: the independent DOFs q of the DofMap and the DOFs h held by the
// supports (u = T q + T_h h, fe/constraints.h). A support holds its components at zero or,
// when prescribed, at a value; the forces the supports apply are the residual rows of h
// (the reactions). The load history is given over the step parameter t = 0 .. steps:
// step k moves from t = k - 1 to t = k, linearly in between (joint::SolveStatic with its
// own increments and cutbacks), carrying the friction history from step to step. A
// prescribed value or a load given as a number is reached proportionally, value t / steps;
// given as a function of t (time::TimeFunction, e.g. a table) it follows any history:
// loading and unloading give the hysteresis of a joint in friction.
//
// Bolt preload (a beam bolt: a beam of fe.beams between the reference nodes of its bores)
// comes first, in a preload step (index 0, t = 0; analysis/bolts.h: the bolt force is P,
// then the bolt is locked at its length); the loads and prescribed values are at their
// t = 0 values, and the later steps start from the preloaded state in equilibrium.
//
// Reduced (`reduction`, analysis/static_basis.h): the same steps on the coordinates of a
// basis W of the extended state (the CMS basis [+ joint modes] and the static lift of each
// prescribed support); the joints are evaluated on R W, the reactions and every output are
// those of the full model at the state W x.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/bolts.h"
#include "analysis/joint_mode_pipeline.h"
#include "analysis/joints.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "joint/static_solver.h"
#include "time/time_function.h"

namespace jointdyn::analysis {

// A value over the step parameter t: `value` t / steps, or function(t).
struct StepValue {
  double value = 0.0;
  std::optional<time::TimeFunction> function;
  double At(double t, int steps) const { return function ? function->Value(t) : value * t / steps; }
};

// A support of the FE model held at a prescribed value instead of zero: every component
// it holds moves by the value [m] (rotations of a reference node [rad]).
struct PrescribedMotion {
  int support = 0;  // index in fe.supports
  StepValue value;
};

// Forces and moments on reference nodes [N, N m], pressures on surfaces [Pa] and the weight
// in an acceleration field (gravity [m/s^2], fe::GravityLoad) times a factor [-] (a
// number: the factor at t = steps).
struct StepLoad {
  std::vector<fe::NodeLoad> loads;
  std::vector<fe::PressureLoad> pressures;
  Vec3 gravity = Vec3::Zero();
  StepValue factor{.value = 1.0};
};

// The reduced solution (model file: `reduction`): the CMS basis of `cms` extended by the
// joint modes of `joint_modes` (none: the CMS basis alone).
struct StaticReduction {
  CmsSpec cms;
  std::optional<JointModeSpec> joint_modes;
};

struct StaticOptions {
  std::string title;
  fe::FeModelSpec fe;
  std::vector<JointSpec> joints;
  std::vector<PrescribedMotion> prescribed;
  std::vector<StepLoad> loads;
  std::vector<BoltPreload> preloads;         // non-empty: a preload step first
  int steps = 1;                             // load steps (output states) at t = 1 .. steps
  joint::StaticOptions solver;               // load_steps: initial increments per step
  std::optional<StaticReduction> reduction;  // none: the full model
  // Throws InputError naming the option (steps, solver options, a prescribed support that
  // is not one, two prescriptions of one support, a preload on a beam that is not one or
  // twice on one beam, a preload force <= 0).
  void Validate() const;
};

// The reaction of one support: the sum of the forces it applies to the model, and their
// moment about `point` (the centroid of its nodes; a reference node's position). A DOF
// held by several supports counts for the first.
struct Reaction {
  Vec3 force = Vec3::Zero();   // [N]
  Vec3 moment = Vec3::Zero();  // [N m]
  Vec3 point = Vec3::Zero();   // [m]
};

struct StaticStep {
  int index = 0;                    // 1 .. steps; 0: the preload step
  double t = 0.0;                   // step parameter at its end
  std::vector<Reaction> reactions;  // per support (fe.supports order)
  std::vector<double> bolt_forces;  // axial force N per preloaded bolt [N] (tension > 0)
  JointFigures joints;
  joint::StaticResult solve;  // iterations, cutbacks, factorizations, times (q moved out)
};

struct StaticResult {
  Status status;  // the step that failed: its index, t and the solver's message
  fe::FeModel model;
  std::vector<int> joint_pairs;  // pairs per joint
  int free_dofs = 0, held_dofs = 0;
  std::vector<StaticStep> steps;  // converged steps (the preload step first)
  // Reduced: the basis (e.g. "CMS 14 + wpod_tvd 8") and the coordinates solved for (the
  // basis' columns and one amplitude per prescribed support); full: empty, 0.
  std::string basis;
  int coordinates = 0;
  double basis_seconds = 0.0;  // building the basis and projecting the model [s]
  VecX displacement;           // on the mesh DOFs at the last converged step [m]
  double wall_seconds = 0.0;
};

class StaticObserver : public Observer {
 public:
  // The FE model, once built (it outlives the run).
  virtual void ModelBuilt(const fe::FeModel& model) {}
  // Step `step` converged: the joints evaluated at its state and the mesh displacement
  // (node * dim + component) [m].
  virtual void Step(const StaticStep& step, std::span<const joint::JointOperator> joints,
                    const VecX& mesh_displacement) {}
};

// Progress: the FE model's stages, "load steps". Notes: each step's reactions and joint
// state in one line.
StaticResult RunStatic(const StaticOptions& options, StaticObserver& observer);

}  // namespace jointdyn::analysis
