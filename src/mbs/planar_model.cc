#include "mbs/planar_model.h"

#include <Eigen/Geometry>
#include <cmath>
#include <set>

#include "core/error.h"
#include "mbs/model_checks.h"

namespace jointdyn::mbs {
namespace {

void RequireFinite(const std::string& key, double value) {
  Require(std::isfinite(value), key, FormatValue(value), "must be finite");
}

void CheckBodies(const PlanarModel& model) {
  std::set<std::string> names;
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    Require(names.insert(b.name).second, Item("bodies", i, "name"), b.name, "is used twice");
    if (b.kind == BodyKind::kFlexible) {
      CheckFlexible(b, i);
    } else {
      Require(b.mass > 0.0 && std::isfinite(b.mass), Item("bodies", i, "mass"), FormatValue(b.mass),
              "must be > 0");
    }
    if (b.kind == BodyKind::kRigid)
      Require(b.inertia > 0.0 && std::isfinite(b.inertia), Item("bodies", i, "inertia"),
              FormatValue(b.inertia), "must be > 0");
    for (const double x : {b.position.x(), b.position.y(), b.angle, b.velocity.x(), b.velocity.y(),
                           b.angular_velocity})
      RequireFinite(Item("bodies", i, "initial state"), x);
  }
}

void CheckMarkers(const PlanarModel& model) {
  for (size_t i = 0; i < model.markers.size(); ++i) {
    const Marker& m = model.markers[i];
    Require(m.body == kGround || (m.body >= 0 && m.body < int(model.bodies.size())),
            Item("markers", i, "body"), std::to_string(m.body), "is no body");
    RequireFinite(Item("markers", i, "position"), m.position.norm());
    RequireFinite(Item("markers", i, "angle"), m.angle);
    const BodyKind kind = m.body == kGround ? BodyKind::kRigid : model.bodies[m.body].kind;
    if (kind == BodyKind::kPointMass)
      Require(m.position.isZero(0.0), Item("markers", i, "position"),
              FormatValue(m.position.norm()), "must be 0 on a point mass (it has no extent)");
    if (kind == BodyKind::kFlexible) {
      const int nodes = int(model.bodies[m.body].flexible->nodes.size());
      Require(m.node >= 0 && m.node < nodes, Item("markers", i, "node"), std::to_string(m.node),
              "must be a node of the flexible body");
      Require(m.position.isZero(0.0), Item("markers", i, "position"),
              FormatValue(m.position.norm()), "must be 0 on a flexible body's node");
    } else {
      Require(m.node == -1, Item("markers", i, "node"), std::to_string(m.node),
              "only markers on flexible bodies sit on nodes");
    }
  }
}

void CheckJoints(const PlanarModel& model) {
  for (size_t i = 0; i < model.joints.size(); ++i) {
    const Joint& j = model.joints[i];
    if (j.kind == JointKind::kPrescribed) {
      Require(j.body >= 0 && j.body < int(model.bodies.size()), Item("joints", i, "body"),
              std::to_string(j.body), "is no body");
      Require(j.coordinate != Coordinate::kAngle || model.bodies[j.body].kind == BodyKind::kRigid,
              Item("joints", i, "coordinate"), "angle", "a point mass has no angle");
      continue;
    }
    CheckPair(model, "joints", i, j.marker_a, j.marker_b);
    if (j.kind == JointKind::kDistance)
      Require(j.length > 0.0 && std::isfinite(j.length), Item("joints", i, "length"),
              FormatValue(j.length), "must be > 0 (use a revolute joint for coincident points)");
  }
}

void CheckSprings(const PlanarModel& model) {
  for (size_t i = 0; i < model.springs.size(); ++i) {
    const Spring& s = model.springs[i];
    CheckPair(model, "springs", i, s.marker_a, s.marker_b);
    for (const auto& [key, value] :
         {std::pair{"stiffness", s.stiffness}, std::pair{"damping", s.damping},
          std::pair{"length", s.length}})
      Require(value >= 0.0 && std::isfinite(value), Item("springs", i, key), FormatValue(value),
              "must be >= 0");
  }
  for (size_t i = 0; i < model.rotational_springs.size(); ++i) {
    const RotationalSpring& s = model.rotational_springs[i];
    CheckPair(model, "rotational_springs", i, s.marker_a, s.marker_b);
    for (const auto& [key, value] :
         {std::pair{"stiffness", s.stiffness}, std::pair{"damping", s.damping}})
      Require(value >= 0.0 && std::isfinite(value), Item("rotational_springs", i, key),
              FormatValue(value), "must be >= 0");
    RequireFinite(Item("rotational_springs", i, "angle"), s.angle);
  }
  for (size_t i = 0; i < model.bushings.size(); ++i) {
    const Bushing& s = model.bushings[i];
    CheckPair(model, "bushings", i, s.marker_a, s.marker_b);
    for (const auto& [key, value] :
         {std::pair{"stiffness", s.stiffness}, std::pair{"damping", s.damping}})
      Require(value >= 0.0 && std::isfinite(value), Item("bushings", i, key), FormatValue(value),
              "must be >= 0");
  }
}

}  // namespace

int JointRows(JointKind kind) {
  switch (kind) {
    case JointKind::kRevolute:
    case JointKind::kPrismatic:
      return 2;
    case JointKind::kRigid:
      return 3;
    case JointKind::kDistance:
    case JointKind::kPrescribed:
      return 1;
  }
  return 0;
}

std::vector<std::string> JointForceLabels(JointKind kind) {
  switch (kind) {
    case JointKind::kRevolute:
      return {"fx", "fy"};
    case JointKind::kRigid:
      return {"fx", "fy", "m"};
    case JointKind::kPrismatic:
      return {"m", "fn"};
    case JointKind::kDistance:
    case JointKind::kPrescribed:
      return {"f"};
  }
  return {};
}

int Body::coordinates() const {
  switch (kind) {
    case BodyKind::kPointMass:
      return 2;
    case BodyKind::kRigid:
      return 3;
    case BodyKind::kFlexible:
      return 3 + flexible->modes();
  }
  return 0;
}

Vec2 InitialMarkerPosition(const PlanarModel& model, int marker) {
  const Marker& m = model.markers[marker];
  if (m.body == kGround) return m.position;
  const Body& body = model.bodies[m.body];
  return body.position + Eigen::Rotation2Dd(body.angle) * InitialLocalPoint(body, m);
}

void PlanarModel::Validate() const {
  CheckBodies(*this);
  CheckMarkers(*this);
  CheckJoints(*this);
  CheckSprings(*this);
  for (size_t i = 0; i < loads.size(); ++i) {
    CheckMarker(*this, "loads", i, "marker", loads[i].marker);
    const int body = markers[loads[i].marker].body;
    const time::TimeFunction& torque = loads[i].torque;
    const bool no_torque =
        torque.kind() == time::TimeFunction::Kind::kConstant && torque.Value(0.0) == 0.0;
    Require(no_torque || (body != kGround && bodies[body].kind != BodyKind::kPointMass),
            Item("loads", i, "torque"), markers[loads[i].marker].name,
            "a torque needs a marker on a rigid or flexible body");
  }
  RequireFinite("gravity", gravity.norm());
}

}  // namespace jointdyn::mbs
