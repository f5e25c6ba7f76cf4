// The reduction analysis: an FE model reduced by Craig-Bampton (fixed-interface modes and
// the constraint modes of the boundary reference nodes) and, by default, orthogonalized to
// free-free modes; optionally extended by joint modes from trial vector derivatives of a
// joint's contact pairs and by a preload mode (analysis/joint_mode_pipeline.h), with the
// preload state of the reduced models compared with the full one (seed 003 fig. 4.12), and
// optionally the full model's eigenfrequencies for comparison.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/joint_mode_pipeline.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "solvers/eigen_solver.h"

namespace jointdyn::analysis {

struct ReductionOptions {
  std::string title;
  fe::FeModelSpec fe;
  std::vector<std::string> boundary;             // reference nodes whose DOFs are the CB boundary
  reduction::CraigBamptonOptions craig_bampton;  // fixed_interface_modes (vibration_modes)
  bool orthogonalize = true;                     // to free-free modes
  reduction::FreeFreeOptions free_free;          // rigid_ratio
  int compare_full = 0;  // lowest elastic eigenfrequencies of the full model (0: none)
  std::optional<JointModeSpec> joint_modes;
  std::optional<PreloadSpec> preload;  // needs joint_modes (its contact and normal law)
};

// The shift of the full model's eigen solve [Hz]: below the rigid-body modes of a free
// structure (as the `modes.shift` default of the modal analysis).
inline constexpr double kFullShiftHz = -1.0;

// The lowest elastic eigenfrequencies of the full model [Hz] (count + r eigenpairs above
// kFullShiftHz less the r lowest, r the rigid-body modes the reduced basis held).
struct FullComparison {
  solvers::EigenResult eigen;
  std::vector<double> frequencies;  // elastic [Hz]
  double seconds = 0.0;
};

// The stages after Craig-Bampton with a joint.
struct JointReduction {
  JointContact contact;
  std::optional<PreloadSolution> preload;
  JointModeStageResult stage;
  // The reduced preload solutions compared with the full one over the pairs `compared`
  // (within compare_radius of the first load's reference node; radii of all pairs).
  struct Case {
    std::string name, label;  // "cms", "CMS only"; "cms_plm"; "final"
    int size = 0;             // basis columns
    ReducedStatic solution;
    double error = 0.0;  // RelativePressureError over `compared`
  };
  std::vector<Case> cases;
  VecX radii;  // [m]
  std::vector<int> compared;
  double compare_seconds = 0.0;  // the reduced preload solutions [s]
};

struct ReductionResult {
  Status status;  // the first stage that failed
  fe::FeModel model;
  std::vector<reduction::BoundaryDof> boundary;
  reduction::CraigBamptonResult cb;
  reduction::FreeFreeResult free_free;  // of the Craig-Bampton basis
  std::optional<JointReduction> joint;  // with joint_modes
  reduction::ReductionBasis basis;      // the final basis (empty on failure)
  MatX stiffness, mass;                 // V^T K V, V^T M V of the final basis
  std::vector<double> frequencies;      // its elastic eigenfrequencies [Hz]
  int rigid_modes_removed = 0;          // by the orthogonalization
  std::optional<FullComparison> full;   // with compare_full
  double wall_seconds = 0.0;
};

// Throws InputError at "reduction.boundary", ".vibration_modes", ".compare_full" or
// ".preload" (a preload needs a held structure). Progress: the FE model's stages,
// "Craig-Bampton", "preload", "joint modes", "reduced preload solutions", "full model
// eigenpairs"; notes: the stages' figures.
ReductionResult RunReduction(const ReductionOptions& options, Observer& observer);

}  // namespace jointdyn::analysis
