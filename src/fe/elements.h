// Element kernels of linear elasticity: stiffness, consistent mass and stress of one solid
// (3D) or plane-stress (2D) isoparametric element, from the shared shape functions and
// quadrature (fe/shape_functions.h). The middle of the three assembly levels: the
// assembler (fe/assembly.h) owns the loop over elements.
//
// DOF order within an element: node a, component i -> a * dim + i (dim = 3 for solids,
// 2 for plane stress), matching the global numbering node * dim + component.
//
// The isotropic stiffness is assembled in Lame form, with g_a = grad N_a:
//   K(ai, bj) = int lambda g_a,i g_b,j + mu (g_a,j g_b,i + delta_ij g_a . g_b) dV,
// which equals int B^T D B dV; plane stress uses lambda* = E nu / (1 - nu^2) and
// dV = thickness dA. Mass: M(ai, bj) = delta_ij int rho N_a N_b dV.
#pragma once

#include "core/status.h"
#include "core/types.h"
#include "fe/material.h"
#include "fe/mesh.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {

// What distinguishes the element types: the one table the kernel reads.
struct ElementTraits {
  ElementType type;
  int dim;               // dimension of the meshes this type is a continuum element of
  int stiffness_degree;  // quadrature degree for K: exact for straight-sided (affine) shapes
  int mass_degree;       // quadrature degree for M: exact for straight-sided (affine) shapes
};

// The traits of `type` as a continuum element of a `dim`-dimensional mesh; nullptr when it
// is not one (lines, or triangles and quadrilaterals in a 3D mesh, where they are faces).
const ElementTraits* FindElementTraits(ElementType type, int dim);

// Voigt order of stresses and strains: 3D xx, yy, zz, yz, zx, xy; plane stress xx, yy, xy.
inline int VoigtSize(int dim) { return dim == 3 ? 6 : 3; }

// The kernel of one element type. Holds the shape functions at the quadrature points and
// work arrays: use one kernel per thread.
class ElementKernel {
 public:
  // Throws InputError when `type` is not a continuum element of a `dim`-dimensional mesh.
  ElementKernel(ElementType type, int dim);

  ElementType type() const { return traits_->type; }
  int dim() const { return traits_->dim; }
  int num_nodes() const { return num_nodes_; }
  int num_dofs() const { return num_nodes_ * traits_->dim; }

  // Stiffness [N/m] and consistent mass [kg] of the element with node coordinates `x`
  // (num_nodes x dim) [m]; either output may be null. A failure (inverted or degenerate
  // element: det J <= 1e-10 times the product of the Jacobian's column norms at a
  // quadrature point) names the point and det J; the outputs are then unspecified.
  Status Compute(const MatX& x, const ElasticMaterial& material, MatX* stiffness, MatX* mass);

  // Fails like Compute for an inverted or degenerate element with node coordinates `x`
  // (det J at the stiffness quadrature points), without computing its matrices.
  Status CheckShape(const MatX& x);

  // Stress [Pa] (Voigt order) at the reference point `xi` for the element displacements
  // `u` (num_dofs) [m]. Fails like Compute for a degenerate Jacobian.
  Status Stress(const MatX& x, const VecX& u, const ElasticMaterial& material, const double* xi,
                VecX& stress);

 private:
  // Gradients g (num_nodes x dim) [1/m] and det J at one point from the reference
  // derivatives dn (num_nodes x dim).
  Status Gradients(const MatX& x, const MatX& dn, int point, MatX& g, double& det_j) const;

  const ElementTraits* traits_;
  int num_nodes_;
  QuadratureRule stiffness_rule_, mass_rule_;
  std::vector<MatX> stiffness_dn_;  // reference derivatives at the stiffness points
  std::vector<MatX> mass_dn_;       // reference derivatives at the mass points
  MatX mass_n_;                     // shape functions at the mass points (num_nodes x count)
  // Work arrays.
  MatX g_;
  std::vector<MatX> gradient_columns_;  // per component i: column q = g_q(:, i)
  std::vector<MatX> weighted_columns_;  // per component i: column q = w_q det J_q g_q(:, i)
  MatX weighted_n_;
  ShapeValues shape_;
};

}  // namespace jointdyn::fe
