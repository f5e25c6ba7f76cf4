#include "io/vtu.h"

#include <bit>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/error.h"
#include "fe/shape_functions.h"
#include "io/svg_plot.h"

namespace jointdyn::io {
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

// Appends the raw bytes of `values` as one appended-data block (UInt64 byte count first).
template <class T>
void AppendBlock(std::string& data, const std::vector<T>& values) {
  static_assert(std::endian::native == std::endian::little, "VTU files are written little-endian");
  const uint64_t bytes = values.size() * sizeof(T);
  data.append(reinterpret_cast<const char*>(&bytes), sizeof bytes);
  data.append(reinterpret_cast<const char*>(values.data()), bytes);
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

VtuGrid MeshGrid(const fe::Mesh& mesh) {
  VtuGrid grid;
  grid.points.assign(mesh.nodes.data(), mesh.nodes.data() + mesh.nodes.size());
  VtuArray block{"block", 1, {}};
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

VtuGrid PointGrid(const MatX& points) {
  JD_CHECK(points.cols() == 3, "PointGrid takes x, y, z per row");
  VtuGrid grid;
  for (int p = 0; p < points.rows(); ++p) {
    for (int c = 0; c < 3; ++c) grid.points.push_back(points(p, c));
    grid.connectivity.push_back(p);
    grid.offsets.push_back(p + 1);
    grid.types.push_back(1);  // VTK_VERTEX
  }
  return grid;
}

void WriteVtu(const std::filesystem::path& path, const VtuGrid& grid) {
  const size_t points = grid.num_points(), cells = grid.num_cells();
  JD_CHECK(grid.points.size() == 3 * points && grid.offsets.size() == cells &&
               (cells == 0 || grid.offsets.back() == int64_t(grid.connectivity.size())),
           "inconsistent VTU grid for " + path.string());
  std::ostringstream xml;
  std::string data;
  const auto array = [&](const char* type, const std::string& name, int components,
                         const auto& values) {
    xml << "<DataArray type=\"" << type << "\"";
    if (!name.empty()) xml << " Name=\"" << EscapeXml(name) << "\"";
    xml << " NumberOfComponents=\"" << components << "\" format=\"appended\" offset=\""
        << data.size() << "\"/>\n";
    AppendBlock(data, values);
  };
  const auto data_arrays = [&](const char* section, const std::vector<VtuArray>& arrays,
                               size_t count) {
    xml << "<" << section << ">\n";
    for (const VtuArray& a : arrays) {
      JD_CHECK(a.values.size() == count * a.components,
               "VTU array " + a.name + " has the wrong size for " + path.string());
      array("Float64", a.name, a.components, a.values);
    }
    xml << "</" << section << ">\n";
  };
  xml << "<?xml version=\"1.0\"?>\n";
  if (!grid.comment.empty()) {
    std::string comment = grid.comment;  // "--" may not occur inside an XML comment
    for (size_t at = comment.find("--"); at != std::string::npos; at = comment.find("--", at))
      comment.replace(at, 2, "- -");
    xml << "<!-- " << comment << " -->\n";
  }
  xml << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt64\">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\""
      << points << "\" NumberOfCells=\"" << cells << "\">\n";
  data_arrays("PointData", grid.point_data, points);
  data_arrays("CellData", grid.cell_data, cells);
  xml << "<Points>\n";
  array("Float64", "", 3, grid.points);
  xml << "</Points>\n<Cells>\n";
  array("Int64", "connectivity", 1, grid.connectivity);
  array("Int64", "offsets", 1, grid.offsets);
  array("UInt8", "types", 1, grid.types);
  xml << "</Cells>\n</Piece>\n</UnstructuredGrid>\n<AppendedData encoding=\"raw\">\n_";
  std::ofstream out(path, std::ios::binary);
  out << xml.str() << data << "\n</AppendedData>\n</VTKFile>\n";
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace jointdyn::io
