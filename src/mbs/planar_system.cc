#include "mbs/planar_system.h"

#include <Eigen/Geometry>
#include <array>
#include <cmath>

#include "core/error.h"
#include "mbs/consistent_state.h"
#include "mbs/local.h"

namespace jointdyn::mbs {
namespace {

// Every element is evaluated on intermediate coordinates, six per body: x, y, angle of its
// frame, the marker's point u_x, u_y in the body frame and its elastic rotation phi (for a
// rigid body u is the marker's fixed position and phi 0; for a flexible body u = u0 + Phi
// zeta and phi = Phi_rz zeta at the marker's node). The intermediate coordinates are linear
// in the bodies' coordinates (the map below), so the jets' derivatives carry over exactly:
// gradient map' g, Hessian map' H map.
constexpr int kSlot = 6;
constexpr SlotLayout kSlots{.size = kSlot, .frame = 3, .point = 3};
constexpr int kIntermediate = 2 * kSlot;
using J = Jet<kIntermediate>;

using Local = LocalCoordinates<kIntermediate>;

// A marker's point and x-axis angle as jets of the local coordinates.
struct Frame {
  J x, y, angle;
};

// The joint's rows as jets (rows[0..count)).
struct Rows {
  std::array<J, 3> value;
  int count = 0;
};

Rows JointRowJets(const Joint& joint, const Frame& a, const Frame& b) {
  Rows r;
  const auto add = [&r](const J& value) { r.value[r.count++] = value; };
  switch (joint.kind) {
    case JointKind::kRevolute:
      add(a.x - b.x);
      add(a.y - b.y);
      break;
    case JointKind::kRigid:
      add(a.x - b.x);
      add(a.y - b.y);
      add(a.angle - b.angle);
      break;
    case JointKind::kPrismatic:  // b's point on a's x axis: its offset along a's normal is 0
      add(a.angle - b.angle);
      add(cos(a.angle) * (b.y - a.y) - sin(a.angle) * (b.x - a.x));
      break;
    case JointKind::kDistance: {
      const J dx = a.x - b.x, dy = a.y - b.y;
      add(sqrt(dx * dx + dy * dy) - joint.length);
      break;
    }
    case JointKind::kPrescribed:  // JointRows() of the system handles it
      break;
  }
  return r;
}

// The force a row's multiplier exerts on marker b's body, per unit multiplier (see
// planar_system.h): +1 for the rows of coincidence, alignment and distance (their
// constraint force on b is +lambda times b's direction), -1 for the prismatic line and
// for drivers (the force on the coordinate is -lambda).
double ReportSign(JointKind kind, int row) {
  if (kind == JointKind::kPrescribed) return -1.0;
  if (kind == JointKind::kPrismatic && row == 1) return -1.0;
  return 1.0;
}

}  // namespace

// The element layer: gathers local coordinates, builds marker frames, and visits the
// joints' rows. Kept as one private helper of the system so every loop uses one layout.
class PlanarLayout {
 public:
  PlanarLayout(const PlanarModel& model, const std::vector<int>& first)
      : model_(model), first_(first) {}

  // The local coordinates of markers a and b (-1: none; `body_a` names slot 0's body
  // when marker_a is -1, for drivers); values from q and, when given, rates from v.
  Local Gather(int marker_a, int marker_b, const VecX& q, const VecX* v = nullptr,
               int body_a = kGround) const {
    return mbs::Gather<kIntermediate>(model_, first_, kSlots, marker_a, marker_b, q, v, body_a);
  }

  // Marker `marker`'s point and axis angle in slot `slot`: p = X + A(angle) u and
  // angle + phi + the marker's angle.
  Frame MarkerFrame(int marker, int slot, const Local& local) const {
    const int o = kSlot * slot;
    const J angle = local.Variable(o + 2), ux = local.Variable(o + 3), uy = local.Variable(o + 4);
    const J c = cos(angle), s = sin(angle);
    return {local.Variable(o) + c * ux - s * uy, local.Variable(o + 1) + s * ux + c * uy,
            angle + local.Variable(o + 5) + model_.markers[marker].angle};
  }

  // The local coordinates of the two markers' bodies and their frames.
  std::pair<Local, std::array<Frame, 2>> Pair(int marker_a, int marker_b, const VecX& q,
                                              const VecX* v = nullptr) const {
    Local local = Gather(marker_a, marker_b, q, v);
    return {local, {MarkerFrame(marker_a, 0, local), MarkerFrame(marker_b, 1, local)}};
  }

  // Calls visit(row, local, jet, second time derivative of the row's explicit time part)
  // for every constraint row at (q, t): c = jet.v - f(t) for drivers, c = jet.v otherwise;
  // local.rates from v when given.
  template <class Visit>
  void ForEachRow(const VecX& q, double t, const std::vector<int>& joint_rows, Visit&& visit,
                  const VecX* v = nullptr) const {
    for (size_t j = 0; j < model_.joints.size(); ++j) {
      const Joint& joint = model_.joints[j];
      if (joint.kind == JointKind::kPrescribed) {
        const Local local = Gather(-1, -1, q, v, joint.body);
        const J row = local.Variable(static_cast<int>(joint.coordinate)) - joint.motion.Value(t);
        visit(joint_rows[j], local, row, -joint.motion.Acceleration(t));
        continue;
      }
      const auto [local, frames] = Pair(joint.marker_a, joint.marker_b, q, v);
      const Rows rows = JointRowJets(joint, frames[0], frames[1]);
      for (int r = 0; r < rows.count; ++r) visit(joint_rows[j] + r, local, rows.value[r], 0.0);
    }
  }

 private:
  const PlanarModel& model_;
  const std::vector<int>& first_;
};

PlanarSystem::PlanarSystem(PlanarModel model, int dense_coordinates) : model_(std::move(model)) {
  model_.Validate();
  for (const Body& b : model_.bodies) {
    first_.push_back(size_);
    size_ += b.coordinates();
    mass_varies_ = mass_varies_ || b.kind == BodyKind::kFlexible;
    flexible_gravity_ =
        flexible_gravity_ || (b.kind == BodyKind::kFlexible && model_.gravity != Vec2::Zero() &&
                              MovesCentreOfMass(b.flexible->inertia));
  }
  units_ = VecX::Ones(size_);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    if (body.kind == BodyKind::kPointMass) continue;
    const double mass = body.kind == BodyKind::kRigid ? body.mass : body.flexible->inertia.mass();
    const double inertia =
        body.kind == BodyKind::kRigid ? body.inertia : body.flexible->inertia.g00;
    units_(first_[b] + 2) = std::sqrt(inertia / mass);  // radius of gyration [m]
    if (body.kind == BodyKind::kFlexible)
      units_.segment(first_[b] + 3, body.flexible->modes()) = body.flexible->units;
  }
  for (size_t m = 0; m < model_.markers.size(); ++m) {  // or the farthest marker, if farther
    const int b = model_.markers[m].body;
    if (b != kGround && model_.bodies[b].kind != BodyKind::kPointMass)
      units_(first_[b] + 2) =
          std::max(units_(first_[b] + 2),
                   (InitialMarkerPosition(model_, int(m)) - model_.bodies[b].position).norm());
  }
  flexible_ = FlexibleForces(model_, 3);
  for (const Joint& joint : model_.joints) {
    joint_rows_.push_back(rows_);
    rows_ += JointRows(joint.kind);
  }
  // Dense tangents for rigid and reduced bodies; sparse with an unreduced flexible body.
  damping_ = EmptyTangent(size_, dense_coordinates);
  mass_ = EmptyTangent(size_, dense_coordinates);
  VecX force(size_);
  Inertia(InitialPositions(), VecX::Zero(size_), VecX::Zero(size_), force, &mass_, nullptr,
          nullptr);
}

int PlanarSystem::CoordinateIndex(int body, Coordinate coordinate) const {
  if (coordinate == Coordinate::kAngle && model_.bodies[body].kind == BodyKind::kPointMass)
    return -1;
  return first_[body] + static_cast<int>(coordinate);
}

VecX PlanarSystem::InitialState(bool rates) const {
  VecX x = VecX::Zero(size_);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    x.segment<2>(first_[b]) = rates ? body.velocity : body.position;
    if (body.kind == BodyKind::kPointMass) continue;
    x(first_[b] + 2) = rates ? body.angular_velocity : body.angle;
    const VecX& modal = rates ? body.modal_velocities : body.modal_coordinates;
    if (body.kind == BodyKind::kFlexible && modal.size() > 0)
      x.segment(first_[b] + 3, modal.size()) = modal;
  }
  return x;
}

Status PlanarSystem::Inertia(const VecX& q, const VecX& v, const VecX& a, VecX& f, Matrix* mass,
                             Matrix* d_dq, Matrix* d_dv) {
  MatrixAssembly mass_sum(mass), q_sum(d_dq), v_sum(d_dv);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    const int first = first_[b], count = body.coordinates();
    if (body.kind != BodyKind::kFlexible) {
      const double diagonal[3] = {body.mass, body.mass, body.inertia};
      for (int k = 0; k < count; ++k) {
        f(first + k) = diagonal[k] * a(first + k);
        mass_sum.Add(first + k, first + k, diagonal[k]);
      }
      continue;
    }
    AddFlexibleInertia(body.flexible->inertia, first, count, q, v, a, f, mass_sum, q_sum, v_sum);
  }
  for (MatrixAssembly* sum : {&mass_sum, &q_sum, &v_sum}) sum->Finish();
  return Status::Ok();
}

Status PlanarSystem::InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                                   Matrix* damping_tangent) {
  const PlanarLayout layout(model_, first_);
  stored_energy_ = 0.0;
  MatrixAssembly k(stiffness), d(stiffness ? damping_tangent : nullptr);
  const auto add = [&](const Local& local, const J& measure, double k_s, double c_s, double rest) {
    stored_energy_ += AddSpringDamper(local, measure, k_s, c_s, rest, f, k, d);
  };
  for (const Spring& s : model_.springs) {
    const auto [local, frames] = layout.Pair(s.marker_a, s.marker_b, *point.q, point.v);
    const J dx = frames[0].x - frames[1].x, dy = frames[0].y - frames[1].y;
    const J squared = dx * dx + dy * dy;
    if (squared.v <= 0.0)
      return Status::Failure("spring " + s.name + ": its markers coincide (no line of action)");
    add(local, sqrt(squared), s.stiffness, s.damping, s.length);
  }
  for (const RotationalSpring& s : model_.rotational_springs) {
    const auto [local, frames] = layout.Pair(s.marker_a, s.marker_b, *point.q, point.v);
    add(local, frames[0].angle - frames[1].angle, s.stiffness, s.damping, s.angle);
  }
  for (const Bushing& s : model_.bushings) {  // a spring-damper along x and one along y
    const auto [local, frames] = layout.Pair(s.marker_a, s.marker_b, *point.q, point.v);
    add(local, frames[0].x - frames[1].x, s.stiffness, s.damping, 0.0);
    add(local, frames[0].y - frames[1].y, s.stiffness, s.damping, 0.0);
  }
  const Status status = flexible_.Add(model_, first_, point, f, k, d, stored_energy_);
  k.Finish();
  d.Finish();
  return status;
}

void PlanarSystem::Commit() { flexible_.Commit(); }

void PlanarSystem::ExternalForce(double t, VecX& f) const {
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    const double mass =
        body.kind == BodyKind::kFlexible ? body.flexible->inertia.mass() : body.mass;
    f.segment<2>(first_[b]) += mass * model_.gravity;
  }
}

Status PlanarSystem::ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent_matrix) {
  const PlanarLayout layout(model_, first_);
  MatrixAssembly tangent(tangent_matrix);
  for (const Load& load : model_.loads) {
    if (model_.markers[load.marker].body == kGround)
      continue;  // a force on the ground does nothing
    const Local local = layout.Gather(load.marker, -1, q);
    const Frame frame = layout.MarkerFrame(load.marker, 0, local);
    const double fx = load.fx.Value(t), fy = load.fy.Value(t), torque = load.torque.Value(t);
    const J work = fx * frame.x + fy * frame.y + torque * frame.angle;  // virtual work's jet
    ScatterVector(local, local.Gradient(work), 1.0, f);
    if (tangent.active()) ScatterMatrix(local, local.Hessian(work), 1.0, tangent);
  }
  AddFlexibleGravity(q, f, tangent);
  tangent.Finish();
  return Status::Ok();
}

// Gravity on the elastic coordinates of a flexible body whose basis moves its centre of mass
// (S_f != 0: an unreduced body's frame fixed to a node; free-free modes have S_f = 0): with
// the frame at the centre of mass, V = -m g' R - g' A(theta) S_f zeta, so beyond m g on R
//   Q_theta = g' A S S_f zeta,  Q_zeta = S_f' A' g,
// with dQ_theta/dtheta = -g' A S_f zeta, dQ_theta/dzeta = g' A S S_f, dQ_zeta/dtheta =
// S_f' (A S)' g (S the rotation by 90 degrees, dA/dtheta = A S).
void PlanarSystem::AddFlexibleGravity(const VecX& q, VecX& f, MatrixAssembly& tangent) const {
  if (!flexible_gravity_) return;
  const Mat2 s = (Mat2() << 0.0, -1.0, 1.0, 0.0).finished();
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    if (body.kind != BodyKind::kFlexible || !MovesCentreOfMass(body.flexible->inertia)) continue;
    const MatX& s_f = body.flexible->inertia.s_f;
    const int angle = first_[b] + 2, n = body.flexible->modes();
    const Mat2 a = Eigen::Rotation2Dd(q(angle)).toRotationMatrix();
    const Vec2 g = model_.gravity;
    const VecX s_f_zeta = s_f * q.segment(angle + 1, n);
    f(angle) += g.dot(a * s * s_f_zeta);
    f.segment(angle + 1, n) += s_f.transpose() * (a.transpose() * g);
    if (!tangent.active()) continue;
    tangent.Add(angle, angle, -g.dot(a * s_f_zeta));
    tangent.AddBlock(angle, angle + 1, MatX(g.transpose() * a * s * s_f));
    tangent.AddBlock(angle + 1, angle, MatX(s_f.transpose() * ((a * s).transpose() * g)));
  }
}

Status PlanarSystem::Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
  std::vector<Eigen::Triplet<double>> entries;
  PlanarLayout(model_, first_)
      .ForEachRow(q, t, joint_rows_, [&](int row, const Local& local, const J& value, double) {
        c(row) = value.v;
        ScatterRow(local, row, local.Gradient(value), entries);
      });
  if (jacobian) {
    jacobian->resize(rows_, size_);
    jacobian->setFromTriplets(entries.begin(), entries.end());
  }
  return Status::Ok();
}

Status PlanarSystem::ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                            SparseMatrix& tangent) {
  std::vector<Eigen::Triplet<double>> entries;
  PlanarLayout(model_, first_)
      .ForEachRow(q, t, joint_rows_, [&](int row, const Local& local, const J& value, double) {
        ScatterTriplets(local, local.Hessian(value), lambda(row), entries);
      });
  tangent.resize(size_, size_);
  tangent.setFromTriplets(entries.begin(), entries.end());
  return Status::Ok();
}

Status PlanarSystem::ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) {
  // C_q a = -dz' H dz - c_tt (seed 003 eq. 2.51-2.52, no C_qt here).
  PlanarLayout(model_, first_)
      .ForEachRow(
          q, t, joint_rows_,
          [&](int row, const Local& local, const J& value, double time_part) {
            q_c(row) = -local.rates.dot(value.h * local.rates) - time_part;
          },
          &v);
  return Status::Ok();
}

Vec2 PlanarSystem::MarkerPosition(const VecX& q, int marker) const {
  const PlanarLayout layout(model_, first_);
  const Frame frame = layout.MarkerFrame(marker, 0, layout.Gather(marker, -1, q));
  return {frame.x.v, frame.y.v};
}

Vec2 PlanarSystem::MarkerVelocity(const VecX& q, const VecX& v, int marker) const {
  const PlanarLayout layout(model_, first_);
  const Local local = layout.Gather(marker, -1, q, &v);
  const Frame frame = layout.MarkerFrame(marker, 0, local);
  return {local.Rate(frame.x), local.Rate(frame.y)};
}

MatX PlanarSystem::FlexibleMeshPositions(int body, const VecX& q) const {
  const FlexibleBody& flexible = *model_.bodies[body].flexible;
  const int first = first_[body];
  return flexible.MeshPositions(q.segment(first + 3, flexible.modes()),
                                Eigen::Rotation2Dd(q(first + 2)).toRotationMatrix(),
                                q.segment<2>(first));
}

std::vector<double> PlanarSystem::JointForces(int j, const VecX& q, const VecX& lambda) const {
  const JointKind kind = model_.joints[j].kind;
  std::vector<double> forces;
  for (int r = 0; r < JointRows(kind); ++r)
    forces.push_back(ReportSign(kind, r) * lambda(joint_rows_[j] + r));
  return forces;
}

double PlanarSystem::SpringForce(int s, const VecX& q, const VecX& v) const {
  const Spring& spring = model_.springs[s];
  const auto [local, frames] =
      PlanarLayout(model_, first_).Pair(spring.marker_a, spring.marker_b, q, &v);
  const J dx = frames[0].x - frames[1].x, dy = frames[0].y - frames[1].y;
  const J length = sqrt(dx * dx + dy * dy);
  return SpringDamperForce(local, length, spring.stiffness, spring.damping, spring.length);
}

double PlanarSystem::RotationalSpringMoment(int s, const VecX& q, const VecX& v) const {
  const RotationalSpring& spring = model_.rotational_springs[s];
  const auto [local, frames] =
      PlanarLayout(model_, first_).Pair(spring.marker_a, spring.marker_b, q, &v);
  const J angle = frames[0].angle - frames[1].angle;
  return SpringDamperForce(local, angle, spring.stiffness, spring.damping, spring.angle);
}

Status PlanarSystem::ConsistentInitialState(double t, VecX& q, VecX& v, double tolerance,
                                            double& correction) {
  // C_t of a driver row is -f'(t).
  VecX c_t = VecX::Zero(rows_);
  for (size_t j = 0; j < model_.joints.size(); ++j)
    if (model_.joints[j].kind == JointKind::kPrescribed)
      c_t(joint_rows_[j]) = -model_.joints[j].motion.Rate(t);
  VecX weights = VecX::Ones(size());
  for (size_t b = 0; b < model_.bodies.size(); ++b)
    if (const auto& flexible = model_.bodies[b].flexible)
      weights.segment(CoordinateIndex(int(b), Coordinate::kAngle) + 1, flexible->modes())
          .setConstant(kElasticWeight);
  return ConsistentState(
      *this, t, [&c_t](const VecX&) { return c_t; }, tolerance, q, v, correction, weights);
}

Vec2 PlanarSystem::BushingForce(int s, const VecX& q, const VecX& v) const {
  const Bushing& b = model_.bushings[s];
  return b.stiffness * (MarkerPosition(q, b.marker_a) - MarkerPosition(q, b.marker_b)) +
         b.damping * (MarkerVelocity(q, v, b.marker_a) - MarkerVelocity(q, v, b.marker_b));
}

}  // namespace jointdyn::mbs
