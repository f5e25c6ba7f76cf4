#include "analysis/multibody.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>
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

// The state of the joints inside flexible body `body` after the system's last evaluation
// (its joints are contiguous in the system's list).
template <class System>
JointFigures FlexibleJointFigures(const System& system, int body) {
  const std::vector<int>& bodies = system.flexible_joint_bodies();
  const auto first = std::find(bodies.begin(), bodies.end(), body) - bodies.begin();
  const auto count = std::count(bodies.begin(), bodies.end(), body);
  return JointFiguresOf(std::span(system.flexible_joints()).subspan(first, count));
}

// The contact-force and gap norms of the flexible bodies with joints (fc_, gap_).
template <class System>
void AddJointNorms(const MultibodyOptions& options, const System& system,
                   std::vector<double>& row) {
  for (const FlexibleBodyOptions& f : options.flexible) {
    if (f.joints.empty()) continue;
    const JointFigures figures = FlexibleJointFigures(system, f.body);
    row.insert(row.end(), {figures.force_norm, figures.gap_norm});
  }
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
  AddJointNorms(options, system, row);
  for (size_t s = 0; s < model.springs.size(); ++s) row.push_back(system.SpringForce(int(s), q, v));
  for (size_t s = 0; s < model.rotational_springs.size(); ++s)
    row.push_back(system.RotationalSpringMoment(int(s), q, v));
  for (size_t s = 0; s < model.bushings.size(); ++s) {
    const Vec2 force = system.BushingForce(int(s), q, v);
    row.insert(row.end(), {force.x(), force.y()});
  }
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
    if (!model.bodies[b].oriented()) continue;
    add(q.segment<4>(first + 3));
    add(system.AngularVelocity(int(b), q, v));
  }
  for (const ModalOutput& m : options.output.modal)
    add(q.segment(system.FirstCoordinate(m.body) + 7, m.count));
  for (const int m : options.output.markers) {
    add(system.MarkerPosition(q, m));
    add(system.MarkerVelocity(q, v, m));
  }
  for (size_t j = 0; j < model.joints.size(); ++j)
    add(system.JointForces(int(j), q, *record.lambda));
  AddJointNorms(options, system, row);
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
  VecX frequencies;                     // free-free frequencies [Hz] (none for the unreduced body)
  int joint_modes = 0;                  // appended to Craig-Bampton's basis
  std::map<std::string, double> times;  // MultibodyResult::flexible_times' stages [s]
  std::optional<PreloadSolution> preload;  // the full preload solution (a preloaded body)
  double preload_seconds = 0.0;
};

// K with the 6 DOFs of reference node `node` held by springs as stiff as K's largest
// diagonal entry: the free body's preload step, whose loads and joint forces are
// self-equilibrated (the springs carry nothing in equilibrium, whatever their stiffness).
// InputError at <key>.interface when the node's DOFs are not independent.
solvers::SparseMatrix HeldStiffness(const fe::FeModel& fe, const solvers::SparseMatrix& k,
                                    const std::string& node, const std::string& key) {
  const double spring = k.diagonal().cwiseAbs().maxCoeff();
  std::vector<Eigen::Triplet<double>> held;
  for (int c = 0; c < 6; ++c) {
    const int dof = fe.dofs->FreeIndex(fe.dofs->ReferenceDof(node, c));
    if (dof < 0)
      throw InputError(key + ".interface", node,
                       "a preloaded body is held at its first interface node in the preload "
                       "step: it needs 6 independent DOFs (a rigid coupling's reference node, "
                       "or a distributing one's with independent_reference: true)");
    held.emplace_back(dof, dof, spring);
  }
  solvers::SparseMatrix springs(k.rows(), k.cols());
  springs.setFromTriplets(held.begin(), held.end());
  return k + springs;
}

// x without its rigid-body motion: x - R R^T M x, R the `rigid` M-orthonormal rigid-body
// modes of Craig-Bampton's basis (the lowest eigenvectors of its reduced K and M; a free
// body's CB basis spans them). The held preload solution moves as the held node makes it;
// that motion, far larger in the mass norm than the joint's local deformation, would leave
// the preload mode nearly dependent on the CB basis (the seed-sized rod: V^T M V not
// positive definite). It changes no gap, so the preload's TVDs stay the same.
VecX WithoutRigidMotion(const VecX& x, const reduction::CraigBamptonResult& cb,
                        const solvers::SparseMatrix& mass, int rigid) {
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> modes(cb.stiffness, cb.mass);
  const MatX r = cb.basis.vectors * modes.eigenvectors().leftCols(rigid);
  return x - r * (r.transpose() * (mass * x));
}

// The full preload solution of a preloaded body (its preload mode without rigid-body
// motion), into `result`.
void SolveBodyPreload(const fe::FeModel& fe, const FlexibleBodyOptions& f,
                      const solvers::SparseMatrix& k, const solvers::SparseMatrix& m,
                      const CmsBasis& cms, int rigid, const JointContact& contact,
                      const std::string& key, Observer& observer, BodyBasis& result) {
  const std::string task = "preload, full nonlinear static solution";
  observer.Progress(task, 0, 1);
  const Clock::time_point start = Clock::now();
  result.preload =
      SolvePreload(fe, HeldStiffness(fe, k, f.cms.boundary.front(), key), contact, *f.preload,
                   MakeBolts(f.preload->bolts, f.fe, fe, fe.dofs->transform()));
  result.preload_seconds = result.times["preload"] = Seconds(start);
  observer.Progress(task, 1, 1);
  if (!result.preload->full.status) {
    result.status = result.preload->full.status;
    return;
  }
  result.preload->mode = WithoutRigidMotion(result.preload->mode, cms.cb, m, rigid);
}

// The CMS basis on the body's interface, with joint modes Craig-Bampton's basis extended by
// them, orthogonalized to free-free modes (the rigid-body modes removed: 3 planar, 6
// spatial); unreduced (`full`): every independent DOF, the frame fixed to the first
// interface node.
BodyBasis BuildBodyBasis(const fe::FeModel& fe, const FlexibleBodyOptions& f,
                         const std::string& key, int rigid_modes, Observer& observer) {
  BodyBasis result;
  if (f.full) return result;  // mbs::BuildUnreducedBody makes its basis
  const solvers::SparseMatrix k = fe.ReducedStiffness(), m = fe.ReducedMass();
  const int v = f.cms.vibration_modes;
  std::vector<reduction::BoundaryDof> boundary =
      BoundaryDofs(fe, f.cms.boundary, v, key, "interface");
  for (const reduction::BoundaryDof& dof : BoundaryDofs(fe, f.boundary, v, key, "boundary"))
    boundary.push_back(dof);
  const CmsBasis cms = BuildCmsBasis(k, m, boundary, v, v, f.cms.free_free, observer);
  result.times["craig_bampton"] = cms.cb.partition_seconds + cms.cb.factor_seconds +
                                  cms.cb.eigen_seconds + cms.cb.constraint_seconds +
                                  cms.cb.projection_seconds;
  reduction::FreeFreeResult ff = cms.cms;
  if (cms.status && f.joint_modes) {
    const JointModeSpec& spec = *f.joint_modes;
    const JointContact contact = BuildJointContact(fe, spec);  // InputError at spec.key
    if (f.preload) SolveBodyPreload(fe, f, k, m, cms, rigid_modes, contact, key, observer, result);
    if (!result.status) return result;
    observer.Progress("joint modes", 0, 1);
    JointModeStageResult stage = RunJointModeStage(
        k, m, cms.cb, cms.cms.basis, contact, spec,
        result.preload && f.preload_mode ? &result.preload->mode : nullptr,
        f.preload && f.preload_mode ? f.preload->tvds : PreloadTvds::kAll, true, f.cms.free_free);
    observer.Progress("joint modes", 1, 1);
    result.joint_modes = stage.g - stage.dropped;
    const JointModeTimes& t = stage.times;
    result.times["tvds"] = t.tvd_forces + t.tvd_solves;
    result.times["joint_modes"] = t.pod + t.joint_mode_solves + t.extend;
    result.times["orthogonalization"] = t.orthogonalization;
    ff = std::move(stage.final_orthogonalization);
    if (!stage.status) ff.status = stage.status;
  }
  result.status = cms.status ? ff.status : cms.status;
  if (result.status && ff.rigid_modes != rigid_modes)
    result.status = Status::Failure(
        "a flexible body must be free (no supports) with its " + std::to_string(rigid_modes) +
        " rigid-body motions in its basis: " + std::to_string(ff.rigid_modes) + " found");
  result.elastic = std::move(ff.basis);
  result.frequencies = std::move(ff.frequencies);
  return result;
}

// The bolts of a preload on the coordinates of the basis `v` (their axes V^T a).
template <class Basis>
std::vector<Bolt> BasisBolts(const fe::FeModel& fe, const FlexibleBodyOptions& f, const Basis& v) {
  std::vector<Bolt> bolts = MakeBolts(f.preload->bolts, f.fe, fe, fe.dofs->transform());
  for (Bolt& bolt : bolts) bolt.axis = VecX(v.transpose() * VecX(bolt.axis)).sparseView();
  return bolts;
}

// The pair states of the joint on `contact` (f.joints' order) after its last evaluation.
std::vector<joint::PairOutput> ContactPairs(const FlexibleBodyOptions& f,
                                            const std::vector<joint::JointOperator>& joints,
                                            const std::string& contact) {
  std::vector<joint::PairOutput> pairs;
  for (size_t j = 0; j < f.joints.size(); ++j)
    if (f.joints[j].contact == contact)
      for (int p = 0; p < joints[j].num_pairs(); ++p) pairs.push_back(joints[j].Output(p));
  return pairs;
}

// "preloaded start: 33000 N on 300 of 631 pairs (stick 280, slip 20), max pressure
// 9.8e+07 Pa, bolt forces 16500 N, 16500 N; pressure against the full solution 1.2e-03".
std::string PreloadNote(const BodyPreloadFigures& p) {
  const JointFigures& j = p.start;
  const int pairs = j.open_pairs + j.sticking_pairs + j.slipping_pairs;
  std::string note = "preloaded start: " + FormatValue(j.normal_force) + " N on " +
                     std::to_string(pairs - j.open_pairs) + " of " + std::to_string(pairs) +
                     " pairs (stick " + std::to_string(j.sticking_pairs) + ", slip " +
                     std::to_string(j.slipping_pairs) + "), max pressure " +
                     FormatValue(j.max_pressure) + " Pa";
  for (size_t b = 0; b < p.bolt_forces.size(); ++b)
    note += (b == 0 ? ", bolt forces " : ", ") + FormatValue(p.bolt_forces[b]) + " N";
  if (std::isnan(p.pressure_error)) return note;  // an unreduced body
  return note + "; pressure against the full solution " + FormatValue(p.pressure_error);
}

// The preload step of a preloaded flexible body on its basis V (FlexibleBodyOptions::
// preload): the reduced nonlinear static solution q0 under the preload with the body's
// joints (a touch band, as the static analysis's; converged tightly, so that the start is
// at rest), the bolts locked there. The body starts at q0 with its joints' history of the
// step and carries the locked bolts' and the loads' forces as its elastic load.
// `v`: the reduced body's basis (dense) or the unreduced body's (sparse: the step is then
// the full one, with friction; no pressure error).
template <class Body, class Basis>
Status PreloadBody(const fe::FeModel& fe, const FlexibleBodyOptions& f, const BodyBasis& basis,
                   const Basis& v, Body& body, VecX& start, BodyPreloadFigures& figures) {
  const Clock::time_point clock = Clock::now();
  std::vector<Bolt> bolts = BasisBolts(fe, f, v);
  const VecX loads = v.transpose() * fe::AssembleLoads(fe, f.preload->loads);
  std::vector<int> pair_counts;
  std::vector<joint::JointOperator> joints;
  for (const joint::JointOperator& joint : BuildJoints(
           fe, f.joints, fe.dofs->transform().topRows(fe.dofs->num_mesh_dofs()), {}, pair_counts))
    joints.push_back(joint.Reduced(v));
  joint::StaticOptions solver = f.preload->solver;
  solver.residual_tolerance = std::min(solver.residual_tolerance, 1e-13);
  solver.increment_tolerance = std::min(solver.increment_tolerance, 1e-12);
  const auto n = Eigen::Index(v.cols());
  const Basis stiffness(WithoutBoltStiffness(body.stiffness, bolts));
  const joint::StaticResult step =
      joint::SolveStatic(stiffness, joints, loads + BoltLoad(bolts, true, n), solver);
  if (!step.status)
    return Status::Failure("the preload step on the body's basis: " + step.status.message);
  figures.iterations = step.iterations;
  LockBolts(bolts, step.q);
  for (joint::JointOperator& joint : joints) (void)joint.Evaluate(step.q);
  for (size_t j = 0; j < joints.size(); ++j) body.joints[j].CopyHistory(joints[j]);
  for (const Bolt& bolt : bolts) figures.bolt_forces.push_back(bolt.Force(step.q));
  figures.start = JointFiguresOf(joints);
  figures.pressure_error = std::nan("");
  if (basis.preload) {
    const std::vector<joint::PairOutput>& full = basis.preload->pairs;
    std::vector<int> all(full.size());
    std::iota(all.begin(), all.end(), 0);
    figures.pressure_error =
        RelativePressureError(ContactPairs(f, joints, f.joint_modes->contact), full, all);
  }
  body.elastic_load = loads + BoltLoad(bolts, false, n);
  start = step.q;
  figures.full_seconds = basis.preload_seconds;
  figures.reduced_seconds = Seconds(clock);
  return Status::Ok();
}

// A preloaded body's start: its preload step on the basis of the reduced body or of the
// unreduced one, the body's initial modal coordinates set there.
template <class Flexible, class Body>
Status StartPreloaded(const fe::FeModel& fe, const FlexibleBodyOptions& f, const BodyBasis& basis,
                      const std::string& key, Flexible& flexible, Body& body,
                      BodyPreloadFigures& figures) {
  if (body.modal_coordinates.size() > 0)
    throw InputError(key + ".modal_coordinates", "(given)",
                     "a preloaded body starts at its preloaded state");
  VecX& start = body.modal_coordinates;
  if (f.full)
    return PreloadBody(fe, f, basis, mbs::UnreducedBasis(fe, f.cms.boundary.front()), flexible,
                       start, figures);
  return PreloadBody(fe, f, basis, basis.elastic.vectors, flexible, start, figures);
}

// What differs between building a planar and a spatial model's flexible bodies.
mbs::FlexibleBodyResult Build(const mbs::PlanarModel&, const fe::FeModel& fe,
                              const BodyBasis& basis, const mbs::FlexibleBodySpec& spec,
                              bool full) {
  return full ? mbs::BuildUnreducedBody(fe, spec) : mbs::BuildFlexibleBody(fe, basis.elastic, spec);
}
mbs::spatial::FlexibleBodyResult Build(const mbs::spatial::SpatialModel&, const fe::FeModel& fe,
                                       const BodyBasis& basis, const mbs::FlexibleBodySpec& spec,
                                       bool full) {
  return full ? mbs::BuildSpatialUnreducedBody(fe, spec)
              : mbs::BuildSpatialBody(fe, basis.elastic, spec);
}
// The frame at the centre of mass c: the body's position and velocity are its FE model's
// origin's, the frame's are position + A c and velocity + omega x (A c).
void PlaceFrame(mbs::Body& body, const Vec2& centre) {
  const Vec2 offset = Eigen::Rotation2Dd(body.angle) * centre;
  body.position += offset;
  body.velocity += body.angular_velocity * Vec2(-offset.y(), offset.x());
}
void PlaceFrame(mbs::spatial::Body& body, const Vec3& centre) {
  const Vec3 offset = body.orientation * centre;
  body.position += offset;
  body.velocity += body.angular_velocity.cross(offset);
}
constexpr int Dimension(const mbs::PlanarModel&) { return 2; }
constexpr int Dimension(const mbs::spatial::SpatialModel&) { return 3; }

// The model with its flexible bodies built: FE model, reduction, the frame placed at the
// centre of mass.
template <class Model>
Model BuildModel(Model model, const MultibodyOptions& options, MultibodyObserver& observer,
                 MultibodyResult& result) {
  for (const FlexibleBodyOptions& f : options.flexible) {
    auto& body = model.bodies[f.body];
    const std::string task = "flexible body " + body.name;
    const std::string key = "bodies[" + std::to_string(f.body) + "]";
    fe::FeModel fe;
    mbs::FlexibleBodySpec spec{.interface = f.cms.boundary};
    // Errors of the FE model at the body's `fe` keys, of its joints at its `joints`.
    Locate(key + ".fe",
           [&] { fe = fe::BuildFeModel(f.fe, observer.ProgressOf(task + ": FE model")); });
    const int dim = Dimension(model);
    if (fe.mesh.dim != dim)
      throw InputError(
          key + ".fe.mesh", std::to_string(fe.mesh.dim) + "D",
          dim == 2 ? "a planar body needs a 2D mesh" : "a spatial body needs a 3D mesh");
    Locate(key, [&] { AddFlexibleJoints(fe, f.joints, spec); });
    const BodyBasis basis = BuildBodyBasis(fe, f, key, dim == 2 ? 3 : 6, observer);
    if (!basis.status) throw InputError(key, body.name, "reduction: " + basis.status.message);
    // The unreduced body's frame node's errors at the body's `interface`, others at `fe`.
    decltype(Build(model, fe, basis, spec, f.full)) built;
    const Clock::time_point build_start = Clock::now();
    Locate(f.full ? key : key + ".fe", [&] { built = Build(model, fe, basis, spec, f.full); });
    std::map<std::string, double>& times = result.flexible_times.emplace_back(basis.times);
    times.insert({{"mesh", fe.times.mesh},
                  {"assembly", fe.times.assembly},
                  {"constraints", fe.times.constraints},
                  {"pairing", fe.times.pairing},
                  {"body", Seconds(build_start)}});
    std::optional<BodyPreloadFigures>& preload = result.flexible_preload.emplace_back();
    if (f.preload) {
      result.status = StartPreloaded(fe, f, basis, key, *built.body, body, preload.emplace());
      if (!result.status) {
        result.status.message = task + ": " + result.status.message;
        return model;
      }
      times["preload_step"] = preload->reduced_seconds;
      observer.Note(task + ": " + PreloadNote(*preload));
    }
    body.flexible = built.body;
    PlaceFrame(body, built.centre_of_mass);
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
  for (const ModalOutput& m : options.output.modal) {
    const auto& body = model.bodies[m.body];
    if (m.count > body.flexible->modes())
      throw InputError("output.modal." + body.name, std::to_string(m.count),
                       "is more than the body's " + std::to_string(body.flexible->modes()) +
                           " elastic coordinates");
  }
  return model;
}

// A flexible body's preload: loads or bolts, a reduced body with joint modes and a joint on
// their contact (InputError at bodies[<body>].preload).
void ValidatePreload(const FlexibleBodyOptions& f) {
  if (!f.preload) return;
  const std::string key = "bodies[" + std::to_string(f.body) + "].preload";
  if (f.preload->loads.empty() && f.preload->bolts.empty())
    throw InputError(key, "(given)", "needs loads, bolts or both");
  ValidatePreloads(f.preload->bolts, f.fe, key + ".bolts");
  if (f.full) {  // the preload step is the full one
    if (f.joints.empty()) throw InputError(key, "(given)", "needs a joint (key joints)");
    return;
  }
  if (!f.preload_mode && f.preload->tvds == PreloadTvds::kPreloadRelated)
    throw InputError(key + ".tvds", "preload_related",
                     "differentiates the preload mode: with mode: false take tvds: all");
  if (!f.joint_modes)
    throw InputError(key, "(given)",
                     "needs joint_modes on a reduced body (modes: 0 for the preload mode "
                     "alone): their contact and normal law give the preload mode");
  const auto on_contact = [&](const JointSpec& j) { return j.contact == f.joint_modes->contact; };
  if (std::none_of(f.joints.begin(), f.joints.end(), on_contact))
    throw InputError(
        key, "(given)",
        "needs a joint (key joints) on joint_modes' contact " + f.joint_modes->contact);
}

}  // namespace

void MultibodyOptions::Validate() const {
  ValidateIntegrator(integrator,
                     "is not available for multibody systems (use HHT with alpha = 0 or smaller "
                     "steps)");
  if (spatial && !model.bodies.empty())
    throw InputError("spatial", "(given)", "a spatial model has no planar bodies");
  if (!spatial && model.bodies.empty()) throw InputError("bodies", "[]", "needs at least one body");
  const size_t markers = spatial ? spatial->markers.size() : model.markers.size();
  for (const int m : output.markers)
    if (m < 0 || m >= int(markers))
      throw InputError("output.markers", std::to_string(m), "is no marker");
  const auto is_flexible = [this](int b) {
    if (spatial)
      return b >= 0 && b < int(spatial->bodies.size()) &&
             spatial->bodies[b].kind == mbs::spatial::BodyKind::kFlexible;
    return b >= 0 && b < int(model.bodies.size()) && model.bodies[b].kind == BodyKind::kFlexible;
  };
  for (size_t i = 0; i < flexible.size(); ++i)
    if (!is_flexible(flexible[i].body))
      throw InputError("flexible[" + std::to_string(i) + "].body", std::to_string(flexible[i].body),
                       "is no flexible body");
  for (size_t i = 0; i < flexible.size(); ++i) ValidatePreload(flexible[i]);
  for (size_t i = 0; i < output.modal.size(); ++i) {
    const ModalOutput& m = output.modal[i];
    if (!is_flexible(m.body) || m.count < 1)
      throw InputError("output.modal[" + std::to_string(i) + "]", std::to_string(m.body),
                       "must be a flexible body with a count >= 1");
  }
  if (!(initial_tolerance > 0.0 && std::isfinite(initial_tolerance)))
    throw InputError("initial_tolerance", FormatValue(initial_tolerance), "must be > 0");
}

namespace {

// The elastic coordinates' columns q<k>_<body> of output.modal.
void AddModalColumns(const MultibodyOptions& options, const auto& model,
                     std::vector<std::string>& columns) {
  for (const ModalOutput& m : options.output.modal)
    for (int k = 1; k <= m.count; ++k)
      columns.push_back("q" + std::to_string(k) + "_" + model.bodies[m.body].name);
}

// The contact-force and gap norms' columns of the flexible bodies with joints.
void AddJointNormColumns(const MultibodyOptions& options, const auto& model,
                         std::vector<std::string>& columns) {
  for (const FlexibleBodyOptions& f : options.flexible) {
    if (f.joints.empty()) continue;
    columns.push_back("fc_" + model.bodies[f.body].name);
    columns.push_back("gap_" + model.bodies[f.body].name);
  }
}

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
  AddModalColumns(options, model, columns);
  for (const int m : options.output.markers)
    for (const char* c : {"px_", "py_", "vx_", "vy_"}) columns.push_back(c + model.markers[m].name);
  for (const mbs::Joint& j : model.joints)
    for (const std::string& label : mbs::JointForceLabels(j.kind))
      columns.push_back(label + "_" + j.name);
  AddJointNormColumns(options, model, columns);
  for (const mbs::Spring& s : model.springs) columns.push_back("f_" + s.name);
  for (const mbs::RotationalSpring& s : model.rotational_springs) columns.push_back("m_" + s.name);
  for (const mbs::Bushing& s : model.bushings)
    columns.insert(columns.end(), {"fx_" + s.name, "fy_" + s.name});
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
    if (b.oriented()) add({"e0_", "e1_", "e2_", "e3_", "wx_", "wy_", "wz_"}, b.name);
  }
  AddModalColumns(options, model, columns);
  for (const int m : options.output.markers)
    add({"px_", "py_", "pz_", "vx_", "vy_", "vz_"}, model.markers[m].name);
  for (const mbs::spatial::Joint& j : model.joints)
    for (const std::string& label : mbs::spatial::JointForceLabels(j.kind))
      columns.push_back(label + "_" + j.name);
  AddJointNormColumns(options, model, columns);
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

namespace {

// Builds the system of `model` (its flexible bodies first), integrates it and records the
// state of the flexible bodies' joints at the end.
template <class System, class Model>
void RunSystem(const Model& model, const MultibodyOptions& options, MultibodyObserver& observer,
               MultibodyResult& result) {
  Model built = BuildModel(model, options, observer, result);
  if (!result.status) return;  // a preload step failed
  System system(std::move(built));
  if (Simulate(options, system, observer, result))
    for (const FlexibleBodyOptions& f : options.flexible)
      result.flexible_joint_state.push_back(FlexibleJointFigures(system, f.body));
}

}  // namespace

MultibodyResult RunMultibody(const MultibodyOptions& options, MultibodyObserver& observer) {
  options.Validate();
  const Clock::time_point start = Clock::now();
  MultibodyResult result;
  if (options.spatial)
    RunSystem<SpatialSystem>(*options.spatial, options, observer, result);
  else
    RunSystem<PlanarSystem>(options.model, options, observer, result);
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
