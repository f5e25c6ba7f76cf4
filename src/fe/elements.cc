#include "fe/elements.h"

#include <array>
#include <cmath>
#include <sstream>

#include "core/error.h"

namespace jointdyn::fe {
namespace {

// Quadrature degrees: the stiffness integrand g_a . g_b of an affine element of order p has
// degree 2 (p - 1), the mass integrand N_a N_b degree 2 p. Quadrilaterals and hexahedra use
// tensor Gauss rules, whose degree counts per direction: 2 x 2 (x 2) points for the linear
// and 3 x 3 (x 3) for the serendipity elements (full integration, no hourglass modes).
constexpr std::array<ElementTraits, 8> kTraits = {{
    {ElementType::kTet4, 3, 0, 2},
    {ElementType::kTet10, 3, 2, 4},
    {ElementType::kHex8, 3, 3, 3},
    {ElementType::kHex20, 3, 5, 5},
    {ElementType::kTri3, 2, 0, 2},
    {ElementType::kTri6, 2, 2, 4},
    {ElementType::kQuad4, 2, 3, 3},
    {ElementType::kQuad8, 2, 5, 5},
}};

// Gradients g = dn J^-1 and det J for a D-dimensional element (see ElementKernel::Compute
// for the degeneracy rule).
template <int D>
Status FixedGradients(const MatX& x, const MatX& dn, int point, MatX& g, double& det_j) {
  const Eigen::Matrix<double, D, D> jacobian = x.transpose() * dn;  // J_ij = dx_i / dxi_j
  det_j = jacobian.determinant();
  double scale = 1.0;
  for (int j = 0; j < D; ++j) scale *= jacobian.col(j).norm();
  if (!(det_j > 1e-10 * scale)) {
    std::ostringstream out;
    out << (det_j < 0.0 ? "inverted" : "degenerate") << " element: det J = " << FormatValue(det_j)
        << " at quadrature point " << point;
    return Status::Failure(out.str());
  }
  g.noalias() = dn * jacobian.inverse();
  return Status::Ok();
}

}  // namespace

const ElementTraits* FindElementTraits(ElementType type, int dim) {
  for (const ElementTraits& traits : kTraits) {
    if (traits.type == type && traits.dim == dim) return &traits;
  }
  return nullptr;
}

ElementKernel::ElementKernel(ElementType type, int dim) : traits_(FindElementTraits(type, dim)) {
  if (traits_ == nullptr) {
    throw InputError("element type", Name(type),
                     "is not a continuum element of a " + std::to_string(dim) + "D mesh");
  }
  num_nodes_ = NodesPerElement(type);
  stiffness_rule_ = Quadrature(type, traits_->stiffness_degree);
  mass_rule_ = Quadrature(type, traits_->mass_degree);
  for (int q = 0; q < stiffness_rule_.size(); ++q) {
    const VecX xi = stiffness_rule_.points.row(q).transpose();
    EvaluateShape(type, xi.data(), shape_);
    stiffness_dn_.push_back(shape_.dn);
  }
  mass_n_.resize(num_nodes_, mass_rule_.size());
  for (int q = 0; q < mass_rule_.size(); ++q) {
    const VecX xi = mass_rule_.points.row(q).transpose();
    EvaluateShape(type, xi.data(), shape_);
    mass_dn_.push_back(shape_.dn);
    mass_n_.col(q) = shape_.n;
  }
  gradient_columns_.assign(dim, MatX(num_nodes_, stiffness_rule_.size()));
  weighted_columns_.assign(dim, MatX(num_nodes_, stiffness_rule_.size()));
  weighted_n_.resize(num_nodes_, mass_rule_.size());
}

Status ElementKernel::Gradients(const MatX& x, const MatX& dn, int point, MatX& g,
                                double& det_j) const {
  return traits_->dim == 3 ? FixedGradients<3>(x, dn, point, g, det_j)
                           : FixedGradients<2>(x, dn, point, g, det_j);
}

Status ElementKernel::CheckShape(const MatX& x) {
  double det_j = 0.0;
  for (int q = 0; q < stiffness_rule_.size(); ++q) {
    if (Status status = Gradients(x, stiffness_dn_[q], q, g_, det_j); !status) return status;
  }
  return Status::Ok();
}

Status ElementKernel::Compute(const MatX& x, const ElasticMaterial& material, MatX* stiffness,
                              MatX* mass) {
  const int dim = traits_->dim;
  const bool plane = dim == 2;
  const double thickness = plane ? material.thickness : 1.0;
  double det_j = 0.0;
  if (stiffness != nullptr) {
    for (int q = 0; q < stiffness_rule_.size(); ++q) {
      Status status = Gradients(x, stiffness_dn_[q], q, g_, det_j);
      if (!status) return status;
      const double w = stiffness_rule_.weights(q) * det_j * thickness;
      for (int i = 0; i < dim; ++i) {
        gradient_columns_[i].col(q) = g_.col(i);
        weighted_columns_[i].col(q) = w * g_.col(i);
      }
    }
    // C_ij(a, b) = int g_a,i g_b,j dV, one product per component pair i <= j.
    const double lambda = material.Lambda(plane);
    const double mu = material.ShearModulus();
    const int n = num_nodes_;
    std::array<MatX, 9> c;
    for (int i = 0; i < dim; ++i) {
      for (int j = i; j < dim; ++j) {
        c[i * 3 + j].noalias() = weighted_columns_[i] * gradient_columns_[j].transpose();
      }
    }
    MatX trace = c[0] + c[4];
    if (dim == 3) trace += c[8];
    // Blocks a <= b, mirrored: the element matrix is symmetric to the bit (so are K and M).
    stiffness->resize(n * dim, n * dim);
    for (int b = 0; b < n; ++b) {
      for (int a = 0; a <= b; ++a) {
        for (int j = 0; j < dim; ++j) {
          for (int i = 0; i < dim; ++i) {
            // C_ij(a, b) and C_ji(a, b) = C_ij(b, a) from the stored i <= j products.
            const double cij = i <= j ? c[i * 3 + j](a, b) : c[j * 3 + i](b, a);
            const double cji = i <= j ? c[i * 3 + j](b, a) : c[j * 3 + i](a, b);
            double value = lambda * cij + mu * cji;
            if (i == j) value += mu * trace(a, b);
            (*stiffness)(a * dim + i, b * dim + j) = value;
            (*stiffness)(b * dim + j, a * dim + i) = value;
          }
        }
      }
    }
  }
  if (mass != nullptr) {
    for (int q = 0; q < mass_rule_.size(); ++q) {
      Status status = Gradients(x, mass_dn_[q], q, g_, det_j);
      if (!status) return status;
      weighted_n_.col(q) =
          mass_rule_.weights(q) * det_j * thickness * material.density * mass_n_.col(q);
    }
    const MatX scalar_mass = weighted_n_ * mass_n_.transpose();
    const int n = num_nodes_;
    mass->setZero(n * dim, n * dim);
    for (int b = 0; b < n; ++b) {
      for (int a = 0; a <= b; ++a) {
        for (int i = 0; i < dim; ++i) {
          (*mass)(a * dim + i, b * dim + i) = scalar_mass(a, b);
          (*mass)(b * dim + i, a * dim + i) = scalar_mass(a, b);
        }
      }
    }
  }
  return Status::Ok();
}

Status ElementKernel::Stress(const MatX& x, const VecX& u, const ElasticMaterial& material,
                             const double* xi, VecX& stress) {
  const int dim = traits_->dim;
  EvaluateShape(traits_->type, xi, shape_);
  double det_j = 0.0;
  Status status = Gradients(x, shape_.dn, 0, g_, det_j);
  if (!status) return status;
  // Displacement gradient H_ij = du_i / dx_j.
  MatX h = MatX::Zero(dim, dim);
  for (int a = 0; a < num_nodes_; ++a) h += u.segment(a * dim, dim) * g_.row(a);
  const MatX strain = 0.5 * (h + h.transpose());
  const bool plane = dim == 2;
  const double lambda = material.Lambda(plane);
  const double mu = material.ShearModulus();
  const MatX sigma = lambda * strain.trace() * MatX::Identity(dim, dim) + 2.0 * mu * strain;
  stress.resize(VoigtSize(dim));
  if (dim == 3) {
    stress << sigma(0, 0), sigma(1, 1), sigma(2, 2), sigma(1, 2), sigma(2, 0), sigma(0, 1);
  } else {
    stress << sigma(0, 0), sigma(1, 1), sigma(0, 1);
  }
  return Status::Ok();
}

}  // namespace jointdyn::fe
