#include "fe/nastran_bdf.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fe/input_text.h"

namespace jointdyn::fe {
namespace {

namespace fs = std::filesystem;

// A card with its data fields (continuations joined; blank fields kept as "").
struct Card {
  std::string name;  // upper case, without the large-field '*'
  std::vector<std::string> fields;
  InputLine at;
};

// A physical line: its first field (a card name or a continuation mark) and data fields.
struct Physical {
  std::string head;
  std::vector<std::string> data;
};

Physical Split(const std::string& text) {
  Physical line;
  if (text.find(',') != std::string::npos) {  // free field: name, 8 data, continuation mark
    std::stringstream in(text);
    std::string field;
    std::getline(in, field, ',');
    line.head = Trim(field);
    while (line.data.size() < 8 && std::getline(in, field, ',')) line.data.push_back(Trim(field));
    return line;
  }
  line.head = Trim(text.substr(0, 8));
  const bool large = !line.head.empty() && line.head.back() == '*';
  const size_t width = large ? 16 : 8, count = large ? 4 : 8;
  for (size_t i = 0; i < count && 8 + i * width < text.size(); ++i)
    line.data.push_back(Trim(text.substr(8 + i * width, width)));
  return line;
}

// A Nastran real: "7850.", "1.5-3" (1.5e-3), "2.1+11", "1.0D-3".
bool Real(std::string text, double& value) {
  std::replace(text.begin(), text.end(), 'D', 'E');
  std::replace(text.begin(), text.end(), 'd', 'E');
  if (text.find_first_of("eE") == std::string::npos)
    for (size_t i = 1; i < text.size(); ++i)
      if ((text[i] == '+' || text[i] == '-') &&
          (std::isdigit(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.')) {
        text.insert(i, "E");
        break;
      }
  if (!text.empty() && text.front() == '+') text.erase(0, 1);
  return ParseWhole(text, value) && std::isfinite(value);
}

long long Id(const Card& card, size_t field, const std::string& what) {
  long long id = 0;
  const std::string text = field < card.fields.size() ? card.fields[field] : "";
  if (!ParseWhole(text, id) || id <= 0)
    FailAt(card.at, card.name + " " + what, text.empty() ? "(blank)" : text,
           "must be a positive integer");
  return id;
}

// The cards of `path`, INCLUDE files read in place: what lies between BEGIN BULK and ENDDATA
// (all of a file without BEGIN BULK, and all of an included file).
void ReadCards(const fs::path& path, const InputLine& from, std::vector<Card>& cards, int depth) {
  std::ifstream in(path);
  if (!in) FailAt(from, "file", path.string(), "cannot be opened (no such file?)");
  if (depth > 10) FailAt(from, "INCLUDE", path.string(), "nests more than 10 files deep");
  std::vector<InputLine> lines;
  bool has_begin_bulk = false;
  for (InputLine line{path.string(), 0, ""}; std::getline(in, line.text);) {
    ++line.number;
    if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
    has_begin_bulk |= Upper(Trim(line.text)).rfind("BEGIN BULK", 0) == 0;
    lines.push_back(line);
  }
  bool bulk = !has_begin_bulk || depth > 0;
  for (const InputLine& line : lines) {
    const std::string upper = Upper(Trim(line.text));
    if (upper.rfind("BEGIN BULK", 0) == 0) {
      bulk = true;
      continue;
    }
    if (!bulk || upper.empty() || upper[0] == '$') continue;
    if (upper.rfind("ENDDATA", 0) == 0) break;
    if (upper.rfind("INCLUDE", 0) == 0) {
      const size_t open = line.text.find('\''), close = line.text.rfind('\'');
      if (open == std::string::npos || close <= open)
        FailAt(line, "INCLUDE", Trim(line.text), "must name a file in quotes: INCLUDE 'file'");
      const fs::path input = line.text.substr(open + 1, close - open - 1);
      ReadCards(input.is_absolute() ? input : path.parent_path() / input, line, cards, depth + 1);
      continue;
    }
    Physical physical = Split(line.text);
    const bool continuation =
        physical.head.empty() || physical.head[0] == '+' || physical.head[0] == '*';
    if (continuation) {
      if (cards.empty()) FailAt(line, "continuation", Trim(line.text), "comes before any card");
    } else {
      std::string name = Upper(physical.head);
      if (name.back() == '*') name.pop_back();
      cards.push_back({name, {}, line});
    }
    Card& card = cards.back();
    card.fields.insert(card.fields.end(), physical.data.begin(), physical.data.end());
  }
}

// Gmsh's node (mesh.h) for each node of a CTETRA or CHEXA; its mid-edge nodes: CTETRA
// 12 23 31 14 24 34, Gmsh 01 12 20 30 32 31; CHEXA 12 23 34 41 15 26 37 48 56 67 78 85,
// Gmsh 01 03 04 12 15 23 26 37 45 47 56 67 (counted from 1 and 0).
const std::vector<int>& GmshFromNastran(ElementType type) {
  static const std::map<ElementType, std::vector<int>> kOrders = {
      {ElementType::kTet4, {0, 1, 2, 3}},
      {ElementType::kTet10, {0, 1, 2, 3, 4, 5, 6, 7, 9, 8}},
      {ElementType::kHex8, {0, 1, 2, 3, 4, 5, 6, 7}},
      {ElementType::kHex20,
       {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 9, 13, 10, 14, 15, 16, 19, 17, 18}}};
  return kOrders.at(type);
}

struct Element {
  long long label = 0;  // EID
  long long pid = 0;
  ElementType type = ElementType::kHex8;
  std::vector<long long> nodes;  // Nastran order
  InputLine at;
};

Element ReadElement(const Card& card) {
  Element element{Id(card, 0, "EID"), Id(card, 1, "PID"), ElementType::kHex8, {}, card.at};
  for (size_t f = 2; f < card.fields.size(); ++f)
    if (!card.fields[f].empty()) element.nodes.push_back(Id(card, f, "G" + std::to_string(f - 1)));
  const bool tet = card.name == "CTETRA";
  const size_t linear = tet ? 4 : 8, quadratic = tet ? 10 : 20;
  if (element.nodes.size() != linear && element.nodes.size() != quadratic)
    FailAt(
        card.at, card.name + " " + card.fields[0], std::to_string(element.nodes.size()) + " nodes",
        "must have " + std::to_string(linear) + " or all " + std::to_string(quadratic) + " nodes");
  const bool second = element.nodes.size() == quadratic;
  element.type = tet ? (second ? ElementType::kTet10 : ElementType::kTet4)
                     : (second ? ElementType::kHex20 : ElementType::kHex8);
  return element;
}

// SET1: SID, then node IDs and "a THRU b" ranges.
std::vector<long long> ReadSet(const Card& card) {
  std::vector<long long> ids;
  for (size_t f = 1; f < card.fields.size(); ++f) {
    if (card.fields[f].empty()) continue;
    if (Upper(card.fields[f]) != "THRU") {
      ids.push_back(Id(card, f, "ID"));
      continue;
    }
    const long long last = Id(card, f + 1, "THRU end");
    if (ids.empty() || last < ids.back() || last - ids.back() > 100000000)
      FailAt(card.at, "SET1 " + card.fields[0], card.fields[f + 1],
             "THRU needs a start before it and an end not below it (at most 1e8 IDs)");
    for (long long id = ids.back() + 1; id <= last; ++id) ids.push_back(id);
    ++f;
  }
  return ids;
}

// An RBE2 (rigid: the GM grids follow GN) or RBE3 (distributing: REFGRID follows the
// weighted rigid fit of the G grids) as read.
struct Rbe {
  bool rigid = true;
  long long element = 0;                            // EID
  long long reference = 0;                          // GN or REFGRID
  std::vector<std::pair<long long, double>> nodes;  // tied grids and weights (RBE2: 1)
  InputLine at;
  std::string Name() const { return (rigid ? "RBE2 " : "RBE3 ") + std::to_string(element); }
};

// A field that holds a real (Nastran reals have a decimal point or an exponent).
bool IsReal(const std::string& field) { return field.find_first_of(".eE") != std::string::npos; }

// RBE2: EID, GN, CM (all six components), GM1 ... [ALPHA].
Rbe ReadRbe2(const Card& card) {
  Rbe rbe{true, Id(card, 0, "EID"), Id(card, 1, "GN"), {}, card.at};
  if (card.fields.size() < 3 || Trim(card.fields[2]) != "123456")
    FailAt(card.at, rbe.Name() + " CM", card.fields.size() > 2 ? card.fields[2] : "",
           "must be 123456: jointdyn's rigid coupling ties all six components");
  for (size_t f = 3; f < card.fields.size() && !IsReal(card.fields[f]); ++f)
    if (!card.fields[f].empty()) rbe.nodes.emplace_back(Id(card, f, "GM"), 1.0);
  return rbe;
}

// RBE3: EID, blank, REFGRID, REFC (all six), then groups WT, C (123), G ...; no UM.
Rbe ReadRbe3(const Card& card) {
  Rbe rbe{false, Id(card, 0, "EID"), Id(card, 2, "REFGRID"), {}, card.at};
  if (card.fields.size() < 4 || Trim(card.fields[3]) != "123456")
    FailAt(card.at, rbe.Name() + " REFC", card.fields.size() > 3 ? card.fields[3] : "",
           "must be 123456: the reference node follows the fit in all six components");
  double weight = 0.0;
  for (size_t f = 4; f < card.fields.size(); ++f) {
    const std::string field = Upper(Trim(card.fields[f]));
    if (field.empty()) continue;
    if (field == "UM" || field == "ALPHA" || field == "TEMP")
      FailAt(card.at, rbe.Name() + " " + field, "",
             "is not supported: the reference grid must be the dependent one (no UM)");
    if (IsReal(field)) {
      if (!Real(field, weight) || !(weight > 0.0))
        FailAt(card.at, rbe.Name() + " WT", field, "must be a weight > 0");
      if (f + 1 >= card.fields.size() || Trim(card.fields[f + 1]) != "123")
        FailAt(card.at, rbe.Name() + " C", f + 1 < card.fields.size() ? card.fields[f + 1] : "",
               "must be 123: the grids enter the fit with their translations");
      ++f;
      continue;
    }
    if (weight == 0.0) FailAt(card.at, rbe.Name() + " G", field, "comes before any weight WT");
    rbe.nodes.emplace_back(Id(card, f, "G"), weight);
  }
  return rbe;
}

// The cards as a model by ID; Build() makes the mesh.
struct BulkModel {
  std::map<long long, Vec3> grids;
  std::map<long long, InputLine> grid_lines;
  std::vector<Element> elements;
  std::set<long long> element_ids;
  std::map<std::string, std::vector<long long>> sets;
  std::map<std::string, InputLine> set_lines;
  std::vector<Rbe> rbes;

  void Read(const std::vector<Card>& cards, std::map<std::string, int>& ignored);
  Mesh Build(const std::string& path) const;
  void AddCouplings(const std::map<long long, int>& index, Mesh& mesh) const;
};

void BulkModel::Read(const std::vector<Card>& cards, std::map<std::string, int>& ignored) {
  static const std::set<std::string> kLost = {
      "RBAR", "RBAR1", "MPC",  "CPENTA", "CPYRA",  "CQUAD4", "CQUAD8", "CTRIA3", "CTRIA6",
      "CBAR", "CBEAM", "CROD", "CELAS1", "CELAS2", "CBUSH",  "CONM2",  "CGAP"};
  std::map<std::string, std::vector<int>> lost;  // card -> lines
  std::string lost_file;
  for (const Card& card : cards) {
    if (kLost.count(card.name)) {
      lost[card.name].push_back(card.at.number);
      lost_file = card.at.file;
    } else if (card.name == "GRID") {
      const long long id = Id(card, 0, "ID");
      if (card.fields.size() > 1 && !card.fields[1].empty() && card.fields[1] != "0")
        FailAt(card.at, "GRID " + card.fields[0] + " CP", card.fields[1],
               "coordinates must be in the basic system (CP blank or 0)");
      Vec3 x = Vec3::Zero();
      for (int d = 0; d < 3; ++d) {
        const std::string text = 2 + d < int(card.fields.size()) ? card.fields[2 + d] : "";
        if (!text.empty() && !Real(text, x(d)))
          FailAt(card.at, "GRID " + card.fields[0] + " X" + std::to_string(d + 1), text,
                 "must be a finite real");
      }
      if (!grids.emplace(id, x).second)
        FailAt(card.at, "GRID " + card.fields[0], "",
               "is defined twice (first at line " + std::to_string(grid_lines[id].number) + ")");
      grid_lines[id] = card.at;
    } else if (card.name == "CTETRA" || card.name == "CHEXA") {
      elements.push_back(ReadElement(card));
      if (!element_ids.insert(elements.back().label).second)
        FailAt(card.at, card.name + " " + card.fields[0], "", "reuses an element ID");
    } else if (card.name == "RBE2" || card.name == "RBE3") {
      rbes.push_back(card.name == "RBE2" ? ReadRbe2(card) : ReadRbe3(card));
    } else if (card.name == "SET1") {
      const std::string name = "set_" + std::to_string(Id(card, 0, "SID"));
      sets[name] = ReadSet(card);
      set_lines[name] = card.at;
    } else {
      ++ignored[card.name];
    }
  }
  if (!lost.empty()) {
    std::string list;
    for (const auto& [name, lines] : lost)
      list += (list.empty() ? "" : ", ") + std::to_string(lines.size()) + " " + name +
              " (first at line " + std::to_string(lines.front()) + ")";
    throw InputError("cards", list,
                     "are not read from bulk data: define couplings in the model file; "
                     "wedges, pyramids, shells, beams, springs and masses are not supported")
        .Located(lost_file, 0, "");
  }
  if (elements.empty())
    throw InputError("CTETRA, CHEXA", "", "the file defines no solid elements")
        .Located(cards.empty() ? "" : cards.front().at.file, 0, "");
}

Mesh BulkModel::Build(const std::string& path) const {
  Mesh mesh;
  mesh.file = path;
  const std::map<long long, int> index = SetUsedNodes(mesh, elements, grids, "a GRID");
  // Blocks by PID; a PID with several element types gives one block per type.
  std::map<long long, std::set<ElementType>> types;
  for (const Element& element : elements) types[element.pid].insert(element.type);
  std::map<std::pair<long long, ElementType>, size_t> blocks;
  for (const Element& element : elements) {
    const auto [it, added] =
        blocks.emplace(std::pair(element.pid, element.type), mesh.blocks.size());
    if (added)
      mesh.blocks.push_back(
          {"pid_" + std::to_string(element.pid) +
               (types[element.pid].size() > 1 ? std::string("_") + Name(element.type) : ""),
           element.type,
           {},
           {}});
    ElementBlock& block = mesh.blocks[it->second];
    for (int node : GmshFromNastran(element.type))
      block.connectivity.push_back(index.at(element.nodes[node]));
    block.tags.push_back(element.label);
  }
  for (const ElementBlock& block : mesh.blocks) {
    std::vector<int>& set = mesh.node_sets[block.name];
    set.assign(block.connectivity.begin(), block.connectivity.end());
  }
  for (const auto& [name, ids] : sets)
    for (long long id : ids) {
      if (!grids.count(id)) FailAt(set_lines.at(name), name, std::to_string(id), "is not a GRID");
      if (const auto it = index.find(id); it != index.end())
        mesh.node_sets[name].push_back(it->second);
    }
  SortNodeSets(mesh);
  AddCouplings(index, mesh);
  CheckImportedMesh(mesh, [&](long long id) {
    return std::find_if(elements.begin(), elements.end(),
                        [&](const Element& e) { return e.label == id; })
        ->at;
  });
  return mesh;
}

// Each RBE as a coupling of the mesh: its reference GRID (off the elements) a reference node
// "grid_<ID>", its tied grids (nodes of the elements) the node set "rbe2_<EID>" or
// "rbe3_<EID>" with their weights.
void BulkModel::AddCouplings(const std::map<long long, int>& index, Mesh& mesh) const {
  for (const Rbe& rbe : rbes) {
    const auto grid = grids.find(rbe.reference);
    if (grid == grids.end())
      FailAt(rbe.at, rbe.Name(), std::to_string(rbe.reference), "names no GRID");
    if (index.count(rbe.reference))
      FailAt(rbe.at, rbe.Name(), "GRID " + std::to_string(rbe.reference),
             "is a node of the solid elements: a coupling ties the mesh to a point off it "
             "(define this one in the model file, key couplings)");
    std::map<int, double> weights;  // by node index: sorted, a grid named twice adds up
    for (const auto& [id, weight] : rbe.nodes) {
      const auto node = index.find(id);
      if (node == index.end())
        FailAt(rbe.at, rbe.Name(), "GRID " + std::to_string(id),
               "is no node of the solid elements (only those can be tied)");
      weights[node->second] += weight;
    }
    if (weights.empty()) FailAt(rbe.at, rbe.Name(), "", "ties no grid");
    MeshCoupling coupling{"grid_" + std::to_string(rbe.reference),
                          grid->second,
                          rbe.rigid,
                          (rbe.rigid ? "rbe2_" : "rbe3_") + std::to_string(rbe.element),
                          {}};
    std::vector<int>& set = mesh.node_sets[coupling.set];
    for (const auto& [node, weight] : weights) {
      set.push_back(node);
      if (!rbe.rigid) coupling.weights.push_back(weight);
    }
    mesh.couplings.push_back(std::move(coupling));
  }
}

}  // namespace

bool IsBulkDataFile(const std::string& path) {
  const std::string extension = Upper(fs::path(path).extension().string());
  return extension == ".BDF" || extension == ".NAS" || extension == ".DAT";
}

Mesh ReadBdf(const std::string& path, std::map<std::string, int>* ignored) {
  if (!IsBulkDataFile(path))
    throw InputError("mesh file", path,
                     "must be Nastran bulk data with the extension .bdf, .nas or .dat");
  std::vector<Card> cards;
  ReadCards(path, InputLine{path, 0, ""}, cards, 0);
  BulkModel model;
  std::map<std::string, int> skipped;
  model.Read(cards, ignored ? *ignored : skipped);
  return model.Build(path);
}

}  // namespace jointdyn::fe
