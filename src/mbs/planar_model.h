// A planar multibody system: rigid bodies and point masses, markers on them, joints
// (index-3 holonomic constraints with Lagrange multipliers, seed 003 eq. 2.44-2.55),
// springs and dampers, forces and torques as time functions, gravity. SI units (kg, m, s,
// N, rad).
//
// Coordinates: a rigid body has x, y (its centre of mass in the global frame) and its angle
// (from the global x axis to the body's x axis, counter-clockwise); a point mass has x, y.
// With the centre of mass as reference point the mass matrix is constant,
// diag(m, m, J) per rigid body. The ground is body index kGround.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/mesh.h"
#include "joint/joint_operator.h"
#include "mbs/flexible_body.h"
#include "mbs/flexible_inertia.h"
#include "time/time_function.h"

namespace jointdyn::mbs {

inline constexpr int kGround = -1;

enum class BodyKind {
  kRigid,      // x, y, angle
  kPointMass,  // x, y
  kFlexible,   // x, y, angle of its floating frame, and its modal coordinates zeta
};

using FlexibleNode = FlexibleNodeOf<2>;
using FlexibleBody = FlexibleBodyOf<FlexibleInertia, 2>;

struct Body {
  std::string name;
  BodyKind kind = BodyKind::kRigid;
  double mass = 0.0;              // [kg], > 0
  double inertia = 0.0;           // about the centre of mass [kg m^2], > 0 (rigid bodies)
  Vec2 position = Vec2::Zero();   // initial centre of mass [m]
  double angle = 0.0;             // initial angle [rad]
  Vec2 velocity = Vec2::Zero();   // initial velocity of the centre of mass [m/s]
  double angular_velocity = 0.0;  // initial [rad/s]
  // kFlexible: the body (shared: it is large and immutable), its initial modal
  // coordinates and rates (empty: zero). position, angle and their rates are the frame's.
  std::shared_ptr<const FlexibleBody> flexible;
  VecX modal_coordinates, modal_velocities;
  // The number of coordinates: 2 point mass, 3 rigid, 3 + n flexible.
  int coordinates() const;
};

// A point and a direction fixed on a body (or on the ground), or on a node of a flexible
// body (moving with its deformation).
struct Marker {
  std::string name;
  int body = kGround;
  Vec2 position = Vec2::Zero();  // in the body frame from its centre of mass [m] (ground: global)
  double angle = 0.0;            // the marker's x axis from the body's x axis [rad]
  int node = -1;                 // on a flexible body: the index of its node (position 0)
};

enum class JointKind {
  kRevolute,    // the markers' points coincide (2 rows)
  kPrismatic,   // the markers' axes stay aligned and b's point stays on a's x axis (2 rows)
  kRigid,       // points coincide and axes stay aligned (3 rows)
  kDistance,    // |p_a - p_b| = length (1 row)
  kPrescribed,  // a body coordinate follows motion(t) (1 row; the driver)
};

enum class Coordinate { kX, kY, kAngle };

struct Joint {
  std::string name;
  JointKind kind = JointKind::kRevolute;
  int marker_a = 0, marker_b = 0;  // marker indices (not for kPrescribed)
  double length = 0.0;             // kDistance [m], > 0
  // kPrescribed: the coordinate of `body` that follows `motion` [m or rad].
  int body = 0;
  Coordinate coordinate = Coordinate::kAngle;
  time::TimeFunction motion;
};

// A linear spring-damper between two markers' points, along their connecting line:
// tension k (l - length) + c dl/dt [N].
struct Spring {
  std::string name;
  int marker_a = 0, marker_b = 0;
  double stiffness = 0.0;  // k [N/m], >= 0
  double damping = 0.0;    // c [N s/m], >= 0
  double length = 0.0;     // unstressed length [m], >= 0 (> 0 with a point-to-point line)
};

// A rotational spring-damper between two bodies (b = kGround allowed): moment on b
// k (phi_a - phi_b - angle) + c d(phi_a - phi_b)/dt [N m], phi = the markers' angles.
struct RotationalSpring {
  std::string name;
  int marker_a = 0, marker_b = 0;
  double stiffness = 0.0;  // [N m/rad], >= 0
  double damping = 0.0;    // [N m s/rad], >= 0
  double angle = 0.0;      // unstressed relative angle [rad]
};

// A linear spring-damper between two markers' points along the global x and y axes (a
// bushing; isotropic, no line of action needed): force on a k (p_b - p_a) + c (v_b - v_a)
// [N], unstressed where the points coincide.
struct Bushing {
  std::string name;
  int marker_a = 0, marker_b = 0;
  double stiffness = 0.0;  // k [N/m], >= 0
  double damping = 0.0;    // c [N s/m], >= 0
};

// A force at a marker's point in the global frame [N], or a torque on the marker's body
// [N m] (a rigid body's marker).
struct Load {
  int marker = 0;
  time::TimeFunction fx, fy;  // [N]
  time::TimeFunction torque;  // [N m]
};

struct PlanarModel {
  std::vector<Body> bodies;
  std::vector<Marker> markers;
  std::vector<Joint> joints;
  std::vector<Spring> springs;
  std::vector<RotationalSpring> rotational_springs;
  std::vector<Bushing> bushings;
  std::vector<Load> loads;
  Vec2 gravity = Vec2::Zero();  // [m/s^2]

  // Throws InputError naming the item ("bodies[1].mass", "joints[0].marker_b") and the rule.
  void Validate() const;
};

// The rows of a joint (2 revolute and prismatic, 3 rigid, 1 distance and prescribed).
int JointRows(JointKind kind);
// The names of a joint's reported forces, one per row (planar_system.h: JointForces):
// revolute fx, fy; rigid fx, fy, m; prismatic m, fn; distance and prescribed f.
std::vector<std::string> JointForceLabels(JointKind kind);
// A marker's point at the bodies' initial positions [m].
Vec2 InitialMarkerPosition(const PlanarModel& model, int marker);

}  // namespace jointdyn::mbs
