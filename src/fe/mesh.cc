#include "fe/mesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>

#include "core/error.h"
#include "core/memory.h"

namespace jointdyn::fe {
namespace {

struct TypeInfo {
  ElementType type;
  int nodes;
  int dim;
  const char* name;
  int gmsh;
};

constexpr std::array<TypeInfo, 10> kTypes{{
    {ElementType::kLine2, 2, 1, "line2", 1},
    {ElementType::kLine3, 3, 1, "line3", 8},
    {ElementType::kTri3, 3, 2, "tri3", 2},
    {ElementType::kTri6, 6, 2, "tri6", 9},
    {ElementType::kQuad4, 4, 2, "quad4", 3},
    {ElementType::kQuad8, 8, 2, "quad8", 16},
    {ElementType::kTet4, 4, 3, "tet4", 4},
    {ElementType::kTet10, 10, 3, "tet10", 11},
    {ElementType::kHex8, 8, 3, "hex8", 5},
    {ElementType::kHex20, 20, 3, "hex20", 17},
}};

const TypeInfo& Info(ElementType type) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == type) return info;
  }
  JD_CHECK(false, "fe: unknown element type");
  return kTypes[0];
}

// Checks a flat connectivity list (and its tags) against the node count; "" when
// consistent. Elements are named by their tags.
std::string CheckConnectivity(const std::vector<int>& connectivity,
                              const std::vector<long long>& tags, ElementType type, int num_nodes) {
  const int per = NodesPerElement(type);
  if (connectivity.size() % per != 0)
    return "has " + std::to_string(connectivity.size()) + " node indices, not a multiple of " +
           std::to_string(per) + " (" + Name(type) + ")";
  if (!tags.empty() && tags.size() != connectivity.size() / per)
    return "has " + std::to_string(tags.size()) + " element tags for " +
           std::to_string(connectivity.size() / per) + " elements";
  for (std::size_t i = 0; i < connectivity.size(); ++i) {
    const int node = connectivity[i];
    const long long element = tags.empty() ? static_cast<long long>(i / per) : tags[i / per];
    if (node < 0 || node >= num_nodes)
      return "element " + std::to_string(element) + " refers to node index " +
             std::to_string(node) + ", outside [0, " + std::to_string(num_nodes) + ")";
  }
  return "";
}

std::string NodeList(const Mesh& mesh, const int* nodes, int count) {
  std::string text = "(nodes";
  for (int i = 0; i < count; ++i) text += " " + std::to_string(mesh.NodeTag(nodes[i]));
  return text + ")";
}

}  // namespace

int NodesPerElement(ElementType type) { return Info(type).nodes; }
int Dimension(ElementType type) { return Info(type).dim; }
const char* Name(ElementType type) { return Info(type).name; }
int GmshType(ElementType type) { return Info(type).gmsh; }

bool FromGmshType(int code, ElementType& type) {
  for (const TypeInfo& info : kTypes) {
    if (info.gmsh == code) {
      type = info.type;
      return true;
    }
  }
  return false;
}

int Mesh::num_elements() const {
  int count = 0;
  for (const ElementBlock& block : blocks) count += block.size();
  return count;
}

Status Mesh::Validate(const std::string& source) const {
  auto fail = [&source](const std::string& what) { return Status::Failure(source + ": " + what); };
  if (dim != 2 && dim != 3) return fail("dim = " + std::to_string(dim) + ": must be 2 or 3");
  if (num_nodes() == 0) return fail("the mesh has no nodes");
  if (!nodes.allFinite()) return fail("a node coordinate is not finite");
  if (dim == 2 && nodes.col(2).cwiseAbs().maxCoeff() != 0.0)
    return fail("a 2D mesh must have z = 0 at every node");
  if (!node_tags.empty() && static_cast<int>(node_tags.size()) != num_nodes())
    return fail(std::to_string(node_tags.size()) + " node tags for " + std::to_string(num_nodes()) +
                " nodes");
  if (blocks.empty()) return fail("the mesh has no element blocks");
  std::set<std::string> names;
  for (const ElementBlock& block : blocks) {
    const std::string what = "block '" + block.name + "'";
    if (!names.insert(block.name).second) return fail(what + " is named twice");
    if (Dimension(block.type) != dim)
      return fail(what + " has " + Name(block.type) + " elements: a " + std::to_string(dim) +
                  "D mesh needs " + std::to_string(dim) + "D elements");
    if (block.connectivity.empty()) return fail(what + " has no elements");
    if (std::string error =
            CheckConnectivity(block.connectivity, block.tags, block.type, num_nodes());
        !error.empty()) {
      return fail(what + " " + error);
    }
  }
  for (const auto& [name, set] : node_sets) {
    const std::string what = "node set '" + name + "'";
    if (set.empty()) return fail(what + " is empty");
    if (!std::is_sorted(set.begin(), set.end()) ||
        std::adjacent_find(set.begin(), set.end()) != set.end())
      return fail(what + " must be sorted and free of duplicates");
    if (set.front() < 0 || set.back() >= num_nodes())
      return fail(what + " refers to a node outside [0, " + std::to_string(num_nodes()) + ")");
  }
  for (const auto& [name, set] : face_sets) {
    const std::string what = "face set '" + name + "'";
    if (Dimension(set.type) != dim - 1)
      return fail(what + " has " + Name(set.type) + " faces: a " + std::to_string(dim) +
                  "D mesh needs " + std::to_string(dim - 1) + "D faces");
    if (set.connectivity.empty()) return fail(what + " is empty");
    if (std::string error = CheckConnectivity(set.connectivity, set.tags, set.type, num_nodes());
        !error.empty()) {
      return fail(what + " " + error);
    }
  }
  return Status::Ok();
}

std::string Mesh::NodeName(int node) const { return "node " + std::to_string(NodeTag(node)); }

std::string Mesh::ElementName(const ElementBlock& block, int e) const {
  return "element " + std::to_string(block.Tag(e)) + " " +
         NodeList(*this, block.element(e), NodesPerElement(block.type));
}

std::string Mesh::FaceName(const FaceSet& set, int f) const {
  return "face " + std::to_string(set.Tag(f)) + " " +
         NodeList(*this, set.face(f), NodesPerElement(set.type));
}

std::vector<int> Mesh::FaceSetNodes(const std::string& name) const {
  const auto it = face_sets.find(name);
  if (it == face_sets.end()) throw InputError("face set", name, "is not a face set of the mesh");
  std::vector<int> set = it->second.connectivity;
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  return set;
}

double MeshBytes(double nodes, double elements, ElementType type) {
  // Per node: 3 coordinates (24 B) and, per DOF (one per dimension), a row of the sparse
  // stiffness and of the mass matrix coupling at least the 3^dim nodes of the neighbouring
  // linear cells (12 B per nonzero: value and index). Per element: its connectivity (4 B
  // per node), held about three times while a mesh is generated.
  const int dim = Dimension(type);
  const double coupled = dim == 3 ? 27.0 : dim == 2 ? 9.0 : 3.0;
  return nodes * (24.0 + dim * 2.0 * coupled * dim * 12.0) +
         elements * NodesPerElement(type) * 4.0 * 3.0;
}

void CheckMeshSize(const std::string& key, const std::string& value, double nodes, double elements,
                   ElementType type) {
  const std::string memory =
      ExceedsMemory(MeshBytes(nodes, elements, type), "the mesh and its matrices");
  constexpr double kIntMax = 2147483647.0;
  const bool too_many = nodes > kIntMax || elements * NodesPerElement(type) > kIntMax;
  if (memory.empty() && !too_many) return;
  const auto count = [](double x) {
    return std::isfinite(x) ? FormatValue(x) : std::string("more than 1e308");
  };
  throw InputError(key, value,
                   "gives " + count(elements) + " elements and " + count(nodes) + " nodes: " +
                       (memory.empty() ? "more than the 2147483647 an int index holds" : memory));
}

}  // namespace jointdyn::fe
