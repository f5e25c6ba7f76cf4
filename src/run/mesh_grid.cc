#include "run/mesh_grid.h"

#include <string>
#include <utility>

#include "core/error.h"
#include "fe/shape_functions.h"

namespace jointdyn::run {
namespace {

using fe::ElementType;

// The corner pairs of the mid-edge nodes in VTK's order (vtkQuadraticTetra, ...Hexahedron,
// ...Quad, ...Triangle, ...Edge).
std::vector<std::pair<int, int>> VtkEdges(ElementType type) {
  switch (type) {
    case ElementType::kLine3:
      return {{0, 1}};
    case ElementType::kTri6:
      return {{0, 1}, {1, 2}, {2, 0}};
    case ElementType::kQuad8:
      return {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    case ElementType::kTet10:
      return {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
    case ElementType::kHex20:
      return {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
              {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    default:
      return {};
  }
}

}  // namespace

uint8_t VtkCellType(ElementType type) {
  switch (type) {
    case ElementType::kLine2:
      return 3;
    case ElementType::kLine3:
      return 21;
    case ElementType::kTri3:
      return 5;
    case ElementType::kTri6:
      return 22;
    case ElementType::kQuad4:
      return 9;
    case ElementType::kQuad8:
      return 23;
    case ElementType::kTet4:
      return 10;
    case ElementType::kTet10:
      return 24;
    case ElementType::kHex8:
      return 12;
    case ElementType::kHex20:
      return 25;
  }
  return 0;
}

std::vector<int> VtkNodeOrder(ElementType type) {
  const int corners = fe::NodesPerElement(type) - static_cast<int>(VtkEdges(type).size());
  std::vector<int> order;
  for (int i = 0; i < corners; ++i) order.push_back(i);
  const MatX reference = fe::ReferenceNodes(type);
  for (const auto& [a, b] : VtkEdges(type)) {
    const Eigen::RowVectorXd middle = 0.5 * (reference.row(a) + reference.row(b));
    int found = -1;
    for (int i = corners; i < reference.rows(); ++i)
      if ((reference.row(i) - middle).norm() < 1e-12) found = i;
    JD_CHECK(found >= 0, std::string("no mid-edge node of ") + fe::Name(type));
    order.push_back(found);
  }
  return order;
}

io::VtuGrid MeshGrid(const fe::Mesh& mesh) {
  io::VtuGrid grid;
  grid.points.assign(mesh.nodes.data(), mesh.nodes.data() + mesh.nodes.size());
  io::VtuArray block{"block", 1, {}};
  for (size_t b = 0; b < mesh.blocks.size(); ++b) {
    const fe::ElementBlock& elements = mesh.blocks[b];
    const std::vector<int> order = VtkNodeOrder(elements.type);
    const uint8_t cell_type = VtkCellType(elements.type);
    for (int e = 0; e < elements.size(); ++e) {
      for (const int i : order) grid.connectivity.push_back(elements.element(e)[i]);
      grid.offsets.push_back(static_cast<int64_t>(grid.connectivity.size()));
      grid.types.push_back(cell_type);
      block.values.push_back(static_cast<double>(b));
    }
  }
  grid.cell_data.push_back(std::move(block));
  return grid;
}

}  // namespace jointdyn::run
