#include "model/lumped_reader.h"

#include <algorithm>
#include <memory>
#include <set>

#include "model/law_registry.h"
#include "model/time_function_reader.h"

namespace jointdyn::model {

using lumped::kGround;
using time::TimeFunction;
using Kind = ModelNode::Kind;

int DofTable::Read(const ModelNode& node, const std::string& key, bool ground_ok) const {
  const std::string name = node.String(key);
  if (ground_ok && name == "ground") return kGround;
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end())
    node.FailValue(key, name,
                   "must name a DOF (" + Listing() + ")" + (ground_ok ? " or ground" : ""));
  return int(it - names_.begin());
}

int DofTable::ReadEnd(const ModelNode& node, const std::string& key) const {
  return node.Has(key) ? Read(node, key, true) : kGround;
}

std::vector<int> DofTable::ReadList(const ModelNode& node, const std::string& key,
                                    bool* all) const {
  *all = node.KindOf(key) == Kind::kScalar;
  if (*all) {
    const std::string value = node.String(key);
    if (value != "all") node.FailValue(key, value, "must be all or a list of DOF names");
    std::vector<int> every(names_.size());
    for (int i = 0; i < size(); ++i) every[i] = i;
    return every;
  }
  std::vector<int> indices;
  const std::vector<std::string> list = node.Strings(key);
  for (size_t i = 0; i < list.size(); ++i)
    indices.push_back(Find(node, key + "[" + std::to_string(i) + "]", list[i]));
  return indices;
}

std::vector<int> DofTable::ReadEnds(const ModelNode& node, const std::string& key, int count,
                                    bool ground_ok) const {
  const std::string rule =
      count == 1 ? "must name one DOF"
                 : "must list " + std::to_string(count) +
                       " DOFs, one per slip component (law.dim = " + std::to_string(count) + ")";
  if (node.KindOf(key) == Kind::kList) {
    const std::vector<std::string> list = node.Strings(key);
    if (int(list.size()) != count) {
      std::string text;
      for (const auto& name : list) text += (text.empty() ? "" : ", ") + name;
      node.FailValue(key, "[" + text + "]", rule);
    }
    std::vector<int> ends;
    for (size_t i = 0; i < list.size(); ++i)
      ends.push_back(Find(node, key + "[" + std::to_string(i) + "]", list[i]));
    return ends;
  }
  if (ground_ok && (!node.Has(key) || node.String(key) == "ground"))
    return std::vector<int>(count, kGround);
  const std::string name = node.String(key);
  if (count != 1) node.FailValue(key, name, rule + (ground_ok ? " or be ground" : ""));
  return {Read(node, key, ground_ok)};
}

int DofTable::Find(const ModelNode& node, const std::string& key, const std::string& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) node.FailValue(key, name, "must name a DOF (" + Listing() + ")");
  return int(it - names_.begin());
}

std::string DofTable::Listing() const {
  if (names_.size() <= 8) {
    std::string text;
    for (const auto& n : names_) text += (text.empty() ? "" : ", ") + n;
    return text;
  }
  return names_[0] + ", " + names_[1] + ", ..., " + names_.back();
}

namespace {

// A number (a constant, checked by `rule`) or a time-function mapping.
// Without `time_domain` only a number.
TimeFunction ReadNumberOrFunction(const ModelNode& node, const std::string& key, const Rule& rule,
                                  bool time_domain) {
  if (node.KindOf(key) != Kind::kMap) return TimeFunction::Constant(node.Double(key, rule));
  if (!time_domain)
    node.FailValue(key, "", "must be a number: a periodic analysis takes no time functions");
  const ModelNode function = node.Map(key);
  TimeFunction f = ReadTimeFunction(function);
  function.Finish();
  return f;
}

// The body of an interface-law element (law and normal), without its ends: a friction
// element when `law:` is given, else a normal law alone (a contact element).
struct ElementBody {
  std::shared_ptr<const laws::TangentialLaw> law;  // null: contact element
  lumped::NormalSource normal;
  std::shared_ptr<const laws::NormalLaw> contact_law;
  double gap0 = 0.0;
};

// Chain ground elements (`allow_dof_pair` false) act along the chain's 1D DOFs: 1D laws.
ElementBody ReadElementBody(const ModelNode& node, const DofTable& dofs, bool allow_dof_pair,
                            bool time_domain) {
  ElementBody body;
  if (node.Has("law")) {
    const ModelNode law = node.Map("law");
    body.law = ReadTangentialLaw(law);
    if (!allow_dof_pair && body.law->dim() != 1)
      law.FailValue("dim", std::to_string(body.law->dim()),
                    "chain ground elements are 1D: use dim: 1");
  }
  const ModelNode normal = node.Map("normal");
  if (!body.law) {  // a normal law alone between the element's ends
    body.contact_law = ReadNormalLaw(normal.Map("law"));
    body.gap0 = normal.Double("gap0", 0.0);
    normal.Finish();
    return body;
  }
  auto& source = body.normal;
  if (normal.Has("pressure") == normal.Has("law"))
    normal.FailValue(normal.Has("law") ? "law" : "pressure", "",
                     "give either pressure (the normal force) or law (a normal law with a "
                     "prescribed gap or a normal DOF pair)");
  if (normal.Has("pressure")) {
    source.pressure = ReadNumberOrFunction(normal, "pressure", NonNegative(), time_domain);
  } else {
    source.law = ReadNormalLaw(normal.Map("law"));
    if (normal.Has("gap") == normal.Has("a"))
      normal.FailValue(normal.Has("a") ? "a" : "gap", "",
                       "give either gap (prescribed) or a and b (the normal DOF pair)");
    if (normal.Has("gap")) {
      source.kind = lumped::NormalSource::Kind::kGapFunction;
      source.gap = ReadNumberOrFunction(normal, "gap", Any(), time_domain);
    } else {
      if (!allow_dof_pair)
        normal.FailValue("a", normal.String("a"),
                         "chain ground elements take a pressure or a prescribed gap");
      source.kind = lumped::NormalSource::Kind::kGapDofs;
      source.a = dofs.Read(normal, "a", true);
      source.b = dofs.ReadEnd(normal, "b");
      if (source.a == source.b)
        normal.FailValue("b", normal.String("b", "ground"), "must differ from normal.a");
      source.gap0 = normal.Double("gap0", 0.0);
    }
  }
  normal.Finish();
  return body;
}

// `a`, `b`: one DOF per slip component (friction), one each for a contact element.
void AddElement(const ElementBody& body, const std::string& name, std::vector<int> a,
                std::vector<int> b, lumped::LumpedModel& model) {
  if (body.law)
    model.friction.push_back({name, std::move(a), std::move(b), body.law, body.normal});
  else
    model.contacts.push_back({name, a.front(), b.front(), body.gap0, body.contact_law});
}

// Element names are CSV column names: unique, and without separators.
class ElementNames {
 public:
  std::string Read(const ModelNode& node, const std::string& fallback) {
    std::string name = node.String("name", fallback);
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
    if (!plain) node.FailValue("name", name, "must be letters, digits, _ - or .");
    if (!names_.insert(name).second) node.FailValue("name", name, "is used by another element");
    return name;
  }
  // A generated name (chain elements), so that no listed element takes it.
  const std::string& Claim(const std::string& name) { return *names_.insert(name).first; }

 private:
  std::set<std::string> names_;
};

// Reads the two ends of a spring or damper; they must differ.
std::pair<int, int> ReadEnds(const ModelNode& node, const DofTable& dofs) {
  const int a = dofs.Read(node, "a", false);
  const int b = dofs.ReadEnd(node, "b");
  if (a == b) node.FailValue("b", dofs.name(a), "must differ from a");
  return {a, b};
}

// Reads the ends of an interface-law element with `count` slip components: a and b hold
// one DOF per component (b: ground, the default, or as many DOFs); the tangential DOFs
// must all differ.
std::pair<std::vector<int>, std::vector<int>> ReadLawEnds(const ModelNode& node,
                                                          const DofTable& dofs, int count) {
  const std::vector<int> a = dofs.ReadEnds(node, "a", count, false);
  const std::vector<int> b = dofs.ReadEnds(node, "b", count, true);
  // Each end's key in messages: a, b (one component) or a[i], b[i].
  const auto key = [&](const char* end, int i) {
    return count == 1 ? std::string(end) : std::string(end) + "[" + std::to_string(i) + "]";
  };
  std::vector<std::pair<int, std::string>> seen;  // DOF, key
  for (const auto& [end, list] : {std::pair{"a", &a}, std::pair{"b", &b}})
    for (int i = 0; i < count; ++i) {
      const int dof = (*list)[i];
      if (dof == kGround) continue;
      for (const auto& [other, other_key] : seen)
        if (other == dof)
          node.FailValue(key(end, i), dofs.name(dof), "must differ from " + other_key);
      seen.emplace_back(dof, key(end, i));
    }
  return {a, b};
}

// A rough lower bound of the memory [bytes] per DOF of a lumped model: its name twice
// (DofTable, the model) and its record, and in an analysis a row of the sparse mass,
// damping and stiffness matrices (12 B per nonzero, about 3 each) and about 20 state
// vectors (8 B each).
constexpr double kBytesPerDof =
    2 * sizeof(std::string) + sizeof(lumped::Dof) + 3 * 3 * 12.0 + 20 * 8.0;

// `chain`: count masses in a row with springs (and dampers) between neighbours, optional
// wall springs at the ends, and one `ground` element per mass. DOFs are named 1..count.
void ReadChain(const ModelNode& chain, bool time_domain, DofTable& dofs, ElementNames& names,
               lumped::LumpedModel& model) {
  const int count = chain.Int("count", AtLeast(1));
  // Per mass: a DOF, a spring and a damper with their names, and a ground element.
  chain.CheckMemory("count",
                    count * (kBytesPerDof + sizeof(lumped::Spring) + sizeof(lumped::Damper) +
                             sizeof(lumped::FrictionElement) + 3 * sizeof(std::string)),
                    "a chain of " + std::to_string(count) + " masses");
  const double mass = chain.Double("mass", Positive());
  const double k = chain.Double("spring", NonNegative());
  const double c = chain.Double("damper", 0.0, NonNegative());
  enum class Ends { kFree, kLeft, kBoth };
  const Ends ends =
      chain.Has("ends")
          ? chain.Enum<Ends>("ends",
                             {{"free", Ends::kFree}, {"left", Ends::kLeft}, {"both", Ends::kBoth}})
          : Ends::kFree;
  std::vector<std::string> dof_names;
  for (int i = 1; i <= count; ++i) {
    dof_names.push_back(std::to_string(i));
    model.dofs.push_back({std::to_string(i), mass});
  }
  dofs = DofTable(dof_names);
  const auto link = [&](const std::string& name, int a, int b) {
    if (k > 0.0) model.springs.push_back({names.Claim("chain_spring" + name), a, b, k});
    if (c > 0.0) model.dampers.push_back({names.Claim("chain_damper" + name), a, b, c});
  };
  if (ends != Ends::kFree) link("_left", 0, kGround);
  for (int i = 1; i < count; ++i) link(std::to_string(i), i - 1, i);
  if (ends == Ends::kBoth) link("_right", count - 1, kGround);
  if (const auto ground = chain.OptionalMap("ground")) {
    const ElementBody body = ReadElementBody(*ground, dofs, false, time_domain);
    ground->Finish();
    for (int i = 0; i < count; ++i)
      AddElement(body, names.Claim("chain_ground" + std::to_string(i + 1)), {i}, {kGround}, model);
  }
  chain.Finish();
}

}  // namespace

LumpedStructure ReadLumpedStructure(const ModelNode& root, bool time_domain) {
  LumpedStructure structure;
  auto& lm = structure.model;
  auto& dofs = structure.dofs;
  ElementNames names;

  // DOFs: names (or a count) with masses, or a chain.
  if (root.Has("chain") == root.Has("dofs"))
    root.FailValue(root.Has("chain") ? "chain" : "dofs", "",
                   "give either dofs (with masses) or chain");
  if (root.Has("chain")) {
    ReadChain(root.Map("chain"), time_domain, dofs, names, lm);
  } else {
    std::vector<std::string> list;
    if (root.KindOf("dofs") == Kind::kList) {
      list = root.Strings("dofs");
      for (size_t i = 0; i < list.size(); ++i) {
        const std::string key = "dofs[" + std::to_string(i) + "]";
        if (list[i].empty() || list[i] == "ground" || list[i] == "all")
          root.FailValue(key, list[i], "must be a name other than ground and all");
        if (std::count(list.begin(), list.end(), list[i]) > 1)
          root.FailValue(key, list[i], "is named twice");
      }
    } else {
      const int n = root.Int("dofs", AtLeast(1));
      root.CheckMemory("dofs", n * kBytesPerDof, std::to_string(n) + " DOFs");
      for (int i = 1; i <= n; ++i) list.push_back(std::to_string(i));
    }
    dofs = DofTable(list);
    for (const auto& name : list) lm.dofs.push_back({name});
  }
  if (!time_domain)
    for (const std::string key : {"prescribed", "initial"})
      if (root.Has(key))
        root.FailValue(key, "",
                       "a periodic analysis takes no prescribed motions or initial conditions");
  if (const auto prescribed = root.OptionalMap("prescribed")) {
    for (int i = 0; i < dofs.size(); ++i)
      if (const auto motion = prescribed->OptionalMap(dofs.name(i))) {
        lm.dofs[i].motion = ReadTimeFunction(*motion);
        motion->Finish();
      }
    prescribed->Finish();
  }
  if (!root.Has("chain")) {
    const ModelNode masses = root.Map("masses");
    for (int i = 0; i < dofs.size(); ++i) {
      if (!lm.dofs[i].motion)
        lm.dofs[i].mass = masses.Double(dofs.name(i), Positive());
      else if (masses.Has(dofs.name(i)))
        masses.FailValue(dofs.name(i), "", "has a prescribed motion: it takes no mass");
    }
    masses.Finish();
  }
  if (const auto initial = root.OptionalMap("initial")) {
    for (const std::string which : {"q", "v"})
      if (const auto values = initial->OptionalMap(which)) {
        for (int i = 0; i < dofs.size(); ++i) {
          if (lm.dofs[i].motion) {
            if (values->Has(dofs.name(i)))
              values->FailValue(dofs.name(i), "", "has a prescribed motion: no initial condition");
            continue;
          }
          (which == "q" ? lm.dofs[i].q0 : lm.dofs[i].v0) = values->Double(dofs.name(i), 0.0);
        }
        values->Finish();
      }
    initial->Finish();
  }

  // Elements.
  for (const ModelNode& node : root.OptionalMaps("springs")) {
    const auto [a, b] = ReadEnds(node, dofs);
    lm.springs.push_back({names.Read(node, "spring" + std::to_string(lm.springs.size() + 1)), a, b,
                          node.Double("k", NonNegative())});
    node.Finish();
  }
  for (const ModelNode& node : root.OptionalMaps("dampers")) {
    const auto [a, b] = ReadEnds(node, dofs);
    lm.dampers.push_back({names.Read(node, "damper" + std::to_string(lm.dampers.size() + 1)), a, b,
                          node.Double("c", NonNegative())});
    node.Finish();
  }
  const auto elements = root.OptionalMaps("elements");
  for (size_t i = 0; i < elements.size(); ++i) {
    const ModelNode& node = elements[i];
    const std::string name = names.Read(node, "element" + std::to_string(i + 1));
    const ElementBody body = ReadElementBody(node, dofs, true, time_domain);
    auto [a, b] = ReadLawEnds(node, dofs, body.law ? body.law->dim() : 1);
    AddElement(body, name, std::move(a), std::move(b), lm);
    node.Finish();
  }
  return structure;
}

}  // namespace jointdyn::model
