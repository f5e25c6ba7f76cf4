// The static convergence study of seed 003 section 4.1.1 (fig. 4.2-4.5, 4.9). An FE model
// with a joint (penalty contact, no friction) is solved statically under each load case
// twice over:
//
//   full     the nonlinear static solution of the unreduced model (joint::SolveStatic,
//            every pair, every DOF): the reference;
//   reduced  the same problem on a reduction basis V: the CMS basis (Craig-Bampton +
//            free-free orthogonalization, m vectors) extended by g trial vectors, for
//            every g of `modes` and every method of `methods`:
//              wpod_tvd, pod_tvd, pod_forces   g joint modes (reduction/joint_modes.h) from
//                                              the 2 m^2 TVDs of the CMS basis
//              vibration_modes                 g more fixed-interface modes (Craig-Bampton
//                                              with v + g vibration modes)
//
// Each solution gives the criteria of analysis/criteria.h (a measure, the gap norm, the
// contact resultant) and the relative errors of the reduced ones against the full ones. The
// TVDs are computed once; the joint modes of each method once for the largest g (the joint
// modes of a smaller g are the leading ones: POD orders them), and the projections V^T K V,
// R V, V^T f once per method: each g solves on the leading columns.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bolts.h"
#include "analysis/criteria.h"
#include "analysis/joint_mode_pipeline.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "joint/static_solver.h"

namespace jointdyn::analysis {

// A method of extending the CMS basis by g vectors.
enum class Extension { kWeightedPodOfTvds, kPodOfTvds, kPodOfForces, kVibrationModes };

const char* ExtensionKey(Extension e);    // wpod_tvd, pod_tvd, pod_forces, vibration_modes
std::string ExtensionLabel(Extension e);  // "wPOD of TVDs", .., "vibration modes"

// A load case: loads and/or bolt preloads (the preload step of analysis/bolts.h: each
// bolt's axial stiffness replaced by its preload force) and the measured component of a
// reference node.
struct LoadCase {
  std::string name;
  std::vector<fe::NodeLoad> loads;  // [N, N m]
  std::vector<BoltPreload> bolts;
  fe::ReferenceDof measure;
};

struct JointModeStudyOptions {
  std::string title;
  fe::FeModelSpec fe;
  CmsSpec cms;          // boundary, v, free-free orthogonalization
  JointModeSpec joint;  // the contact, its normal law, TVD options (method and g unused)
  std::vector<Extension> methods;
  std::vector<int> modes;  // g values, ascending, distinct
  std::vector<LoadCase> cases;
  joint::StaticOptions solver;  // load_steps
};

// One static solution.
struct StudyPoint {
  Status status;
  std::array<double, kCriteria> values{};  // criteria.h
  VecX pressures;                          // per pair of the contact [Pa] (seed 003 fig. 4.18)
  int iterations = 0;
  double seconds = 0.0;
};

// One method under one load case, per g of the options' modes.
struct StudyCurve {
  Extension method = Extension::kWeightedPodOfTvds;
  std::vector<StudyPoint> points;                       // per g
  std::vector<int> vectors;                             // m + the g columns used, per g
  std::array<std::vector<double>, kCriteria> errors;    // relative, per g (NaN: failed)
  std::optional<int> first_g_below_1, first_g_below_5;  // worst of measure and gap norm
};

struct StudyCase {
  StudyPoint full;
  std::vector<StudyCurve> curves;  // per method
};

// w(g) of a joint-mode method (seed 003 fig. 4.9a).
struct PovCurve {
  Extension method = Extension::kWeightedPodOfTvds;
  std::vector<double> ratio;  // w(1) .. w(min(g_max, rank))
  int rank = 0, dropped = 0, kept = 0;
  std::string note;  // JointModeExtension::note
};

struct JointModeStudyResult {
  Status status;  // the first failure (later solutions are still tried)
  fe::FeModel model;
  int pairs = 0;
  MatX pair_positions;    // pairs x 3: the slave node of each pair [m]
  int m = 0;              // CMS basis columns
  std::string cms_basis;  // reduction::Describe of the CMS basis
  int rigid_modes_removed = 0;
  std::optional<TvdFigures> tvd;  // when a joint-mode method ran
  std::vector<PovCurve> povs;
  std::vector<StudyCase> cases;         // per load case (fewer after a failure)
  std::map<std::string, double> times;  // stage wall times [s]
  double wall_seconds = 0.0;
};

// Throws InputError at "study.modes" (vibration modes beyond the interior DOFs) and at the
// measures. Progress: "full nonlinear static solutions", "reduced static solutions".
JointModeStudyResult RunJointModeStudy(const JointModeStudyOptions& options, Observer& observer);

}  // namespace jointdyn::analysis
