#include "analysis/joint_mode_study.h"

#include <algorithm>
#include <cmath>

#include "analysis/fe_setup.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/stop.h"

namespace jointdyn::analysis {
namespace {

reduction::JointModeMethod Method(Extension e) {
  switch (e) {
    case Extension::kPodOfTvds:
      return reduction::JointModeMethod::kPodOfTvds;
    case Extension::kPodOfForces:
      return reduction::JointModeMethod::kPodOfForces;
    default:
      return reduction::JointModeMethod::kWeightedPodOfTvds;
  }
}

// A basis whose leading r columns are the basis of each g (r = m + g) and its projections,
// made once per method.
struct ProjectedBasis {
  std::vector<MatX> stiffness;     // V^T K_c V per load case (K_c: without its bolts' axial
                                   // stiffness)
  joint::DenseRows relative;       // R V (3 rows per pair)
  std::vector<VecX> loads;         // V^T f per load case
  std::vector<VecX> measure_rows;  // the measured DOF's row of V per load case
  int cms = 0;                     // m: columns that every g keeps
  int extra = 0;                   // columns beyond m available
};

// The study's fixed data: the model's matrices, the contact, the loads (the bolts' preload
// forces included), the preloaded bolts and measured DOFs per load case.
struct StudyModel {
  solvers::SparseMatrix stiffness, mass;
  JointContact contact;
  std::vector<VecX> loads;
  std::vector<std::vector<Bolt>> bolts;
  std::vector<int> measure_dofs;
};

ProjectedBasis Project(const MatX& v, int cms, const StudyModel& study) {
  ProjectedBasis p;
  const MatX kv = study.stiffness * v;
  MatX k = v.transpose() * kv;
  k = 0.5 * (k + k.transpose()).eval();
  for (const std::vector<Bolt>& bolts : study.bolts) {
    p.stiffness.push_back(k);
    for (const Bolt& bolt : bolts) {
      const VecX a = v.transpose() * bolt.axis;
      p.stiffness.back() -= bolt.stiffness * a * a.transpose();
    }
  }
  p.relative = study.contact.relative.sparse() * v;
  for (const VecX& f : study.loads) p.loads.push_back(v.transpose() * f);
  for (int dof : study.measure_dofs) p.measure_rows.push_back(v.row(dof).transpose());
  p.cms = cms;
  p.extra = static_cast<int>(v.cols()) - cms;
  return p;
}

// The pair pressures of a joint after its last evaluation [Pa].
VecX PairPressures(const joint::JointOperator& joint) {
  VecX p(joint.num_pairs());
  for (int i = 0; i < joint.num_pairs(); ++i) p(i) = joint.Output(i).pressure;
  return p;
}

StudyPoint SolveReduced(const ProjectedBasis& p, int g, int load_case, const JointContact& contact,
                        const joint::StaticOptions& options) {
  const int r = p.cms + std::min(g, p.extra);
  std::vector<joint::JointOperator> joints;
  joints.push_back(
      contact.Operator(joint::PairProjection(joint::DenseRows(p.relative.leftCols(r)))));
  const Clock::time_point start = Clock::now();
  const joint::StaticResult result =
      joint::SolveStatic(MatX(p.stiffness[load_case].topLeftCorner(r, r)), joints,
                         VecX(p.loads[load_case].head(r)), options);
  StudyPoint point;
  point.seconds = Seconds(start);
  point.status = result.status;
  point.iterations = result.iterations;
  if (!result.status) return point;
  if (Status evaluated = joints[0].Evaluate(result.q); !evaluated) {
    point.status = evaluated;
    return point;
  }
  point.values = CriterionValues(p.measure_rows[load_case].head(r).dot(result.q), joints);
  point.pressures = PairPressures(joints[0]);
  return point;
}

double RelativeError(double value, double reference) {
  return reference == 0.0 ? std::abs(value) : std::abs(value - reference) / std::abs(reference);
}

// The full reference solution of load case `c`.
StudyPoint SolveFull(const StudyModel& study, size_t c, const joint::StaticOptions& options) {
  std::vector<joint::JointOperator> joints;
  joints.push_back(study.contact.Operator(study.contact.relative));
  const Clock::time_point start = Clock::now();
  const joint::StaticResult result = joint::SolveStatic(
      WithoutBoltStiffness(study.stiffness, study.bolts[c]), joints, study.loads[c], options);
  StudyPoint point;
  point.seconds = Seconds(start);
  point.iterations = result.iterations;
  point.status = result.status;
  if (!result.status) return point;
  point.status = joints[0].Evaluate(result.q);
  if (!point.status) return point;
  point.values = CriterionValues(result.q(study.measure_dofs[c]), joints);
  point.pressures = PairPressures(joints[0]);
  return point;
}

// Every method's basis: the CMS basis and g_max more columns; the POV curves of the
// joint-mode methods. A failure is returned with nothing else done.
Status BuildBases(const JointModeStudyOptions& options, const StudyModel& study,
                  const CmsBasis& basis, std::map<Extension, ProjectedBasis>& bases,
                  JointModeStudyResult& result, Observer& observer) {
  const int m = basis.m();
  const int g_max = options.modes.back();
  std::optional<reduction::TvdResult> tvd;
  for (Extension method : options.methods) {
    if (method == Extension::kVibrationModes) {
      // CMS first, then the fixed-interface modes v .. v_max - 1: the leading m + g columns
      // span the Craig-Bampton basis with v + g vibration modes.
      MatX v(basis.cms.basis.num_dofs(), m + g_max);
      v.leftCols(m) = basis.cms.basis.vectors;
      v.rightCols(g_max) = basis.cb.basis.vectors.middleCols(options.cms.vibration_modes, g_max);
      bases[method] = Project(v, m, study);
      continue;
    }
    if (!tvd) {
      tvd = ComputeCmsTvds(basis, study.contact, options.joint.tvd, observer);
      if (!tvd->status) return tvd->status;
      result.times["tvd_forces"] = tvd->force_seconds;
      result.times["tvd_solves"] = tvd->solve_seconds;
      result.tvd = TvdFigures::Of(*tvd);
    }
    const JointModeExtension extension =
        ExtendByJointModes(*tvd, study.stiffness, basis, Method(method), g_max);
    if (!extension.status) return extension.status;
    const reduction::JointModeResult& modes = extension.modes;
    result.times["pod_" + std::string(ExtensionKey(method))] =
        modes.pod_seconds + modes.solve_seconds;
    bases[method] = Project(extension.extended.basis.vectors, m, study);
    PovCurve pov{method,        {}, modes.rank, extension.extended.dropped, extension.kept,
                 extension.note};
    for (int k = 0; k < std::min<int>(g_max, static_cast<int>(modes.ratio.size())); ++k)
      pov.ratio.push_back(modes.ratio(k));
    if (!pov.note.empty()) observer.Note(pov.note);
    result.povs.push_back(std::move(pov));
  }
  return Status::Ok();
}

// The reduced solutions of one method under load case `c` against `full`.
StudyCurve SolveCurve(const JointModeStudyOptions& options, const StudyModel& study,
                      const ProjectedBasis& p, Extension method, size_t c, const StudyPoint& full,
                      JointModeStudyResult& result, const std::function<void()>& step) {
  StudyCurve curve{method};
  for (int g : options.modes) {
    StudyPoint point = SolveReduced(p, g, static_cast<int>(c), study.contact, options.solver);
    result.times["reduced_static"] += point.seconds;
    step();
    curve.vectors.push_back(p.cms + std::min(g, p.extra));
    if (!point.status) {
      if (result.status)
        result.status = Status::Failure(options.cases[c].name + ", " + ExtensionLabel(method) +
                                        ", g = " + std::to_string(g) + ": " + point.status.message);
      for (std::vector<double>& e : curve.errors) e.push_back(std::nan(""));
      curve.points.push_back(std::move(point));
      continue;
    }
    for (int k = 0; k < kCriteria; ++k)
      curve.errors[k].push_back(RelativeError(point.values[k], full.values[k]));
    const double worst = std::max(curve.errors[kMeasure].back(), curve.errors[kGapNorm].back());
    if (!curve.first_g_below_1 && worst < 0.01) curve.first_g_below_1 = g;
    if (!curve.first_g_below_5 && worst < 0.05) curve.first_g_below_5 = g;
    curve.points.push_back(std::move(point));
  }
  return curve;
}

// Throws InputError for options that do not fit the model (before any computation).
void CheckOptions(const JointModeStudyOptions& options, const fe::FeModel& model, int b) {
  if (options.modes.empty() || options.methods.empty() || options.cases.empty())
    throw InputError("study", "", "needs methods, modes and load_cases");
  for (size_t c = 0; c < options.cases.size(); ++c) {
    const std::string key = "study.load_cases[" + std::to_string(c) + "]";
    ValidatePreloads(options.cases[c].bolts, options.fe, key + ".bolts");
    if (options.cases[c].loads.empty() && options.cases[c].bolts.empty())
      throw InputError(key, options.cases[c].name, "needs loads, bolts or both");
  }
  const bool vibration = std::find(options.methods.begin(), options.methods.end(),
                                   Extension::kVibrationModes) != options.methods.end();
  const int g_max = options.modes.back();
  const int v_max = options.cms.vibration_modes + (vibration ? g_max : 0);
  const int interior = model.dofs->num_free_dofs() - b;
  if (v_max >= interior)
    throw InputError("study.modes", std::to_string(g_max),
                     "vibration_modes + the largest g (" + std::to_string(v_max) +
                         ") must be < the interior DOFs (" + std::to_string(interior) + ")");
}

}  // namespace

const char* ExtensionKey(Extension e) {
  return e == Extension::kVibrationModes ? "vibration_modes" : MethodKey(Method(e));
}

std::string ExtensionLabel(Extension e) {
  return e == Extension::kVibrationModes ? "vibration modes" : reduction::Name(Method(e));
}

JointModeStudyResult RunJointModeStudy(const JointModeStudyOptions& options, Observer& observer) {
  const Clock::time_point start = Clock::now();
  JointModeStudyResult result;
  result.model = BuildModel(options.fe, observer);
  const fe::FeModel& model = result.model;
  const std::vector<reduction::BoundaryDof> boundary =
      BoundaryDofs(model, options.cms.boundary, options.cms.vibration_modes);
  CheckOptions(options, model, static_cast<int>(boundary.size()));
  StudyModel study{model.ReducedStiffness(),
                   model.ReducedMass(),
                   BuildJointContact(model, options.joint),
                   {},
                   {}};
  for (size_t c = 0; c < options.cases.size(); ++c) {
    const std::string key = "study.load_cases[" + std::to_string(c) + "]";
    study.measure_dofs.push_back(
        fe::FreeDofIndex(model, options.cases[c].measure, key + ".measure"));
    study.loads.push_back(fe::AssembleLoads(model, options.cases[c].loads, key + ".loads"));
    study.bolts.push_back(
        MakeBolts(options.cases[c].bolts, options.fe, model, model.dofs->transform()));
    study.loads.back() += BoltLoad(study.bolts.back(), true, study.loads.back().size());
  }
  result.pairs = study.contact.num_pairs();
  const std::vector<fe::ContactPair>& pairs = model.contacts[study.contact.contact_index].pairs;
  result.pair_positions = MatX::Zero(result.pairs, 3);
  for (int p = 0; p < result.pairs; ++p)
    result.pair_positions.row(p).head(model.mesh.dim) =
        model.mesh.nodes.row(pairs[p].slave).head(model.mesh.dim);

  // The full reference solutions.
  const int cases = static_cast<int>(options.cases.size());
  observer.Progress("full nonlinear static solutions", 0, cases);
  std::vector<StudyPoint> full;
  for (size_t c = 0; c < options.cases.size(); ++c) {
    if (StopRequested()) {
      result.status = Status::Failure(StopReason() + " before the full solution of load case " +
                                      options.cases[c].name);
      result.wall_seconds = Seconds(start);
      return result;
    }
    full.push_back(SolveFull(study, c, options.solver));
    result.times["full_static"] += full.back().seconds;
    if (!full.back().status) {
      result.status = Status::Failure("full static solution of load case " + options.cases[c].name +
                                      ": " + full.back().status.message);
      result.wall_seconds = Seconds(start);
      return result;
    }
    observer.Progress("full nonlinear static solutions", static_cast<int>(c) + 1, cases);
  }

  // Craig-Bampton with every vibration mode any g needs; the CMS basis is its first v
  // fixed-interface modes and the constraint modes, orthogonalized to free-free modes.
  const bool vibration = std::find(options.methods.begin(), options.methods.end(),
                                   Extension::kVibrationModes) != options.methods.end();
  const int v_max = options.cms.vibration_modes + (vibration ? options.modes.back() : 0);
  const CmsBasis basis =
      BuildCmsBasis(study.stiffness, study.mass, boundary, options.cms.vibration_modes, v_max,
                    options.cms.free_free, observer);
  result.times["factor"] = basis.cb.factor_seconds;
  result.times["eigen"] = basis.cb.eigen_seconds;
  result.times["constraint_modes"] = basis.cb.constraint_seconds;
  result.status = basis.status;
  std::map<Extension, ProjectedBasis> bases;
  if (result.status) {
    result.m = basis.m();
    result.cms_basis = reduction::Describe(basis.cms.basis);
    result.rigid_modes_removed = basis.cms.rigid_modes;
    observer.Note("CMS basis " + result.cms_basis);
    result.status = BuildBases(options, study, basis, bases, result, observer);
  }
  if (!result.status) {
    result.wall_seconds = Seconds(start);
    return result;
  }

  // The reduced solutions.
  const int total = cases * static_cast<int>(options.methods.size() * options.modes.size());
  int done = 0;
  observer.Progress("reduced static solutions", 0, total);
  const auto step = [&] { observer.Progress("reduced static solutions", ++done, total); };
  result.times["reduced_static"] = 0.0;
  for (size_t c = 0; c < options.cases.size(); ++c) {
    StudyCase study_case{full[c], {}};
    for (Extension method : options.methods)
      study_case.curves.push_back(
          SolveCurve(options, study, bases.at(method), method, c, full[c], result, step));
    result.cases.push_back(std::move(study_case));
  }
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
