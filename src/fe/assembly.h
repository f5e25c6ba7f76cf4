// Assembly of the sparse stiffness and mass matrices of a mesh: the one loop over blocks
// and elements (ARCHITECTURE.md: law/element kernel -> assembler).
//
// Global DOF numbering: node * dim + component (dim = mesh.dim: x, y, z for solids; x, y
// for plane stress). The sparsity pattern is built once from the node adjacency of the
// elements (no triplet list, so memory stays at the size of the result); element matrices
// are added in place. Both triangles of the symmetric matrices are stored.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "fe/material.h"
#include "fe/mesh.h"
#include "solvers/residual_model.h"

namespace jointdyn::fe {

struct AssemblyOptions {
  bool stiffness = true;  // assemble K
  bool mass = true;       // assemble M (its pattern holds no coupling between components)
};

struct AssemblyResult {
  solvers::SparseMatrix stiffness;  // K [N/m] (empty when not requested)
  solvers::SparseMatrix mass;       // M [kg] (empty when not requested)
  int num_dofs = 0;                 // num_nodes * dim
  int num_elements = 0;
  int unconnected_nodes = 0;     // nodes of no element: their rows of K and M are empty
  double pattern_seconds = 0.0;  // wall time of the sparsity pattern [s]
  double element_seconds = 0.0;  // wall time of the element kernels and scatter [s]
};

// Assembles K and M with `materials[block.name]` for each block. Throws InputError for a
// block without a material or whose element type is not a continuum element of the mesh
// dimension, for an invalid material ("materials.<block>.<parameter>"), and for an
// inverted or degenerate element, naming the block, the element and its nodes (in the
// mesh file's numbering, mesh.h). The mesh must be valid (Mesh::Validate).
AssemblyResult Assemble(const Mesh& mesh, const std::map<std::string, ElasticMaterial>& materials,
                        const AssemblyOptions& options = {});

// An element that cannot be integrated: the block and element indices and why.
struct DegenerateElement {
  int block = -1, element = -1;
  std::string reason;  // "node 5 appears twice", "nodes 5 and 9 coincide ...", "inverted ..."
};

// The first element of the mesh (in block order) with a repeated or two coincident nodes,
// or whose det J is not positive at a quadrature point (the rule of ElementKernel::Compute);
// nullopt when there is none. Readers call it so that a bad element is named with the
// file's tags before anything is built on it. The mesh must be valid.
std::optional<DegenerateElement> FindDegenerateElement(const Mesh& mesh);

}  // namespace jointdyn::fe
