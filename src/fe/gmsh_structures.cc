#include "fe/gmsh_structures.h"

#include <gmsh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>

#include "core/error.h"
#include "fe/gmsh_mesh.h"
#include "fe/gmsh_session.h"
#include "fe/structured_mesh.h"

namespace jointdyn::fe {
namespace {

// One sheet of a stack: x in [x0, x1], z in [z0, z0 + t], element size h [m].
struct SheetSpec {
  std::string name;
  double x0, x1, z0, t, h;
};

// A face set: the boundary surfaces of one sheet that lie inside a box [m].
struct FaceRequest {
  std::string name;
  int sheet;
  double x0, x1, y0, y1, z0, z1;
};

struct StackSpec {
  std::string source;  // names the structure in messages
  double width = 0.0;  // [m]
  double hole_radius = 0.0;
  std::vector<double> holes;  // [m] x of the hole centres (through every sheet there)
  std::vector<double> cuts;   // [m] extra x positions where the layout is split
  std::vector<SheetSpec> sheets;
  std::vector<FaceRequest> faces;
};

int Count(double length, double h, int minimum) {
  return std::max(minimum, static_cast<int>(std::lround(length / h)));
}

// The planar, transfinite layout of one sheet at z = z0 in Gmsh's built-in kernel.
class Layout {
 public:
  Layout(double z, bool recombine) : z_(z), recombine_(recombine) {}

  int Point(double x, double y) {
    const auto key = std::make_pair(x, y);
    if (const auto it = points_.find(key); it != points_.end()) return it->second;
    return points_[key] = gmsh::model::geo::addPoint(x, y, z_);
  }
  // A straight or circular (about `center`) curve from p to q with `nodes` nodes; the
  // tag is negative when an existing curve is used in reverse.
  int Curve(int p, int q, int nodes, int center = -1) {
    if (const auto it = curves_.find({p, q}); it != curves_.end()) return it->second;
    if (const auto it = curves_.find({q, p}); it != curves_.end()) return -it->second;
    const int tag =
        center < 0 ? gmsh::model::geo::addLine(p, q) : gmsh::model::geo::addCircleArc(p, center, q);
    gmsh::model::geo::mesh::setTransfiniteCurve(tag, nodes);
    return curves_[{p, q}] = tag;
  }
  // A four-sided transfinite surface with corners a, b, c, d (counterclockwise).
  void Surface(const std::vector<int>& curves, const std::vector<int>& corners) {
    const int loop = gmsh::model::geo::addCurveLoop(curves);
    const int tag = gmsh::model::geo::addPlaneSurface({loop});
    gmsh::model::geo::mesh::setTransfiniteSurface(tag, "Left", corners);
    if (recombine_) gmsh::model::geo::mesh::setRecombine(2, tag);
    surfaces_.emplace_back(2, tag);
  }
  const gmsh::vectorpair& surfaces() const { return surfaces_; }

 private:
  double z_;
  bool recombine_;
  std::map<std::pair<double, double>, int> points_;
  std::map<std::pair<int, int>, int> curves_;
  gmsh::vectorpair surfaces_;
};

// Meshes one sheet of `spec` in its own Gmsh session and converts it.
Mesh BuildSheet(const StackSpec& spec, int s, const SheetMeshOptions& options) {
  const SheetSpec& sheet = spec.sheets[s];
  GmshSession session(options.verbose);
  const bool hex = options.shape == CellShape::kHex;
  const double w = spec.width, r = spec.hole_radius, h = sheet.h;
  // Split positions: sheet ends, every other sheet's ends and cuts inside, hole cells.
  std::vector<double> xs = {sheet.x0, sheet.x1};
  auto add_inside = [&](double x) {
    if (x > sheet.x0 && x < sheet.x1) xs.push_back(x);
  };
  for (const SheetSpec& other : spec.sheets) add_inside(other.x0), add_inside(other.x1);
  for (double x : spec.cuts) add_inside(x);
  for (double c : spec.holes) add_inside(c - 0.5 * w), add_inside(c + 0.5 * w);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());

  Layout layout(sheet.z0, hex);
  const int n_side = Count(w, h, 2) + 1;  // nodes across the width (and on hole arcs)
  for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
    const double xa = xs[i], xb = xs[i + 1], c = 0.5 * (xa + xb);
    const bool hole = std::any_of(spec.holes.begin(), spec.holes.end(),
                                  [&](double x) { return std::abs(x - c) < 1e-9 * w; });
    const int s0 = layout.Point(xa, -0.5 * w), s1 = layout.Point(xb, -0.5 * w);
    const int s2 = layout.Point(xb, 0.5 * w), s3 = layout.Point(xa, 0.5 * w);
    if (!hole) {
      const int n_x = Count(xb - xa, h, 1) + 1;
      layout.Surface({layout.Curve(s0, s1, n_x), layout.Curve(s1, s2, n_side),
                      layout.Curve(s2, s3, n_x), layout.Curve(s3, s0, n_side)},
                     {s0, s1, s2, s3});
      continue;
    }
    // O-grid: four patches between the square cell and the bore, split on the diagonals.
    const int center = layout.Point(c, 0.0);
    const int n_radial = Count(std::sqrt(0.5) * w - r, h, 1) + 1;
    const std::vector<int> square = {s0, s1, s2, s3};
    std::vector<int> circle;
    for (int k = 0; k < 4; ++k) {
      const double angle = std::numbers::pi * (-0.75 + 0.5 * k);
      circle.push_back(layout.Point(c + r * std::cos(angle), r * std::sin(angle)));
    }
    for (int k = 0; k < 4; ++k) {
      const int k1 = (k + 1) % 4;
      layout.Surface({layout.Curve(square[k], square[k1], n_side),
                      layout.Curve(square[k1], circle[k1], n_radial),
                      layout.Curve(circle[k1], circle[k], n_side, center),
                      layout.Curve(circle[k], square[k], n_radial)},
                     {square[k], square[k1], circle[k1], circle[k]});
    }
  }
  gmsh::vectorpair extruded;
  gmsh::model::geo::extrude(layout.surfaces(), 0.0, 0.0, sheet.t, extruded, {Count(sheet.t, h, 1)},
                            {}, hex);
  gmsh::model::geo::synchronize();

  gmsh::vectorpair volumes;
  for (const auto& dim_tag : extruded) {
    if (dim_tag.first == 3) volumes.push_back(dim_tag);
  }
  std::vector<int> volume_tags;
  for (const auto& dim_tag : volumes) volume_tags.push_back(dim_tag.second);
  gmsh::model::setPhysicalName(3, gmsh::model::addPhysicalGroup(3, volume_tags), sheet.name);
  gmsh::vectorpair boundary;
  gmsh::model::getBoundary(volumes, boundary, /*combined=*/true, /*oriented=*/false);
  const double eps = 1e-6 * w;
  for (const FaceRequest& request : spec.faces) {
    if (request.sheet != s) continue;
    std::vector<int> tags;
    for (const auto& [dim, tag] : boundary) {
      double x0, y0, z0, x1, y1, z1;
      gmsh::model::getBoundingBox(dim, std::abs(tag), x0, y0, z0, x1, y1, z1);
      if (x0 >= request.x0 - eps && x1 <= request.x1 + eps && y0 >= request.y0 - eps &&
          y1 <= request.y1 + eps && z0 >= request.z0 - eps && z1 <= request.z1 + eps)
        tags.push_back(std::abs(tag));
    }
    JD_CHECK(!tags.empty(), spec.source + ": no surface for face set " + request.name);
    gmsh::model::setPhysicalName(2, gmsh::model::addPhysicalGroup(2, tags), request.name);
  }

  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.SecondOrderIncomplete", 1);  // hex20: serendipity
  gmsh::option::setNumber("Mesh.SecondOrderLinear", 0);      // mid nodes on the bores
  gmsh::model::mesh::generate(3);
  if (options.order == ElementOrder::kQuadratic) gmsh::model::mesh::setOrder(2);
  if (const std::vector<std::string> errors = session.Errors(); !errors.empty())
    throw InputError(spec.source, sheet.name, "Gmsh failed to mesh the sheet: " + errors.front());
  return MeshFromGmshModel(spec.source + " (" + sheet.name + ")");
}

// One sheet of a planar stack: a structured rectangle of quadrilaterals in x and y (the
// spec's z), with the face requests on that sheet as sets of its boundary edges.
Mesh BuildPlanarSheet(const StackSpec& spec, int s, const SheetMeshOptions& options) {
  const SheetSpec& sheet = spec.sheets[s];
  RectangleMeshOptions r;
  r.size = Vec2(sheet.x1 - sheet.x0, sheet.t);
  r.divisions = {Count(sheet.x1 - sheet.x0, sheet.h, 1), Count(sheet.t, sheet.h, 1)};
  r.type = options.order == ElementOrder::kLinear ? ElementType::kQuad4 : ElementType::kQuad8;
  r.block = sheet.name;
  Mesh rectangle = MakeRectangleMesh(r);
  rectangle.nodes.col(0).array() += sheet.x0;
  rectangle.nodes.col(1).array() += sheet.z0;
  Mesh part;
  part.dim = 2;
  part.nodes = rectangle.nodes;
  part.blocks = rectangle.blocks;
  FaceSet edges{rectangle.face_sets.at("xmin").type, {}};
  for (const char* side : {"xmin", "xmax", "ymin", "ymax"}) {
    const std::vector<int>& c = rectangle.face_sets.at(side).connectivity;
    edges.connectivity.insert(edges.connectivity.end(), c.begin(), c.end());
  }
  const double eps = 1e-6 * sheet.h;
  const int per_edge = NodesPerElement(edges.type);
  for (const FaceRequest& request : spec.faces) {
    if (request.sheet != s) continue;
    FaceSet selected{edges.type, {}};
    for (int f = 0; f < edges.size(); ++f) {
      const int* edge = edges.face(f);
      const bool inside = std::all_of(edge, edge + per_edge, [&](int n) {
        const double x = part.nodes(n, 0), y = part.nodes(n, 1);
        return x >= request.x0 - eps && x <= request.x1 + eps && y >= request.z0 - eps &&
               y <= request.z1 + eps;
      });
      if (inside) selected.connectivity.insert(selected.connectivity.end(), edge, edge + per_edge);
    }
    if (selected.size() == 0)
      throw InputError("size", FormatValue(options.mesh_size),
                       "too coarse for the face set " + request.name + " of " + spec.source +
                           ": no element edge lies in it; use an element size of at most its "
                           "length");
    part.face_sets[request.name] = std::move(selected);
    part.node_sets[request.name] = part.FaceSetNodes(request.name);
  }
  return part;
}

// Appends `part` (its own nodes) to `mesh`.
void Append(Mesh& mesh, const Mesh& part) {
  const int offset = mesh.num_nodes();
  mesh.nodes.conservativeResize(offset + part.num_nodes(), 3);
  mesh.nodes.bottomRows(part.num_nodes()) = part.nodes;
  auto shifted = [offset](std::vector<int> indices) {
    for (int& i : indices) i += offset;
    return indices;
  };
  for (const ElementBlock& block : part.blocks)
    mesh.blocks.push_back({block.name, block.type, shifted(block.connectivity)});
  for (const auto& [name, set] : part.node_sets) mesh.node_sets[name] = shifted(set);
  for (const auto& [name, set] : part.face_sets)
    mesh.face_sets[name] = {set.type, shifted(set.connectivity)};
}

// Throws InputError at `size` for sheets meshed too finely for int indices or the
// machine's memory, counted as structured lattices of cells of the sheets' sizes (tets: 6
// per cell), before Gmsh is asked (and before Count() rounds to int).
void CheckStackSize(const StackSpec& spec, const SheetMeshOptions& options) {
  const bool linear = options.order == ElementOrder::kLinear;
  const bool planar = options.shape == CellShape::kQuad;
  const ElementType type = options.shape == CellShape::kHex
                               ? (linear ? ElementType::kHex8 : ElementType::kHex20)
                           : planar ? (linear ? ElementType::kQuad4 : ElementType::kQuad8)
                                    : (linear ? ElementType::kTet4 : ElementType::kTet10);
  LatticeCounts total;
  for (const SheetSpec& sheet : spec.sheets) {
    const double length = std::max(1.0, std::round((sheet.x1 - sheet.x0) / sheet.h));
    const double through = std::max(1.0, std::round(sheet.t / sheet.h));
    const double cells[3] = {
        length, planar ? through : std::max(2.0, std::round(spec.width / sheet.h)), through};
    const LatticeCounts counts = StructuredMeshCounts(planar ? 2 : 3, cells, type, 6);
    total.nodes += counts.nodes;
    total.elements += counts.elements;
  }
  CheckMeshSize("size", FormatValue(options.mesh_size), total.nodes, total.elements, type);
}

Mesh BuildStack(const StackSpec& spec, const SheetMeshOptions& options) {
  CheckStackSize(spec, options);
  const bool planar = options.shape == CellShape::kQuad;
  Mesh mesh;
  mesh.dim = planar ? 2 : 3;
  for (int s = 0; s < static_cast<int>(spec.sheets.size()); ++s)
    Append(mesh, planar ? BuildPlanarSheet(spec, s, options) : BuildSheet(spec, s, options));
  if (const Status status = mesh.Validate(spec.source); !status.ok)
    throw InputError("", "", status.message);
  return mesh;
}

void RequirePositive(const char* key, double value) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw InputError(key, FormatValue(value), "must be > 0 and finite");
}

constexpr double kBig = 1e30;  // [m] an unbounded side of a face-set box

// Adds the face set (and node set) `name`: the faces of `surface` whose corner centroid
// lies within `radius` of the axis (x, y) = (`x`, 0) [m]. None (a mesh of element size
// `mesh_size` too coarse for the circle) is an InputError at the size.
void AddFacesNearAxis(Mesh& mesh, const std::string& surface, const std::string& name, double x,
                      double radius, double mesh_size) {
  const FaceSet& faces = mesh.face_sets.at(surface);
  const int corners = faces.type == ElementType::kTri3 || faces.type == ElementType::kTri6 ? 3 : 4;
  FaceSet selected{faces.type, {}};
  const int per_face = NodesPerElement(faces.type);
  for (int f = 0; f < faces.size(); ++f) {
    const int* face = faces.face(f);
    double cx = 0.0, cy = 0.0;
    for (int c = 0; c < corners; ++c) cx += mesh.nodes(face[c], 0), cy += mesh.nodes(face[c], 1);
    if (std::hypot(cx / corners - x, cy / corners) <= radius)
      selected.connectivity.insert(selected.connectivity.end(), face, face + per_face);
  }
  if (selected.size() == 0)
    throw InputError("size", FormatValue(mesh_size),
                     "too coarse for the face set " + name + ": no face of " + surface +
                         " has its centroid within the washer radius " + FormatValue(radius) +
                         " m of x = " + FormatValue(x) +
                         " m; use an element size of about the washer radius or less");
  mesh.face_sets[name] = std::move(selected);
  mesh.node_sets[name] = mesh.FaceSetNodes(name);
}

// Adds the face set (and node set) `name`: the faces of the face sets `parts` (one type).
void AddUnion(Mesh& mesh, const std::string& name, const std::vector<std::string>& parts) {
  FaceSet all{mesh.face_sets.at(parts[0]).type, {}};
  for (const std::string& part : parts) {
    const std::vector<int>& c = mesh.face_sets.at(part).connectivity;
    all.connectivity.insert(all.connectivity.end(), c.begin(), c.end());
  }
  mesh.face_sets[name] = std::move(all);
  mesh.node_sets[name] = mesh.FaceSetNodes(name);
}

}  // namespace

void SheetMeshOptions::Validate() const {
  RequirePositive("mesh_size", mesh_size);
  RequirePositive("size_ratio", size_ratio);
  if (non_matching && std::abs(size_ratio - 1.0) < 1e-3)
    throw InputError("size_ratio", FormatValue(size_ratio),
                     "must differ from 1 for non-matching meshes");
}

void FrictionBarOptions::Validate() const {
  mesh.Validate();
  if (mesh.shape == CellShape::kQuad)
    throw InputError("element", "quad", "the friction bar is a solid: hex8, hex20, tet4 or tet10");
  RequirePositive("sheet_length", sheet_length);
  RequirePositive("width", width);
  RequirePositive("thickness", thickness);
  RequirePositive("hole_diameter", hole_diameter);
  if (!(total_length > sheet_length && total_length < 2.0 * sheet_length))
    throw InputError("total_length", FormatValue(total_length),
                     "must lie between sheet_length and 2 sheet_length (the sheets overlap)");
  if (hole_diameter >= 0.8 * width)
    throw InputError("hole_diameter", FormatValue(hole_diameter), "must be < 0.8 width");
  if (washer_diameter != 0.0 && !(washer_diameter > hole_diameter && washer_diameter < width &&
                                  std::isfinite(washer_diameter)))
    throw InputError("washer_diameter", FormatValue(washer_diameter),
                     "must lie between hole_diameter and width (0: 2 hole_diameter)");
  if (washer_diameter == 0.0 && 2.0 * hole_diameter >= width)
    throw InputError("hole_diameter", FormatValue(hole_diameter),
                     "the default washer_diameter 2 hole_diameter must be < width: give "
                     "washer_diameter");
  const double joint0 = total_length - sheet_length;
  std::vector<double> sorted = hole_x;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    // Each hole sits in a square cell of side `width` inside the joint, cells apart.
    const double lower = k == 0 ? joint0 : sorted[k - 1] + 0.5 * width;
    if (sorted[k] - 0.5 * width < lower - 1e-12 || sorted[k] + 0.5 * width > sheet_length + 1e-12)
      throw InputError("hole_x", FormatValue(sorted[k]),
                       "hole cells (width x width around each hole) must lie in the joint [" +
                           FormatValue(joint0) + ", " + FormatValue(sheet_length) +
                           "] m without overlapping");
  }
}

double FrictionBarOptions::WasherDiameter() const {
  return washer_diameter != 0.0 ? washer_diameter : 2.0 * hole_diameter;
}

ConstraintSpec RigidlyBoltedFrictionBar(const FrictionBarOptions& options) {
  options.Validate();
  if (options.hole_x.size() != 4)
    throw InputError("hole_x", std::to_string(options.hole_x.size()) + " holes",
                     "rigid bolts sit in the middle two of 4 holes");
  std::vector<double> holes = options.hole_x;
  std::sort(holes.begin(), holes.end());
  ConstraintSpec spec;
  spec.reference_nodes = {{"tip", Vec3(options.total_length, 0.0, 0.5 * options.thickness)}};
  spec.supports = {{"clamp", {}}};
  spec.couplings = {{CouplingKind::kRigid, "tip", "load"}};
  for (int k : {2, 3}) {
    const std::string bolt = "bolt_" + std::to_string(k), hole = "_hole_" + std::to_string(k);
    spec.reference_nodes.push_back({bolt, Vec3(holes[k - 1], 0.0, 0.0)});
    for (const char* sheet : {"sheet_1", "sheet_2"})
      spec.couplings.push_back({CouplingKind::kRigid, bolt, sheet + hole});
  }
  return spec;
}

Mesh BuildFrictionBar(const FrictionBarOptions& options) {
  options.Validate();
  const SheetMeshOptions& m = options.mesh;
  const double t = options.thickness, r = 0.5 * options.hole_diameter;
  const double joint0 = options.total_length - options.sheet_length;
  const double h2 = m.non_matching ? m.mesh_size * m.size_ratio : m.mesh_size;
  StackSpec spec;
  spec.source = "friction bar";
  spec.width = options.width;
  spec.hole_radius = r;
  spec.holes = options.hole_x;
  std::sort(spec.holes.begin(), spec.holes.end());
  spec.sheets = {{"sheet_1", 0.0, options.sheet_length, -t, t, m.mesh_size},
                 {"sheet_2", joint0, options.total_length, 0.0, t, h2}};
  spec.faces = {
      {"clamp", 0, 0.0, 0.0, -kBig, kBig, -kBig, kBig},
      {"load", 1, options.total_length, options.total_length, -kBig, kBig, -kBig, kBig},
      {"sheet_1_joint", 0, joint0, options.sheet_length, -kBig, kBig, 0.0, 0.0},
      {"sheet_2_joint", 1, joint0, options.sheet_length, -kBig, kBig, 0.0, 0.0},
      {"sheet_1_bottom", 0, -kBig, kBig, -kBig, kBig, -t, -t},
      {"sheet_2_top", 1, -kBig, kBig, -kBig, kBig, t, t},
  };
  for (int s = 0; s < 2; ++s) {
    for (std::size_t k = 0; k < spec.holes.size(); ++k) {
      const double c = spec.holes[k];
      spec.faces.push_back({"sheet_" + std::to_string(s + 1) + "_hole_" + std::to_string(k + 1), s,
                            c - r, c + r, -r, r, -kBig, kBig});
    }
  }
  Mesh mesh = BuildStack(spec, m);
  for (std::size_t k = 0; k < spec.holes.size(); ++k) {
    const std::string hole = std::to_string(k + 1);
    const double radius = 0.5 * options.WasherDiameter();
    for (const auto& [surface, name] : {std::pair{"sheet_1_bottom", "sheet_1_washer_"},
                                        std::pair{"sheet_2_top", "sheet_2_washer_"}})
      AddFacesNearAxis(mesh, surface, name + hole, spec.holes[k], radius, options.mesh.mesh_size);
  }
  return mesh;
}

void MultilayerSheetOptions::Validate() const {
  mesh.Validate();
  if (mesh.shape == CellShape::kQuad && mesh.non_matching)
    throw InputError("non_matching", "true", "applies to solid sheets only (hex or tet elements)");
  RequirePositive("outer_length", outer_length);
  RequirePositive("width", width);
  RequirePositive("thickness", thickness);
  RequirePositive("connection_length", connection_length);
  if (central_length < outer_length)
    throw InputError("central_length", FormatValue(central_length), "must be >= outer_length");
  for (double x : connection_x) {
    if (x - 0.5 * connection_length <= 0.0 || x + 0.5 * connection_length >= outer_length)
      throw InputError("connection_x", FormatValue(x),
                       "connection patches must lie inside (0, outer_length)");
  }
}

Mesh BuildMultilayerSheet(const MultilayerSheetOptions& options) {
  options.Validate();
  const SheetMeshOptions& m = options.mesh;
  const double t = options.thickness, l = options.outer_length;
  const double h2 = m.non_matching ? m.mesh_size * m.size_ratio : m.mesh_size;
  StackSpec spec;
  spec.source = "multilayer sheet";
  spec.width = options.width;
  spec.sheets = {{"lower", 0.0, l, -1.5 * t, t, m.mesh_size},
                 {"central", 0.0, options.central_length, -0.5 * t, t, h2},
                 {"upper", 0.0, l, 0.5 * t, t, m.mesh_size}};
  for (int s = 0; s < 3; ++s) {
    const SheetSpec& sheet = spec.sheets[s];
    spec.faces.push_back({sheet.name + "_clamp", s, 0.0, 0.0, -kBig, kBig, -kBig, kBig});
    spec.faces.push_back({sheet.name + "_end", s, sheet.x1, sheet.x1, -kBig, kBig, -kBig, kBig});
  }
  spec.faces.push_back({"lower_top", 0, 0.0, l, -kBig, kBig, -0.5 * t, -0.5 * t});
  spec.faces.push_back({"central_bottom", 1, 0.0, l, -kBig, kBig, -0.5 * t, -0.5 * t});
  spec.faces.push_back({"central_top", 1, 0.0, l, -kBig, kBig, 0.5 * t, 0.5 * t});
  spec.faces.push_back({"upper_bottom", 2, 0.0, l, -kBig, kBig, 0.5 * t, 0.5 * t});
  for (std::size_t k = 0; k < options.connection_x.size(); ++k) {
    const double a = options.connection_x[k] - 0.5 * options.connection_length;
    const double b = options.connection_x[k] + 0.5 * options.connection_length;
    spec.cuts.push_back(a);
    spec.cuts.push_back(b);
    const std::string name = "connection_" + std::to_string(k + 1);
    spec.faces.push_back({name + "_lower", 0, a, b, -kBig, kBig, -1.5 * t, -1.5 * t});
    spec.faces.push_back({name + "_upper", 2, a, b, -kBig, kBig, 1.5 * t, 1.5 * t});
  }
  Mesh mesh = BuildStack(spec, m);
  // Both interfaces as one contact: the outer sheets' faces and the central sheet's.
  AddUnion(mesh, "outer_faces", {"lower_top", "upper_bottom"});
  AddUnion(mesh, "central_faces", {"central_bottom", "central_top"});
  return mesh;
}

namespace {

// The x of the bolt axes (bolt 1, bolt 2) [m].
std::array<double, 2> BoltX(const ConnectingRodOptions& o) {
  return {-0.5 * o.bolt_spacing, 0.5 * o.bolt_spacing};
}

// The whole rod in the OpenCASCADE kernel (see the header): the eyes and the shank fused,
// the bores and the bolt holes cut out. Returns its volume(s).
gmsh::vectorpair AddConnectingRodSolid(const ConnectingRodOptions& o) {
  namespace occ = gmsh::model::occ;
  const double b = 0.5 * o.big_end_width, h = 0.5 * o.big_end_height, l = o.length;
  const double tb = o.big_end_thickness, ts = o.small_end_thickness, w = o.shank_width;
  const int bosses = occ::addBox(-b, -h, -0.5 * tb, 2.0 * b, 2.0 * h, tb);
  const int eye = occ::addCylinder(0.0, 0.0, -0.5 * tb, 0.0, 0.0, tb, 0.5 * o.big_end_outer);
  const int small = occ::addCylinder(0.0, l, -0.5 * ts, 0.0, 0.0, ts, 0.5 * o.small_end_outer);
  const int shank = occ::addBox(-0.5 * w, h, -0.5 * o.shank_thickness, w, l - h, o.shank_thickness);
  gmsh::vectorpair solid, holes, rod;
  std::vector<gmsh::vectorpair> map;
  occ::fuse({{3, bosses}}, {{3, eye}, {3, small}, {3, shank}}, solid, map);
  // The bores pass beyond the eyes' faces; each bolt hole runs from below the cap to the
  // bottom of its blind thread in the rod.
  holes.emplace_back(3, occ::addCylinder(0.0, 0.0, -tb, 0.0, 0.0, 2.0 * tb, 0.5 * o.big_end_bore));
  holes.emplace_back(3, occ::addCylinder(0.0, l, -ts, 0.0, 0.0, 2.0 * ts, 0.5 * o.small_end_bore));
  for (double x : BoltX(o)) {
    holes.emplace_back(3, occ::addCylinder(x, -2.0 * h, 0.0, 0.0, 2.0 * h + o.thread_depth, 0.0,
                                           0.5 * o.bolt_hole_diameter));
  }
  occ::cut(solid, holes, rod, map);
  return rod;
}

// Imprints the seats under the screw heads on the cap's bottom: the cap is fragmented
// with a cylinder of head_diameter around each bolt axis through the cap, so that the
// annulus on y = -big_end_height / 2 is a surface of its own (the cap's volume is then
// several volumes with conforming common faces). Returns the cap's volumes.
gmsh::vectorpair ImprintHeadSeats(const ConnectingRodOptions& o, const gmsh::vectorpair& cap) {
  namespace occ = gmsh::model::occ;
  const double h = 0.5 * o.big_end_height;
  gmsh::vectorpair seats, pieces, kept, outside;
  for (double x : BoltX(o))
    seats.emplace_back(3, occ::addCylinder(x, -h, 0.0, 0.0, h, 0.0, 0.5 * o.head_diameter));
  std::vector<gmsh::vectorpair> map;
  occ::fragment(cap, seats, pieces, map);
  for (std::size_t i = 0; i < cap.size(); ++i)
    kept.insert(kept.end(), map[i].begin(), map[i].end());
  for (const auto& piece : pieces) {  // the seat cylinders' cores inside the bolt holes
    if (std::find(kept.begin(), kept.end(), piece) == kept.end()) outside.push_back(piece);
  }
  occ::remove(outside, /*recursive=*/true);
  return kept;
}

// A face set of a part: its boundary surfaces of Gmsh type `type` ("Plane", "Cylinder")
// whose bounding boxes lie inside the box [m].
struct SurfaceRequest {
  std::string name, type;
  double x0, x1, y0, y1, z0, z1;
};

// The face sets of the rod body (cap false) or the cap (see the header).
std::vector<SurfaceRequest> RodPartSurfaces(const ConnectingRodOptions& o, bool cap) {
  const double rb = 0.5 * o.big_end_bore, rs = 0.5 * o.small_end_bore, h = 0.5 * o.big_end_height;
  const double rh = 0.5 * o.bolt_hole_diameter, rw = 0.5 * o.head_diameter, l = o.length;
  const std::string part = cap ? "cap" : "rod";
  std::vector<SurfaceRequest> requests = {
      {part + "_big_end_bore", "Cylinder", -rb, rb, -rb, rb, -kBig, kBig},
      {part + "_split", "Plane", -kBig, kBig, 0.0, 0.0, -kBig, kBig}};
  if (!cap)
    requests.push_back({"small_end_bore", "Cylinder", -rs, rs, l - rs, l + rs, -kBig, kBig});
  const std::array<double, 2> x = BoltX(o);
  for (int k = 0; k < 2; ++k) {
    const std::string bolt = "bolt_" + std::to_string(k + 1);
    if (cap) {
      requests.push_back({bolt + "_cap_bore", "Cylinder", x[k] - rh, x[k] + rh, -h, 0.0, -rh, rh});
      requests.push_back({bolt + "_head", "Plane", x[k] - rw, x[k] + rw, -h, -h, -rw, rw});
    } else {
      requests.push_back(
          {bolt + "_rod_bore", "Cylinder", x[k] - rh, x[k] + rh, 0.0, o.thread_depth, -rh, rh});
    }
  }
  return requests;
}

// Adds the physical surfaces of `requests` on the boundary of `volumes`.
void AddRodSurfaceGroups(const gmsh::vectorpair& volumes,
                         const std::vector<SurfaceRequest>& requests, double eps) {
  gmsh::vectorpair boundary;
  gmsh::model::getBoundary(volumes, boundary, /*combined=*/true, /*oriented=*/false);
  for (const SurfaceRequest& r : requests) {
    std::vector<int> tags;
    for (const auto& [dim, tag] : boundary) {
      std::string type;
      gmsh::model::getType(dim, std::abs(tag), type);
      double x0, y0, z0, x1, y1, z1;
      gmsh::model::getBoundingBox(dim, std::abs(tag), x0, y0, z0, x1, y1, z1);
      if (type == r.type && x0 >= r.x0 - eps && x1 <= r.x1 + eps && y0 >= r.y0 - eps &&
          y1 <= r.y1 + eps && z0 >= r.z0 - eps && z1 <= r.z1 + eps)
        tags.push_back(std::abs(tag));
    }
    JD_CHECK(!tags.empty(), "connecting rod: no surface for face set " + r.name);
    gmsh::model::setPhysicalName(2, gmsh::model::addPhysicalGroup(2, tags), r.name);
  }
}

// The points of the physical surface `name`.
gmsh::vectorpair FacePoints(const std::string& name) {
  gmsh::vectorpair groups, surfaces, points;
  gmsh::model::getPhysicalGroups(groups, 2);
  for (const auto& [dim, tag] : groups) {
    std::string group;
    gmsh::model::getPhysicalName(dim, tag, group);
    if (group != name) continue;
    std::vector<int> tags;
    gmsh::model::getEntitiesForPhysicalGroup(dim, tag, tags);
    for (const int t : tags) surfaces.emplace_back(2, t);
  }
  gmsh::model::getBoundary(surfaces, points, /*combined=*/false, /*oriented=*/false,
                           /*recursive=*/true);
  return points;
}

// Meshes the rod body (cap false: y >= 0) or the cap (y <= 0) in a Gmsh session of its
// own, so that the two never share nodes.
Mesh BuildRodPart(const ConnectingRodOptions& o, bool cap) {
  namespace occ = gmsh::model::occ;
  GmshSession session(o.verbose);
  const gmsh::vectorpair rod = AddConnectingRodSolid(o);
  const double far = 2.0 * (o.length + o.big_end_width);  // beyond the rod on every side
  const int half = occ::addBox(-far, cap ? -far : 0.0, -far, 2.0 * far, far, 2.0 * far);
  gmsh::vectorpair part;
  std::vector<gmsh::vectorpair> map;
  occ::intersect(rod, {{3, half}}, part, map);
  if (cap) part = ImprintHeadSeats(o, part);
  occ::synchronize();

  const std::string name = cap ? "cap" : "rod";
  std::vector<int> volume_tags;
  for (const auto& dim_tag : part) volume_tags.push_back(dim_tag.second);
  gmsh::model::setPhysicalName(3, gmsh::model::addPhysicalGroup(3, volume_tags), name);
  // OpenCASCADE's bounding boxes are loose by its tolerance (1e-7 m): compare to a
  // fraction of the smallest feature.
  AddRodSurfaceGroups(part, RodPartSurfaces(o, cap), 1e-3 * o.bolt_hole_diameter);

  gmsh::vectorpair points;
  gmsh::model::getBoundary(part, points, /*combined=*/false, /*oriented=*/false,
                           /*recursive=*/true);
  const double ratio = cap ? o.cap_size_ratio : 1.0;
  gmsh::model::mesh::setSize(points, ratio * o.mesh_size);
  if (o.joint_size > 0.0)
    gmsh::model::mesh::setSize(FacePoints(name + "_split"), ratio * o.joint_size);
  gmsh::option::setNumber("Mesh.MeshSizeMin", 0.0);
  gmsh::option::setNumber("Mesh.MeshSizeMax", 1e22);
  gmsh::option::setNumber("Mesh.MeshSizeFromPoints", 1);
  gmsh::option::setNumber("Mesh.MeshSizeFromCurvature", 0);
  gmsh::option::setNumber("Mesh.MeshSizeExtendFromBoundary", 1);
  gmsh::option::setNumber("Mesh.MinimumCirclePoints", 12);
  gmsh::option::setNumber("Mesh.Algorithm", 6);    // Frontal-Delaunay surfaces
  gmsh::option::setNumber("Mesh.Algorithm3D", 1);  // Delaunay volumes
  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.SecondOrderLinear", 0);  // tet10: mid nodes on the bores
  gmsh::model::mesh::generate(3);
  if (o.order == ElementOrder::kQuadratic) gmsh::model::mesh::setOrder(2);
  if (const std::vector<std::string> errors = session.Errors(); !errors.empty())
    throw InputError("connecting rod", name, "Gmsh failed to mesh the part: " + errors.front());
  return MeshFromGmshModel("connecting rod (" + name + ")");
}

// Throws InputError at `size` (the model-file key) before Gmsh is asked for a mesh too
// fine for int indices or the memory: counted as a lattice of cubes of the smaller element
// size over the rod's bounding box (tets: 6 per cube).
void CheckRodSize(const ConnectingRodOptions& o) {
  const double h = std::min(o.mesh_size, o.cap_size_ratio * o.mesh_size);
  const double extent = o.length + 0.5 * (o.big_end_outer + o.small_end_outer);
  const double cells[3] = {std::max(1.0, std::round(o.big_end_width / h)),
                           std::max(1.0, std::round(extent / h)),
                           std::max(1.0, std::round(o.big_end_thickness / h))};
  const ElementType type =
      o.order == ElementOrder::kLinear ? ElementType::kTet4 : ElementType::kTet10;
  const LatticeCounts counts = StructuredMeshCounts(3, cells, type, 6);
  CheckMeshSize("size", FormatValue(o.mesh_size), counts.nodes, counts.elements, type);
}

// Throws InputError at `key` unless lower < value < upper.
void RequireBetween(const char* key, double value, double lower, double upper,
                    const std::string& rule) {
  if (!(value > lower && value < upper)) throw InputError(key, FormatValue(value), rule);
}

}  // namespace

void ConnectingRodOptions::Validate() const {
  for (const auto& [key, value] : {std::pair{"mesh_size", mesh_size},
                                   {"cap_size_ratio", cap_size_ratio},
                                   {"length", length},
                                   {"big_end_bore", big_end_bore},
                                   {"big_end_outer", big_end_outer},
                                   {"big_end_width", big_end_width},
                                   {"big_end_height", big_end_height},
                                   {"big_end_thickness", big_end_thickness},
                                   {"small_end_bore", small_end_bore},
                                   {"small_end_outer", small_end_outer},
                                   {"small_end_thickness", small_end_thickness},
                                   {"shank_width", shank_width},
                                   {"shank_thickness", shank_thickness},
                                   {"bolt_spacing", bolt_spacing},
                                   {"bolt_hole_diameter", bolt_hole_diameter},
                                   {"head_diameter", head_diameter},
                                   {"thread_depth", thread_depth}})
    RequirePositive(key, value);
  if (joint_size != 0.0)
    RequireBetween("joint_size", joint_size, 0.1 * mesh_size * (1.0 - 1e-12),
                   mesh_size * (1.0 + 1e-12), "must be 0 (mesh_size) or in [size / 10, size]");
  const double ro = 0.5 * big_end_outer, h = 0.5 * big_end_height;
  RequireBetween("big_end_outer", big_end_outer, big_end_bore, big_end_width,
                 "must lie between big_end_bore and big_end_width (the bosses stand out)");
  RequireBetween("big_end_height", big_end_height, 0.0, big_end_outer,
                 "must be < big_end_outer (the eye rounds the cap)");
  RequireBetween("small_end_outer", small_end_outer, small_end_bore, kBig,
                 "must be > small_end_bore");
  RequireBetween("length", length, ro + 0.5 * small_end_outer, kBig,
                 "must exceed the eyes' outer radii (big_end_outer + small_end_outer) / 2");
  // The shank ends inside both eyes' roundings and is not thicker than either eye.
  RequireBetween("shank_width", shank_width, 0.0,
                 std::min(small_end_outer, 2.0 * std::sqrt(ro * ro - h * h)),
                 "must be < small_end_outer and fit under the eye's rounding");
  RequireBetween("shank_thickness", shank_thickness, 0.0,
                 std::min(big_end_thickness, small_end_thickness) * (1.0 + 1e-12),
                 "must be <= both eyes' thicknesses");
  // The bolt holes clear the bore; the seat under each head is a whole annulus on the flat
  // bottom of a boss.
  const double a = 0.5 * bolt_spacing;
  RequireBetween("bolt_spacing", bolt_spacing, big_end_bore + bolt_hole_diameter,
                 big_end_width - head_diameter,
                 "the bolt holes must clear the bore and the heads lie on the bosses");
  RequireBetween("head_diameter", head_diameter, bolt_hole_diameter,
                 std::min(big_end_thickness, 2.0 * (a - std::sqrt(ro * ro - h * h))),
                 "must exceed bolt_hole_diameter, fit in big_end_thickness and the flat "
                 "bottom of the bosses");
  RequireBetween("thread_depth", thread_depth, 0.0, h, "must be < big_end_height / 2");
}

Mesh BuildConnectingRod(const ConnectingRodOptions& options) {
  options.Validate();
  CheckRodSize(options);
  Mesh mesh;
  Append(mesh, BuildRodPart(options, false));
  Append(mesh, BuildRodPart(options, true));
  AddUnion(mesh, "big_end_bore", {"rod_big_end_bore", "cap_big_end_bore"});
  if (const Status status = mesh.Validate("connecting rod"); !status.ok)
    throw InputError("", "", status.message);
  return mesh;
}

}  // namespace jointdyn::fe
