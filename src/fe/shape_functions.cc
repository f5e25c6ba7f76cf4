#include "fe/shape_functions.h"

#include <array>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "core/error.h"

namespace jointdyn::fe {
namespace {

// Edges (node pairs) whose midpoints are the mid-side nodes, in Gmsh's order.
using Edges = std::vector<std::pair<int, int>>;
const Edges kTriEdges{{0, 1}, {1, 2}, {2, 0}};
const Edges kTetEdges{{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 2}, {3, 1}};
const Edges kQuadEdges{{0, 1}, {1, 2}, {2, 3}, {3, 0}};
const Edges kHexEdges{{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                      {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};

MatX SimplexCorners(int dim) {
  MatX corners = MatX::Zero(dim + 1, dim);
  for (int d = 0; d < dim; ++d) corners(d + 1, d) = 1.0;
  return corners;
}

MatX CubeCorners(int dim) {
  static const double kQuad[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  MatX corners(dim == 2 ? 4 : 8, dim);
  for (int i = 0; i < corners.rows(); ++i) {
    for (int d = 0; d < 2; ++d) corners(i, d) = kQuad[i % 4][d];
    if (dim == 3) corners(i, 2) = i < 4 ? -1.0 : 1.0;
  }
  return corners;
}

MatX WithMidpoints(const MatX& corners, const Edges& edges) {
  MatX nodes(corners.rows() + static_cast<int>(edges.size()), corners.cols());
  nodes.topRows(corners.rows()) = corners;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    nodes.row(corners.rows() + static_cast<int>(e)) =
        0.5 * (corners.row(edges[e].first) + corners.row(edges[e].second));
  }
  return nodes;
}

// Simplex elements from the barycentric coordinates L_0 = 1 - sum xi, L_d = xi_{d-1}:
// linear N_i = L_i; quadratic corners L_i (2 L_i - 1) and mid-edge nodes 4 L_a L_b.
void SimplexShape(int dim, const Edges* edges, const double* xi, ShapeValues& out) {
  const int corners = dim + 1;
  const int count = corners + (edges ? static_cast<int>(edges->size()) : 0);
  out.n.resize(count);
  out.dn.setZero(count, dim);
  std::array<double, 4> l{};
  l[0] = 1.0;
  for (int d = 0; d < dim; ++d) {
    l[d + 1] = xi[d];
    l[0] -= xi[d];
  }
  // dL_i / dxi_d: -1 for i = 0, delta(i - 1, d) otherwise.
  auto grad = [](int i, int d) { return i == 0 ? -1.0 : (i - 1 == d ? 1.0 : 0.0); };
  for (int i = 0; i < corners; ++i) {
    const double factor = edges ? 4.0 * l[i] - 1.0 : 1.0;
    out.n(i) = edges ? l[i] * (2.0 * l[i] - 1.0) : l[i];
    for (int d = 0; d < dim; ++d) out.dn(i, d) = factor * grad(i, d);
  }
  if (!edges) return;
  for (std::size_t e = 0; e < edges->size(); ++e) {
    const auto [a, b] = (*edges)[e];
    const int row = corners + static_cast<int>(e);
    out.n(row) = 4.0 * l[a] * l[b];
    for (int d = 0; d < dim; ++d) out.dn(row, d) = 4.0 * (l[b] * grad(a, d) + l[a] * grad(b, d));
  }
}

// Quadrilaterals and hexahedra from the node signs s (the reference node coordinates):
// linear corners prod (1 + s_d xi_d) / 2; serendipity corners times (sum s_d xi_d - (D - 1));
// serendipity mid-edge nodes (s_m = 0) (1 - xi_m^2) prod_{d != m} (1 + s_d xi_d) / 2^(D-1).
void CubeShape(const MatX& signs, bool serendipity, const double* xi, ShapeValues& out) {
  const int dim = static_cast<int>(signs.cols());
  const int count = static_cast<int>(signs.rows());
  out.n.resize(count);
  out.dn.resize(count, dim);
  for (int i = 0; i < count; ++i) {
    int mid = -1;  // the direction with s = 0 (mid-edge node)
    for (int d = 0; d < dim; ++d) {
      if (signs(i, d) == 0.0) mid = d;
    }
    // Product of the linear factors (1 + s_d xi_d) over the directions d != skip, and
    // the same with direction k differentiated.
    auto product = [&](int skip, int diff) {
      double p = 1.0;
      for (int d = 0; d < dim; ++d) {
        if (d == skip) continue;
        p *= d == diff ? signs(i, d) : 1.0 + signs(i, d) * xi[d];
      }
      return p;
    };
    if (mid >= 0) {
      const double scale = std::ldexp(1.0, -(dim - 1));
      const double bubble = 1.0 - xi[mid] * xi[mid];
      out.n(i) = scale * bubble * product(mid, -1);
      for (int k = 0; k < dim; ++k) {
        out.dn(i, k) =
            k == mid ? scale * -2.0 * xi[mid] * product(mid, -1) : scale * bubble * product(mid, k);
      }
      continue;
    }
    const double scale = std::ldexp(1.0, -dim);
    const double p = scale * product(-1, -1);
    double sum = -(dim - 1);
    for (int d = 0; d < dim; ++d) sum += signs(i, d) * xi[d];
    out.n(i) = serendipity ? p * sum : p;
    for (int k = 0; k < dim; ++k) {
      const double dp = scale * product(-1, k);
      out.dn(i, k) = serendipity ? dp * sum + p * signs(i, k) : dp;
    }
  }
}

// Gauss-Legendre on [0, 1].
void UnitGauss(int n, VecX& points, VecX& weights) {
  GaussLegendre(n, points, weights);
  points = (points.array() + 1.0) * 0.5;
  weights *= 0.5;
}

// Collapsed (Duffy) Gauss rule on the simplex: xi = u (1 - v) (1 - w), eta = v (1 - w),
// zeta = w (dim 3) with the Jacobian (1 - v) (1 - w)^2; a polynomial of degree p becomes
// of degree p, p + 1, p + 2 in u, v, w.
QuadratureRule CollapsedSimplex(int dim, int degree) {
  std::array<VecX, 3> x, w;
  for (int d = 0; d < dim; ++d) UnitGauss((degree + d) / 2 + 1, x[d], w[d]);
  QuadratureRule rule;
  const int count =
      dim == 2 ? int(x[0].size() * x[1].size()) : int(x[0].size() * x[1].size() * x[2].size());
  rule.points.resize(count, dim);
  rule.weights.resize(count);
  int k = 0;
  const int nw = dim == 3 ? static_cast<int>(x[2].size()) : 1;
  for (int a = 0; a < x[0].size(); ++a) {
    for (int b = 0; b < x[1].size(); ++b) {
      for (int c = 0; c < nw; ++c, ++k) {
        const double u = x[0](a), v = x[1](b), t = dim == 3 ? x[2](c) : 0.0;
        const double wt = dim == 3 ? w[2](c) : 1.0;
        rule.points(k, 0) = u * (1.0 - v) * (1.0 - t);
        rule.points(k, 1) = v * (1.0 - t);
        if (dim == 3) rule.points(k, 2) = t;
        rule.weights(k) = w[0](a) * w[1](b) * wt * (1.0 - v) * (1.0 - t) * (1.0 - t);
      }
    }
  }
  return rule;
}

QuadratureRule TensorGauss(int dim, int degree) {
  VecX x, w;
  GaussLegendre(degree / 2 + 1, x, w);
  const int n = static_cast<int>(x.size());
  int count = 1;
  for (int d = 0; d < dim; ++d) count *= n;
  QuadratureRule rule;
  rule.points.resize(count, dim);
  rule.weights.resize(count);
  for (int k = 0; k < count; ++k) {
    int rest = k;
    rule.weights(k) = 1.0;
    for (int d = 0; d < dim; ++d, rest /= n) {
      rule.points(k, d) = x(rest % n);
      rule.weights(k) *= w(rest % n);
    }
  }
  return rule;
}

QuadratureRule FromTable(int dim, std::initializer_list<std::array<double, 3>> points,
                         double weight) {
  QuadratureRule rule;
  rule.points.resize(static_cast<int>(points.size()), dim);
  rule.weights.setConstant(static_cast<int>(points.size()), weight);
  int k = 0;
  for (const auto& p : points) {
    for (int d = 0; d < dim; ++d) rule.points(k, d) = p[d];
    ++k;
  }
  return rule;
}

}  // namespace

void EvaluateShape(ElementType type, const double* xi, ShapeValues& out) {
  switch (type) {
    case ElementType::kLine2:
      out.n.resize(2);
      out.dn.resize(2, 1);
      out.n << 0.5 * (1.0 - xi[0]), 0.5 * (1.0 + xi[0]);
      out.dn << -0.5, 0.5;
      return;
    case ElementType::kLine3:  // nodes at -1, 1, 0
      out.n.resize(3);
      out.dn.resize(3, 1);
      out.n << 0.5 * xi[0] * (xi[0] - 1.0), 0.5 * xi[0] * (xi[0] + 1.0), 1.0 - xi[0] * xi[0];
      out.dn << xi[0] - 0.5, xi[0] + 0.5, -2.0 * xi[0];
      return;
    case ElementType::kTri3:
      return SimplexShape(2, nullptr, xi, out);
    case ElementType::kTri6:
      return SimplexShape(2, &kTriEdges, xi, out);
    case ElementType::kTet4:
      return SimplexShape(3, nullptr, xi, out);
    case ElementType::kTet10:
      return SimplexShape(3, &kTetEdges, xi, out);
    case ElementType::kQuad4:
    case ElementType::kHex8:
    case ElementType::kQuad8:
    case ElementType::kHex20: {
      // The reference nodes are the signs; computed once per type.
      static const MatX quad4 = ReferenceNodes(ElementType::kQuad4);
      static const MatX quad8 = ReferenceNodes(ElementType::kQuad8);
      static const MatX hex8 = ReferenceNodes(ElementType::kHex8);
      static const MatX hex20 = ReferenceNodes(ElementType::kHex20);
      const bool serendipity = type == ElementType::kQuad8 || type == ElementType::kHex20;
      const MatX& signs = type == ElementType::kQuad4   ? quad4
                          : type == ElementType::kQuad8 ? quad8
                          : type == ElementType::kHex8  ? hex8
                                                        : hex20;
      return CubeShape(signs, serendipity, xi, out);
    }
  }
  JD_CHECK(false, "EvaluateShape: unknown element type");
}

MatX ReferenceNodes(ElementType type) {
  switch (type) {
    case ElementType::kLine2:
      return (MatX(2, 1) << -1.0, 1.0).finished();
    case ElementType::kLine3:
      return (MatX(3, 1) << -1.0, 1.0, 0.0).finished();
    case ElementType::kTri3:
      return SimplexCorners(2);
    case ElementType::kTri6:
      return WithMidpoints(SimplexCorners(2), kTriEdges);
    case ElementType::kTet4:
      return SimplexCorners(3);
    case ElementType::kTet10:
      return WithMidpoints(SimplexCorners(3), kTetEdges);
    case ElementType::kQuad4:
      return CubeCorners(2);
    case ElementType::kQuad8:
      return WithMidpoints(CubeCorners(2), kQuadEdges);
    case ElementType::kHex8:
      return CubeCorners(3);
    case ElementType::kHex20:
      return WithMidpoints(CubeCorners(3), kHexEdges);
  }
  JD_CHECK(false, "ReferenceNodes: unknown element type");
  return {};
}

QuadratureRule Quadrature(ElementType type, int degree) {
  JD_CHECK(degree >= 0 && degree <= 12, "Quadrature: degree must be in [0, 12]");
  const int dim = Dimension(type);
  const bool simplex = type == ElementType::kTri3 || type == ElementType::kTri6 ||
                       type == ElementType::kTet4 || type == ElementType::kTet10;
  if (!simplex) return TensorGauss(dim, degree);
  if (dim == 2) {
    if (degree <= 1) return FromTable(2, {{1.0 / 3.0, 1.0 / 3.0, 0.0}}, 0.5);
    if (degree == 2)
      return FromTable(
          2,
          {{1.0 / 6.0, 1.0 / 6.0, 0.0}, {2.0 / 3.0, 1.0 / 6.0, 0.0}, {1.0 / 6.0, 2.0 / 3.0, 0.0}},
          1.0 / 6.0);
    return CollapsedSimplex(2, degree);
  }
  if (degree <= 1) return FromTable(3, {{0.25, 0.25, 0.25}}, 1.0 / 6.0);
  if (degree == 2) {
    const double a = (5.0 - std::sqrt(5.0)) / 20.0, b = (5.0 + 3.0 * std::sqrt(5.0)) / 20.0;
    return FromTable(3, {{a, a, a}, {b, a, a}, {a, b, a}, {a, a, b}}, 1.0 / 24.0);
  }
  return CollapsedSimplex(3, degree);
}

}  // namespace jointdyn::fe
