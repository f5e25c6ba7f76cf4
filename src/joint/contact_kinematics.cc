#include "joint/contact_kinematics.h"

#include <algorithm>
#include <vector>

#include "core/error.h"

namespace jointdyn::joint {

ContactKinematics BuildContactKinematics(const fe::Mesh& mesh, const fe::PairingResult& pairing) {
  const int dim = mesh.dim;
  const int num_pairs = static_cast<int>(pairing.pairs.size());
  ContactKinematics out;
  out.initial_gap.resize(num_pairs);
  out.area.resize(num_pairs);
  std::vector<Eigen::Triplet<double>> triplets;
  std::vector<std::pair<int, double>> nodes;  // (node, coefficient) of u_S - sum w_j u_Mj
  for (int i = 0; i < num_pairs; ++i) {
    const fe::ContactPair& pair = pairing.pairs[i];
    JD_CHECK(pair.master.size() == pair.weights.size() && !pair.master.empty(),
             "BuildContactKinematics: one weight per master node");
    nodes.assign(1, {pair.slave, 1.0});
    for (std::size_t j = 0; j < pair.master.size(); ++j)
      nodes.emplace_back(pair.master[j], -pair.weights[j]);
    std::sort(nodes.begin(), nodes.end());
    const Vec3 frame[3] = {pair.t1, pair.t2, pair.n};
    for (int a = 0; a < 3; ++a) {
      // Every row of the pair gets every (node, component) entry, zeros included, so that
      // the three rows share one pattern (pair_projection.h); duplicates are summed.
      for (const auto& [node, coefficient] : nodes) {
        JD_CHECK(node >= 0 && node < mesh.num_nodes(), "BuildContactKinematics: node index");
        for (int c = 0; c < dim; ++c)
          triplets.emplace_back(3 * i + a, node * dim + c, coefficient * frame[a](c));
      }
    }
    out.initial_gap(i) = pair.gap;
    out.area(i) = pair.area;
  }
  SparseRows r(3 * num_pairs, mesh.num_nodes() * dim);
  r.setFromTriplets(triplets.begin(), triplets.end());
  out.relative = PairProjection(std::move(r));
  return out;
}

PairProjection OnIndependentDofs(const PairProjection& relative, const fe::DofMap& dofs) {
  JD_CHECK(relative.cols() == dofs.num_mesh_dofs(),
           "OnIndependentDofs: R must act on the mesh DOFs of the DofMap");
  const solvers::SparseMatrix mesh_rows = dofs.transform().topRows(dofs.num_mesh_dofs());
  return relative.Compose(mesh_rows);
}

}  // namespace jointdyn::joint
