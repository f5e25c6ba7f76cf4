// Meshes from Gmsh: reading a user .msh file (formats 2 and 4) into a Mesh, and the
// conversion of the meshed model of a GmshSession that the parametric builders share.
//
// Physical groups name everything (only elements in physical groups are read):
// - physical volumes (3D meshes) or physical surfaces (2D plane models, z = 0) become
//   element blocks, one element type each (tet4, tet10, hex8, hex20; quad4, quad8);
// - physical groups one dimension lower become face sets (tri3, tri6, quad4, quad8; line2,
//   line3 in 2D), each face oriented outward from the element it bounds (mesh_faces.h);
// - every physical group (points, curves, surfaces, volumes) also becomes a node set of
//   its nodes under the same name, for supports, couplings and contact surfaces.
// Unnamed groups are called "<volume|surface|curve|point>_<tag>". Nodes are the nodes used
// by these groups, indexed 0.. in the order of their Gmsh tags.
#pragma once

#include <string>

#include "fe/mesh.h"

namespace jointdyn::fe {

// Reads `path` (extension .msh). Throws InputError naming the file, the physical group or
// entity and the rule for unreadable files (also a file whose first line is not
// $MeshFormat: Gmsh would run it as a .geo script), missing physical groups, unsupported or mixed
// element types, faces that bound no element, and degenerate elements (zero or negative
// volume or area, coincident nodes: assembly.h). Entities are named by the file's tags and,
// for ASCII files, located at their line ("part.msh:123: element 57 (nodes ...)": Gmsh's
// API gives no line numbers, the file is scanned again for the message, msh_lines.h).
Mesh ReadMsh(const std::string& path, bool verbose = false);

// Converts the meshed model of the current GmshSession (see above); `source` names the
// file or builder in errors. `file`: the .msh file read, whose node and element tags the
// mesh keeps for messages (mesh.h); empty for builders (entities named by index).
Mesh MeshFromGmshModel(const std::string& source, const std::string& file = "");

}  // namespace jointdyn::fe
