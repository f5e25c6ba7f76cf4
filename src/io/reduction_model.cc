#include "io/reduction_model.h"

#include <algorithm>
#include <iostream>
#include <tuple>

#include "core/clock.h"
#include "core/progress.h"
#include "io/contact_field.h"
#include "io/hdf5_file.h"
#include "io/modal_model.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "io/vtu.h"
#include "solvers/eigen_solver.h"

namespace jointdyn::io {
namespace {

// The shift of the full model's eigen solve [Hz]: below the rigid-body modes of a free
// structure (as the `modes.shift` default of analysis: modal).
constexpr double kFullShiftHz = -1.0;

std::string JoinLines(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text.append(text.empty() ? "" : "\n").append(item);
  return text;
}

std::vector<double> ToVector(const VecX& v) { return {v.data(), v.data() + v.size()}; }

// The lowest `count` elastic eigenfrequencies of the full model [Hz]: count + r eigenpairs
// above kFullShiftHz less the r lowest, r the rigid-body modes the reduced basis held (the
// boundary DOFs of a free structure span its rigid motions).
struct FullComparison {
  solvers::EigenResult eigen;
  std::vector<double> frequencies;  // elastic [Hz]
  double seconds = 0.0;
};

FullComparison CompareFull(const FeModel& model, int count, int rigid_modes) {
  FullComparison full;
  const Clock::time_point start = Clock::now();
  Progress progress("reduction: full model eigenpairs", 1);
  solvers::EigenOptions options;
  options.count = count + rigid_modes;
  options.shift = ShiftEigenvalue(kFullShiftHz);
  full.eigen =
      solvers::SolveGeneralizedEigen(model.ReducedStiffness(), model.ReducedMass(), options);
  for (Eigen::Index k = rigid_modes; k < full.eigen.values.size(); ++k)
    full.frequencies.push_back(SignedFrequency(full.eigen.values(k)));
  full.seconds = Seconds(start);
  progress.Update(1);
  return full;
}

// The contact pairs as matrices, one group per contact surface pair ("contact/1", ..):
// slave node and its position, gap, area, frame [n t1 t2] (pairs x 9), master point, master
// nodes and their shape-function weights (pairs x the most master nodes of a pair, padded with -1
// and 0).
void WriteContactPairs(Hdf5File& file, const FeModel& model) {
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    const auto& pairs = model.contacts[c].pairs;
    const std::string group = "contact/" + std::to_string(c + 1);
    const int n = static_cast<int>(pairs.size());
    size_t width = 1;
    for (const fe::ContactPair& pair : pairs) width = std::max(width, pair.master.size());
    VecX slave(n), gap(n), area(n);
    MatX frame(n, 9), point(n, 3), slave_point(n, 3),
        master = MatX::Constant(n, static_cast<int>(width), -1.0),
        weights = MatX::Zero(n, static_cast<int>(width));
    for (int p = 0; p < n; ++p) {
      const fe::ContactPair& pair = pairs[p];
      slave(p) = pair.slave;
      gap(p) = pair.gap;
      area(p) = pair.area;
      frame.row(p) << pair.n.transpose(), pair.t1.transpose(), pair.t2.transpose();
      point.row(p) = pair.point.transpose();
      slave_point.row(p) = model.mesh.nodes.row(pair.slave);
      for (size_t j = 0; j < pair.master.size(); ++j) {
        master(p, static_cast<int>(j)) = pair.master[j];
        weights(p, static_cast<int>(j)) = pair.weights[j];
      }
    }
    file.WriteVector(group + "/slave_node", slave);
    file.WriteVector(group + "/gap", gap);
    file.WriteVector(group + "/area", area);
    file.WriteMatrix(group + "/frame", frame);
    file.WriteMatrix(group + "/slave_point", slave_point);
    file.WriteMatrix(group + "/master_point", point);
    file.WriteMatrix(group + "/master_nodes", master);
    file.WriteMatrix(group + "/master_weights", weights);
    file.WriteAttribute(group, "name", model.contact_names[c]);
    file.WriteAttribute(group, "slave", model.contacts[c].slave);
    file.WriteAttribute(group, "master", model.contacts[c].master);
  }
}

// The stages after Craig-Bampton with a joint (joint_mode_stage.h), for the writers.
struct JointRun {
  JointContact contact;
  std::optional<PreloadSolution> preload;
  JointModeStageResult stage;
  // The reduced preload solutions compared with the full one, over the pairs `compared`
  // (within compare_radius of the first load's reference node; radii of all pairs).
  struct Case {
    std::string name, label;
    int size = 0;  // basis columns
    ReducedStatic solution;
    double error = 0.0;  // RelativePressureError over `compared`
  };
  std::vector<Case> cases;
  VecX radii;
  std::vector<int> compared;
  double compare_seconds = 0.0;  // the reduced preload solutions [s]
};

std::vector<std::string> ColumnStrings(const reduction::ReductionBasis& basis, bool kinds) {
  std::vector<std::string> items;
  for (const reduction::BasisColumn& column : basis.columns)
    items.push_back(kinds ? std::string(reduction::Name(column.kind)) : column.name);
  return items;
}

void WriteBasis(Hdf5File& file, const std::string& name, const reduction::ReductionBasis& basis) {
  file.WriteMatrix(name, basis.vectors);
  file.WriteAttribute(name, "names", JoinLines(ColumnStrings(basis, false)));
  file.WriteAttribute(name, "kinds", JoinLines(ColumnStrings(basis, true)));
  file.WriteAttribute(name, "describe", reduction::Describe(basis));
}

// u = T q as triplets (rows: all DOFs, the mesh DOFs node * dim + component first, then
// the reference nodes' 6 each; columns: the free DOFs, the rows of V).
void WriteExpansion(Hdf5File& file, const fe::DofMap& dofs) {
  const solvers::SparseMatrix& t = dofs.transform();
  MatX triplets(t.nonZeros(), 3);
  Eigen::Index k = 0;
  for (int c = 0; c < t.outerSize(); ++c)
    for (solvers::SparseMatrix::InnerIterator it(t, c); it; ++it, ++k)
      triplets.row(k) << double(it.row()), double(it.col()), it.value();
  file.WriteMatrix("expansion/T", triplets);
  file.WriteAttribute("expansion/T", "rows", double(t.rows()));
  file.WriteAttribute("expansion/T", "cols", double(t.cols()));
  file.WriteAttribute("expansion/T", "mesh_dofs", double(dofs.num_mesh_dofs()));
}

void WriteJoint(Hdf5File& file, const ReductionModel& spec, const JointRun& joint,
                const reduction::ReductionBasis& basis) {
  const JointModeStageResult& stage = joint.stage;
  if (spec.orthogonalize) {  // the final basis is the extended one's free-free modes
    WriteBasis(file, "basis/extended", stage.extended);
    file.WriteMatrix("basis/transform", stage.final_orthogonalization.transform);
  }
  const JointModeSpec& js = *spec.joint_modes;
  const std::string group = "contact/" + std::to_string(js.contact_index + 1);
  file.WriteMatrix("joint/RV", joint.contact.relative.Compose(basis.vectors).dense());
  file.WriteAttribute("joint/RV", "contact", js.contact);
  file.WriteAttribute("joint/RV", "pairs", group);
  file.WriteAttribute("joint/RV", "normal_law", std::string(js.normal_law->type()));
  if (!js.none()) {
    file.WriteVector("joint_modes/povs", stage.joint_modes.values);
    file.WriteVector("joint_modes/ratio", stage.joint_modes.ratio);
    file.WriteAttribute("joint_modes/ratio", "method", reduction::Name(js.modes.method));
    file.WriteAttribute("joint_modes/ratio", "g", stage.g);
    file.WriteAttribute("joint_modes/ratio", "k", stage.k);
    file.WriteAttribute("joint_modes/ratio", "m", stage.m);
  }
  if (!joint.preload) return;
  file.WriteVector("preload/x", joint.preload->full.q);
  file.WriteVector("preload/load", joint.preload->load);
  file.WriteVector("preload/mode", joint.preload->mode);
  file.WriteVector("preload/radius", joint.radii);
  MatX pressure(joint.radii.size(), 1 + joint.cases.size());
  std::vector<std::string> columns = {"full"};
  for (Eigen::Index p = 0; p < pressure.rows(); ++p)
    pressure(p, 0) = joint.preload->pairs[p].pressure;
  for (size_t c = 0; c < joint.cases.size(); ++c) {
    columns.push_back(joint.cases[c].name);
    for (Eigen::Index p = 0; p < pressure.rows(); ++p)
      pressure(p, Eigen::Index(c + 1)) = joint.cases[c].solution.pairs[p].pressure;
  }
  file.WriteMatrix("preload/pressure", pressure);
  file.WriteAttribute("preload/pressure", "columns", JoinLines(columns));
}

void WriteBasisFile(const std::filesystem::path& path, const ReductionModel& spec,
                    const FeModel& model, const reduction::CraigBamptonResult& cb,
                    const std::vector<reduction::BoundaryDof>& boundary,
                    const reduction::ReductionBasis& basis, const MatX& stiffness, const MatX& mass,
                    const std::vector<double>& frequencies, int rigid_modes,
                    const FullComparison* full, const JointRun* joint) {
  Hdf5File file(path.string(), Hdf5File::Mode::kCreate);
  file.WriteAttribute("/", "analysis", "reduction");
  file.WriteAttribute("/", "dofs", model.dofs->num_mesh_dofs());
  file.WriteAttribute("/", "free_dofs", model.dofs->num_free_dofs());
  file.WriteAttribute("/", "boundary_dofs", cb.num_boundary);
  file.WriteAttribute("/", "vibration_modes", cb.num_fixed_interface_modes);
  file.WriteAttribute("/", "rigid_modes_removed", rigid_modes);
  WriteBasis(file, "basis/V", basis);
  VecX boundary_rows(static_cast<int>(boundary.size()));
  std::vector<std::string> boundary_names;
  for (size_t k = 0; k < boundary.size(); ++k) {
    boundary_rows(static_cast<int>(k)) = boundary[k].dof;
    boundary_names.push_back(boundary[k].name);
  }
  file.WriteVector("basis/boundary_rows", boundary_rows);
  file.WriteAttribute("basis/boundary_rows", "names", JoinLines(boundary_names));
  file.WriteMatrix("reduced/K", stiffness);
  file.WriteMatrix("reduced/M", mass);
  file.WriteVector("frequencies_hz",
                   Eigen::Map<const VecX>(frequencies.data(), Eigen::Index(frequencies.size())));
  file.WriteVector("fixed_interface_frequencies_hz", cb.fixed_interface_frequencies);
  if (full)
    file.WriteVector(
        "full_frequencies_hz",
        Eigen::Map<const VecX>(full->frequencies.data(), Eigen::Index(full->frequencies.size())));
  WriteContactPairs(file, model);
  WriteExpansion(file, *model.dofs);
  if (joint) WriteJoint(file, spec, *joint, basis);
}

void WriteFrequencies(const std::filesystem::path& out_dir, const std::string& title,
                      const std::vector<double>& reduced, const FullComparison* full) {
  CsvWriter csv(out_dir / "frequencies.csv", {"mode", "frequency_hz"});
  std::vector<double> index;
  for (size_t k = 0; k < reduced.size(); ++k) {
    csv.Row({double(k + 1), reduced[k]});
    index.push_back(double(k + 1));
  }
  PlotSpec plot{title.empty() ? "Elastic eigenfrequencies, reduced and full" : title,
                "mode",
                "frequency f [Hz]",
                false,
                true,
                {{"reduced model", index, reduced, true, true}}};
  if (full) {
    CsvWriter compare(out_dir / "frequencies_vs_full.csv",
                      {"mode", "reduced_hz", "full_hz", "relative_error"});
    const size_t n = std::min(reduced.size(), full->frequencies.size());
    for (size_t k = 0; k < n; ++k)
      compare.Row({double(k + 1), reduced[k], full->frequencies[k],
                   reduced[k] / full->frequencies[k] - 1.0});
    std::vector<double> full_index;
    for (size_t k = 0; k < full->frequencies.size(); ++k) full_index.push_back(double(k + 1));
    plot.series.push_back({"full model", full_index, full->frequencies, true, false});
  }
  WriteSvgPlot(plot, out_dir / "frequencies.svg");
}

JointRun RunJoint(const ReductionModel& spec, const FeModel& model,
                  const solvers::SparseMatrix& stiffness, const solvers::SparseMatrix& mass,
                  const reduction::CraigBamptonResult& cb,
                  const reduction::FreeFreeResult& free_free,
                  const reduction::ReductionBasis& cms) {
  const JointModeSpec& js = *spec.joint_modes;
  JointRun joint;
  joint.contact = BuildJointContact(model, js);
  double preload_seconds = 0.0;
  if (spec.preload) {
    if (free_free.rigid_modes > 0)
      spec.reduction_node->FailValue(
          "preload", "(given)",
          "needs a held model for the preload's static solution, but the Craig-Bampton basis "
          "holds " +
              std::to_string(free_free.rigid_modes) +
              " rigid-body modes: support the structure (e.g. the clamp)");
    Progress progress("reduction: preload, full nonlinear static solution", 1);
    const Clock::time_point start = Clock::now();
    joint.preload = SolvePreload(model, stiffness, joint.contact, *spec.preload);
    preload_seconds = Seconds(start);
    progress.Update(1);
    if (!joint.preload->full.status) return joint;
  }
  {
    Progress progress("reduction: joint modes", 1);
    joint.stage = RunJointModeStage(
        stiffness, mass, cb, cms, joint.contact, js, joint.preload ? &joint.preload->mode : nullptr,
        spec.preload ? spec.preload->tvds : PreloadTvds::kAll, spec.orthogonalize, spec.free_free);
    progress.Update(1);
  }
  joint.stage.times.preload = preload_seconds;
  if (!joint.stage.status || !joint.preload) return joint;

  // The preload state of reduced models (seed 003 fig. 4.12) against the full one.
  const Clock::time_point start = Clock::now();
  const PreloadSpec& preload = *spec.preload;
  joint.radii = PairRadii(model, js.contact_index, preload.loads.front().node);
  for (Eigen::Index p = 0; p < joint.radii.size(); ++p)
    if (preload.compare_radius == 0.0 || joint.radii(p) <= preload.compare_radius)
      joint.compared.push_back(static_cast<int>(p));
  const std::vector<std::tuple<std::string, std::string, const reduction::ReductionBasis*>> cases =
      {{"cms", "CMS only", &cms},
       {"cms_plm", "CMS + preload mode", &joint.stage.tvd_basis},
       {"final", "final basis", &joint.stage.basis}};
  Progress progress("reduction: reduced preload solutions", int(cases.size()));
  for (const auto& [name, label, basis] : cases) {
    JointRun::Case c{name, label, basis->size(),
                     SolveReducedStatic(basis->vectors, stiffness, joint.contact,
                                        joint.preload->load, preload.solver),
                     0.0};
    if (!c.solution.result.status) {
      joint.stage.status = Status::Failure("reduced preload solution with the " + label + ": " +
                                           c.solution.result.status.message);
      return joint;
    }
    c.error = RelativePressureError(c.solution.pairs, joint.preload->pairs, joint.compared);
    joint.cases.push_back(std::move(c));
    progress.Update(int(joint.cases.size()));
  }
  joint.compare_seconds = Seconds(start);
  std::cerr << "reduction: preload pressure error over " << joint.compared.size()
            << " pairs around " << preload.loads.front().node << ":";
  for (const JointRun::Case& c : joint.cases) std::cerr << " " << c.label << " " << c.error << ";";
  std::cerr << "\n";
  return joint;
}

// The contact field of state x (free DOFs) as a VTU point cloud at the slave nodes.
void WriteContactField(const std::filesystem::path& path, const FeModel& model,
                       const JointRun& joint, int contact_index, const VecX& x) {
  joint::JointOperator state = joint.contact.Operator(joint.contact.relative);
  const Status status = state.Evaluate(x);
  if (!status)  // the same state was evaluated by the static solution
    throw InternalError("contact field of a static solution: " + status.message);
  WriteVtu(path,
           ContactFieldGrid(state, SlavePositions(model.mesh, model.contacts[contact_index])));
}

// joint_modes.csv/.svg (POVs and w(g), g marked), preload_pressure.csv/.svg (the compared
// pairs' pressure against the radius, full and reduced) and the preload states' contact
// fields preload_<full | case>.vtu.
void WriteJointResults(const std::filesystem::path& out_dir, const ReductionModel& spec,
                       const FeModel& model, const JointRun& joint) {
  const JointModeStageResult& stage = joint.stage;
  if (!spec.joint_modes->none()) {
    CsvWriter csv(out_dir / "joint_modes.csv", {"index", "pov", "ratio"});
    std::vector<double> index, ratio;
    for (Eigen::Index k = 0; k < stage.joint_modes.ratio.size(); ++k) {
      csv.Row({double(k + 1), stage.joint_modes.values(k), stage.joint_modes.ratio(k)});
      index.push_back(double(k + 1));
      ratio.push_back(stage.joint_modes.ratio(k));
    }
    PlotSpec plot{std::string("POV ratio w(g), ") + reduction::Name(spec.joint_modes->modes.method),
                  "joint modes g",
                  "w(g) [-]",
                  true,
                  false,
                  {{"w(g)", index, ratio, false, true}}};
    if (stage.g > 0)
      plot.series.push_back({"g = " + std::to_string(stage.g) + " chosen",
                             {double(stage.g)},
                             {stage.ratio},
                             true,
                             false});
    WriteSvgPlot(plot, out_dir / "joint_modes.svg");
  }
  if (!joint.preload) return;
  const int contact_index = spec.joint_modes->contact_index;
  WriteContactField(out_dir / "preload_full.vtu", model, joint, contact_index,
                    joint.preload->full.q);
  for (const JointRun::Case& c : joint.cases)
    WriteContactField(out_dir / ("preload_" + c.name + ".vtu"), model, joint, contact_index,
                      c.solution.x);
  const auto& pairs = model.contacts[contact_index].pairs;
  std::vector<std::string> columns = {"pair", "slave_node", "radius_m",        "x_m",
                                      "y_m",  "z_m",        "pressure_full_pa"};
  for (const JointRun::Case& c : joint.cases) columns.push_back("pressure_" + c.name + "_pa");
  CsvWriter csv(out_dir / "preload_pressure.csv", columns);
  PlotSpec plot{
      "Contact pressure around " + spec.preload->loads.front().node + " under the preload",
      "distance from the axis r [m]",
      "contact pressure p [Pa]",
      false,
      false,
      {{"full model", {}, {}, true, false}}};
  for (const JointRun::Case& c : joint.cases)
    plot.series.push_back(
        {c.label + " (" + std::to_string(c.size) + " vectors)", {}, {}, true, false});
  for (const int p : joint.compared) {
    const Vec3 x = model.mesh.nodes.row(pairs[p].slave);
    std::vector<double> row = {
        double(p), double(pairs[p].slave),          joint.radii(p), x(0), x(1),
        x(2),      joint.preload->pairs[p].pressure};
    plot.series[0].x.push_back(joint.radii(p));
    plot.series[0].y.push_back(joint.preload->pairs[p].pressure);
    for (size_t c = 0; c < joint.cases.size(); ++c) {
      const double pressure = joint.cases[c].solution.pairs[p].pressure;
      row.push_back(pressure);
      plot.series[c + 1].x.push_back(joint.radii(p));
      plot.series[c + 1].y.push_back(pressure);
    }
    csv.Row(row);
  }
  WriteSvgPlot(plot, out_dir / "preload_pressure.svg");
}

nlohmann::json JointSummary(const ReductionModel& spec, const JointRun& joint) {
  const JointModeSpec& js = *spec.joint_modes;
  const JointModeStageResult& stage = joint.stage;
  nlohmann::json summary;
  summary["joint_modes"] = {
      {"contact", js.contact},
      {"normal_law", std::string(js.normal_law->type())},
      {"method", js.none() ? "none" : reduction::Name(js.modes.method)},
      {"pairs", stage.pairs},
      {"m", stage.m},
      {"k", stage.k},
      {"g", stage.g},
      {"ratio", stage.ratio},
      {"target_ratio", js.from_ratio ? js.modes.target_ratio : 0.0},
      {"rank", stage.joint_modes.rank},
      {"dropped", stage.dropped},
      {"zero_deflections", stage.zero_deflections},
      {"solves", stage.solves},
      {"solves_per_second", stage.solves_per_second},
      {"deflection", js.tvd.deflection},
      {"block_size", js.tvd.block_size},
      {"tvd_basis", reduction::Describe(stage.tvd_basis)},
      {"extended_basis", reduction::Describe(stage.extended)},
      {"final_rigid_modes_removed", stage.final_orthogonalization.rigid_modes}};
  if (!joint.preload) return summary;
  const PreloadSolution& preload = *joint.preload;
  const joint::StaticResult& full = preload.full;
  int in_contact = 0;
  double normal_force = 0.0, max_pressure = 0.0;
  for (size_t p = 0; p < preload.pairs.size(); ++p) {
    in_contact += preload.pairs[p].pressure > 0.0;
    normal_force += joint.contact.mesh.area(Eigen::Index(p)) * preload.pairs[p].pressure;
    max_pressure = std::max(max_pressure, preload.pairs[p].pressure);
  }
  nlohmann::json cases = nlohmann::json::array();
  for (const JointRun::Case& c : joint.cases)
    cases.push_back({{"name", c.name},
                     {"label", c.label},
                     {"vectors", c.size},
                     {"pressure_error", c.error},
                     {"iterations", c.solution.result.iterations},
                     {"seconds", c.solution.result.seconds}});
  summary["preload"] = {
      {"loads", int(spec.preload->loads.size())},
      {"tvds", spec.preload->tvds == PreloadTvds::kAll ? "all" : "preload_related"},
      {"full",
       {{"iterations", full.iterations},
        {"load_steps", full.load_steps},
        {"cutbacks", full.cutbacks},
        {"factorizations", full.factorizations},
        {"reused_factorizations", full.reused_factorizations},
        {"residual_norm", full.residual_norm},
        {"seconds", full.seconds},
        {"pairs_in_contact", in_contact},
        {"normal_force_n", normal_force},
        {"max_pressure_pa", max_pressure}}},
      {"compare_radius", spec.preload->compare_radius},
      {"compared_pairs", int(joint.compared.size())},
      {"reduced", cases}};
  return summary;
}

}  // namespace

ReductionModel ReadReductionModel(const ModelNode& root) {
  ReductionModel model;
  model.title = root.String("title", "");
  model.fe = ReadFeModelSpec(root);
  const ModelNode node = root.Map("reduction");
  model.reduction_node = node;
  model.boundary = node.Strings("boundary");  // non-empty
  model.craig_bampton.fixed_interface_modes =
      node.Int("vibration_modes", model.craig_bampton.fixed_interface_modes, NonNegative());
  model.orthogonalize = node.Bool("orthogonalize", model.orthogonalize);
  model.free_free.rigid_ratio =
      node.Double("rigid_ratio", model.free_free.rigid_ratio,
                  Rule{[](double x) { return x > 0.0 && x < 1.0; }, "must be in (0, 1)"});
  model.compare_full = node.Int("compare_full", model.compare_full, NonNegative());
  if (const auto joint_modes = node.OptionalMap("joint_modes"))
    model.joint_modes = ReadJointModeSpec(*joint_modes, model.fe);
  if (const auto preload = node.OptionalMap("preload")) {
    if (!model.joint_modes)
      node.FailValue("preload", "(given)",
                     "needs joint_modes (its contact and normal_law; modes: 0 for none)");
    model.preload = ReadPreloadSpec(*preload, model.fe);
  }
  node.Finish();
  root.Finish();
  return model;
}

RunOutcome RunReductionModel(const ModelNode& root, const std::filesystem::path& out_dir) {
  const Clock::time_point start = Clock::now();
  const ReductionModel spec = ReadReductionModel(root);
  const ModelNode& node = *spec.reduction_node;
  const FeModel model = BuildFeModel(spec.fe);
  const fe::DofMap& dofs = *model.dofs;
  const std::vector<reduction::BoundaryDof> boundary =
      ReadBoundaryDofs(node, dofs, spec.boundary, spec.craig_bampton.fixed_interface_modes);
  if (spec.compare_full > 0 && spec.compare_full + 6 >= dofs.num_free_dofs())
    node.FailValue(
        "compare_full", std::to_string(spec.compare_full),
        "must be < the free DOFs less 6 (" + std::to_string(dofs.num_free_dofs() - 6) + ")");
  EnsureDirectory(out_dir);

  nlohmann::json summary = FeRunSummary("reduction", root, spec.title, spec.fe, model);
  std::vector<std::string> boundary_names;
  for (const auto& dof : boundary) boundary_names.push_back(dof.name);

  const solvers::SparseMatrix stiffness = model.ReducedStiffness();
  const solvers::SparseMatrix mass = model.ReducedMass();
  reduction::CraigBamptonResult cb;
  {
    Progress progress("reduction: Craig-Bampton", 1);
    cb = reduction::CraigBampton(stiffness, mass, boundary, spec.craig_bampton);
    progress.Update(1);
  }
  std::cerr << reduction::Summary(cb);
  // The reduced eigenproblem: the free-free modes (the final basis when orthogonalizing) and
  // the reduced model's elastic frequencies either way.
  reduction::FreeFreeResult free_free;
  if (cb.status)
    free_free = reduction::OrthogonalizeToFreeFree(cb.basis, cb.stiffness, cb.mass, spec.free_free);
  if (free_free.status.ok && cb.status.ok) std::cerr << reduction::Summary(free_free);
  Status status = !cb.status ? cb.status : free_free.status;
  const reduction::ReductionBasis& cms = spec.orthogonalize ? free_free.basis : cb.basis;
  std::optional<JointRun> joint;
  if (status && spec.joint_modes) {
    joint = RunJoint(spec, model, stiffness, mass, cb, free_free, cms);
    status = joint->preload && !joint->preload->full.status ? joint->preload->full.status
                                                            : joint->stage.status;
  }

  const reduction::ReductionBasis& basis = joint ? joint->stage.basis : cms;
  std::vector<double> frequencies;
  std::optional<FullComparison> full;
  if (status) {
    frequencies = ToVector(joint ? joint->stage.frequencies : free_free.frequencies);
    MatX reduced_stiffness = cb.stiffness, reduced_mass = cb.mass;
    if (joint) {
      reduced_stiffness = joint->stage.stiffness;
      reduced_mass = joint->stage.mass;
    } else if (spec.orthogonalize) {
      const MatX& y = free_free.transform;
      reduced_stiffness = y.transpose() * cb.stiffness * y;
      reduced_mass = y.transpose() * cb.mass * y;
      reduced_stiffness = 0.5 * (reduced_stiffness + reduced_stiffness.transpose()).eval();
      reduced_mass = 0.5 * (reduced_mass + reduced_mass.transpose()).eval();
    }
    std::cerr << "reduction: final basis: " << reduction::Describe(basis) << "\n";
    if (spec.compare_full > 0) full = CompareFull(model, spec.compare_full, free_free.rigid_modes);
    WriteBasisFile(out_dir / "basis.h5", spec, model, cb, boundary, basis, reduced_stiffness,
                   reduced_mass, frequencies, spec.orthogonalize ? free_free.rigid_modes : 0,
                   full ? &*full : nullptr, joint ? &*joint : nullptr);
    WriteFrequencies(out_dir, spec.title, frequencies, full ? &*full : nullptr);
    WriteVtu(out_dir / "mesh.vtu", ModeGrid(model, basis.vectors, ColumnStrings(basis, false)));
    if (joint) WriteJointResults(out_dir, spec, model, *joint);
  }
  const bool ok = status.ok && (!full || full->eigen.status.ok);

  summary["status"] = ok ? "ok" : "failed";
  summary["message"] = !status ? status.message : full ? full->eigen.status.message : "";
  summary["reduction"] = {{"boundary", spec.boundary},
                          {"boundary_dofs", cb.num_boundary},
                          {"boundary_dof_names", boundary_names},
                          {"interior_dofs", cb.num_interior},
                          {"vibration_modes", cb.num_fixed_interface_modes},
                          {"orthogonalize", spec.orthogonalize},
                          {"rigid_ratio", spec.free_free.rigid_ratio},
                          {"craig_bampton_size", cb.basis.size()},
                          {"rigid_modes_removed", spec.orthogonalize ? free_free.rigid_modes : 0},
                          {"rigid_modes_in_basis", spec.orthogonalize ? 0 : free_free.rigid_modes},
                          {"max_rigid_eigenvalue_ratio", free_free.rigid_ratio},
                          {"m", basis.size()},
                          {"craig_bampton_basis", reduction::Describe(cb.basis)},
                          {"basis", reduction::Describe(basis)},
                          {"eigen_operator_applications", cb.eigen_operator_applications},
                          {"factor_nonzeros", cb.factor_nonzeros}};
  summary["frequencies_hz"] = frequencies;
  summary["fixed_interface_frequencies_hz"] = ToVector(cb.fixed_interface_frequencies);
  if (full) {
    std::vector<double> errors;
    for (size_t k = 0; k < std::min(frequencies.size(), full->frequencies.size()); ++k)
      errors.push_back(frequencies[k] / full->frequencies[k] - 1.0);
    summary["full"] = {{"count", spec.compare_full},
                       {"shift_hz", kFullShiftHz},
                       {"frequencies_hz", full->frequencies},
                       {"relative_errors", errors},
                       {"operator_applications", full->eigen.operator_applications}};
  }
  if (joint) summary.update(JointSummary(spec, *joint));
  const JointModeTimes none;
  const JointModeTimes& jt = joint ? joint->stage.times : none;
  summary["times_s"] = {{"mesh", model.times.mesh},
                        {"assembly", model.times.assembly},
                        {"constraints", model.times.constraints},
                        {"pairing", model.times.pairing},
                        {"partition", cb.partition_seconds},
                        {"factor", cb.factor_seconds},
                        {"eigen", cb.eigen_seconds},
                        {"constraint_modes", cb.constraint_seconds},
                        {"projection", cb.projection_seconds},
                        {"orthogonalization", free_free.seconds},
                        {"preload", jt.preload},
                        {"tvd_forces", jt.tvd_forces},
                        {"tvd_solves", jt.tvd_solves},
                        {"pod", jt.pod},
                        {"joint_mode_solves", jt.joint_mode_solves},
                        {"extend", jt.extend},
                        {"final_orthogonalization", jt.orthogonalization},
                        {"reduced_preload", joint ? joint->compare_seconds : 0.0},
                        {"full_eigen", full ? full->seconds : 0.0},
                        {"total", Seconds(start)}};
  RunOutcome outcome{ok, summary["message"].get<std::string>(), out_dir / "summary.json"};
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
