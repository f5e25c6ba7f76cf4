// Amplitude-dependent modal properties of a jointed structure (a "backbone": frequency and
// damping ratio of one mode over its amplitude), by two routes on the same system:
//   epmc          nonlinear modes by the extended periodic motion concept on the
//                 harmonic-balance system (harmonic/nonlinear_mode.h): the periodic motion
//                 with all harmonics and the pointwise contact, damping from the energy the
//                 joint dissipates over the period;
//   quasi_static  quasi-static modal analysis (after Lacayo and Allen 2019): the static
//                 response to the modal load lambda M phi through one load-unload-reload
//                 cycle 0 -> +lambda -> -lambda -> +lambda from the start (the preloaded
//                 state and its friction history), the joints' history carried through the
//                 load increments. With q the modal displacement phi^T M (x - x0) and the
//                 loop of the last two branches (amplitude a = (q(+lambda) - q(-lambda)) / 2):
//                   omega^2 = lambda / a (secant),  E_d = the loop's area,
//                   D = E_d / (2 pi omega^2 a^2) + u^T C u / (2 omega u^T M u),
//                 the viscous part in the loop's shape u = half its span (phi^T C phi /
//                 (2 omega) in the linear limit; with the stuck phi instead, the opening
//                 friction bar's came out 0.25 % against the EPMC's 0.17 %, the lap
//                 joint's 2.7 % off the EPMC's, now 0.7 %). For a joint obeying Masing's rules the
//                 loop is the Masing loop of the loading curve f(u) (E_d = 8 int_0^a f du -
//                 4 a f(a)); the cycle is computed rather than constructed because a
//                 preload leaves pairs at the slip limit, which the first loading slips and
//                 the cycle does not (the lap joint of the tests: the Masing construction
//                 gave 920.47 Hz at 1e-8 m against the stuck 921.25 Hz). It assumes the
//                 motion keeps the mode's shape and neglects inertia in the joint's
//                 deformation.
//   ring_down     the free decay of the structure plucked by the modal load of the largest
//                 amplitude (the first branch of the quasi-static cycle, the joints'
//                 history carried) and released at rest: Newmark average acceleration
//                 (no numerical damping), the first output DOF's signal identified by
//                 peak fitting (analysis/ring_down.h) period by period (Newmark's period
//                 elongation removed: f = tan(pi f_id dt) / (pi dt)), modal amplitudes
//                 in the linear mode's ratio A / |phi at the output|, the points below the
//                 smallest requested amplitude left out. The route of a
//                 ring-down test (seed 003 section 4.5.1 identified the flex plates' modal
//                 damping so); its points follow the decay, however far the pluck reached.
// All start from an eigenvector phi of the structure linearized at the start with the
// joints stuck (LinearModes), the amplitudes given as the first-harmonic amplitude of a
// reference output DOF in phi's shape.
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "core/status.h"
#include "core/types.h"
#include "harmonic/harmonic_balance.h"
#include "joint/jointed_system.h"
#include "joint/static_solver.h"
#include "solvers/newton.h"

namespace jointdyn::analysis {

// The eigenmodes of K + the joints' sticking tangent at the state x (friction stuck, the
// closed pairs' penalty: JointOperator::StickAt) with M, the lowest `count`; dense, so
// empty above harmonic::kMaxDenseUnknowns DOFs or when the eigensolver fails.
struct LinearModes {
  VecX omega;   // [rad/s], ascending
  MatX shapes;  // M-normalized, one column per mode
};
LinearModes StuckModes(const joint::JointedSystem& system, const VecX& x, int count);

struct NonlinearModeSpec {
  int mode = 1;  // the stuck structure's mode, 1 = lowest, <= 10
  // First-harmonic amplitudes of output_dofs[0] in the linear mode's shape [m], ascending:
  // the modal amplitudes a = A / |phi at the output|.
  std::vector<double> amplitudes;
  bool epmc = true;
  bool quasi_static = false;
  bool ring_down = false;
  int ring_down_periods = 60;  // length of the free decay [periods of the stuck mode], >= 4
  int steps_per_period = 200;  // time steps per stuck period, >= 20
  // EPMC Newton on the scaled equations; kinks accepted as in the frequency response, full
  // steps after a failed line search (NewtonOptions::watchdog). 100 iterations: the
  // unpreloaded friction bar's first amplitude takes 53 with H = 3 from its
  // quasi-static loop (the opening pairs' kinks), the later ones 1-3. The factored
  // Jacobian is kept while the residual falls by half per iteration, also from one
  // amplitude to the next (the scaled equations change little along a backbone, and not at
  // all on a positively homogeneous structure such as the unpreloaded friction bar: its
  // 49 later amplitudes then cost residuals only, 92 -> 40 s CPU for 50 amplitudes).
  solvers::NewtonOptions newton{.residual_tolerance = 1e-6,
                                .increment_tolerance = 1e-6,
                                .max_iterations = 100,
                                .reuse_contraction = 0.5,
                                .accept_kinks = true,
                                .watchdog = true};
  int max_refinements = 6;  // EPMC: log-amplitude halvings of a failed step in a row
  // Quasi-static: static solves per lambda of the load cycle, and the solver of each.
  int cycle_increments = 8;
  joint::StaticOptions static_solver{
      .load_steps = 1, .residual_tolerance = 1e-9, .exact_tangent = true};
  void Validate() const;  // InputError naming nonlinear_mode.<key>
};

// One route's backbone: per point the modal amplitude, frequency, damping ratio and the
// output DOFs' amplitudes (EPMC: first harmonic; quasi-static: half the loop's span;
// ring-down: the identified half-amplitude), ascending in amplitude.
struct Backbone {
  std::string method;                   // "epmc" or "quasi_static"
  Status status;                        // failure: where it stopped (points kept)
  std::vector<double> modal_amplitude;  // [sqrt(kg) m]
  std::vector<double> frequency;        // [Hz]
  std::vector<double> damping_ratio;    // [-]
  MatX output_amplitude;                // points x outputs [m]
  int iterations = 0;                   // Newton iterations, all points
  int refinements = 0;                  // EPMC: amplitudes inserted after failed steps
  double seconds = 0.0;
  void Add(double a, double f_hz, double ratio, const VecX& outputs);
  int size() const { return static_cast<int>(frequency.size()); }
};

// The mode the backbones start from: phi, omega0 and the modal amplitudes of the spec.
struct StartMode {
  VecX shape;
  double omega = 0.0;                    // [rad/s]
  std::vector<double> modal_amplitudes;  // [sqrt(kg) m]
};
// Fails when the output DOF does not move in the mode.
Status MakeStartMode(const NonlinearModeSpec& spec, const LinearModes& modes,
                     const MatX& output_map, const std::string& output_name, StartMode& start);

// EPMC on `hb` (uncondensed, its DOFs those of output_map's columns), the first amplitude
// started from its quasi-static loop on `system` about x0 (the loop's centre, half span,
// secant frequency and damping; the linear mode if the loop fails, with a note): the stuck
// mode is no start for an interface without preload. Progress "nonlinear mode (EPMC)".
Backbone EpmcBackbone(harmonic::HarmonicBalance& hb, const joint::JointedSystem& system,
                      const VecX& x0, const StartMode& start, const NonlinearModeSpec& spec,
                      const MatX& output_map, Observer& observer);

// Quasi-static modal analysis on `system` (its joints' committed history: the start) from
// the state x0 with the system's constant loads held. Progress "nonlinear mode (quasi-static)".
Backbone QuasiStaticBackbone(const joint::JointedSystem& system, const VecX& x0,
                             const StartMode& start, const NonlinearModeSpec& spec,
                             const MatX& output_map, Observer& observer);

// The ring-down route on `system` from x0 (its joints' committed history: the start).
// Progress "nonlinear mode (ring-down)" over the time steps.
Backbone RingDownBackbone(const joint::JointedSystem& system, const VecX& x0,
                          const StartMode& start, const NonlinearModeSpec& spec,
                          const MatX& output_map, Observer& observer);

}  // namespace jointdyn::analysis
