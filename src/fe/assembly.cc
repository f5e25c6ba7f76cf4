#include "fe/assembly.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "fe/elements.h"

namespace jointdyn::fe {
namespace {

// Node adjacency: the sorted nodes sharing an element with each node (itself included),
// node n's list at adjacency[offset[n] .. offset[n + 1]).
struct NodeAdjacency {
  std::vector<int> offset;
  std::vector<int> adjacency;
  int degree(int n) const { return offset[n + 1] - offset[n]; }
  // Position of node `a` in node b's list (a must be adjacent to b).
  int Rank(int a, int b) const {
    const int* begin = adjacency.data() + offset[b];
    return static_cast<int>(std::lower_bound(begin, begin + degree(b), a) - begin);
  }
};

NodeAdjacency BuildAdjacency(const Mesh& mesh) {
  const int num_nodes = mesh.num_nodes();
  // Elements of each node, as (block, element) pairs in CSR form.
  std::vector<int> count(num_nodes + 1, 0);
  for (const ElementBlock& block : mesh.blocks) {
    for (int node : block.connectivity) ++count[node + 1];
  }
  for (int n = 0; n < num_nodes; ++n) count[n + 1] += count[n];
  std::vector<std::pair<int, int>> node_elements(count[num_nodes]);
  std::vector<int> fill(count.begin(), count.end() - 1);
  for (int b = 0; b < static_cast<int>(mesh.blocks.size()); ++b) {
    const ElementBlock& block = mesh.blocks[b];
    const int per = NodesPerElement(block.type);
    for (int e = 0; e < block.size(); ++e) {
      for (int a = 0; a < per; ++a) node_elements[fill[block.element(e)[a]]++] = {b, e};
    }
  }
  NodeAdjacency adj;
  adj.offset.assign(num_nodes + 1, 0);
  std::vector<int> marker(num_nodes, -1);
  std::vector<int> neighbours;
  for (int n = 0; n < num_nodes; ++n) {
    neighbours.clear();
    for (int k = count[n]; k < count[n + 1]; ++k) {
      const ElementBlock& block = mesh.blocks[node_elements[k].first];
      const int* nodes = block.element(node_elements[k].second);
      for (int a = 0; a < NodesPerElement(block.type); ++a) {
        if (marker[nodes[a]] != n) {
          marker[nodes[a]] = n;
          neighbours.push_back(nodes[a]);
        }
      }
    }
    std::sort(neighbours.begin(), neighbours.end());
    adj.adjacency.insert(adj.adjacency.end(), neighbours.begin(), neighbours.end());
    adj.offset[n + 1] = static_cast<int>(adj.adjacency.size());
  }
  return adj;
}

// The compressed column pattern of a matrix with dim x dim blocks per adjacent node pair;
// `coupled`: all component pairs (stiffness), otherwise only i == j (mass). Values zero.
// Column (b, j) starts at rows_per_node * (dim * offset[b] + j * degree(b)) and holds the
// rows dim * a + i of the adjacent nodes a in order.
solvers::SparseMatrix BuildPattern(const NodeAdjacency& adj, int dim, bool coupled) {
  const int num_nodes = static_cast<int>(adj.offset.size()) - 1;
  const int rows_per_node = coupled ? dim : 1;
  const int num_dofs = num_nodes * dim;
  solvers::SparseMatrix matrix(num_dofs, num_dofs);
  matrix.resizeNonZeros(rows_per_node * dim * adj.offset[num_nodes]);
  int* outer = matrix.outerIndexPtr();
  int* inner = matrix.innerIndexPtr();
  int k = 0;
  for (int b = 0; b < num_nodes; ++b) {
    for (int j = 0; j < dim; ++j) {
      outer[b * dim + j] = k;
      for (int p = adj.offset[b]; p < adj.offset[b + 1]; ++p) {
        for (int i = 0; i < rows_per_node; ++i) {
          inner[k++] = adj.adjacency[p] * dim + (coupled ? i : j);
        }
      }
    }
  }
  outer[num_dofs] = k;
  std::fill(matrix.valuePtr(), matrix.valuePtr() + k, 0.0);
  return matrix;
}

std::string ElementName(const Mesh& mesh, const ElementBlock& block, int e) {
  return "block '" + block.name + "' " + mesh.ElementName(block, e);
}

// Why element e of `block` has coincident nodes ("" when none): the same node twice, or two
// nodes closer than 1e-12 times the element's size.
std::string CoincidentNodes(const Mesh& mesh, const ElementBlock& block, int e) {
  const int per = NodesPerElement(block.type);
  const int* nodes = block.element(e);
  Eigen::AlignedBox3d box;
  for (int a = 0; a < per; ++a) box.extend(Vec3(mesh.nodes.row(nodes[a]).transpose()));
  const double tolerance = 1e-12 * box.diagonal().norm();
  for (int a = 0; a < per; ++a) {
    for (int b = a + 1; b < per; ++b) {
      if (nodes[a] == nodes[b]) return mesh.NodeName(nodes[a]) + " appears twice";
      const auto xa = mesh.nodes.row(nodes[a]);
      if ((xa - mesh.nodes.row(nodes[b])).norm() <= tolerance)
        return "nodes " + std::to_string(mesh.NodeTag(nodes[a])) + " and " +
               std::to_string(mesh.NodeTag(nodes[b])) + " coincide at (" + FormatValue(xa[0]) +
               ", " + FormatValue(xa[1]) + ", " + FormatValue(xa[2]) + ") m";
    }
  }
  return "";
}

}  // namespace

AssemblyResult Assemble(const Mesh& mesh, const std::map<std::string, ElasticMaterial>& materials,
                        const AssemblyOptions& options) {
  const Status valid = mesh.Validate("assembly");
  JD_CHECK(valid.ok, valid.message);
  const int dim = mesh.dim;
  // Inputs first, so that a bad material or type is reported before any work.
  std::vector<const ElasticMaterial*> block_materials;
  for (const ElementBlock& block : mesh.blocks) {
    auto it = materials.find(block.name);
    if (it == materials.end()) {
      throw InputError("materials", block.name, "no material for this block");
    }
    try {
      it->second.Validate();
    } catch (const InputError& error) {
      throw error.Located("", 0, "materials." + block.name);
    }
    if (FindElementTraits(block.type, dim) == nullptr) {
      throw InputError("blocks." + block.name + ".type", Name(block.type),
                       "is not a continuum element of a " + std::to_string(dim) + "D mesh");
    }
    block_materials.push_back(&it->second);
  }

  AssemblyResult result;
  result.num_dofs = mesh.num_nodes() * dim;
  result.num_elements = mesh.num_elements();
  Clock::time_point start = Clock::now();
  const NodeAdjacency adj = BuildAdjacency(mesh);
  for (int n = 0; n < mesh.num_nodes(); ++n) result.unconnected_nodes += adj.degree(n) == 0;
  if (options.stiffness) result.stiffness = BuildPattern(adj, dim, true);
  if (options.mass) result.mass = BuildPattern(adj, dim, false);
  result.pattern_seconds = Seconds(start);

  start = Clock::now();
  double* k_values = options.stiffness ? result.stiffness.valuePtr() : nullptr;
  double* m_values = options.mass ? result.mass.valuePtr() : nullptr;
  MatX x, ke, me;
  for (int bl = 0; bl < static_cast<int>(mesh.blocks.size()); ++bl) {
    const ElementBlock& block = mesh.blocks[bl];
    ElementKernel kernel(block.type, dim);
    const int per = kernel.num_nodes();
    x.resize(per, dim);
    for (int e = 0; e < block.size(); ++e) {
      const int* nodes = block.element(e);
      for (int a = 0; a < per; ++a) x.row(a) = mesh.nodes.row(nodes[a]).head(dim);
      const Status status = kernel.Compute(x, *block_materials[bl], k_values ? &ke : nullptr,
                                           m_values ? &me : nullptr);
      if (!status) throw InputError(ElementName(mesh, block, e), "", status.message);
      for (int b = 0; b < per; ++b) {
        const int nb = nodes[b];
        const int base = adj.offset[nb];
        const int degree = adj.degree(nb);
        for (int a = 0; a < per; ++a) {
          const int rank = adj.Rank(nodes[a], nb);
          for (int j = 0; j < dim; ++j) {
            if (k_values != nullptr) {
              double* column = k_values + dim * (dim * base + j * degree) + dim * rank;
              for (int i = 0; i < dim; ++i) column[i] += ke(a * dim + i, b * dim + j);
            }
            if (m_values != nullptr) {
              m_values[dim * base + j * degree + rank] += me(a * dim + j, b * dim + j);
            }
          }
        }
      }
    }
  }
  result.element_seconds = Seconds(start);
  return result;
}

std::optional<DegenerateElement> FindDegenerateElement(const Mesh& mesh) {
  MatX x;
  for (int bl = 0; bl < static_cast<int>(mesh.blocks.size()); ++bl) {
    const ElementBlock& block = mesh.blocks[bl];
    if (FindElementTraits(block.type, mesh.dim) == nullptr) continue;  // Assemble names it
    ElementKernel kernel(block.type, mesh.dim);
    x.resize(kernel.num_nodes(), mesh.dim);
    for (int e = 0; e < block.size(); ++e) {
      if (std::string reason = CoincidentNodes(mesh, block, e); !reason.empty())
        return DegenerateElement{bl, e, "degenerate element: " + reason};
      for (int a = 0; a < kernel.num_nodes(); ++a)
        x.row(a) = mesh.nodes.row(block.element(e)[a]).head(mesh.dim);
      if (const Status status = kernel.CheckShape(x); !status)
        return DegenerateElement{bl, e, status.message};
    }
  }
  return std::nullopt;
}

}  // namespace jointdyn::fe
