// The dynamic convergence study of seed 003 section 4.1.1 (fig. 4.6-4.8) and the reduced
// transient simulation of a jointed FE structure. An FE model with joints (per contact a
// normal law and a friction law) under time-dependent loads on reference nodes is
// integrated in time (time::Integrate, e.g. HHT-alpha) as
//
//   full     the unreduced model on the independent DOFs of the FE model (every pair;
//            `full`, optional: expensive);
//   reduced  the model on a basis V (joint::Reduce): the CMS basis (Craig-Bampton +
//            free-free orthogonalization, m vectors) extended by g joint modes (wPOD of
//            TVDs, POD of TVDs, POD of forces from the 2 m^2 TVDs of the CMS basis with
//            the TVD normal law), for every method of `methods` and every g of `modes`
//            (g = 0: the CMS basis alone, run once as `cms`).
//
// Runs are named `full`, `cms` and `<method>_<g>` (e.g. `wpod_tvd_20`). Each run records per
// output step the criteria of analysis/criteria.h (a measure, the gap norm and the contact
// resultant over all pairs of all joints) and the chosen DOFs. The reference of the errors
// is the full run when it ran to t_end, else the reduced run with the largest g (the first
// method of `methods` among equals) that did; every other run gets
// e(t) = |u(t) - u_ref(t)| / max_t |u_ref| (u_ref interpolated linearly to the run's output
// times) for each criterion.
//
// Bolt preload (analysis/jointed_structure.h): every run starts from the preloaded state x0
// at rest, with the friction history of the preload step and the locked bolts' load held
// constant: the reduced runs on their basis extended by the preload mode (WithStart), so
// that x0 = V q0 holds for their start q0. Without dynamic loads every run stays at rest.
//
// A run that fails numerically (Newton after all step cuts, a law) is reported with what
// failed and where (its transient status: time, step, iteration); its results up to there
// are kept, the other runs continue, and the result's status is a failure.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "analysis/bolts.h"
#include "analysis/criteria.h"
#include "analysis/joint_mode_pipeline.h"
#include "analysis/jointed_structure.h"
#include "analysis/joints.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "joint/joint_operator.h"
#include "joint/jointed_system.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"
#include "time/integrator.h"
#include "time/time_function.h"

namespace jointdyn::analysis {

// A run: the full model, or the CMS basis extended by g joint modes of a method.
struct DynamicRun {
  std::string name;  // full, cms, <method>_<g>
  bool full = false;
  std::optional<reduction::JointModeMethod> method;  // none: full or cms
  int g = 0;
};

// The structure (FE model, joints, damping, bolt preloads: analysis/jointed_structure.h),
// its dynamic loads, the reduced runs and the integrator.
struct JointDynamicsOptions : JointedStructureOptions {
  std::string title;
  std::vector<DynamicLoad> loads;
  CmsSpec cms;
  JointModeSpec joint_modes;  // the TVDs' contact and normal law (method and g unused)
  bool full = false;          // run the full model too (last)
  std::vector<reduction::JointModeMethod> methods;
  std::vector<int> modes;  // g values, ascending, distinct (0: the CMS basis alone)
  fe::ReferenceDof measure;
  time::IntegratorOptions integrator;         // output_interval: of the histories
  std::vector<fe::ReferenceDof> output_dofs;  // the histories' DOFs (empty: the measure)
  std::set<std::string> field_runs;           // runs whose contact fields are reported
  double field_interval = 0.0;                // [s] between contact fields (0: every step)

  // The runs in order: cms (g = 0), then per method per g > 0, the full model last.
  std::vector<DynamicRun> Runs() const;
  // Throws InputError naming the option for a set that cannot run.
  void Validate() const;
};

// The time histories of one run.
struct RunHistory {
  std::vector<double> time;                             // [s]
  std::array<std::vector<double>, kCriteria> criteria;  // per analysis::Criterion
  std::vector<VecX> dofs;                               // the output DOFs per sample
};

struct DynamicRunResult {
  RunHistory history;
  time::TransientResult transient;
  double wall_seconds = 0.0;
  double reduce_seconds = 0.0;                        // projection of the full system on the basis
  int size = 0;                                       // state size (coordinates)
  std::array<std::vector<double>, kCriteria> errors;  // on history.time; empty: reference
  int field_steps = 0;
  int pair_openings = 0;        // JointOperator::openings(), summed over the joints
  double opening_energy = 0.0;  // JointOperator::opening_energy() [J], summed
  std::string warning;          // law energy dropped at openings, or empty
  double peak_velocity = 0.0;   // max over the recorded states of |x_dot|_inf (the
                                // independent DOFs, V q_dot for a reduced run) [m/s, rad/s]
};

// The joint-mode extension of one method (the largest g's).
struct MethodModes {
  reduction::JointModeMethod method;
  int rank = 0, kept = 0, dropped = 0;
  double ratio_at_largest_g = 0.0;  // w(kept)
  std::string note;                 // JointModeExtension::note
};

struct JointDynamicsResult {
  Status status;  // every failed run, "; "-separated, or a failed stage
  fe::FeModel model;
  std::vector<int> joint_pairs;  // pairs per joint
  int m = 0;                     // CMS basis columns (reduced runs)
  std::string cms_basis;         // reduction::Describe of the CMS basis
  int rigid_modes_removed = 0;
  std::optional<TvdFigures> tvd;
  std::vector<MethodModes> joint_modes;
  std::vector<DynamicRun> runs;
  std::optional<PreloadStart> preload;    // with preloads
  std::vector<DynamicRunResult> results;  // per run (those done)
  std::optional<size_t> reference;        // the runs' reference (once every run is done)
  std::optional<size_t> full_run;         // the full run, when it reached t_end
  std::map<std::string, double> times;    // stage wall times [s]
  double wall_seconds = 0.0;
};

// The full model of a study as a time-integrable system (what the `full` run integrates),
// for programs that drive the integrator themselves (bench/).
struct JointDynamicsSystem : JointedStructure {
  int measure_dof = 0;           // the measure's index in the state
  std::vector<int> output_dofs;  // the output DOFs' (the measure's if none)
};

// Builds the FE model and the full system (InputErrors at the options' keys) and solves the
// preload step (its failure is in preload->status; the system's joints are then at the
// failed state). Progress: the FE model's stages.
JointDynamicsSystem BuildJointDynamicsSystem(const JointDynamicsOptions& options,
                                             Observer& observer);

class JointDynamicsObserver : public Observer {
 public:
  // The FE model, once built (it outlives the run).
  virtual void ModelBuilt(const fe::FeModel& model) {}
  // Run `run` records a sample: time [s], the criteria, the output DOFs.
  virtual void Sample(const DynamicRun& run, double time,
                      const std::array<double, kCriteria>& criteria, const VecX& dofs) {}
  // A contact-field step of a run of `field_runs`: the joints at `time` and the mesh
  // displacement (on the mesh DOFs, node * dim + component).
  virtual void ContactField(const DynamicRun& run, int step, double time,
                            std::span<const joint::JointOperator> joints,
                            const VecX& mesh_displacement) {}
  // Run `index` of result.runs is done (result.results holds runs 0 .. index).
  virtual void RunFinished(const JointDynamicsResult& result, size_t index) {}
};

// Progress: the FE model, Craig-Bampton, TVDs, each run's steps. Notes: the CMS basis, the
// joint-mode notes, each run's start and end, warnings.
JointDynamicsResult RunJointDynamics(const JointDynamicsOptions& options,
                                     JointDynamicsObserver& observer);

}  // namespace jointdyn::analysis
