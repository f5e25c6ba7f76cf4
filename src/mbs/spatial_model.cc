#include "mbs/spatial_model.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <set>

#include "core/error.h"
#include "mbs/model_checks.h"

namespace jointdyn::mbs::spatial {
namespace {

// The deviation of `r` from a rotation (orthonormal, determinant +1) must be below 1e-6.
void RequireRotation(const std::string& key, const Mat3& r) {
  const double deviation = (r.transpose() * r - Mat3::Identity()).lpNorm<Eigen::Infinity>();
  Require(r.allFinite() && deviation <= 1e-6 && r.determinant() > 0.0, key,
          "deviation " + FormatValue(deviation),
          "must be a rotation (orthonormal axes to 1e-6, right-handed)");
}

void CheckBodies(const SpatialModel& model) {
  std::set<std::string> names;
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    Require(names.insert(b.name).second, Item("bodies", i, "name"), b.name, "is used twice");
    if (b.kind == BodyKind::kFlexible)
      CheckFlexible(b, i);
    else
      Require(b.mass > 0.0 && std::isfinite(b.mass), Item("bodies", i, "mass"), FormatValue(b.mass),
              "must be > 0");
    if (b.oriented()) RequireRotation(Item("bodies", i, "orientation"), b.orientation);
    if (b.kind == BodyKind::kRigid) {
      const Mat3& j = b.inertia;
      const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(j).eigenvalues()(0);
      Require(j.allFinite() && (j - j.transpose()).norm() <= 1e-12 * j.norm() && smallest > 0.0,
              Item("bodies", i, "inertia"), "smallest eigenvalue " + FormatValue(smallest),
              "must be symmetric positive definite");
    }
    Require(b.position.allFinite() && b.velocity.allFinite() && b.angular_velocity.allFinite(),
            Item("bodies", i, "initial state"), "", "must be finite");
  }
}

void CheckMarkers(const SpatialModel& model) {
  for (size_t i = 0; i < model.markers.size(); ++i) {
    const Marker& m = model.markers[i];
    Require(m.body == kGround || (m.body >= 0 && m.body < int(model.bodies.size())),
            Item("markers", i, "body"), std::to_string(m.body), "is no body");
    Require(m.position.allFinite(), Item("markers", i, "position"), "", "must be finite");
    RequireRotation(Item("markers", i, "orientation"), m.orientation);
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

// An element that acts on the orientation of marker b relative to a needs both on bodies
// with orientation (rigid or flexible bodies or the ground).
void CheckOrientable(const SpatialModel& model, const char* list, size_t i, int a, int b) {
  for (const int m : {a, b}) {
    const int body = model.markers[m].body;
    Require(body == kGround || model.bodies[body].oriented(),
            Item(list, i, m == a ? "marker_a" : "marker_b"), model.markers[m].name,
            std::string("this ") + (list[0] == 'j' ? "joint" : "spring") +
                " acts on rotations: its markers must be on rigid or flexible bodies or the "
                "ground");
  }
}

void CheckJoints(const SpatialModel& model) {
  for (size_t i = 0; i < model.joints.size(); ++i) {
    const Joint& j = model.joints[i];
    if (j.kind == JointKind::kPrescribed) {
      Require(j.body >= 0 && j.body < int(model.bodies.size()), Item("joints", i, "body"),
              std::to_string(j.body), "is no body");
      continue;
    }
    CheckPair(model, "joints", i, j.marker_a, j.marker_b);
    if (j.kind != JointKind::kSpherical && j.kind != JointKind::kDistance)
      CheckOrientable(model, "joints", i, j.marker_a, j.marker_b);
    if (j.kind == JointKind::kDistance)
      Require(j.length > 0.0 && std::isfinite(j.length), Item("joints", i, "length"),
              FormatValue(j.length), "must be > 0 (use a spherical joint for coincident points)");
  }
}

void CheckSprings(const SpatialModel& model) {
  for (size_t i = 0; i < model.springs.size(); ++i) {
    const Spring& s = model.springs[i];
    CheckPair(model, "springs", i, s.marker_a, s.marker_b);
    for (const auto& [key, value] :
         {std::pair{"stiffness", s.stiffness}, std::pair{"damping", s.damping}})
      Require(value >= 0.0 && std::isfinite(value), Item("springs", i, key), FormatValue(value),
              "must be >= 0");
    Require(s.length > 0.0 && std::isfinite(s.length), Item("springs", i, "length"),
            FormatValue(s.length), "must be > 0");
  }
  for (size_t i = 0; i < model.rotational_springs.size(); ++i) {
    const RotationalSpring& s = model.rotational_springs[i];
    CheckPair(model, "rotational_springs", i, s.marker_a, s.marker_b);
    CheckOrientable(model, "rotational_springs", i, s.marker_a, s.marker_b);
    for (const auto& [key, value] :
         {std::pair{"stiffness", s.stiffness}, std::pair{"damping", s.damping}})
      Require(value >= 0.0 && std::isfinite(value), Item("rotational_springs", i, key),
              FormatValue(value), "must be >= 0");
    Require(std::isfinite(s.angle), Item("rotational_springs", i, "angle"), FormatValue(s.angle),
            "must be finite");
  }
}

bool IsZero(const time::TimeFunction& f) {
  return f.kind() == time::TimeFunction::Kind::kConstant && f.Value(0.0) == 0.0;
}

}  // namespace

int JointRows(JointKind kind) {
  switch (kind) {
    case JointKind::kSpherical:
      return 3;
    case JointKind::kUniversal:
      return 4;
    case JointKind::kRevolute:
    case JointKind::kPrismatic:
      return 5;
    case JointKind::kRigid:
    case JointKind::kDrivenRevolute:
      return 6;
    case JointKind::kDistance:
    case JointKind::kPrescribed:
      return 1;
  }
  return 0;
}

std::vector<std::string> JointForceLabels(JointKind kind) {
  switch (kind) {
    case JointKind::kSpherical:
      return {"fx", "fy", "fz"};
    case JointKind::kUniversal:
      return {"fx", "fy", "fz", "m"};
    case JointKind::kRevolute:
      return {"fx", "fy", "fz", "mx", "my"};
    case JointKind::kDrivenRevolute:
      return {"fx", "fy", "fz", "mx", "my", "mz"};
    case JointKind::kPrismatic:
      return {"fy", "fz", "mx", "my", "mz"};
    case JointKind::kRigid:
      return {"fx", "fy", "fz", "mx", "my", "mz"};
    case JointKind::kDistance:
    case JointKind::kPrescribed:
      return {"f"};
  }
  return {};
}

int Body::coordinates() const {
  switch (kind) {
    case BodyKind::kPointMass:
      return 3;
    case BodyKind::kRigid:
      return 7;
    case BodyKind::kFlexible:
      return 7 + flexible->modes();
  }
  return 0;
}

Vec3 InitialMarkerPosition(const SpatialModel& model, int marker) {
  const Marker& m = model.markers[marker];
  if (m.body == kGround) return m.position;
  const Body& body = model.bodies[m.body];
  return body.position + body.orientation * InitialLocalPoint(body, m);
}

double InitialRelativeAngle(const SpatialModel& model, int a, int b) {
  const auto axes = [&](int m) -> Mat3 {
    const Marker& marker = model.markers[m];
    return marker.body == kGround
               ? marker.orientation
               : Mat3(model.bodies[marker.body].orientation * marker.orientation);
  };
  const Mat3 frame_a = axes(a), frame_b = axes(b);
  return -std::atan2(frame_b.col(0).dot(frame_a.col(1)), frame_b.col(0).dot(frame_a.col(0)));
}

void SpatialModel::Validate() const {
  Require(!bodies.empty(), "bodies", "[]", "needs at least one body");
  CheckBodies(*this);
  CheckMarkers(*this);
  CheckJoints(*this);
  CheckSprings(*this);
  for (size_t i = 0; i < loads.size(); ++i) {
    CheckMarker(*this, "loads", i, "marker", loads[i].marker);
    const int body = markers[loads[i].marker].body;
    const bool no_torque =
        IsZero(loads[i].torque[0]) && IsZero(loads[i].torque[1]) && IsZero(loads[i].torque[2]);
    Require(no_torque || (body != kGround && bodies[body].oriented()), Item("loads", i, "torque"),
            markers[loads[i].marker].name, "a torque needs a marker on a rigid or flexible body");
  }
  Require(gravity.allFinite(), "gravity", "", "must be finite");
}

}  // namespace jointdyn::mbs::spatial
