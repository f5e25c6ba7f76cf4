#include "harmonic/harmonic_balance.h"

#include <Eigen/LU>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::harmonic {
namespace {

using solvers::CheckOption;
using solvers::SparseMatrix;
using SparseMatrixXc = Eigen::SparseMatrix<std::complex<double>>;
constexpr std::complex<double> kI(0.0, 1.0);

std::string Indexed(const std::string& name, std::size_t i) {
  return name + "[" + std::to_string(i) + "]";
}

void RequireShape(const SparseMatrix& m, int n, const std::string& key) {
  if (m.rows() != n || m.cols() != n)
    throw InputError(
        key, std::to_string(m.rows()) + " x " + std::to_string(m.cols()),
        "must be " + std::to_string(n) + " x " + std::to_string(n) + " like the mass matrix");
  if (!Eigen::Map<const VecX>(m.valuePtr(), m.nonZeros()).allFinite())
    throw InputError(key, "a non-finite entry", "entries must be finite");
}

bool Symmetric(const SparseMatrix& m) { return (m - SparseMatrix(m.transpose())).norm() == 0.0; }

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

// D_k = K - k^2 omega^2 M + i k omega C, dense (the uncondensed Jacobian).
MatXc DynamicStiffness(const HarmonicSystem& system, int k, double omega) {
  const double kw = k * omega;
  return MatX(system.stiffness - kw * kw * system.mass).cast<std::complex<double>>() +
         kI * kw * MatX(system.damping);
}

// K, M and C over one block of rows and columns with one pattern (the union of the
// three), so that s_k K + s_m M + i s_c C is formed value by value.
struct SplitMatrices {
  SparseMatrix k, m, c;
  SparseMatrixXc pattern;  // the common pattern (zeros)
};

// The block of K, M, C over the DOFs with row_of[dof] >= 0 (row index) and col_of[dof] >= 0.
SplitMatrices Split(const HarmonicSystem& system, const std::vector<int>& row_of, int rows,
                    const std::vector<int>& col_of, int cols) {
  using Triplets = std::vector<Eigen::Triplet<double>>;
  Triplets zeros, entries[3];
  const SparseMatrix* matrices[3] = {&system.stiffness, &system.mass, &system.damping};
  for (int which = 0; which < 3; ++which) {
    const SparseMatrix& a = *matrices[which];
    for (int col = 0; col < a.outerSize(); ++col) {
      for (SparseMatrix::InnerIterator it(a, col); it; ++it) {
        const int r = row_of[it.row()], c = col_of[it.col()];
        if (r < 0 || c < 0) continue;
        zeros.emplace_back(r, c, 0.0);
        entries[which].emplace_back(r, c, it.value());
      }
    }
  }
  SplitMatrices split;
  SparseMatrix* outputs[3] = {&split.k, &split.m, &split.c};
  for (int which = 0; which < 3; ++which) {
    Triplets all = zeros;
    all.insert(all.end(), entries[which].begin(), entries[which].end());
    outputs[which]->resize(rows, cols);
    outputs[which]->setFromTriplets(all.begin(), all.end());  // keeps the explicit zeros
  }
  split.pattern = split.k.cast<std::complex<double>>();
  return split;
}

// s_k K + s_m M + i s_c C on the common pattern of `split`.
void Combine(const SplitMatrices& split, double s_k, double s_m, double s_c, SparseMatrixXc& out) {
  // The workspace takes the pattern on first use: its shape too, also when it has no entries
  // (no nonlinear DOFs: D_LN is L x 0, and a 0 x 0 workspace failed Eigen's size asserts).
  if (out.rows() != split.pattern.rows() || out.cols() != split.pattern.cols() ||
      out.nonZeros() != split.pattern.nonZeros())
    out = split.pattern;
  const double *k = split.k.valuePtr(), *m = split.m.valuePtr(), *c = split.c.valuePtr();
  std::complex<double>* value = out.valuePtr();
  for (Eigen::Index i = 0; i < out.nonZeros(); ++i)
    value[i] = {s_k * k[i] + s_m * m[i], s_c * c[i]};
}

// SparseLU as Eigen's 1-norm condition estimator wants it (dense work vectors; solve and
// adjoint().solve() const).
struct ConditionView {
  using MatrixType = MatXc;
  using Scalar = std::complex<double>;
  using RealScalar = double;
  Eigen::SparseLU<SparseMatrixXc>* lu;
  Eigen::Index rows() const { return lu->rows(); }
  Eigen::Index cols() const { return lu->cols(); }
  VecXc solve(const VecXc& b) const { return lu->solve(b); }
  struct Adjoint {
    Eigen::SparseLU<SparseMatrixXc>* lu;
    VecXc solve(const VecXc& b) const { return lu->adjoint().solve(b); }
  };
  Adjoint adjoint() const { return {lu}; }
};

double NormL1(const SparseMatrixXc& a) {  // largest column sum of |a_ij|
  double norm = 0.0;
  for (int col = 0; col < a.outerSize(); ++col) {
    double sum = 0.0;
    for (SparseMatrixXc::InnerIterator it(a, col); it; ++it) sum += std::abs(it.value());
    norm = std::max(norm, sum);
  }
  return norm;
}

}  // namespace

Status CheckDenseSize(int dofs, const HarmonicBasis& basis, const std::string& purpose) {
  const long long size = static_cast<long long>(dofs) * basis.size();
  if (size <= kMaxDenseUnknowns) return Status::Ok();
  return Status::Failure(purpose + " needs dense matrices over " + std::to_string(dofs) +
                         " DOFs x " + std::to_string(basis.size()) +
                         " coefficients = " + std::to_string(size) + " unknowns, more than the " +
                         std::to_string(kMaxDenseUnknowns) + " it is meant for");
}

// The linear part per harmonic over the unknowns' DOFs N (dense) and the eliminated DOFs
// L (sparse, one pattern for K, M, C), and the sparse LU of D_LL: the pattern is analysed
// at the first factorization, the same for every harmonic and omega.
class HarmonicBalance::LinearPart {
 public:
  LinearPart(const HarmonicSystem& system, const std::vector<int>& nn, const std::vector<int>& ll)
      : nn_(nn), ll_(ll) {
    const int n = static_cast<int>(system.mass.rows());
    std::vector<int> n_of(n, -1), l_of(n, -1);
    for (std::size_t i = 0; i < nn.size(); ++i) n_of[nn[i]] = static_cast<int>(i);
    for (std::size_t i = 0; i < ll.size(); ++i) l_of[ll[i]] = static_cast<int>(i);
    const int num_n = static_cast<int>(nn.size()), num_l = static_cast<int>(ll.size());
    const SplitMatrices split_nn = Split(system, n_of, num_n, n_of, num_n);
    k_nn_ = MatX(split_nn.k);
    m_nn_ = MatX(split_nn.m);
    c_nn_ = MatX(split_nn.c);
    if (ll.empty()) return;
    ll_split_ = Split(system, l_of, num_l, l_of, num_l);
    ln_ = Split(system, l_of, num_l, n_of, num_n);
    nl_ = Split(system, n_of, num_n, l_of, num_l);
    symmetric_ = Symmetric(system.stiffness) && Symmetric(system.mass) && Symmetric(system.damping);
  }

  // The block of harmonic k at omega for the excitation f (all DOFs, level 1).
  Status Update(int k, double omega, const VecXc& f, Block& block) {
    const double kw = k * omega;
    block.harmonic = k;
    block.a = (k_nn_ - kw * kw * m_nn_).cast<std::complex<double>>() + kI * kw * c_nn_;
    block.d_nn =
        (-2.0 * k * kw * m_nn_).cast<std::complex<double>>() + kI * static_cast<double>(k) * c_nn_;
    block.b = f(nn_);
    if (ll_.empty()) {
      block.d_b = VecXc::Zero(block.b.size());
      return Status::Ok();
    }
    Combine(ll_split_, 1.0, -kw * kw, kw, d_ll_);
    if (!analyzed_) lu_.analyzePattern(d_ll_);
    analyzed_ = true;
    lu_.factorize(d_ll_);
    // The criterion of solvers::DenseLU: a reciprocal condition estimate (1-norm) above
    // machine epsilon.
    if (lu_.info() != Eigen::Success ||
        !(Eigen::internal::rcond_estimate_helper(NormL1(d_ll_), ConditionView{&lu_}) >=
          std::numeric_limits<double>::epsilon())) {
      return Status::Failure(
          "condensation: the dynamic stiffness of the linear DOFs is singular "
          "at harmonic " +
          std::to_string(k) + ", omega = " + FormatValue(omega) +
          " rad/s (a resonance or rigid-body mode of the linear part)");
    }
    Combine(ln_, 1.0, -kw * kw, kw, d_ln_);
    Combine(nl_, 1.0, -kw * kw, kw, d_nl_);
    Combine(ll_split_, 0.0, -2.0 * k * kw, k, block.d_ll);
    Combine(ln_, 0.0, -2.0 * k * kw, k, block.d_ln);
    Combine(nl_, 0.0, -2.0 * k * kw, k, block.d_nl);
    // Y = D_LL^-1 D_LN, W = D_LL^-1 F_L, and Z = D_LL^-T D_NL^T (Y for symmetric
    // matrices), so that D_NL D_LL^-1 = Z^T in d(F_bar)/dw = -dD_NL W + Z^T dD_LL W (and
    // in Block::DerivativeTimes).
    // SparseLU's solve fails Eigen's asserts for no right-hand sides (no nonlinear DOFs).
    const auto solve = [](const auto& lu, const MatXc& rhs) {
      return rhs.cols() == 0 ? rhs : MatXc(lu.solve(rhs));
    };
    block.y = solve(lu_, MatXc(d_ln_));
    block.w = lu_.solve(VecXc(f(ll_)));
    if (symmetric_) {
      block.z.resize(0, 0);
    } else {
      block.z = solve(lu_.transpose(), MatXc(d_nl_.transpose()));
    }
    const MatXc& z = symmetric_ ? block.y : block.z;
    block.a -= d_nl_ * block.y;
    block.b -= d_nl_ * block.w;
    block.d_b = z.transpose() * (block.d_ll * block.w) - block.d_nl * block.w;
    return Status::Ok();
  }

 private:
  std::vector<int> nn_, ll_;
  MatX k_nn_, m_nn_, c_nn_;
  SplitMatrices ll_split_, ln_, nl_;
  bool symmetric_ = true;
  SparseMatrixXc d_ll_, d_ln_, d_nl_;  // workspace
  Eigen::SparseLU<SparseMatrixXc> lu_;
  bool analyzed_ = false;
};

VecXc HarmonicBalance::Block::DerivativeTimes(const VecXc& q) const {
  if (y.size() == 0) return d_nn * q;
  const VecXc yq = y * q;
  const VecXc inner = d_ln * q - d_ll * yq;
  return d_nn * q - d_nl * yq - (z.size() > 0 ? z : y).transpose() * inner;
}

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
  for (SparseMatrix* m : {&system_.mass, &system_.damping, &system_.stiffness}) m->makeCompressed();
  ValidateSystem();
  aft_ = std::make_unique<Aft>(options_.basis, options_.samples);
  const int n = num_dofs();
  GroupElements();
  std::vector<bool> nonlinear(n, !options_.condense);
  for (const ElementGroup& group : groups_)
    for (int dof : group.dofs) nonlinear[dof] = true;
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
  if (Status size = CheckDenseSize(
          layout_.dofs, options_.basis,
          options_.condense ? "the condensed Newton Jacobian" : "solving without condensation");
      !size) {
    if (options_.condense)
      throw InputError("elements", std::to_string(layout_.dofs) + " nonlinear DOFs",
                       size.message + ": fewer nonlinear DOFs or harmonics");
    throw InputError("harmonic.condense", "false", size.message + ": condense (true)");
  }
  linear_part_ = std::make_unique<LinearPart>(system_, unknown_dofs_, linear_dofs_);
}

HarmonicBalance::~HarmonicBalance() = default;

void HarmonicBalance::ValidateSystem() const {
  const int n = num_dofs();
  if (n < 1 || system_.mass.cols() != n)
    throw InputError(
        "mass", std::to_string(system_.mass.rows()) + " x " + std::to_string(system_.mass.cols()),
        "must be a square matrix with at least one DOF");
  RequireShape(system_.mass, n, "mass");
  RequireShape(system_.damping, n, "damping");
  RequireShape(system_.stiffness, n, "stiffness");
  if (system_.rest.size() != 0 && (system_.rest.size() != n || !system_.rest.allFinite()))
    throw InputError("rest", std::to_string(system_.rest.size()) + " entries",
                     "must be empty or " + std::to_string(n) + " finite displacements");
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
    if (element.terms.size() != inputs)
      throw InputError(key + ".terms", std::to_string(element.terms.size()) + " components",
                       "need one linear combination of DOFs per force component (" +
                           std::to_string(inputs) + ")");
    for (std::size_t i = 0; i < inputs; ++i) {
      const std::string component = Indexed(key + ".terms", i);
      std::vector<int> dofs;
      for (const DofWeight& term : element.terms[i]) {
        require_dof(term.dof, component + ".dof", false);
        if (!std::isfinite(term.weight))
          throw InputError(component + ".weight", FormatValue(term.weight), "must be finite");
        dofs.push_back(term.dof);
      }
      std::sort(dofs.begin(), dofs.end());
      const auto twice = std::adjacent_find(dofs.begin(), dofs.end());
      if (dofs.empty() || twice != dofs.end())
        throw InputError(component,
                         dofs.empty() ? "no DOF" : "DOF " + std::to_string(*twice) + " twice",
                         "must act on at least one DOF, each DOF once (not both ends of an "
                         "element on one DOF, not both on ground)");
    }
  }
}

void HarmonicBalance::GroupElements() {
  std::map<std::vector<int>, std::size_t> group_of;
  for (std::size_t e = 0; e < system_.elements.size(); ++e) {
    const NonlinearElement& element = system_.elements[e];
    std::vector<int> dofs;
    for (const std::vector<DofWeight>& component : element.terms)
      for (const DofWeight& term : component) dofs.push_back(term.dof);
    std::sort(dofs.begin(), dofs.end());
    dofs.erase(std::unique(dofs.begin(), dofs.end()), dofs.end());
    const auto [it, added] = group_of.try_emplace(dofs, groups_.size());
    if (added) groups_.push_back({dofs, {}, {}, MatX()});
    ElementGroup& group = groups_[it->second];
    const auto rows = static_cast<int>(group.gather.rows());
    const auto inputs = static_cast<int>(element.terms.size());
    group.elements.push_back(static_cast<int>(e));
    group.offsets.push_back(rows);
    group.gather.conservativeResize(rows + inputs, static_cast<Eigen::Index>(group.dofs.size()));
    group.gather.bottomRows(inputs).setZero();
    for (int i = 0; i < inputs; ++i)
      for (const DofWeight& term : element.terms[i]) {
        const auto col =
            std::lower_bound(group.dofs.begin(), group.dofs.end(), term.dof) - group.dofs.begin();
        group.gather(rows + i, col) += term.weight;
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
  for (int bi = 0; bi < NumBlocks(basis); ++bi) {
    const int k = BlockHarmonic(basis, bi);
    if (k == 0 && static_block_ready_) continue;  // K and the static force: no omega
    if (Status status = linear_part_->Update(k, omega, ExcitationOf(k), blocks_[bi]); !status)
      return status;
    static_block_ready_ = static_block_ready_ || k == 0;
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
      // Re and -Im of dA/domega Q - level db/domega, Q = a - i b.
      const VecXc dq = block.DerivativeTimes(qa.cast<std::complex<double>>() - kI * qb);
      Eigen::Map<VecX, 0, Eigen::InnerStride<2>> wa(d_omega->data() + offset, n),
          wb(d_omega->data() + offset + 1, n);
      wa += dq.real() - level * block.d_b.real();
      wb += -dq.imag() + level * block.d_b.imag();
    }
    if (d_level != nullptr) {
      Eigen::Map<VecX, 0, Eigen::InnerStride<2>> la(d_level->data() + offset, n),
          lb(d_level->data() + offset + 1, n);
      la -= block.b.real();
      lb += block.b.imag();
    }
  }
}

void HarmonicBalance::AddGroupMatrices(const ElementGroup& group, const CoefficientLayout& layout,
                                       const std::vector<int>& index_of, MatX& target) {
  const int nc = options_.basis.size();
  const auto m = static_cast<Eigen::Index>(group.dofs.size());
  const Eigen::Index rows = group.gather.rows();
  // Per row coefficient c: product_ = blockdiag(J_e(c, :)) (G (x) I) with the columns
  // ordered (c2, dof), then mapped_ = G^T product_ (m x nc m).
  product_.resize(rows, nc * m);
  for (int c = 0; c < nc; ++c) {
    for (std::size_t k = 0; k < group.elements.size(); ++k) {
      const MatX& jacobian = element_matrices_[k];
      const int nin = static_cast<int>(jacobian.rows()) / nc;
      const auto g = group.gather.middleRows(group.offsets[k], nin);
      for (int c2 = 0; c2 < nc; ++c2) {
        // J_e rows (i, c), columns (k, c2): index component * nc + coefficient.
        sub_ = jacobian(Eigen::seqN(c, nin, nc), Eigen::seqN(c2, nin, nc));
        product_.block(group.offsets[k], c2 * m, nin, m).noalias() = sub_ * g;
      }
    }
    mapped_.noalias() = group.gather.transpose() * product_;
    for (Eigen::Index j = 0; j < m; ++j) {
      const int row = layout.Index(index_of[group.dofs[j]], c);
      for (int c2 = 0; c2 < nc; ++c2)
        for (Eigen::Index l = 0; l < m; ++l)
          target(row, layout.Index(index_of[group.dofs[l]], c2)) += mapped_(j, c2 * m + l);
    }
  }
}

Status HarmonicBalance::AddElements(const CoefficientLayout& layout,
                                    const std::vector<int>& index_of, const VecX& q, double omega,
                                    VecX& residual, MatX* d_q, VecX* d_omega) {
  const int nc = options_.basis.size();
  last_periods_ = 0;
  for (const ElementGroup& group : groups_) {
    const auto m = static_cast<Eigen::Index>(group.dofs.size());
    // The group's DOFs' coefficients (m x nc), their relative displacements (rows x nc).
    MatX q_group(m, nc);
    for (Eigen::Index j = 0; j < m; ++j)
      for (int c = 0; c < nc; ++c) q_group(j, c) = q(layout.Index(index_of[group.dofs[j]], c));
    relative_.noalias() = group.gather * q_group;
    forces_.setZero(group.gather.rows(), nc);
    MatX d_omega_forces = MatX::Zero(group.gather.rows(), d_omega ? nc : 0);
    element_matrices_.resize(group.elements.size());
    for (std::size_t k = 0; k < group.elements.size(); ++k) {
      NonlinearElement& element = system_.elements[group.elements[k]];
      const int nin = element.force->num_inputs();
      x_ = relative_.middleRows(group.offsets[k], nin).transpose();
      if (Status status =
              element.force->Evaluate(*aft_, omega, x_, f_, d_q ? &element_matrices_[k] : nullptr,
                                      d_omega ? &element_d_omega_ : nullptr);
          !status) {
        return Status::Failure("element " + std::to_string(group.elements[k]) + ": " +
                               status.message);
      }
      last_periods_ = std::max(last_periods_, element.force->last_periods());
      forces_.middleRows(group.offsets[k], nin) = f_.transpose();
      if (d_omega) d_omega_forces.middleRows(group.offsets[k], nin) = element_d_omega_.transpose();
    }
    // eq. 26-27: the forces on the DOFs are G^T f, the Jacobian (G (x) I)^T J_r (G (x) I).
    const MatX on_dofs = group.gather.transpose() * forces_;
    const MatX d_omega_on_dofs = group.gather.transpose() * d_omega_forces;
    for (Eigen::Index j = 0; j < m; ++j)
      for (int c = 0; c < nc; ++c) {
        const int row = layout.Index(index_of[group.dofs[j]], c);
        residual(row) += on_dofs(j, c);
        if (d_omega) (*d_omega)(row) += d_omega_on_dofs(j, c);
      }
    if (d_q) AddGroupMatrices(group, layout, index_of, *d_q);
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
  // At rest: the static coefficients at the rest state (when the basis has them).
  const VecX rest = RestUnknowns();
  VecX residual;
  MatX jacobian;
  if (Status status = Evaluate(rest, omega, level, residual, &jacobian, nullptr, nullptr); !status)
    return status;
  q = rest;
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
  q += lu.solve(-residual);
  return Status::Ok();
}

VecX HarmonicBalance::RestUnknowns() const {
  VecX q = VecX::Zero(num_unknowns());
  if (system_.rest.size() == 0 || !options_.basis.has_static()) return q;
  for (std::size_t i = 0; i < unknown_dofs_.size(); ++i)
    q(layout_.Index(static_cast<int>(i), 0)) = system_.rest(unknown_dofs_[i]);
  return q;
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
  if (Status size = CheckDenseSize(n, options_.basis, "the Jacobian over all DOFs"); !size)
    return size;
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
  if (Status size = CheckDenseSize(num_dofs(), options_.basis, "the rate Jacobian over all DOFs");
      !size)
    return size;
  const CoefficientLayout full{options_.basis, num_dofs()};
  const int nc = options_.basis.size();
  std::vector<int> identity(num_dofs());
  std::iota(identity.begin(), identity.end(), 0);
  rate_jacobian.setZero(full.size(), full.size());
  for (const ElementGroup& group : groups_) {
    const auto m = static_cast<Eigen::Index>(group.dofs.size());
    MatX q_group(m, nc);
    for (Eigen::Index j = 0; j < m; ++j) q_group.row(j) = coefficients.row(group.dofs[j]);
    relative_.noalias() = group.gather * q_group;
    element_matrices_.resize(group.elements.size());
    for (std::size_t k = 0; k < group.elements.size(); ++k) {
      NonlinearElement& element = system_.elements[group.elements[k]];
      const int nin = element.force->num_inputs();
      if (!element.force->has_rate_jacobian()) {
        element_matrices_[k].setZero(nc * nin, nc * nin);
        continue;
      }
      x_ = relative_.middleRows(group.offsets[k], nin).transpose();
      if (Status status = element.force->RateJacobian(*aft_, omega, x_, element_matrices_[k]);
          !status)
        return Status::Failure("element " + std::to_string(group.elements[k]) + ": " +
                               status.message);
    }
    AddGroupMatrices(group, full, identity, rate_jacobian);
  }
  return Status::Ok();
}

NonlinearElement Between(std::unique_ptr<NonlinearForce> force, const std::vector<int>& dof_a,
                         const std::vector<int>& dof_b) {
  JD_CHECK(dof_a.size() == dof_b.size(), "Between: one dof_b per dof_a");
  NonlinearElement element{std::move(force), {}};
  for (std::size_t i = 0; i < dof_a.size(); ++i) {
    std::vector<DofWeight>& component = element.terms.emplace_back();
    if (dof_a[i] >= 0) component.push_back({dof_a[i], 1.0});
    if (dof_b[i] >= 0) component.push_back({dof_b[i], -1.0});
  }
  return element;
}

}  // namespace jointdyn::harmonic
