// Finite element meshes of the fe layer: node coordinates, element blocks (the parts of a
// structure, each with one element type and one material), node sets and face sets (the
// boundary faces named for supports, load points, couplings and contact surfaces).
//
// Node and element numbering follows Gmsh (gmsh.info, "Node ordering"): the corner nodes
// first in Gmsh's order, then the mid-edge nodes in Gmsh's edge order. Nodes are indexed
// 0 .. num_nodes() - 1 (Gmsh tags are mapped on reading). Coordinates in m. A 2D mesh
// (dim 2, plane-stress quadrilaterals) keeps z = 0; its faces are element edges.
//
// Messages name nodes and elements in the numbering the user sees: a mesh read from a file
// keeps the file's own tags (Gmsh node and element tags, the 1-based node numbers of a
// Matrix Market node file) beside the indices, and `file` names it; a generated mesh has
// no tags and its entities are named by index (as in the VTU and CSV results).
//
// A Mesh is plain data. Consistency (indices in range, node counts matching the type,
// names unique) is checked by Validate(), which readers and builders call before handing
// a mesh out, so that a broken .msh file is reported with the file, the entity and the
// rule it breaks.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"

namespace jointdyn::fe {

enum class ElementType {
  kLine2,  // 2-node line (faces of 2D elements)
  kLine3,  // 3-node line (faces of quad8)
  kTri3,   // 3-node triangle (faces of tet4)
  kTri6,   // 6-node triangle (faces of tet10)
  kQuad4,  // 4-node quadrilateral: plane-stress element, or faces of hex8
  kQuad8,  // 8-node serendipity quadrilateral: plane-stress element, or faces of hex20
  kTet4,   // 4-node tetrahedron
  kTet10,  // 10-node tetrahedron
  kHex8,   // 8-node hexahedron
  kHex20,  // 20-node serendipity hexahedron
};

int NodesPerElement(ElementType type);
int Dimension(ElementType type);     // 1, 2 or 3 (of the reference element)
const char* Name(ElementType type);  // "tet10", ... (model files, messages)
int GmshType(ElementType type);      // Gmsh element type code (1, 8, 2, 9, 3, 16, 4, 11, 5, 17)
bool FromGmshType(int code, ElementType& type);  // false: a type jointdyn does not support

// Throws InputError(key, value, rule) when a mesh of `nodes` nodes and `elements` elements
// of `type` (counts in double, so that they never overflow) is too large: more nodes or
// connectivity entries than an int indexes, or more memory than the machine has. The
// memory is a rough lower bound (MeshBytes): the rule names the counts and the need, e.g.
// "gives 1e+15 elements and 1e+15 nodes: needs ... but the machine has 23 GB of memory".
void CheckMeshSize(const std::string& key, const std::string& value, double nodes, double elements,
                   ElementType type);
// A rough lower bound of the memory [bytes] of such a mesh in an analysis: see mesh.cc.
double MeshBytes(double nodes, double elements, ElementType type);

// Elements of one type with flat connectivity (NodesPerElement(type) node indices each).
struct ElementBlock {
  std::string name;  // part name (Gmsh physical group), unique among blocks
  ElementType type = ElementType::kHex8;
  std::vector<int> connectivity;
  std::vector<long long> tags;  // the file's tag of each element; empty: named by index
  int size() const { return static_cast<int>(connectivity.size()) / NodesPerElement(type); }
  const int* element(int e) const { return connectivity.data() + e * NodesPerElement(type); }
  long long Tag(int e) const { return tags.empty() ? e : tags[e]; }
};

// Boundary faces of one type (surface elements of a 3D mesh, edges of a 2D one), each
// oriented so that its node order gives the outward normal of the element it bounds (the
// right-hand rule; readers and builders orient them, see mesh_faces.h).
struct FaceSet {
  ElementType type = ElementType::kQuad4;
  std::vector<int> connectivity;  // NodesPerElement(type) node indices per face
  std::vector<long long> tags;    // the file's element tag of each face; empty: by index
  int size() const { return static_cast<int>(connectivity.size()) / NodesPerElement(type); }
  const int* face(int f) const { return connectivity.data() + f * NodesPerElement(type); }
  long long Tag(int f) const { return tags.empty() ? f : tags[f]; }
};

// A coupling the mesh file defines (Nastran RBE2, RBE3) between a point off the elements,
// which becomes a reference node, and mesh nodes.
struct MeshCoupling {
  std::string reference;         // the reference node's name: "grid_<ID>"
  Vec3 position = Vec3::Zero();  // [m]
  bool rigid = true;             // RBE2: rigid; RBE3: distributing with `weights`
  std::string set;               // the node set of the tied nodes ("rbe2_<EID>", "rbe3_<EID>")
  std::vector<double> weights;   // RBE3: per node of the set, in its (sorted) order
};

struct Mesh {
  int dim = 3;  // 3: solids; 2: plane models in x, y
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> nodes;  // coordinates [m]
  std::vector<ElementBlock> blocks;
  std::map<std::string, std::vector<int>> node_sets;  // sorted, unique node indices
  std::map<std::string, FaceSet> face_sets;
  std::string file;                     // the file the mesh was read from; "" when generated
  std::vector<long long> node_tags;     // the file's tag of each node; empty: named by index
  std::vector<MeshCoupling> couplings;  // defined by the mesh file

  int num_nodes() const { return static_cast<int>(nodes.rows()); }
  long long NodeTag(int node) const { return node_tags.empty() ? node : node_tags[node]; }
  // "node 57" in the file's numbering.
  std::string NodeName(int node) const;
  // "element 57 (nodes 1 2 3 4)" for element e of `block` (or face e of a face set) in the
  // file's numbering.
  std::string ElementName(const ElementBlock& block, int e) const;
  std::string FaceName(const FaceSet& set, int f) const;
  int num_elements() const;
  // Checks consistency; the message names `source` (a file or builder), the block or set
  // and the rule broken.
  Status Validate(const std::string& source) const;
  // The sorted, unique nodes of a face set.
  std::vector<int> FaceSetNodes(const std::string& name) const;
};

}  // namespace jointdyn::fe
