// Shape functions and quadrature on the reference elements of the fe layer (the same for
// solid elements, plane elements and the faces used by contact pairing and surface loads).
//
// Reference elements (Gmsh's): line xi in [-1, 1]; triangle xi, eta >= 0, xi + eta <= 1;
// quadrilateral [-1, 1]^2; tetrahedron xi, eta, zeta >= 0, xi + eta + zeta <= 1;
// hexahedron [-1, 1]^3. Node order as in mesh.h (Gmsh's). Quadratic elements: tri6 and
// tet10 are complete quadratic (Lagrange), quad8 and hex20 serendipity.
#pragma once

#include "core/quadrature.h"
#include "core/types.h"
#include "fe/mesh.h"

namespace jointdyn::fe {

// Values and reference derivatives of the shape functions at one point.
struct ShapeValues {
  VecX n;   // N_i, one per node
  MatX dn;  // dN_i / dxi_j: nodes x Dimension(type)
};

// Evaluates the shape functions of `type` at the reference point xi (Dimension(type)
// entries); `out` is resized.
void EvaluateShape(ElementType type, const double* xi, ShapeValues& out);

// Reference coordinates of the nodes (NodesPerElement(type) x Dimension(type)).
MatX ReferenceNodes(ElementType type);

struct QuadratureRule {
  MatX points;   // count x Dimension(type), reference coordinates
  VecX weights;  // count; they sum to the reference measure (2, 1/2, 4, 1/6, 8)
  int size() const { return static_cast<int>(weights.size()); }
};

// A rule on the reference element of `type` that integrates every polynomial of total
// degree <= `degree` exactly (0 <= degree <= 12; triangles and tetrahedra use collapsed
// Gauss rules above degree 2).
QuadratureRule Quadrature(ElementType type, int degree);

}  // namespace jointdyn::fe
