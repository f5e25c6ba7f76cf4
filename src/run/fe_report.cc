#include "run/fe_report.h"

#include <algorithm>
#include <utility>

#include "run/mesh_grid.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

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

// The FE part of a summary.json: mesh source, dim, nodes, elements per type, DOFs, free
// DOFs, nonzeros, masses and the contact pairs (totals and per surface).
nlohmann::json FeModelSummary(const fe::FeModelSpec& spec, const fe::FeModel& model) {
  const fe::Mesh& mesh = model.mesh;
  const fe::DofMap& dofs = *model.dofs;
  nlohmann::json summary;
  summary["mesh"] = fe::Name(spec.source);
  if (!model.ignored_keywords.empty()) summary["mesh_keywords_left_out"] = model.ignored_keywords;
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
  summary["mass_total"] = fe::TranslationalMass(model);
  summary["mass_blocks"] = fe::BlockMasses(model);
  std::vector<const fe::PairingResult*> all;
  nlohmann::json surfaces = nlohmann::json::array();
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    all.push_back(&model.contacts[c]);
    nlohmann::json s = PairingSummary({&model.contacts[c]});
    s["name"] = model.contact_names[c];
    s["slave"] = model.contacts[c].slave;
    s["master"] = model.contacts[c].master;
    s["slave_nodes"] = model.contacts[c].pairs.size() + model.contacts[c].shared_nodes.size();
    s["shared_nodes"] = model.contacts[c].shared_nodes.size();
    s["slave_faces"] = model.contacts[c].slave_faces;
    s["master_faces"] = model.contacts[c].master_faces;
    surfaces.push_back(std::move(s));
  }
  summary["contact"] = PairingSummary(all);
  summary["contact"]["surfaces"] = surfaces;
  return summary;
}

}  // namespace

// The contact pairs of all surfaces as points at the slave nodes, with their frames, gaps
// and area weights.
io::VtuGrid ContactGrid(const fe::FeModel& model) {
  int count = 0;
  for (const auto& r : model.contacts) count += static_cast<int>(r.pairs.size());
  MatX points(count, 3);
  io::VtuArray gap{"gap", 1, {}}, area{"area", 1, {}}, surface{"contact", 1, {}},
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
  io::VtuGrid grid = io::PointGrid(points);
  grid.point_data = {std::move(gap),  std::move(n),       std::move(t1),  std::move(t2),
                     std::move(area), std::move(surface), std::move(n2n), std::move(offset)};
  return grid;
}

io::VtuGrid DisplacementGrid(const fe::Mesh& mesh, const std::vector<VecX>& displacements,
                             const std::vector<std::string>& names) {
  io::VtuGrid grid = mesh.blocks.empty() ? io::PointGrid(mesh.nodes) : MeshGrid(mesh);
  for (size_t k = 0; k < displacements.size(); ++k) {
    const VecX& u = displacements[k];
    io::VtuArray field{names[k], 3, std::vector<double>(3 * mesh.num_nodes())};
    for (int node = 0; node < mesh.num_nodes(); ++node)
      for (int c = 0; c < mesh.dim; ++c) field.values[3 * node + c] = u(node * mesh.dim + c);
    grid.point_data.push_back(std::move(field));
  }
  return grid;
}

io::VtuGrid ModeGrid(const fe::FeModel& model, const MatX& vectors,
                     const std::vector<std::string>& names) {
  std::vector<VecX> displacements;
  for (int k = 0; k < vectors.cols(); ++k)
    displacements.push_back(model.dofs->Expand(vectors.col(k)).head(model.dofs->num_mesh_dofs()));
  return DisplacementGrid(model.mesh, displacements, names);
}

nlohmann::json FeRunSummary(const std::string& analysis, const std::string& model_file,
                            const std::string& title, const fe::FeModelSpec& spec,
                            const fe::FeModel& model) {
  nlohmann::json summary = SummaryHead(analysis, model_file, title);
  summary.update(FeModelSummary(spec, model));
  return summary;
}

}  // namespace jointdyn::run
