// Reading the lumped structure of a model file (DOFs or a chain, masses, prescribed
// motions, initial conditions, springs, dampers and interface-law elements), shared by
// the analyses on lumped models (transient_model.h, harmonic_model.h). The schema is in
// docs/model_files.md.
#pragma once

#include <string>
#include <vector>

#include "lumped/lumped_system.h"
#include "model/model_node.h"

namespace jointdyn::model {

// The DOF names of a model and the references to them in the file.
class DofTable {
 public:
  explicit DofTable(std::vector<std::string> names) : names_(std::move(names)) {}

  int size() const { return int(names_.size()); }
  const std::string& name(int i) const { return names_[i]; }

  // The DOF named by node[key]; "ground" gives lumped::kGround when `ground_ok`.
  int Read(const ModelNode& node, const std::string& key, bool ground_ok) const;
  // An element's second end: a DOF or ground (the default).
  int ReadEnd(const ModelNode& node, const std::string& key) const;
  // `all` or a list of DOF names; `all` sets *all.
  std::vector<int> ReadList(const ModelNode& node, const std::string& key, bool* all) const;
  // The ends of an element with `count` components: node[key] names one DOF (count 1) or
  // lists `count` DOFs; with `ground_ok`, `ground` (the default) fixes every component.
  std::vector<int> ReadEnds(const ModelNode& node, const std::string& key, int count,
                            bool ground_ok) const;

 private:
  std::string Listing() const;
  // The DOF `name` (node[key] or an entry of it, `key` labels it in the message).
  int Find(const ModelNode& node, const std::string& key, const std::string& name) const;

  std::vector<std::string> names_;
};

struct LumpedStructure {
  lumped::LumpedModel model;  // without loads
  DofTable dofs{{}};
};

// Reads the structure keys of `root` (the caller reads the others and finishes root).
// Without `time_domain` (periodic analyses), prescribed motions, initial conditions and
// time-function normal forces or gaps are rejected.
LumpedStructure ReadLumpedStructure(const ModelNode& root, bool time_domain);

}  // namespace jointdyn::model
