#include "model/fe_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace jointdyn::model {
namespace {

using fe::ElementType;

// Element-size-driven divisions of `lengths`, or the listed ones, for elements of `type`:
// counted in double first, so that a mesh too large for int indices or the machine's memory
// is an error at divisions or size (fe::CheckMeshSize), never an overflow.
template <size_t N>
std::array<int, N> Divisions(const ModelNode& node, const std::vector<double>& lengths,
                             ElementType type, int tets_per_hex) {
  if (node.Has("divisions") == node.Has("size"))
    node.FailValue("divisions", "", "give divisions (cells per direction) or size (element size)");
  const std::string key = node.Has("divisions") ? "divisions" : "size";
  double cells[3] = {1.0, 1.0, 1.0};
  std::string value;
  if (node.Has("divisions")) {
    const std::vector<double> d = node.Doubles("divisions", AtLeast(1));
    if (d.size() != N)
      node.FailValue("divisions", "", "must be a list of " + std::to_string(N) + " cell counts");
    for (size_t i = 0; i < N; ++i) {
      if (d[i] != std::floor(d[i])) node.FailValue("divisions", FormatValue(d[i]), "must be whole");
      cells[i] = d[i];
      value += (i ? ", " : "[") + FormatValue(d[i]) + (i + 1 == N ? "]" : "");
    }
  } else {
    const double size = node.Double("size", Positive());
    for (size_t i = 0; i < N; ++i) cells[i] = std::max(1.0, std::round(lengths[i] / size));
    value = FormatValue(size);
  }
  const fe::LatticeCounts counts = fe::StructuredMeshCounts(int(N), cells, type, tets_per_hex);
  try {
    fe::CheckMeshSize(key, value, counts.nodes, counts.elements, type);
  } catch (const InputError& error) {
    node.Rethrow(error);
  }
  std::array<int, N> divisions{};
  for (size_t i = 0; i < N; ++i) divisions[i] = static_cast<int>(cells[i]);
  return divisions;
}

std::vector<double> Lengths(const ModelNode& node, size_t count) {
  const std::vector<double> l = node.Doubles("dimensions", Positive());
  if (l.size() != count)
    node.FailValue("dimensions", "", "must be a list of " + std::to_string(count) + " lengths [m]");
  return l;
}

fe::SheetMeshOptions ReadSheetMesh(const ModelNode& node) {
  fe::SheetMeshOptions o;
  const ElementType element = node.Enum<ElementType>("element", {{"hex8", ElementType::kHex8},
                                                                 {"hex20", ElementType::kHex20},
                                                                 {"tet4", ElementType::kTet4},
                                                                 {"tet10", ElementType::kTet10},
                                                                 {"quad4", ElementType::kQuad4},
                                                                 {"quad8", ElementType::kQuad8}});
  o.shape = element == ElementType::kHex8 || element == ElementType::kHex20 ? fe::CellShape::kHex
            : element == ElementType::kQuad4 || element == ElementType::kQuad8
                ? fe::CellShape::kQuad
                : fe::CellShape::kTet;
  o.order = element == ElementType::kHex20 || element == ElementType::kTet10 ||
                    element == ElementType::kQuad8
                ? fe::ElementOrder::kQuadratic
                : fe::ElementOrder::kLinear;
  o.mesh_size = node.Double("size", Positive());
  o.non_matching = node.Bool("non_matching", false);
  if (node.Has("size_ratio") && !o.non_matching)
    node.FailValue("size_ratio", "", "applies to non_matching: true only");
  o.size_ratio = node.Double("size_ratio", o.size_ratio, Positive());
  return o;
}

// The connecting rod (tetrahedra only; `size` optional) and its dimensions [m].
void ReadConnectingRod(const ModelNode& node, fe::ConnectingRodOptions& o) {
  const ElementType element = node.Enum<ElementType>(
      "element", {{"tet4", ElementType::kTet4}, {"tet10", ElementType::kTet10}});
  o.order =
      element == ElementType::kTet10 ? fe::ElementOrder::kQuadratic : fe::ElementOrder::kLinear;
  o.mesh_size = node.Double("size", o.mesh_size, Positive());
  o.cap_size_ratio = node.Double("cap_size_ratio", o.cap_size_ratio, Positive());
  o.joint_size = node.Double("joint_size", o.joint_size, AtLeast(0.0));
  for (const auto& [key, value] : {std::pair{"length", &o.length},
                                   {"big_end_bore", &o.big_end_bore},
                                   {"big_end_outer", &o.big_end_outer},
                                   {"big_end_width", &o.big_end_width},
                                   {"big_end_height", &o.big_end_height},
                                   {"big_end_thickness", &o.big_end_thickness},
                                   {"small_end_bore", &o.small_end_bore},
                                   {"small_end_outer", &o.small_end_outer},
                                   {"small_end_thickness", &o.small_end_thickness},
                                   {"shank_width", &o.shank_width},
                                   {"shank_thickness", &o.shank_thickness},
                                   {"bolt_spacing", &o.bolt_spacing},
                                   {"bolt_hole_diameter", &o.bolt_hole_diameter},
                                   {"head_diameter", &o.head_diameter},
                                   {"thread_depth", &o.thread_depth}})
    *value = node.Double(key, *value, Positive());
  o.Validate();
}

void ReadGenerate(const ModelNode& node, fe::FeModelSpec& spec) {
  spec.source = node.Enum<fe::MeshSource>("structure",
                                          {{"friction_bar", fe::MeshSource::kFrictionBar},
                                           {"multilayer_sheet", fe::MeshSource::kMultilayerSheet},
                                           {"connecting_rod", fe::MeshSource::kConnectingRod},
                                           {"box", fe::MeshSource::kBox},
                                           {"rectangle", fe::MeshSource::kRectangle}});
  try {
    switch (spec.source) {
      case fe::MeshSource::kFrictionBar: {
        fe::FrictionBarOptions& o = spec.friction_bar;
        o.mesh = ReadSheetMesh(node);
        o.sheet_length = node.Double("sheet_length", o.sheet_length, Positive());
        o.width = node.Double("width", o.width, Positive());
        o.thickness = node.Double("thickness", o.thickness, Positive());
        o.total_length = node.Double("total_length", o.total_length, Positive());
        o.hole_diameter = node.Double("hole_diameter", o.hole_diameter, Positive());
        if (node.Has("hole_x")) o.hole_x = node.Doubles("hole_x");
        o.washer_diameter = node.Double("washer_diameter", o.washer_diameter, Positive());
        o.Validate();
        break;
      }
      case fe::MeshSource::kMultilayerSheet: {
        fe::MultilayerSheetOptions& o = spec.multilayer_sheet;
        o.mesh = ReadSheetMesh(node);
        o.outer_length = node.Double("outer_length", o.outer_length, Positive());
        o.central_length = node.Double("central_length", o.central_length, Positive());
        if (o.mesh.shape == fe::CellShape::kQuad && node.Has("width"))
          node.FailValue("width", "(given)",
                         "a planar sheet's width is its materials' thickness (plane stress)");
        o.width = node.Double("width", o.width, Positive());
        o.thickness = node.Double("thickness", o.thickness, Positive());
        if (node.Has("connection_x")) o.connection_x = node.Doubles("connection_x");
        o.connection_length = node.Double("connection_length", o.connection_length, Positive());
        o.Validate();
        break;
      }
      case fe::MeshSource::kConnectingRod:
        ReadConnectingRod(node, spec.connecting_rod);
        break;
      case fe::MeshSource::kBox: {
        fe::BoxMeshOptions& o = spec.box;
        const std::vector<double> l = Lengths(node, 3);
        o.size = Vec3(l[0], l[1], l[2]);
        o.type = node.Enum<ElementType>("element", {{"hex8", ElementType::kHex8},
                                                    {"hex20", ElementType::kHex20},
                                                    {"tet4", ElementType::kTet4},
                                                    {"tet10", ElementType::kTet10}});
        o.divisions = Divisions<3>(node, l, o.type, o.tets_per_hex);
        o.distortion = node.Double("distortion", 0.0, InRange(0.0, 0.25));
        o.block = node.String("block", o.block);
        o.Validate();
        break;
      }
      case fe::MeshSource::kRectangle: {
        fe::RectangleMeshOptions& o = spec.rectangle;
        const std::vector<double> l = Lengths(node, 2);
        o.size = Vec2(l[0], l[1]);
        o.type = node.Enum<ElementType>(
            "element", {{"quad4", ElementType::kQuad4}, {"quad8", ElementType::kQuad8}});
        o.divisions = Divisions<2>(node, l, o.type, 6);
        o.distortion = node.Double("distortion", 0.0, InRange(0.0, 0.25));
        o.block = node.String("block", o.block);
        o.Validate();
        break;
      }
      default:
        break;
    }
  } catch (const InputError& error) {
    if (!error.file().empty()) throw;
    node.Rethrow(error);
  }
  node.Finish();
}

void ReadMesh(const ModelNode& root, fe::FeModelSpec& spec) {
  const ModelNode mesh = root.Map("mesh");
  const int forms =
      int(mesh.Has("generate")) + int(mesh.Has("file")) + int(mesh.Has("matrix_market"));
  if (forms != 1)
    mesh.FailValue("generate", "", "give exactly one of generate, file and matrix_market");
  const std::filesystem::path dir = std::filesystem::path(root.file()).parent_path();
  const auto existing = [&](const ModelNode& node, const std::string& key) {
    const std::string name = node.String(key);
    const std::filesystem::path path = dir / name;
    if (!std::filesystem::is_regular_file(path))
      node.FailValue(key, name, "no such file (paths are relative to the model file)");
    return path;
  };
  if (const auto generate = mesh.OptionalMap("generate")) {
    ReadGenerate(*generate, spec);
  } else if (mesh.Has("file")) {
    spec.source = fe::MeshSource::kMshFile;
    spec.msh_file = existing(mesh, "file");
    spec.mesh_scale = mesh.Double("scale", 1.0, Positive());
  } else {
    spec.source = fe::MeshSource::kMatrixMarket;
    const ModelNode mm = mesh.Map("matrix_market");
    fe::MatrixModelFiles& files = spec.matrix_files;
    if (mm.Has("prefix")) {
      for (const char* key : {"stiffness", "mass", "nodes", "node_sets"})
        if (mm.Has(key)) mm.FailValue(key, "", "give prefix or the files, not both");
      files = fe::MatrixModelFiles::FromPrefix((dir / mm.String("prefix")).string());
      for (const std::string* path : {&files.stiffness, &files.mass, &files.nodes, &files.sets})
        if (!std::filesystem::is_regular_file(*path))
          mm.FailValue("prefix", mm.String("prefix"), "no such file: " + *path);
    } else {
      files.stiffness = existing(mm, "stiffness").string();
      files.mass = existing(mm, "mass").string();
      files.nodes = existing(mm, "nodes").string();
      if (mm.Has("node_sets")) files.sets = existing(mm, "node_sets").string();
    }
    mm.Finish();
  }
  mesh.Finish();
}

// E, nu, rho and (plane elements only, when `thickness_allowed`) thickness of the mapping `m`.
fe::ElasticMaterial ReadElasticMaterial(const ModelNode& m, bool thickness_allowed) {
  fe::ElasticMaterial material;
  material.youngs_modulus = m.Double("E", Positive());
  material.poisson_ratio =
      m.Double("nu", {[](double x) { return x > -1.0 && x < 0.5; }, "must be in (-1, 0.5)"});
  material.density = m.Double("rho", NonNegative());
  if (m.Has("thickness") && !thickness_allowed)
    m.FailValue("thickness", "", "applies to plane (2D) models only");
  material.thickness = m.Double("thickness", material.thickness, Positive());
  m.Finish();
  return material;
}

void ReadMaterials(const ModelNode& root, fe::FeModelSpec& spec) {
  if (spec.source == fe::MeshSource::kMatrixMarket) {
    if (root.Has("materials"))
      root.FailValue("materials", "",
                     "does not apply to a matrix_market mesh (M and K come assembled)");
    return;
  }
  const ModelNode materials = root.Map("materials");
  const bool plane = spec.source == fe::MeshSource::kRectangle ||
                     (spec.source == fe::MeshSource::kMultilayerSheet &&
                      spec.multilayer_sheet.mesh.shape == fe::CellShape::kQuad);
  for (const std::string& block : materials.Keys())
    spec.materials[block] =
        ReadElasticMaterial(materials.Map(block), plane || spec.source == fe::MeshSource::kMshFile);
}

// The names of the DOF components of supports: mesh nodes, or reference nodes.
int Component(const ModelNode& node, const std::string& name, bool reference) {
  static const std::vector<std::string> mesh = {"x", "y", "z"};
  static const std::vector<std::string> ref = {"ux", "uy", "uz", "rx", "ry", "rz"};
  const std::vector<std::string>& names = reference ? ref : mesh;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    node.FailValue("components", name,
                   reference ? "must be ux, uy, uz, rx, ry or rz (a reference node)"
                             : "must be x, y or z (a node or face set)");
  return static_cast<int>(it - names.begin());
}

void ReadConstraints(const ModelNode& root, fe::FeModelSpec& spec,
                     std::vector<SupportValue>* values) {
  std::set<std::string> references;
  for (const ModelNode& node : root.OptionalMaps("reference_nodes")) {
    fe::ReferenceNodeSpec r;
    r.name = node.String("name");
    if (node.Has("position") == node.Has("at"))
      node.FailValue("position", "", "give position [x, y, z] or at (a set whose centroid)");
    if (node.Has("position")) r.position = ReadVec3(node, "position");
    r.at = node.String("at", "");
    node.Finish();
    references.insert(r.name);
    spec.reference_nodes.push_back(std::move(r));
  }
  for (const ModelNode& node : root.OptionalMaps("supports")) {
    fe::Support s;
    s.set = node.String("set");
    if (node.Has("components"))
      for (const std::string& c : node.Strings("components"))
        s.components.push_back(
            Component(node, c, references.contains(s.set) || spec.MeshMayDefine(s.set)));
    if (node.Has("value") && !values)
      node.FailValue("value", "",
                     "a prescribed displacement is taken by analysis: static only (other "
                     "analyses hold supports at zero)");
    if (node.Has("value"))
      values->push_back({static_cast<int>(spec.supports.size()), node});
    else
      node.Finish();
    spec.supports.push_back(std::move(s));
  }
  for (const ModelNode& node : root.OptionalMaps("beams")) {
    const std::vector<std::string> names = node.Strings("nodes");
    if (names.size() != 2 || names[0] == names[1])
      node.FailValue("nodes", "[" + names[0] + (names.size() > 1 ? ", " + names[1] : "") + "]",
                     "must name two different reference nodes");
    for (const std::string& name : names)
      if (!references.contains(name) && !spec.MeshMayDefine(name))
        node.FailValue("nodes", name, "must name a reference node (key reference_nodes)");
    fe::BeamSpec beam{
        .a = names[0], .b = names[1], .diameter = node.Double("diameter", Positive())};
    beam.material = ReadElasticMaterial(node.Map("material"), false);
    node.Finish();
    spec.beams.push_back(std::move(beam));
  }
  for (const ModelNode& node : root.OptionalMaps("couplings")) {
    fe::Coupling c;
    c.kind = node.Enum<fe::CouplingKind>(
        "type",
        {{"rigid", fe::CouplingKind::kRigid}, {"distributing", fe::CouplingKind::kDistributing}});
    c.reference = node.String("reference");
    c.set = node.String("set");
    if (c.kind == fe::CouplingKind::kDistributing)
      c.independent_reference = node.Bool("independent_reference", false);
    node.Finish();
    spec.couplings.push_back(std::move(c));
  }
}

void ReadContact(const ModelNode& root, fe::FeModelSpec& spec) {
  const std::vector<ModelNode> contacts = root.OptionalMaps("contact");
  if (!contacts.empty() && spec.source == fe::MeshSource::kMatrixMarket)
    root.FailValue("contact", "",
                   "needs the element faces of a mesh: not available for a matrix_market mesh");
  for (const ModelNode& node : contacts) {
    fe::ContactSpec c;
    c.slave = node.String("slave");
    c.master = node.String("master");
    c.name = node.String("name", c.slave + "/" + c.master);
    fe::PairingOptions& o = c.options;
    o.search_distance = node.Double("search_distance", o.search_distance, Positive());
    o.node_tolerance = node.Double("node_tolerance", o.node_tolerance, NonNegative());
    if (node.Has("max_penetration"))
      o.max_penetration = node.Double("max_penetration", NonNegative());
    if (node.Has("mode"))
      o.mode = node.Enum<fe::PairingMode>("mode", {{"auto", fe::PairingMode::kAuto},
                                                   {"node_to_node", fe::PairingMode::kNodeToNode}});
    if (node.Has("area_weighting"))
      o.area_weighting = node.Enum<fe::AreaWeighting>(
          "area_weighting", {{"consistent", fe::AreaWeighting::kConsistent},
                             {"diagonal_scaled", fe::AreaWeighting::kDiagonalScaled}});
    if (node.Has("tangent_reference")) o.tangent_reference = ReadVec3(node, "tangent_reference");
    node.Finish();
    spec.contacts.push_back(std::move(c));
  }
}

}  // namespace

Vec3 ReadVec3(const ModelNode& node, const std::string& key) {
  const std::vector<double> v = node.Doubles(key);
  if (v.size() != 3) {
    std::string text;
    for (const double x : v) text += (text.empty() ? "[" : ", ") + FormatValue(x);
    node.FailValue(key, text + "]", "must be a list of 3 numbers [x, y, z]");
  }
  return {v[0], v[1], v[2]};
}

std::vector<fe::NodeLoad> ReadFeLoads(const ModelNode& node, const fe::FeModelSpec& spec) {
  std::vector<fe::NodeLoad> loads;
  for (const ModelNode& entry : node.Maps("loads")) {
    fe::NodeLoad load;
    load.node = entry.String("node");
    if (!spec.HasReferenceNode(load.node))
      entry.FailValue("node", load.node, "must name a reference node (key reference_nodes)");
    if (!entry.Has("force") && !entry.Has("moment"))
      entry.FailValue("force", "",
                      "give force [Fx, Fy, Fz] [N], moment [Mx, My, Mz] [N m] or both");
    if (entry.Has("force")) load.force = ReadVec3(entry, "force");
    if (entry.Has("moment")) load.moment = ReadVec3(entry, "moment");
    entry.Finish();
    loads.push_back(load);
  }
  return loads;
}

fe::ReferenceDof ReadFeDof(const ModelNode& node, const fe::FeModelSpec& spec) {
  std::vector<std::pair<std::string, int>> components;
  for (const std::string& name : fe::ReferenceComponentNames())
    components.emplace_back(name, static_cast<int>(components.size()));
  fe::ReferenceDof dof;
  dof.node = node.String("node");
  if (!spec.HasReferenceNode(dof.node))
    node.FailValue("node", dof.node, "must name a reference node of the model");
  dof.component = node.Enum<int>("component", components);
  node.Finish();
  return dof;
}

int ReadContactIndex(const ModelNode& node, const std::string& key, const fe::FeModelSpec& spec) {
  try {
    return spec.ContactIndex(node.String(key), key);
  } catch (const InputError& error) {
    node.Rethrow(error);
  }
}

fe::FeModelSpec ReadFeModelSpec(const ModelNode& root, std::vector<SupportValue>* values) {
  fe::FeModelSpec spec;
  ReadMesh(root, spec);
  ReadMaterials(root, spec);
  ReadConstraints(root, spec, values);
  ReadContact(root, spec);
  if (root.Has("loads")) spec.loads = ReadFeLoads(root, spec);
  return spec;
}

}  // namespace jointdyn::model
