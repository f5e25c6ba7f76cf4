#include "fe/fe_model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/clock.h"
#include "core/error.h"
#include "fe/abaqus_inp.h"
#include "fe/assembly.h"
#include "fe/beam.h"
#include "fe/contact_surface.h"
#include "fe/gmsh_mesh.h"
#include "fe/mesh_faces.h"
#include "fe/nastran_bdf.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

Mesh MakeMesh(const FeModelSpec& spec, FeModel& model) {
  switch (spec.source) {
    case MeshSource::kFrictionBar:
      return BuildFrictionBar(spec.friction_bar);
    case MeshSource::kMultilayerSheet:
      return BuildMultilayerSheet(spec.multilayer_sheet);
    case MeshSource::kConnectingRod:
      return BuildConnectingRod(spec.connecting_rod);
    case MeshSource::kBox:
      return MakeBoxMesh(spec.box);
    case MeshSource::kRectangle:
      return MakeRectangleMesh(spec.rectangle);
    case MeshSource::kMshFile: {  // Gmsh .msh, Abaqus .inp or Nastran bulk data
      if (!(spec.mesh_scale > 0.0 && std::isfinite(spec.mesh_scale)))
        throw InputError("mesh.scale", FormatValue(spec.mesh_scale), "must be > 0 and finite");
      const std::string file = spec.msh_file.string();
      Mesh mesh = spec.msh_file.extension() == ".inp" ? ReadInp(file, &model.ignored_keywords)
                  : IsBulkDataFile(file)              ? ReadBdf(file, &model.ignored_keywords)
                                                      : ReadMsh(file);
      mesh.nodes *= spec.mesh_scale;
      for (MeshCoupling& coupling : mesh.couplings) coupling.position *= spec.mesh_scale;
      return mesh;
    }
    case MeshSource::kMatrixMarket: {
      MatrixModel matrices = ReadMatrixModel(spec.matrix_files);
      model.stiffness = std::move(matrices.stiffness);
      model.mass = std::move(matrices.mass);
      return std::move(matrices.mesh);
    }
  }
  return {};
}

bool Generated(MeshSource source) {
  return source != MeshSource::kMshFile && source != MeshSource::kMatrixMarket;
}

// The mesh; a generated structure's errors name its options (e.g. a size too coarse for a
// face set): at their keys under mesh.generate; others at `mesh`.
Mesh MeshOf(const FeModelSpec& spec, FeModel& model) {
  try {
    return MakeMesh(spec, model);
  } catch (const InputError& error) {
    if (Generated(spec.source) && !error.key().empty()) throw error.Located("", 0, "mesh.generate");
    throw error.At("mesh");
  }
}

// The sorted nodes of node set `name`, else of face set `name`; empty when neither exists.
std::vector<int> SetNodes(const Mesh& mesh, const std::string& name) {
  if (const auto it = mesh.node_sets.find(name); it != mesh.node_sets.end()) return it->second;
  if (mesh.face_sets.contains(name)) return mesh.FaceSetNodes(name);
  return {};
}

void CheckMaterials(const FeModelSpec& spec, const Mesh& mesh) {
  if (spec.source == MeshSource::kMatrixMarket) return;
  std::string blocks;
  for (const auto& b : mesh.blocks) blocks += (blocks.empty() ? "" : ", ") + b.name;
  for (const auto& material : spec.materials) {
    const std::string& name = material.first;  // clang 14 (fuzz/) cannot capture a binding
    if (std::none_of(mesh.blocks.begin(), mesh.blocks.end(),
                     [&](const auto& b) { return b.name == name; }))
      throw InputError("materials." + name, "",
                       "is not an element block of the mesh (blocks: " + blocks + ")");
  }
  for (const auto& b : mesh.blocks)
    if (!spec.materials.contains(b.name))
      throw InputError(
          "materials." + b.name, "",
          "missing: element block " + b.name + " needs a material (blocks: " + blocks + ")")
          .At("materials");
}

// The reference nodes at their positions (the centroid of their set where they have none).
std::vector<ReferenceNode> PlaceReferenceNodes(const FeModelSpec& spec, const Mesh& mesh) {
  std::vector<ReferenceNode> placed;
  for (size_t r = 0; r < spec.reference_nodes.size(); ++r) {
    const ReferenceNodeSpec& ref = spec.reference_nodes[r];
    Vec3 position = ref.position.value_or(Vec3::Zero());
    if (!ref.position) {
      const std::vector<int> nodes = SetNodes(mesh, ref.at);
      if (nodes.empty())
        throw InputError("reference_nodes[" + std::to_string(r) + "].at", ref.at,
                         "must name a node set or face set");
      for (const int n : nodes) position += mesh.nodes.row(n).transpose();
      position /= static_cast<double>(nodes.size());
    }
    placed.push_back({ref.name, position});
  }
  return placed;
}

// The beams' K and M on the reference-node DOFs (model.reference_stiffness, _mass).
void AssembleBeams(const FeModelSpec& spec, FeModel& model) {
  model.beams = static_cast<int>(spec.beams.size());
  if (spec.beams.empty()) return;
  const DofMap& dofs = *model.dofs;
  std::vector<Eigen::Triplet<double>> k, m;
  for (size_t i = 0; i < spec.beams.size(); ++i) {
    const BeamSpec& beam = spec.beams[i];
    const int a = dofs.ReferenceIndex(beam.a), b = dofs.ReferenceIndex(beam.b);
    const Vec3& xa = model.reference_nodes[a].position;
    const Vec3& xb = model.reference_nodes[b].position;
    if ((xb - xa).norm() <= 1e-9 * std::max(1.0, xa.norm()))
      throw InputError("beams[" + std::to_string(i) + "].nodes", "[" + beam.a + ", " + beam.b + "]",
                       "the reference nodes must not coincide (a beam needs a length)");
    const BeamMatrices element = BeamElement(
        xa, xb, BeamSection::Circular(beam.diameter, beam.material.poisson_ratio), beam.material);
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

// The reference nodes and couplings of the model file, then those of the mesh file (RBE2,
// RBE3), whose reference node names ("grid_<ID>") must not be the model file's (DofMap
// rejects a name given twice).
void BuildConstraints(const FeModelSpec& spec, FeModel& model) {
  model.reference_nodes = PlaceReferenceNodes(spec, model.mesh);
  std::vector<Coupling> couplings = spec.couplings;
  std::set<std::string> added;  // a reference node several RBEs share, once
  for (const MeshCoupling& coupling : model.mesh.couplings) {
    if (added.insert(coupling.reference).second)
      model.reference_nodes.push_back({coupling.reference, coupling.position});
    couplings.push_back({coupling.rigid ? CouplingKind::kRigid : CouplingKind::kDistributing,
                         coupling.reference, coupling.set, coupling.weights});
  }
  const ConstraintSpec constraints{model.reference_nodes, spec.supports, couplings};
  model.dofs = std::make_unique<DofMap>(model.mesh, constraints);  // its errors name model keys
  AssembleBeams(spec, model);
}

// The contact surface `name` (a face set, else a node set) for key `key`.
ContactSurface Surface(const Mesh& mesh, const std::string& key, const std::string& name) {
  try {
    if (mesh.face_sets.contains(name)) return SurfaceFromFaceSet(mesh, name);
    if (mesh.node_sets.contains(name)) return SurfaceFromNodeSet(mesh, name);
  } catch (const InputError& error) {
    throw InputError(key, name, error.rule());
  }
  throw InputError(key, name, "must name a face set or node set of the mesh");
}

// A 2D model's pair areas are edge lengths: times the plane-stress thickness of the slave
// node's element block, they become areas [m^2] (the structure's K and M carry it too).
void ApplyPlaneThickness(const FeModelSpec& spec, const Mesh& mesh, PairingResult& contact) {
  std::vector<double> thickness(mesh.num_nodes(), 0.0);
  for (const ElementBlock& block : mesh.blocks) {
    const auto material = spec.materials.find(block.name);
    if (material == spec.materials.end()) continue;
    for (const int node : block.connectivity) thickness[node] = material->second.thickness;
  }
  contact.slave_area = 0.0;
  for (ContactPair& pair : contact.pairs) {
    pair.area *= thickness[pair.slave];
    contact.slave_area += pair.area;
  }
}

void PairContacts(const FeModelSpec& spec, FeModel& model) {
  for (size_t c = 0; c < spec.contacts.size(); ++c) {
    const ContactSpec& contact = spec.contacts[c];
    const std::string key = "contact[" + std::to_string(c) + "]";
    if (contact.slave == contact.master)
      throw InputError(key + ".master", contact.master,
                       "must differ from slave: a surface cannot be in contact with itself");
    const ContactSurface slave = Surface(model.mesh, key + ".slave", contact.slave);
    const ContactSurface master = Surface(model.mesh, key + ".master", contact.master);
    try {
      model.contacts.push_back(PairSurfaces(model.mesh, slave, master, contact.options));
      if (model.mesh.dim == 2) ApplyPlaneThickness(spec, model.mesh, model.contacts.back());
    } catch (const InputError& error) {
      throw error.Located("", 0, key);
    }
    model.contact_names.push_back(contact.name);
  }
}

// The index of `name` among the contacts `names`; InputError at `key` listing them.
int IndexOfContact(const std::vector<std::string>& names, const std::string& name,
                   const std::string& key) {
  std::string listing;
  for (size_t c = 0; c < names.size(); ++c) {
    listing += (c ? ", " : "") + names[c];
    if (names[c] == name) return static_cast<int>(c);
  }
  if (names.empty()) throw InputError(key, name, "the model has no contact (key `contact`)");
  throw InputError(key, name, "must name a contact of the model (" + listing + ")");
}

}  // namespace

const char* Name(MeshSource source) {
  switch (source) {
    case MeshSource::kFrictionBar:
      return "friction_bar";
    case MeshSource::kMultilayerSheet:
      return "multilayer_sheet";
    case MeshSource::kConnectingRod:
      return "connecting_rod";
    case MeshSource::kBox:
      return "box";
    case MeshSource::kRectangle:
      return "rectangle";
    case MeshSource::kMshFile:
      return "file";
    case MeshSource::kMatrixMarket:
      return "matrix_market";
  }
  return "";
}

const std::vector<std::string>& ReferenceComponentNames() {
  static const std::vector<std::string> names = {"ux", "uy", "uz", "rx", "ry", "rz"};
  return names;
}

std::string ReferenceDof::component_name() const { return ReferenceComponentNames().at(component); }

std::string ReferenceDof::name() const { return node + "." + component_name(); }

bool FeModelSpec::HasReferenceNode(const std::string& name) const {
  return std::any_of(reference_nodes.begin(), reference_nodes.end(),
                     [&](const ReferenceNodeSpec& r) { return r.name == name; }) ||
         MeshMayDefine(name);
}

bool FeModelSpec::MeshMayDefine(const std::string& name) const {
  return source == MeshSource::kMshFile && IsBulkDataFile(msh_file.string()) &&
         name.rfind("grid_", 0) == 0 && name.size() > 5 &&
         name.find_first_not_of("0123456789", 5) == std::string::npos;
}

int FeModelSpec::ContactIndex(const std::string& name, const std::string& key) const {
  std::vector<std::string> names;
  for (const ContactSpec& contact : contacts) names.push_back(contact.name);
  return IndexOfContact(names, name, key);
}

int FeModel::ContactIndex(const std::string& name, const std::string& key) const {
  return IndexOfContact(contact_names, name, key);
}

FeModel BuildFeModel(const FeModelSpec& spec, const ProgressFn& progress) {
  const auto report = [&](int done) {
    if (progress) progress(done, 4);
  };
  FeModel model;
  Clock::time_point start = Clock::now();
  model.mesh = MeshOf(spec, model);
  model.times.mesh = Seconds(start);
  report(1);

  start = Clock::now();
  CheckMaterials(spec, model.mesh);
  model.materials = spec.materials;
  if (spec.source != MeshSource::kMatrixMarket) {
    try {
      AssemblyResult assembled = Assemble(model.mesh, model.materials);
      model.stiffness = std::move(assembled.stiffness);
      model.mass = std::move(assembled.mass);
    } catch (const InputError& error) {
      throw error.At("mesh");
    }
  }
  model.times.assembly = Seconds(start);
  report(2);

  start = Clock::now();
  BuildConstraints(spec, model);
  model.times.constraints = Seconds(start);
  report(3);

  start = Clock::now();
  PairContacts(spec, model);
  model.times.pairing = Seconds(start);
  report(4);
  return model;
}

VecX AssembleNodeLoads(const FeModel& model, const std::vector<NodeLoad>& loads,
                       const std::string& key) {
  const DofMap& dofs = *model.dofs;
  VecX f = VecX::Zero(dofs.num_dofs());
  for (size_t i = 0; i < loads.size(); ++i) {
    const NodeLoad& load = loads[i];
    // A 2D model's reference nodes move in the plane: uz, rx, ry are fixed (constraints.h),
    // so a load on them would be lost silently.
    if (model.mesh.dim == 2 && (load.force.z() != 0.0 || load.moment.head<2>() != Vec2::Zero()))
      throw InputError(key + "[" + std::to_string(i) + "]", load.node,
                       "a 2D model takes in-plane loads only: force z and moment x, y must be 0");
    for (int c = 0; c < 3; ++c) {
      f(dofs.ReferenceDof(load.node, c)) += load.force(c);
      f(dofs.ReferenceDof(load.node, 3 + c)) += load.moment(c);
    }
  }
  return f;
}

VecX AssembleLoads(const FeModel& model, const std::vector<NodeLoad>& loads,
                   const std::string& key) {
  return model.dofs->ReduceLoad(AssembleNodeLoads(model, loads, key));
}

VecX RigidTranslation(const FeModel& model, const Vec3& direction) {
  const DofMap& dofs = *model.dofs;
  const int dim = model.mesh.dim;
  VecX r = VecX::Zero(dofs.num_free_dofs());
  for (int dof = 0; dof < dofs.num_dofs(); ++dof) {
    const int free = dofs.FreeIndex(dof);
    if (free < 0) continue;
    const bool mesh = dof < dofs.num_mesh_dofs();
    const int component = mesh ? dof % dim : (dof - dofs.num_mesh_dofs()) % 6;
    if (component < dim) r(free) = direction(component);  // reference rotations: 0
  }
  return r;
}

int FreeDofIndex(const FeModel& model, const ReferenceDof& dof, const std::string& key) {
  const int free = model.dofs->FreeIndex(model.dofs->ReferenceDof(dof.node, dof.component));
  if (free < 0)
    throw InputError(key + ".component", dof.name(),
                     "must be a free DOF (not supported or dependent)");
  return free;
}

std::map<std::string, double> BlockMasses(const FeModel& model) {
  std::map<std::string, double> masses;
  for (const ElementBlock& block : model.mesh.blocks) {
    Mesh one;
    one.dim = model.mesh.dim;
    one.nodes = model.mesh.nodes;
    one.blocks = {block};
    const AssemblyResult m =
        Assemble(one, {{block.name, model.materials.at(block.name)}}, {.stiffness = false});
    VecX ex = VecX::Zero(m.num_dofs);
    for (int n = 0; n < model.mesh.num_nodes(); ++n) ex(n * one.dim) = 1.0;
    masses[block.name] = ex.dot(m.mass * ex);
  }
  return masses;
}

VecX GravityLoad(const FeModel& model, const Vec3& acceleration) {
  const int dim = model.mesh.dim;
  const DofMap& dofs = *model.dofs;
  VecX field = VecX::Zero(dofs.num_mesh_dofs());  // the acceleration of every mesh node
  for (int n = 0; n < model.mesh.num_nodes(); ++n)
    for (int c = 0; c < dim; ++c) field(n * dim + c) = acceleration(c);
  VecX f = VecX::Zero(dofs.num_dofs());
  f.head(dofs.num_mesh_dofs()) = model.mass * field;
  if (model.reference_mass.size() > 0) {  // the beams
    VecX reference = VecX::Zero(model.reference_mass.rows());
    for (Eigen::Index r = 0; r < reference.size(); r += 6) reference.segment<3>(r) = acceleration;
    f.tail(reference.size()) = model.reference_mass * reference;
  }
  return f;
}

VecX AssemblePressureLoads(const FeModel& model, const std::vector<PressureLoad>& loads,
                           const std::string& key) {
  VecX f = VecX::Zero(model.dofs->num_dofs());
  ShapeValues shape;
  VecX xi;
  for (size_t i = 0; i < loads.size(); ++i) {
    const std::string at = key + "[" + std::to_string(i) + "].set";
    if (model.mesh.dim != 3)
      throw InputError(at, loads[i].set,
                       "pressures need a 3D mesh (in 2D, load the edge through a reference node)");
    const FaceSet& faces = Surface(model.mesh, at, loads[i].set).faces;
    const QuadratureRule rule = Quadrature(faces.type, 6);  // N times the normal, curved faces
    for (int face = 0; face < faces.size(); ++face) {
      const MatX x = FaceCoordinates(model.mesh, faces, face);
      for (int q = 0; q < rule.size(); ++q) {
        xi = rule.points.row(q).transpose();
        EvaluateShape(faces.type, xi.data(), shape);
        const Vec3 force =
            -loads[i].pressure * rule.weights[q] * FaceNormal(faces.type, x, xi.data());
        for (int a = 0; a < shape.n.size(); ++a)
          f.segment<3>(3 * faces.face(face)[a]) += shape.n(a) * force;
      }
    }
  }
  return f;
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

}  // namespace jointdyn::fe
