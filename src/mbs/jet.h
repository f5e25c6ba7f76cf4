// Second-order forward differentiation: a value with its gradient and Hessian with respect
// to N local coordinates. The multibody element kernels (constraint rows, springs, forces
// at markers) are written once as functions of their bodies' coordinates; the constraint
// Jacobian C_q, the constraint-force tangent (C_q' lambda)_q = sum lambda_i d2c_i/dq2, the
// acceleration term Q_c = -v' (d2c/dq2) v of seed 003 eq. 2.52 and the spring stiffnesses
// come out exact, with no hand-derived second derivatives to get wrong.
#pragma once

#include <Eigen/Dense>
#include <cmath>

namespace jointdyn::mbs {

template <int N>
struct Jet {
  using Gradient = Eigen::Matrix<double, N, 1>;
  using Hessian = Eigen::Matrix<double, N, N>;

  double v = 0.0;
  Gradient g = Gradient::Zero();
  Hessian h = Hessian::Zero();

  Jet() = default;
  Jet(double value) : v(value) {}  // NOLINT: a constant converts implicitly
  // The local coordinate `index` with value `value`.
  static Jet Variable(double value, int index) {
    Jet x(value);
    x.g(index) = 1.0;
    return x;
  }

  Jet& operator+=(const Jet& b) {
    v += b.v;
    g += b.g;
    h += b.h;
    return *this;
  }
  Jet& operator-=(const Jet& b) {
    v -= b.v;
    g -= b.g;
    h -= b.h;
    return *this;
  }
  friend Jet operator+(Jet a, const Jet& b) { return a += b; }
  friend Jet operator-(Jet a, const Jet& b) { return a -= b; }
  friend Jet operator-(Jet a) {
    a.v = -a.v;
    a.g = -a.g;
    a.h = -a.h;
    return a;
  }
  friend Jet operator*(const Jet& a, const Jet& b) {
    Jet c;
    c.v = a.v * b.v;
    c.g = a.v * b.g + b.v * a.g;
    c.h = a.v * b.h + b.v * a.h + a.g * b.g.transpose() + b.g * a.g.transpose();
    return c;
  }
  friend Jet operator*(double s, Jet a) {
    a.v *= s;
    a.g *= s;
    a.h *= s;
    return a;
  }
  // f(a) from f, f' and f'' at a.v (the chain rule to second order).
  static Jet Apply(const Jet& a, double f, double df, double d2f) {
    Jet c;
    c.v = f;
    c.g = df * a.g;
    c.h = df * a.h + d2f * a.g * a.g.transpose();
    return c;
  }
};

template <int N>
Jet<N> sin(const Jet<N>& a) {
  return Jet<N>::Apply(a, std::sin(a.v), std::cos(a.v), -std::sin(a.v));
}
template <int N>
Jet<N> cos(const Jet<N>& a) {
  return Jet<N>::Apply(a, std::cos(a.v), -std::sin(a.v), -std::cos(a.v));
}
// sqrt(a) for a.v > 0.
template <int N>
Jet<N> sqrt(const Jet<N>& a) {
  const double r = std::sqrt(a.v);
  return Jet<N>::Apply(a, r, 0.5 / r, -0.25 / (r * a.v));
}

// The angle atan2(y, x) for (x, y) != 0: the value's angle plus atan(s / c) with
// s = x0 y - y0 x and c = x0 x + y0 y (s = 0, c = r^2 > 0 at the value), regular everywhere.
template <int N>
Jet<N> atan2(const Jet<N>& y, const Jet<N>& x) {
  const Jet<N> s = x.v * y - y.v * x, c = x.v * x + y.v * y;
  const Jet<N> inverse_c = Jet<N>::Apply(c, 1.0 / c.v, -1.0 / (c.v * c.v), 2.0 / (c.v * c.v * c.v));
  const Jet<N> ratio = s * inverse_c;  // 0 at the value
  return std::atan2(y.v, x.v) + Jet<N>::Apply(ratio, 0.0, 1.0, 0.0);
}

}  // namespace jointdyn::mbs
