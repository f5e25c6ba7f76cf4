// Meshes from Nastran bulk data (.bdf, .nas, .dat): the mesh part of an MSC/NX Nastran or
// Optistruct model, so that a jointed structure meshed in Patran, HyperMesh or FEMAP runs in
// jointdyn. Materials, loads and constraints come from the jointdyn model file.
//
// What is read, in small field (8 characters), large field (16, cards ending in '*') and
// free field (commas) format, with continuation lines (a first field that is blank or
// starts with '+' or '*'):
// - GRID (ID, CP = 0 or blank, X1, X2, X3; CD is ignored: jointdyn's DOFs are global);
// - CTETRA (4 or 10 nodes: tet4, tet10) and CHEXA (8 or 20 nodes: hex8, hex20), their node
//   orders converted to Gmsh's (mesh.h); each property ID (PID) is an element block named
//   "pid_<PID>" (PSOLID's material comes from the model file);
// - SET1 (SID, node IDs and "THRU" ranges): the node set "set_<SID>";
// - RBE2 (EID, GN, CM = 123456, GM...) and RBE3 (EID, REFGRID, REFC = 123456, groups of WT,
//   C = 123, G...; no UM) whose GN or REFGRID is a GRID off the solid elements (a spider's
//   centre): the reference node "grid_<GN>" (loads, supports and outputs name it so), and
//   a rigid coupling (RBE2) or a distributing coupling with the weights WT (RBE3) to the
//   node set "rbe2_<EID>" or "rbe3_<EID>" of the tied grids (fe/constraints.h);
// - INCLUDE 'file' (relative to the including file), and only what lies between BEGIN BULK
//   and ENDDATA when the file has a BEGIN BULK.
// Every block is also a node set of its nodes. Only nodes used by elements are kept; GRID
// and element IDs are kept as the mesh's tags, so messages name them as the file does.
//
// Cards that carry a part of the model jointdyn would silently lose (rigid elements RBAR,
// MPC, wedges CPENTA, pyramids CPYRA, shells,
// beams, springs, masses) are one error listing them all with their lines; other cards
// (materials, properties, loads, constraints, case control) are ignored and counted in
// `ignored`.
#pragma once

#include <map>
#include <string>

#include "fe/mesh.h"

namespace jointdyn::fe {

// Reads `path` (extension .bdf, .nas or .dat). Throws InputError located at the file and
// line for anything it cannot use. `ignored` (when given) gets the cards left out with
// their counts.
Mesh ReadBdf(const std::string& path, std::map<std::string, int>* ignored = nullptr);

// Whether `path` has an extension ReadBdf takes.
bool IsBulkDataFile(const std::string& path);

}  // namespace jointdyn::fe
