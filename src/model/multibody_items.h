// Reading the items of `analysis: multibody` (planar and spatial) and `analysis:
// belt_drive`: points, names, references by name, marker pairs, optional time functions.
// Internal to the model readers.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/multibody.h"
#include "mbs/spatial_model.h"
#include "model/model_node.h"
#include "time/time_function.h"

namespace jointdyn::model {

// node[key] as [x, y], `fallback` when absent.
Vec2 ReadVec2(const ModelNode& node, const std::string& key, const Vec2& fallback);

// The index of the entry of `names` named `name` (node[key]); `what`: "body of this model".
int FindName(const ModelNode& node, const std::string& key, const std::string& name,
             const std::vector<std::string>& names, const std::string& what);

std::vector<std::string> NamesOf(const auto& items) {
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.name);
  return names;
}

// A name for an item: node[name], else `fallback`; unique among `taken`, not "ground".
std::string ReadItemName(const ModelNode& node, const std::string& fallback,
                         std::set<std::string>& taken);

// The time function under `key` of `n`; OptionalFunction: the constant 0 when absent.
time::TimeFunction RequiredFunction(const ModelNode& n, const std::string& key);
time::TimeFunction OptionalFunction(const ModelNode& n, const std::string& key);

// node[markers] as two marker indices on different bodies.
template <class Model>
std::pair<int, int> ReadMarkerPair(const ModelNode& n, const Model& model) {
  const std::vector<std::string> list = n.Strings("markers");
  if (list.size() != 2)
    n.FailValue("markers", std::to_string(list.size()) + " names", "must name two markers");
  const std::vector<std::string> names = NamesOf(model.markers);
  const int a = FindName(n, "markers", list[0], names, "marker of this model");
  const int b = FindName(n, "markers", list[1], names, "marker of this model");
  if (model.markers[a].body == model.markers[b].body)
    n.FailValue("markers", list[1],
                "is on the body of " + list[0] + ": connect two different bodies");
  return {a, b};
}

// The planar model's bodies, markers, joints, springs (with rotational springs and bushings)
// and loads into options.model, its flexible bodies' FE models into options.flexible.
void ReadPlanarItems(const ModelNode& root, analysis::MultibodyOptions& options);

// A flexible body's FE model (its `fe` mapping: the FE keys of analysis: modal), interface
// and reduction keys (`full`, vibration_modes, rigid_ratio, joints, joint_modes); `body` its
// index in the model's bodies.
analysis::FlexibleBodyOptions ReadFlexible(const ModelNode& n, int body);

// The spatial model of a `dimension: 3` file: bodies, markers, joints, springs, loads and
// gravity (spatial_reader.cc); its flexible bodies' FE models and reductions into
// `flexible`.
mbs::spatial::SpatialModel ReadSpatialModel(const ModelNode& root,
                                            std::vector<analysis::FlexibleBodyOptions>& flexible);

}  // namespace jointdyn::model
