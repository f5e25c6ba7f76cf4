// The harmonic analysis of a jointed FE structure: its periodic steady states under
// harmonic forces on reference nodes by harmonic balance (harmonic/continuation.h), as
// frequency-response curves (one per excitation level), with the contact and friction of
// every pair evaluated pointwise by AFT (seed 004 eq. 15-27).
//
// The structure is that of joint_dynamics (analysis/jointed_structure.h): FE model, joints,
// Rayleigh damping, bolt preloads with the preload step. Harmonic balance runs on
//   reduced  the CMS basis (Craig-Bampton + free-free orthogonalization) extended by g joint
//            modes of one method, plus the preload mode when preloaded (WithStart): every
//            coordinate moves the joint, so all of them are unknowns (dense);
//   full     the unreduced model on its independent DOFs (`full: true`, small meshes): the
//            DOFs no pair touches are condensed per harmonic (harmonics.condense), the
//            interface DOFs' coefficients are the unknowns.
// Each contact pair is one nonlinear element: harmonic::PairKernel (the joint operator's
// pair kernel laws::ContactPair) on the three rows of the joint's projection (R T, or R T V
// reduced). Every period march starts from the pairs' committed history at the start x0
// (the preloaded friction state and offsets), so the solution at vanishing amplitude is the
// preloaded equilibrium, and the hysteresis loop about it closes as in the time domain. The
// locked bolts' load is the static (harmonic 0) force, which the level does not scale.
//
// Excitation: f(t) = level F cos(k omega t + phase) per load (k = 0: a static force F,
// not scaled). Outputs: the coefficients of chosen physical DOFs at every point
// (OutputCoefficients), the first-harmonic amplitude and phase over frequency per level,
// the stability by Hill's method when asked.
//
// Nonlinear mode (nonlinear_mode, analysis/backbone.h): the frequency and damping ratio of
// one mode of the stuck structure over its amplitude, by EPMC on the same harmonic-balance
// system (uncondensed) and/or by quasi-static modal analysis on the same jointed system.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/backbone.h"
#include "analysis/harmonic.h"
#include "analysis/joint_mode_pipeline.h"
#include "analysis/jointed_structure.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "harmonic/continuation.h"
#include "harmonic/harmonic_balance.h"
#include "harmonic/nonlinear_force.h"

namespace jointdyn::analysis {

// Harmonic forces on reference nodes, or a harmonic base acceleration: the supports move
// rigidly with a(t) = level A cos(k omega t + phase), and the structure's motion relative
// to them is driven by the inertia load -M r a (r: fe::RigidTranslation); the responses
// (outputs, joint) are then relative to the base.
struct HarmonicLoad {
  std::vector<fe::NodeLoad> loads;        // amplitudes F [N, N m] per unit level (k = 0: static)
  Vec3 base_acceleration = Vec3::Zero();  // A [m/s^2] per unit level
  int harmonic = 1;                       // k [-], in the basis
  double phase = 0.0;                     // [rad]: f = level F cos(k omega t + phase)
};

// Contact fields at chosen points of the frequency-response curves: per curve (level) the
// point nearest each frequency, the joints over one period of its motion at `phases`
// equally spaced phases.
struct ContactFieldPoints {
  std::vector<double> frequencies;  // [rad/s]
  int phases = 16;                  // snapshots per period, >= 2
};

struct JointHarmonicOptions : JointedStructureOptions {
  std::string title;
  bool full = false;                     // harmonic balance on the unreduced model
  CmsSpec cms;                           // reduced: the CMS basis
  JointModeSpec joint_modes;             // reduced: the TVDs' contact and law, method and g
  std::vector<HarmonicLoad> excitation;  // empty: no frequency response (nonlinear mode only)
  // With a nonlinear mode the equations are not condensed (EPMC needs every DOF).
  harmonic::HarmonicOptions harmonics;  // basis, AFT samples, condensation
  // Loop closure of the pairs' period march: the Jacobian rows to 1e-6 (MarchOptions).
  harmonic::MarchOptions march{.jacobian_tolerance = 1e-6};
  // Frequency continuation in rad/s, one curve per level (`fixed` set per curve); Newton
  // accepts kinks of the residual (stick-slip switching between samples: NewtonOptions).
  harmonic::ContinuationOptions continuation{.solve = {.newton = {.accept_kinks = true}}};
  std::vector<double> levels;                        // [-], one per curve (with excitation)
  std::optional<NonlinearModeSpec> nonlinear_mode;   // the backbones of one stuck mode
  std::vector<fe::ReferenceDof> output_dofs;         // reported DOFs (at least one)
  std::optional<ContactFieldPoints> contact_fields;  // with excitation
  // Throws InputError naming the option for a set that cannot run.
  void Validate() const;
};

// The joints over the period of one solution point: the pairs marched through periods of
// the point's motion (the AFT's samples per period) from their committed start history,
// as the harmonic balance marches them, until the forces at the snapshots repeat (1e-6 of
// their largest, at most 50 periods); the joints evaluated at the phases of the last one.
struct PeriodSnapshots {
  double level = 0.0;                                     // of the curve [-]
  double omega = 0.0;                                     // of the point [rad/s]
  std::vector<double> times;                              // of the snapshots within the period [s]
  std::vector<std::vector<joint::JointOperator>> joints;  // per snapshot, evaluated
  int periods = 0;                                        // marched
};

struct JointHarmonicResult {
  Status status;  // a failed stage, or the first curve that failed (its points kept)
  fe::FeModel model;
  std::vector<int> joint_pairs;         // pairs per joint
  std::optional<PreloadStart> preload;  // with preloads
  std::string basis;                    // the reduced basis (empty: full)
  int coordinates = 0;                  // DOFs of the harmonic-balance system
  int unknowns = 0;                     // Newton unknowns (after condensation)
  int elements = 0;                     // contact pairs as nonlinear elements
  // Eigenfrequencies of the structure linearized at the start with the joints' sticking
  // tangent (friction stuck, closed pairs' penalty) [Hz], the lowest up to 10: the limit
  // of the resonances at vanishing level.
  std::vector<double> linear_frequencies;
  // Output DOF o's coefficients are output_map.row(o) * point.coefficients (the rows of
  // the basis V, or unit rows on the full model's DOFs).
  MatX output_map;
  // One per level (fixed: the level): the points carry all harmonic-balance DOFs'
  // coefficients (OutputCoefficients maps them to the output DOFs).
  std::vector<HarmonicCurve> curves;
  std::vector<PeriodSnapshots> contact_fields;  // with options.contact_fields
  // With nonlinear_mode: the stuck mode's frequency [Hz] and one backbone per method.
  double mode_frequency = 0.0;
  std::vector<Backbone> backbones;
  std::map<std::string, double> times;  // stage wall times [s]
  double wall_seconds = 0.0;
};

// The output DOFs' coefficients (outputs x nc, row o = [c0, a1, b1, ...]) [m, rad] at `point`.
MatX OutputCoefficients(const JointHarmonicResult& result, const harmonic::SolutionPoint& point);

// The harmonic-balance system of the options (what RunJointHarmonic continues), for
// programs that solve it themselves (bench/, tests): `result` without curves, `hb` null
// when a stage failed (result.status); the jointed system it was made of (reduced or full,
// the joints at the start's history), the start x0 on it and its stuck modes.
struct JointHarmonicSystem {
  JointHarmonicResult result;
  std::unique_ptr<harmonic::HarmonicBalance> hb;
  std::unique_ptr<joint::JointedSystem> system;
  VecX start;
  LinearModes modes;
};
JointHarmonicSystem BuildJointHarmonicSystem(const JointHarmonicOptions& options,
                                             Observer& observer);

// Progress: the FE model, Craig-Bampton, TVDs, then "frequency response, level L" over
// the frequency range, then the nonlinear mode's routes. Notes: the basis, the preload,
// each curve's and backbone's end.
JointHarmonicResult RunJointHarmonic(const JointHarmonicOptions& options, Observer& observer);

}  // namespace jointdyn::analysis
