#include "io/joint_dynamics.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "core/clock.h"
#include "core/progress.h"
#include "io/contact_field.h"
#include "io/criteria.h"
#include "io/fe_model_reader.h"
#include "io/hdf5_file.h"
#include "io/integrator_reader.h"
#include "io/joint_mode_stage.h"
#include "io/law_registry.h"
#include "io/lumped_reader.h"
#include "io/modal_model.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "joint/jointed_system.h"
#include "lumped/time_function.h"

namespace jointdyn::io {
namespace {

// One joint: a contact of the FE model with its laws.
struct JointSpec {
  JointModeSpec contact;  // contact, contact_index, normal law (the joint's), node
  std::shared_ptr<const laws::TangentialLaw> friction;  // null: frictionless
};

// Loads on reference nodes times a time function.
struct DynamicLoad {
  std::vector<FeLoad> loads;  // [N, N m] per unit of the function
  lumped::TimeFunction function;
};

// A run: the full model, or the CMS basis extended by g joint modes of a method.
struct RunSpec {
  std::string name;  // full, cms, <method>_<g>
  bool full = false;
  std::optional<reduction::JointModeMethod> method;  // none: full or cms
  int g = 0;
};

std::string MethodKey(reduction::JointModeMethod method) {
  for (const auto& [name, value] : JointModeMethodNames())
    if (value == method) return name;
  return "?";
}

struct DynamicsSpec {
  std::string title;
  FeModelSpec fe;
  std::vector<JointSpec> joints;
  std::vector<DynamicLoad> loads;
  double rayleigh_alpha = 0.0;  // [1/s]
  double rayleigh_beta = 0.0;   // [s]
  CmsSpec cms;
  JointModeSpec joint_modes;
  bool full = false;
  std::vector<reduction::JointModeMethod> methods;
  std::vector<int> modes;  // ascending, distinct
  FeDofSpec measure;
  std::vector<RunSpec> runs;
  time::IntegratorOptions integrator;
  std::vector<FeDofSpec> output_dofs;  // histories.h5
  std::set<std::string> field_runs;    // contact fields of these runs
  double field_interval = 0.0;         // [s]
  std::optional<ModelNode> reduction_node;
};

JointSpec ReadJoint(const ModelNode& node, const FeModelSpec& fe) {
  JointSpec joint;
  joint.contact.node = node;
  joint.contact.contact = node.String("contact");
  joint.contact.contact_index = ReadContactIndex(node, "contact", fe);
  joint.contact.normal_law = ReadNormalLaw(node.Map("normal"));
  if (node.Has("friction")) {
    const ModelNode friction = node.Map("friction");
    joint.friction = ReadTangentialLaw(friction);
    if (joint.friction->dim() != 2)
      friction.FailValue("dim", std::to_string(joint.friction->dim()),
                         "must be 2: the slip in a joint has two components (add dim: 2)");
  }
  node.Finish();
  return joint;
}

DynamicsSpec ReadDynamics(const ModelNode& root) {
  DynamicsSpec spec;
  spec.title = root.String("title", "");
  spec.fe = ReadFeModelSpec(root);
  if (!spec.fe.loads.empty())
    root.FailValue("loads", "(given)",
                   "joint_dynamics takes time-dependent loads from dynamic_loads; remove the key");

  std::set<int> contacts;
  for (const ModelNode& node : root.Maps("joints")) {
    spec.joints.push_back(ReadJoint(node, spec.fe));
    if (!contacts.insert(spec.joints.back().contact.contact_index).second)
      node.FailValue("contact", spec.joints.back().contact.contact, "has a joint already");
  }
  for (const ModelNode& node : root.Maps("dynamic_loads")) {
    DynamicLoad load;
    load.loads = ReadFeLoads(node, spec.fe);
    const ModelNode function = node.Map("function");
    load.function = ReadTimeFunction(function);
    function.Finish();
    node.Finish();
    spec.loads.push_back(std::move(load));
  }
  if (const auto damping = root.OptionalMap("damping")) {
    const ModelNode rayleigh = damping->Map("rayleigh");
    spec.rayleigh_alpha = rayleigh.Double("alpha", 0.0, NonNegative());
    spec.rayleigh_beta = rayleigh.Double("beta", 0.0, NonNegative());
    rayleigh.Finish();
    damping->Finish();
  }

  const ModelNode reduction = root.Map("reduction");
  spec.reduction_node = reduction;
  spec.cms = ReadCmsSpec(reduction);
  const ModelNode joint_modes = StudyJointModes(reduction, "a joint-dynamics study");
  // The TVDs' normal law defaults to the normal law of the joint on the same contact.
  std::shared_ptr<const laws::NormalLaw> joint_law;
  if (joint_modes.Has("contact")) {
    const int index = ReadContactIndex(joint_modes, "contact", spec.fe);
    for (const JointSpec& j : spec.joints)
      if (j.contact.contact_index == index) joint_law = j.contact.normal_law;
    if (!joint_law && !joint_modes.Has("normal_law"))
      joint_modes.FailValue("contact", joint_modes.String("contact"),
                            "has no joint (key `joints`): give normal_law for its TVDs");
  }
  spec.joint_modes = ReadJointModeSpec(joint_modes, spec.fe, joint_law);
  reduction.Finish();

  const ModelNode study = root.Map("study");
  spec.full = study.Bool("full", false);
  spec.methods = study.EnumList("methods", JointModeMethodNames());
  spec.modes = ReadModeCounts(study, "modes");
  spec.measure = ReadFeDof(study.Map("measure"), spec.fe);
  study.Finish();

  for (int g : spec.modes)
    if (g == 0) spec.runs.push_back({"cms", false, std::nullopt, 0});
  for (reduction::JointModeMethod method : spec.methods)
    for (int g : spec.modes)
      if (g > 0)
        spec.runs.push_back({MethodKey(method) + "_" + std::to_string(g), false, method, g});
  // The full run last: the reduced results are there early.
  if (spec.full) spec.runs.push_back({"full", true, std::nullopt, 0});

  const ModelNode integrator = root.Map("integrator");
  spec.integrator = ReadIntegrator(integrator);

  if (const auto output = root.OptionalMap("output")) {
    spec.integrator.output_interval = output->Double("interval", 0.0, NonNegative());
    for (const ModelNode& node : output->OptionalMaps("dofs"))
      spec.output_dofs.push_back(ReadFeDof(node, spec.fe));
    if (const auto fields = output->OptionalMap("contact_fields")) {
      for (const std::string& name : fields->Strings("runs")) {
        const bool known = std::any_of(spec.runs.begin(), spec.runs.end(),
                                       [&](const RunSpec& r) { return r.name == name; });
        if (!known) {
          std::string names;
          for (const RunSpec& r : spec.runs) names += (names.empty() ? "" : ", ") + r.name;
          fields->FailValue("runs", name, "must name a run of the study (" + names + ")");
        }
        spec.field_runs.insert(name);
      }
      spec.field_interval = fields->Double("interval", 0.0, NonNegative());
      fields->Finish();
    }
    output->Finish();
  }
  if (spec.output_dofs.empty()) spec.output_dofs.push_back(spec.measure);
  root.Finish();
  if (const Status status = spec.integrator.Validate(); !status)
    throw InputError("integrator", "", status.message).Located(root.file(), integrator.line(), "");
  return spec;
}

// The criteria every run records over time and the study compares with its reference
// (io/criteria.h), with this study's names: the measure's from its DOF.
struct CriterionText {
  std::string key, column;
  std::string max_key;       // summary: the largest |value|
  std::string symbol;        // in the error plots' titles
  std::string title, label;  // of the plot over time
};

std::array<CriterionText, kCriteria> Criteria(const DynamicsSpec& spec) {
  std::array<CriterionText, kCriteria> criteria;
  for (int k = 0; k < kCriteria; ++k) {
    const CriterionNames& n = kCriterionNames[k];
    criteria[k] = {n.key, n.column, "max_" + std::string(n.column), n.symbol, n.title, n.label};
  }
  const std::string m = spec.measure.name();
  criteria[kMeasure].max_key = "max_abs_measure";
  criteria[kMeasure].symbol = m;
  criteria[kMeasure].title = spec.title.empty() ? "Measure " + m : spec.title;
  criteria[kMeasure].label = m + (spec.measure.component < 3 ? " [m]" : " [rad]");
  return criteria;
}

// The time histories of one run.
struct History {
  std::vector<double> time;                             // [s]
  std::array<std::vector<double>, kCriteria> criteria;  // per io::Criterion
  std::vector<VecX> dofs;                               // the output DOFs per sample
};

// u_ref at `t` by linear interpolation (t within the reference's time range).
double Interpolate(const std::vector<double>& times, const std::vector<double>& values, double t) {
  const auto it = std::lower_bound(times.begin(), times.end(), t);
  if (it == times.begin()) return values.front();
  if (it == times.end()) return values.back();
  const size_t i = it - times.begin();
  const double w = (t - times[i - 1]) / (times[i] - times[i - 1]);
  return (1.0 - w) * values[i - 1] + w * values[i];
}

double MaxAbs(const std::vector<double>& values) {
  double m = 0.0;
  for (double v : values) m = std::max(m, std::abs(v));
  return m;
}

// A file-name-safe form of a contact name ("sheet_1_joint/sheet_2_joint").
std::string FileName(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return out;
}

// For a run that stopped in a step it could not get through (rejected steps: Newton after
// the step cuts) with a linear penalty in some joint: the measured remedy (the kink at g = 0
// lets low-pressure pairs open and close from one iteration to the next on fine meshes).
std::string LinearPenaltyHint(const DynamicsSpec& spec, const time::TransientResult& result) {
  if (result.status || result.rejected_steps == 0) return "";
  for (const JointSpec& joint : spec.joints)
    if (joint.contact.normal_law->type() == "linear")
      return " (hint: contact " + joint.contact.contact +
             " has a linear penalty; if Newton cycles as pairs with almost no pressure open "
             "and close, a C1 onset over about 1 nm, normal: {type: quadratic_linear, eps: "
             "<the same>, g0: 0.0, g1: -1.0e-9}, removes the kink; docs/model_files.md, "
             "joint_dynamics, finer meshes)";
  return "";
}

// When pairs that opened dropped more than a quarter of a run's friction dissipation (see
// JointOperator::opening_energy): the warning, else "".
std::string OpeningWarning(double dropped, double law_dissipation) {
  if (!(law_dissipation > 0.0) || dropped <= 0.25 * law_dissipation) return "";
  return FormatValue(std::round(100.0 * dropped / law_dissipation)) +
         " % of the friction dissipation is tangential law energy dropped by pairs that opened "
         "(pair_openings; per pair: opening_energy in the contact fields), e.g. the parallel "
         "spring c2 |s|^2 / 2 of a coulomb law: the damping then depends on how the mesh "
         "resolves the contact boundary; a smaller c2 avoids it";
}

// The result of one run.
struct RunResult {
  History history;
  time::TransientResult transient;
  double wall_seconds = 0.0;
  double reduce_seconds = 0.0;                        // projection of the full system on the basis
  int size = 0;                                       // state size
  std::array<std::vector<double>, kCriteria> errors;  // on history.time; empty: reference
  int field_steps = 0;
  int pair_openings = 0;        // JointOperator::openings(), summed over the joints
  double opening_energy = 0.0;  // JointOperator::opening_energy() [J], summed
  std::string warning;          // OpeningWarning(), or empty
};

void WriteHistories(const std::filesystem::path& path, const std::vector<RunSpec>& runs,
                    const std::vector<RunResult>& results, const DynamicsSpec& spec,
                    const std::array<CriterionText, kCriteria>& criteria) {
  Hdf5File file(path.string(), Hdf5File::Mode::kCreate);
  std::string names;
  for (const FeDofSpec& d : spec.output_dofs) {
    if (!names.empty()) names += ",";
    names += d.name();
  }
  file.WriteAttribute("/", "dofs", names);
  file.WriteAttribute("/", "measure", spec.measure.name());
  for (size_t r = 0; r < results.size(); ++r) {
    const History& h = results[r].history;
    if (h.time.empty()) continue;
    const auto n = static_cast<Eigen::Index>(h.time.size());
    const std::string group = "runs/" + runs[r].name;
    file.WriteVector(group + "/time", Eigen::Map<const VecX>(h.time.data(), n));
    for (int c = 0; c < kCriteria; ++c)
      file.WriteVector(group + "/" + criteria[c].key,
                       Eigen::Map<const VecX>(h.criteria[c].data(), n));
    MatX dofs(n, static_cast<Eigen::Index>(spec.output_dofs.size()));
    for (Eigen::Index i = 0; i < n; ++i) dofs.row(i) = h.dofs[i].transpose();
    file.WriteMatrix(group + "/dofs", dofs);
    file.WriteAttribute(group + "/dofs", "columns", names);
    file.WriteAttribute(group + "/time", "status",
                        std::string(results[r].transient.status.ok ? "ok" : "failed"));
  }
}

}  // namespace

RunOutcome RunJointDynamics(const ModelNode& root, const std::filesystem::path& out_dir) {
  const Clock::time_point start = Clock::now();
  const DynamicsSpec spec = ReadDynamics(root);
  const ModelNode& reduction_node = *spec.reduction_node;
  const FeModel model = BuildFeModel(spec.fe);
  const fe::DofMap& dofs = *model.dofs;
  const std::vector<reduction::BoundaryDof> boundary =
      ReadBoundaryDofs(reduction_node, dofs, spec.cms.boundary, spec.cms.vibration_modes);
  const int measure_dof = FreeDofIndex(model, spec.measure);
  std::vector<int> output_dofs;
  for (const FeDofSpec& d : spec.output_dofs) output_dofs.push_back(FreeDofIndex(model, d));

  // The joints (InputError for negative area weights), the TVD contact, the loads.
  std::vector<JointContact> contacts;
  for (const JointSpec& j : spec.joints) contacts.push_back(BuildJointContact(model, j.contact));
  const JointContact tvd_contact = BuildJointContact(model, spec.joint_modes);
  std::vector<joint::TimedLoad> loads;
  for (const DynamicLoad& load : spec.loads)
    loads.push_back(
        {AssembleLoads(model, load.loads), [f = load.function](double t) { return f.Value(t); }});
  EnsureDirectory(out_dir);

  // The full system on the independent DOFs.
  joint::StructureMatrices matrices{.mass = model.ReducedMass(),
                                    .stiffness = model.ReducedStiffness()};
  if (spec.rayleigh_alpha > 0.0 || spec.rayleigh_beta > 0.0)
    matrices.damping = joint::RayleighDamping(matrices.mass, matrices.stiffness,
                                              spec.rayleigh_alpha, spec.rayleigh_beta);
  // No touch band (joint_operator.h) in dynamics: the mass keeps the step's tangent
  // regular, and a band whose tangent the residual lacks holds Newton to linear
  // convergence while the joint moves by less than the band (the first steps from rest).
  std::vector<joint::JointOperator> operators;
  for (size_t j = 0; j < spec.joints.size(); ++j)
    operators.emplace_back(contacts[j].relative, contacts[j].mesh.initial_gap,
                           contacts[j].mesh.area,
                           joint::JointLaws{.normal = spec.joints[j].contact.normal_law,
                                            .tangential = spec.joints[j].friction},
                           joint::JointOptions{.touch_band = 0.0});
  const solvers::SparseMatrix stiffness = matrices.stiffness.sparse();
  const solvers::SparseMatrix mass = matrices.mass.sparse();
  joint::JointedSystem full_system(std::move(matrices), std::move(operators), loads);

  nlohmann::json summary = FeRunSummary("joint_dynamics", root, spec.title, spec.fe, model);
  nlohmann::json joints_json = nlohmann::json::array();
  int pairs = 0;
  for (size_t j = 0; j < spec.joints.size(); ++j) {
    pairs += contacts[j].num_pairs();
    joints_json.push_back({{"contact", spec.joints[j].contact.contact},
                           {"pairs", contacts[j].num_pairs()},
                           {"friction", spec.joints[j].friction != nullptr}});
  }
  summary["joints"] = joints_json;
  summary["pairs"] = pairs;
  summary["measure"] = spec.measure.name();
  summary["scheme"] = SchemeName(spec.integrator.scheme);
  summary["t_start"] = spec.integrator.t_start;
  summary["t_end"] = spec.integrator.t_end;
  summary["dt"] = spec.integrator.dt;
  std::map<std::string, double> times;
  std::vector<std::string> failures;
  auto finish = [&](const std::string& fatal) {
    if (!fatal.empty()) failures.push_back(fatal);
    std::string message;
    for (const std::string& f : failures) message += (message.empty() ? "" : "; ") + f;
    times["total"] = Seconds(start);
    summary["status"] = failures.empty() ? "ok" : "failed";
    summary["message"] = message;
    summary["times_s"] = times;
    RunOutcome outcome{failures.empty(), message, out_dir / "summary.json"};
    WriteJson(outcome.summary, summary);
    return outcome;
  };

  // The CMS basis and the joint modes of every method (only when a reduced run needs them).
  const bool reduced =
      std::any_of(spec.runs.begin(), spec.runs.end(), [](const RunSpec& r) { return !r.full; });
  std::optional<CmsBasis> basis;
  std::map<reduction::JointModeMethod, reduction::ReductionBasis> extended;
  if (reduced) {
    basis = BuildCmsBasis(stiffness, mass, boundary, spec.cms.vibration_modes,
                          spec.cms.vibration_modes, spec.cms.free_free, "joint dynamics");
    times["craig_bampton"] = basis->cb.factor_seconds + basis->cb.eigen_seconds +
                             basis->cb.constraint_seconds + basis->cb.projection_seconds;
    if (!basis->status) return finish("CMS basis: " + basis->status.message);
    const int m = basis->m();
    std::cerr << "joint dynamics: CMS basis " << reduction::Describe(basis->cms.basis) << "\n";
    summary["cms"] = {{"m", m},
                      {"basis", reduction::Describe(basis->cms.basis)},
                      {"boundary", spec.cms.boundary},
                      {"vibration_modes", spec.cms.vibration_modes},
                      {"rigid_modes_removed", basis->cms.rigid_modes}};
    const int g_max = spec.modes.back();
    if (g_max > 0) {
      const reduction::TvdResult tvd =
          ComputeCmsTvds(*basis, tvd_contact, spec.joint_modes.tvd, "joint dynamics");
      times["tvd"] = tvd.force_seconds + tvd.solve_seconds;
      if (!tvd.status) return finish("trial vector derivatives: " + tvd.status.message);
      summary["tvd"] = {{"count", tvd.solves},
                        {"zero_deflections", tvd.zero_deflections},
                        {"solves_per_second", tvd.solves_per_second()}};
      nlohmann::json modes_json;
      for (reduction::JointModeMethod method : spec.methods) {
        const Clock::time_point t = Clock::now();
        JointModeExtension extension = ExtendByJointModes(tvd, stiffness, *basis, method, g_max);
        times["joint_modes_" + MethodKey(method)] = Seconds(t);
        if (!extension.status) return finish(extension.status.message);
        const int kept = extension.kept;
        const double ratio =
            kept > 0 ? extension.modes.ratio(
                           std::min<Eigen::Index>(kept, extension.modes.ratio.size()) - 1)
                     : 0.0;
        modes_json[MethodKey(method)] = {{"rank", extension.modes.rank},
                                         {"kept", kept},
                                         {"dropped", extension.extended.dropped},
                                         {"ratio_at_largest_g", ratio}};
        if (!extension.note.empty()) {
          std::cerr << "joint dynamics: " << extension.note << "\n";
          modes_json[MethodKey(method)]["note"] = extension.note;
        }
        extended[method] = std::move(extension.extended.basis);
      }
      summary["joint_modes"] = modes_json;
    }
  }
  summary["modes"] = spec.modes;
  std::vector<std::string> method_names;
  for (reduction::JointModeMethod method : spec.methods) method_names.push_back(MethodKey(method));
  summary["methods"] = method_names;

  // The summary of runs 0 .. count - 1 (and their times).
  const std::array<CriterionText, kCriteria> criteria = Criteria(spec);
  std::vector<RunResult> results(spec.runs.size());
  std::optional<size_t> reference, full_run;  // known once every run is done
  const auto runs_summary = [&](size_t count) {
    nlohmann::json runs_json = nlohmann::json::array();
    double reduced_seconds = 0.0;
    for (size_t r = 0; r < count; ++r) {
      const RunSpec& run = spec.runs[r];
      const RunResult& result = results[r];
      const time::TransientResult& tr = result.transient;
      nlohmann::json j;
      j["name"] = run.name;
      j["method"] = run.full ? "full" : (run.method ? MethodKey(*run.method) : "cms");
      j["g"] = run.g;
      j["coordinates"] = result.size;
      j["status"] = tr.status ? "ok" : "failed";
      j["message"] = tr.status.message;
      j["t_reached"] = tr.t_reached;
      j["samples"] = result.history.time.size();
      j["accepted_steps"] = tr.accepted_steps;
      j["rejected_steps"] = tr.rejected_steps;
      j["newton_iterations"] = tr.newton_iterations;
      j["newton_iterations_per_step"] =
          tr.accepted_steps > 0 ? double(tr.newton_iterations) / tr.accepted_steps : 0.0;
      j["residual_evaluations"] = tr.residual_evaluations;
      j["jacobian_evaluations"] = tr.jacobian_evaluations;
      j["factorizations"] = tr.factorizations;
      j["cpu_seconds"] = tr.cpu_seconds;
      j["wall_seconds"] = result.wall_seconds;
      j["reduce_seconds"] = result.reduce_seconds;
      for (int c = 0; c < kCriteria; ++c) {
        j[criteria[c].max_key] = MaxAbs(result.history.criteria[c]);
        if (!result.errors[c].empty())
          j["max_" + criteria[c].key + "_error"] = MaxAbs(result.errors[c]);
      }
      j["reference"] = reference && r == *reference;
      if (full_run && !run.full && results[*full_run].transient.cpu_seconds > 0.0)
        j["cpu_ratio_to_full"] = tr.cpu_seconds / results[*full_run].transient.cpu_seconds;
      if (spec.field_runs.count(run.name)) j["contact_field_steps"] = result.field_steps;
      j["energy"] = EnergySummary(tr.energy);
      j["energy"]["law_energy_dropped_at_opening"] = result.opening_energy;
      j["pair_openings"] = result.pair_openings;
      if (!result.warning.empty()) j["warning"] = result.warning;
      runs_json.push_back(std::move(j));
      if (run.full)
        times["full_run"] = result.wall_seconds;
      else
        reduced_seconds += result.wall_seconds + result.reduce_seconds;
    }
    times["reduced_runs"] = reduced_seconds;
    return runs_json;
  };
  times["fe_mesh"] = model.times.mesh;
  times["fe_assembly"] = model.times.assembly;
  times["fe_pairing"] = model.times.pairing;

  // The runs.
  std::vector<std::string> columns = {"run", "time"};
  for (const CriterionText& c : criteria) columns.push_back(c.column);
  CsvWriter csv(out_dir / "histories.csv", columns);
  const std::filesystem::path fields_dir = out_dir / "contact_fields";
  if (!spec.field_runs.empty()) EnsureDirectory(fields_dir);
  const time::IntegratorOptions& options = spec.integrator;
  const int total_steps =
      std::max(1, static_cast<int>(std::lround((options.t_end - options.t_start) / options.dt)));
  for (size_t r = 0; r < spec.runs.size(); ++r) {
    const RunSpec& run = spec.runs[r];
    RunResult& result = results[r];
    // The system and the rows of the measure and output DOFs on its state.
    std::optional<joint::JointedSystem> reduced_system;
    MatX v;  // the basis (reduced runs)
    if (!run.full) {
      const reduction::ReductionBasis& b = run.method ? extended.at(*run.method) : basis->cms.basis;
      const int columns = std::min(b.size(), basis->m() + run.g);
      v = b.vectors.leftCols(columns);
      const Clock::time_point t = Clock::now();
      reduced_system.emplace(joint::Reduce(full_system, v));
      result.reduce_seconds = Seconds(t);
    }
    joint::JointedSystem& system = run.full ? full_system : *reduced_system;
    result.size = system.size();
    const auto physical = [&](const VecX& q, int dof) {
      return run.full ? q(dof) : v.row(dof).dot(q);
    };
    std::vector<std::unique_ptr<PvdWriter>> pvds;
    if (spec.field_runs.count(run.name))
      for (size_t j = 0; j < spec.joints.size(); ++j)
        pvds.push_back(std::make_unique<PvdWriter>(
            fields_dir / (run.name + "_" + FileName(spec.joints[j].contact.contact) + ".pvd")));
    double next_field = options.t_start;

    Progress progress("joint dynamics: run " + run.name + " (" + std::to_string(result.size) +
                          " coordinates), steps of " + FormatValue(options.dt) +
                          " s to t = " + FormatValue(options.t_end) + " s",
                      total_steps);
    History& h = result.history;
    const auto observer = [&](const time::StepRecord& record) {
      const VecX& q = *record.q;
      const std::array<double, kCriteria> values =
          CriterionValues(physical(q, measure_dof), system.joints());
      h.time.push_back(record.t);
      std::vector<double> csv_row = {record.t};
      for (int c = 0; c < kCriteria; ++c) {
        h.criteria[c].push_back(values[c]);
        csv_row.push_back(values[c]);
      }
      VecX row(static_cast<Eigen::Index>(output_dofs.size()));
      for (size_t d = 0; d < output_dofs.size(); ++d) row(d) = physical(q, output_dofs[d]);
      h.dofs.push_back(std::move(row));
      csv.Row({run.name}, csv_row);
      if (!pvds.empty() && record.t >= next_field - 1e-12 * options.dt) {
        const VecX x = run.full ? q : VecX(v * q);
        const VecX mesh = dofs.Expand(x).head(dofs.num_mesh_dofs());
        for (size_t j = 0; j < pvds.size(); ++j) {
          const MatX positions = SlavePositions(
              model.mesh, model.contacts[spec.joints[j].contact.contact_index], &mesh);
          WriteContactFieldStep(*pvds[j], run.name, result.field_steps, record.t,
                                system.joints()[j], positions);
        }
        ++result.field_steps;
        while (next_field <= record.t + 1e-12 * options.dt)
          next_field += spec.field_interval > 0.0 ? spec.field_interval : options.dt;
      }
      progress.Update(
          std::clamp(static_cast<int>(std::lround((record.t - options.t_start) / options.dt)), 0,
                     total_steps));
    };
    std::cerr << "joint dynamics: run " << run.name << " (" << result.size << " coordinates, "
              << (run.full ? "sparse" : "dense") << ") from t = " << options.t_start << " s\n";
    const Clock::time_point t = Clock::now();
    const VecX zero = VecX::Zero(system.size());
    result.transient = time::Integrate(system, options, zero, zero, observer);
    result.wall_seconds = Seconds(t);
    for (const joint::JointOperator& joint : system.joints()) {
      result.pair_openings += joint.openings();
      result.opening_energy += joint.opening_energy();
    }
    result.warning = OpeningWarning(result.opening_energy, result.transient.energy.law_dissipation);
    if (!result.warning.empty())
      std::cerr << "joint dynamics: run " << run.name << ": warning: " << result.warning << "\n";
    if (!result.transient.status)
      failures.push_back("run " + run.name + ": " + result.transient.status.message +
                         LinearPenaltyHint(spec, result.transient));
    std::cerr << "joint dynamics: run " << run.name << " "
              << (result.transient.status ? "reached" : "failed at")
              << " t = " << result.transient.t_reached << " s after "
              << result.transient.accepted_steps << " steps, " << result.transient.cpu_seconds
              << " s CPU\n";
    WriteHistories(out_dir / "histories.h5", spec.runs, results, spec, criteria);
    // A provisional summary: the runs so far (a long study that is stopped keeps them).
    summary["status"] = "running";
    summary["runs"] = runs_summary(r + 1);
    summary["times_s"] = times;
    WriteJson(out_dir / "summary.json", summary);
  }

  // The reference and the errors.
  for (size_t r = 0; r < spec.runs.size(); ++r)
    if (spec.runs[r].full && results[r].transient.status) reference = r;
  if (!reference)
    for (size_t r = 0; r < spec.runs.size(); ++r)
      if (!spec.runs[r].full && results[r].transient.status &&
          (!reference || spec.runs[r].g > spec.runs[*reference].g))
        reference = r;
  summary["reference"] = reference ? spec.runs[*reference].name : std::string("none");
  for (size_t r = 0; r < spec.runs.size(); ++r)
    if (spec.runs[r].full && results[r].transient.status) full_run = r;

  std::vector<std::string> error_columns = {"run", "method", "g", "time"};
  for (const CriterionText& c : criteria) error_columns.push_back(c.key + "_error");
  CsvWriter errors_csv(out_dir / "errors.csv", error_columns);
  if (reference) {
    const History& ref = results[*reference].history;
    std::array<double, kCriteria> scales;
    for (int c = 0; c < kCriteria; ++c) {
      scales[c] = MaxAbs(ref.criteria[c]);
      if (scales[c] == 0.0) scales[c] = 1.0;
    }
    for (size_t r = 0; r < spec.runs.size(); ++r) {
      if (r == *reference) continue;
      RunResult& result = results[r];
      const History& h = result.history;
      const RunSpec& run = spec.runs[r];
      for (size_t i = 0; i < h.time.size(); ++i) {
        std::vector<double> row = {double(run.g), h.time[i]};
        for (int c = 0; c < kCriteria; ++c) {
          const double e =
              std::abs(h.criteria[c][i] - Interpolate(ref.time, ref.criteria[c], h.time[i])) /
              scales[c];
          result.errors[c].push_back(e);
          row.push_back(e);
        }
        errors_csv.Row({run.name, run.method ? MethodKey(*run.method) : run.name}, row);
      }
    }
  }

  // Plots: each criterion over time for all runs, and its error per method.
  for (int c = 0; c < kCriteria; ++c) {
    PlotSpec plot{criteria[c].title, "time t [s]", criteria[c].label, false, false, {}};
    for (size_t r = 0; r < spec.runs.size(); ++r) {
      const History& h = results[r].history;
      if (h.time.size() >= 2) plot.series.push_back({spec.runs[r].name, h.time, h.criteria[c]});
    }
    if (!plot.series.empty()) WriteSvgPlot(plot, out_dir / (criteria[c].key + ".svg"));
    if (!reference) continue;
    for (reduction::JointModeMethod method : spec.methods) {
      PlotSpec error{std::string(reduction::Name(method)) + ": error of " + criteria[c].symbol +
                         " against " + spec.runs[*reference].name,
                     "time t [s]",
                     "e(t) [-]",
                     false,
                     true,
                     {}};
      for (size_t r = 0; r < spec.runs.size(); ++r) {
        const std::vector<double>& e = results[r].errors[c];
        if (spec.runs[r].method != method || e.size() < 2 ||
            std::none_of(e.begin(), e.end(), [](double x) { return x > 0.0; }))
          continue;
        error.series.push_back(
            {"g = " + std::to_string(spec.runs[r].g), results[r].history.time, e});
      }
      if (!error.series.empty())
        WriteSvgPlot(error,
                     out_dir / ("error_" + MethodKey(method) + "_" + criteria[c].key + ".svg"));
    }
  }

  summary["runs"] = runs_summary(spec.runs.size());
  return finish("");
}

}  // namespace jointdyn::io
