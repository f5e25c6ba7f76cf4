#include "fe/gmsh_mesh.h"

#include <gmsh.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "core/error.h"
#include "fe/assembly.h"
#include "fe/gmsh_session.h"
#include "fe/mesh_faces.h"
#include "fe/msh_lines.h"

namespace jointdyn::fe {
namespace {

const char* KindName(int dim) {
  static const char* const kinds[] = {"point", "curve", "surface", "volume"};
  return kinds[dim];
}

std::string GmshTypeName(int code) {
  std::string name;
  int dim = 0, order = 0, nodes = 0, primary = 0;
  std::vector<double> coords;
  gmsh::model::mesh::getElementProperties(code, name, dim, order, nodes, coords, primary);
  return name;
}

// The element types of blocks (solids, plane-stress quadrilaterals) and of face sets.
std::vector<ElementType> SupportedTypes(int dim, bool block) {
  using enum ElementType;
  if (block)
    return dim == 3 ? std::vector{kTet4, kTet10, kHex8, kHex20} : std::vector{kQuad4, kQuad8};
  return dim == 2 ? std::vector{kTri3, kTri6, kQuad4, kQuad8} : std::vector{kLine2, kLine3};
}

// The elements of one physical group of dimension `dim` as one type and flat Gmsh node tags.
struct GroupElements {
  ElementType type = ElementType::kHex8;
  std::vector<std::size_t> element_tags;
  std::vector<std::size_t> node_tags;
};

GroupElements ReadGroupElements(int dim, int tag, bool block, const std::string& what,
                                const std::string& source) {
  const std::vector<ElementType> supported = SupportedTypes(dim, block);
  std::string list;
  for (ElementType type : supported) list += (list.empty() ? "" : ", ") + std::string(Name(type));
  std::vector<int> entities;
  gmsh::model::getEntitiesForPhysicalGroup(dim, tag, entities);
  GroupElements group;
  bool typed = false;
  for (int entity : entities) {
    std::vector<int> types;
    std::vector<std::vector<std::size_t>> element_tags, node_tags;
    gmsh::model::mesh::getElements(types, element_tags, node_tags, dim, entity);
    for (std::size_t k = 0; k < types.size(); ++k) {
      ElementType type;
      const std::string value = std::string(KindName(dim)) + " entity " + std::to_string(entity) +
                                ": Gmsh element type " + std::to_string(types[k]) + " (" +
                                GmshTypeName(types[k]) + ")";
      if (!FromGmshType(types[k], type) ||
          std::find(supported.begin(), supported.end(), type) == supported.end()) {
        throw InputError(what, value,
                         std::string(block ? "element blocks" : "face sets") + " of a " +
                             std::to_string(block ? dim : dim + 1) + "D mesh must hold " + list +
                             " elements")
            .Located(source, 0, "");
      }
      if (typed && type != group.type) {
        throw InputError(what, value,
                         std::string("a physical group must hold one element type, it also has ") +
                             Name(group.type))
            .Located(source, 0, "");
      }
      group.type = type;
      typed = true;
      group.element_tags.insert(group.element_tags.end(), element_tags[k].begin(),
                                element_tags[k].end());
      group.node_tags.insert(group.node_tags.end(), node_tags[k].begin(), node_tags[k].end());
    }
  }
  if (group.node_tags.empty())
    throw InputError(what, "", "has no elements (is the mesh generated and saved?)")
        .Located(source, 0, "");
  return group;
}

}  // namespace

Mesh MeshFromGmshModel(const std::string& source, const std::string& file) {
  gmsh::vectorpair groups;
  gmsh::model::getPhysicalGroups(groups);
  int dim = 0;
  for (const auto& [group_dim, tag] : groups) dim = std::max(dim, group_dim);
  if (dim < 2) {
    throw InputError("physical groups", std::to_string(groups.size()) + " of dimension < 2",
                     "a mesh needs a physical volume (3D solids) or a physical surface (2D "
                     "plane stress) group: they are the element blocks")
        .Located(source, 0, "");
  }
  Mesh mesh;
  mesh.dim = dim;
  mesh.file = file;
  struct Pending {
    std::string name;
    GroupElements elements;
  };
  std::vector<Pending> blocks, faces;
  std::vector<std::pair<std::string, std::vector<std::size_t>>> node_sets;
  std::vector<std::size_t> used;
  for (const auto& [group_dim, tag] : groups) {
    std::string name;
    gmsh::model::getPhysicalName(group_dim, tag, name);
    if (name.empty()) name = std::string(KindName(group_dim)) + "_" + std::to_string(tag);
    const std::string what = std::string("physical ") + KindName(group_dim) + " '" + name + "'";
    if (group_dim == dim || group_dim == dim - 1) {
      const bool block = group_dim == dim;
      Pending pending{name, ReadGroupElements(group_dim, tag, block, what, source)};
      used.insert(used.end(), pending.elements.node_tags.begin(), pending.elements.node_tags.end());
      (block ? blocks : faces).push_back(std::move(pending));
    }
    std::vector<std::size_t> node_tags;
    std::vector<double> coords;
    gmsh::model::mesh::getNodesForPhysicalGroup(group_dim, tag, node_tags, coords);
    if (node_tags.empty())
      throw InputError(what, "", "has no nodes (is the mesh generated and saved?)")
          .Located(source, 0, "");
    used.insert(used.end(), node_tags.begin(), node_tags.end());
    node_sets.emplace_back(name, std::move(node_tags));
  }
  if (blocks.empty()) {
    throw InputError(
        "physical groups", "",
        std::string("no physical ") + KindName(dim) + " group with elements: they are the blocks")
        .Located(source, 0, "");
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::unordered_map<std::size_t, int> index;
  index.reserve(used.size());
  for (std::size_t i = 0; i < used.size(); ++i) index[used[i]] = static_cast<int>(i);

  std::vector<std::size_t> all_tags;
  std::vector<double> coords, parametric;
  gmsh::model::mesh::getNodes(all_tags, coords, parametric, -1, -1, true, false);
  mesh.nodes.resize(static_cast<int>(used.size()), 3);
  std::vector<bool> seen(used.size(), false);
  for (std::size_t k = 0; k < all_tags.size(); ++k) {
    const auto it = index.find(all_tags[k]);
    if (it == index.end()) continue;
    for (int d = 0; d < 3; ++d) mesh.nodes(it->second, d) = coords[3 * k + d];
    seen[it->second] = true;
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!seen[i])
      throw InputError("node", std::to_string(used[i]), "is used by an element but not defined")
          .Located(source, 0, "");
  }
  auto to_indices = [&index](const std::vector<std::size_t>& tags) {
    std::vector<int> indices(tags.size());
    for (std::size_t i = 0; i < tags.size(); ++i) indices[i] = index.at(tags[i]);
    return indices;
  };
  const auto file_tags = [&file](const std::vector<std::size_t>& tags) {
    return file.empty() ? std::vector<long long>{}
                        : std::vector<long long>(tags.begin(), tags.end());
  };
  mesh.node_tags = file_tags(used);
  for (const Pending& block : blocks) {
    mesh.blocks.push_back({block.name, block.elements.type, to_indices(block.elements.node_tags),
                           file_tags(block.elements.element_tags)});
  }
  for (const auto& [name, tags] : node_sets) {
    std::vector<int> set = to_indices(tags);
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    mesh.node_sets[name] = std::move(set);
  }
  for (const Pending& face : faces) {
    FaceSet set{face.elements.type, to_indices(face.elements.node_tags),
                file_tags(face.elements.element_tags)};
    OrientOutward(mesh, set, source, face.name);
    mesh.face_sets[face.name] = std::move(set);
  }
  if (const Status status = mesh.Validate(source); !status.ok)
    throw InputError("", "", status.message);
  return mesh;
}

Mesh ReadMsh(const std::string& path, bool verbose) {
  if (std::filesystem::path(path).extension() != ".msh")
    throw InputError("mesh file", path,
                     "must be a Gmsh .msh, an Abaqus .inp or Nastran bulk data (.bdf, .nas, .dat)");
  if (!std::filesystem::is_regular_file(path))
    throw InputError("mesh file", path, "cannot be opened (no such file)");
  // Gmsh goes by the first line, not the extension, and runs any file that is not a mesh as
  // a .geo script, whose commands include System "<shell command>": only meshes reach it.
  std::ifstream in(path, std::ios::binary);
  std::string first;
  if (!std::getline(in, first) || first.rfind("$MeshFormat", 0) != 0)
    throw InputError("", "", "not a Gmsh mesh: the first line must be $MeshFormat")
        .Located(path, 1, "");
  // Gmsh sizes its reading by this line and allocates gigabytes on a bad one (fuzzing:
  // "2.2 5 8"): version 2.x or 4.x, file type 0 (ASCII) or 1 (binary), 8-byte doubles.
  std::string version_line;
  std::getline(in, version_line);
  std::istringstream header(version_line);
  double version = 0.0;
  int file_type = -1, data_size = 0;
  if (!(header >> version >> file_type >> data_size) ||
      !((version >= 2.0 && version < 3.0) || (version >= 4.0 && version < 5.0)) ||
      (file_type != 0 && file_type != 1) || data_size != 8)
    throw InputError("$MeshFormat", version_line,
                     "must be 'version file-type data-size' with version 2.x or 4.x, file type "
                     "0 (ASCII) or 1 (binary) and data size 8")
        .Located(path, 2, "");
  GmshSession session(verbose);
  try {
    gmsh::open(path);
  } catch (const std::exception& error) {  // e.g. a bad count: std::bad_array_new_length
    throw InputError("", "", std::string("Gmsh cannot read it: ") + error.what())
        .Located(path, 0, "");
  }
  if (const std::vector<std::string> errors = session.Errors(); !errors.empty())
    throw InputError("", "", "Gmsh cannot read it: " + errors.front()).Located(path, 0, "");
  Mesh mesh = MeshFromGmshModel(path, path);
  if (const auto bad = FindDegenerateElement(mesh)) {
    const ElementBlock& block = mesh.blocks[bad->block];
    const std::string kind = KindName(mesh.dim);
    throw InputError(
        mesh.ElementName(block, bad->element) + " of physical " + kind + " '" + block.name + "'",
        "", bad->reason)
        .Located(path, MeshFileLine(mesh, MshEntity::kElement, block.Tag(bad->element)), "");
  }
  return mesh;
}

}  // namespace jointdyn::fe
