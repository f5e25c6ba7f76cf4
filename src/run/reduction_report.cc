#include "run/reduction_report.h"

#include <algorithm>
#include <utility>

#include "core/error.h"
#include "io/hdf5_file.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "io/vtu.h"
#include "run/contact_field.h"
#include "run/fe_report.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

std::vector<double> ToVector(const VecX& v) { return {v.data(), v.data() + v.size()}; }

// The contact pairs as matrices, one group per contact surface pair ("contact/1", ..):
// slave node and its position, gap, area, frame [n t1 t2] (pairs x 9), master point, master
// nodes and their shape-function weights (pairs x the most master nodes of a pair, padded with -1
// and 0).
void WriteContactPairs(io::Hdf5File& file, const fe::FeModel& model) {
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    const auto& pairs = model.contacts[c].pairs;
    const std::string group = "contact/" + std::to_string(c + 1);
    const int n = static_cast<int>(pairs.size());
    size_t width = 1;
    for (const fe::ContactPair& pair : pairs) width = std::max(width, pair.master.size());
    VecX gap(n), area(n);
    MatX frame(n, 9), point(n, 3), slave_point(n, 3), weights = MatX::Zero(n, int(width));
    io::Hdf5File::Indices slave(n, 1), master = io::Hdf5File::Indices::Constant(n, int(width), -1);
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
    file.WriteIndices(group + "/slave_node", slave);
    file.WriteVector(group + "/gap", gap, "m");
    file.WriteVector(group + "/area", area, "m^2");
    file.WriteMatrix(group + "/frame", frame, "-");
    file.WriteMatrix(group + "/slave_point", slave_point, "m");
    file.WriteMatrix(group + "/master_point", point, "m");
    file.WriteIndices(group + "/master_nodes", master);
    file.WriteMatrix(group + "/master_weights", weights, "-");
    file.WriteAttribute(group, "name", model.contact_names[c]);
    file.WriteAttribute(group, "slave", model.contacts[c].slave);
    file.WriteAttribute(group, "master", model.contacts[c].master);
  }
}

std::vector<std::string> ColumnStrings(const reduction::ReductionBasis& basis, bool kinds) {
  std::vector<std::string> items;
  for (const reduction::BasisColumn& column : basis.columns)
    items.push_back(kinds ? std::string(reduction::Name(column.kind)) : column.name);
  return items;
}

void WriteBasis(io::Hdf5File& file, const std::string& name,
                const reduction::ReductionBasis& basis) {
  // x = V q: metres (radians on reference-node rotations) per unit of a coordinate.
  file.WriteMatrix(name, basis.vectors, "m (rad) per coordinate");
  file.WriteAttribute(name, "names", ColumnStrings(basis, false));
  file.WriteAttribute(name, "kinds", ColumnStrings(basis, true));
  file.WriteAttribute(name, "describe", reduction::Describe(basis));
}

// u = T q as triplets rows, cols, values (rows: all DOFs, the mesh DOFs node * dim +
// component first, then the reference nodes' 6 each; columns: the free DOFs, the rows of
// V), with the shape and the mesh DOFs as attributes of the group.
void WriteExpansion(io::Hdf5File& file, const fe::DofMap& dofs) {
  const solvers::SparseMatrix& t = dofs.transform();
  io::Hdf5File::Indices rows(t.nonZeros(), 1), cols(t.nonZeros(), 1);
  VecX values(t.nonZeros());
  Eigen::Index k = 0;
  for (int c = 0; c < t.outerSize(); ++c)
    for (solvers::SparseMatrix::InnerIterator it(t, c); it; ++it, ++k) {
      rows(k) = it.row();
      cols(k) = it.col();
      values(k) = it.value();
    }
  file.WriteIndices("expansion/rows", rows);
  file.WriteIndices("expansion/cols", cols);
  file.WriteVector("expansion/values", values, "-");
  file.WriteAttribute("expansion", "rows", static_cast<long long>(t.rows()));
  file.WriteAttribute("expansion", "cols", static_cast<long long>(t.cols()));
  file.WriteAttribute("expansion", "mesh_dofs", dofs.num_mesh_dofs());
}

void WriteJoint(io::Hdf5File& file, const analysis::ReductionOptions& spec,
                const analysis::JointReduction& joint, const reduction::ReductionBasis& basis) {
  const analysis::JointModeStageResult& stage = joint.stage;
  if (spec.orthogonalize) {  // the final basis is the extended one's free-free modes
    WriteBasis(file, "basis/extended", stage.extended);
    file.WriteMatrix("basis/transform", stage.final_orthogonalization.transform, "-");
  }
  const analysis::JointModeSpec& js = *spec.joint_modes;
  const std::string group = "contact/" + std::to_string(joint.contact.contact_index + 1);
  file.WriteMatrix("joint/RV", joint.contact.relative.Compose(basis.vectors).dense(),
                   "m per coordinate");
  file.WriteAttribute("joint/RV", "contact", js.contact);
  file.WriteAttribute("joint/RV", "pairs", group);
  file.WriteAttribute("joint/RV", "normal_law", std::string(js.normal_law->type()));
  if (!js.none()) {
    file.WriteVector("joint_modes/povs", stage.joint_modes.values, "-");
    file.WriteVector("joint_modes/ratio", stage.joint_modes.ratio, "-");
    file.WriteAttribute("joint_modes/ratio", "method", reduction::Name(js.modes.method));
    file.WriteAttribute("joint_modes/ratio", "g", stage.g);
    file.WriteAttribute("joint_modes/ratio", "k", stage.k);
    file.WriteAttribute("joint_modes/ratio", "m", stage.m);
  }
  if (!joint.preload) return;
  file.WriteVector("preload/x", joint.preload->full.q, "m (rad)");
  file.WriteVector("preload/load", joint.preload->load, "N (N m)");
  file.WriteVector("preload/mode", joint.preload->mode, "m (rad) per sqrt(J)");
  file.WriteVector("preload/radius", joint.radii, "m");
  MatX pressure(joint.radii.size(), 1 + joint.cases.size());
  std::vector<std::string> columns = {"full"};
  for (Eigen::Index p = 0; p < pressure.rows(); ++p)
    pressure(p, 0) = joint.preload->pairs[p].pressure;
  for (size_t c = 0; c < joint.cases.size(); ++c) {
    columns.push_back(joint.cases[c].name);
    for (Eigen::Index p = 0; p < pressure.rows(); ++p)
      pressure(p, Eigen::Index(c + 1)) = joint.cases[c].solution.pairs[p].pressure;
  }
  file.WriteMatrix("preload/pressure", pressure, "Pa");
  file.WriteAttribute("preload/pressure", "columns", columns);
}

void WriteBasisFile(const std::filesystem::path& path, const analysis::ReductionOptions& spec,
                    const analysis::ReductionResult& result) {
  const fe::FeModel& model = result.model;
  const reduction::CraigBamptonResult& cb = result.cb;
  const std::vector<reduction::BoundaryDof>& boundary = result.boundary;
  const reduction::ReductionBasis& basis = result.basis;
  const std::vector<double>& frequencies = result.frequencies;
  const analysis::FullComparison* full = result.full ? &*result.full : nullptr;
  io::Hdf5File file(path.string(), io::Hdf5File::Mode::kCreate);
  file.WriteAttribute("/", "analysis", "reduction");
  file.WriteAttribute("/", "dofs", model.dofs->num_mesh_dofs());
  file.WriteAttribute("/", "free_dofs", model.dofs->num_free_dofs());
  file.WriteAttribute("/", "boundary_dofs", cb.num_boundary);
  file.WriteAttribute("/", "vibration_modes", cb.num_fixed_interface_modes);
  file.WriteAttribute("/", "rigid_modes_removed", result.rigid_modes_removed);
  WriteBasis(file, "basis/V", basis);
  io::Hdf5File::Indices boundary_rows(static_cast<int>(boundary.size()), 1);
  std::vector<std::string> boundary_names;
  for (size_t k = 0; k < boundary.size(); ++k) {
    boundary_rows(static_cast<int>(k)) = boundary[k].dof;
    boundary_names.push_back(boundary[k].name);
  }
  file.WriteIndices("basis/boundary_rows", boundary_rows);
  file.WriteAttribute("basis/boundary_rows", "names", boundary_names);
  file.WriteMatrix("reduced/K", result.stiffness, "N/m in the coordinates of V");
  file.WriteMatrix("reduced/M", result.mass, "kg in the coordinates of V");
  file.WriteVector("frequencies_hz",
                   Eigen::Map<const VecX>(frequencies.data(), Eigen::Index(frequencies.size())),
                   "Hz");
  file.WriteVector("fixed_interface_frequencies_hz", cb.fixed_interface_frequencies, "Hz");
  if (full)
    file.WriteVector(
        "full_frequencies_hz",
        Eigen::Map<const VecX>(full->frequencies.data(), Eigen::Index(full->frequencies.size())),
        "Hz");
  WriteContactPairs(file, model);
  WriteExpansion(file, *model.dofs);
  if (result.joint) WriteJoint(file, spec, *result.joint, basis);
  file.Commit();
}

void WriteFrequencies(OutputFolder& folder, const std::string& title,
                      const std::vector<double>& reduced, const analysis::FullComparison* full) {
  io::CsvWriter csv(folder.File("frequencies.csv"), {"mode", "frequency_hz"});
  std::vector<double> index;
  for (size_t k = 0; k < reduced.size(); ++k) {
    csv.Row({double(k + 1), reduced[k]});
    index.push_back(double(k + 1));
  }
  io::PlotSpec plot{title.empty() ? "Elastic eigenfrequencies, reduced and full" : title,
                    "mode",
                    "frequency f [Hz]",
                    false,
                    true,
                    {{"reduced model", index, reduced, true, true}}};
  if (full) {
    io::CsvWriter compare(folder.File("frequencies_vs_full.csv"),
                          {"mode", "reduced_hz", "full_hz", "relative_error"});
    const size_t n = std::min(reduced.size(), full->frequencies.size());
    for (size_t k = 0; k < n; ++k)
      compare.Row({double(k + 1), reduced[k], full->frequencies[k],
                   reduced[k] / full->frequencies[k] - 1.0});
    std::vector<double> full_index;
    for (size_t k = 0; k < full->frequencies.size(); ++k) full_index.push_back(double(k + 1));
    plot.series.push_back({"full model", full_index, full->frequencies, true, false});
  }
  io::WriteSvgPlot(plot, folder.File("frequencies.svg"));
}

// The contact field of state x (free DOFs) as a VTU point cloud at the slave nodes.
void WriteContactField(const std::filesystem::path& path, const fe::FeModel& model,
                       const analysis::JointReduction& joint, int contact_index, const VecX& x) {
  joint::JointOperator state = joint.contact.Operator(joint.contact.relative);
  const Status status = state.Evaluate(x);
  if (!status)  // the same state was evaluated by the static solution
    throw InternalError("contact field of a static solution: " + status.message);
  io::WriteVtu(path,
               ContactFieldGrid(state, SlavePositions(model.mesh, model.contacts[contact_index])));
}

// joint_modes.csv/.svg (POVs and w(g), g marked), preload_pressure.csv/.svg (the compared
// pairs' pressure against the radius, full and reduced) and the preload states' contact
// fields preload_<full | case>.vtu.
void WriteJointResults(OutputFolder& folder, const analysis::ReductionOptions& spec,
                       const fe::FeModel& model, const analysis::JointReduction& joint) {
  const analysis::JointModeStageResult& stage = joint.stage;
  if (!spec.joint_modes->none()) {
    io::CsvWriter csv(folder.File("joint_modes.csv"), {"index", "pov", "ratio"});
    std::vector<double> index, ratio;
    for (Eigen::Index k = 0; k < stage.joint_modes.ratio.size(); ++k) {
      csv.Row({double(k + 1), stage.joint_modes.values(k), stage.joint_modes.ratio(k)});
      index.push_back(double(k + 1));
      ratio.push_back(stage.joint_modes.ratio(k));
    }
    io::PlotSpec plot{
        std::string("POV ratio w(g), ") + reduction::Name(spec.joint_modes->modes.method),
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
    io::WriteSvgPlot(plot, folder.File("joint_modes.svg"));
  }
  if (!joint.preload) return;
  const int contact_index = joint.contact.contact_index;
  WriteContactField(folder.File("preload_full.vtu"), model, joint, contact_index,
                    joint.preload->full.q);
  for (const analysis::JointReduction::Case& c : joint.cases)
    WriteContactField(folder.File("preload_" + c.name + ".vtu"), model, joint, contact_index,
                      c.solution.x);
  const auto& pairs = model.contacts[contact_index].pairs;
  std::vector<std::string> columns = {"pair", "slave_node", "radius_m",        "x_m",
                                      "y_m",  "z_m",        "pressure_full_pa"};
  for (const analysis::JointReduction::Case& c : joint.cases)
    columns.push_back("pressure_" + c.name + "_pa");
  io::CsvWriter csv(folder.File("preload_pressure.csv"), columns);
  io::PlotSpec plot{
      "Contact pressure around " + spec.preload->Centre(spec.fe) + " under the preload",
      "distance from the axis r [m]",
      "contact pressure p [Pa]",
      false,
      false,
      {{"full model", {}, {}, true, false}}};
  for (const analysis::JointReduction::Case& c : joint.cases)
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
  io::WriteSvgPlot(plot, folder.File("preload_pressure.svg"));
}

nlohmann::json JointSummary(const analysis::ReductionOptions& spec,
                            const analysis::JointReduction& joint) {
  const analysis::JointModeSpec& js = *spec.joint_modes;
  const analysis::JointModeStageResult& stage = joint.stage;
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
  const analysis::PreloadSolution& preload = *joint.preload;
  const joint::StaticResult& full = preload.full;
  int in_contact = 0;
  double normal_force = 0.0, max_pressure = 0.0;
  for (size_t p = 0; p < preload.pairs.size(); ++p) {
    in_contact += preload.pairs[p].pressure > 0.0;
    normal_force += joint.contact.mesh.area(Eigen::Index(p)) * preload.pairs[p].pressure;
    max_pressure = std::max(max_pressure, preload.pairs[p].pressure);
  }
  nlohmann::json cases = nlohmann::json::array();
  for (const analysis::JointReduction::Case& c : joint.cases)
    cases.push_back({{"name", c.name},
                     {"label", c.label},
                     {"vectors", c.size},
                     {"pressure_error", c.error},
                     {"iterations", c.solution.result.iterations},
                     {"seconds", c.solution.result.seconds}});
  summary["preload"] = {
      {"loads", int(spec.preload->loads.size())},
      {"bolts", int(spec.preload->bolts.size())},
      {"tvds", spec.preload->tvds == analysis::PreloadTvds::kAll ? "all" : "preload_related"},
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

RunOutcome ReductionReport::Finish(const analysis::ReductionResult& result) {
  const analysis::ReductionOptions& spec = options_;
  const fe::FeModel& model = result.model;
  const reduction::CraigBamptonResult& cb = result.cb;
  const analysis::FullComparison* full = result.full ? &*result.full : nullptr;
  if (result.basis.size() > 0) {
    WriteBasisFile(folder_.File("basis.h5"), spec, result);
    WriteFrequencies(folder_, spec.title, result.frequencies, full);
    const std::vector<std::string> names = ColumnStrings(result.basis, false);
    io::VtuGrid grid = ModeGrid(model, result.basis.vectors, names);
    // Orthogonalized, the columns are the reduced model's free-free modes.
    if (spec.orthogonalize && names.size() == result.frequencies.size())
      for (size_t k = 0; k < names.size(); ++k)
        grid.field_data.push_back({names[k] + "_frequency_hz", 1, {result.frequencies[k]}});
    io::WriteVtu(folder_.File("mesh.vtu"), grid);
    if (result.joint) WriteJointResults(folder_, spec, model, *result.joint);
  }
  nlohmann::json summary = FeRunSummary(analysis_, model_file_, spec.title, spec.fe, model);
  std::vector<std::string> boundary_names;
  for (const auto& dof : result.boundary) boundary_names.push_back(dof.name);
  const int rigid = result.free_free.rigid_modes;
  summary["reduction"] = {{"boundary", spec.boundary},
                          {"boundary_dofs", cb.num_boundary},
                          {"boundary_dof_names", boundary_names},
                          {"interior_dofs", cb.num_interior},
                          {"vibration_modes", cb.num_fixed_interface_modes},
                          {"orthogonalize", spec.orthogonalize},
                          {"rigid_ratio", spec.free_free.rigid_ratio},
                          {"craig_bampton_size", cb.basis.size()},
                          {"rigid_modes_removed", result.rigid_modes_removed},
                          {"rigid_modes_in_basis", spec.orthogonalize ? 0 : rigid},
                          {"max_rigid_eigenvalue_ratio", result.free_free.rigid_ratio},
                          {"m", result.basis.size()},
                          {"craig_bampton_basis", reduction::Describe(cb.basis)},
                          {"basis", reduction::Describe(result.basis)},
                          {"eigen_operator_applications", cb.eigen_operator_applications},
                          {"factor_nonzeros", cb.factor_nonzeros}};
  summary["frequencies_hz"] = result.frequencies;
  summary["fixed_interface_frequencies_hz"] = ToVector(cb.fixed_interface_frequencies);
  if (full) {
    std::vector<double> errors;
    for (size_t k = 0; k < std::min(result.frequencies.size(), full->frequencies.size()); ++k)
      errors.push_back(result.frequencies[k] / full->frequencies[k] - 1.0);
    summary["full"] = {{"count", spec.compare_full},
                       {"shift_hz", analysis::kFullShiftHz},
                       {"frequencies_hz", full->frequencies},
                       {"relative_errors", errors},
                       {"operator_applications", full->eigen.operator_applications}};
  }
  if (result.joint) summary.update(JointSummary(spec, *result.joint));
  const analysis::JointModeTimes none;
  const analysis::JointModeTimes& jt = result.joint ? result.joint->stage.times : none;
  summary["times_s"] = {{"mesh", model.times.mesh},
                        {"assembly", model.times.assembly},
                        {"constraints", model.times.constraints},
                        {"pairing", model.times.pairing},
                        {"partition", cb.partition_seconds},
                        {"factor", cb.factor_seconds},
                        {"eigen", cb.eigen_seconds},
                        {"constraint_modes", cb.constraint_seconds},
                        {"projection", cb.projection_seconds},
                        {"orthogonalization", result.free_free.seconds},
                        {"preload", jt.preload},
                        {"tvd_forces", jt.tvd_forces},
                        {"tvd_solves", jt.tvd_solves},
                        {"pod", jt.pod},
                        {"joint_mode_solves", jt.joint_mode_solves},
                        {"extend", jt.extend},
                        {"final_orthogonalization", jt.orthogonalization},
                        {"reduced_preload", result.joint ? result.joint->compare_seconds : 0.0},
                        {"full_eigen", full ? full->seconds : 0.0},
                        {"total", result.wall_seconds}};
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
