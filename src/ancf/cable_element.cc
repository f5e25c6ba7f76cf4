#include "ancf/cable_element.h"

#include <cmath>
#include <span>

#include "mbs/dual.h"
#include "mbs/jet.h"
#include "mbs/local.h"

namespace jointdyn::ancf {
namespace {

using J = mbs::Jet<8>;
using D = mbs::Dual<8>;  // the force alone: no Hessians

// A rule on [-1, 1]: points and weights.
struct Rule {
  std::span<const double> points, weights;
};

constexpr double kGl2[] = {-0.5773502691896258, 0.5773502691896258};
constexpr double kGl2w[] = {1.0, 1.0};
constexpr double kGl3[] = {-0.7745966692414834, 0.0, 0.7745966692414834};
constexpr double kGl3w[] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
constexpr double kGl4[] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                           0.8611363115940526};
constexpr double kGl4w[] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                            0.3478548451374538};
constexpr double kGl5[] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                           0.9061798459386640};
constexpr double kGl5w[] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                            0.4786286704993665, 0.2369268850561891};
constexpr double kLo3[] = {-1.0, 0.0, 1.0};
constexpr double kLo3w[] = {1.0 / 3.0, 4.0 / 3.0, 1.0 / 3.0};

// Table 1: the axial and the bending rule of a scheme.
std::pair<Rule, Rule> Rules(Integration scheme) {
  switch (scheme) {
    case Integration::kA:
      return {{kGl5, kGl5w}, {kGl3, kGl3w}};
    case Integration::kB:
      return {{kGl4, kGl4w}, {kGl2, kGl2w}};
    case Integration::kC:
      break;
  }
  return {{kLo3, kLo3w}, {kGl2, kGl2w}};
}

// r^(derivative)(x) as jets of the 8 coordinates (the duals' path below is in closed form).
template <class T>
std::array<T, 2> Jets(const ElementVector& q, double length, double x, int derivative) {
  const std::array<double, 4> s = Shape(x, length, derivative);
  std::array<T, 2> r = {T(0.0), T(0.0)};  // linear in q: no Hessian
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 2; ++c) {
      r[c].v += s[i] * q(2 * i + c);
      r[c].g(2 * i + c) = s[i];
    }
  return r;
}

J Inverse(const J& a) {
  return J::Apply(a, 1.0 / a.v, -1.0 / (a.v * a.v), 2.0 / (a.v * a.v * a.v));
}

template <class T>
T Strain(const ElementVector& q, double length, double x) {
  const std::array<T, 2> d = Jets<T>(q, length, x, 1);
  return sqrt(d[0] * d[0] + d[1] * d[1]) - T(1.0);
}

template <class T>
T CurvatureJet(const ElementVector& q, double length, double x) {
  const std::array<T, 2> d = Jets<T>(q, length, x, 1), dd = Jets<T>(q, length, x, 2);
  return (d[0] * dd[1] - d[1] * dd[0]) * Inverse(d[0] * d[0] + d[1] * d[1]);
}

// The residual's path (duals: values and gradients only) in closed form, without dual
// arithmetic: with r' = sum S'_i q_i, d eps / d q_i = S'_i r' / |r'|; with a = r' x r'' and
// b = |r'|^2, K = a / b and dK / dq_i = (da / dq_i - K db / dq_i) / b.
template <>
D Strain<D>(const ElementVector& q, double length, double x) {
  const std::array<double, 4> s = Shape(x, length, 1);
  Vec2 d = Vec2::Zero();
  for (int i = 0; i < 4; ++i) d += s[i] * q.segment<2>(2 * i);
  const double norm = d.norm();
  D eps(norm - 1.0);
  for (int i = 0; i < 4; ++i) eps.g.segment<2>(2 * i) = (s[i] / norm) * d;
  return eps;
}

template <>
D CurvatureJet<D>(const ElementVector& q, double length, double x) {
  const std::array<double, 4> s1 = Shape(x, length, 1), s2 = Shape(x, length, 2);
  Vec2 d = Vec2::Zero(), dd = Vec2::Zero();
  for (int i = 0; i < 4; ++i) {
    d += s1[i] * q.segment<2>(2 * i);
    dd += s2[i] * q.segment<2>(2 * i);
  }
  const double b = d.squaredNorm(), k = (d.x() * dd.y() - d.y() * dd.x()) / b;
  D curvature(k);
  for (int i = 0; i < 4; ++i) {
    curvature.g(2 * i) = (s1[i] * dd.y() - s2[i] * d.y() - 2.0 * k * s1[i] * d.x()) / b;
    curvature.g(2 * i + 1) = (s2[i] * d.x() - s1[i] * dd.x() - 2.0 * k * s1[i] * d.y()) / b;
  }
  return curvature;
}

// Calls add(measure, weight, stiffness, damping, rest) per integration point: eps on the
// axial rule, K on the bending rule, as jets or duals (T), the weights w_i L / 2.
template <class T, class Add>
void ForEachPoint(const CableSection& section, const CableElement& element, const ElementVector& q,
                  const Add& add) {
  const double half = 0.5 * element.length;
  const auto [axial, bending] = Rules(section.integration);
  for (size_t i = 0; i < axial.points.size(); ++i)
    add(Strain<T>(q, element.length, half * (1.0 + axial.points[i])), half * axial.weights[i],
        section.axial_stiffness, section.axial_damping, element.reference_strain);
  for (size_t i = 0; i < bending.points.size(); ++i)
    add(CurvatureJet<T>(q, element.length, half * (1.0 + bending.points[i])),
        half * bending.weights[i], section.bending_stiffness, section.bending_damping,
        element.reference_curvature);
}

}  // namespace

std::array<double, 4> Shape(double x, double length, int derivative) {
  // In xi = x / L (one division: the kernels call this per point and element).
  const double l = length, il = 1.0 / l, xi = x * il, xi2 = xi * xi, xi3 = xi2 * xi;
  switch (derivative) {
    case 0:
      return {1.0 - 3.0 * xi2 + 2.0 * xi3, l * (xi - 2.0 * xi2 + xi3), 3.0 * xi2 - 2.0 * xi3,
              l * (xi3 - xi2)};
    case 1:
      return {6.0 * (xi2 - xi) * il, 1.0 - 4.0 * xi + 3.0 * xi2, 6.0 * (xi - xi2) * il,
              3.0 * xi2 - 2.0 * xi};
    default:
      return {(12.0 * xi - 6.0) * il * il, (6.0 * xi - 4.0) * il, (6.0 - 12.0 * xi) * il * il,
              (6.0 * xi - 2.0) * il};
  }
}

Vec2 Interpolate(const ElementVector& q, double length, double x, int derivative) {
  const std::array<double, 4> s = Shape(x, length, derivative);
  Vec2 r = Vec2::Zero();
  for (int i = 0; i < 4; ++i) r += s[i] * q.segment<2>(2 * i);
  return r;
}

double AxialStrain(const ElementVector& q, double length, double x) {
  return Interpolate(q, length, x, 1).norm() - 1.0;
}

double Curvature(const ElementVector& q, double length, double x) {
  const Vec2 d = Interpolate(q, length, x, 1), dd = Interpolate(q, length, x, 2);
  return (d.x() * dd.y() - d.y() * dd.x()) / d.squaredNorm();
}

double ElementForces(const CableSection& section, const CableElement& element,
                     const ElementVector& q, const ElementVector& v, ElementVector& f,
                     ElementMatrix* stiffness, ElementMatrix* damping) {
  // Each integration point is a spring-damper on eps or K (mbs/local.h), in the element's
  // own 8 coordinates; without tangents on duals.
  f.setZero();
  if (stiffness) stiffness->setZero();
  if (stiffness && damping) damping->setZero();
  double energy = 0.0;
  const auto add = [&](const auto& m, double w, double k, double c, double rest) {
    const mbs::SpringDamperTerms<8> t = mbs::SpringDamper(m, v, w * k, w * c, rest, true);
    f += t.force * m.g;
    energy += t.energy;
    if constexpr (requires { m.h; }) {
      *stiffness += t.stiffness;
      if (damping) *damping += t.damping;
    }
  };
  if (stiffness)
    ForEachPoint<J>(section, element, q, add);
  else
    ForEachPoint<D>(section, element, q, add);
  return energy;
}

ElementMatrix ElementMass(double mass_per_length, double length) {
  ElementMatrix m = ElementMatrix::Zero();
  const double half = 0.5 * length;
  for (int p = 0; p < 4; ++p) {  // 4 Gauss points: exact for the degree-6 products
    const double x = half * (1.0 + kGl4[p]), w = half * kGl4w[p] * mass_per_length;
    const std::array<double, 4> s = Shape(x, length, 0);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) m.block<2, 2>(2 * i, 2 * j) += w * s[i] * s[j] * Mat2::Identity();
  }
  return m;
}

ElementVector ElementLoad(const Vec2& per_length, double length) {
  ElementVector f = ElementVector::Zero();
  const double half = 0.5 * length;
  for (int p = 0; p < 2; ++p) {  // cubic shape functions: 2 Gauss points are exact
    const std::array<double, 4> s = Shape(half * (1.0 + kGl2[p]), length, 0);
    for (int i = 0; i < 4; ++i) f.segment<2>(2 * i) += half * kGl2w[p] * s[i] * per_length;
  }
  return f;
}

}  // namespace jointdyn::ancf
