// The transient analysis of a planar (mbs/planar_system.h) or spatial
// (mbs/spatial_system.h) multibody system: consistent
// initial conditions, index-3 time integration (time/integrator.h, seed 003 eq. 2.55-2.61)
// and the chosen quantities recorded per output step: body coordinates, marker positions
// and velocities, joint (constraint) forces, spring forces, the energy balance with the
// work of the constraint forces, and the largest constraint violation.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/column_quantity.h"
#include "analysis/joint_mode_pipeline.h"
#include "analysis/joints.h"
#include "analysis/observer.h"
#include "analysis/time_run.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "mbs/flexible_body_builder.h"
#include "mbs/planar_model.h"
#include "mbs/planar_system.h"
#include "mbs/spatial_system.h"
#include "time/integrator.h"

namespace jointdyn::analysis {

// A flexible body's first `count` elastic coordinates as columns q1_<body> .. q<count>_<body>.
struct ModalOutput {
  int body = 0;  // index in model.bodies or spatial->bodies (a flexible body)
  int count = 1;
};

struct MultibodyOutput {
  // Marker indices: px_, py_ (pz_) [m], vx_, vy_ (vz_) [m/s] columns.
  std::vector<int> markers;
  std::vector<ModalOutput> modal;
  bool energy = true;  // the energy-balance columns [J]
};

// A flexible body of the model, built when the run starts: its FE model (2D for a planar
// model, 3D for a spatial one; no supports) and reduction. The body's position and angle
// (orientation) place the FE model's origin and axes; its frame starts at the FE model's
// centre of mass.
struct FlexibleBodyOptions {
  int body = 0;  // index in model.bodies or spatial->bodies (a flexible body)
  fe::FeModelSpec fe;
  // The CMS basis: Craig-Bampton on `cms.boundary`, the body's interface (its markers'
  // reference nodes), with cms.vibration_modes fixed-interface modes.
  CmsSpec cms;
  // Further Craig-Bampton boundary entries that are no markers' nodes: reference nodes or
  // single components ("bolt_1_head.uy": the seed's axial preload DOFs).
  std::vector<std::string> boundary;
  // Craig-Bampton's basis extended by joint modes (wPOD of TVDs, ..) before the free-free
  // orthogonalization (seed 003 section 3.2, as analysis: reduction).
  std::optional<JointModeSpec> joint_modes;
  // A preload inside the body (bolts and/or loads on reference nodes, as reduction.preload;
  // needs joint_modes, `modes: 0` for the preload mode alone). Its full nonlinear static
  // solution (frictionless, joint_modes' normal law; the body held at its first interface
  // node by springs that carry nothing, the preload being self-equilibrated) is the preload
  // mode appended to the CMS basis (and the TVDs' focus with tvds: preload_related, seed
  // 003 section 3.2.3). Then the preload step on the body's basis with its joints (friction
  // included): the body starts there at rest with that friction history, the bolts locked
  // at their length (analysis/bolts.h), their and the loads' forces a constant elastic
  // load fixed in the body.
  std::optional<PreloadSpec> preload;
  // Whether the preload mode joins the basis (false: the CMS basis and joint modes of all
  // TVDs alone, the seed's "0 PLM" runs, fig. 4.28; the full preload solution still gives
  // the start's pressure error).
  bool preload_mode = true;
  // Contact and friction inside the body: a normal and a friction law per contact of `fe`,
  // evaluated on every pair and reduced onto the body's basis.
  std::vector<JointSpec> joints;
  // Unreduced (the reference of the reduced bodies): every independent DOF of `fe` is a
  // coordinate, the frame fixed to the first interface node (its ux, uy, rz; spatial: all
  // six); its matrices
  // sparse (the car pendulum's 2963 coordinates: 70 ms per step). No cms modes, no joint
  // modes.
  bool full = false;
};

struct MultibodyOptions {
  std::string title;
  mbs::PlanarModel model;  // flexible bodies without their FlexibleBody yet
  // A spatial (3D) system instead of `model` (which then stays empty): rigid bodies, point
  // masses and flexible bodies (without their FlexibleBody yet; `flexible` and
  // output.modal then refer to spatial->bodies).
  std::optional<mbs::spatial::SpatialModel> spatial;
  std::vector<FlexibleBodyOptions> flexible;
  time::IntegratorOptions integrator;  // scheme, times, steps, Newton; output_interval [s]
  MultibodyOutput output;
  // The initial positions are moved onto the joints' constraints until |c| is below this
  // [m or rad], > 0; the initial velocities are projected onto C_q v = -C_t.
  double initial_tolerance = 1e-12;

  // Throws InputError naming the option for a set that cannot run (the model itself is
  // checked once its flexible bodies are built).
  void Validate() const;
  // The name of body `body` of the planar or spatial model.
  const std::string& BodyName(int body) const {
    return spatial ? spatial->bodies[body].name : model.bodies[body].name;
  }
  // time; per body x_, y_ [m], angle_ [rad] (rigid), vx_, vy_ [m/s], omega_ [rad/s]
  // (rigid); spatial: x_, y_, z_ [m], vx_, vy_, vz_ [m/s], and for rigid and flexible bodies
  // the Euler parameters e0_ .. e3_ [-] and the angular velocity wx_, wy_, wz_ [rad/s]
  // (global);
  // output.modal's q<k>_<body> (free-free modes: M-orthonormal, kg^0.5 m; unit DOFs
  // of an unreduced body: m or rad); per output marker px_, py_, vx_, vy_; per joint its forces on
  // marker b's body (mbs::JointForceLabels: fx_, fy_ [N], m_ [N m], fn_ [N], f_ [N or N m]); per
  // flexible body with joints fc_<body>, the contact-force norm ||A_p t_p||_2 over its pairs [N]
  // (seed 003 fig. F.8), and gap_<body>, ||g||_2 [m]; f_<spring> [N]
  // and m_<rotational spring> [N m]; with `energy` E_kinetic, E_stored, W_external,
  // W_constraint, D_dampers, D_numerical [J]; c_max, the largest |c| [m or rad].
  std::vector<std::string> Columns() const;
};

// What a column of MultibodyOptions::Columns() holds, by its prefix: quantity ("position")
// and unit ("m"; "N or N m" for a driver's force, "m or rad" for c_max).
ColumnQuantity MultibodyColumnQuantity(const std::string& column);

class MultibodyObserver : public Observer {
 public:
  // A recorded sample: the values of Columns(), time first.
  virtual void Sample(const std::vector<double>& row) {}
  // The configuration at that sample (for drawing the mechanism and the flexible bodies'
  // meshes): the system and its coordinates.
  virtual void Configuration(double t, const mbs::PlanarSystem& system, const VecX& q) {}
  virtual void Configuration(double t, const mbs::spatial::SpatialSystem& system, const VecX& q) {}
};

// The preloaded start of a flexible body (FlexibleBodyOptions::preload).
struct BodyPreloadFigures {
  JointFigures start;               // the body's joints at its start
  std::vector<double> bolt_forces;  // axial force per preloaded bolt at the start [N]
  // The start's contact pressure against the full preload solution's on the joint-mode
  // contact: ||p - p_full||_2 / ||p_full||_2 (friction in the body's joints makes them
  // differ beyond the reduction's error; NaN for an unreduced body, whose step is the full
  // one).
  double pressure_error = 0.0;
  int iterations = 0;            // Newton iterations of the body's preload step
  double full_seconds = 0.0;     // the full preload solution [s]
  double reduced_seconds = 0.0;  // the body's preload step [s]
};

struct MultibodyResult {
  Status status;                          // failure: what failed and where (time, step)
  time::TransientResult integration;      // counters, CPU time, energy balance
  std::vector<std::string> columns;       // MultibodyOptions::Columns()
  std::vector<std::vector<double>> rows;  // the samples, one row of `columns` each
  int coordinates = 0, constraints = 0;
  // Per flexible body (in the order of options.flexible): its elastic coordinates, the
  // free-free frequencies of its basis [Hz] (none when unreduced) and its joint modes.
  std::vector<int> flexible_modes;
  std::vector<VecX> flexible_frequencies;
  std::vector<int> flexible_joint_modes;
  // ... and the state of its joints at the end (pairs open, sticking, slipping, the largest
  // pressure, the normal force, the gap and contact-force norms).
  std::vector<JointFigures> flexible_joint_state;
  // ... and its preloaded start (none: not preloaded).
  std::vector<std::optional<BodyPreloadFigures>> flexible_preload;
  // ... and the wall times of its preprocessing [s]: mesh, assembly, constraints, pairing
  // (the FE model), craig_bampton, preload (the full preload solution), tvds, joint_modes
  // (POD, solves, extension), orthogonalization, body (inertia integrals, joints on the
  // basis), preload_step (on the body's basis); those of stages it had.
  std::vector<std::map<std::string, double>> flexible_times;
  // Warnings of the run (EnergyGainWarning), also given to the observer as notes.
  std::vector<std::string> warnings;
  double initial_correction = 0.0;        // largest change of the initial positions [m or rad]
  double max_constraint_violation = 0.0;  // largest |c| over the samples [m or rad]
  double wall_seconds = 0.0;
};

// Progress: the flexible bodies' FE models and reductions, then "time integration" in
// percent of t_end.
MultibodyResult RunMultibody(const MultibodyOptions& options, MultibodyObserver& observer);

}  // namespace jointdyn::analysis
