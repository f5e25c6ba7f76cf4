// Structured meshes of boxes and rectangles for tests and benchmarks: hexahedra (hex8,
// hex20), tetrahedra (tet4, tet10; each hexahedral cell split into 5 or 6) and plane
// quadrilaterals (quad4, quad8), with node sets and outward-oriented face sets on the
// sides of the box named "xmin", "xmax", "ymin", "ymax" (and "zmin", "zmax" in 3D).
#pragma once

#include <array>
#include <string>

#include "core/types.h"
#include "fe/mesh.h"

namespace jointdyn::fe {

struct BoxMeshOptions {
  Vec3 size = Vec3::Ones();  // edge lengths [m], > 0: box [0, lx] x [0, ly] x [0, lz]
  std::array<int, 3> divisions = {1, 1, 1};  // cells per direction, >= 1
  ElementType type = ElementType::kHex8;     // kHex8, kHex20, kTet4 or kTet10
  int tets_per_hex = 6;  // 6 (Kuhn, around the cell diagonal) or 5 (alternating cells)
  // Interior corner nodes are moved by a pseudo-random (fixed seed) offset of up to this
  // fraction of the cell size per direction; mid-edge nodes stay at the middle of straight
  // edges. In [0, 0.25].
  double distortion = 0.0;
  std::string block = "box";  // block name
  // Throws InputError naming the option, its value and the rule (a mesh too large for int
  // indices or the machine's memory: at divisions, fe::CheckMeshSize).
  void Validate() const;
};

struct RectangleMeshOptions {
  Vec2 size = Vec2::Ones();                // edge lengths [m], > 0: [0, lx] x [0, ly]
  std::array<int, 2> divisions = {1, 1};   // cells per direction, >= 1
  ElementType type = ElementType::kQuad4;  // kQuad4 or kQuad8
  double distortion = 0.0;                 // as for boxes, in [0, 0.25]
  std::string block = "rectangle";
  void Validate() const;
};

// The nodes and elements of a structured mesh of `type` with `cells` per direction (`dim`
// of them; tetrahedra: `tets_per_hex` per cell), counted in double so that a too fine mesh
// is counted rather than overflowed. Nodes: the lattice points (hex20: an upper bound).
struct LatticeCounts {
  double nodes = 0.0, elements = 0.0;
};
LatticeCounts StructuredMeshCounts(int dim, const double* cells, ElementType type,
                                   int tets_per_hex);

// The meshes pass Mesh::Validate. Nodes are numbered in lattice order (x fastest).
Mesh MakeBoxMesh(const BoxMeshOptions& options);
Mesh MakeRectangleMesh(const RectangleMeshOptions& options);

}  // namespace jointdyn::fe
