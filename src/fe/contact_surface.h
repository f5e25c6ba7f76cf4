// Contact surfaces: the outward-oriented faces of one side of a joint, from a face set or
// from a node set of a mesh, and the nodal area weights of their nodes.
#pragma once

#include <string>
#include <vector>

#include "core/types.h"
#include "fe/mesh.h"

namespace jointdyn::fe {

struct ContactSurface {
  std::string name;        // the face or node set it came from
  FaceSet faces;           // outward oriented (mesh_faces.h)
  std::vector<int> nodes;  // sorted, unique node indices of the faces
};

// The faces of face set `name`, oriented outward from their elements. Throws InputError
// when the set does not exist or a face bounds no element.
ContactSurface SurfaceFromFaceSet(const Mesh& mesh, const std::string& name);

// The boundary faces of the element blocks whose nodes all lie in node set `name`. Throws
// InputError when the set does not exist or contains no such face.
ContactSurface SurfaceFromNodeSet(const Mesh& mesh, const std::string& name);

enum class AreaWeighting {
  kConsistent,      // A_i = integral of N_i over the surface: exact resultants and moments
                    // (zero at tri6 corners, negative at quad8 corners)
  kDiagonalScaled,  // A_i = per face, the face area times int N_i^2 / sum_j int N_j^2
                    // (positive for every face type, exact total area)
};

// The nodal area weights of `surface` [m^2], one per surface.nodes entry; they sum to the
// surface area.
VecX NodalAreas(const Mesh& mesh, const ContactSurface& surface, AreaWeighting weighting);

}  // namespace jointdyn::fe
