#include "mbs/spatial_system.h"

#include <Eigen/Geometry>
#include <array>
#include <cmath>

#include "core/error.h"
#include "mbs/consistent_state.h"
#include "mbs/dual.h"
#include "mbs/euler_parameters.h"
#include "mbs/local.h"

namespace jointdyn::mbs::spatial {
namespace {

// Per body: x, y, z, p0, p1, p2, p3 of its frame, the marker's point u in the body frame and
// its elastic rotation phi (for a rigid body u is the marker's fixed position and phi 0; on
// a flexible body u = u0 + Phi_u zeta and phi = Phi_r zeta at the marker's node). The
// intermediate coordinates are linear in the bodies' coordinates (local.h).
constexpr int kSlot = 13;
constexpr int kPoint = 7, kRotation = 10;  // offsets of u and phi in a slot
constexpr SlotLayout kSlots{.size = kSlot, .frame = 7, .point = kPoint};
constexpr int kTime = 2 * kSlot;  // a driver's motion f(t)
constexpr int kIntermediate = kTime + 1;
// Elements are written on a scalar T: jets (second derivatives: constraint-force tangents,
// acceleration terms, spring stiffnesses) or first-order duals where the first derivatives
// suffice (the constraints and their Jacobian in every residual, marker outputs).
using J = Jet<kIntermediate>;
using D = Dual<kIntermediate>;
using Local = LocalCoordinates<kIntermediate>;

V4<double> Values4(const VecX& x, int first) {
  return {x(first), x(first + 1), x(first + 2), x(first + 3)};
}

// A marker's point and (when asked for) its axes on the local coordinates.
template <class T>
struct Frame {
  V3<T> point;
  std::array<V3<T>, 3> axes;
};

// The joint's rows (rows[0..count)); `motion` the driver's f(t).
template <class T>
struct Rows {
  std::array<T, 6> value;
  int count = 0;
};

template <class T>
Rows<T> JointRowJets(const Joint& joint, const Frame<T>& a, const Frame<T>& b, const T& motion) {
  Rows<T> r;
  const auto add = [&r](const T& value) { r.value[r.count++] = value; };
  const V3<T> d = Difference(a.point, b.point);
  const auto rotations = [&](bool about_z) {  // b's axes aligned with a's (about z: free)
    add(Dot(a.axes[1], b.axes[2]));
    add(-Dot(a.axes[0], b.axes[2]));
    if (!about_z) add(Dot(a.axes[0], b.axes[1]));
  };
  switch (joint.kind) {
    case JointKind::kSpherical:
    case JointKind::kRevolute:
    case JointKind::kDrivenRevolute:
    case JointKind::kRigid:
      for (const T& x : d) add(x);
      if (joint.kind == JointKind::kSpherical) break;
      rotations(joint.kind != JointKind::kRigid);
      if (joint.kind == JointKind::kDrivenRevolute)  // sin(f - phi), phi = b's angle about z_a
        add(Dot(b.axes[0], a.axes[0]) * sin(motion) - Dot(b.axes[0], a.axes[1]) * cos(motion));
      break;
    case JointKind::kUniversal:
      for (const T& x : d) add(x);
      add(Dot(a.axes[2], b.axes[2]));
      break;
    case JointKind::kPrismatic:  // b's point on a's x axis
      add(Dot(a.axes[1], d));
      add(Dot(a.axes[2], d));
      rotations(false);
      break;
    case JointKind::kDistance:
      add(sqrt(Dot(d, d)) - joint.length);
      break;
    case JointKind::kPrescribed:  // SpatialLayout::ForEachRow handles it
      break;
  }
  return r;
}

// phi_a - phi_b about a's z axis: the angle from b's x axis to a's.
template <class T>
T RelativeAngle(const Frame<T>& a, const Frame<T>& b) {
  return -atan2(Dot(b.axes[0], a.axes[1]), Dot(b.axes[0], a.axes[0]));
}

bool HasMotion(JointKind kind) {
  return kind == JointKind::kPrescribed || kind == JointKind::kDrivenRevolute;
}

}  // namespace

// The element layer: gathers local coordinates, builds marker frames, and visits the
// constraint rows. The one place that knows the intermediate layout.
class SpatialLayout {
 public:
  SpatialLayout(const SpatialModel& model, const std::vector<int>& first)
      : model_(model), first_(first) {}

  // The local coordinates of markers a and b (-1: none; `body_a` names slot 0's body when
  // marker_a is -1); values from q and, when given, rates from v.
  Local Gather(int marker_a, int marker_b, const VecX& q, const VecX* v = nullptr,
               int body_a = kGround) const {
    return mbs::Gather<kIntermediate>(model_, first_, kSlots, marker_a, marker_b, q, v, body_a);
  }

  // Marker `marker`'s point X + A(p) u in slot `slot` and, with `axes`, its axes
  // A(p) (I + phi~) A_m.
  template <class T = J>
  Frame<T> MarkerFrame(int marker, int slot, const Local& local, bool axes) const {
    const Marker& m = model_.markers[marker];
    Frame<T> frame;
    if (m.body == kGround) {
      for (int k = 0; k < 3; ++k) {
        frame.point[k] = m.position(k);
        for (int i = 0; i < 3; ++i) frame.axes[k][i] = m.orientation(i, k);
      }
      return frame;
    }
    const int o = kSlot * slot;
    for (int k = 0; k < 3; ++k) frame.point[k] = local.template Variable<T>(o + k);
    if (!model_.bodies[m.body].oriented()) return frame;
    const V4<T> p = {local.template Variable<T>(o + 3), local.template Variable<T>(o + 4),
                     local.template Variable<T>(o + 5), local.template Variable<T>(o + 6)};
    const V3<T> u = Rotate(p, Triple<T>(local, o + kPoint));
    for (int k = 0; k < 3; ++k) frame.point[k] += u[k];
    if (!axes) return frame;
    const V3<T> phi = Triple<T>(local, o + kRotation);
    for (int k = 0; k < 3; ++k) {
      const V3<double> axis = {m.orientation(0, k), m.orientation(1, k), m.orientation(2, k)};
      const V3<T> turned = Cross(phi, axis);
      frame.axes[k] =
          Rotate(p, V3<T>{axis[0] + turned[0], axis[1] + turned[1], axis[2] + turned[2]});
    }
    return frame;
  }

  // The local coordinates of the two markers' bodies and their frames.
  std::pair<Local, std::array<Frame<J>, 2>> Pair(int marker_a, int marker_b, const VecX& q,
                                                 const VecX* v, bool axes) const {
    Local local = Gather(marker_a, marker_b, q, v);
    return {local, {MarkerFrame(marker_a, 0, local, axes), MarkerFrame(marker_b, 1, local, axes)}};
  }

  // Calls visit(row, local, value, f''(t)) for every constraint row at (q, t), its value a
  // T (jet or dual): the joints' rows (drivers with f(t), f'(t) in the time slot, f'' 0 for
  // the others), then each oriented body's normalization p'p - 1; local.rates from v when
  // given.
  template <class T, class Visit>
  void ForEachRow(const VecX& q, double t, const std::vector<int>& joint_rows, Visit&& visit,
                  const VecX* v = nullptr) const {
    for (size_t j = 0; j < model_.joints.size(); ++j) {
      const Joint& joint = model_.joints[j];
      const bool prescribed = joint.kind == JointKind::kPrescribed;
      Local local = prescribed ? Gather(-1, -1, q, v, joint.body)
                               : Gather(joint.marker_a, joint.marker_b, q, v);
      double acceleration = 0.0;
      if (HasMotion(joint.kind)) {
        local.values(kTime) = joint.motion.Value(t);
        local.rates(kTime) = joint.motion.Rate(t);
        acceleration = joint.motion.Acceleration(t);
      }
      if (prescribed) {
        const T row = local.template Variable<T>(static_cast<int>(joint.coordinate)) -
                      local.template Variable<T>(kTime);
        visit(joint_rows[j], local, row, acceleration);
        continue;
      }
      const bool axes = joint.kind != JointKind::kSpherical && joint.kind != JointKind::kDistance;
      const Frame<T> a = MarkerFrame<T>(joint.marker_a, 0, local, axes);
      const Frame<T> b = MarkerFrame<T>(joint.marker_b, 1, local, axes);
      const Rows<T> rows = JointRowJets(joint, a, b, local.template Variable<T>(kTime));
      for (int r = 0; r < rows.count; ++r)
        visit(joint_rows[j] + r, local, rows.value[r], acceleration);
    }
    int row = joint_rows.empty() ? 0 : joint_rows.back() + JointRows(model_.joints.back().kind);
    for (size_t b = 0; b < model_.bodies.size(); ++b) {
      if (!model_.bodies[b].oriented()) continue;
      const Local local = Gather(-1, -1, q, v, int(b));
      T norm = -1.0;
      for (int k = 3; k < 7; ++k)
        norm += local.template Variable<T>(k) * local.template Variable<T>(k);
      visit(row++, local, norm, 0.0);
    }
  }

 private:
  template <class T>
  static V3<T> Triple(const Local& local, int first) {
    return {local.template Variable<T>(first), local.template Variable<T>(first + 1),
            local.template Variable<T>(first + 2)};
  }

  const SpatialModel& model_;
  const std::vector<int>& first_;
};

SpatialSystem::SpatialSystem(SpatialModel model, int dense_coordinates) : model_(std::move(model)) {
  model_.Validate();
  for (const Body& b : model_.bodies) {
    first_.push_back(size_);
    size_ += b.coordinates();
    mass_varies_ = mass_varies_ || b.oriented();
    flexible_gravity_ =
        flexible_gravity_ || (b.kind == BodyKind::kFlexible && model_.gravity != Vec3::Zero() &&
                              MovesCentreOfMass(b.flexible->inertia));
  }
  for (const Joint& joint : model_.joints) {
    joint_rows_.push_back(rows_);
    rows_ += JointRows(joint.kind);
  }
  units_ = VecX::Ones(size_);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    if (!body.oriented()) continue;
    ++rows_;  // the normalization
    // Euler parameters: a change of 1 turns the body by about 2 rad: 2 x its radius of
    // gyration or its farthest marker [m].
    const bool flexible = body.kind == BodyKind::kFlexible;
    const double mass = flexible ? body.flexible->inertia.mass() : body.mass;
    const double trace = flexible ? body.flexible->inertia.g00.trace() : body.inertia.trace();
    double radius = std::sqrt(trace / (2.0 * mass));
    for (size_t m = 0; m < model_.markers.size(); ++m)
      if (model_.markers[m].body == int(b))
        radius = std::max(radius, (InitialMarkerPosition(model_, int(m)) - body.position).norm());
    units_.segment<4>(first_[b] + 3).setConstant(2.0 * radius);
    if (flexible) units_.segment(first_[b] + 7, body.flexible->modes()) = body.flexible->units;
  }
  flexible_ = FlexibleForces(model_, 7);
  damping_ = EmptyTangent(size_, dense_coordinates);
  mass_ = EmptyTangent(size_, dense_coordinates);
  VecX force(size_);
  Inertia(InitialPositions(), VecX::Zero(size_), VecX::Zero(size_), force, &mass_, nullptr,
          nullptr);
}

VecX SpatialSystem::InitialState(bool rates) const {
  VecX x = VecX::Zero(size_);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    x.segment<3>(first_[b]) = rates ? body.velocity : body.position;
    if (!body.oriented()) continue;
    const Eigen::Vector4d p = EulerParameters(body.orientation);
    const VecX& modal = rates ? body.modal_velocities : body.modal_coordinates;
    if (body.kind == BodyKind::kFlexible && modal.size() > 0)
      x.segment(first_[b] + 7, modal.size()) = modal;
    if (!rates) {
      x.segment<4>(first_[b] + 3) = p;
      continue;
    }
    // dp/dt = G(p)^T w / 2 with G(p)^T w = (-e.w, -e x w + p0 w).
    const Vec3 e = p.tail<3>(), w = body.angular_velocity;
    x(first_[b] + 3) = -0.5 * e.dot(w);
    x.segment<3>(first_[b] + 4) = 0.5 * (-e.cross(w) + p(0) * w);
  }
  return x;
}

namespace {

// A rigid body's inertia force on its Euler parameters (spatial_system.h) from the jets of
// (p, dp/dt), with M and the tangents when asked for; `first` the index of p0.
void RigidRotationInertia(const Body& body, int first, const VecX& q, const VecX& v, const VecX& a,
                          VecX& f, MatrixAssembly& mass, MatrixAssembly& d_dq,
                          MatrixAssembly& d_dv) {
  using J8 = Jet<8>;
  V4<J8> p, w;
  V4<double> acceleration;
  for (int k = 0; k < 4; ++k) {
    p[k] = J8::Variable(q(first + k), k);
    w[k] = J8::Variable(v(first + k), 4 + k);
    acceleration[k] = a(first + k);
  }
  const double c = body.inertia.trace();
  const V4<J8> f_a = GBarTranspose(p, Times(body.inertia, GBar(p, acceleration)));
  const V4<J8> f_w = GBarTranspose(w, Times(body.inertia, GBar(p, w)));
  J8 normalization = 0.0;
  for (int k = 0; k < 4; ++k) normalization += p[k] * acceleration[k] + w[k] * w[k];
  Eigen::Matrix<double, 4, 8> tangent;
  for (int k = 0; k < 4; ++k) {
    const J8 force = 4.0 * f_a[k] + 8.0 * f_w[k] + c * (normalization * p[k]);
    f(first + k) = force.v;
    tangent.row(k) = force.g.transpose();
  }
  d_dq.AddBlock(first, first, MatX(tangent.leftCols<4>()));
  d_dv.AddBlock(first, first, MatX(tangent.rightCols<4>()));
  if (!mass.active()) return;
  const Eigen::Vector4d pv = q.segment<4>(first);
  const Eigen::Matrix<double, 3, 4> g_bar = GBarMatrix(pv);
  mass.AddBlock(first, first,
                MatX(4.0 * g_bar.transpose() * body.inertia * g_bar + c * pv * pv.transpose()));
}

}  // namespace

Status SpatialSystem::Inertia(const VecX& q, const VecX& v, const VecX& a, VecX& f, Matrix* mass,
                              Matrix* d_dq, Matrix* d_dv) {
  MatrixAssembly mass_sum(mass), q_sum(d_dq), v_sum(d_dv);
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    const int first = first_[b], count = body.coordinates();
    if (body.kind == BodyKind::kFlexible) {
      AddFlexibleInertia(body.flexible->inertia, first, count, q, v, a, f, mass_sum, q_sum, v_sum);
      continue;
    }
    f.segment<3>(first) = body.mass * a.segment<3>(first);
    for (int k = 0; k < 3; ++k) mass_sum.Add(first + k, first + k, body.mass);
    if (body.kind == BodyKind::kRigid)
      RigidRotationInertia(body, first + 3, q, v, a, f, mass_sum, q_sum, v_sum);
  }
  for (MatrixAssembly* sum : {&mass_sum, &q_sum, &v_sum}) sum->Finish();
  return Status::Ok();
}

Status SpatialSystem::InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                                    Matrix* damping_tangent) {
  const SpatialLayout layout(model_, first_);
  stored_energy_ = 0.0;
  MatrixAssembly k(stiffness), d(stiffness ? damping_tangent : nullptr);
  for (const Spring& s : model_.springs) {
    const auto [local, frames] = layout.Pair(s.marker_a, s.marker_b, *point.q, point.v, false);
    const V3<J> d_ab = Difference(frames[0].point, frames[1].point);
    const J squared = Dot(d_ab, d_ab);
    if (squared.v <= 0.0)
      return Status::Failure(
          "spring " + s.name +
          ": its markers coincide (no line of action) at t = " + FormatValue(point.t) + " s");
    stored_energy_ +=
        AddSpringDamper(local, sqrt(squared), s.stiffness, s.damping, s.length, f, k, d);
  }
  for (const RotationalSpring& s : model_.rotational_springs) {
    const auto [local, frames] = layout.Pair(s.marker_a, s.marker_b, *point.q, point.v, true);
    stored_energy_ += AddSpringDamper(local, RelativeAngle(frames[0], frames[1]), s.stiffness,
                                      s.damping, s.angle, f, k, d);
  }
  const Status status = flexible_.Add(model_, first_, point, f, k, d, stored_energy_);
  k.Finish();
  d.Finish();
  return status;
}

void SpatialSystem::Commit() { flexible_.Commit(); }

void SpatialSystem::ExternalForce(double t, VecX& f) const {
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    const double mass =
        body.kind == BodyKind::kFlexible ? body.flexible->inertia.mass() : body.mass;
    f.segment<3>(first_[b]) += mass * model_.gravity;
  }
}

// A force at a marker: its virtual work's jet f.x(q). A torque m (global) on a rigid body or
// at a flexible body's node: the frame's virtual rotation 2 G(p) dp gives Q_p = 2 G(p)^T m =
// 2 L(m) p with L(m) = [0, -m'; m, m~], linear in p, so its tangent is 2 L(m); the node's
// elastic rotation A(p) dphi (the marker's axes A (I + phi~)) gives Q_phi = A(p)^T m on the
// marker's slot (mapped by Phi_r to the modal coordinates), its tangent over p by jets.
Status SpatialSystem::ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent) {
  const SpatialLayout layout(model_, first_);
  MatrixAssembly assembly(tangent);
  for (const Load& load : model_.loads) {
    const int body = model_.markers[load.marker].body;
    if (body == kGround) continue;  // a force on the ground does nothing
    const Local local = layout.Gather(load.marker, -1, q);
    const Frame<J> frame = layout.MarkerFrame(load.marker, 0, local, false);
    J work = 0.0;
    for (int k = 0; k < 3; ++k) work += load.force[k].Value(t) * frame.point[k];
    ScatterVector(local, local.Gradient(work), 1.0, f);
    if (tangent) ScatterMatrix(local, local.Hessian(work), 1.0, assembly);
    if (!model_.bodies[body].oriented()) continue;
    const Vec3 m(load.torque[0].Value(t), load.torque[1].Value(t), load.torque[2].Value(t));
    Eigen::Matrix4d l = Eigen::Matrix4d::Zero();
    l.block<1, 3>(0, 1) = -m.transpose();
    l.block<3, 1>(1, 0) = m;
    l.block<3, 3>(1, 1) << 0.0, -m(2), m(1), m(2), 0.0, -m(0), -m(1), m(0), 0.0;
    const int first = first_[body] + 3;
    f.segment<4>(first) += 2.0 * l * q.segment<4>(first);
    assembly.AddBlock(first, first, MatX(2.0 * l));
    if (model_.bodies[body].kind != BodyKind::kFlexible) continue;
    const V4<J> p = {local.Variable(3), local.Variable(4), local.Variable(5), local.Variable(6)};
    const V3<J> y = Rotate(p, m, true);
    J::Gradient q_phi = J::Gradient::Zero();
    Eigen::Matrix<double, kIntermediate, kIntermediate> dq_phi =
        Eigen::Matrix<double, kIntermediate, kIntermediate>::Zero();
    for (int k = 0; k < 3; ++k) {
      q_phi(kRotation + k) = y[k].v;
      dq_phi.row(kRotation + k) = y[k].g.transpose();
    }
    ScatterVector(local, local.map.transpose() * q_phi, 1.0, f);
    if (tangent) ScatterMatrix(local, local.map.transpose() * dq_phi * local.map, 1.0, assembly);
  }
  AddFlexibleGravity(q, f, assembly);
  assembly.Finish();
  return Status::Ok();
}

// Gravity on the elastic coordinates of a flexible body whose basis moves its centre of mass
// (S_f != 0: an unreduced body's frame fixed to a node; free-free modes have S_f = 0): with
// the integrals about the centre of mass, V = -m g.R - g.A(p) S_f zeta, so beyond m g on R
//   Q_p = d(y.s)/dp,  Q_zeta = S_f' y,  y = A(p)' g,  s = S_f zeta,
// with the tangents from the jets of y over p: dQ_p/dp = sum_a s_a d2y_a/dp2, dQ_p/dzeta =
// Y' S_f, dQ_zeta/dp = S_f' Y (Y = dy/dp, 3 x 4).
void SpatialSystem::AddFlexibleGravity(const VecX& q, VecX& f, MatrixAssembly& tangent) const {
  if (!flexible_gravity_) return;
  using J4 = Jet<4>;
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    if (body.kind != BodyKind::kFlexible || !MovesCentreOfMass(body.flexible->inertia)) continue;
    const MatX& s_f = body.flexible->inertia.s_f;
    const int first = first_[b] + 3, n = body.flexible->modes();
    const V4<J4> p = {J4::Variable(q(first), 0), J4::Variable(q(first + 1), 1),
                      J4::Variable(q(first + 2), 2), J4::Variable(q(first + 3), 3)};
    const V3<J4> y = Rotate(p, model_.gravity, true);
    const Vec3 s = s_f * q.segment(first + 4, n);
    Eigen::Matrix<double, 3, 4> dy;
    Eigen::Matrix4d hessian = Eigen::Matrix4d::Zero();
    for (int a = 0; a < 3; ++a) {
      dy.row(a) = y[a].g.transpose();
      hessian += s(a) * y[a].h;
    }
    f.segment<4>(first) += dy.transpose() * s;
    f.segment(first + 4, n) += s_f.transpose() * Vec3(y[0].v, y[1].v, y[2].v);
    tangent.AddBlock(first, first, MatX(hessian));
    tangent.AddBlock(first, first + 4, MatX(dy.transpose() * s_f));
    tangent.AddBlock(first + 4, first, MatX(s_f.transpose() * dy));
  }
}

Status SpatialSystem::Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
  std::vector<Eigen::Triplet<double>> entries;
  SpatialLayout(model_, first_)
      .ForEachRow<D>(q, t, joint_rows_, [&](int row, const Local& local, const D& value, double) {
        c(row) = value.v;
        if (jacobian) ScatterRow(local, row, local.Gradient(value), entries);
      });
  if (jacobian) {
    jacobian->resize(rows_, size_);
    jacobian->setFromTriplets(entries.begin(), entries.end());
  }
  return Status::Ok();
}

Status SpatialSystem::ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                             SparseMatrix& tangent) {
  std::vector<Eigen::Triplet<double>> entries;
  SpatialLayout(model_, first_)
      .ForEachRow<J>(q, t, joint_rows_, [&](int row, const Local& local, const J& value, double) {
        ScatterTriplets(local, local.Hessian(value), lambda(row), entries);
      });
  tangent.resize(size_, size_);
  tangent.setFromTriplets(entries.begin(), entries.end());
  return Status::Ok();
}

Status SpatialSystem::ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v,
                                                 VecX& q_c) {
  // C_q a = -z'' H z' - c_f f'' (the intermediate rates z' include f'(t)).
  SpatialLayout(model_, first_)
      .ForEachRow<J>(
          q, t, joint_rows_,
          [&](int row, const Local& local, const J& value, double acceleration) {
            q_c(row) = -local.rates.dot(value.h * local.rates) - value.g(kTime) * acceleration;
          },
          &v);
  return Status::Ok();
}

Status SpatialSystem::ConsistentInitialState(double t, VecX& q, VecX& v, double tolerance,
                                             double& correction) {
  // C_t = c_f f'(t) (ForEachRow puts f'(t) in the time slot's rate).
  const auto c_t = [&](const VecX& x) {
    VecX rate = VecX::Zero(rows_);
    SpatialLayout(model_, first_)
        .ForEachRow<D>(x, t, joint_rows_, [&](int row, const Local& local, const D& value, double) {
          rate(row) = value.g(kTime) * local.rates(kTime);
        });
    return rate;
  };
  VecX weights = VecX::Ones(size());
  for (size_t b = 0; b < model_.bodies.size(); ++b)
    if (const auto& flexible = model_.bodies[b].flexible)
      weights.segment(FirstCoordinate(int(b)) + 7, flexible->modes()).setConstant(kElasticWeight);
  return ConsistentState(*this, t, c_t, tolerance, q, v, correction, weights);
}

Vec3 SpatialSystem::MarkerPosition(const VecX& q, int marker) const {
  const SpatialLayout layout(model_, first_);
  const Frame<D> frame = layout.MarkerFrame<D>(marker, 0, layout.Gather(marker, -1, q), false);
  return {frame.point[0].v, frame.point[1].v, frame.point[2].v};
}

Vec3 SpatialSystem::MarkerVelocity(const VecX& q, const VecX& v, int marker) const {
  const SpatialLayout layout(model_, first_);
  const Local local = layout.Gather(marker, -1, q, &v);
  const Frame<D> frame = layout.MarkerFrame<D>(marker, 0, local, false);
  return {local.Rate(frame.point[0]), local.Rate(frame.point[1]), local.Rate(frame.point[2])};
}

Mat3 SpatialSystem::Orientation(int body, const VecX& q) const {
  return RotationMatrix(q.segment<4>(first_[body] + 3));
}

Vec3 SpatialSystem::AngularVelocity(int body, const VecX& q, const VecX& v) const {
  // w = A w' with w' = 2 G'(p) dp/dt.
  const V3<double> w = GBar(Values4(q, first_[body] + 3), Values4(v, first_[body] + 3));
  return Orientation(body, q) * Vec3(2.0 * w[0], 2.0 * w[1], 2.0 * w[2]);
}

Vec3 SpatialSystem::AngularMomentum(const VecX& q, const VecX& v) const {
  Vec3 h = Vec3::Zero();
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    const int first = first_[b];
    if (body.kind == BodyKind::kFlexible) {  // R x A pi_w + A pi_omega
      const int count = body.coordinates();
      const auto [pi_w, pi_omega] =
          body.flexible->inertia.Momenta(q.segment(first, count), v.segment(first, count));
      const Mat3 a = Orientation(int(b), q);
      h += Vec3(q.segment<3>(first)).cross(a * pi_w) + a * pi_omega;
      continue;
    }
    h += body.mass * Vec3(q.segment<3>(first)).cross(Vec3(v.segment<3>(first)));
    if (body.kind != BodyKind::kRigid) continue;
    const Mat3 a = Orientation(int(b), q);
    h += a * body.inertia * a.transpose() * AngularVelocity(int(b), q, v);
  }
  return h;
}

std::vector<double> SpatialSystem::JointForces(int j, const VecX& q, const VecX& lambda) const {
  const JointKind kind = model_.joints[j].kind;
  const double sign = kind == JointKind::kPrescribed ? -1.0 : 1.0;  // c = q - f(t)
  std::vector<double> forces;
  for (int r = 0; r < JointRows(kind); ++r) forces.push_back(sign * lambda(joint_rows_[j] + r));
  return forces;
}

MatX SpatialSystem::FlexibleMeshPositions(int body, const VecX& q) const {
  const FlexibleBody& flexible = *model_.bodies[body].flexible;
  const int first = first_[body];
  return flexible.MeshPositions(q.segment(first + 7, flexible.modes()), Orientation(body, q),
                                q.segment<3>(first));
}

double SpatialSystem::RotationalSpringMoment(int s, const VecX& q, const VecX& v) const {
  const RotationalSpring& spring = model_.rotational_springs[s];
  const auto [local, frames] =
      SpatialLayout(model_, first_).Pair(spring.marker_a, spring.marker_b, q, &v, true);
  return SpringDamperForce(local, RelativeAngle(frames[0], frames[1]), spring.stiffness,
                           spring.damping, spring.angle);
}

double SpatialSystem::SpringForce(int s, const VecX& q, const VecX& v) const {
  const Spring& spring = model_.springs[s];
  const auto [local, frames] =
      SpatialLayout(model_, first_).Pair(spring.marker_a, spring.marker_b, q, &v, false);
  const V3<J> d = Difference(frames[0].point, frames[1].point);
  return SpringDamperForce(local, sqrt(Dot(d, d)), spring.stiffness, spring.damping, spring.length);
}

}  // namespace jointdyn::mbs::spatial
