// The input checks shared by the multibody and cable models' Validate(): item keys
// ("joints[2].marker_b"), the rule that throws InputError, and marker references.
#pragma once

#include <string>
#include <utility>

#include "core/error.h"

namespace jointdyn::mbs {

inline std::string Item(const char* list, size_t i, const char* key) {
  return std::string(list) + "[" + std::to_string(i) + "]." + key;
}

inline void Require(bool ok, const std::string& key, const std::string& value,
                    const std::string& rule) {
  if (!ok) throw InputError(key, value, rule);
}

template <class Model>
void CheckMarker(const Model& model, const char* list, size_t i, const char* key, int marker) {
  Require(marker >= 0 && marker < int(model.markers.size()), Item(list, i, key),
          std::to_string(marker), "is no marker");
}

// A flexible body (planar or spatial) of item bodies[i]: its FE model built, its initial
// modal coordinates and rates and its elastic load one per mode (or none: zero) and finite.
template <class Body>
void CheckFlexible(const Body& b, size_t i) {
  Require(b.flexible != nullptr, Item("bodies", i, "flexible"), b.name,
          "a flexible body needs its reduced FE model");
  const int n = b.flexible->modes();
  for (const auto& [key, v] : {std::pair{"modal_coordinates", &b.modal_coordinates},
                               std::pair{"modal_velocities", &b.modal_velocities},
                               std::pair{"elastic_load", &b.flexible->elastic_load}}) {
    Require(v->size() == 0 || v->size() == n, Item("bodies", i, key),
            std::to_string(v->size()) + " values",
            "must have one per mode (" + std::to_string(n) + ")");
    Require(v->allFinite(), Item("bodies", i, key), "", "must be finite");
  }
}

// The two markers of a joint or spring: valid and on different bodies.
template <class Model>
void CheckPair(const Model& model, const char* list, size_t i, int a, int b) {
  CheckMarker(model, list, i, "marker_a", a);
  CheckMarker(model, list, i, "marker_b", b);
  Require(model.markers[a].body != model.markers[b].body, Item(list, i, "marker_b"),
          model.markers[b].name, "is on the body of marker_a: connect two different bodies");
}

}  // namespace jointdyn::mbs
