#include "io/vtu.h"

#include <bit>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "io/svg_plot.h"

namespace jointdyn::io {
namespace {

// Appends the raw bytes of `values` as one appended-data block (UInt64 byte count first).
template <class T>
void AppendBlock(std::string& data, const std::vector<T>& values) {
  static_assert(std::endian::native == std::endian::little, "VTU files are written little-endian");
  const uint64_t bytes = values.size() * sizeof(T);
  data.append(reinterpret_cast<const char*>(&bytes), sizeof bytes);
  data.append(reinterpret_cast<const char*>(values.data()), bytes);
}

}  // namespace

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
         "header_type=\"UInt64\">\n<UnstructuredGrid>\n";
  if (!grid.field_data.empty()) {
    xml << "<FieldData>\n";
    xml.precision(17);
    for (const VtuArray& a : grid.field_data) {
      xml << "<DataArray type=\"Float64\" Name=\"" << EscapeXml(a.name)
          << "\" NumberOfComponents=\"" << a.components << "\" NumberOfTuples=\""
          << a.values.size() / a.components << "\" format=\"ascii\">";
      for (size_t i = 0; i < a.values.size(); ++i) xml << (i ? " " : "") << a.values[i];
      xml << "</DataArray>\n";
    }
    xml << "</FieldData>\n";
  }
  xml << "<Piece NumberOfPoints=\"" << points << "\" NumberOfCells=\"" << cells << "\">\n";
  data_arrays("PointData", grid.point_data, points);
  data_arrays("CellData", grid.cell_data, cells);
  xml << "<Points>\n";
  array("Float64", "", 3, grid.points);
  xml << "</Points>\n<Cells>\n";
  array("Int64", "connectivity", 1, grid.connectivity);
  array("Int64", "offsets", 1, grid.offsets);
  array("UInt8", "types", 1, grid.types);
  xml << "</Cells>\n</Piece>\n</UnstructuredGrid>\n<AppendedData encoding=\"raw\">\n_";
  AtomicFile file(path);
  file.out() << xml.str() << data << "\n</AppendedData>\n</VTKFile>\n";
  file.Commit();
}

}  // namespace jointdyn::io
