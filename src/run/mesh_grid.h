// FE meshes as VTK unstructured grids (io/vtu.h): the VTK cell types and node orders of
// jointdyn's (Gmsh's) element types, and a mesh's element blocks as cells.
#pragma once

#include <cstdint>
#include <vector>

#include "fe/mesh.h"
#include "io/vtu.h"

namespace jointdyn::run {

// The VTK cell type of `type` (VTK_TETRA = 10, VTK_QUADRATIC_HEXAHEDRON = 25, ...).
uint8_t VtkCellType(fe::ElementType type);
// For each VTK node position of `type`, the index of that node in jointdyn's (Gmsh's)
// order: the corners agree, the mid-edge nodes of tet10 and hex20 do not.
std::vector<int> VtkNodeOrder(fe::ElementType type);

// The element blocks of `mesh` as cells (cell data "block": the block index), its nodes as
// points.
io::VtuGrid MeshGrid(const fe::Mesh& mesh);
}  // namespace jointdyn::run
