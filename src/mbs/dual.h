// First-order forward differentiation: a value with its gradient with respect to N local
// coordinates. For kernels whose tangent (first derivatives of a force) is wanted but no
// second derivatives (jet.h carries the Hessian, N times the work): contact forces that
// depend on positions and velocities.
#pragma once

#include <Eigen/Dense>
#include <cmath>

namespace jointdyn::mbs {

template <int N>
struct Dual {
  using Gradient = Eigen::Matrix<double, N, 1>;

  double v = 0.0;
  Gradient g = Gradient::Zero();

  Dual() = default;
  Dual(double value) : v(value) {}  // NOLINT: a constant converts implicitly
  static Dual Variable(double value, int index) {
    Dual x(value);
    x.g(index) = 1.0;
    return x;
  }

  Dual& operator+=(const Dual& b) {
    v += b.v;
    g += b.g;
    return *this;
  }
  Dual& operator-=(const Dual& b) {
    v -= b.v;
    g -= b.g;
    return *this;
  }
  friend Dual operator+(Dual a, const Dual& b) { return a += b; }
  friend Dual operator-(Dual a, const Dual& b) { return a -= b; }
  friend Dual operator-(Dual a) {
    a.v = -a.v;
    a.g = -a.g;
    return a;
  }
  friend Dual operator*(const Dual& a, const Dual& b) {
    Dual c;
    c.v = a.v * b.v;
    c.g = a.v * b.g + b.v * a.g;
    return c;
  }
  friend Dual operator/(const Dual& a, const Dual& b) {
    Dual c;
    c.v = a.v / b.v;
    c.g = (a.g - c.v * b.g) / b.v;
    return c;
  }
  // f(a) from f and f' at a.v.
  static Dual Apply(const Dual& a, double f, double df) {
    Dual c;
    c.v = f;
    c.g = df * a.g;
    return c;
  }
};

// sqrt(a) for a.v > 0.
template <int N>
Dual<N> sqrt(const Dual<N>& a) {
  const double r = std::sqrt(a.v);
  return Dual<N>::Apply(a, r, 0.5 / r);
}

template <int N>
Dual<N> sin(const Dual<N>& a) {
  return Dual<N>::Apply(a, std::sin(a.v), std::cos(a.v));
}
template <int N>
Dual<N> cos(const Dual<N>& a) {
  return Dual<N>::Apply(a, std::cos(a.v), -std::sin(a.v));
}

// atan2(y, x) for (x, y) != 0.
template <int N>
Dual<N> atan2(const Dual<N>& y, const Dual<N>& x) {
  Dual<N> c;
  c.v = std::atan2(y.v, x.v);
  c.g = (x.v * y.g - y.v * x.g) / (x.v * x.v + y.v * y.v);
  return c;
}

}  // namespace jointdyn::mbs
