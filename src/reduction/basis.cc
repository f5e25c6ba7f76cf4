#include "reduction/basis.h"

#include "core/error.h"

namespace jointdyn::reduction {

const char* Name(VectorKind kind) {
  switch (kind) {
    case VectorKind::kFixedInterfaceMode:
      return "fixed-interface mode";
    case VectorKind::kConstraintMode:
      return "constraint mode";
    case VectorKind::kFreeFreeMode:
      return "free-free mode";
    case VectorKind::kJointMode:
      return "joint mode";
    case VectorKind::kPreloadMode:
      return "preload mode";
    case VectorKind::kUnitDof:
      return "unit DOF";
  }
  return "?";
}

int ReductionBasis::Count(VectorKind kind) const {
  int count = 0;
  for (const BasisColumn& column : columns) count += column.kind == kind;
  return count;
}

void ReductionBasis::Append(const MatX& more, VectorKind kind,
                            const std::vector<std::string>& names) {
  JD_CHECK(static_cast<int>(names.size()) == more.cols(), "ReductionBasis::Append: one name each");
  JD_CHECK(size() == 0 || more.rows() == num_dofs(), "ReductionBasis::Append: row count");
  if (more.cols() == 0) return;
  if (size() == 0) {
    vectors = more;  // (joining a 0 x 0 matrix with an n-row one trips Eigen's assertion)
  } else {
    MatX joined(more.rows(), size() + more.cols());
    joined << vectors, more;
    vectors = std::move(joined);
  }
  for (const std::string& name : names) columns.push_back({kind, name});
}

MatX Project(const MatX& v, const solvers::SparseMatrix& a) {
  JD_CHECK(a.rows() == v.rows() && a.cols() == v.rows(), "Project: A must be n x n for V n x m");
  const MatX av = a * v;
  MatX reduced = v.transpose() * av;
  return 0.5 * (reduced + reduced.transpose());
}

std::string Describe(const ReductionBasis& basis) {
  std::string text = std::to_string(basis.size()) + " vectors";
  const auto& columns = basis.columns;
  for (std::size_t begin = 0; begin < columns.size();) {
    std::size_t end = begin + 1;
    while (end < columns.size() && columns[end].kind == columns[begin].kind) ++end;
    const std::size_t count = end - begin;
    const bool many = count > 1;
    text.append(begin == 0 ? ": " : ", ").append(std::to_string(count)).append(" ");
    text.append(Name(columns[begin].kind)).append(many ? "s (columns " : " (column ");
    text.append(std::to_string(begin + 1));
    if (many) text.append("-").append(std::to_string(end));
    text.append(": ").append(columns[begin].name);
    if (many) text.append(" .. ").append(columns[end - 1].name);
    text.append(")");
    begin = end;
  }
  return text;
}

}  // namespace jointdyn::reduction
