// Faces of the elements (the element edges of 2D meshes) and their orientation: the local
// faces of each element type in Gmsh face-node order, oriented outward; the outward
// orientation of a face set; the boundary faces of a mesh within a node set.
//
// Orientation convention (used by contact pairing and surface loads): a face's normal is
// X_,xi x X_,eta for surface faces (seed 003 eq. D.1) and X_,xi x e_z for the edges of a
// 2D mesh; a face is oriented outward when this normal points out of its element.
#pragma once

#include <string>
#include <vector>

#include "core/types.h"
#include "fe/mesh.h"

namespace jointdyn::fe {

// The face type of a solid (or plane) element type: hex8 -> quad4, tet10 -> tri6,
// quad8 -> line3, ...
ElementType FaceType(ElementType element);

// Local node indices of the faces of `element`, outward oriented, each in the node order
// of FaceType(element) (corners, then mid-edge nodes).
const std::vector<std::vector<int>>& LocalFaces(ElementType element);

// The face normal (not normalized) at reference point xi of a face of type `face` with
// node coordinates `x` (NodesPerElement(face) x 3) [m^2 per reference area, or m].
Vec3 FaceNormal(ElementType face, const MatX& x, const double* xi);

// The node coordinates of face f of `set` (NodesPerElement(set.type) x 3) [m].
MatX FaceCoordinates(const Mesh& mesh, const FaceSet& set, int f);

// Reverses the orientation of face f of `set` in place (same face, opposite normal).
void FlipFace(FaceSet& set, int f);

// Orients every face of `set` outward from the element of `mesh` it bounds (the first one
// in block order for a face between two elements). Throws InputError naming `source`, the
// set `name` and the face when a face is not a face of any element.
void OrientOutward(const Mesh& mesh, FaceSet& set, const std::string& source,
                   const std::string& name);

// The boundary faces of the element blocks (faces of exactly one element) whose nodes all
// lie in `nodes` (sorted), outward oriented. Throws InputError naming `name` when they
// would mix face types or when there are none.
FaceSet BoundaryFaces(const Mesh& mesh, const std::vector<int>& nodes, const std::string& name);

}  // namespace jointdyn::fe
