#include "mbs/planar_system.h"

#include <array>
#include <cmath>

#include "core/error.h"
#include "mbs/jet.h"

namespace jointdyn::mbs {
namespace {

constexpr int kLocal = 6;  // two bodies' x, y, angle
using J = Jet<kLocal>;
using LocalVector = J::Gradient;
using LocalMatrix = J::Hessian;

// The local coordinates of an element: slot 0 (entries 0-2) and slot 1 (3-5) are the x, y
// and angle of one body each; index -1 where there is no coordinate (ground, a point
// mass's angle, an unused slot).
struct Local {
  std::array<int, kLocal> index;
  LocalVector z = LocalVector::Zero();   // values
  LocalVector dz = LocalVector::Zero();  // rates

  // d/dt of a jet's value: gradient . dz.
  double Rate(const J& value) const { return value.g.dot(dz); }
};

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

void ScatterVector(const Local& local, const LocalVector& x, double factor, VecX& out) {
  for (int i = 0; i < kLocal; ++i)
    if (local.index[i] >= 0) out(local.index[i]) += factor * x(i);
}

void ScatterMatrix(const Local& local, const LocalMatrix& x, double factor, MatX& out) {
  for (int i = 0; i < kLocal; ++i) {
    if (local.index[i] < 0) continue;
    for (int j = 0; j < kLocal; ++j)
      if (local.index[j] >= 0) out(local.index[i], local.index[j]) += factor * x(i, j);
  }
}

void ScatterTriplets(const Local& local, const LocalMatrix& x, double factor,
                     std::vector<Eigen::Triplet<double>>& out) {
  for (int i = 0; i < kLocal; ++i) {
    if (local.index[i] < 0) continue;
    for (int j = 0; j < kLocal; ++j)
      if (local.index[j] >= 0 && x(i, j) != 0.0)
        out.emplace_back(local.index[i], local.index[j], factor * x(i, j));
  }
}

}  // namespace

// The element layer: gathers local coordinates, builds marker frames, and visits the
// joints' rows. Kept as one private helper of the system so every loop uses one layout.
class PlanarLayout {
 public:
  PlanarLayout(const PlanarModel& model, const std::vector<int>& first)
      : model_(model), first_(first) {}

  // Slots for bodies a and b (kGround: none); values from q and, when given, rates from v.
  Local Gather(int body_a, int body_b, const VecX& q, const VecX* v = nullptr) const {
    Local local;
    local.index.fill(-1);
    const int bodies[2] = {body_a, body_b};
    for (int slot = 0; slot < 2; ++slot) {
      const int body = bodies[slot];
      if (body == kGround) continue;
      const int count = model_.bodies[body].kind == BodyKind::kRigid ? 3 : 2;
      for (int k = 0; k < count; ++k) {
        const int g = first_[body] + k;
        local.index[3 * slot + k] = g;
        local.z(3 * slot + k) = q(g);
        if (v) local.dz(3 * slot + k) = (*v)(g);
      }
    }
    return local;
  }

  // Local coordinate i as a jet (a constant where there is none).
  static J Coordinate(const Local& local, int i) {
    return local.index[i] >= 0 ? J::Variable(local.z(i), i) : J(0.0);
  }

  Frame MarkerFrame(int marker, int slot, const Local& local) const {
    const Marker& m = model_.markers[marker];
    if (m.body == kGround) return {J(m.position.x()), J(m.position.y()), J(m.angle)};
    const J x = Coordinate(local, 3 * slot), y = Coordinate(local, 3 * slot + 1);
    const J angle = Coordinate(local, 3 * slot + 2);
    const J c = cos(angle), s = sin(angle);
    const double ux = m.position.x(), uy = m.position.y();
    return {x + ux * c - uy * s, y + ux * s + uy * c, angle + m.angle};
  }

  // The local coordinates of the two markers' bodies and their frames.
  std::pair<Local, std::array<Frame, 2>> Pair(int marker_a, int marker_b, const VecX& q,
                                              const VecX* v = nullptr) const {
    Local local = Gather(model_.markers[marker_a].body, model_.markers[marker_b].body, q, v);
    return {local, {MarkerFrame(marker_a, 0, local), MarkerFrame(marker_b, 1, local)}};
  }

  // Calls visit(row, local, jet, second time derivative of the row's explicit time part)
  // for every constraint row at (q, t): c = jet.v - f(t) for drivers, c = jet.v otherwise.
  template <class Visit>
  void ForEachRow(const VecX& q, double t, const std::vector<int>& joint_rows,
                  Visit&& visit) const {
    for (size_t j = 0; j < model_.joints.size(); ++j) {
      const Joint& joint = model_.joints[j];
      if (joint.kind == JointKind::kPrescribed) {
        const Local local = Gather(joint.body, kGround, q);
        const J row = Coordinate(local, static_cast<int>(joint.coordinate)) - joint.motion.Value(t);
        visit(joint_rows[j], local, row, -joint.motion.Acceleration(t));
        continue;
      }
      const auto [local, frames] = Pair(joint.marker_a, joint.marker_b, q);
      const Rows rows = JointRowJets(joint, frames[0], frames[1]);
      for (int r = 0; r < rows.count; ++r) visit(joint_rows[j] + r, local, rows.value[r], 0.0);
    }
  }

 private:
  const PlanarModel& model_;
  const std::vector<int>& first_;
};

PlanarSystem::PlanarSystem(PlanarModel model) : model_(std::move(model)) {
  model_.Validate();
  std::vector<double> diagonal, units;
  for (const Body& b : model_.bodies) {
    first_.push_back(size_);
    const bool rigid = b.kind == BodyKind::kRigid;
    size_ += rigid ? 3 : 2;
    diagonal.insert(diagonal.end(), {b.mass, b.mass});
    units.insert(units.end(), {1.0, 1.0});
    if (rigid) {
      diagonal.push_back(b.inertia);
      units.push_back(std::sqrt(b.inertia / b.mass));  // radius of gyration [m]
    }
  }
  for (const Marker& m : model_.markers)  // or the farthest marker, if farther
    if (m.body != kGround && model_.bodies[m.body].kind == BodyKind::kRigid)
      units[first_[m.body] + 2] = std::max(units[first_[m.body] + 2], m.position.norm());
  for (const Joint& joint : model_.joints) {
    joint_rows_.push_back(rows_);
    rows_ += JointRows(joint.kind);
  }
  mass_ = MatX(Eigen::Map<const VecX>(diagonal.data(), size_).asDiagonal());
  damping_ = MatX(MatX::Zero(size_, size_));
  units_ = Eigen::Map<const VecX>(units.data(), size_);
}

int PlanarSystem::CoordinateIndex(int body, Coordinate coordinate) const {
  if (coordinate == Coordinate::kAngle && model_.bodies[body].kind != BodyKind::kRigid) return -1;
  return first_[body] + static_cast<int>(coordinate);
}

VecX PlanarSystem::InitialPositions() const {
  VecX q(size_);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    q.segment<2>(first_[b]) = body.position;
    if (body.kind == BodyKind::kRigid) q(first_[b] + 2) = body.angle;
  }
  return q;
}

VecX PlanarSystem::InitialVelocities() const {
  VecX v(size_);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    v.segment<2>(first_[b]) = body.velocity;
    if (body.kind == BodyKind::kRigid) v(first_[b] + 2) = body.angular_velocity;
  }
  return v;
}

Status PlanarSystem::InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                                   Matrix* damping_tangent) {
  const PlanarLayout layout(model_, first_);
  stored_energy_ = 0.0;
  // One spring-damper on a measure m (length or relative angle): force k (m - m0) + c dm/dt
  // along grad m; K = k grad grad' + force hess + c grad (hess dz)', D = c grad grad'.
  const auto add = [&](const Local& local, const J& measure, double k, double c, double rest) {
    const double rate = local.Rate(measure);
    const double force = k * (measure.v - rest) + c * rate;
    stored_energy_ += 0.5 * k * (measure.v - rest) * (measure.v - rest);
    ScatterVector(local, measure.g, force, f);
    if (stiffness) {
      const LocalMatrix k_local = k * measure.g * measure.g.transpose() + force * measure.h +
                                  c * measure.g * (measure.h * local.dz).transpose();
      ScatterMatrix(local, k_local, 1.0, stiffness->dense());
      ScatterMatrix(local, measure.g * measure.g.transpose(), c, damping_tangent->dense());
    }
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
  return Status::Ok();
}

void PlanarSystem::ExternalForce(double t, VecX& f) const {
  for (size_t b = 0; b < model_.bodies.size(); ++b)
    f.segment<2>(first_[b]) += model_.bodies[b].mass * model_.gravity;
}

Status PlanarSystem::ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent) {
  const PlanarLayout layout(model_, first_);
  for (const Load& load : model_.loads) {
    const Marker& marker = model_.markers[load.marker];
    if (marker.body == kGround) continue;  // a force on the ground does nothing
    const Local local = layout.Gather(marker.body, kGround, q);
    const Frame frame = layout.MarkerFrame(load.marker, 0, local);
    const double fx = load.fx.Value(t), fy = load.fy.Value(t), torque = load.torque.Value(t);
    ScatterVector(local, fx * frame.x.g + fy * frame.y.g + torque * frame.angle.g, 1.0, f);
    if (tangent) ScatterMatrix(local, fx * frame.x.h + fy * frame.y.h, 1.0, tangent->dense());
  }
  return Status::Ok();
}

Status PlanarSystem::Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
  std::vector<Eigen::Triplet<double>> entries;
  PlanarLayout(model_, first_)
      .ForEachRow(q, t, joint_rows_, [&](int row, const Local& local, const J& value, double) {
        c(row) = value.v;
        for (int i = 0; i < kLocal; ++i)
          if (local.index[i] >= 0 && value.g(i) != 0.0)
            entries.emplace_back(row, local.index[i], value.g(i));
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
        ScatterTriplets(local, value.h, lambda(row), entries);
      });
  tangent.resize(size_, size_);
  tangent.setFromTriplets(entries.begin(), entries.end());
  return Status::Ok();
}

Status PlanarSystem::ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) {
  PlanarLayout(model_, first_)
      .ForEachRow(q, t, joint_rows_,
                  [&](int row, const Local& local, const J& value, double time_part) {
                    LocalVector dz = LocalVector::Zero();
                    for (int i = 0; i < kLocal; ++i)
                      if (local.index[i] >= 0) dz(i) = v(local.index[i]);
                    // C_q a = -dz' H dz - c_tt (seed 003 eq. 2.51-2.52, no C_qt here).
                    q_c(row) = -dz.dot(value.h * dz) - time_part;
                  });
  return Status::Ok();
}

Vec2 PlanarSystem::MarkerPosition(const VecX& q, int marker) const {
  const PlanarLayout layout(model_, first_);
  const Frame frame =
      layout.MarkerFrame(marker, 0, layout.Gather(model_.markers[marker].body, kGround, q));
  return {frame.x.v, frame.y.v};
}

Vec2 PlanarSystem::MarkerVelocity(const VecX& q, const VecX& v, int marker) const {
  const PlanarLayout layout(model_, first_);
  const Local local = layout.Gather(model_.markers[marker].body, kGround, q, &v);
  const Frame frame = layout.MarkerFrame(marker, 0, local);
  return {local.Rate(frame.x), local.Rate(frame.y)};
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
  return spring.stiffness * (length.v - spring.length) + spring.damping * local.Rate(length);
}

double PlanarSystem::RotationalSpringMoment(int s, const VecX& q, const VecX& v) const {
  const RotationalSpring& spring = model_.rotational_springs[s];
  const auto [local, frames] =
      PlanarLayout(model_, first_).Pair(spring.marker_a, spring.marker_b, q, &v);
  const J angle = frames[0].angle - frames[1].angle;
  return spring.stiffness * (angle.v - spring.angle) + spring.damping * local.Rate(angle);
}

Status PlanarSystem::ConsistentInitialState(double t, VecX& q, VecX& v, double tolerance,
                                            double& correction) {
  correction = 0.0;
  if (rows_ == 0) return Status::Ok();
  const VecX m_inverse = mass_.dense().diagonal().cwiseInverse();
  VecX c(rows_);
  SparseMatrix cq;
  // The mass-weighted projection x - M^-1 C_q' (C_q M^-1 C_q')^-1 r.
  const auto project = [&](const VecX& residual, VecX& x) -> Status {
    const MatX dense = MatX(cq);
    const MatX gram = dense * m_inverse.asDiagonal() * dense.transpose();
    Eigen::FullPivLU<MatX> lu(gram);
    if (lu.rank() < rows_)
      return Status::Failure(
          "the joints' constraints are redundant or singular at t = " + FormatValue(t) +
          " s (rank " + std::to_string(lu.rank()) + " of " + std::to_string(rows_) +
          " rows): remove joints that fix what others fix");
    x -= m_inverse.asDiagonal() * (dense.transpose() * lu.solve(residual));
    return Status::Ok();
  };
  const VecX q_start = q;
  for (int iteration = 0;; ++iteration) {
    Constraints(t, q, c, &cq);
    if (c.lpNorm<Eigen::Infinity>() <= tolerance) break;
    if (iteration == 50)
      return Status::Failure("the initial positions cannot be made to satisfy the joints: |c| = " +
                             FormatValue(c.lpNorm<Eigen::Infinity>()) + " after 50 iterations");
    if (Status status = project(c, q); !status) return status;
  }
  correction = (q - q_start).lpNorm<Eigen::Infinity>();
  // C_q v = -C_t: C_t of a driver row is -f'(t).
  VecX c_t = VecX::Zero(rows_);
  for (size_t j = 0; j < model_.joints.size(); ++j)
    if (model_.joints[j].kind == JointKind::kPrescribed)
      c_t(joint_rows_[j]) = -model_.joints[j].motion.Rate(t);
  return project(VecX(cq * v + c_t), v);
}

}  // namespace jointdyn::mbs
