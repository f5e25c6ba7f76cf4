// The joint-mode pipeline of a reduction (seed 003 sec. 3.2, algorithms 3.1-3.4), shared by
// the reduction analysis (analysis/reduction.h) and the joint-mode studies
// (analysis/joint_mode_study.h, analysis/joint_dynamics.h). The model-file keys
// (reduction.joint_modes, reduction.preload) are read by model/joint_mode_reader.h.
//
// Stages, each a function so that a study can run them separately (the TVDs once, the
// joint modes per method and g):
//   1. BuildJointContact: the contact's kinematics R on the independent DOFs q of the
//      model's DofMap (joint::BuildContactKinematics + OnIndependentDofs), the normal rows
//      N (rows 3 p + 2 of R) and the pairs' contact stiffness c_p(g) = -A_p dp/dg from the
//      normal law (the penalty's tangent; 0 where the pair is open).
//   2. SolvePreload (optional): the nonlinear static solution x_PL of the full model with
//      frictionless penalty contact (the same normal law) under the preload loads, and the
//      preload mode phi_PL = x_PL / sqrt(x_PL^T K x_PL) (eq. 3.63).
//   3. RunJointModeStage: the CMS basis [+ phi_PL] -> TVDs (from Craig-Bampton's K_ii
//      factor; with a preload mode and tvds: preload_related only the derivatives related
//      to it, eq. 3.70) -> joint modes (method, g) -> ExtendBasis of Craig-Bampton's
//      basis [+ phi_PL] -> a final free-free orthogonalization of the extended basis when
//      `orthogonalize` (rigid-body modes removed, reduced K and M diagonal).
//   SolveReducedStatic: the reduced nonlinear static solution (dense V^T K V, joint on R V)
//   of a basis under a load, for the comparisons with the full solution (seed 003 fig.
//   4.12) and the static convergence studies.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/bolts.h"
#include "analysis/observer.h"
#include "core/status.h"
#include "core/types.h"
#include "fe/fe_model.h"
#include "joint/contact_kinematics.h"
#include "joint/joint_operator.h"
#include "joint/static_solver.h"
#include "laws/normal_law.h"
#include "reduction/basis.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "reduction/joint_modes.h"
#include "reduction/trial_vector_derivatives.h"

namespace jointdyn::analysis {

// The joint modes of a reduction (model file: reduction.joint_modes).
struct JointModeSpec {
  std::string contact;                                // name of a contact of the FE model
  std::shared_ptr<const laws::NormalLaw> normal_law;  // the penalty of TVDs and preload
  reduction::JointModeOptions modes;                  // method, modes (g) or ratio
  reduction::TvdOptions tvd;                          // deflection, block_size
  double tangential_stiffness = 0.0;  // eps_T [Pa/m] of the closed pairs in the TVDs (0: the
                                      // normal stiffness only, as in the seed's studies)
  bool from_ratio = true;             // g from `ratio` (default 0.98), else `modes` given
  std::string key = "reduction.joint_modes";  // where it is in the model, for errors
  // `modes: 0`: no TVDs and no joint modes (the contact and its law serve the preload).
  bool none() const { return !from_ratio && modes.modes == 0; }
};

enum class PreloadTvds {
  kPreloadRelated,  // the 2 (1 + 2 m) TVDs with the preload mode as i or j (eq. 3.70)
  kAll,             // all 2 (m + 1)^2
};

// The preload of a reduction (model file: reduction.preload).
struct PreloadSpec {
  std::vector<fe::NodeLoad> loads;  // the preload forces f_PL, one preload mode for all of them
  std::vector<BoltPreload> bolts;   // and/or preloaded beam bolts (analysis/bolts.h)
  PreloadTvds tvds = PreloadTvds::kPreloadRelated;
  joint::StaticOptions solver;  // load_steps
  double compare_radius = 0.0;  // [m] the pairs within this distance of the first load's
                                // reference node (or the first bolt's first node, in the
                                // pair's plane) are compared with the reduced solutions;
                                // 0: all pairs
  // That reference node's name (`fe`: the beams of the bolts).
  const std::string& Centre(const fe::FeModelSpec& fe) const;
};

// The key of a joint-mode method in run names and files: wpod_tvd, pod_tvd, pod_forces.
const char* MethodKey(reduction::JointModeMethod method);

// Stage 1: the joint on the independent DOFs of the model.
struct JointContact {
  joint::ContactKinematics mesh;   // R on the mesh DOFs, g0 [m], A [m^2]
  joint::PairProjection relative;  // R T on the independent DOFs (sparse)
  reduction::NormalRows normals;   // N, the rows 3 p + 2 of R T
  std::shared_ptr<const laws::NormalLaw> normal_law;
  reduction::PairContactStiffness stiffness;  // c_p(g) = -A_p dp/dg (g) [N/m]
  reduction::TangentialStiffness tangential;  // T and A_p eps_T (empty: eps_T = 0)
  int num_pairs() const { return relative.num_pairs(); }
  int contact_index = 0;  // of the contact in the FE model
  // A frictionless joint with the normal law on `relative` (R T, or R T V for a basis V).
  joint::JointOperator Operator(const joint::PairProjection& relative) const;
};

// Throws InputError (at <spec.key>.contact) for an unknown contact and for a pair with a
// negative area weight (the corners of quadratic faces with area_weighting: consistent): a
// negative penalty.
JointContact BuildJointContact(const fe::FeModel& model, const JointModeSpec& spec);

// Stage 2: the preload state of the full model and its preload mode.
struct PreloadSolution {
  joint::StaticResult full;              // x_PL on the independent DOFs
  solvers::SparseMatrix stiffness;       // K of the preload's static solutions (the bolts'
                                         // axial stiffness replaced by their preloads)
  VecX load;                             // T^T f_PL and the bolts' preloads [N]
  VecX mode;                             // phi_PL = x_PL / sqrt(x_PL^T K x_PL)
  std::vector<joint::PairOutput> pairs;  // the contact state at x_PL
};

// `stiffness` K on the independent DOFs, `bolts` those of spec.bolts on them. The model
// must be held (K positive definite with the joint; the caller checks, e.g. by the
// rigid-body modes of its reduction basis).
PreloadSolution SolvePreload(const fe::FeModel& model, const solvers::SparseMatrix& stiffness,
                             const JointContact& contact, const PreloadSpec& spec,
                             const std::vector<Bolt>& bolts);

// The reduced static solution x = V q for a basis V (n x r on the independent DOFs): dense
// V^T K V, the joint on R T V, load V^T f; the pair states at x.
struct ReducedStatic {
  joint::StaticResult result;  // q: modal coordinates
  VecX x;                      // V q
  std::vector<joint::PairOutput> pairs;
};

ReducedStatic SolveReducedStatic(const MatX& basis, const solvers::SparseMatrix& stiffness,
                                 const JointContact& contact, const VecX& load,
                                 const joint::StaticOptions& options = {});

// Wall times of the stage [s] (Craig-Bampton's factor and eigen stages are its own).
struct JointModeTimes {
  double preload = 0.0;            // full nonlinear static solution
  double tvd_forces = 0.0;         // N phi, deflections, fictive forces
  double tvd_solves = 0.0;         // blocked solves with the K_ii factor
  double pod = 0.0;                // normalization, Gram matrix, eigenproblem
  double joint_mode_solves = 0.0;  // pod_forces: K_c^-1 f_J
  double extend = 0.0;             // K-orthogonalization against the basis
  double orthogonalization = 0.0;  // final free-free orthogonalization
};

struct JointModeStageResult {
  Status status;  // failure of a numerical stage, named
  // The basis the TVDs differentiate: the CMS basis [+ the preload mode], m columns.
  reduction::ReductionBasis tvd_basis;
  std::vector<int> focus;  // columns of tvd_basis in focus (the preload mode), or none
  reduction::JointModeResult joint_modes;             // modes, POVs, w
  reduction::ReductionBasis extended;                 // tvd_basis + the kept joint modes
  reduction::FreeFreeResult final_orthogonalization;  // when orthogonalize
  reduction::ReductionBasis basis;  // the final basis (extended, or its free-free modes)
  MatX stiffness, mass;             // V^T K V, V^T M V of the final basis
  VecX frequencies;                 // elastic eigenfrequencies of the final basis [Hz]
  int pairs = 0;                    // contact pairs
  int m = 0;                        // tvd_basis columns
  int k = 0;                        // TVDs (2 m^2, or 2 (1 + 2 (m - 1)) preload-related)
  int g = 0;                        // joint modes computed
  double ratio = 0.0;               // w(g) (0 for g = 0)
  int dropped = 0;                  // joint modes dependent on the basis (ExtendBasis)
  int zero_deflections = 0;         // deflections without contact stiffness
  int solves = 0;                   // right-hand sides solved in the TVD stage
  double solves_per_second = 0.0;   // in the TVD stage
  JointModeTimes times;
};

// K and M of a reduced basis V in the coordinates of V Y: Y^T K Y and Y^T M Y, symmetrized.
void TransformReduced(const MatX& y, MatX& stiffness, MatX& mass);

// `stiffness`, `mass`: K and M on the independent DOFs; `cb` the Craig-Bampton result
// (its K_ii factor, interior DOFs and basis); `cms` the basis whose TVDs are taken
// (free-free modes, or Craig-Bampton's); `preload_mode` phi_PL or null.
JointModeStageResult RunJointModeStage(
    const solvers::SparseMatrix& stiffness, const solvers::SparseMatrix& mass,
    const reduction::CraigBamptonResult& cb, const reduction::ReductionBasis& cms,
    const JointContact& contact, const JointModeSpec& spec, const VecX* preload_mode,
    PreloadTvds preload_tvds, bool orthogonalize, const reduction::FreeFreeOptions& free_free);

// The CMS basis of the studies (joint_mode_study, joint_dynamics; model file: reduction.
// boundary, vibration_modes, rigid_ratio).
struct CmsSpec {
  std::vector<std::string> boundary;     // reference nodes
  int vibration_modes = 10;              // v of the CMS basis
  reduction::FreeFreeOptions free_free;  // rigid_ratio
};

// The CMS basis of the joint-mode studies (seed 003 section 4.1.1): Craig-Bampton with
// `cb_modes` >= `vibration_modes` fixed-interface modes and the constraint modes of
// `boundary` (a study that adds vibration modes computes them in the same Lanczos run),
// then the CMS basis: the first `vibration_modes` fixed-interface modes and the constraint
// modes, orthogonalized to free-free modes (m vectors). Progress: "Craig-Bampton (..)".
struct CmsBasis {
  Status status;                     // failure of Craig-Bampton or of the orthogonalization
  reduction::CraigBamptonResult cb;  // with its K_ii factor for the TVDs
  reduction::FreeFreeResult cms;     // cms.basis: the m vectors
  int m() const { return cms.basis.size(); }
};
CmsBasis BuildCmsBasis(const solvers::SparseMatrix& stiffness, const solvers::SparseMatrix& mass,
                       const std::vector<reduction::BoundaryDof>& boundary, int vibration_modes,
                       int cb_modes, const reduction::FreeFreeOptions& free_free,
                       Observer& observer);

// The 2 m^2 trial vector derivatives of the CMS basis with the contact's normal law, from
// Craig-Bampton's K_ii factor (progress: "<2 m^2> trial vector derivatives").
reduction::TvdResult ComputeCmsTvds(const CmsBasis& basis, const JointContact& contact,
                                    const reduction::TvdOptions& options, Observer& observer);

// The figures of a TVD stage that summaries report.
struct TvdFigures {
  int count = 0;                   // TVDs solved
  int zero_deflections = 0;        // deflections without contact stiffness
  double solves_per_second = 0.0;  // blocked solves with the K_ii factor
  static TvdFigures Of(const reduction::TvdResult& tvd) {
    return {tvd.solves, tvd.zero_deflections, tvd.solves_per_second()};
  }
};

// The CMS basis extended by the leading `g_max` joint modes of `method` from `tvd` (every
// mode above the rank tolerance is computed, w(g) up to 1): the leading m + g columns of
// the extension are the basis of each g <= g_max (POD orders the modes).
struct JointModeExtension {
  Status status;                     // failure, with the method's name
  reduction::JointModeResult modes;  // modes, POVs, ratio w(g), rank, times
  reduction::ExtendResult extended;  // the CMS basis + the kept modes, dropped
  int kept = 0;                      // joint modes appended, <= g_max
  std::string note;  // when kept < g_max: the method, the rank and the dropped modes, and
                     // that every g from `kept` on uses `kept` modes (else empty)
};
JointModeExtension ExtendByJointModes(const reduction::TvdResult& tvd,
                                      const solvers::SparseMatrix& stiffness, const CmsBasis& basis,
                                      reduction::JointModeMethod method, int g_max);

// The distance of each pair's slave node from the axis through reference node `node` along
// the pair's normal (the radius around a bolt or preload area in the joint plane) [m].
VecX PairRadii(const fe::FeModel& model, int contact_index, const std::string& node);

// Pressure comparison of a reduced solution with the full one over `selected` pairs:
// ||p_reduced - p_full||_2 / ||p_full||_2 (0 when both vanish).
double RelativePressureError(const std::vector<joint::PairOutput>& reduced,
                             const std::vector<joint::PairOutput>& full,
                             const std::vector<int>& selected);

}  // namespace jointdyn::analysis
