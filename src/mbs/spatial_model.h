// A spatial (3D) multibody system: rigid bodies and point masses, markers on them, joints
// (index-3 holonomic constraints with Lagrange multipliers, seed 003 eq. 2.44-2.55),
// springs and dampers, forces and torques as time functions, gravity. SI units (kg, m, s,
// N, rad).
//
// Coordinates: a rigid body has x, y, z (its centre of mass in the global frame) and the
// Euler parameters p0..p3 of its orientation (the unit quaternion of the rotation from the
// global axes to the body's axes; a normalization constraint p'p = 1 per body keeps them
// unit); a point mass has x, y, z; a flexible body the x, y, z and Euler parameters of its
// floating frame and its modal coordinates zeta (spatial_flexible_inertia.h). The ground is
// body index kGround.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/types.h"
#include "mbs/flexible_body.h"
#include "mbs/planar_model.h"  // kGround
#include "mbs/spatial_flexible_inertia.h"
#include "time/time_function.h"

namespace jointdyn::mbs::spatial {

enum class BodyKind {
  kRigid,      // x, y, z, p0, p1, p2, p3
  kPointMass,  // x, y, z
  kFlexible,   // x, y, z, p0, p1, p2, p3 of its floating frame, and zeta
};

using FlexibleNode = FlexibleNodeOf<3>;
using FlexibleBody = FlexibleBodyOf<FlexibleInertia, 3>;

struct Body {
  std::string name;
  BodyKind kind = BodyKind::kRigid;
  double mass = 0.0;                     // [kg], > 0
  Mat3 inertia = Mat3::Zero();           // about the centre of mass, body axes [kg m^2]: SPD
  Vec3 position = Vec3::Zero();          // initial centre of mass [m]
  Mat3 orientation = Mat3::Identity();   // initial body axes in the global frame (columns)
  Vec3 velocity = Vec3::Zero();          // initial velocity of the centre of mass [m/s]
  Vec3 angular_velocity = Vec3::Zero();  // initial, in the global frame [rad/s]
  // kFlexible: the body (shared: it is large and immutable), its initial modal coordinates
  // and rates (empty: zero); position, orientation and their rates are the frame's (mass
  // and inertia unused).
  std::shared_ptr<const FlexibleBody> flexible;
  VecX modal_coordinates, modal_velocities;
  // The number of coordinates: 3 point mass, 7 rigid, 7 + n flexible.
  int coordinates() const;
  // Rigid or flexible: has an orientation (Euler parameters).
  bool oriented() const { return kind != BodyKind::kPointMass; }
};

// A point and axes fixed on a body (or on the ground), or on a node of a flexible body
// (moving with its deformation: the node's displacement and its small rotation, the axes
// turned by I + phi~).
struct Marker {
  std::string name;
  int body = kGround;
  Vec3 position = Vec3::Zero();         // in the body frame from its centre of mass [m]
  Mat3 orientation = Mat3::Identity();  // the marker's axes in the body frame (columns)
  int node = -1;                        // on a flexible body: the index of its node (position 0)
};

enum class JointKind {
  kSpherical,  // the markers' points coincide (3 rows)
  kRevolute,   // spherical, and b's z axis stays a's z axis (5 rows)
  // spherical, and b's z axis stays perpendicular to a's z axis (4 rows: a Cardan joint
  // whose cross joins the axes a.z and b.z; a slider-crank's rod without the redundant row
  // of revolute joints at both ends)
  kUniversal,
  kPrismatic,   // b's point on a's x axis, the axes stay aligned (5 rows)
  kRigid,       // points coincide and axes stay aligned (6 rows)
  kDistance,    // |p_a - p_b| = length (1 row)
  kPrescribed,  // a body coordinate x, y or z follows motion(t) (1 row)
  // A revolute joint whose angle from a's x axis to b's x axis about a's z axis follows
  // motion(t) (6 rows: a crank driven by a motor).
  kDrivenRevolute,
};

enum class Coordinate { kX, kY, kZ };

struct Joint {
  std::string name;
  JointKind kind = JointKind::kSpherical;
  int marker_a = 0, marker_b = 0;  // marker indices (not for kPrescribed)
  double length = 0.0;             // kDistance [m], > 0
  // kPrescribed: the coordinate of `body` that follows `motion` [m]; kDrivenRevolute: the
  // angle [rad].
  int body = 0;
  Coordinate coordinate = Coordinate::kX;
  time::TimeFunction motion;
};

// A linear spring-damper between two markers' points, along their connecting line:
// tension k (l - length) + c dl/dt [N].
struct Spring {
  std::string name;
  int marker_a = 0, marker_b = 0;
  double stiffness = 0.0;  // k [N/m], >= 0
  double damping = 0.0;    // c [N s/m], >= 0
  double length = 0.0;     // unstressed length [m], > 0
};

// A torsional spring-damper about marker a's z axis between two rigid bodies (b = the
// ground allowed), for markers whose z axes stay aligned (a revolute joint): with phi the
// angle from b's x axis to a's about a's z (phi_a - phi_b, within (-pi, pi] of `angle`),
// moment on b's body about a's z k (phi - angle) + c dphi/dt [N m].
struct RotationalSpring {
  std::string name;
  int marker_a = 0, marker_b = 0;
  double stiffness = 0.0;  // [N m/rad], >= 0
  double damping = 0.0;    // [N m s/rad], >= 0
  double angle = 0.0;      // unstressed [rad]
};

// A force at a marker's point and a torque on the marker's body (a rigid body), both in
// the global frame.
struct Load {
  int marker = 0;
  std::array<time::TimeFunction, 3> force;   // [N]
  std::array<time::TimeFunction, 3> torque;  // [N m]
};

struct SpatialModel {
  std::vector<Body> bodies;
  std::vector<Marker> markers;
  std::vector<Joint> joints;
  std::vector<Spring> springs;
  std::vector<RotationalSpring> rotational_springs;
  std::vector<Load> loads;
  Vec3 gravity = Vec3::Zero();  // [m/s^2]

  // Throws InputError naming the item ("bodies[1].inertia", "joints[0].marker_b") and the
  // rule.
  void Validate() const;
};

// The rows of a joint.
int JointRows(JointKind kind);
// The names of a joint's reported forces, one per row (spatial_system.h: JointForces).
std::vector<std::string> JointForceLabels(JointKind kind);
// A marker's point at the bodies' initial positions [m].
Vec3 InitialMarkerPosition(const SpatialModel& model, int marker);
// The angle of a rotational spring between markers a and b at the bodies' initial
// orientations [rad] (RotationalSpring: phi).
double InitialRelativeAngle(const SpatialModel& model, int a, int b);

}  // namespace jointdyn::mbs::spatial
