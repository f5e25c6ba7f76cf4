// Meshes from Abaqus input files (.inp): the mesh part of a model that Abaqus/CAE or
// another pre-processor wrote, so that a jointed structure meshed there runs in jointdyn.
// Materials, sections' materials, steps, loads and boundary conditions come from the
// jointdyn model file; the .inp gives nodes, elements and sets.
//
// What is read (keywords and parameters are case-insensitive, as in Abaqus):
// - *NODE (label, x, y[, z]; NSET= adds the nodes to a node set);
// - *ELEMENT, TYPE= C3D4, C3D10 (tet4, tet10), C3D8 (hex8), C3D20 (hex20) with any of the
//   suffixes R, H, I, M, T, and CPS4/CPE4 (quad4), CPS8/CPE8 (quad8) for plane models
//   (z = 0); ELSET= adds the elements to an element set; data lines may continue on the next
//   line. Node orders are converted to Gmsh's (mesh.h);
// - *NSET and *ELSET (lists of labels, or GENERATE: first, last[, step]);
// - *SURFACE, TYPE=ELEMENT (element set or label, face S1..S6: an element-face surface,
//   oriented outward) and TYPE=NODE (node set or label: a node set);
// - *SOLID SECTION, ELSET=: each section's element set is an element block (one type, one
//   material in the model file). Without sections, the ELSET= of the *ELEMENT lines are the
//   blocks, and without those one block per element type (named by the TYPE as written);
// - *INCLUDE, INPUT= (relative to the including file);
// - *PART, *ASSEMBLY and one *INSTANCE without placement data (the flat case): set names
//   may carry the instance's prefix ("Part-1-1.Set-1").
// Every element set, node set and surface is also a node set of its nodes (as Gmsh's
// physical groups are), and a node set and an element set of one name (as Abaqus/CAE
// writes them) are joined. Only nodes used by elements are kept; node and element labels
// are kept as the mesh's tags, so messages name them as the file does.
//
// Keywords that define constraints the mesh would silently lose (*TIE, *COUPLING, *MPC,
// *EQUATION, *RIGID BODY, *KINEMATIC COUPLING, *DISTRIBUTING COUPLING, *TRANSFORM) are one
// error listing them all; other keywords (materials, steps, loads, outputs, contact
// definitions: the model file says those) are ignored and counted in `ignored`.
#pragma once

#include <map>
#include <string>

#include "fe/mesh.h"

namespace jointdyn::fe {

// Reads `path` (extension .inp). Throws InputError located at the file and line for
// anything it cannot use: unknown element types, missing nodes or elements, malformed data
// lines, a face a surface names that its element does not have, blocks of mixed types,
// degenerate elements. `ignored` (when given) gets the keywords left out with their counts.
Mesh ReadInp(const std::string& path, std::map<std::string, int>* ignored = nullptr);

}  // namespace jointdyn::fe
