#include "analysis/multibody.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <span>

#include "analysis/fe_setup.h"
#include "core/clock.h"
#include "core/error.h"
#include "mbs/planar_system.h"

namespace jointdyn::analysis {
namespace {

using mbs::BodyKind;
using mbs::PlanarSystem;
using mbs::spatial::SpatialSystem;
using SpatialBodyKind = mbs::spatial::BodyKind;

// The state of the joints inside flexible body `body` after the system's last evaluation
// (its joints are contiguous in the system's list).
JointFigures FlexibleJointFigures(const PlanarSystem& system, int body) {
  const std::vector<int>& bodies = system.flexible_joint_bodies();
  const auto first = std::find(bodies.begin(), bodies.end(), body) - bodies.begin();
  const auto count = std::count(bodies.begin(), bodies.end(), body);
  return JointFiguresOf(std::span(system.flexible_joints()).subspan(first, count));
}

// The values of a planar system's state between the time and the energy columns
// (MultibodyOptions::Columns()).
void AddStateValues(const MultibodyOptions& options, PlanarSystem& system,
                    const time::StepRecord& record, std::vector<double>& row) {
  const mbs::PlanarModel& model = system.model();
  const VecX& q = *record.q;
  const VecX& v = *record.v;
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const int count = model.bodies[b].kind == BodyKind::kPointMass ? 2 : 3;  // the frame
    const int first = system.CoordinateIndex(int(b), mbs::Coordinate::kX);
    for (int k = 0; k < count; ++k) row.push_back(q(first + k));
    for (int k = 0; k < count; ++k) row.push_back(v(first + k));
  }
  for (const ModalOutput& m : options.output.modal) {
    const int first = system.CoordinateIndex(m.body, mbs::Coordinate::kAngle) + 1;
    row.insert(row.end(), q.data() + first, q.data() + first + m.count);
  }
  for (const int m : options.output.markers) {
    const Vec2 p = system.MarkerPosition(q, m), w = system.MarkerVelocity(q, v, m);
    row.insert(row.end(), {p.x(), p.y(), w.x(), w.y()});
  }
  for (size_t j = 0; j < model.joints.size(); ++j)
    for (const double f : system.JointForces(int(j), q, *record.lambda)) row.push_back(f);
  for (const FlexibleBodyOptions& f : options.flexible) {
    if (f.joints.empty()) continue;
    const JointFigures figures = FlexibleJointFigures(system, f.body);
    row.insert(row.end(), {figures.force_norm, figures.gap_norm});
  }
  for (size_t s = 0; s < model.springs.size(); ++s) row.push_back(system.SpringForce(int(s), q, v));
  for (size_t s = 0; s < model.rotational_springs.size(); ++s)
    row.push_back(system.RotationalSpringMoment(int(s), q, v));
}

// ... of a spatial system.
void AddStateValues(const MultibodyOptions& options, SpatialSystem& system,
                    const time::StepRecord& record, std::vector<double>& row) {
  const mbs::spatial::SpatialModel& model = system.model();
  const VecX& q = *record.q;
  const VecX& v = *record.v;
  const auto add = [&row](const auto& x) { row.insert(row.end(), x.data(), x.data() + x.size()); };
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const int first = system.FirstCoordinate(int(b));
    add(q.segment<3>(first));
    add(v.segment<3>(first));
    if (model.bodies[b].kind != SpatialBodyKind::kRigid) continue;
    add(q.segment<4>(first + 3));
    add(system.AngularVelocity(int(b), q, v));
  }
  for (const int m : options.output.markers) {
    add(system.MarkerPosition(q, m));
    add(system.MarkerVelocity(q, v, m));
  }
  for (size_t j = 0; j < model.joints.size(); ++j)
    add(system.JointForces(int(j), q, *record.lambda));
  for (size_t s = 0; s < model.springs.size(); ++s) row.push_back(system.SpringForce(int(s), q, v));
  for (size_t s = 0; s < model.rotational_springs.size(); ++s)
    row.push_back(system.RotationalSpringMoment(int(s), q, v));
}

// The row of one observed state (MultibodyOptions::Columns()); `violation` gets max |c|.
template <class System>
std::vector<double> Row(const MultibodyOptions& options, System& system,
                        const time::StepRecord& record, double& violation) {
  std::vector<double> row = {record.t};
  AddStateValues(options, system, record, row);
  if (options.output.energy) {
    JD_CHECK(record.energy != nullptr, "the integrator reported a step without its energy");
    const time::EnergyBalance& e = *record.energy;
    row.insert(row.end(), {e.kinetic, e.stored, e.external_work, e.constraint_work,
                           e.law_dissipation, e.numerical_dissipation});
  }
  VecX c = VecX::Zero(system.constraint_count());
  system.Constraints(record.t, *record.q, c, nullptr);
  const double c_max = c.size() > 0 ? c.lpNorm<Eigen::Infinity>() : 0.0;
  violation = std::max(violation, c_max);
  row.push_back(c_max);
  return row;
}

// The joint operators of a flexible body on its FE model's independent DOFs (no touch band:
// kTransientJointOptions) and the slave mesh node of each of their pairs, into `spec`.
void AddFlexibleJoints(const fe::FeModel& fe, const std::vector<JointSpec>& joints,
                       mbs::FlexibleBodySpec& spec) {
  if (joints.empty()) return;
  std::vector<int> pairs;
  spec.joints = BuildJoints(fe, joints, fe.dofs->transform().topRows(fe.dofs->num_mesh_dofs()),
                            kTransientJointOptions, pairs);
  for (const JointSpec& joint : joints) {
    const auto& names = fe.contact_names;
    const auto contact = std::find(names.begin(), names.end(), joint.contact) - names.begin();
    std::vector<int>& nodes = spec.joint_nodes.emplace_back();
    for (const fe::ContactPair& pair : fe.contacts[contact].pairs) nodes.push_back(pair.slave);
  }
}

// Runs `build`, its InputErrors located below `prefix` (a body's key).
template <class Build>
void Locate(const std::string& prefix, const Build& build) {
  try {
    build();
  } catch (const InputError& error) {
    throw error.Located("", 0, prefix).At(prefix + "." + error.where());
  }
}

// A flexible body's basis of elastic deformations.
struct BodyBasis {
  Status status;
  reduction::ReductionBasis elastic;
  VecX frequencies;     // free-free frequencies [Hz] (none for the unreduced body)
  int joint_modes = 0;  // appended to Craig-Bampton's basis
};

// The CMS basis on the body's interface, with joint modes Craig-Bampton's basis extended by
// them, orthogonalized to free-free modes (the 3 rigid-body modes removed); unreduced
// (`full`): every independent DOF, the frame fixed to the first interface node.
BodyBasis BuildBodyBasis(const fe::FeModel& fe, const FlexibleBodyOptions& f,
                         const std::string& key, Observer& observer) {
  BodyBasis result;
  if (f.full) return result;  // mbs::BuildUnreducedBody makes its basis
  const solvers::SparseMatrix k = fe.ReducedStiffness(), m = fe.ReducedMass();
  const int v = f.cms.vibration_modes;
  const CmsBasis cms = BuildCmsBasis(k, m, BoundaryDofs(fe, f.cms.boundary, v, key, "interface"), v,
                                     v, f.cms.free_free, observer);
  reduction::FreeFreeResult ff = cms.cms;
  if (cms.status && f.joint_modes) {
    const JointModeSpec& spec = *f.joint_modes;
    const JointContact contact = BuildJointContact(fe, spec);  // InputError at spec.key
    observer.Progress("joint modes", 0, 1);
    JointModeStageResult stage =
        RunJointModeStage(k, m, cms.cb, cms.cms.basis, contact, spec, nullptr, PreloadTvds::kAll,
                          true, f.cms.free_free);
    observer.Progress("joint modes", 1, 1);
    result.joint_modes = stage.g - stage.dropped;
    ff = std::move(stage.final_orthogonalization);
    if (!stage.status) ff.status = stage.status;
  }
  result.status = cms.status ? ff.status : cms.status;
  if (result.status && ff.rigid_modes != 3)
    result.status = Status::Failure(
        "a planar flexible body must be free (no supports) with its 3 rigid-body motions in "
        "its basis: " +
        std::to_string(ff.rigid_modes) + " found");
  result.elastic = std::move(ff.basis);
  result.frequencies = std::move(ff.frequencies);
  return result;
}

// The model with its flexible bodies built: FE model, reduction, the frame placed at the
// centre of mass (position + A(angle) c).
mbs::PlanarModel BuildModel(const MultibodyOptions& options, MultibodyObserver& observer,
                            MultibodyResult& result) {
  mbs::PlanarModel model = options.model;
  for (const FlexibleBodyOptions& f : options.flexible) {
    mbs::Body& body = model.bodies[f.body];
    const std::string task = "flexible body " + body.name;
    const std::string key = "bodies[" + std::to_string(f.body) + "]";
    fe::FeModel fe;
    mbs::FlexibleBodySpec spec{.interface = f.cms.boundary};
    // Errors of the FE model at the body's `fe` keys, of its joints at its `joints`.
    Locate(key + ".fe",
           [&] { fe = fe::BuildFeModel(f.fe, observer.ProgressOf(task + ": FE model")); });
    Locate(key, [&] { AddFlexibleJoints(fe, f.joints, spec); });
    const BodyBasis basis = BuildBodyBasis(fe, f, key, observer);
    if (!basis.status) throw InputError(key, body.name, "reduction: " + basis.status.message);
    mbs::FlexibleBodyResult built;
    if (f.full)  // its frame node's errors at the body's `interface`
      Locate(key, [&] { built = mbs::BuildUnreducedBody(fe, spec); });
    else
      Locate(key + ".fe", [&] { built = mbs::BuildFlexibleBody(fe, basis.elastic, spec); });
    body.flexible = built.body;
    body.position += Eigen::Rotation2Dd(body.angle) * built.centre_of_mass;
    result.flexible_modes.push_back(built.body->modes());
    result.flexible_frequencies.push_back(basis.frequencies);
    result.flexible_joint_modes.push_back(basis.joint_modes);
    observer.Note(task + ": " + std::to_string(fe.dofs->num_free_dofs()) + " FE DOFs -> " +
                  std::to_string(built.body->modes()) +
                  (f.full ? " coordinates (unreduced)"
                          : " modes (" + std::to_string(basis.joint_modes) +
                                " joint modes), first free-free frequency " +
                                FormatValue(basis.frequencies(0)) + " Hz"));
  }
  return model;
}

}  // namespace

void MultibodyOptions::Validate() const {
  ValidateIntegrator(integrator,
                     "is not available for multibody systems (use HHT with alpha = 0 or smaller "
                     "steps)");
  if (spatial && (!model.bodies.empty() || !flexible.empty() || !output.modal.empty()))
    throw InputError("spatial", "(given)",
                     "a spatial model has no planar bodies, flexible bodies or modal outputs");
  const size_t markers = spatial ? spatial->markers.size() : model.markers.size();
  for (const int m : output.markers)
    if (m < 0 || m >= int(markers))
      throw InputError("output.markers", std::to_string(m), "is no marker");
  for (size_t i = 0; i < flexible.size(); ++i)
    if (flexible[i].body < 0 || flexible[i].body >= int(model.bodies.size()) ||
        model.bodies[flexible[i].body].kind != BodyKind::kFlexible)
      throw InputError("flexible[" + std::to_string(i) + "].body", std::to_string(flexible[i].body),
                       "is no flexible body");
  for (size_t i = 0; i < output.modal.size(); ++i) {
    const ModalOutput& m = output.modal[i];
    if (m.body < 0 || m.body >= int(model.bodies.size()) ||
        model.bodies[m.body].kind != BodyKind::kFlexible || m.count < 1)
      throw InputError("output.modal[" + std::to_string(i) + "]", std::to_string(m.body),
                       "must be a flexible body with a count >= 1");
  }
  if (!(initial_tolerance > 0.0 && std::isfinite(initial_tolerance)))
    throw InputError("initial_tolerance", FormatValue(initial_tolerance), "must be > 0");
}

namespace {

// The columns of a planar model's state between time and the energy (Columns()).
void AddStateColumns(const MultibodyOptions& options, std::vector<std::string>& columns) {
  const mbs::PlanarModel& model = options.model;
  for (const mbs::Body& b : model.bodies) {
    const bool rigid = b.kind != BodyKind::kPointMass;  // rigid or a flexible body's frame
    for (const char* c : {"x_", "y_", "angle_", "vx_", "vy_", "omega_"}) {
      const std::string prefix = c;
      if (!rigid && (prefix == "angle_" || prefix == "omega_")) continue;
      columns.push_back(prefix + b.name);
    }
  }
  for (const ModalOutput& m : options.output.modal)
    for (int k = 1; k <= m.count; ++k)
      columns.push_back("q" + std::to_string(k) + "_" + model.bodies[m.body].name);
  for (const int m : options.output.markers)
    for (const char* c : {"px_", "py_", "vx_", "vy_"}) columns.push_back(c + model.markers[m].name);
  for (const mbs::Joint& j : model.joints)
    for (const std::string& label : mbs::JointForceLabels(j.kind))
      columns.push_back(label + "_" + j.name);
  for (const FlexibleBodyOptions& f : options.flexible) {
    if (f.joints.empty()) continue;
    columns.push_back("fc_" + model.bodies[f.body].name);
    columns.push_back("gap_" + model.bodies[f.body].name);
  }
  for (const mbs::Spring& s : model.springs) columns.push_back("f_" + s.name);
  for (const mbs::RotationalSpring& s : model.rotational_springs) columns.push_back("m_" + s.name);
}

// ... of a spatial model.
void AddStateColumns(const MultibodyOptions& options, const mbs::spatial::SpatialModel& model,
                     std::vector<std::string>& columns) {
  const auto add = [&columns](std::initializer_list<const char*> prefixes,
                              const std::string& name) {
    for (const char* p : prefixes) columns.push_back(p + name);
  };
  for (const mbs::spatial::Body& b : model.bodies) {
    add({"x_", "y_", "z_", "vx_", "vy_", "vz_"}, b.name);
    if (b.kind == SpatialBodyKind::kRigid)
      add({"e0_", "e1_", "e2_", "e3_", "wx_", "wy_", "wz_"}, b.name);
  }
  for (const int m : options.output.markers)
    add({"px_", "py_", "pz_", "vx_", "vy_", "vz_"}, model.markers[m].name);
  for (const mbs::spatial::Joint& j : model.joints)
    for (const std::string& label : mbs::spatial::JointForceLabels(j.kind))
      columns.push_back(label + "_" + j.name);
  for (const mbs::spatial::Spring& s : model.springs) columns.push_back("f_" + s.name);
  for (const mbs::spatial::RotationalSpring& s : model.rotational_springs)
    columns.push_back("m_" + s.name);
}

}  // namespace

std::vector<std::string> MultibodyOptions::Columns() const {
  std::vector<std::string> columns = {"time"};
  if (spatial)
    AddStateColumns(*this, *spatial, columns);
  else
    AddStateColumns(*this, columns);
  if (output.energy)
    for (const char* c :
         {"E_kinetic", "E_stored", "W_external", "W_constraint", "D_dampers", "D_numerical"})
      columns.push_back(c);
  columns.push_back("c_max");
  return columns;
}

ColumnQuantity MultibodyColumnQuantity(const std::string& column) {
  if (column == "time") return {"time", "s"};
  if (column == "c_max") return {"constraint violation", "m or rad"};
  for (const char* p : {"x_", "y_", "z_", "px_", "py_", "pz_"})
    if (column.starts_with(p)) return {"position", "m"};
  if (column.starts_with("angle_")) return {"angle", "rad"};
  for (const char* p : {"e0_", "e1_", "e2_", "e3_"})
    if (column.starts_with(p)) return {"Euler parameter", "-"};
  if (column.size() > 1 && column[0] == 'q' && std::isdigit(static_cast<unsigned char>(column[1])))
    return {"elastic coordinate", "kg^0.5 m, or m"};
  for (const char* p : {"omega_", "wx_", "wy_", "wz_"})
    if (column.starts_with(p)) return {"angular velocity", "rad/s"};
  for (const char* p : {"vx_", "vy_", "vz_"})
    if (column.starts_with(p)) return {"velocity", "m/s"};
  for (const char* p : {"m_", "mx_", "my_", "mz_"})
    if (column.starts_with(p)) return {"moment", "N m"};
  if (column.starts_with("fc_")) return {"contact-force norm", "N"};
  if (column.starts_with("gap_")) return {"gap norm", "m"};
  for (const char* p : {"fx_", "fy_", "fz_", "fn_"})
    if (column.starts_with(p)) return {"force", "N"};
  if (column.starts_with("f_")) return {"force", "N or N m"};
  return {"energy", "J"};
}

namespace {

// Consistent initial conditions, then the time integration with a row per output step;
// false when the initial conditions failed (nothing integrated).
template <class System>
bool Simulate(const MultibodyOptions& options, System& system, MultibodyObserver& observer,
              MultibodyResult& result) {
  result.columns = options.Columns();
  result.coordinates = system.size();
  result.constraints = system.constraint_count();
  const time::IntegratorOptions& integrator = options.integrator;
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  result.status = system.ConsistentInitialState(integrator.t_start, q, v, options.initial_tolerance,
                                                result.initial_correction);
  if (!result.status) {
    result.status.message = "initial conditions: " + result.status.message;
    return false;
  }
  if (result.initial_correction > 0.0)
    observer.Note("initial positions moved onto the joints by up to " +
                  FormatValue(result.initial_correction) + " (m or rad)");
  const double span = integrator.t_end - integrator.t_start;
  observer.Progress("time integration, % of t_end", 0, 100);
  const auto record = [&](const time::StepRecord& step) {
    WatchEnergy(step, observer, result.warnings);
    result.rows.push_back(Row(options, system, step, result.max_constraint_violation));
    observer.Sample(result.rows.back());
    observer.Configuration(step.t, system, *step.q);
    observer.Progress("time integration, % of t_end",
                      static_cast<int>(std::floor(100.0 * (step.t - integrator.t_start) / span)),
                      100);
  };
  result.integration = time::Integrate(system, integrator, q, v, record);
  result.status = result.integration.status;
  return true;
}

}  // namespace

MultibodyResult RunMultibody(const MultibodyOptions& options, MultibodyObserver& observer) {
  options.Validate();
  const Clock::time_point start = Clock::now();
  MultibodyResult result;
  if (options.spatial) {
    SpatialSystem system(*options.spatial);
    Simulate(options, system, observer, result);
    result.wall_seconds = Seconds(start);
    return result;
  }
  PlanarSystem system(BuildModel(options, observer, result));
  for (const ModalOutput& m : options.output.modal) {
    const mbs::Body& body = system.model().bodies[m.body];
    if (m.count > body.flexible->modes())
      throw InputError("output.modal." + body.name, std::to_string(m.count),
                       "is more than the body's " + std::to_string(body.flexible->modes()) +
                           " elastic coordinates");
  }
  if (Simulate(options, system, observer, result))
    for (const FlexibleBodyOptions& f : options.flexible)
      result.flexible_joint_state.push_back(FlexibleJointFigures(system, f.body));
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
