// Parametric Gmsh meshes of the jointed structures of seed 003, in m: the friction bar
// (section 4.1) and the multilayer sheet of the car pendulum (section 4.4.1).
//
// Both are stacks of flat sheets (length along x, width along y centred on y = 0,
// thickness along z). Each sheet is its own element block with its own nodes, also where
// it touches its neighbour, so that contact pairing relates the two sides. The meshes are
// block-structured (transfinite) quadrilaterals in the x-y plane, O-grids around holes,
// extruded through the thickness: hex8/hex20, or tet4/tet10 (each extruded prism split
// into three tetrahedra). Conforming meshes use the same element size in every sheet,
// so the nodes of touching faces coincide; non-matching meshes scale the element size
// of every second sheet by `size_ratio`.
#pragma once

#include <string>
#include <vector>

#include "fe/constraints.h"
#include "fe/mesh.h"

namespace jointdyn::fe {

enum class ElementOrder { kLinear, kQuadratic };  // hex8/tet4, or hex20/tet10
// kQuad: a planar stack (2D, plane-stress quadrilaterals quad4/quad8 in x and y, the
// sheets stacked in y instead of z; the multilayer sheet only).
enum class CellShape { kHex, kTet, kQuad };

struct SheetMeshOptions {
  double mesh_size = 2e-3;  // [m] element edge length in the first sheet (> 0)
  ElementOrder order = ElementOrder::kLinear;
  CellShape shape = CellShape::kHex;
  bool non_matching = false;  // false: coincident nodes on touching faces
  double size_ratio = 1.5;    // [-] element size of sheets 2, 4, ... / mesh_size when
                              // non_matching (> 0, != 1)
  bool verbose = false;       // Gmsh's terminal output
  void Validate() const;      // throws InputError
};

// Seed 003 fig. 4.1 (the figure's dimensions beyond the text are not in the seed; the
// defaults are this choice): two steel sheets 200 x 20 x 3 mm, sheet 1 on x in [0, 200] mm,
// z in [-3, 0] mm, clamped at x = 0; sheet 2 on top (z in [0, 3] mm) shifted to x in
// [25, 225] mm (total length l_FB = 225 mm), loaded at x = 225 mm. The sheets touch in the
// joint x in [25, 200] mm. Four holes of diameter 5 mm pass through both sheets, equally
// spaced in the joint (x = 60, 95, 130, 165 mm): the two middle ones connect the sheets
// (bolt or beam couplings), the outer two are the preload areas PL1, PL2 of section 4.1.2.
// With steel (7850 kg/m^3) the sheets weigh 0.185 kg, the seed's m_FB.
//
// Blocks: sheet_1, sheet_2. Face sets (and node sets of the same name): clamp (x = 0 end of
// sheet 1), load (x = 225 mm end of sheet 2), sheet_1_joint (top of sheet 1 in the joint),
// sheet_2_joint (bottom of sheet 2 in the joint), sheet_<s>_hole_<k> (the bore of hole k =
// 1..4 from the clamp in sheet s), sheet_1_bottom and sheet_2_top (the outer faces, z = -t
// and z = t), sheet_1_washer_<k> and sheet_2_washer_<k> (the element faces of
// sheet_1_bottom / sheet_2_top whose corner centroid lies within washer_diameter / 2 of the
// axis of hole k: the area under a washer, where section 4.1.2 applies the preload through
// a distributing coupling; its boundary follows the element faces, not the circle).
struct FrictionBarOptions {
  SheetMeshOptions mesh;
  double sheet_length = 0.2;     // [m]
  double width = 0.02;           // [m]
  double thickness = 0.003;      // [m]
  double total_length = 0.225;   // [m] l_FB; the joint is 2 sheet_length - total_length long
  double hole_diameter = 0.005;  // [m] < 0.8 width
  std::vector<double> hole_x = {0.060, 0.095, 0.130, 0.165};  // [m] hole centres, in the joint
  double washer_diameter = 0.0;   // [m] outer diameter of the washer areas; 0: 2 hole_diameter;
                                  // else in (hole_diameter, width)
  double WasherDiameter() const;  // washer_diameter, or its default
  void Validate() const;          // throws InputError
};

Mesh BuildFrictionBar(const FrictionBarOptions& options);

// The friction bar held as in the seed's studies with rigid bolts: the clamp face supported,
// the load face rigidly coupled to the reference node "tip" at its centre, and both bores of
// each middle hole k (2 and 3 of 4) rigidly coupled to the reference node "bolt_k" on the
// hole axis in the joint plane.
ConstraintSpec RigidlyBoltedFrictionBar(const FrictionBarOptions& options);

// Seed 003 fig. 4.32 (2D there; here a solid): three steel sheets stacked in z, each
// `thickness` thick, all starting at x = 0 where they are fixed to the car: the lower
// sheet (z in [-3/2, -1/2] t) and the upper one (z in [1/2, 3/2] t), 300 x 20 x 1 mm,
// connected to each other at two locations (couplings between the connection patches on
// their outer faces, `connection_length` long, centred at connection_x = 100 and 250 mm:
// this choice fills in the figure), and the central sheet, 400 x 20 x 1 mm, held only by
// contact with both.
//
// Planar (mesh.shape kQuad): the same sheets as a 2D section, y taking the place of z (the
// width is then the materials' plane-stress thickness); each sheet is a structured
// rectangle of quadrilaterals with nodes coincident on touching edges, and the face sets
// are edges.
//
// Blocks: lower, central, upper. Face sets (and node sets): <sheet>_clamp (x = 0 ends),
// <sheet>_end (free ends), lower_top, central_bottom, central_top, upper_bottom (the
// contact faces over x in [0, 300] mm), outer_faces (lower_top and upper_bottom) and
// central_faces (central_bottom and central_top): both interfaces as one contact,
// connection_<k>_lower, connection_<k>_upper.
struct MultilayerSheetOptions {
  SheetMeshOptions mesh;
  double outer_length = 0.3;                       // [m]
  double central_length = 0.4;                     // [m] >= outer_length
  double width = 0.02;                             // [m]
  double thickness = 0.001;                        // [m] of each sheet
  std::vector<double> connection_x = {0.1, 0.25};  // [m] centres of the connection patches
  double connection_length = 0.01;                 // [m]
  void Validate() const;                           // throws InputError
};

Mesh BuildMultilayerSheet(const MultilayerSheetOptions& options);

}  // namespace jointdyn::fe
