// Import and export of assembled models: M and K in Matrix Market coordinate format, node
// coordinates and node sets in plain-text companion files (for models built in commercial
// FE codes, and to hand jointdyn's matrices to other tools).
//
// Matrix Market (math.nist.gov/MatrixMarket/formats.html): a banner line
//   %%MatrixMarket matrix coordinate real|integer|double general|symmetric
// then comment lines starting with %, a size line "rows cols entries", and one entry
// "row col value" per line (1-based indices). A symmetric file holds the lower triangle
// (row >= col) only. Reading is strict: every rule broken is an InputError naming the file,
// the line and the rule (entries out of range, repeated, or above the diagonal of a
// symmetric file; non-finite values; too few or too many entries). Blank lines are allowed.
// Writing uses the shortest decimal form that reads back to the same double
// (std::to_chars), so a round trip is exact to the bit.
//
// Node file (<prefix>_nodes.txt): lines starting with % or # are comments; the first other
// line is "nodes dofs_per_node" (dofs_per_node 2: plane model, 3: solid); then one line
// "x y z" per node [m] (z = 0 in a plane model). Node i (1-based in the file, i - 1 in
// memory) owns the matrix rows (i - 1) * dofs_per_node + component (+1 in the .mtx file).
//
// Node-set file (<prefix>_sets.txt): comments as above; each set is a line "name count"
// followed by `count` 1-based node numbers, whitespace-separated over any number of lines.
// Names are unique, nodes within a set unique and in range.
#pragma once

#include <string>

#include "fe/mesh.h"
#include "solvers/residual_model.h"

namespace jointdyn::fe {

enum class MatrixSymmetry {
  kGeneral,    // every stored entry
  kSymmetric,  // lower triangle only; the matrix must be exactly symmetric
};

// Writes `matrix`; kSymmetric requires an exactly symmetric matrix (InternalError
// otherwise), atomically (core/atomic_file.h). Throws IoError when the file cannot be written.
void WriteMatrixMarket(const std::string& path, const solvers::SparseMatrix& matrix,
                       MatrixSymmetry symmetry);
// Reads a real coordinate matrix (a symmetric file is expanded to both triangles).
solvers::SparseMatrix ReadMatrixMarket(const std::string& path);

// An assembled model: M, K and the nodes with their sets. The mesh has no element blocks
// (mesh.dim is the DOFs per node: 2 or 3).
struct MatrixModel {
  Mesh mesh;
  solvers::SparseMatrix stiffness;  // K [N/m]
  solvers::SparseMatrix mass;       // M [kg]
};

// Writes <prefix>_K.mtx, <prefix>_M.mtx (symmetric), <prefix>_nodes.txt, <prefix>_sets.txt.
void WriteMatrixModel(const std::string& prefix, const MatrixModel& model);
// The paths of the four files of a model.
struct MatrixModelFiles {
  std::string stiffness, mass, nodes;
  std::string sets;                                               // empty: no node sets
  static MatrixModelFiles FromPrefix(const std::string& prefix);  // <prefix>_K.mtx, ...
};

// Reads the four files; besides each file's rules, K and M must be square with
// nodes * dofs_per_node rows, and symmetric.
MatrixModel ReadMatrixModel(const std::string& prefix);
MatrixModel ReadMatrixModel(const MatrixModelFiles& files);

}  // namespace jointdyn::fe
