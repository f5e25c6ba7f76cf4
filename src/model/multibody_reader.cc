#include "model/multibody_reader.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "model/fe_reader.h"
#include "model/integrator_reader.h"
#include "model/joint_mode_reader.h"
#include "model/joints_reader.h"
#include "model/multibody_items.h"
#include "model/time_function_reader.h"

namespace jointdyn::model {
namespace {

using analysis::MultibodyOptions;
using mbs::BodyKind;
using mbs::JointKind;
using mbs::PlanarModel;

void ReadBodies(const ModelNode& root, MultibodyOptions& options) {
  PlanarModel& model = options.model;
  std::set<std::string> names;
  const std::vector<ModelNode> nodes = root.Maps("bodies");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    mbs::Body b;
    b.name = ReadItemName(n, "body_" + std::to_string(i + 1), names);
    b.kind = n.Has("type") ? n.Enum<BodyKind>("type", {{"rigid", BodyKind::kRigid},
                                                       {"point_mass", BodyKind::kPointMass},
                                                       {"flexible", BodyKind::kFlexible}})
                           : BodyKind::kRigid;
    if (b.kind == BodyKind::kFlexible) {
      options.flexible.push_back(ReadFlexible(n, int(i)));
    } else {
      b.mass = n.Double("mass", Positive());
    }
    if (b.kind == BodyKind::kRigid) b.inertia = n.Double("inertia", Positive());
    if (b.kind != BodyKind::kPointMass) {
      b.angle = n.Double("angle", 0.0);
      b.angular_velocity = n.Double("angular_velocity", 0.0);
    }
    b.position = ReadVec2(n, "position", Vec2::Zero());
    b.velocity = ReadVec2(n, "velocity", Vec2::Zero());
    n.Finish();
    model.bodies.push_back(std::move(b));
  }
}

void ReadMarkers(const ModelNode& root, const MultibodyOptions& options, PlanarModel& model) {
  std::set<std::string> names;
  const std::vector<std::string> bodies = NamesOf(model.bodies);
  const std::vector<ModelNode> nodes = root.OptionalMaps("markers");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    mbs::Marker m;
    m.name = ReadItemName(n, "marker_" + std::to_string(i + 1), names);
    const std::string body = n.String("body");
    m.body =
        body == "ground" ? mbs::kGround : FindName(n, "body", body, bodies, "body of this model");
    const auto flexible = std::find_if(options.flexible.begin(), options.flexible.end(),
                                       [&](const auto& f) { return f.body == m.body; });
    if (flexible != options.flexible.end()) {  // on a node of the body's interface
      m.node = FindName(n, "node", n.String("node"), flexible->cms.boundary,
                        "interface node of body " + body);
    } else {
      m.position = ReadVec2(n, "position", Vec2::Zero());
    }
    m.angle = n.Double("angle", 0.0);
    n.Finish();
    model.markers.push_back(std::move(m));
  }
}

// node[key] [m], by default the markers' initial distance (not for markers on flexible
// bodies: those are placed when the body's FE model is built).
double ReadLength(const ModelNode& n, const std::string& key, const PlanarModel& model, int a,
                  int b, const Rule& rule) {
  if (n.Has(key)) return n.Double(key, rule);
  for (const int m : {a, b})
    if (model.markers[m].body != mbs::kGround &&
        model.bodies[model.markers[m].body].kind == BodyKind::kFlexible)
      n.FailValue(key, "",
                  "give it: marker " + model.markers[m].name +
                      " is on a flexible body (placed when its FE model is built)");
  return (mbs::InitialMarkerPosition(model, a) - mbs::InitialMarkerPosition(model, b)).norm();
}

double InitialRelativeAngle(const PlanarModel& model, int a, int b) {
  const auto angle = [&](int m) {
    const mbs::Marker& marker = model.markers[m];
    return marker.angle + (marker.body == mbs::kGround ? 0.0 : model.bodies[marker.body].angle);
  };
  return angle(a) - angle(b);
}

void ReadJoints(const ModelNode& root, PlanarModel& model) {
  std::set<std::string> names;
  const std::vector<std::string> bodies = NamesOf(model.bodies);
  const std::vector<ModelNode> nodes = root.OptionalMaps("joints");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    mbs::Joint j;
    j.name = ReadItemName(n, "joint_" + std::to_string(i + 1), names);
    j.kind = n.Enum<JointKind>("type", {{"revolute", JointKind::kRevolute},
                                        {"prismatic", JointKind::kPrismatic},
                                        {"rigid", JointKind::kRigid},
                                        {"distance", JointKind::kDistance},
                                        {"prescribed", JointKind::kPrescribed}});
    if (j.kind == JointKind::kPrescribed) {
      j.body = FindName(n, "body", n.String("body"), bodies, "body of this model");
      j.coordinate = n.Enum<mbs::Coordinate>("coordinate", {{"x", mbs::Coordinate::kX},
                                                            {"y", mbs::Coordinate::kY},
                                                            {"angle", mbs::Coordinate::kAngle}});
      j.motion = RequiredFunction(n, "motion");
    } else {
      std::tie(j.marker_a, j.marker_b) = ReadMarkerPair(n, model);
      if (j.kind == JointKind::kDistance)
        j.length = ReadLength(n, "length", model, j.marker_a, j.marker_b, Positive());
    }
    n.Finish();
    model.joints.push_back(std::move(j));
  }
}

void ReadSprings(const ModelNode& root, PlanarModel& model) {
  std::set<std::string> names;
  const std::vector<ModelNode> nodes = root.OptionalMaps("springs");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    mbs::Spring s;
    s.name = ReadItemName(n, "spring_" + std::to_string(i + 1), names);
    std::tie(s.marker_a, s.marker_b) = ReadMarkerPair(n, model);
    s.stiffness = n.Double("stiffness", 0.0, NonNegative());
    s.damping = n.Double("damping", 0.0, NonNegative());
    s.length = ReadLength(n, "length", model, s.marker_a, s.marker_b, NonNegative());
    n.Finish();
    model.springs.push_back(std::move(s));
  }
  const std::vector<ModelNode> rotational = root.OptionalMaps("rotational_springs");
  for (size_t i = 0; i < rotational.size(); ++i) {
    const ModelNode& n = rotational[i];
    mbs::RotationalSpring s;
    s.name = ReadItemName(n, "rotational_spring_" + std::to_string(i + 1), names);
    std::tie(s.marker_a, s.marker_b) = ReadMarkerPair(n, model);
    s.stiffness = n.Double("stiffness", 0.0, NonNegative());
    s.damping = n.Double("damping", 0.0, NonNegative());
    s.angle = n.Double("angle", InitialRelativeAngle(model, s.marker_a, s.marker_b));
    n.Finish();
    model.rotational_springs.push_back(std::move(s));
  }
  const std::vector<ModelNode> bushings = root.OptionalMaps("bushings");
  for (size_t i = 0; i < bushings.size(); ++i) {
    const ModelNode& n = bushings[i];
    mbs::Bushing s;
    s.name = ReadItemName(n, "bushing_" + std::to_string(i + 1), names);
    std::tie(s.marker_a, s.marker_b) = ReadMarkerPair(n, model);
    s.stiffness = n.Double("stiffness", 0.0, NonNegative());
    s.damping = n.Double("damping", 0.0, NonNegative());
    n.Finish();
    model.bushings.push_back(std::move(s));
  }
}

void ReadLoads(const ModelNode& root, PlanarModel& model) {
  const std::vector<std::string> markers = NamesOf(model.markers);
  for (const ModelNode& n : root.OptionalMaps("loads")) {
    mbs::Load load;
    load.marker = FindName(n, "marker", n.String("marker"), markers, "marker of this model");
    if (!n.Has("fx") && !n.Has("fy") && !n.Has("torque"))
      n.FailValue("marker", markers[load.marker], "a load needs fx, fy or torque");
    load.fx = OptionalFunction(n, "fx");
    load.fy = OptionalFunction(n, "fy");
    load.torque = OptionalFunction(n, "torque");
    n.Finish();
    model.loads.push_back(std::move(load));
  }
}

void ReadOutput(const ModelNode& root, MultibodyFile& file) {
  MultibodyOptions& options = file.options;
  const auto node = root.OptionalMap("output");
  const std::string title = options.title.empty() ? "Multibody system" : options.title;
  if (node) {
    options.integrator.output_interval = node->Double("interval", 0.0, NonNegative());
    options.output.energy = node->Bool("energy", true);
    file.frames = node->Int("frames", 200, InRange(0, 100000));
    if (const auto modal = node->OptionalMap("modal")) {
      const std::vector<std::string> names =
          options.spatial ? NamesOf(options.spatial->bodies) : NamesOf(options.model.bodies);
      for (const std::string& name : modal->Keys()) {
        const int body = FindName(*modal, name, name, names, "body of this model");
        if (std::none_of(options.flexible.begin(), options.flexible.end(),
                         [body](const auto& f) { return f.body == body; }))
          modal->FailValue(name, name, "is no flexible body (elastic coordinates)");
        options.output.modal.push_back({body, modal->Int(name, AtLeast(1))});
      }
    }
    if (node->Has("markers")) {
      const std::vector<std::string> names =
          options.spatial ? NamesOf(options.spatial->markers) : NamesOf(options.model.markers);
      for (const std::string& name : node->Strings("markers"))
        options.output.markers.push_back(
            FindName(*node, "markers", name, names, "marker of this model"));
    }
  }
  if (node && node->Has("plots")) {
    file.plots =
        ReadColumnPlots(*node, options.Columns(), "multibody.csv", " (see output.markers)",
                        "multibody", title, QuantityLabels(analysis::MultibodyColumnQuantity));
  } else {  // the bodies' positions
    ColumnPlot plot{"multibody", title, "time t [s]", "position [m]"};
    const std::vector<std::string> bodies =
        options.spatial ? NamesOf(options.spatial->bodies) : NamesOf(options.model.bodies);
    for (const std::string& b : bodies) {
      if (plot.columns.size() >= 8) break;
      plot.columns.insert(plot.columns.end(), {"x_" + b, "y_" + b});
      if (options.spatial) plot.columns.push_back("z_" + b);
    }
    file.plots.push_back(std::move(plot));
  }
  if (node) node->Finish();
  const double bytes = OutputSamples(options.integrator) * (options.Columns().size() * 8.0 + 24.0);
  root.CheckMemory("integrator", bytes, "the samples of multibody.csv");
}

}  // namespace

void ReadPlanarItems(const ModelNode& root, MultibodyOptions& options) {
  PlanarModel& model = options.model;
  ReadBodies(root, options);
  ReadMarkers(root, options, model);
  ReadJoints(root, model);
  ReadSprings(root, model);
  ReadLoads(root, model);
}

analysis::FlexibleBodyOptions ReadFlexible(const ModelNode& n, int body) {
  analysis::FlexibleBodyOptions f;
  f.body = body;
  const ModelNode fe = n.Map("fe");
  f.fe = ReadFeModelSpec(fe);
  fe.Finish();
  f.cms.boundary = n.Strings("interface");
  for (const std::string& name : f.cms.boundary)
    if (!f.fe.HasReferenceNode(name))
      n.FailValue("interface", name,
                  "is no reference node of the body's FE model (fe.reference_nodes)");
  f.full = n.Bool("full", false);
  if (f.full)
    for (const char* key : {"vibration_modes", "rigid_ratio", "joint_modes", "boundary"})
      if (n.Has(key))
        n.FailValue(key, "(given)", "an unreduced body (full: true) has no reduction keys");
  f.cms.vibration_modes = n.Int("vibration_modes", 6, AtLeast(0));
  f.cms.free_free.rigid_ratio = n.Double("rigid_ratio", 1e-6, InRange(1e-14, 0.5));
  if (n.Has("joints")) f.joints = ReadJoints(n, f.fe);
  if (const auto joint_modes = n.OptionalMap("joint_modes"))
    f.joint_modes = ReadJointModeSpecOfJoints(*joint_modes, f.fe, f.joints);
  if (n.Has("boundary")) f.boundary = n.Strings("boundary");
  if (const auto preload = n.OptionalMap("preload")) {
    if (preload->Has("compare_radius"))
      preload->FailValue("compare_radius", "(given)",
                         "is a key of reduction.preload: a body compares all pairs");
    f.preload_mode = preload->Bool("mode", true);
    const bool tvds = preload->Has("tvds");
    f.preload = ReadPreloadSpec(*preload, f.fe);
    if (!f.preload_mode && !tvds) f.preload->tvds = analysis::PreloadTvds::kAll;
  }
  return f;
}

Vec2 ReadVec2(const ModelNode& node, const std::string& key, const Vec2& fallback) {
  if (!node.Has(key)) return fallback;
  const std::vector<double> v = node.Doubles(key);
  if (v.size() != 2) node.FailValue(key, std::to_string(v.size()) + " numbers", "must be [x, y]");
  return {v[0], v[1]};
}

int FindName(const ModelNode& node, const std::string& key, const std::string& name,
             const std::vector<std::string>& names, const std::string& what) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) node.FailValue(key, name, "is no " + what);
  return int(it - names.begin());
}

std::string ReadItemName(const ModelNode& node, const std::string& fallback,
                         std::set<std::string>& taken) {
  const std::string name = node.String("name", fallback);
  if (name.empty() || name == "ground")
    node.FailValue("name", name, "must be a name other than ground");
  if (!taken.insert(name).second) node.FailValue("name", name, "is used twice");
  return name;
}

time::TimeFunction RequiredFunction(const ModelNode& n, const std::string& key) {
  const ModelNode node = n.Map(key);
  time::TimeFunction f;
  try {
    f = ReadTimeFunction(node);
  } catch (const InputError& error) {
    node.Rethrow(error);
  }
  node.Finish();
  return f;
}

time::TimeFunction OptionalFunction(const ModelNode& n, const std::string& key) {
  return n.Has(key) ? RequiredFunction(n, key) : time::TimeFunction();
}

MultibodyFile ReadMultibody(const ModelNode& root) {
  MultibodyFile file;
  root.ExpectAnalysis("multibody");
  MultibodyOptions& options = file.options;
  options.title = root.String("title", "");
  if (root.Int("dimension", 2, InRange(2, 3)) == 3) {
    options.spatial = ReadSpatialModel(root, options.flexible);
  } else {
    ReadPlanarItems(root, options);
    options.model.gravity = ReadVec2(root, "gravity", Vec2::Zero());
  }
  options.initial_tolerance = root.Double("initial_tolerance", 1e-12, Positive());
  options.integrator = ReadIntegrator(root.Map("integrator"));
  ReadOutput(root, file);
  root.Finish();
  return file;  // RunMultibody validates the rest (MultibodyOptions::Validate)
}

}  // namespace jointdyn::model
