#include "io/fe_model_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "core/clock.h"
#include "core/progress.h"
#include "fe/assembly.h"
#include "fe/beam.h"
#include "fe/contact_surface.h"
#include "fe/gmsh_mesh.h"

namespace jointdyn::io {
namespace {

using fe::ElementType;

// Rethrows `error` (raised by the fe layer, without a location) at the line of `node`,
// keeping its key as it is.
[[noreturn]] void LocateAt(const ModelNode& node, const InputError& error) {
  throw error.Located(node.file(), node.line(), "");
}

// Rethrows an error of the fe layer whose key starts with "<list>[i]" (DofMap's naming)
// at entry i of that list of the model file; returns for other errors.
void RethrowInList(const InputError& error, const std::string& list,
                   const std::vector<ModelNode>& entries) {
  const std::string& key = error.key();
  const std::string head = list + "[";
  if (key.rfind(head, 0) != 0) return;
  const size_t close = key.find(']');
  if (close == std::string::npos) return;
  const size_t i = std::stoul(key.substr(head.size(), close - head.size()));
  if (i >= entries.size()) return;
  const std::string rest = close + 2 <= key.size() ? key.substr(close + 2) : "";
  entries[i].Rethrow(InputError(rest, error.value(), error.rule()));
}

Vec3 ReadVec3(const ModelNode& node, const std::string& key) {
  const std::vector<double> v = node.Doubles(key);
  if (v.size() != 3) {
    std::string text;
    for (const double x : v) text += (text.empty() ? "[" : ", ") + FormatValue(x);
    node.FailValue(key, text + "]", "must be a list of 3 numbers [x, y, z]");
  }
  return {v[0], v[1], v[2]};
}

// Element-size-driven divisions of `length`, or the listed ones.
template <size_t N>
std::array<int, N> Divisions(const ModelNode& node, const std::vector<double>& lengths) {
  std::array<int, N> divisions{};
  if (node.Has("divisions") == node.Has("size"))
    node.FailValue("divisions", "", "give divisions (cells per direction) or size (element size)");
  if (node.Has("divisions")) {
    const std::vector<double> d = node.Doubles("divisions", AtLeast(1));
    if (d.size() != N)
      node.FailValue("divisions", "", "must be a list of " + std::to_string(N) + " cell counts");
    for (size_t i = 0; i < N; ++i) {
      if (d[i] != std::floor(d[i])) node.FailValue("divisions", FormatValue(d[i]), "must be whole");
      divisions[i] = static_cast<int>(d[i]);
    }
  } else {
    const double size = node.Double("size", Positive());
    for (size_t i = 0; i < N; ++i)
      divisions[i] = std::max(1, static_cast<int>(std::lround(lengths[i] / size)));
  }
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
                                                                 {"tet10", ElementType::kTet10}});
  o.shape = element == ElementType::kHex8 || element == ElementType::kHex20 ? fe::CellShape::kHex
                                                                            : fe::CellShape::kTet;
  o.order = element == ElementType::kHex20 || element == ElementType::kTet10
                ? fe::ElementOrder::kQuadratic
                : fe::ElementOrder::kLinear;
  o.mesh_size = node.Double("size", Positive());
  o.non_matching = node.Bool("non_matching", false);
  if (node.Has("size_ratio") && !o.non_matching)
    node.FailValue("size_ratio", "", "applies to non_matching: true only");
  o.size_ratio = node.Double("size_ratio", o.size_ratio, Positive());
  return o;
}

void ReadGenerate(const ModelNode& node, FeModelSpec& spec) {
  spec.source =
      node.Enum<FeMeshSource>("structure", {{"friction_bar", FeMeshSource::kFrictionBar},
                                            {"multilayer_sheet", FeMeshSource::kMultilayerSheet},
                                            {"box", FeMeshSource::kBox},
                                            {"rectangle", FeMeshSource::kRectangle}});
  try {
    switch (spec.source) {
      case FeMeshSource::kFrictionBar: {
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
      case FeMeshSource::kMultilayerSheet: {
        fe::MultilayerSheetOptions& o = spec.multilayer_sheet;
        o.mesh = ReadSheetMesh(node);
        o.outer_length = node.Double("outer_length", o.outer_length, Positive());
        o.central_length = node.Double("central_length", o.central_length, Positive());
        o.width = node.Double("width", o.width, Positive());
        o.thickness = node.Double("thickness", o.thickness, Positive());
        if (node.Has("connection_x")) o.connection_x = node.Doubles("connection_x");
        o.connection_length = node.Double("connection_length", o.connection_length, Positive());
        o.Validate();
        break;
      }
      case FeMeshSource::kBox: {
        fe::BoxMeshOptions& o = spec.box;
        const std::vector<double> l = Lengths(node, 3);
        o.size = Vec3(l[0], l[1], l[2]);
        o.divisions = Divisions<3>(node, l);
        o.type = node.Enum<ElementType>("element", {{"hex8", ElementType::kHex8},
                                                    {"hex20", ElementType::kHex20},
                                                    {"tet4", ElementType::kTet4},
                                                    {"tet10", ElementType::kTet10}});
        o.distortion = node.Double("distortion", 0.0, InRange(0.0, 0.25));
        o.block = node.String("block", o.block);
        o.Validate();
        break;
      }
      case FeMeshSource::kRectangle: {
        fe::RectangleMeshOptions& o = spec.rectangle;
        const std::vector<double> l = Lengths(node, 2);
        o.size = Vec2(l[0], l[1]);
        o.divisions = Divisions<2>(node, l);
        o.type = node.Enum<ElementType>(
            "element", {{"quad4", ElementType::kQuad4}, {"quad8", ElementType::kQuad8}});
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

void ReadMesh(const ModelNode& root, FeModelSpec& spec) {
  const ModelNode mesh = root.Map("mesh");
  spec.mesh_node = mesh;
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
    spec.source = FeMeshSource::kMshFile;
    spec.msh_file = existing(mesh, "file");
  } else {
    spec.source = FeMeshSource::kMatrixMarket;
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

void ReadMaterials(const ModelNode& root, FeModelSpec& spec) {
  if (spec.source == FeMeshSource::kMatrixMarket) {
    if (root.Has("materials"))
      root.FailValue("materials", "",
                     "does not apply to a matrix_market mesh (M and K come assembled)");
    return;
  }
  const ModelNode materials = root.Map("materials");
  spec.materials_node = materials;
  const bool plane = spec.source == FeMeshSource::kRectangle;
  for (const std::string& block : materials.Keys())
    spec.materials[block] =
        ReadElasticMaterial(materials.Map(block), plane || spec.source == FeMeshSource::kMshFile);
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

void ReadConstraints(const ModelNode& root, FeModelSpec& spec) {
  std::set<std::string> references;
  spec.reference_nodes_nodes = root.OptionalMaps("reference_nodes");
  for (const ModelNode& node : spec.reference_nodes_nodes) {
    FeReferenceNode r;
    r.name = node.String("name");
    if (node.Has("position") == node.Has("at"))
      node.FailValue("position", "", "give position [x, y, z] or at (a set whose centroid)");
    if (node.Has("position")) r.position = ReadVec3(node, "position");
    r.at = node.String("at", "");
    node.Finish();
    references.insert(r.name);
    spec.reference_nodes.push_back(std::move(r));
  }
  spec.supports_nodes = root.OptionalMaps("supports");
  for (const ModelNode& node : spec.supports_nodes) {
    fe::Support s;
    s.set = node.String("set");
    if (node.Has("components"))
      for (const std::string& c : node.Strings("components"))
        s.components.push_back(Component(node, c, references.contains(s.set)));
    node.Finish();
    spec.supports.push_back(std::move(s));
  }
  spec.beams_nodes = root.OptionalMaps("beams");
  for (const ModelNode& node : spec.beams_nodes) {
    const std::vector<std::string> names = node.Strings("nodes");
    if (names.size() != 2 || names[0] == names[1])
      node.FailValue("nodes", "[" + names[0] + (names.size() > 1 ? ", " + names[1] : "") + "]",
                     "must name two different reference nodes");
    for (const std::string& name : names)
      if (!references.contains(name))
        node.FailValue("nodes", name, "must name a reference node (key reference_nodes)");
    FeBeam beam{.a = names[0], .b = names[1], .diameter = node.Double("diameter", Positive())};
    beam.material = ReadElasticMaterial(node.Map("material"), false);
    node.Finish();
    spec.beams.push_back(std::move(beam));
  }
  spec.couplings_nodes = root.OptionalMaps("couplings");
  for (const ModelNode& node : spec.couplings_nodes) {
    fe::Coupling c;
    c.kind = node.Enum<fe::CouplingKind>(
        "type",
        {{"rigid", fe::CouplingKind::kRigid}, {"distributing", fe::CouplingKind::kDistributing}});
    c.reference = node.String("reference");
    c.set = node.String("set");
    node.Finish();
    spec.couplings.push_back(std::move(c));
  }
}

void ReadContact(const ModelNode& root, FeModelSpec& spec) {
  spec.contact_nodes = root.OptionalMaps("contact");
  if (!spec.contact_nodes.empty() && spec.source == FeMeshSource::kMatrixMarket)
    root.FailValue("contact", "",
                   "needs the element faces of a mesh: not available for a matrix_market mesh");
  for (const ModelNode& node : spec.contact_nodes) {
    FeContactSpec c;
    c.slave = node.String("slave");
    c.master = node.String("master");
    c.name = node.String("name", c.slave + "/" + c.master);
    fe::PairingOptions& o = c.options;
    o.search_distance = node.Double("search_distance", o.search_distance, Positive());
    o.node_tolerance = node.Double("node_tolerance", o.node_tolerance, NonNegative());
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

fe::Mesh MakeMesh(const FeModelSpec& spec, solvers::SparseMatrix& stiffness,
                  solvers::SparseMatrix& mass) {
  switch (spec.source) {
    case FeMeshSource::kFrictionBar:
      return fe::BuildFrictionBar(spec.friction_bar);
    case FeMeshSource::kMultilayerSheet:
      return fe::BuildMultilayerSheet(spec.multilayer_sheet);
    case FeMeshSource::kBox:
      return fe::MakeBoxMesh(spec.box);
    case FeMeshSource::kRectangle:
      return fe::MakeRectangleMesh(spec.rectangle);
    case FeMeshSource::kMshFile:
      return fe::ReadMsh(spec.msh_file.string());
    case FeMeshSource::kMatrixMarket: {
      fe::MatrixModel model = fe::ReadMatrixModel(spec.matrix_files);
      stiffness = std::move(model.stiffness);
      mass = std::move(model.mass);
      return std::move(model.mesh);
    }
  }
  return {};
}

// The sorted nodes of node set `name`, else of face set `name`; empty when neither exists.
std::vector<int> SetNodes(const fe::Mesh& mesh, const std::string& name) {
  if (const auto it = mesh.node_sets.find(name); it != mesh.node_sets.end()) return it->second;
  if (mesh.face_sets.contains(name)) return mesh.FaceSetNodes(name);
  return {};
}

void CheckMaterials(const FeModelSpec& spec, const fe::Mesh& mesh) {
  if (!spec.materials_node) return;
  std::string blocks;
  for (const auto& b : mesh.blocks) blocks += (blocks.empty() ? "" : ", ") + b.name;
  for (const auto& [name, material] : spec.materials)
    if (std::none_of(mesh.blocks.begin(), mesh.blocks.end(),
                     [&](const auto& b) { return b.name == name; }))
      spec.materials_node->FailValue(
          name, "", "is not an element block of the mesh (blocks: " + blocks + ")");
  for (const auto& b : mesh.blocks)
    if (!spec.materials.contains(b.name))
      throw InputError(
          "materials." + b.name, "",
          "missing: element block " + b.name + " needs a material (blocks: " + blocks + ")")
          .Located(spec.materials_node->file(), spec.materials_node->line(), "");
}

}  // namespace

std::vector<FeLoad> ReadFeLoads(const ModelNode& node, const FeModelSpec& spec) {
  std::vector<FeLoad> loads;
  for (const ModelNode& entry : node.Maps("loads")) {
    FeLoad load;
    load.node = entry.String("node");
    if (std::none_of(spec.reference_nodes.begin(), spec.reference_nodes.end(),
                     [&](const FeReferenceNode& r) { return r.name == load.node; }))
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

FeDofSpec ReadFeDof(const ModelNode& node, const FeModelSpec& spec) {
  static const std::vector<std::pair<std::string, int>> components = {
      {"ux", 0}, {"uy", 1}, {"uz", 2}, {"rx", 3}, {"ry", 4}, {"rz", 5}};
  FeDofSpec dof;
  dof.where = node;
  dof.node = node.String("node");
  const bool known = std::any_of(spec.reference_nodes.begin(), spec.reference_nodes.end(),
                                 [&](const FeReferenceNode& r) { return r.name == dof.node; });
  if (!known) node.FailValue("node", dof.node, "must name a reference node of the model");
  dof.component = node.Enum<int>("component", components);
  dof.component_name = node.String("component");
  node.Finish();
  return dof;
}

FeModelSpec ReadFeModelSpec(const ModelNode& root) {
  FeModelSpec spec;
  spec.root = root;
  ReadMesh(root, spec);
  ReadMaterials(root, spec);
  ReadConstraints(root, spec);
  ReadContact(root, spec);
  spec.loads_nodes = root.OptionalMaps("loads");
  if (!spec.loads_nodes.empty()) spec.loads = ReadFeLoads(root, spec);
  return spec;
}

namespace {

// The beams' K and M on the reference-node DOFs (model.reference_stiffness, _mass).
void AssembleBeams(const FeModelSpec& spec, FeModel& model) {
  if (spec.beams.empty()) return;
  const fe::DofMap& dofs = *model.dofs;
  const auto index = [&](const std::string& name) {  // of the reference node
    return (dofs.ReferenceDof(name, 0) - dofs.num_mesh_dofs()) / 6;
  };
  std::vector<Eigen::Triplet<double>> k, m;
  for (size_t i = 0; i < spec.beams.size(); ++i) {
    const FeBeam& beam = spec.beams[i];
    const int a = index(beam.a), b = index(beam.b);
    const Vec3& xa = model.reference_nodes[a].position;
    const Vec3& xb = model.reference_nodes[b].position;
    if ((xb - xa).norm() <= 1e-9 * std::max(1.0, xa.norm()))
      spec.beams_nodes[i].FailValue(
          "nodes", "[" + beam.a + ", " + beam.b + "]",
          "the reference nodes must not coincide (a beam needs a length)");
    const fe::BeamMatrices element = fe::BeamElement(
        xa, xb, fe::BeamSection::Circular(beam.diameter, beam.material.poisson_ratio),
        beam.material);
    const auto dof = [&](int local) { return 6 * (local < 6 ? a : b) + local % 6; };
    for (int p = 0; p < 12; ++p)
      for (int q = 0; q < 12; ++q) {
        k.emplace_back(dof(p), dof(q), element.stiffness(p, q));
        m.emplace_back(dof(p), dof(q), element.mass(p, q));
      }
  }
  const int n = 6 * static_cast<int>(model.reference_nodes.size());
  model.reference_stiffness.resize(n, n);
  model.reference_stiffness.setFromTriplets(k.begin(), k.end());
  model.reference_mass.resize(n, n);
  model.reference_mass.setFromTriplets(m.begin(), m.end());
}

}  // namespace

FeModel BuildFeModel(const FeModelSpec& spec) {
  FeModel model;
  const ModelNode& root = *spec.root;
  Progress progress("fe model: mesh, assembly, constraints, contact pairing", 4);
  Clock::time_point start = Clock::now();
  try {
    model.mesh = MakeMesh(spec, model.stiffness, model.mass);
  } catch (const InputError& error) {
    // A generated structure's errors name its options (e.g. a size too coarse for a face
    // set): at their keys under mesh.generate.
    if (spec.mesh_node->Has("generate") && !error.key().empty())
      spec.mesh_node->Map("generate").Rethrow(error);
    LocateAt(*spec.mesh_node, error);
  }
  model.times.mesh = Seconds(start);
  progress.Update(1);

  start = Clock::now();
  CheckMaterials(spec, model.mesh);
  model.materials = spec.materials;
  if (spec.source != FeMeshSource::kMatrixMarket) {
    try {
      fe::AssemblyResult assembled = fe::Assemble(model.mesh, model.materials);
      model.stiffness = std::move(assembled.stiffness);
      model.mass = std::move(assembled.mass);
    } catch (const InputError& error) {
      LocateAt(*spec.mesh_node, error);
    }
  }
  model.times.assembly = Seconds(start);
  progress.Update(2);

  start = Clock::now();
  fe::ConstraintSpec constraints{{}, spec.supports, spec.couplings};
  for (size_t r = 0; r < spec.reference_nodes.size(); ++r) {
    const FeReferenceNode& ref = spec.reference_nodes[r];
    Vec3 position = ref.position.value_or(Vec3::Zero());
    if (!ref.position) {
      const std::vector<int> nodes = SetNodes(model.mesh, ref.at);
      if (nodes.empty())
        spec.reference_nodes_nodes[r].FailValue("at", ref.at, "must name a node set or face set");
      for (const int n : nodes) position += model.mesh.nodes.row(n).transpose();
      position /= static_cast<double>(nodes.size());
    }
    constraints.reference_nodes.push_back({ref.name, position});
  }
  model.reference_nodes = constraints.reference_nodes;
  try {
    model.dofs = std::make_unique<fe::DofMap>(model.mesh, constraints);
  } catch (const InputError& error) {
    RethrowInList(error, "supports", spec.supports_nodes);
    RethrowInList(error, "couplings", spec.couplings_nodes);
    RethrowInList(error, "reference_nodes", spec.reference_nodes_nodes);
    LocateAt(root, error);
  }
  AssembleBeams(spec, model);
  model.times.constraints = Seconds(start);
  progress.Update(3);

  start = Clock::now();
  for (size_t c = 0; c < spec.contacts.size(); ++c) {
    const FeContactSpec& contact = spec.contacts[c];
    const ModelNode& node = spec.contact_nodes[c];
    const auto surface = [&](const std::string& key, const std::string& name) {
      try {
        if (model.mesh.face_sets.contains(name)) return fe::SurfaceFromFaceSet(model.mesh, name);
        if (model.mesh.node_sets.contains(name)) return fe::SurfaceFromNodeSet(model.mesh, name);
      } catch (const InputError& error) {
        node.FailValue(key, name, error.rule());
      }
      node.FailValue(key, name, "must name a face set or node set of the mesh");
    };
    const fe::ContactSurface slave = surface("slave", contact.slave);
    const fe::ContactSurface master = surface("master", contact.master);
    try {
      model.contacts.push_back(fe::PairSurfaces(model.mesh, slave, master, contact.options));
    } catch (const InputError& error) {
      node.Rethrow(error);
    }
    model.contact_names.push_back(contact.name);
  }
  model.times.pairing = Seconds(start);
  progress.Update(4);
  return model;
}

VecX AssembleLoads(const FeModel& model, const std::vector<FeLoad>& loads) {
  const fe::DofMap& dofs = *model.dofs;
  VecX f = VecX::Zero(dofs.num_dofs());
  for (size_t i = 0; i < loads.size(); ++i) {
    const FeLoad& load = loads[i];
    const std::string key = "loads[" + std::to_string(i) + "]";
    // A 2D model's reference nodes move in the plane: uz, rx, ry are fixed (constraints.h),
    // so a load on them would be lost silently.
    if (model.mesh.dim == 2 && (load.force.z() != 0.0 || load.moment.head<2>() != Vec2::Zero()))
      throw InputError(key, load.node,
                       "a 2D model takes in-plane loads only: force z and moment x, y must be 0");
    for (int c = 0; c < 3; ++c) {
      f(dofs.ReferenceDof(load.node, c)) += load.force(c);
      f(dofs.ReferenceDof(load.node, 3 + c)) += load.moment(c);
    }
  }
  return dofs.ReduceLoad(f);
}

int FreeDofIndex(const FeModel& model, const FeDofSpec& dof) {
  const int free = model.dofs->FreeIndex(model.dofs->ReferenceDof(dof.node, dof.component));
  if (free < 0) {
    const std::string rule = "must be a free DOF (not supported or dependent)";
    if (dof.where) dof.where->FailValue("component", dof.name(), rule);
    throw InputError("component", dof.name(), rule);
  }
  return free;
}

std::map<std::string, double> BlockMasses(const FeModel& model) {
  std::map<std::string, double> masses;
  for (const fe::ElementBlock& block : model.mesh.blocks) {
    fe::Mesh one;
    one.dim = model.mesh.dim;
    one.nodes = model.mesh.nodes;
    one.blocks = {block};
    const fe::AssemblyResult m =
        fe::Assemble(one, {{block.name, model.materials.at(block.name)}}, {.stiffness = false});
    VecX ex = VecX::Zero(m.num_dofs);
    for (int n = 0; n < model.mesh.num_nodes(); ++n) ex(n * one.dim) = 1.0;
    masses[block.name] = ex.dot(m.mass * ex);
  }
  return masses;
}

double TranslationalMass(const FeModel& model) {
  const int dim = model.mesh.dim;
  VecX ex = VecX::Zero(model.mass.rows());
  for (int n = 0; n < model.mesh.num_nodes(); ++n) ex(n * dim) = 1.0;
  double mass = ex.dot(model.mass * ex);
  if (model.reference_mass.size() > 0) {  // the beams
    VecX er = VecX::Zero(model.reference_mass.rows());
    for (int r = 0; r < er.size(); r += 6) er(r) = 1.0;
    mass += er.dot(model.reference_mass * er);
  }
  return mass;
}

}  // namespace jointdyn::io
