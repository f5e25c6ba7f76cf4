// Euler parameters p = (p0, e) of a rotation (Nikravesh; Shabana section 2.1) on small
// fixed-size vectors of any scalar (double, Dual, Jet), so that kernels written once give
// their derivatives: A(p) = (2 p0^2 - 1) I + 2 (e e' + p0 e~) (body axes in the global
// frame), the body-frame angular velocity w' = 2 G'(p) dp/dt with G'(p) = [-e, -e~ + p0 I].
#pragma once

#include <Eigen/Geometry>
#include <array>

#include "core/types.h"

namespace jointdyn::mbs {

template <class T>
using V3 = std::array<T, 3>;
template <class T>
using V4 = std::array<T, 4>;

template <class T>
T Dot(const V3<T>& a, const V3<T>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

template <class T>
V3<T> Difference(const V3<T>& a, const V3<T>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

template <class T, class U>
V3<T> Cross(const V3<T>& a, const V3<U>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// A(p) u (transposed: A(p)' u) = (2 p0^2 - 1) u + 2 e (e.u) +- 2 p0 (e x u), u constant or
// of the scalar type.
template <class T, class U>
V3<T> Rotate(const V4<T>& p, const V3<U>& u, bool transposed = false) {
  const V3<T> e = {p[1], p[2], p[3]};
  const T eu = e[0] * u[0] + e[1] * u[1] + e[2] * u[2];
  const T s = 2.0 * (p[0] * p[0]) - 1.0;
  const V3<T> e_cross_u = Cross(e, u);
  const double sign = transposed ? -2.0 : 2.0;
  V3<T> r;
  for (int k = 0; k < 3; ++k) r[k] = s * u[k] + 2.0 * (e[k] * eu) + sign * (p[0] * e_cross_u[k]);
  return r;
}

template <class T>
V3<T> Rotate(const V4<T>& p, const Vec3& u, bool transposed = false) {
  return Rotate(p, V3<double>{u(0), u(1), u(2)}, transposed);
}

// G'(p) x = -x0 e - e x x_v + p0 x_v.
template <class T, class U>
V3<T> GBar(const V4<T>& p, const V4<U>& x) {
  const V3<T> e = {p[1], p[2], p[3]};
  const V3<U> xv = {x[1], x[2], x[3]};
  const V3<T> e_cross_x = Cross(e, xv);
  V3<T> r;
  for (int k = 0; k < 3; ++k) r[k] = p[0] * xv[k] - x[0] * e[k] - e_cross_x[k];
  return r;
}

// G'(p)' y = (-e.y, e x y + p0 y).
template <class T, class U>
V4<T> GBarTranspose(const V4<T>& p, const V3<U>& y) {
  const V3<T> e = {p[1], p[2], p[3]};
  const V3<T> e_cross_y = Cross(e, y);
  V4<T> r;
  r[0] = -(e[0] * y[0] + e[1] * y[1] + e[2] * y[2]);
  for (int k = 0; k < 3; ++k) r[k + 1] = e_cross_y[k] + p[0] * y[k];
  return r;
}

template <class T>
V3<T> Times(const Mat3& m, const V3<T>& x) {
  V3<T> r;
  for (int i = 0; i < 3; ++i) r[i] = m(i, 0) * x[0] + m(i, 1) * x[1] + m(i, 2) * x[2];
  return r;
}

// The Euler parameters of a rotation matrix (p0 >= 0).
inline Eigen::Vector4d EulerParameters(const Mat3& rotation) {
  Eigen::Quaterniond quaternion(rotation);
  quaternion.normalize();
  Eigen::Vector4d p(quaternion.w(), quaternion.x(), quaternion.y(), quaternion.z());
  return p(0) < 0.0 ? Eigen::Vector4d(-p) : p;
}

// A(p) and G'(p) as matrices.
inline Mat3 RotationMatrix(const Eigen::Vector4d& p) {
  const V4<double> pv = {p(0), p(1), p(2), p(3)};
  Mat3 a;
  for (int k = 0; k < 3; ++k) {
    const V3<double> column = Rotate(pv, Vec3::Unit(k));
    a.col(k) << column[0], column[1], column[2];
  }
  return a;
}

inline Eigen::Matrix<double, 3, 4> GBarMatrix(const Eigen::Vector4d& p) {
  const V4<double> pv = {p(0), p(1), p(2), p(3)};
  Eigen::Matrix<double, 3, 4> g;
  for (int k = 0; k < 4; ++k) {
    V4<double> unit = {0.0, 0.0, 0.0, 0.0};
    unit[k] = 1.0;
    const V3<double> column = GBar(pv, unit);
    g.col(k) << column[0], column[1], column[2];
  }
  return g;
}

}  // namespace jointdyn::mbs
