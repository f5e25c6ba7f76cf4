#include "io/reduction_model.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "core/progress.h"
#include "io/hdf5_file.h"
#include "io/modal_model.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "io/vtu.h"
#include "solvers/eigen_solver.h"

namespace jointdyn::io {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

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
  full.eigen = solvers::SolveGeneralizedEigen(model.dofs->Reduce(model.stiffness),
                                              model.dofs->Reduce(model.mass), options);
  for (Eigen::Index k = rigid_modes; k < full.eigen.values.size(); ++k)
    full.frequencies.push_back(SignedFrequency(full.eigen.values(k)));
  full.seconds = Seconds(start);
  progress.Update(1);
  return full;
}

// The contact pairs as matrices, one group per contact surface pair ("contact/1", ..):
// slave node, gap, area, frame [n t1 t2] (pairs x 9), master point, master nodes and their
// shape-function weights (pairs x the most master nodes of a pair, padded with -1 and 0).
void WriteContactPairs(Hdf5File& file, const FeModel& model) {
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    const auto& pairs = model.contacts[c].pairs;
    const std::string group = "contact/" + std::to_string(c + 1);
    const int n = static_cast<int>(pairs.size());
    size_t width = 1;
    for (const fe::ContactPair& pair : pairs) width = std::max(width, pair.master.size());
    VecX slave(n), gap(n), area(n);
    MatX frame(n, 9), point(n, 3), master = MatX::Constant(n, static_cast<int>(width), -1.0),
                                   weights = MatX::Zero(n, static_cast<int>(width));
    for (int p = 0; p < n; ++p) {
      const fe::ContactPair& pair = pairs[p];
      slave(p) = pair.slave;
      gap(p) = pair.gap;
      area(p) = pair.area;
      frame.row(p) << pair.n.transpose(), pair.t1.transpose(), pair.t2.transpose();
      point.row(p) = pair.point.transpose();
      for (size_t j = 0; j < pair.master.size(); ++j) {
        master(p, static_cast<int>(j)) = pair.master[j];
        weights(p, static_cast<int>(j)) = pair.weights[j];
      }
    }
    file.WriteVector(group + "/slave_node", slave);
    file.WriteVector(group + "/gap", gap);
    file.WriteVector(group + "/area", area);
    file.WriteMatrix(group + "/frame", frame);
    file.WriteMatrix(group + "/master_point", point);
    file.WriteMatrix(group + "/master_nodes", master);
    file.WriteMatrix(group + "/master_weights", weights);
    file.WriteAttribute(group, "name", model.contact_names[c]);
    file.WriteAttribute(group, "slave", model.contacts[c].slave);
    file.WriteAttribute(group, "master", model.contacts[c].master);
  }
}

void WriteBasisFile(const std::filesystem::path& path, const FeModel& model,
                    const reduction::CraigBamptonResult& cb,
                    const std::vector<reduction::BoundaryDof>& boundary,
                    const reduction::ReductionBasis& basis, const MatX& stiffness, const MatX& mass,
                    const std::vector<double>& frequencies, int rigid_modes,
                    const FullComparison* full) {
  Hdf5File file(path.string(), Hdf5File::Mode::kCreate);
  file.WriteAttribute("/", "analysis", "reduction");
  file.WriteAttribute("/", "dofs", model.dofs->num_mesh_dofs());
  file.WriteAttribute("/", "free_dofs", model.dofs->num_free_dofs());
  file.WriteAttribute("/", "boundary_dofs", cb.num_boundary);
  file.WriteAttribute("/", "vibration_modes", cb.num_fixed_interface_modes);
  file.WriteAttribute("/", "rigid_modes_removed", rigid_modes);
  file.WriteMatrix("basis/V", basis.vectors);
  std::vector<std::string> names, kinds;
  for (const reduction::BasisColumn& column : basis.columns) {
    names.push_back(column.name);
    kinds.push_back(reduction::Name(column.kind));
  }
  file.WriteAttribute("basis/V", "names", JoinLines(names));
  file.WriteAttribute("basis/V", "kinds", JoinLines(kinds));
  file.WriteAttribute("basis/V", "describe", reduction::Describe(basis));
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

}  // namespace

ReductionModel ReadReductionModel(const ModelNode& root) {
  ReductionModel model;
  model.title = root.String("title", "");
  model.fe = ReadFeModelSpec(root);
  const ModelNode node = root.Map("reduction");
  model.reduction_node = node;
  if (node.Has("joint_modes"))
    node.FailValue("joint_modes", "(given)",
                   "not yet available: joint modes (wpod_tvd, pod_tvd, pod_forces) come with the "
                   "trial vector derivative stage; remove the key");
  model.boundary = node.Strings("boundary");  // non-empty
  model.craig_bampton.fixed_interface_modes =
      node.Int("vibration_modes", model.craig_bampton.fixed_interface_modes, NonNegative());
  model.orthogonalize = node.Bool("orthogonalize", model.orthogonalize);
  model.free_free.rigid_ratio =
      node.Double("rigid_ratio", model.free_free.rigid_ratio,
                  Rule{[](double x) { return x > 0.0 && x < 1.0; }, "must be in (0, 1)"});
  model.compare_full = node.Int("compare_full", model.compare_full, NonNegative());
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
  std::vector<reduction::BoundaryDof> boundary;
  try {
    boundary = reduction::ReferenceNodeBoundary(dofs, spec.boundary);
  } catch (const InputError& error) {
    node.Rethrow(error);
  }
  const int interior = dofs.num_free_dofs() - static_cast<int>(boundary.size());
  if (spec.craig_bampton.fixed_interface_modes >= interior)
    node.FailValue("vibration_modes", std::to_string(spec.craig_bampton.fixed_interface_modes),
                   "must be < the interior DOFs (" + std::to_string(interior) + ")");
  if (spec.compare_full > 0 && spec.compare_full + 6 >= dofs.num_free_dofs())
    node.FailValue(
        "compare_full", std::to_string(spec.compare_full),
        "must be < the free DOFs less 6 (" + std::to_string(dofs.num_free_dofs() - 6) + ")");
  EnsureDirectory(out_dir);

  nlohmann::json summary;
  summary["analysis"] = "reduction";
  summary["model"] = root.file();
  summary["title"] = spec.title;
  summary.update(FeModelSummary(spec.fe, model));
  std::vector<std::string> boundary_names;
  for (const auto& dof : boundary) boundary_names.push_back(dof.name);

  const solvers::SparseMatrix stiffness = dofs.Reduce(model.stiffness);
  const solvers::SparseMatrix mass = dofs.Reduce(model.mass);
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
  const Status status = !cb.status ? cb.status : free_free.status;

  const reduction::ReductionBasis& basis = spec.orthogonalize ? free_free.basis : cb.basis;
  std::vector<double> frequencies;
  std::optional<FullComparison> full;
  if (status) {
    frequencies = ToVector(free_free.frequencies);
    MatX reduced_stiffness = cb.stiffness, reduced_mass = cb.mass;
    if (spec.orthogonalize) {
      const MatX& y = free_free.transform;
      reduced_stiffness = y.transpose() * cb.stiffness * y;
      reduced_mass = y.transpose() * cb.mass * y;
      reduced_stiffness = 0.5 * (reduced_stiffness + reduced_stiffness.transpose()).eval();
      reduced_mass = 0.5 * (reduced_mass + reduced_mass.transpose()).eval();
    }
    std::cerr << "reduction: final basis: " << reduction::Describe(basis) << "\n";
    if (spec.compare_full > 0) full = CompareFull(model, spec.compare_full, free_free.rigid_modes);
    WriteBasisFile(out_dir / "basis.h5", model, cb, boundary, basis, reduced_stiffness,
                   reduced_mass, frequencies, spec.orthogonalize ? free_free.rigid_modes : 0,
                   full ? &*full : nullptr);
    WriteFrequencies(out_dir, spec.title, frequencies, full ? &*full : nullptr);
    std::vector<std::string> names;
    for (const auto& column : basis.columns) names.push_back(column.name);
    WriteVtu(out_dir / "mesh.vtu", ModeGrid(model, basis.vectors, names));
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
                        {"full_eigen", full ? full->seconds : 0.0},
                        {"total", Seconds(start)}};
  RunOutcome outcome{ok, summary["message"].get<std::string>(), out_dir / "summary.json"};
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
