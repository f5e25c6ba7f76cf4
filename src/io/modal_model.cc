#include "io/modal_model.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/clock.h"
#include "core/progress.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "io/vtu.h"
#include "solvers/eigen_solver.h"

namespace jointdyn::io {
namespace {

const char* SourceName(FeMeshSource source) {
  switch (source) {
    case FeMeshSource::kFrictionBar:
      return "friction_bar";
    case FeMeshSource::kMultilayerSheet:
      return "multilayer_sheet";
    case FeMeshSource::kBox:
      return "box";
    case FeMeshSource::kRectangle:
      return "rectangle";
    case FeMeshSource::kMshFile:
      return "file";
    case FeMeshSource::kMatrixMarket:
      return "matrix_market";
  }
  return "";
}

// One pair's figures as a JSON object (a surface pair, or the totals over all of them).
nlohmann::json PairingSummary(const std::vector<const fe::PairingResult*>& results) {
  int pairs = 0, n2n = 0, n2s = 0, edges = 0, fallback = 0;
  double min_gap = 0.0, max_gap = 0.0, area = 0.0, seconds = 0.0;
  for (const fe::PairingResult* r : results) {
    if (r->pairs.empty()) continue;
    min_gap = pairs == 0 ? r->min_gap : std::min(min_gap, r->min_gap);
    max_gap = pairs == 0 ? r->max_gap : std::max(max_gap, r->max_gap);
    pairs += static_cast<int>(r->pairs.size());
    n2n += r->node_to_node;
    n2s += r->node_to_segment;
    edges += r->edge_projections;
    fallback += r->frames_from_face;
    area += r->slave_area;
    seconds += r->seconds;
  }
  return {{"pairs", pairs},
          {"node_to_node", n2n},
          {"node_to_segment", n2s},
          {"edge_projections", edges},
          {"fallback_frames", fallback},
          {"min_gap", min_gap},
          {"max_gap", max_gap},
          {"area", area},
          {"seconds", seconds}};
}

// The contact pairs of all surfaces as points at the slave nodes, with their frames, gaps
// and area weights.
VtuGrid ContactGrid(const FeModel& model) {
  int count = 0;
  for (const auto& r : model.contacts) count += static_cast<int>(r.pairs.size());
  MatX points(count, 3);
  VtuArray gap{"gap", 1, {}}, area{"area", 1, {}}, surface{"contact", 1, {}},
      n2n{"node_to_node", 1, {}}, n{"n", 3, {}}, t1{"t1", 3, {}}, t2{"t2", 3, {}},
      offset{"to_master_point", 3, {}};
  int p = 0;
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    for (const fe::ContactPair& pair : model.contacts[c].pairs) {
      const Vec3 x = model.mesh.nodes.row(pair.slave).transpose();
      points.row(p++) = x.transpose();
      gap.values.push_back(pair.gap);
      area.values.push_back(pair.area);
      surface.values.push_back(static_cast<double>(c + 1));
      n2n.values.push_back(pair.node_to_node() ? 1.0 : 0.0);
      for (const auto& [array, v] :
           {std::pair{&n, pair.n}, std::pair{&t1, pair.t1}, std::pair{&t2, pair.t2},
            std::pair{&offset, Vec3(pair.point - x)}})
        array->values.insert(array->values.end(), v.data(), v.data() + 3);
    }
  }
  VtuGrid grid = PointGrid(points);
  grid.point_data = {std::move(gap),  std::move(n),       std::move(t1),  std::move(t2),
                     std::move(area), std::move(surface), std::move(n2n), std::move(offset)};
  return grid;
}

// The FE part of a summary.json: mesh source, dim, nodes, elements per type, DOFs, free
// DOFs, nonzeros, masses and the contact pairs (totals and per surface).
nlohmann::json FeModelSummary(const FeModelSpec& spec, const FeModel& model) {
  const fe::Mesh& mesh = model.mesh;
  const fe::DofMap& dofs = *model.dofs;
  nlohmann::json summary;
  summary["mesh"] = SourceName(spec.source);
  summary["dim"] = mesh.dim;
  summary["nodes"] = mesh.num_nodes();
  nlohmann::json elements = nlohmann::json::object();
  for (const auto& block : mesh.blocks) {
    const std::string type = fe::Name(block.type);
    elements[type] = elements.value(type, 0) + block.size();
  }
  summary["elements"] = elements;
  summary["dofs"] = dofs.num_mesh_dofs();
  summary["reference_nodes"] = model.reference_nodes.size();
  summary["beams"] = spec.beams.size();
  summary["free_dofs"] = dofs.num_free_dofs();
  summary["nnz_stiffness"] = model.stiffness.nonZeros();
  summary["nnz_mass"] = model.mass.nonZeros();
  summary["mass_total"] = TranslationalMass(model);
  summary["mass_blocks"] = BlockMasses(model);
  std::vector<const fe::PairingResult*> all;
  nlohmann::json surfaces = nlohmann::json::array();
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    all.push_back(&model.contacts[c]);
    nlohmann::json s = PairingSummary({&model.contacts[c]});
    s["name"] = model.contact_names[c];
    s["slave"] = model.contacts[c].slave;
    s["master"] = model.contacts[c].master;
    s["slave_nodes"] = model.contacts[c].pairs.size();
    surfaces.push_back(std::move(s));
  }
  summary["contact"] = PairingSummary(all);
  summary["contact"]["surfaces"] = surfaces;
  return summary;
}

}  // namespace

VtuGrid ModeGrid(const FeModel& model, const MatX& vectors, const std::vector<std::string>& names) {
  const fe::Mesh& mesh = model.mesh;
  VtuGrid grid = mesh.blocks.empty() ? PointGrid(mesh.nodes) : MeshGrid(mesh);
  for (int k = 0; k < vectors.cols(); ++k) {
    const VecX u = model.dofs->Expand(vectors.col(k));
    VtuArray mode{names[k], 3, std::vector<double>(3 * mesh.num_nodes())};
    for (int node = 0; node < mesh.num_nodes(); ++node)
      for (int c = 0; c < mesh.dim; ++c) mode.values[3 * node + c] = u(node * mesh.dim + c);
    grid.point_data.push_back(std::move(mode));
  }
  return grid;
}

nlohmann::json FeRunSummary(const std::string& analysis, const ModelNode& root,
                            const std::string& title, const FeModelSpec& spec,
                            const FeModel& model) {
  nlohmann::json summary;
  summary["analysis"] = analysis;
  summary["model"] = root.file();
  summary["title"] = title;
  summary.update(FeModelSummary(spec, model));
  return summary;
}

double ShiftEigenvalue(double shift_frequency) {
  const double omega = 2.0 * std::numbers::pi * shift_frequency;
  return std::copysign(omega * omega, shift_frequency);
}

double SignedFrequency(double eigenvalue) {
  return std::copysign(std::sqrt(std::abs(eigenvalue)), eigenvalue) / (2.0 * std::numbers::pi);
}

ModalModel ReadModalModel(const ModelNode& root) {
  ModalModel model;
  model.title = root.String("title", "");
  model.fe = ReadFeModelSpec(root);
  if (const auto modes = root.OptionalMap("modes")) {
    model.mode_count = modes->Int("count", AtLeast(1));
    model.shift_frequency = modes->Double("shift", model.shift_frequency);
    modes->Finish();
  }
  if (root.Has("export")) {
    const std::string format = root.String("export");
    if (format != "matrix_market") root.FailValue("export", format, "must be matrix_market");
    model.export_matrix_market = true;
  }
  root.Finish();
  return model;
}

RunOutcome RunModalModel(const ModelNode& root, const std::filesystem::path& out_dir) {
  const Clock::time_point start = Clock::now();
  const ModalModel modal = ReadModalModel(root);
  const FeModel model = BuildFeModel(modal.fe);
  const fe::Mesh& mesh = model.mesh;
  const fe::DofMap& dofs = *model.dofs;
  if (modal.mode_count >= dofs.num_free_dofs())
    root.FailValue("modes", std::to_string(modal.mode_count),
                   "count must be < the free DOFs (" + std::to_string(dofs.num_free_dofs()) + ")");
  EnsureDirectory(out_dir);

  for (size_t c = 0; c < model.contacts.size(); ++c)
    fe::WritePairsCsv((out_dir / ("contact_pairs_" + std::to_string(c + 1) + ".csv")).string(),
                      mesh, model.contacts[c]);
  if (!model.contacts.empty()) WriteVtu(out_dir / "contact_pairs.vtu", ContactGrid(model));
  if (modal.export_matrix_market)
    fe::WriteMatrixModel((out_dir / "model").string(), {mesh, model.stiffness, model.mass});

  solvers::EigenResult eigen;
  double eigen_seconds = 0.0;
  if (modal.mode_count > 0) {
    const Clock::time_point eigen_start = Clock::now();
    Progress progress("modal: eigenpairs", 1);
    solvers::EigenOptions options;
    options.count = modal.mode_count;
    options.shift = ShiftEigenvalue(modal.shift_frequency);
    eigen = solvers::SolveGeneralizedEigen(model.ReducedStiffness(), model.ReducedMass(), options);
    eigen_seconds = Seconds(eigen_start);
    progress.Update(1);
  }
  std::vector<double> frequencies;
  for (const double lambda : eigen.values) frequencies.push_back(SignedFrequency(lambda));
  if (!frequencies.empty()) {
    CsvWriter csv(out_dir / "frequencies.csv", {"mode", "frequency_hz", "eigenvalue"});
    std::vector<double> index;
    for (size_t k = 0; k < frequencies.size(); ++k) {
      csv.Row({double(k + 1), frequencies[k], eigen.values(k)});
      index.push_back(double(k + 1));
    }
    PlotSpec plot{modal.title.empty() ? "Eigenfrequencies" : modal.title,
                  "mode",
                  "frequency f [Hz]",
                  false,
                  false,
                  {{"", index, frequencies, true, true}}};
    WriteSvgPlot(plot, out_dir / "frequencies.svg");
  }
  std::vector<std::string> names;
  for (int k = 0; k < eigen.vectors.cols(); ++k) names.push_back("mode_" + std::to_string(k + 1));
  WriteVtu(out_dir / "mesh.vtu", ModeGrid(model, eigen.vectors, names));

  nlohmann::json summary = FeRunSummary("modal", root, modal.title, modal.fe, model);
  const bool ok = modal.mode_count == 0 || eigen.status.ok;
  summary["status"] = ok ? "ok" : "failed";
  summary["message"] = eigen.status.message;
  summary["modes"] = {{"count", modal.mode_count},
                      {"shift_hz", modal.shift_frequency},
                      {"converged", eigen.converged},
                      {"operator_applications", eigen.operator_applications}};
  summary["frequencies_hz"] = frequencies;
  summary["times_s"] = {{"mesh", model.times.mesh},
                        {"assembly", model.times.assembly},
                        {"constraints", model.times.constraints},
                        {"pairing", model.times.pairing},
                        {"eigen", eigen_seconds},
                        {"eigen_factor", eigen.factor_seconds},
                        {"total", Seconds(start)}};
  RunOutcome outcome{ok, eigen.status.message, out_dir / "summary.json"};
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
