// VTK unstructured-grid files (.vtu, XML, ParaView) written directly (no VTK library: see
// ../shared/design/LIBRARIES.md): the cells of an FE mesh or a cloud of points (vertex
// cells) with point and cell data.
//
// Format (vtk.org, "VTK XML formats"): an UnstructuredGrid piece whose arrays are stored
// as raw little-endian binary in the AppendedData section, each block preceded by its byte
// count as UInt64 (header_type="UInt64"); points, point and cell data as Float64,
// connectivity and offsets as Int64, cell types as UInt8.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/types.h"

namespace jointdyn::io {

struct VtuArray {
  std::string name;
  int components = 1;          // 1: scalar, 3: vector
  std::vector<double> values;  // components per point (or cell), interleaved
};

struct VtuGrid {
  std::vector<double> points;         // x, y, z per point [m]
  std::vector<int64_t> connectivity;  // point indices of all cells, in VTK node order
  std::vector<int64_t> offsets;       // end of each cell in connectivity
  std::vector<uint8_t> types;         // VTK cell type per cell
  std::vector<VtuArray> point_data, cell_data;
  // Data of the whole grid (ParaView: Information panel, "Data Arrays" with no points),
  // e.g. the eigenfrequency of each mode shape: any number of values per array.
  std::vector<VtuArray> field_data;
  std::string comment;  // written as an XML comment before the data (e.g. a legend)
  int num_points() const { return static_cast<int>(points.size() / 3); }
  int num_cells() const { return static_cast<int>(types.size()); }
};

// Vertex cells at `points` (rows x, y, z [m]).
VtuGrid PointGrid(const MatX& points);

// Checks array sizes (InternalError for a mismatch) and writes the file (atomically); throws
// IoError naming the path and the reason when it cannot be written.
void WriteVtu(const std::filesystem::path& path, const VtuGrid& grid);

}  // namespace jointdyn::io
