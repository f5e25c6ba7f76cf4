// The spatial model of `analysis: multibody` with `dimension: 3` (docs/model_files.md).
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "model/multibody_items.h"

namespace jointdyn::model {
namespace {

namespace spatial = mbs::spatial;

Vec3 ReadVec3(const ModelNode& node, const std::string& key, const Vec3& fallback) {
  if (!node.Has(key)) return fallback;
  const std::vector<double> v = node.Doubles(key);
  if (v.size() != 3)
    node.FailValue(key, std::to_string(v.size()) + " numbers", "must be [x, y, z]");
  return {v[0], v[1], v[2]};
}

// A direction node[key]: three numbers, not all zero; unit length.
Vec3 ReadDirection(const ModelNode& node, const std::string& key) {
  const Vec3 v = ReadVec3(node, key, Vec3::Zero());
  if (!(v.norm() > 0.0)) node.FailValue(key, "[0, 0, 0]", "must be a direction (not zero)");
  return v.normalized();
}

// node[key]: a rotation {axis: [..], angle: rad} or axes {z: [..], x: [..]} (x made normal
// to z; absent: any normal direction); the identity when absent. Columns: the axes.
Mat3 ReadOrientation(const ModelNode& node, const std::string& key) {
  const auto o = node.OptionalMap(key);
  if (!o) return Mat3::Identity();
  Mat3 r;
  if (o->Has("axis")) {
    r = Eigen::AngleAxisd(o->Double("angle", 0.0), ReadDirection(*o, "axis")).toRotationMatrix();
  } else {
    const Vec3 z = ReadDirection(*o, "z");
    Vec3 x = o->Has("x") ? ReadDirection(*o, "x") : z.unitOrthogonal();
    x -= x.dot(z) * z;
    if (x.norm() < 1e-9) o->FailValue("x", "(parallel to z)", "must not be parallel to z");
    x.normalize();
    r << x, z.cross(x), z;
  }
  o->Finish();
  return r;
}

// inertia: [Jxx, Jyy, Jzz] or [Jxx, Jyy, Jzz, Jxy, Jyz, Jxz] about the centre of mass in
// body axes [kg m^2].
Mat3 ReadInertia(const ModelNode& n) {
  const std::vector<double> j = n.Doubles("inertia");
  if (j.size() != 3 && j.size() != 6)
    n.FailValue("inertia", std::to_string(j.size()) + " numbers",
                "must be [Jxx, Jyy, Jzz] or [Jxx, Jyy, Jzz, Jxy, Jyz, Jxz]");
  Mat3 inertia = Vec3(j[0], j[1], j[2]).asDiagonal();
  if (j.size() == 6) {
    inertia(0, 1) = inertia(1, 0) = j[3];
    inertia(1, 2) = inertia(2, 1) = j[4];
    inertia(0, 2) = inertia(2, 0) = j[5];
  }
  return inertia;
}

void ReadBodies(const ModelNode& root, spatial::SpatialModel& model,
                std::vector<analysis::FlexibleBodyOptions>& flexible) {
  std::set<std::string> names;
  const std::vector<ModelNode> nodes = root.Maps("bodies");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    spatial::Body b;
    b.name = ReadItemName(n, "body_" + std::to_string(i + 1), names);
    b.kind = n.Has("type")
                 ? n.Enum<spatial::BodyKind>("type", {{"rigid", spatial::BodyKind::kRigid},
                                                      {"point_mass", spatial::BodyKind::kPointMass},
                                                      {"flexible", spatial::BodyKind::kFlexible}})
                 : spatial::BodyKind::kRigid;
    if (b.kind == spatial::BodyKind::kFlexible)
      flexible.push_back(ReadFlexible(n, int(i)));
    else
      b.mass = n.Double("mass", Positive());
    if (b.kind == spatial::BodyKind::kRigid) b.inertia = ReadInertia(n);
    if (b.oriented()) {
      b.orientation = ReadOrientation(n, "orientation");
      b.angular_velocity = ReadVec3(n, "angular_velocity", Vec3::Zero());
    }
    b.position = ReadVec3(n, "position", Vec3::Zero());
    b.velocity = ReadVec3(n, "velocity", Vec3::Zero());
    n.Finish();
    model.bodies.push_back(std::move(b));
  }
}

void ReadMarkers(const ModelNode& root, const std::vector<analysis::FlexibleBodyOptions>& flexible,
                 spatial::SpatialModel& model) {
  std::set<std::string> names;
  const std::vector<std::string> bodies = NamesOf(model.bodies);
  for (const ModelNode& n : root.OptionalMaps("markers")) {
    spatial::Marker m;
    m.name = ReadItemName(n, "marker_" + std::to_string(model.markers.size() + 1), names);
    const std::string body = n.String("body");
    m.body =
        body == "ground" ? mbs::kGround : FindName(n, "body", body, bodies, "body of this model");
    const auto on = std::find_if(flexible.begin(), flexible.end(),
                                 [&](const auto& f) { return f.body == m.body; });
    if (on != flexible.end())  // on a node of the body's interface
      m.node =
          FindName(n, "node", n.String("node"), on->cms.boundary, "interface node of body " + body);
    else
      m.position = ReadVec3(n, "position", Vec3::Zero());
    m.orientation = ReadOrientation(n, "orientation");
    n.Finish();
    model.markers.push_back(std::move(m));
  }
}

// node[length] [m], by default the markers' initial distance (not for markers on flexible
// bodies: those are placed when the body's FE model is built); > 0.
double ReadLength(const ModelNode& n, const spatial::SpatialModel& model, int a, int b) {
  if (n.Has("length")) return n.Double("length", Positive());
  for (const int m : {a, b})
    if (model.markers[m].body != mbs::kGround &&
        model.bodies[model.markers[m].body].kind == spatial::BodyKind::kFlexible)
      n.FailValue("length", "",
                  "give it: marker " + model.markers[m].name +
                      " is on a flexible body (placed when its FE model is built)");
  const double length =
      (spatial::InitialMarkerPosition(model, a) - spatial::InitialMarkerPosition(model, b)).norm();
  if (!(length > 0.0))
    n.FailValue("markers", model.markers[a].name + ", " + model.markers[b].name,
                "start at one point: give a length > 0");
  return length;
}

void ReadJoints(const ModelNode& root, spatial::SpatialModel& model) {
  using spatial::JointKind;
  std::set<std::string> names;
  const std::vector<std::string> bodies = NamesOf(model.bodies);
  for (const ModelNode& n : root.OptionalMaps("joints")) {
    spatial::Joint j;
    j.name = ReadItemName(n, "joint_" + std::to_string(model.joints.size() + 1), names);
    j.kind = n.Enum<JointKind>("type", {{"spherical", JointKind::kSpherical},
                                        {"revolute", JointKind::kRevolute},
                                        {"universal", JointKind::kUniversal},
                                        {"prismatic", JointKind::kPrismatic},
                                        {"rigid", JointKind::kRigid},
                                        {"distance", JointKind::kDistance},
                                        {"prescribed", JointKind::kPrescribed}});
    if (j.kind == JointKind::kPrescribed) {
      j.body = FindName(n, "body", n.String("body"), bodies, "body of this model");
      j.coordinate = n.Enum<spatial::Coordinate>("coordinate", {{"x", spatial::Coordinate::kX},
                                                                {"y", spatial::Coordinate::kY},
                                                                {"z", spatial::Coordinate::kZ}});
      j.motion = RequiredFunction(n, "motion");
    } else {
      std::tie(j.marker_a, j.marker_b) = ReadMarkerPair(n, model);
      if (j.kind == JointKind::kDistance) j.length = ReadLength(n, model, j.marker_a, j.marker_b);
      if (j.kind == JointKind::kRevolute && n.Has("motion")) {  // driven by a motor
        j.kind = JointKind::kDrivenRevolute;
        j.motion = RequiredFunction(n, "motion");
      }
    }
    n.Finish();
    model.joints.push_back(std::move(j));
  }
}

void ReadSprings(const ModelNode& root, spatial::SpatialModel& model) {
  std::set<std::string> names;
  for (const ModelNode& n : root.OptionalMaps("springs")) {
    spatial::Spring s;
    s.name = ReadItemName(n, "spring_" + std::to_string(model.springs.size() + 1), names);
    std::tie(s.marker_a, s.marker_b) = ReadMarkerPair(n, model);
    s.stiffness = n.Double("stiffness", 0.0, NonNegative());
    s.damping = n.Double("damping", 0.0, NonNegative());
    s.length = ReadLength(n, model, s.marker_a, s.marker_b);
    n.Finish();
    model.springs.push_back(std::move(s));
  }
  for (const ModelNode& n : root.OptionalMaps("rotational_springs")) {
    spatial::RotationalSpring s;
    s.name = ReadItemName(
        n, "rotational_spring_" + std::to_string(model.rotational_springs.size() + 1), names);
    std::tie(s.marker_a, s.marker_b) = ReadMarkerPair(n, model);
    s.stiffness = n.Double("stiffness", 0.0, NonNegative());
    s.damping = n.Double("damping", 0.0, NonNegative());
    s.angle = n.Double("angle", spatial::InitialRelativeAngle(model, s.marker_a, s.marker_b));
    n.Finish();
    model.rotational_springs.push_back(std::move(s));
  }
}

void ReadLoads(const ModelNode& root, spatial::SpatialModel& model) {
  const std::vector<std::string> markers = NamesOf(model.markers);
  const char* force[3] = {"fx", "fy", "fz"};
  const char* torque[3] = {"mx", "my", "mz"};
  for (const ModelNode& n : root.OptionalMaps("loads")) {
    spatial::Load load;
    load.marker = FindName(n, "marker", n.String("marker"), markers, "marker of this model");
    bool any = false;
    for (int k = 0; k < 3; ++k) {
      any = any || n.Has(force[k]) || n.Has(torque[k]);
      load.force[k] = OptionalFunction(n, force[k]);
      load.torque[k] = OptionalFunction(n, torque[k]);
    }
    if (!any) n.FailValue("marker", markers[load.marker], "a load needs fx, fy, fz, mx, my or mz");
    n.Finish();
    model.loads.push_back(std::move(load));
  }
}

}  // namespace

mbs::spatial::SpatialModel ReadSpatialModel(const ModelNode& root,
                                            std::vector<analysis::FlexibleBodyOptions>& flexible) {
  spatial::SpatialModel model;
  ReadBodies(root, model, flexible);
  ReadMarkers(root, flexible, model);
  ReadJoints(root, model);
  ReadSprings(root, model);
  ReadLoads(root, model);
  model.gravity = ReadVec3(root, "gravity", Vec3::Zero());
  return model;
}

}  // namespace jointdyn::model
