#include "ancf/circle_contact.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "mbs/dual.h"

namespace jointdyn::ancf {
namespace {

// The element's q (8), the circle's angle, and the normal and tangential rates at the
// contact point: the forces are linear in v and the circle's rate through these two, so
// their tangent D follows by the chain rule from two columns (no 9 rate variables).
constexpr int kVariables = 11;
constexpr int kNormalRate = 9, kTangentialRate = 10;
using D = mbs::Dual<kVariables>;

double Value(double x) { return x; }
double Value(const D& x) { return x.v; }

template <class T>
using V2 = std::array<T, 2>;

template <class T>
T Dot(const V2<T>& a, const V2<T>& b) {
  return a[0] * b[0] + a[1] * b[1];
}

// A segment's kinematics (eq. 14-19, 22-24) on values or duals.
template <class T>
struct Kinematics {
  std::array<double, 4> s0, s1;  // the shape functions at the chord's ends
  T rho, gap, normal_rate, tangential_rate;
  T position;  // x_curStick = sigma r alpha - rho L_seg [m] (ContactLaw::stick_length): grows
               // as the belt slides along the chord relative to the circle's surface; only
               // `with_position`
  V2<T> arm, normal, tangent;  // arm = P - centre
};

template <class T>
Kinematics<T> SegmentKinematics(const ContactLaw& law, const CircleState& circle, double length,
                                int s, const std::array<T, 8>& q, const std::array<T, 8>& v,
                                const T& angle, const T& rate, bool with_position) {
  using std::atan2;
  using std::sqrt;
  const double step = length / law.segments;
  Kinematics<T> k;
  k.s0 = Shape(s * step, length, 0);
  k.s1 = Shape((s + 1) * step, length, 0);
  const std::array<double, 4>&s0 = k.s0, &s1 = k.s1;
  V2<T> p0 = {T(0.0), T(0.0)}, p1 = p0, u0 = p0, u1 = p0;
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 2; ++c) {
      p0[c] += s0[i] * q[2 * i + c];
      p1[c] += s1[i] * q[2 * i + c];
      u0[c] += s0[i] * v[2 * i + c];
      u1[c] += s1[i] * v[2 * i + c];
    }
  const V2<T> chord = {p1[0] - p0[0], p1[1] - p0[1]};
  const V2<T> to_centre = {circle.centre.x() - p0[0], circle.centre.y() - p0[1]};
  const T squared = Dot(chord, chord), chord_length = sqrt(squared);
  k.rho = Dot(to_centre, chord) / squared;
  if (Value(k.rho) < 0.0) k.rho = T(0.0);
  if (Value(k.rho) > 1.0) k.rho = T(1.0);
  for (int c = 0; c < 2; ++c) k.arm[c] = p0[c] + k.rho * chord[c] - circle.centre(c);
  const T distance = sqrt(Dot(k.arm, k.arm));
  k.normal = {k.arm[0] / distance, k.arm[1] / distance};
  k.tangent = {chord[0] / chord_length, chord[1] / chord_length};
  k.gap = distance - circle.radius - law.offset;
  // P's velocity (interpolated, eq. 17) relative to the circle's surface there.
  const V2<T> relative = {
      (1.0 - k.rho) * u0[0] + k.rho * u1[0] + rate * k.arm[1] - circle.velocity.x(),
      (1.0 - k.rho) * u0[1] + k.rho * u1[1] - rate * k.arm[0] - circle.velocity.y()};
  k.normal_rate = Dot(relative, k.normal);
  k.tangential_rate = Dot(relative, k.tangent);
  if (!with_position) return k;
  const double sigma =
      Value(k.arm[0]) * Value(k.tangent[1]) - Value(k.arm[1]) * Value(k.tangent[0]) >= 0.0 ? 1.0
                                                                                           : -1.0;
  const T along = law.stick_length == StickLength::kReference ? k.rho * step : k.rho * chord_length;
  k.position = sigma * circle.radius * (atan2(k.arm[1], k.arm[0]) - angle) - along;
  return k;
}

// The sliding since x_ref, wrapped to (-pi r, pi r] (eq. 25).
double Wrap(double x, double radius) {
  const double turn = 2.0 * M_PI * radius;
  return x - std::floor(x / turn + 0.5) * turn;
}

}  // namespace

bool BoundingBox::Near(const Vec2& point, double distance) const {
  const Vec2 nearest = point.cwiseMax(min).cwiseMin(max);
  return (nearest - point).norm() <= distance;
}

BoundingBox ElementBox(const ElementVector& q, double length) {
  BoundingBox box;
  const Vec2 start = Interpolate(q, length, 0.0, 0), end = Interpolate(q, length, length, 0);
  box.min = start.cwiseMin(end);
  box.max = start.cwiseMax(end);
  // r'(x) = a1 + 2 a2 x + 3 a3 x^2 per coordinate: its coefficients from r' at 0, L/2, L.
  const Vec2 d0 = Interpolate(q, length, 0.0, 1), dm = Interpolate(q, length, 0.5 * length, 1),
             d1 = Interpolate(q, length, length, 1);
  for (int c = 0; c < 2; ++c) {
    // In u = x / L: r' = d0 + b u + a u^2 with a + b = d1 - d0, a / 4 + b / 2 = dm - d0.
    const double a = 2.0 * (d1(c) - d0(c)) - 4.0 * (dm(c) - d0(c)), b = d1(c) - d0(c) - a;
    double roots[2];
    int count = 0;
    if (std::abs(a) > 1e-14 * (std::abs(b) + std::abs(d0(c)))) {
      const double disc = b * b - 4.0 * a * d0(c);
      if (disc >= 0.0) {
        const double s = std::sqrt(disc);
        roots[count++] = (-b - s) / (2.0 * a);
        roots[count++] = (-b + s) / (2.0 * a);
      }
    } else if (b != 0.0) {
      roots[count++] = -d0(c) / b;
    }
    for (int k = 0; k < count; ++k) {
      if (!(roots[k] > 0.0 && roots[k] < 1.0)) continue;
      const double value = Interpolate(q, length, roots[k] * length, 0)(c);
      box.min(c) = std::min(box.min(c), value);
      box.max(c) = std::max(box.max(c), value);
    }
  }
  return box;
}

SegmentGap ChordGap(const Vec2& p0, const Vec2& p1, const Vec2& centre, double radius) {
  SegmentGap g;
  const Vec2 vs = p1 - p0, vp = centre - p0;
  const double squared = vs.squaredNorm();
  g.rho = squared > 0.0 ? std::clamp(vp.dot(vs) / squared, 0.0, 1.0) : 0.0;
  g.point = p0 + g.rho * vs;
  const Vec2 d = g.point - centre;
  g.distance = d.norm();
  g.gap = g.distance - radius;
  g.normal = g.distance > 0.0 ? Vec2(d / g.distance) : Vec2::UnitY();
  g.tangent = squared > 0.0 ? Vec2(vs / std::sqrt(squared)) : Vec2::UnitX();
  return g;
}

std::pair<Vec2, Vec2> Chord(const ElementVector& q, double length, int s, int segments) {
  const double step = length / segments;
  return {Interpolate(q, length, s * step, 0), Interpolate(q, length, (s + 1) * step, 0)};
}

namespace {

// A segment's forces (SegmentForces::f) from its kinematics and its rates, on values or
// duals; `sliding` gets the bristle's stretch.
template <class T>
struct Loads {
  std::array<T, 9> f;
  T pressure, friction;  // per area: normal (> 0 pressing) and along the chord
  double sliding = 0.0;
};

template <class T>
Loads<T> SegmentLoads(const ContactLaw& law, const CircleState& circle, double length,
                      const SegmentState& state, const Kinematics<T>& k, const T& normal_rate,
                      const T& tangential_rate) {
  Loads<T> out;
  const double area = law.width * length / law.segments;
  out.pressure = -law.normal_stiffness * k.gap - law.normal_damping * normal_rate;
  if (state.slip == 1 || state.slip == -1) {
    out.friction =
        state.slip * law.friction * (Value(out.pressure) >= 0.0 ? out.pressure : -out.pressure);
  } else {  // stick; at first contact (-2) no bristle yet (eq. 20 with dx_stick = 0)
    out.friction = law.velocity_penalty * tangential_rate;
    if (state.slip == 0 && law.bristle_stiffness > 0.0) {
      out.sliding = Wrap(Value(k.position) - state.stick_reference, circle.radius);
      out.friction =
          out.friction + law.bristle_stiffness * (k.position - Value(k.position) + out.sliding);
    }
  }
  // The force on the belt at P and its share at the chord's ends.
  const T fx = area * (out.pressure * k.normal[0] - out.friction * k.tangent[0]);
  const T fy = area * (out.pressure * k.normal[1] - out.friction * k.tangent[1]);
  for (int i = 0; i < 4; ++i) {
    const T w = (1.0 - k.rho) * k.s0[i] + k.rho * k.s1[i];
    out.f[2 * i] = -(w * fx);
    out.f[2 * i + 1] = -(w * fy);
  }
  out.f[8] = k.arm[0] * fy - k.arm[1] * fx;  // -(torque on the circle) = arm x F
  return out;
}

std::array<double, 8> Values(const ElementVector& x) {
  std::array<double, 8> a;
  for (int i = 0; i < 8; ++i) a[i] = x(i);
  return a;
}

// d(rate)/d(v, circle rate) of the contact point's relative velocity along `direction`
// (eq. 17: (1 - rho) u0 + rho u1 + rate x arm, dotted with the direction).
Eigen::Matrix<double, 9, 1> RateGradient(const Kinematics<double>& k, const V2<double>& direction) {
  Eigen::Matrix<double, 9, 1> g;
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 2; ++c)
      g(2 * i + c) = ((1.0 - k.rho) * k.s0[i] + k.rho * k.s1[i]) * direction[c];
  g(8) = k.arm[1] * direction[0] - k.arm[0] * direction[1];
  return g;
}

}  // namespace

SegmentForces SegmentContactForces(const ContactLaw& law, const CircleState& circle, double length,
                                   int s, const SegmentState& state, const ElementVector& q,
                                   const ElementVector& v, bool tangents) {
  SegmentForces out;
  if (state.gap > 0.0) return out;
  const double area = law.width * length / law.segments;
  const std::array<double, 8> vd = Values(v);
  // x_curStick only for a bristle that sticks (SegmentLoads).
  const bool with_position = state.slip == 0 && law.bristle_stiffness > 0.0;
  const Kinematics<double> kv = SegmentKinematics(law, circle, length, s, Values(q), vd,
                                                  circle.angle, circle.rate, with_position);
  const Loads<double> values =
      SegmentLoads(law, circle, length, state, kv, kv.normal_rate, kv.tangential_rate);
  for (int i = 0; i < 9; ++i) out.f(i) = values.f[i];
  out.normal = area * values.pressure;
  out.tangential = -area * values.friction;
  out.energy = 0.5 * area *
               (law.normal_stiffness * kv.gap * kv.gap +
                law.bristle_stiffness * values.sliding * values.sliding);
  if (!tangents) return out;
  // K: the duals of q and the angle with v and the circle's rate fixed; D: the rates'
  // columns by the chain rule.
  std::array<D, 8> qd, vc;
  for (int i = 0; i < 8; ++i) {
    qd[i] = D::Variable(q(i), i);
    vc[i] = D(v(i));
  }
  const Kinematics<D> k = SegmentKinematics(
      law, circle, length, s, qd, vc, D::Variable(circle.angle, 8), D(circle.rate), with_position);
  const Loads<D> duals =
      SegmentLoads(law, circle, length, state, k, k.normal_rate + D::Variable(0.0, kNormalRate),
                   k.tangential_rate + D::Variable(0.0, kTangentialRate));
  const Eigen::Matrix<double, 9, 1> normal = RateGradient(kv, kv.normal);
  const Eigen::Matrix<double, 9, 1> tangent = RateGradient(kv, kv.tangent);
  for (int i = 0; i < 9; ++i) {
    out.k.row(i) = duals.f[i].g.head<9>().transpose();
    out.d.row(i) = duals.f[i].g(kNormalRate) * normal.transpose() +
                   duals.f[i].g(kTangentialRate) * tangent.transpose();
  }
  return out;
}

namespace {

// B' m B for B = [I_9, -E] (MovingCentre): [m, -m E; -E' m, E' m E], E' m the sums of the
// rows of the nodes' x (0, 4) and y (1, 5), m E those of the columns.
Eigen::Matrix<double, 11, 11> OnCentre(const Eigen::Matrix<double, 9, 9>& m) {
  Eigen::Matrix<double, 11, 11> out;
  out.topLeftCorner<9, 9>() = m;
  for (int c = 0; c < 2; ++c) {
    out.col(9 + c).head<9>() = -(m.col(c) + m.col(4 + c));
    out.row(9 + c).head<9>() = -(m.row(c) + m.row(4 + c));
  }
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) out(9 + r, 9 + c) = -(out(9 + r, c) + out(9 + r, 4 + c));
  return out;
}

}  // namespace

CentreForces MovingCentre(const SegmentForces& forces, bool tangents) {
  CentreForces centre;
  centre.f.head<9>() = forces.f;
  for (int c = 0; c < 2; ++c) centre.f(9 + c) = -(forces.f(c) + forces.f(4 + c));
  if (!tangents) return centre;
  centre.k = OnCentre(forces.k);
  centre.d = OnCentre(forces.d);
  return centre;
}

double UpdateSegment(const ContactLaw& law, const CircleState& circle, double length, int s,
                     const ElementVector& q, const ElementVector& v, const SegmentState& start,
                     SegmentState& state) {
  std::array<double, 8> qd, vd;
  for (int i = 0; i < 8; ++i) {
    qd[i] = q(i);
    vd[i] = v(i);
  }
  const Kinematics<double> k =
      SegmentKinematics(law, circle, length, s, qd, vd, circle.angle, circle.rate, true);
  const double area = law.width * length / law.segments;
  const SegmentState old = state;
  const double pressure =
      std::abs(-law.normal_stiffness * k.gap - law.normal_damping * k.normal_rate);
  double bristle = law.velocity_penalty * k.tangential_rate;     // f_t^(lin) per area
  const bool in_contact = start.gap <= 0.0 && start.slip != -2;  // at the step's start
  if (in_contact && law.bristle_stiffness > 0.0)
    bristle += law.bristle_stiffness * Wrap(k.position - start.stick_reference, circle.radius);
  state.gap = k.gap;
  state.stick_reference = start.stick_reference;
  if (k.gap > 0.0) {
    state.slip = -2;
  } else if (!in_contact) {  // first contact: sticks where it is
    state.slip = 0;
    state.stick_reference = k.position;
  } else if (std::abs(bristle) > law.friction * pressure) {
    state.slip = bristle > 0.0 ? 1 : -1;
    state.stick_reference =
        law.bristle_stiffness > 0.0
            ? k.position - state.slip * law.friction * pressure / law.bristle_stiffness
            : k.position;
  } else {
    state.slip = 0;
  }
  double error = 0.0;
  if ((k.gap > 0.0) != (old.gap > 0.0))
    error += law.normal_stiffness * std::abs(k.gap - old.gap) * area;
  if (state.slip != old.slip) error += std::abs(std::abs(bristle) - law.friction * pressure) * area;
  return error;
}

}  // namespace jointdyn::ancf
