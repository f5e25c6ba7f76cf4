#include "harmonic/harmonic_balance.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::harmonic {
namespace {

using solvers::CheckOption;
constexpr std::complex<double> kI(0.0, 1.0);

std::string Indexed(const std::string& name, std::size_t i) {
  return name + "[" + std::to_string(i) + "]";
}

void RequireShape(const MatX& m, int n, const std::string& key) {
  if (m.rows() != n || m.cols() != n)
    throw InputError(
        key, std::to_string(m.rows()) + " x " + std::to_string(m.cols()),
        "must be " + std::to_string(n) + " x " + std::to_string(n) + " like the mass matrix");
  if (!m.allFinite()) throw InputError(key, "a non-finite entry", "entries must be finite");
}

// Dense LU whose reciprocal condition estimate is above machine epsilon (the criterion of
// solvers::DenseLU); the caller names what was singular.
template <typename Matrix>
bool FactorRegular(const Matrix& a, Eigen::PartialPivLU<Matrix>& lu) {
  lu.compute(a);
  return lu.rcond() >= std::numeric_limits<double>::epsilon();
}

// The linear part is one block per harmonic: the static term (block 0 when the basis has
// it) and the cos/sin pairs.
int NumBlocks(const HarmonicBasis& basis) {
  return (basis.has_static() ? 1 : 0) + basis.num_pairs();
}
int BlockPair(const HarmonicBasis& basis, int block) {
  return block - (basis.has_static() ? 1 : 0);  // -1: the static block
}
int BlockHarmonic(const HarmonicBasis& basis, int block) {
  const int pair = BlockPair(basis, block);
  return pair < 0 ? 0 : basis.PairHarmonic(pair);
}
int BlockCoefficient(const HarmonicBasis& basis, int block) {  // first coefficient
  const int pair = BlockPair(basis, block);
  return pair < 0 ? 0 : basis.CosIndex(pair);
}

// D_k = K - k^2 omega^2 M + i k omega C.
MatXc DynamicStiffness(const HarmonicSystem& system, int k, double omega) {
  const double kw = k * omega;
  return (system.stiffness - kw * kw * system.mass).cast<std::complex<double>>() +
         kI * kw * system.damping;
}

}  // namespace

Status HarmonicOptions::Validate() const {
  if (Status status = basis.Validate(); !status) return status;
  return CheckOption(samples >= 2 * basis.harmonics + 1, "harmonic.samples", samples,
                     "must be >= 2 H + 1 = " + std::to_string(2 * basis.harmonics + 1));
}

int CoefficientLayout::Index(int dof, int c) const {
  const int s = basis.has_static() ? 1 : 0;
  if (s == 1 && c == 0) return dof;
  const int pair = (c - s) / 2;
  return s * dofs + 2 * dofs * pair + 2 * dof + (c - s) % 2;
}

HarmonicBalance::HarmonicBalance(HarmonicSystem system, const HarmonicOptions& options)
    : system_(std::move(system)), options_(options) {
  const Status status = options_.Validate();
  JD_CHECK(status.ok, "HarmonicBalance: invalid options: " + status.message);
  ValidateSystem();
  aft_ = std::make_unique<Aft>(options_.basis, options_.samples);
  const int n = num_dofs();
  std::vector<bool> nonlinear(n, !options_.condense);
  for (const NonlinearElement& element : system_.elements) {
    for (const std::vector<int>* dofs : {&element.dof_a, &element.dof_b}) {
      for (int dof : *dofs) {
        if (dof >= 0) nonlinear[dof] = true;
      }
    }
  }
  unknown_index_.assign(n, -1);
  for (int dof = 0; dof < n; ++dof) {
    if (nonlinear[dof]) {
      unknown_index_[dof] = static_cast<int>(unknown_dofs_.size());
      unknown_dofs_.push_back(dof);
    } else {
      linear_dofs_.push_back(dof);
    }
  }
  layout_ = {options_.basis, static_cast<int>(unknown_dofs_.size())};
}

void HarmonicBalance::ValidateSystem() const {
  const int n = num_dofs();
  if (n < 1 || system_.mass.cols() != n)
    throw InputError(
        "mass", std::to_string(system_.mass.rows()) + " x " + std::to_string(system_.mass.cols()),
        "must be a square matrix with at least one DOF");
  RequireShape(system_.mass, n, "mass");
  RequireShape(system_.damping, n, "damping");
  RequireShape(system_.stiffness, n, "stiffness");
  auto require_dof = [n](int dof, const std::string& key, bool ground_ok) {
    if (dof < (ground_ok ? -1 : 0) || dof >= n)
      throw InputError(key, std::to_string(dof),
                       std::string("must be a DOF index in [0, ") + std::to_string(n) + ")" +
                           (ground_ok ? " or -1 (ground)" : ""));
  };
  for (std::size_t i = 0; i < system_.excitation.size(); ++i) {
    const ExcitationTerm& term = system_.excitation[i];
    const std::string key = Indexed("excitation", i);
    require_dof(term.dof, key + ".dof", false);
    if (!options_.basis.Contains(term.harmonic))
      throw InputError(
          key + ".harmonic", std::to_string(term.harmonic),
          "must be a harmonic of the basis (H = " + std::to_string(options_.basis.harmonics) +
              (options_.basis.odd_only ? ", odd only)" : ", with the static term 0)"));
    if (!std::isfinite(term.cos_amplitude) || !std::isfinite(term.sin_amplitude))
      throw InputError(key, "a non-finite amplitude", "amplitudes must be finite");
  }
  for (std::size_t e = 0; e < system_.elements.size(); ++e) {
    const NonlinearElement& element = system_.elements[e];
    const std::string key = Indexed("elements", e);
    JD_CHECK(element.force != nullptr, "HarmonicBalance: element without a force");
    const auto inputs = static_cast<std::size_t>(element.force->num_inputs());
    if (element.dof_a.size() != inputs || element.dof_b.size() != inputs)
      throw InputError(
          key + ".dofs",
          std::to_string(element.dof_a.size()) + " / " + std::to_string(element.dof_b.size()),
          "need one DOF pair per force component (" + std::to_string(inputs) + ")");
    for (std::size_t i = 0; i < inputs; ++i) {
      require_dof(element.dof_a[i], Indexed(key + ".dof_a", i), true);
      require_dof(element.dof_b[i], Indexed(key + ".dof_b", i), true);
      if (element.dof_a[i] == element.dof_b[i])
        throw InputError(Indexed(key + ".dof_b", i), std::to_string(element.dof_b[i]),
                         "must differ from dof_a (and not both be ground)");
    }
  }
}

VecXc HarmonicBalance::ExcitationOf(int harmonic) const {
  VecXc f = VecXc::Zero(num_dofs());
  for (const ExcitationTerm& term : system_.excitation) {
    if (term.harmonic == harmonic) f(term.dof) += term.cos_amplitude - kI * term.sin_amplitude;
  }
  return f;
}

Status HarmonicBalance::UpdateBlocks(double omega) {
  if (omega == blocks_omega_) return Status::Ok();
  blocks_omega_ = -1.0;
  const HarmonicBasis& basis = options_.basis;
  blocks_.resize(NumBlocks(basis));
  const std::vector<int>& nn = unknown_dofs_;
  const std::vector<int>& ll = linear_dofs_;
  for (int bi = 0; bi < NumBlocks(basis); ++bi) {
    const int k = BlockHarmonic(basis, bi);
    const MatXc d = DynamicStiffness(system_, k, omega);
    const MatXc dd = (-2.0 * k * k * omega * system_.mass).cast<std::complex<double>>() +
                     kI * static_cast<double>(k) * system_.damping;
    const VecXc f = ExcitationOf(k);
    Block& block = blocks_[bi];
    block.harmonic = k;
    if (ll.empty()) {
      block.a = d(nn, nn);
      block.d_a = dd(nn, nn);
      block.b = f(nn);
      block.d_b = VecXc::Zero(static_cast<int>(nn.size()));
      continue;
    }
    Eigen::PartialPivLU<MatXc> lu;
    if (!FactorRegular(MatXc(d(ll, ll)), lu)) {
      return Status::Failure(
          "condensation: the dynamic stiffness of the linear DOFs is singular "
          "at harmonic " +
          std::to_string(k) + ", omega = " + FormatValue(omega) +
          " rad/s (a resonance or rigid-body mode of the linear part)");
    }
    block.y = lu.solve(d(ll, nn));
    block.w = lu.solve(f(ll));
    block.a = d(nn, nn) - d(nn, ll) * block.y;
    const MatXc d_y = lu.solve(dd(ll, nn) - dd(ll, ll) * block.y);
    block.d_a = dd(nn, nn) - dd(nn, ll) * block.y - d(nn, ll) * d_y;
    block.b = f(nn) - d(nn, ll) * block.w;
    const VecXc d_w = -lu.solve(dd(ll, ll) * block.w);
    block.d_b = -dd(nn, ll) * block.w - d(nn, ll) * d_w;
  }
  blocks_omega_ = omega;
  return Status::Ok();
}

void HarmonicBalance::AddLinear(const std::vector<Block>& blocks, const CoefficientLayout& layout,
                                const VecX& q, double level, VecX& residual, MatX* d_q,
                                VecX* d_omega, VecX* d_level) {
  const HarmonicBasis& basis = layout.basis;
  const int n = layout.dofs;
  for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
    const Block& block = blocks[bi];
    if (block.harmonic == 0) {  // static: real K over the c0 terms, the force not leveled
      const auto q0 = q.segment(0, n);
      residual.segment(0, n) += block.a.real() * q0 - block.b.real();
      if (d_q != nullptr) d_q->block(0, 0, n, n) += block.a.real();
      continue;  // K and the static force depend neither on omega nor on the level
    }
    const int offset = layout.Index(0, BlockCoefficient(basis, static_cast<int>(bi)));
    // The (cos, sin) pairs of the n DOFs are interleaved in [offset, offset + 2 n).
    using Strided = Eigen::Map<const VecX, 0, Eigen::InnerStride<2>>;
    const Strided qa(q.data() + offset, n), qb(q.data() + offset + 1, n);
    Eigen::Map<VecX, 0, Eigen::InnerStride<2>> ra(residual.data() + offset, n),
        rb(residual.data() + offset + 1, n);
    const MatX ar = block.a.real(), ai = block.a.imag();
    // Complex amplitudes Q = a - i b, B = f_c - i f_s: Re(A Q - B) is the cos equation and
    // -Im(A Q - B) the sin equation.
    ra += ar * qa + ai * qb - level * block.b.real();
    rb += -ai * qa + ar * qb + level * block.b.imag();
    if (d_q != nullptr) {
      for (int p = 0; p < n; ++p) {
        for (int s = 0; s < n; ++s) {
          (*d_q)(offset + 2 * p, offset + 2 * s) += ar(p, s);
          (*d_q)(offset + 2 * p, offset + 2 * s + 1) += ai(p, s);
          (*d_q)(offset + 2 * p + 1, offset + 2 * s) -= ai(p, s);
          (*d_q)(offset + 2 * p + 1, offset + 2 * s + 1) += ar(p, s);
        }
      }
    }
    if (d_omega != nullptr) {
      const MatX dr = block.d_a.real(), di = block.d_a.imag();
      Eigen::Map<VecX, 0, Eigen::InnerStride<2>> wa(d_omega->data() + offset, n),
          wb(d_omega->data() + offset + 1, n);
      wa += dr * qa + di * qb - level * block.d_b.real();
      wb += -di * qa + dr * qb + level * block.d_b.imag();
    }
    if (d_level != nullptr) {
      Eigen::Map<VecX, 0, Eigen::InnerStride<2>> la(d_level->data() + offset, n),
          lb(d_level->data() + offset + 1, n);
      la -= block.b.real();
      lb += block.b.imag();
    }
  }
}

Status HarmonicBalance::AddElements(const CoefficientLayout& layout,
                                    const std::vector<int>& index_of, const VecX& q, double omega,
                                    VecX& residual, MatX* d_q, VecX* d_omega) {
  const int nc = options_.basis.size();
  last_periods_ = 0;
  for (std::size_t e = 0; e < system_.elements.size(); ++e) {
    NonlinearElement& element = system_.elements[e];
    const int nin = element.force->num_inputs();
    // The two ends of component i in the layout (-1: ground) and their signs.
    auto end = [&](int i, int side) {
      const int dof = side == 0 ? element.dof_a[i] : element.dof_b[i];
      return dof < 0 ? -1 : index_of[dof];
    };
    x_.setZero(nc, nin);
    for (int i = 0; i < nin; ++i) {
      for (int side = 0; side < 2; ++side) {
        const int dof = end(i, side);
        if (dof < 0) continue;
        const double sign = side == 0 ? 1.0 : -1.0;
        for (int c = 0; c < nc; ++c) x_(c, i) += sign * q(layout.Index(dof, c));
      }
    }
    if (Status status =
            element.force->Evaluate(*aft_, omega, x_, f_, d_q ? &element_jacobian_ : nullptr,
                                    d_omega ? &element_d_omega_ : nullptr);
        !status) {
      return Status::Failure("element " + std::to_string(e) + ": " + status.message);
    }
    last_periods_ = std::max(last_periods_, element.force->last_periods());
    for (int i = 0; i < nin; ++i) {
      for (int side = 0; side < 2; ++side) {
        const int row_dof = end(i, side);
        if (row_dof < 0) continue;
        const double row_sign = side == 0 ? 1.0 : -1.0;
        for (int c = 0; c < nc; ++c) {
          const int row = layout.Index(row_dof, c);
          residual(row) += row_sign * f_(c, i);
          if (d_omega != nullptr) (*d_omega)(row) += row_sign * element_d_omega_(c, i);
          if (d_q == nullptr) continue;
          for (int k = 0; k < nin; ++k) {  // eq. 26-27: R^T J_r R
            for (int col_side = 0; col_side < 2; ++col_side) {
              const int col_dof = end(k, col_side);
              if (col_dof < 0) continue;
              const double sign = row_sign * (col_side == 0 ? 1.0 : -1.0);
              for (int c2 = 0; c2 < nc; ++c2) {
                (*d_q)(row, layout.Index(col_dof, c2)) +=
                    sign * element_jacobian_(i * nc + c, k * nc + c2);
              }
            }
          }
        }
      }
    }
  }
  return Status::Ok();
}

Status HarmonicBalance::Evaluate(const VecX& q, double omega, double level, VecX& residual,
                                 MatX* d_q, VecX* d_omega, VecX* d_level) {
  const int n = num_unknowns();
  JD_CHECK(q.size() == n, "HarmonicBalance::Evaluate: q must have num_unknowns() entries");
  if (!(omega > 0.0 && std::isfinite(omega))) {  // e.g. a continuation corrector ran past 0
    return Status::Failure("omega = " + FormatValue(omega) +
                           " rad/s: harmonic balance needs a positive, finite frequency");
  }
  if (Status status = UpdateBlocks(omega); !status) return status;
  residual.setZero(n);
  if (d_q != nullptr) d_q->setZero(n, n);
  if (d_omega != nullptr) d_omega->setZero(n);
  if (d_level != nullptr) d_level->setZero(n);
  AddLinear(blocks_, layout_, q, level, residual, d_q, d_omega, d_level);
  return AddElements(layout_, unknown_index_, q, omega, residual, d_q, d_omega);
}

Status HarmonicBalance::Recover(const VecX& q, double omega, double level, MatX& coefficients) {
  JD_CHECK(q.size() == num_unknowns(), "HarmonicBalance::Recover: q size");
  if (Status status = UpdateBlocks(omega); !status) return status;
  const HarmonicBasis& basis = options_.basis;
  const int nc = basis.size();
  coefficients.setZero(num_dofs(), nc);
  for (std::size_t i = 0; i < unknown_dofs_.size(); ++i) {
    for (int c = 0; c < nc; ++c) {
      coefficients(unknown_dofs_[i], c) = q(layout_.Index(static_cast<int>(i), c));
    }
  }
  if (linear_dofs_.empty()) return Status::Ok();
  const int nn = layout_.dofs;
  for (std::size_t bi = 0; bi < blocks_.size(); ++bi) {  // eq. 18
    const Block& block = blocks_[bi];
    const int c = BlockCoefficient(basis, static_cast<int>(bi));
    VecXc q_n(nn);
    for (int i = 0; i < nn; ++i) {
      q_n(i) = block.harmonic == 0
                   ? std::complex<double>(q(layout_.Index(i, 0)), 0.0)
                   : std::complex<double>(q(layout_.Index(i, c)), -q(layout_.Index(i, c + 1)));
    }
    const VecXc q_l = (block.harmonic == 0 ? 1.0 : level) * block.w - block.y * q_n;
    for (std::size_t l = 0; l < linear_dofs_.size(); ++l) {
      coefficients(linear_dofs_[l], c) = q_l(static_cast<int>(l)).real();
      if (block.harmonic != 0)
        coefficients(linear_dofs_[l], c + 1) = -q_l(static_cast<int>(l)).imag();
    }
  }
  return Status::Ok();
}

VecX HarmonicBalance::Restrict(const MatX& coefficients) const {
  JD_CHECK(coefficients.rows() == num_dofs() && coefficients.cols() == options_.basis.size(),
           "HarmonicBalance::Restrict: coefficient matrix shape");
  VecX q(num_unknowns());
  for (std::size_t i = 0; i < unknown_dofs_.size(); ++i) {
    for (int c = 0; c < options_.basis.size(); ++c) {
      q(layout_.Index(static_cast<int>(i), c)) = coefficients(unknown_dofs_[i], c);
    }
  }
  return q;
}

Status HarmonicBalance::LinearizedSolution(double omega, double level, VecX& q) {
  const int n = num_unknowns();
  VecX residual;
  MatX jacobian;
  if (Status status = Evaluate(VecX::Zero(n), omega, level, residual, &jacobian, nullptr, nullptr);
      !status) {
    return status;
  }
  q.setZero(n);
  if (n == 0) return Status::Ok();
  Eigen::PartialPivLU<MatX> lu;
  if (!FactorRegular(jacobian, lu)) {
    // The static terms come first (harmonic-major layout): a free structure has a singular
    // static stiffness whatever omega is.
    const int dofs = static_cast<int>(unknown_dofs_.size());
    Eigen::PartialPivLU<MatX> static_lu;
    if (options_.basis.has_static() &&
        !FactorRegular(MatX(jacobian.topLeftCorner(dofs, dofs)), static_lu)) {
      return Status::Failure(
          "the static (zeroth-harmonic) stiffness is singular: the structure is free or a "
          "mechanism; support it, or use odd harmonics only (harmonics.odd_only: true)");
    }
    return Status::Failure("the linearized harmonic-balance equations are singular at omega = " +
                           FormatValue(omega) + " rad/s (a resonance of the undamped system)");
  }
  q = lu.solve(-residual);
  return Status::Ok();
}

VecX HarmonicBalance::FullUnknowns(const MatX& coefficients) const {
  JD_CHECK(coefficients.rows() == num_dofs() && coefficients.cols() == options_.basis.size(),
           "HarmonicBalance: coefficient matrix shape");
  const CoefficientLayout full{options_.basis, num_dofs()};
  VecX q(full.size());
  for (int dof = 0; dof < num_dofs(); ++dof) {
    for (int c = 0; c < options_.basis.size(); ++c) q(full.Index(dof, c)) = coefficients(dof, c);
  }
  return q;
}

Status HarmonicBalance::FullJacobian(const MatX& coefficients, double omega, MatX& jacobian) {
  const int n = num_dofs();
  const CoefficientLayout full{options_.basis, n};
  const VecX q = FullUnknowns(coefficients);
  // The uncondensed dynamic stiffness per harmonic.
  std::vector<Block> blocks(NumBlocks(options_.basis));
  for (int bi = 0; bi < NumBlocks(options_.basis); ++bi) {
    blocks[bi].harmonic = BlockHarmonic(options_.basis, bi);
    blocks[bi].a = DynamicStiffness(system_, blocks[bi].harmonic, omega);
    blocks[bi].b = VecXc::Zero(n);
  }
  VecX residual = VecX::Zero(full.size());
  jacobian.setZero(full.size(), full.size());
  AddLinear(blocks, full, q, 0.0, residual, &jacobian, nullptr, nullptr);
  std::vector<int> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  return AddElements(full, identity, q, omega, residual, &jacobian, nullptr);
}

Status HarmonicBalance::FullRateJacobian(const MatX& coefficients, double omega,
                                         MatX& rate_jacobian) {
  const CoefficientLayout full{options_.basis, num_dofs()};
  const int nc = options_.basis.size();
  const VecX q = FullUnknowns(coefficients);
  rate_jacobian.setZero(full.size(), full.size());
  for (std::size_t e = 0; e < system_.elements.size(); ++e) {
    NonlinearElement& element = system_.elements[e];
    if (!element.force->has_rate_jacobian()) continue;
    // x = G q over all DOFs' coefficients; the element's matrix enters as G^T R G.
    const int nin = element.force->num_inputs();
    MatX gather = MatX::Zero(nc * nin, full.size());
    for (int i = 0; i < nin; ++i) {
      for (int c = 0; c < nc; ++c) {
        if (element.dof_a[i] >= 0) gather(i * nc + c, full.Index(element.dof_a[i], c)) += 1.0;
        if (element.dof_b[i] >= 0) gather(i * nc + c, full.Index(element.dof_b[i], c)) -= 1.0;
      }
    }
    const VecX x = gather * q;
    MatX element_rate;
    if (Status status =
            element.force->RateJacobian(*aft_, omega, x.reshaped(nc, nin), element_rate);
        !status) {
      return Status::Failure("element " + std::to_string(e) + ": " + status.message);
    }
    rate_jacobian.noalias() += gather.transpose() * element_rate * gather;
  }
  return Status::Ok();
}

}  // namespace jointdyn::harmonic
