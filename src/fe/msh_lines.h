// Lines of a Gmsh .msh file, for messages that point into it ("part.msh:123: element 57"):
// libgmsh reads the file but gives no line numbers, so the line of an entity is found by
// scanning the file again when a message needs it. ASCII formats 2 and 4 (one element per
// line; in format 4 the node tags of a block come one per line before their coordinates);
// a binary file has no lines (0).
#pragma once

#include <string>

#include "fe/mesh.h"

namespace jointdyn::fe {

enum class MshEntity { kNode, kElement };

// The 1-based line of node or element `tag` in the .msh file `path`; 0 when the file
// cannot be read, is binary, or does not hold the tag.
int MshLine(const std::string& path, MshEntity entity, long long tag);

// The line of node or element `tag` in the file `mesh` was read from (mesh.file, a .msh
// file); 0 for a generated mesh or another format.
int MeshFileLine(const Mesh& mesh, MshEntity entity, long long tag);

}  // namespace jointdyn::fe
