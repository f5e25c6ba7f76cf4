#include "fe/abaqus_inp.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fe/input_text.h"
#include "fe/mesh_faces.h"

namespace jointdyn::fe {
namespace {

namespace fs = std::filesystem;

using Line = InputLine;

// The comma-separated fields of a line, trimmed; a trailing comma adds no field.
std::vector<std::string> Fields(const std::string& text) {
  std::vector<std::string> fields;
  std::stringstream in(text);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(Trim(field));
  if (!fields.empty() && fields.back().empty()) fields.pop_back();
  return fields;
}

long long Label(const Line& at, const std::string& field, const std::string& what) {
  long long label = 0;
  if (!ParseWhole(field, label) || label <= 0)
    FailAt(at, what, field, "must be a positive integer label");
  return label;
}

// A keyword line and its data lines: "*Element, type=C3D8R, elset=Plate".
struct Card {
  std::string name;                           // upper case: "ELEMENT", "SOLID SECTION"
  std::map<std::string, std::string> params;  // upper-case keys, values as written
  Line at;
  std::vector<Line> data;

  std::string Param(const std::string& key) const {
    const auto it = params.find(key);
    return it == params.end() ? "" : it->second;
  }
  std::string Required(const std::string& key) const {
    const std::string value = Param(key);
    if (value.empty()) FailAt(at, "*" + name, "", "needs the parameter " + key + "=");
    return value;
  }
};

Card Keyword(const Line& line) {
  std::vector<std::string> fields = Fields(line.text.substr(1));
  Card card{Upper(fields.empty() ? "" : fields.front()), {}, line, {}};
  for (size_t i = 1; i < fields.size(); ++i) {
    const size_t equals = fields[i].find('=');
    card.params[Upper(Trim(fields[i].substr(0, equals)))] =
        equals == std::string::npos ? "" : Trim(fields[i].substr(equals + 1));
  }
  return card;
}

// The cards of `path` in order, *INCLUDE files read in place (comments "**" and blank lines
// skipped).
void ReadCards(const fs::path& path, const Line& from, std::vector<Card>& cards, int depth) {
  std::ifstream in(path);
  if (!in) FailAt(from, "file", path.string(), "cannot be opened (no such file?)");
  if (depth > 10) FailAt(from, "*INCLUDE", path.string(), "nests more than 10 files deep");
  Line line{path.string(), 0, ""};
  while (std::getline(in, line.text)) {
    ++line.number;
    const std::string text = Trim(line.text);
    if (text.empty() || text.rfind("**", 0) == 0) continue;
    if (text[0] != '*') {
      if (cards.empty()) FailAt(line, "data line", text, "comes before any keyword");
      cards.back().data.push_back({line.file, line.number, text});
      continue;
    }
    Card card = Keyword({line.file, line.number, text});
    if (card.name != "INCLUDE") {
      cards.push_back(std::move(card));
      continue;
    }
    const fs::path input = card.Required("INPUT");
    ReadCards(input.is_absolute() ? input : path.parent_path() / input, card.at, cards, depth + 1);
  }
}

// An Abaqus element type: its jointdyn type, the Abaqus node of each Gmsh node (mesh.h),
// and the corners of its faces S1, S2, .. (Abaqus numbering, from 0).
struct AbaqusType {
  ElementType type;
  std::vector<int> gmsh_from_abaqus;
  std::vector<std::vector<int>> faces;
};

const AbaqusType* FindType(const std::string& name) {
  static const std::vector<std::vector<int>> kTetFaces{{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  static const std::vector<std::vector<int>> kHexFaces{{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1},
                                                       {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
  static const std::vector<std::vector<int>> kQuadFaces{{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  static const std::map<std::string, AbaqusType> kTypes = {
      {"C3D4", {ElementType::kTet4, {0, 1, 2, 3}, kTetFaces}},
      // Abaqus mid-edge nodes 12 23 31 14 24 34; Gmsh's 01 12 20 30 32 31.
      {"C3D10", {ElementType::kTet10, {0, 1, 2, 3, 4, 5, 6, 7, 9, 8}, kTetFaces}},
      {"C3D8", {ElementType::kHex8, {0, 1, 2, 3, 4, 5, 6, 7}, kHexFaces}},
      // Abaqus mid-edge nodes 12 23 34 41 56 67 78 85 15 26 37 48; Gmsh's 01 03 04 12 15 23
      // 26 37 45 47 56 67.
      {"C3D20",
       {ElementType::kHex20,
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 16, 9, 17, 10, 18, 19, 12, 15, 13, 14},
        kHexFaces}},
      {"CPS4", {ElementType::kQuad4, {0, 1, 2, 3}, kQuadFaces}},
      {"CPE4", {ElementType::kQuad4, {0, 1, 2, 3}, kQuadFaces}},
      {"CPS8", {ElementType::kQuad8, {0, 1, 2, 3, 4, 5, 6, 7}, kQuadFaces}},
      {"CPE8", {ElementType::kQuad8, {0, 1, 2, 3, 4, 5, 6, 7}, kQuadFaces}},
  };
  // Formulation suffixes (reduced integration, hybrid, incompatible modes, modified,
  // coupled temperature) change nothing of the mesh.
  std::string base = Upper(name);
  while (base.size() > 4 && std::string("RHIMT").find(base.back()) != std::string::npos)
    base.pop_back();
  const auto it = kTypes.find(base);
  return it == kTypes.end() ? nullptr : &it->second;
}

struct Element {
  long long label = 0;
  const AbaqusType* type = nullptr;
  std::string type_name;         // as written
  std::string block;             // the ELSET= of its *ELEMENT card, else type_name
  std::vector<long long> nodes;  // node labels, Abaqus order
  Line at;
};

// A named set of labels (names are case-insensitive: keyed by their upper case).
struct LabelSet {
  std::string name;  // as first written
  std::vector<long long> labels;
  Line at;
};

struct Surface {
  std::string name;
  std::vector<std::pair<long long, int>> faces;  // element label, face index (S1 = 0)
  Line at;
};

// The model as the cards describe it, by label; Build() turns it into a Mesh.
class InpModel {
 public:
  void Read(const std::vector<Card>& cards, std::map<std::string, int>& ignored);
  Mesh Build(const std::string& path) const;

 private:
  // The block of each element (in elements_ order): the element sets of the sections, else
  // Element::block.
  std::vector<std::string> BlockNames() const;
  void AddBlocks(Mesh& mesh, const std::map<long long, int>& index) const;
  void AddSets(Mesh& mesh, const std::map<long long, int>& index) const;
  FaceSet Faces(const Surface& surface, const std::map<long long, int>& index) const;
  void Nodes(const Card& card);
  void Elements(const Card& card);
  void Set(const Card& card, std::map<std::string, LabelSet>& sets, const std::string& key);
  void SurfaceCard(const Card& card);
  // The set `name` (an instance prefix "Part-1-1." allowed), or null.
  const LabelSet* Find(const std::map<std::string, LabelSet>& sets, const std::string& name) const;
  LabelSet& Add(std::map<std::string, LabelSet>& sets, const std::string& name, const Line& at);

  std::map<long long, Vec3> nodes_;
  std::map<long long, Line> node_lines_;
  std::vector<Element> elements_;
  std::map<long long, size_t> element_index_;
  std::map<std::string, LabelSet> nsets_, elsets_;
  std::vector<Surface> surfaces_;
  std::vector<std::pair<std::string, Line>> sections_;  // the element set of each section
  std::vector<std::string> instances_;
  int dim_ = 0;
};

LabelSet& InpModel::Add(std::map<std::string, LabelSet>& sets, const std::string& name,
                        const Line& at) {
  LabelSet& set = sets[Upper(name)];
  if (set.name.empty()) set = {name, {}, at};
  return set;
}

const LabelSet* InpModel::Find(const std::map<std::string, LabelSet>& sets,
                               const std::string& name) const {
  std::string key = Upper(name);
  for (const std::string& instance : instances_)
    if (key.rfind(Upper(instance) + ".", 0) == 0) key = key.substr(instance.size() + 1);
  const auto it = sets.find(key);
  return it == sets.end() ? nullptr : &it->second;
}

void InpModel::Nodes(const Card& card) {
  LabelSet* set = card.Param("NSET").empty() ? nullptr : &Add(nsets_, card.Param("NSET"), card.at);
  for (const Line& line : card.data) {
    const std::vector<std::string> f = Fields(line.text);
    if (f.size() < 3 || f.size() > 4) FailAt(line, "*NODE", line.text, "must be: label, x, y[, z]");
    const long long label = Label(line, f[0], "node label");
    Vec3 x = Vec3::Zero();
    for (size_t i = 1; i < f.size(); ++i)
      if (!ParseWhole(f[i], x(i - 1)) || !std::isfinite(x(i - 1)))
        FailAt(line, "node " + f[0], f[i], "coordinates must be finite numbers");
    if (!nodes_.emplace(label, x).second)
      FailAt(line, "node " + f[0], "",
             "is defined twice (first at line " + std::to_string(node_lines_[label].number) + ")");
    node_lines_[label] = line;
    if (set) set->labels.push_back(label);
  }
}

void InpModel::Elements(const Card& card) {
  const std::string type_name = card.Required("TYPE");
  const AbaqusType* type = FindType(type_name);
  if (!type)
    FailAt(card.at, "*ELEMENT, TYPE", type_name,
           "is not supported: use C3D4, C3D10, C3D8, C3D20 (with suffixes R, H, I, M, T) or "
           "CPS4, CPE4, CPS8, CPE8");
  const int dim = Dimension(type->type);
  if (dim_ != 0 && dim != dim_)
    FailAt(card.at, "*ELEMENT, TYPE", type_name, "mixes plane and solid elements in one mesh");
  dim_ = dim;
  LabelSet* set =
      card.Param("ELSET").empty() ? nullptr : &Add(elsets_, card.Param("ELSET"), card.at);
  const size_t count = 1 + NodesPerElement(type->type);
  std::vector<std::string> fields;
  Line first;
  for (const Line& line : card.data) {  // an element's fields may go on over several lines
    if (fields.empty()) first = line;
    for (std::string& field : Fields(line.text)) fields.push_back(std::move(field));
    if (fields.size() < count) continue;
    if (fields.size() > count)
      FailAt(first, "element " + fields[0], "",
             "has more than the " + std::to_string(count - 1) + " nodes of " + type_name);
    Element element{Label(first, fields[0], "element label"),
                    type,
                    type_name,
                    set ? set->name : type_name,
                    {},
                    first};
    for (size_t i = 1; i < count; ++i) element.nodes.push_back(Label(first, fields[i], "node"));
    if (!element_index_.emplace(element.label, elements_.size()).second)
      FailAt(first, "element " + fields[0], "", "is defined twice");
    if (set) set->labels.push_back(element.label);
    elements_.push_back(std::move(element));
    fields.clear();
  }
  if (!fields.empty())
    FailAt(first, "element " + fields[0], "",
           "has " + std::to_string(fields.size() - 1) + " nodes, " + type_name + " has " +
               std::to_string(count - 1));
}

// *NSET or *ELSET (`key` NSET or ELSET): labels, names of sets of the same kind, or
// GENERATE lines "first, last[, step]".
void InpModel::Set(const Card& card, std::map<std::string, LabelSet>& sets,
                   const std::string& key) {
  LabelSet& set = Add(sets, card.Required(key), card.at);
  const bool generate = card.params.count("GENERATE") > 0;
  for (const Line& line : card.data) {
    const std::vector<std::string> f = Fields(line.text);
    if (generate) {
      if (f.size() < 2 || f.size() > 3)
        FailAt(line, "GENERATE", line.text, "must be: first, last[, step]");
      const long long first = Label(line, f[0], "first"), last = Label(line, f[1], "last");
      const long long step = f.size() == 3 ? Label(line, f[2], "step") : 1;
      if (last < first || (last - first) / step > 100000000)
        FailAt(line, "GENERATE", line.text, "must have first <= last and at most 1e8 labels");
      for (long long label = first; label <= last; label += step) set.labels.push_back(label);
      continue;
    }
    for (const std::string& field : f) {
      long long label = 0;
      if (ParseWhole(field, label)) {
        set.labels.push_back(Label(line, field, "label"));
      } else if (const LabelSet* other = Find(sets, field); other && other != &set) {
        set.labels.insert(set.labels.end(), other->labels.begin(), other->labels.end());
      } else {
        FailAt(line, "*" + card.name + ", " + key + "=" + set.name, field,
               "is neither a label nor a set defined before");
      }
    }
  }
}

void InpModel::SurfaceCard(const Card& card) {
  const std::string name = card.Required("NAME"), type = Upper(card.Param("TYPE"));
  if (type == "NODE") {
    Set(Card{"NSET", {{"NSET", name}}, card.at, card.data}, nsets_, "NSET");
    return;
  }
  if (!type.empty() && type != "ELEMENT")
    FailAt(card.at, "*SURFACE, TYPE", card.Param("TYPE"), "must be ELEMENT or NODE");
  Surface surface{name, {}, card.at};
  for (const Line& line : card.data) {
    const std::vector<std::string> f = Fields(line.text);
    int face = 0;
    if (f.size() != 2 || f[1].size() < 2 || Upper(f[1])[0] != 'S' ||
        !ParseWhole(f[1].substr(1), face) || face < 1)
      FailAt(line, "*SURFACE, NAME=" + name, line.text, "must be: element set or label, S<face>");
    long long label = 0;
    std::vector<long long> labels;
    if (ParseWhole(f[0], label)) {
      labels = {label};
    } else if (const LabelSet* set = Find(elsets_, f[0])) {
      labels = set->labels;
    } else {
      FailAt(line, "*SURFACE, NAME=" + name, f[0],
             "is neither an element label nor an element set");
    }
    for (long long element : labels) surface.faces.emplace_back(element, face - 1);
  }
  surfaces_.push_back(std::move(surface));
}

void InpModel::Read(const std::vector<Card>& cards, std::map<std::string, int>& ignored) {
  static const std::set<std::string> kLost = {
      "TIE", "COUPLING", "KINEMATIC COUPLING", "DISTRIBUTING COUPLING",
      "MPC", "EQUATION", "RIGID BODY",         "TRANSFORM"};
  std::vector<std::string> lost;
  bool in_step = false;
  for (const Card& card : cards) {
    const std::string& name = card.name;
    if (name == "STEP" || name == "END STEP") in_step = name == "STEP";
    if (in_step || name == "STEP" || name == "END STEP") {
      ++ignored["*" + name];
    } else if (kLost.count(name)) {
      lost.push_back("*" + name + " (" + card.at.file + ":" + std::to_string(card.at.number) + ")");
    } else if (name == "NODE") {
      Nodes(card);
    } else if (name == "ELEMENT") {
      Elements(card);
    } else if (name == "NSET") {
      Set(card, nsets_, "NSET");
    } else if (name == "ELSET") {
      Set(card, elsets_, "ELSET");
    } else if (name == "SURFACE") {
      SurfaceCard(card);
    } else if (name == "SOLID SECTION") {
      sections_.emplace_back(card.Required("ELSET"), card.at);
      ++ignored["*SOLID SECTION (material)"];
    } else if (name == "INSTANCE") {
      instances_.push_back(card.Required("NAME"));
      if (instances_.size() > 1 || !card.data.empty())
        FailAt(card.at, "*INSTANCE", card.Param("NAME"),
               "only one instance without placement data is supported (a flat model)");
    } else if (name != "PART" && name != "END PART" && name != "ASSEMBLY" &&
               name != "END ASSEMBLY" && name != "END INSTANCE") {
      ++ignored["*" + name];
    }
  }
  if (!lost.empty()) {
    std::string list;
    for (const std::string& card : lost) list += (list.empty() ? "" : ", ") + card;
    FailAt(cards.front().at, "constraints", list,
           "are not read from .inp files: define couplings and contact in the model file");
  }
  if (elements_.empty()) FailAt(cards.front().at, "*ELEMENT", "", "the file defines no elements");
}

std::vector<std::string> InpModel::BlockNames() const {
  std::vector<std::string> names(elements_.size());
  if (sections_.empty()) {
    for (size_t e = 0; e < elements_.size(); ++e) names[e] = elements_[e].block;
    return names;
  }
  for (const auto& [elset, at] : sections_) {
    const LabelSet* set = Find(elsets_, elset);
    if (!set) FailAt(at, "*SOLID SECTION, ELSET", elset, "names no element set");
    for (long long label : set->labels) {
      const auto it = element_index_.find(label);
      if (it == element_index_.end())
        FailAt(set->at, "element set " + set->name, std::to_string(label), "is not an element");
      if (!names[it->second].empty())
        FailAt(at, "*SOLID SECTION, ELSET", elset,
               "element " + std::to_string(label) + " is in the section of " + names[it->second] +
                   " too");
      names[it->second] = set->name;
    }
  }
  for (size_t e = 0; e < elements_.size(); ++e)
    if (names[e].empty())
      FailAt(elements_[e].at, "element " + std::to_string(elements_[e].label), "",
             "is in no *SOLID SECTION (every element needs one: it names the element's block)");
  return names;
}

void InpModel::AddBlocks(Mesh& mesh, const std::map<long long, int>& index) const {
  const std::vector<std::string> names = BlockNames();
  std::map<std::string, size_t> blocks;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& element = elements_[e];
    const auto [it, added] = blocks.emplace(names[e], mesh.blocks.size());
    if (added) mesh.blocks.push_back({names[e], element.type->type, {}, {}});
    ElementBlock& block = mesh.blocks[it->second];
    if (block.type != element.type->type)
      FailAt(element.at, "element " + std::to_string(element.label), element.type_name,
             "block " + block.name + " mixes element types (" + Name(block.type) + " and " +
                 Name(element.type->type) + "): give each type its own element set");
    for (int node : element.type->gmsh_from_abaqus)
      block.connectivity.push_back(index.at(element.nodes[node]));
    block.tags.push_back(element.label);
  }
}

FaceSet InpModel::Faces(const Surface& surface, const std::map<long long, int>& index) const {
  FaceSet set;
  bool first = true;
  for (const auto& [label, face] : surface.faces) {
    const auto it = element_index_.find(label);
    if (it == element_index_.end())
      FailAt(surface.at, "*SURFACE, NAME=" + surface.name, std::to_string(label),
             "is not an element");
    const Element& element = elements_[it->second];
    if (face >= static_cast<int>(element.type->faces.size()))
      FailAt(surface.at, "*SURFACE, NAME=" + surface.name,
             "element " + std::to_string(label) + ", S" + std::to_string(face + 1),
             element.type_name + " has faces S1 .. S" + std::to_string(element.type->faces.size()));
    const ElementType type = FaceType(element.type->type);
    if (!first && type != set.type)
      FailAt(surface.at, "*SURFACE, NAME=" + surface.name, "", "mixes face types");
    set.type = type;
    first = false;
    std::vector<int> corners = element.type->faces[face];
    std::sort(corners.begin(), corners.end());
    for (const std::vector<int>& local : LocalFaces(element.type->type)) {
      std::vector<int> local_corners(local.begin(), local.begin() + corners.size());
      std::sort(local_corners.begin(), local_corners.end());
      if (local_corners != corners) continue;
      for (int node : local)  // Gmsh-ordered element node -> mesh node
        set.connectivity.push_back(index.at(element.nodes[element.type->gmsh_from_abaqus[node]]));
      break;
    }
    set.tags.push_back(label);
  }
  return set;
}

// Node sets: every *NSET (its nodes used by elements), every element set and surface (their
// nodes); face sets: the element-face surfaces.
void InpModel::AddSets(Mesh& mesh, const std::map<long long, int>& index) const {
  const auto add = [&](const std::string& name, int node) { mesh.node_sets[name].push_back(node); };
  for (const auto& [key, set] : nsets_)
    for (long long label : set.labels) {
      if (!nodes_.count(label))
        FailAt(set.at, "node set " + set.name, std::to_string(label), "is not a node");
      if (const auto it = index.find(label); it != index.end()) add(set.name, it->second);
    }
  for (const auto& [key, set] : elsets_)
    for (long long label : set.labels) {
      const auto it = element_index_.find(label);
      if (it == element_index_.end())
        FailAt(set.at, "element set " + set.name, std::to_string(label), "is not an element");
      for (long long node : elements_[it->second].nodes) add(set.name, index.at(node));
    }
  for (const Surface& surface : surfaces_) {
    FaceSet faces = Faces(surface, index);
    for (int node : faces.connectivity) add(surface.name, node);
    mesh.face_sets[surface.name] = std::move(faces);
  }
  SortNodeSets(mesh);
}

Mesh InpModel::Build(const std::string& path) const {
  Mesh mesh;
  mesh.dim = dim_;
  mesh.file = path;
  const std::map<long long, int> index = SetUsedNodes(mesh, elements_, nodes_, "*NODE");
  if (dim_ == 2)
    for (const auto& [label, node] : index)
      if (nodes_.at(label).z() != 0.0)
        FailAt(node_lines_.at(label), "node " + std::to_string(label),
               FormatValue(nodes_.at(label).z()),
               "a plane model (CPS/CPE elements) must lie in z = 0");
  AddBlocks(mesh, index);
  AddSets(mesh, index);
  CheckImportedMesh(mesh, [&](long long label) { return elements_[element_index_.at(label)].at; });
  return mesh;
}

}  // namespace

Mesh ReadInp(const std::string& path, std::map<std::string, int>* ignored) {
  if (fs::path(path).extension() != ".inp")
    throw InputError("mesh file", path, "must be an Abaqus input file with the extension .inp");
  std::vector<Card> cards;
  ReadCards(path, Line{path, 0, ""}, cards, 0);
  if (cards.empty())
    throw InputError("", "", "has no keywords (is it an Abaqus .inp file?)").Located(path, 0, "");
  InpModel model;
  std::map<std::string, int> skipped;
  model.Read(cards, ignored ? *ignored : skipped);
  return model.Build(path);
}

}  // namespace jointdyn::fe
