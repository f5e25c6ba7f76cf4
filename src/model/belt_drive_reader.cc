#include "model/belt_drive_reader.h"

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "ancf/belt_drive.h"
#include "model/integrator_reader.h"
#include "model/multibody_items.h"

namespace jointdyn::model {
namespace {

using analysis::BeltDriveOptions;

ancf::CableSection ReadSection(const ModelNode& n) {
  ancf::CableSection s;
  s.axial_stiffness = n.Double("axial_stiffness", Positive());
  s.bending_stiffness = n.Double("bending_stiffness", NonNegative());
  s.mass_per_length = n.Double("mass_per_length", Positive());
  s.axial_damping = n.Double("axial_damping", 0.0, NonNegative());
  s.bending_damping = n.Double("bending_damping", 0.0, NonNegative());
  if (n.Has("integration"))
    s.integration = n.Enum<ancf::Integration>(
        "integration",
        {{"a", ancf::Integration::kA}, {"b", ancf::Integration::kB}, {"c", ancf::Integration::kC}});
  n.Finish();
  return s;
}

// moving: a pulley whose centre translates (mass, a spring and a damper to `centre`, a force).
void ReadMoving(const ModelNode& n, bool quasi_static, ancf::Pulley& p) {
  p.moves = true;
  p.mass = quasi_static ? n.Double("mass", 0.0, NonNegative()) : n.Double("mass", Positive());
  p.centre_stiffness = n.Double("stiffness", 0.0, NonNegative());
  p.centre_damping = n.Double("damping", 0.0, NonNegative());
  p.force_x = OptionalFunction(n, "force_x");
  p.force_y = OptionalFunction(n, "force_y");
  n.Finish();
}

void ReadPulleys(const ModelNode& root, BeltDriveOptions& options) {
  std::set<std::string> names;
  const std::vector<ModelNode> nodes = root.OptionalMaps("pulleys");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    ancf::Pulley p;
    p.name = ReadItemName(n, "P" + std::to_string(i + 1), names);
    p.centre = ReadVec2(n, "centre", Vec2::Zero());
    p.radius = n.Double("radius", Positive());
    // A quasi-static run neglects inertia.
    p.inertia = options.quasi_static ? n.Double("inertia", 0.0, NonNegative())
                                     : n.Double("inertia", Positive());
    p.damping = n.Double("damping", 0.0, NonNegative());
    p.torque = OptionalFunction(n, "torque");
    p.driven = n.Has("motion");
    p.motion = OptionalFunction(n, "motion");
    if (p.driven && n.Has("torque"))
      n.FailValue("torque", "(given)", "a pulley that follows `motion` takes no torque");
    if (const auto moving = n.OptionalMap("moving")) ReadMoving(*moving, options.quasi_static, p);
    n.Finish();
    options.model.pulleys.push_back(std::move(p));
  }
}

// bodies, markers, joints, springs, bushings, loads (as for analysis: multibody, rigid bodies
// and point masses) and the circles on its rigid bodies.
void ReadMechanism(const ModelNode& root, BeltDriveOptions& options) {
  if (root.Has("bodies")) {
    analysis::MultibodyOptions read;
    ReadPlanarItems(root, read);
    if (!read.flexible.empty())
      root.FailValue("bodies", read.model.bodies[read.flexible[0].body].name,
                     "a cable's mechanism takes rigid bodies and point masses");
    options.model.mechanism = std::move(read.model);
  }
  const std::vector<std::string> bodies = NamesOf(options.model.mechanism.bodies);
  std::set<std::string> names;
  const std::vector<ModelNode> nodes = root.OptionalMaps("circles");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ModelNode& n = nodes[i];
    ancf::Circle c;
    c.name = ReadItemName(n, "C" + std::to_string(i + 1), names);
    c.body = FindName(n, "body", n.String("body"), bodies, "body of this model");
    c.radius = n.Double("radius", Positive());
    n.Finish();
    options.model.circles.push_back(std::move(c));
  }
  if (options.model.pulleys.empty() && options.model.circles.empty())
    root.FailValue("pulleys", "(none)", "give pulleys or circles on bodies (the cable touches)");
}

ancf::ContactLaw ReadContact(const ModelNode& n) {
  ancf::ContactLaw c;
  c.width = n.Double("width", Positive());
  c.offset = n.Double("offset", 0.0, NonNegative());
  c.normal_stiffness = n.Double("normal_stiffness", Positive());
  c.normal_damping = n.Double("normal_damping", 0.0, NonNegative());
  c.friction = n.Double("friction", 0.0, NonNegative());
  c.bristle_stiffness = n.Double("bristle_stiffness", 0.0, NonNegative());
  c.velocity_penalty = n.Double("velocity_penalty", 0.0, NonNegative());
  c.segments = n.Int("segments", 4, InRange(1, 64));
  if (n.Has("stick_length"))
    c.stick_length = n.Enum<ancf::StickLength>(
        "stick_length",
        {{"reference", ancf::StickLength::kReference}, {"current", ancf::StickLength::kCurrent}});
  n.Finish();
  return c;
}

// belt: a closed belt round two pulleys side by side (seed 002 eq. 35), its centreline at
// the pulleys' radius plus the contact offset.
void ReadBelt(const ModelNode& n, BeltDriveOptions& options) {
  const std::vector<std::string> around = n.Strings("around");
  if (around.size() != 2)
    n.FailValue("around", std::to_string(around.size()) + " names", "must name two pulleys");
  const std::vector<std::string> names = NamesOf(options.model.pulleys);
  const int a = FindName(n, "around", around[0], names, "pulley of this model");
  const int b = FindName(n, "around", around[1], names, "pulley of this model");
  const ancf::Pulley& left = options.model.pulleys[a];
  const ancf::Pulley& right = options.model.pulleys[b];
  if (a == b || left.radius != right.radius || left.centre.y() != right.centre.y() ||
      !(left.centre.x() < right.centre.x()))
    n.FailValue("around", around[1],
                "the belt is generated round two pulleys of equal radius side by side: the "
                "second right of the first at the same height");
  const int elements = n.Int("elements", InRange(4, 100000));
  const double strain = n.Double("reference_strain", 0.0, InRange(-0.5, 0.5));
  n.Finish();
  ancf::CableModel& m = options.model;
  const ancf::CableModel belt = ancf::ClosedBelt(
      left.centre, right.centre, left.radius + m.contact.offset, elements, m.section, strain);
  m.nodes = belt.nodes;
  m.elements = belt.elements;
}

// cable: an open straight cable between two points, its ends pinned, clamped or free.
void ReadCable(const ModelNode& n, BeltDriveOptions& options) {
  const Vec2 start = ReadVec2(n, "start", Vec2::Zero()), end = ReadVec2(n, "end", Vec2::Zero());
  if ((end - start).norm() == 0.0) n.FailValue("end", "(= start)", "must differ from start");
  const int elements = n.Int("elements", InRange(1, 100000));
  const double strain = n.Double("reference_strain", 0.0, InRange(-0.5, 0.5));
  const std::vector<std::string> supports = n.Strings("supports");
  if (supports.size() != 2)
    n.FailValue("supports", std::to_string(supports.size()) + " entries",
                "must give the start's and the end's support");
  const std::map<std::string, ancf::Support> kinds = {{"pinned", ancf::Support::kPinned},
                                                      {"clamped", ancf::Support::kClamped},
                                                      {"free", ancf::Support::kFree}};
  for (const std::string& s : supports)
    if (!kinds.count(s)) n.FailValue("supports", s, "must be pinned, clamped or free");
  n.Finish();
  ancf::CableModel& m = options.model;
  try {
    const ancf::CableModel cable = ancf::OpenCable(start, end, elements, m.section, strain,
                                                   kinds.at(supports[0]), kinds.at(supports[1]));
    m.nodes = cable.nodes;
    m.elements = cable.elements;
    m.fixed = cable.fixed;
  } catch (const InputError& error) {
    n.Rethrow(error);
  }
}

void ReadOutput(const ModelNode& root, BeltDriveFile& file) {
  BeltDriveOptions& options = file.options;
  const auto node = root.OptionalMap("output");
  const std::string title = options.title.empty() ? "Belt drive" : options.title;
  if (node) {
    options.integrator.output_interval = node->Double("interval", 0.0, NonNegative());
    options.energy = node->Bool("energy", true);
    file.frames = node->Int("frames", 100, InRange(0, 100000));
    if (node->Has("profiles")) options.profile_times = node->Doubles("profiles");
    std::set<std::string> names;
    const std::vector<ModelNode> probes = node->OptionalMaps("probes");
    for (size_t i = 0; i < probes.size(); ++i) {
      const ModelNode& probe = probes[i];
      const std::string name = ReadItemName(probe, "probe_" + std::to_string(i + 1), names);
      if (probe.Has("point") == probe.Has("s"))
        probe.FailValue("point", probe.Has("s") ? "(with s)" : "(none)",
                        "give a fixed point or an arc length s, one of them");
      options.probes.push_back({name, ReadVec2(probe, "point", Vec2::Zero())});
      if (probe.Has("s")) options.probes.back().s = probe.Double("s", NonNegative());
      probe.Finish();
    }
  }
  if (node && node->Has("plots")) {
    file.plots =
        ReadColumnPlots(*node, options.Columns(), "belt_drive.csv", " (see output.probes)",
                        "belt_drive", title, QuantityLabels(analysis::BeltDriveColumnQuantity));
  } else if (!options.model.pulleys.empty()) {  // the pulleys' speeds
    ColumnPlot plot{"belt_drive", title, "time t [s]", "angular velocity [rad/s]"};
    for (const ancf::Pulley& p : options.model.pulleys) plot.columns.push_back("omega_" + p.name);
    file.plots.push_back(std::move(plot));
  } else {  // the belt's forces on the circles
    ColumnPlot plot{"belt_drive", title, "time t [s]", "contact force [N]"};
    for (const ancf::Circle& c : options.model.circles)
      plot.columns.insert(plot.columns.end(), {"Fx_" + c.name, "Fy_" + c.name});
    file.plots.push_back(std::move(plot));
  }
  if (node) node->Finish();
  const double bytes = OutputSamples(options.integrator) * (options.Columns().size() * 8.0 + 24.0);
  root.CheckMemory("integrator", bytes, "the samples of belt_drive.csv");
}

}  // namespace

BeltDriveFile ReadBeltDrive(const ModelNode& root) {
  BeltDriveFile file;
  root.ExpectAnalysis("belt_drive");
  BeltDriveOptions& options = file.options;
  options.title = root.String("title", "");
  ancf::CableModel& model = options.model;
  model.section = ReadSection(root.Map("section"));
  options.quasi_static = root.Bool("quasi_static", false);
  ReadPulleys(root, options);
  ReadMechanism(root, options);
  model.contact = ReadContact(root.Map("contact"));
  if (root.Has("belt") == root.Has("cable"))
    root.FailValue("belt", root.Has("cable") ? "(with cable)" : "(none)",
                   "give a closed `belt` round two pulleys or an open `cable`, one of them");
  if (root.Has("belt"))
    ReadBelt(root.Map("belt"), options);
  else
    ReadCable(root.Map("cable"), options);
  model.gravity = ReadVec2(root, "gravity", Vec2::Zero());
  options.pre_solve = root.Bool("pre_solve", true);
  options.integrator = ReadIntegrator(root.Map("integrator"));
  ReadOutput(root, file);
  root.Finish();
  return file;  // RunBeltDrive validates the rest (BeltDriveOptions::Validate)
}

}  // namespace jointdyn::model
