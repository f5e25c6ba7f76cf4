// Parametric Gmsh meshes of the jointed structures of seed 003, in m: the friction bar
// (section 4.1), the multilayer sheet of the car pendulum (section 4.4.1) and the bolted
// connecting rod (section 4.2).
//
// The first two are stacks of flat sheets (length along x, width along y centred on y = 0,
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

// Seed 003 section 4.2 (fig. 4.16, table 4.1): the connecting rod of a single-cylinder
// engine, l_r = 150 mm between the bearing centres, with its big end split into the rod
// body and the bolted bearing cap. The seed gives l_r, the mass m_r = 1.03 kg and the
// preload direction (f_PL = [0, +-16 500, 0] N: the bolt axes along y); the other
// dimensions are this choice, a plausible steel rod of 1.029 kg (7850 kg/m^3).
//
// Axes: y along the rod from the big-end centre (the origin) to the small-end centre
// (0, l_r, 0); z along the crank and piston-pin axes; x across. The solid is made with
// Gmsh's OpenCASCADE kernel from prisms along z, each centred on z = 0:
// - big end, 26 mm thick: the bolt bosses (a 78 x 44 mm block centred on the origin)
//   fused with the eye (a disk of 64 mm diameter, rounding the cap's bottom and the rod's
//   shoulder), minus the bore of 44 mm (the crank pin's bearing);
// - small end, 24 mm thick: a ring of 38 / 22 mm diameter at y = l_r (the piston pin's);
// - shank, 28 mm wide and 18 mm thick: a bar from the top of the bosses (y = 22 mm) to the
//   small-end centre (its ends inside the eyes);
// - two bolts of 9 mm hole diameter at x = -31 mm (bolt 1) and +31 mm (bolt 2), parallel
//   to y: through the cap (y in [-22, 0] mm) and 16 mm deep into the rod (blind threaded
//   holes, y in [0, 16] mm).
// The split plane y = 0 through the big-end centre divides the solid into the rod body
// (y >= 0) and the cap (y <= 0). Each is meshed on its own (tetrahedra of about mesh_size,
// the cap of cap_size_ratio mesh_size), so their split faces have separate, non-coincident
// nodes (the seed's non-matching joint meshes), and contact pairing relates the two sides.
// The bores get at least 12 segments per circle (Gmsh's Mesh.MinimumCirclePoints).
//
// The screws are not meshed (the seed cuts each screw shaft and couples the two cut faces
// to centre nodes loaded by +-f_PL, so no force crosses the cut): this choice applies
// the same pair of forces where the screw's halves carry them, the head's half to the
// cap through the seat under the head, the threaded half to the rod through the thread's
// bore, each through a distributing coupling to a centre node on the bolt axis (the
// seed's 4 preload nodes). The screws' own stiffness and mass are left out.
//
// Blocks: rod, cap. Face sets (and node sets of the same name): rod_big_end_bore and
// cap_big_end_bore (the halves of the big-end bore), big_end_bore (both: the crank pin's
// coupling), small_end_bore, rod_split and cap_split (the joint's two sides on y = 0),
// and for the bolts k = 1, 2: bolt_<k>_cap_bore (the hole through the cap),
// bolt_<k>_rod_bore (the threaded hole's bore in the rod, where the threaded half of the
// screw pulls) and bolt_<k>_head (the annulus of head_diameter on the cap's bottom face
// y = -22 mm, where the head presses: its own surface, imprinted in the geometry).
//
// Mesh sizes (linear tets, measured with Gmsh 4.8): the default mesh_size 8 mm gives a
// coarse mesh for tests (1594 nodes, 5175 tets, 0.3 s); mesh_size 2.6 mm gives about the
// seed's mesh of 11 617 nodes and 51 702 tets (11 877 nodes, 49 452 tets, 1.3 s) but half
// its 631 joint pairs (326 nodes on the cap's split face); mesh_size 3.6 mm with joint_size
// 1.7 mm gives both: 11 963 nodes, 48 167 tets, 631 nodes on the cap's split face. The
// bolt holes' minimum of 12 segments dominates the joint's mesh at coarse sizes.
struct ConnectingRodOptions {
  double mesh_size = 8e-3;      // [m] element size in the rod body (> 0)
  double cap_size_ratio = 0.8;  // [-] the cap's element size / mesh_size (> 0)
  // [m] element size on the split faces (the joint; the cap's times cap_size_ratio), graded
  // into the parts; 0: mesh_size. In [mesh_size / 10, mesh_size].
  double joint_size = 0.0;
  ElementOrder order = ElementOrder::kLinear;  // tet4 or tet10
  bool verbose = false;                        // Gmsh's terminal output
  double length = 0.15;                        // [m] l_r, between the bearing centres
  double big_end_bore = 0.044;                 // [m] diameter
  double big_end_outer = 0.064;                // [m] diameter of the eye's rounding
  double big_end_width = 0.078;                // [m] across the bolt bosses (x)
  double big_end_height = 0.044;               // [m] of the bolt bosses (y), split in the middle
  double big_end_thickness = 0.026;            // [m] along z
  double small_end_bore = 0.022;               // [m] diameter
  double small_end_outer = 0.038;              // [m] diameter
  double small_end_thickness = 0.024;          // [m] along z
  double shank_width = 0.028;                  // [m] along x
  double shank_thickness = 0.018;              // [m] along z, <= both eyes' thicknesses
  double bolt_spacing = 0.062;                 // [m] between the two bolt axes
  double bolt_hole_diameter = 0.009;           // [m]
  double head_diameter = 0.014;                // [m] outer diameter of the seat under the head
  double thread_depth = 0.016;                 // [m] of the blind threaded holes in the rod
  void Validate() const;                       // throws InputError
};

Mesh BuildConnectingRod(const ConnectingRodOptions& options);

}  // namespace jointdyn::fe
