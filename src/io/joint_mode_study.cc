#include "io/joint_mode_study.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>

#include "core/clock.h"
#include "core/progress.h"
#include "io/criteria.h"
#include "io/fe_model_reader.h"
#include "io/joint_mode_stage.h"
#include "io/modal_model.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "reduction/joint_modes.h"
#include "reduction/trial_vector_derivatives.h"

namespace jointdyn::io {
namespace {

// A method of extending the CMS basis by g vectors.
enum class Extension { kWeightedPodOfTvds, kPodOfTvds, kPodOfForces, kVibrationModes };

const std::vector<std::pair<std::string, Extension>>& ExtensionNames() {
  static const std::vector<std::pair<std::string, Extension>> names = {
      {"wpod_tvd", Extension::kWeightedPodOfTvds},
      {"pod_tvd", Extension::kPodOfTvds},
      {"pod_forces", Extension::kPodOfForces},
      {"vibration_modes", Extension::kVibrationModes}};
  return names;
}

std::string Key(Extension e) {
  for (const auto& [name, value] : ExtensionNames())
    if (value == e) return name;
  return "?";
}

std::string Label(Extension e) {
  switch (e) {
    case Extension::kWeightedPodOfTvds:
      return reduction::Name(reduction::JointModeMethod::kWeightedPodOfTvds);
    case Extension::kPodOfTvds:
      return reduction::Name(reduction::JointModeMethod::kPodOfTvds);
    case Extension::kPodOfForces:
      return reduction::Name(reduction::JointModeMethod::kPodOfForces);
    case Extension::kVibrationModes:
      return "vibration modes";
  }
  return "?";
}

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

// A load case: loads and the measured component of a reference node.
struct LoadCase {
  std::string name;
  std::vector<FeLoad> loads;
  FeDofSpec measure;
};

// How criterion k is named in the titles and tables of load case `lc`.
std::string Symbol(const LoadCase& lc, int k) {
  return k == kMeasure ? lc.measure.name() : std::string(kCriterionNames[k].symbol);
}

// The errors of one load case as Markdown tables, one per criterion: a row per method, a
// column per g, in percent (2 digits, whole numbers from 100); "-" where a solution failed.
std::string ErrorTables(const LoadCase& lc, const std::vector<Extension>& methods,
                        const std::vector<int>& modes, const nlohmann::json& methods_json) {
  std::string out;
  for (int k = 0; k < kCriteria; ++k) {
    out += "\n## " + lc.name + ": error of " + Symbol(lc, k) + " [%]\n\n| method |";
    std::string rule = "|---|";
    for (int g : modes) {
      out += " g = " + std::to_string(g) + " |";
      rule += "---|";
    }
    out += "\n" + rule + "\n";
    const std::string key = std::string(kCriterionNames[k].key) + "_errors";
    for (Extension method : methods) {
      out += "| " + Label(method) + " |";
      for (const nlohmann::json& e : methods_json.at(Key(method)).at(key)) {
        char cell[32] = " - |";
        const double percent = e.is_number() ? 100.0 * e.get<double>() : std::nan("");
        if (std::isfinite(percent))
          std::snprintf(cell, sizeof cell, percent < 100.0 ? " %.2g |" : " %.0f |", percent);
        out += cell;
      }
      out += "\n";
    }
  }
  return out;
}

struct StudySpec {
  std::string title;
  FeModelSpec fe;
  CmsSpec cms;
  JointModeSpec joint;
  std::vector<Extension> methods;
  std::vector<int> modes;  // g values, ascending, distinct
  std::vector<LoadCase> cases;
  joint::StaticOptions solver;
  std::optional<ModelNode> reduction_node, study_node;
};

StudySpec ReadStudy(const ModelNode& root) {
  StudySpec spec;
  spec.title = root.String("title", "");
  spec.fe = ReadFeModelSpec(root);
  const ModelNode reduction = root.Map("reduction");
  spec.reduction_node = reduction;
  spec.cms = ReadCmsSpec(reduction);
  const ModelNode joint = StudyJointModes(reduction, "a joint-mode study");
  spec.joint = ReadJointModeSpec(joint, spec.fe);
  reduction.Finish();

  const ModelNode study = root.Map("study");
  spec.study_node = study;
  spec.methods = study.EnumList("methods", ExtensionNames());
  spec.modes = ReadModeCounts(study, "modes");
  for (const ModelNode& node : study.Maps("load_cases")) {
    LoadCase c;
    c.name = node.String("name");
    for (const LoadCase& other : spec.cases)
      if (other.name == c.name) node.FailValue("name", c.name, "is given twice");
    c.loads = ReadFeLoads(node, spec.fe);
    c.measure = ReadFeDof(node.Map("measure"), spec.fe);
    node.Finish();
    spec.cases.push_back(std::move(c));
  }
  spec.solver.load_steps = study.Int("load_steps", spec.solver.load_steps, AtLeast(1));
  study.Finish();
  root.Finish();
  return spec;
}

// One static solution: its criteria (io/criteria.h; the measure and the gap norm are the
// seed's two, which decide first_g_below_*).
struct Point {
  std::array<double, kCriteria> values{};
  int iterations = 0;
  double seconds = 0.0;
  Status status;
};

// A basis whose leading r columns are the basis of each g (r = m + g) and its projections,
// made once per method.
struct ProjectedBasis {
  MatX stiffness;                  // V^T K V
  joint::DenseRows relative;       // R V (3 rows per pair)
  std::vector<VecX> loads;         // V^T f per load case
  std::vector<VecX> measure_rows;  // the measured DOF's row of V per load case
  int cms = 0;                     // m: columns that every g keeps
  int extra = 0;                   // columns beyond m available
};

ProjectedBasis Project(const MatX& v, int cms, const solvers::SparseMatrix& stiffness,
                       const JointContact& contact, const std::vector<VecX>& loads,
                       const std::vector<int>& measure_dofs) {
  ProjectedBasis p;
  const MatX kv = stiffness * v;
  p.stiffness = v.transpose() * kv;
  p.stiffness = 0.5 * (p.stiffness + p.stiffness.transpose()).eval();
  p.relative = contact.relative.sparse() * v;
  for (const VecX& f : loads) p.loads.push_back(v.transpose() * f);
  for (int dof : measure_dofs) p.measure_rows.push_back(v.row(dof).transpose());
  p.cms = cms;
  p.extra = static_cast<int>(v.cols()) - cms;
  return p;
}

Point SolveReduced(const ProjectedBasis& p, int g, int load_case, const JointContact& contact,
                   const joint::StaticOptions& options) {
  const int r = p.cms + std::min(g, p.extra);
  std::vector<joint::JointOperator> joints;
  joints.push_back(
      contact.Operator(joint::PairProjection(joint::DenseRows(p.relative.leftCols(r)))));
  const Clock::time_point start = Clock::now();
  const joint::StaticResult result = joint::SolveStatic(
      MatX(p.stiffness.topLeftCorner(r, r)), joints, VecX(p.loads[load_case].head(r)), options);
  Point point;
  point.seconds = Seconds(start);
  point.status = result.status;
  point.iterations = result.iterations;
  if (!result.status) return point;
  if (Status evaluated = joints[0].Evaluate(result.q); !evaluated) {
    point.status = evaluated;
    return point;
  }
  point.values = CriterionValues(p.measure_rows[load_case].head(r).dot(result.q), joints);
  return point;
}

double RelativeError(double value, double reference) {
  return reference == 0.0 ? std::abs(value) : std::abs(value - reference) / std::abs(reference);
}

}  // namespace

RunOutcome RunJointModeStudy(const ModelNode& root, const std::filesystem::path& out_dir) {
  const Clock::time_point start = Clock::now();
  const StudySpec spec = ReadStudy(root);
  const ModelNode& reduction_node = *spec.reduction_node;
  const ModelNode& study_node = *spec.study_node;
  const FeModel model = BuildFeModel(spec.fe);
  const fe::DofMap& dofs = *model.dofs;
  const std::vector<reduction::BoundaryDof> boundary =
      ReadBoundaryDofs(reduction_node, dofs, spec.cms.boundary, spec.cms.vibration_modes);
  const int b = static_cast<int>(boundary.size());
  const bool vibration = std::find(spec.methods.begin(), spec.methods.end(),
                                   Extension::kVibrationModes) != spec.methods.end();
  const int g_max = spec.modes.back();
  const int v_max = spec.cms.vibration_modes + (vibration ? g_max : 0);
  const int interior = dofs.num_free_dofs() - b;
  if (v_max >= interior)
    study_node.FailValue("modes", std::to_string(g_max),
                         "vibration_modes + the largest g (" + std::to_string(v_max) +
                             ") must be < the interior DOFs (" + std::to_string(interior) + ")");
  std::vector<int> measure_dofs;
  for (const LoadCase& c : spec.cases) measure_dofs.push_back(FreeDofIndex(model, c.measure));
  EnsureDirectory(out_dir);
  const solvers::SparseMatrix stiffness = model.ReducedStiffness();
  const solvers::SparseMatrix mass = model.ReducedMass();
  std::vector<VecX> loads;
  for (const LoadCase& c : spec.cases) loads.push_back(AssembleLoads(model, c.loads));
  const JointContact contact = BuildJointContact(model, spec.joint);

  nlohmann::json summary = FeRunSummary("joint_mode_study", root, spec.title, spec.fe, model);
  summary["pairs"] = contact.num_pairs();
  std::map<std::string, double> times;
  auto fail = [&](const std::string& message) {
    summary["status"] = "failed";
    summary["message"] = message;
    summary["times_s"] = times;
    RunOutcome outcome{false, message, out_dir / "summary.json"};
    WriteJson(outcome.summary, summary);
    return outcome;
  };

  // The full reference solutions.
  std::vector<Point> full(spec.cases.size());
  {
    Progress progress("joint-mode study: full nonlinear static solutions",
                      static_cast<int>(spec.cases.size()));
    for (size_t c = 0; c < spec.cases.size(); ++c) {
      std::vector<joint::JointOperator> joints;
      joints.push_back(contact.Operator(contact.relative));
      const Clock::time_point t = Clock::now();
      const joint::StaticResult result =
          joint::SolveStatic(stiffness, joints, loads[c], spec.solver);
      full[c].seconds = Seconds(t);
      full[c].iterations = result.iterations;
      if (!result.status)
        return fail("full static solution of load case " + spec.cases[c].name + ": " +
                    result.status.message);
      if (Status evaluated = joints[0].Evaluate(result.q); !evaluated)
        return fail("full solution of load case " + spec.cases[c].name + ": " + evaluated.message);
      full[c].values = CriterionValues(result.q(measure_dofs[c]), joints);
      progress.Update(static_cast<int>(c) + 1);
    }
    times["full_static"] = 0.0;
    for (const Point& p : full) times["full_static"] += p.seconds;
  }

  // Craig-Bampton with every vibration mode any g needs; the CMS basis is its first v
  // fixed-interface modes and the constraint modes, orthogonalized to free-free modes.
  const CmsBasis basis = BuildCmsBasis(stiffness, mass, boundary, spec.cms.vibration_modes, v_max,
                                       spec.cms.free_free, "joint-mode study");
  const reduction::CraigBamptonResult& cb = basis.cb;
  const reduction::FreeFreeResult& cms = basis.cms;
  times["factor"] = cb.factor_seconds;
  times["eigen"] = cb.eigen_seconds;
  times["constraint_modes"] = cb.constraint_seconds;
  if (!basis.status) return fail(basis.status.message);
  const int m = cms.basis.size();
  std::cerr << "joint-mode study: CMS basis " << reduction::Describe(cms.basis) << "\n";

  // Every method's basis: the CMS basis and g_max more columns.
  std::map<Extension, ProjectedBasis> bases;
  nlohmann::json pov_json;
  PlotSpec pov_plot{"POV ratio w(g) of the joint-mode methods (seed 003 eq. 3.61)",
                    "joint modes g",
                    "w(g) [-]",
                    false,
                    false,
                    {}};
  std::optional<reduction::TvdResult> tvd;
  for (Extension method : spec.methods) {
    if (method == Extension::kVibrationModes) {
      // CMS first, then the fixed-interface modes v .. v_max - 1: the leading m + g columns
      // span the Craig-Bampton basis with v + g vibration modes.
      MatX v(cms.basis.num_dofs(), m + g_max);
      v.leftCols(m) = cms.basis.vectors;
      v.rightCols(g_max) = cb.basis.vectors.middleCols(spec.cms.vibration_modes, g_max);
      bases[method] = Project(v, m, stiffness, contact, loads, measure_dofs);
      continue;
    }
    if (!tvd) {
      tvd = ComputeCmsTvds(basis, contact, spec.joint.tvd, "joint-mode study");
      if (!tvd->status) return fail(tvd->status.message);
      times["tvd_forces"] = tvd->force_seconds;
      times["tvd_solves"] = tvd->solve_seconds;
      summary["tvd"] = {{"count", tvd->solves},
                        {"zero_deflections", tvd->zero_deflections},
                        {"solves_per_second", tvd->solves_per_second()}};
    }
    const JointModeExtension extension =
        ExtendByJointModes(*tvd, stiffness, basis, Method(method), g_max);
    if (!extension.status) return fail(extension.status.message);
    const reduction::JointModeResult& modes = extension.modes;
    const reduction::ExtendResult& extended = extension.extended;
    times["pod_" + Key(method)] = modes.pod_seconds + modes.solve_seconds;
    bases[method] = Project(extended.basis.vectors, m, stiffness, contact, loads, measure_dofs);
    std::vector<double> g_axis, ratio;
    for (int k = 0; k < std::min<int>(g_max, static_cast<int>(modes.ratio.size())); ++k) {
      g_axis.push_back(k + 1);
      ratio.push_back(modes.ratio(k));
    }
    pov_plot.series.push_back({Label(method), g_axis, ratio, true, true});
    pov_json[Key(method)] = {{"ratio", ratio},
                             {"rank", modes.rank},
                             {"dropped", extended.dropped},
                             {"kept", extension.kept}};
    if (!extension.note.empty()) {
      std::cerr << "joint-mode study: " << extension.note << "\n";
      pov_json[Key(method)]["note"] = extension.note;
    }
  }

  // The reduced solutions.
  std::vector<std::string> columns = {"load_case", "method", "g", "vectors"};
  for (const CriterionNames& n : kCriterionNames) columns.push_back(n.column);
  for (const CriterionNames& n : kCriterionNames) columns.push_back(std::string(n.key) + "_error");
  columns.insert(columns.end(), {"iterations", "seconds"});
  CsvWriter csv(out_dir / "study.csv", columns);
  nlohmann::json cases_json = nlohmann::json::array();
  const int total = static_cast<int>(spec.cases.size() * spec.methods.size() * spec.modes.size());
  Progress progress("joint-mode study: reduced static solutions", total);
  int done = 0;
  double reduced_seconds = 0.0;
  bool ok = true;
  std::string message;
  std::string tables = "# " + spec.title + ": errors against the full model\n";
  for (size_t c = 0; c < spec.cases.size(); ++c) {
    const LoadCase& lc = spec.cases[c];
    std::string below_1 = "joint-mode study: " + lc.name + ": " + Symbol(lc, kMeasure) + " and " +
                          Symbol(lc, kGapNorm) + " within 1 % from";
    std::array<PlotSpec, kCriteria> plots;
    for (int k = 0; k < kCriteria; ++k)
      plots[k] = {lc.name + ": error of " + Symbol(lc, k) + " against the full model",
                  "added vectors g",
                  "relative error [-]",
                  false,
                  true,
                  {}};
    nlohmann::json methods_json;
    for (Extension method : spec.methods) {
      const ProjectedBasis& p = bases.at(method);
      std::array<PlotSeries, kCriteria> series;
      series.fill({Label(method), {}, {}, true, true});
      std::array<std::vector<double>, kCriteria> errors;
      std::optional<int> g1, g5;
      for (int g : spec.modes) {
        const Point point = SolveReduced(p, g, static_cast<int>(c), contact, spec.solver);
        reduced_seconds += point.seconds;
        progress.Update(++done);
        if (!point.status) {
          ok = false;
          message = lc.name + ", " + Label(method) + ", g = " + std::to_string(g) + ": " +
                    point.status.message;
          for (std::vector<double>& e : errors) e.push_back(std::nan(""));
          continue;
        }
        std::vector<double> row = {double(g), double(p.cms + std::min(g, p.extra))};
        row.insert(row.end(), point.values.begin(), point.values.end());
        for (int k = 0; k < kCriteria; ++k) {
          const double e = RelativeError(point.values[k], full[c].values[k]);
          errors[k].push_back(e);
          series[k].x.push_back(g);
          series[k].y.push_back(e);
          row.push_back(e);
        }
        row.insert(row.end(), {double(point.iterations), point.seconds});
        csv.Row({lc.name, Key(method)}, row);
        const double worst = std::max(errors[kMeasure].back(), errors[kGapNorm].back());
        if (!g1 && worst < 0.01) g1 = g;
        if (!g5 && worst < 0.05) g5 = g;
      }
      below_1 += std::string(method == spec.methods.front() ? " " : ", ") +
                 (g1 ? "g = " + std::to_string(*g1) : std::string("no g")) + " (" + Label(method) +
                 ")";
      methods_json[Key(method)] = {
          {"modes", spec.modes},
          {"first_g_below_1_percent", g1 ? nlohmann::json(*g1) : nlohmann::json(nullptr)},
          {"first_g_below_5_percent", g5 ? nlohmann::json(*g5) : nlohmann::json(nullptr)}};
      for (int k = 0; k < kCriteria; ++k) {
        plots[k].series.push_back(series[k]);
        methods_json[Key(method)][std::string(kCriterionNames[k].key) + "_errors"] = errors[k];
      }
    }
    nlohmann::json full_json = {{"iterations", full[c].iterations}, {"seconds", full[c].seconds}};
    for (int k = 0; k < kCriteria; ++k) {
      full_json[kCriterionNames[k].column] = full[c].values[k];
      const std::string stem = k == kMeasure ? lc.measure.component_name : kCriterionNames[k].key;
      WriteSvgPlot(plots[k], out_dir / (lc.name + "_" + stem + ".svg"));
    }
    tables += ErrorTables(lc, spec.methods, spec.modes, methods_json);
    std::cerr << below_1 << "\n";
    cases_json.push_back({{"name", lc.name},
                          {"measure", lc.measure.name()},
                          {"full", full_json},
                          {"methods", methods_json}});
  }
  WriteText(out_dir / "study.md", tables);
  if (!pov_plot.series.empty()) {
    WriteSvgPlot(pov_plot, out_dir / "pov_ratio.svg");
    CsvWriter pov_csv(out_dir / "pov_ratio.csv", {"method", "g", "ratio"});
    for (const auto& series : pov_plot.series)
      for (size_t k = 0; k < series.x.size(); ++k)
        pov_csv.Row({series.label}, {series.x[k], series.y[k]});
  }
  times["reduced_static"] = reduced_seconds;
  times["total"] = Seconds(start);
  summary["status"] = ok ? "ok" : "failed";
  summary["message"] = message;
  summary["cms"] = {{"m", m},
                    {"basis", reduction::Describe(cms.basis)},
                    {"boundary", spec.cms.boundary},
                    {"vibration_modes", spec.cms.vibration_modes},
                    {"rigid_modes_removed", cms.rigid_modes}};
  summary["pov"] = pov_json;
  summary["load_cases"] = cases_json;
  summary["times_s"] = times;
  RunOutcome outcome{ok, message, out_dir / "summary.json"};
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
