#include "fe/matrix_market.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/memory.h"

namespace jointdyn::fe {
namespace {

// The lines of a text file with their numbers; comment and blank lines are skipped.
class LineReader {
 public:
  LineReader(const std::string& path, std::string_view comment_chars)
      : path_(path), comment_chars_(comment_chars) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("", "", "cannot open the file").Located(path, 0, "");
    std::ostringstream content;
    content << in.rdbuf();
    text_ = content.str();
  }

  // The next line as whitespace-separated tokens; false at the end of the file.
  bool Next(std::vector<std::string_view>& tokens, bool skip_comments = true) {
    while (position_ < text_.size()) {
      size_t end = text_.find('\n', position_);
      if (end == std::string::npos) end = text_.size();
      std::string_view line(text_.data() + position_, end - position_);
      position_ = end + 1;
      ++line_;
      Split(line, tokens);
      if (tokens.empty()) continue;
      if (skip_comments && comment_chars_.find(tokens[0][0]) != std::string_view::npos) continue;
      return true;
    }
    return false;
  }

  int line() const { return line_; }
  [[noreturn]] void Fail(const std::string& key, const std::string& value,
                         const std::string& rule) const {
    throw InputError(key, value, rule).Located(path_, line_, "");
  }

  int Int(std::string_view token, const std::string& key) const {
    int value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error != std::errc() || end != token.data() + token.size()) {
      Fail(key, std::string(token), "must be an integer");
    }
    return value;
  }

  double Double(std::string_view token, const std::string& key) const {
    double value = 0.0;
    const char* begin = token.data() + (token.size() > 1 && token[0] == '+' ? 1 : 0);
    const auto [end, error] = std::from_chars(begin, token.data() + token.size(), value);
    if (error != std::errc() || end != token.data() + token.size() || !std::isfinite(value)) {
      Fail(key, std::string(token), "must be a finite number");
    }
    return value;
  }

 private:
  static void Split(std::string_view line, std::vector<std::string_view>& tokens) {
    tokens.clear();
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      if (j > i) tokens.push_back(line.substr(i, j - i));
      i = j;
    }
  }

  std::string path_;
  std::string_view comment_chars_;
  std::string text_;
  size_t position_ = 0;
  int line_ = 0;
};

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

void AppendNumber(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest exact
  out.append(buffer, result.ptr);
}

bool ExactlySymmetric(const solvers::SparseMatrix& a) {
  if (a.rows() != a.cols()) return false;
  const solvers::SparseMatrix transpose = a.transpose();
  const solvers::SparseMatrix difference = a - transpose;
  for (int k = 0; k < difference.nonZeros(); ++k) {
    if (difference.valuePtr()[k] != 0.0) return false;
  }
  return true;
}

}  // namespace

void WriteMatrixMarket(const std::string& path, const solvers::SparseMatrix& matrix,
                       MatrixSymmetry symmetry) {
  const bool symmetric = symmetry == MatrixSymmetry::kSymmetric;
  JD_CHECK(!symmetric || ExactlySymmetric(matrix),
           "WriteMatrixMarket: a symmetric file needs an exactly symmetric matrix");
  long long count = 0;
  for (int col = 0; col < matrix.outerSize(); ++col) {
    for (solvers::SparseMatrix::InnerIterator it(matrix, col); it; ++it) {
      count += !symmetric || it.row() >= col;
    }
  }
  std::string text = "%%MatrixMarket matrix coordinate real ";
  text += symmetric ? "symmetric\n" : "general\n";
  text += "% written by jointdyn\n";
  text += std::to_string(matrix.rows()) + " " + std::to_string(matrix.cols()) + " " +
          std::to_string(count) + "\n";
  for (int col = 0; col < matrix.outerSize(); ++col) {
    for (solvers::SparseMatrix::InnerIterator it(matrix, col); it; ++it) {
      if (symmetric && it.row() < col) continue;
      text += std::to_string(it.row() + 1);
      text += ' ';
      text += std::to_string(col + 1);
      text += ' ';
      AppendNumber(text, it.value());
      text += '\n';
    }
  }
  WriteFileAtomically(path, text);
}

solvers::SparseMatrix ReadMatrixMarket(const std::string& path) {
  LineReader reader(path, "%");
  std::vector<std::string_view> tokens;
  if (!reader.Next(tokens, false) || Lower(tokens[0]) != "%%matrixmarket") {
    reader.Fail("banner", "", "the file must start with %%MatrixMarket");
  }
  if (tokens.size() != 5) {
    reader.Fail("banner", "", "must be '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  }
  if (Lower(tokens[1]) != "matrix" || Lower(tokens[2]) != "coordinate") {
    reader.Fail("banner", std::string(tokens[1]) + " " + std::string(tokens[2]),
                "only 'matrix coordinate' files are supported");
  }
  const std::string field = Lower(tokens[3]), symmetry = Lower(tokens[4]);
  if (field != "real" && field != "integer" && field != "double") {
    reader.Fail("field", field, "must be real, integer or double");
  }
  if (symmetry != "general" && symmetry != "symmetric") {
    reader.Fail("symmetry", symmetry, "must be general or symmetric");
  }
  const bool symmetric = symmetry == "symmetric";
  if (!reader.Next(tokens)) reader.Fail("size", "", "the size line 'rows cols entries' is missing");
  if (tokens.size() != 3) reader.Fail("size", "", "must be 'rows cols entries'");
  const int rows = reader.Int(tokens[0], "rows"), cols = reader.Int(tokens[1], "cols");
  const long long entries = reader.Int(tokens[2], "entries");
  if (rows < 1) reader.Fail("rows", std::to_string(rows), "must be >= 1");
  if (cols < 1) reader.Fail("cols", std::to_string(cols), "must be >= 1");
  if (symmetric && rows != cols) {
    reader.Fail("cols", std::to_string(cols), "a symmetric matrix must be square");
  }
  if (entries < 0 || entries > static_cast<long long>(rows) * cols) {
    reader.Fail("entries", std::to_string(entries), "must be in [0, rows * cols]");
  }
  struct Entry {
    int row, col, line;
    double value;
  };
  // Memory: per entry the parsed entry, its triplets and the compressed matrix (16 + 12 B,
  // twice for the mirror of a symmetric file's entry); per row and column 4 B of index
  // arrays in the matrix and in the transposed copy setFromTriplets builds, and per row
  // the dense vectors an analysis keeps (counted as 8 doubles).
  const double bytes = double(entries) * (sizeof(Entry) + (symmetric ? 2 : 1) * 28.0) +
                       double(rows) * (4.0 + 64.0) + double(cols) * 4.0;
  if (const std::string rule =
          ExceedsMemory(bytes, "a " + std::to_string(rows) + " x " + std::to_string(cols) +
                                   " matrix with " + std::to_string(entries) + " entries");
      !rule.empty())
    reader.Fail(
        "size",
        std::string(tokens[0]) + " " + std::string(tokens[1]) + " " + std::string(tokens[2]), rule);
  std::vector<Entry> list;
  list.reserve(std::min<long long>(entries, 1 << 20));  // the file may hold fewer
  for (long long k = 0; k < entries; ++k) {
    if (!reader.Next(tokens)) {
      reader.Fail("entries", std::to_string(entries),
                  "the file ends after " + std::to_string(k) + " entries");
    }
    if (tokens.size() != 3) reader.Fail("entry", "", "must be 'row col value'");
    Entry entry{reader.Int(tokens[0], "row"), reader.Int(tokens[1], "col"), reader.line(),
                reader.Double(tokens[2], "value")};
    if (entry.row < 1 || entry.row > rows) {
      reader.Fail("row", std::to_string(entry.row), "must be in [1, " + std::to_string(rows) + "]");
    }
    if (entry.col < 1 || entry.col > cols) {
      reader.Fail("col", std::to_string(entry.col), "must be in [1, " + std::to_string(cols) + "]");
    }
    if (symmetric && entry.row < entry.col) {
      reader.Fail("row", std::to_string(entry.row),
                  "must be >= col = " + std::to_string(entry.col) +
                      " (a symmetric file holds the lower triangle)");
    }
    list.push_back(entry);
  }
  if (reader.Next(tokens)) {
    reader.Fail("entries", std::to_string(entries), "the file has more entries than this");
  }
  std::sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.col, a.row, a.line) < std::tie(b.col, b.row, b.line);
  });
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(symmetric ? 2 * list.size() : list.size());
  for (size_t k = 0; k < list.size(); ++k) {
    const Entry& e = list[k];
    if (k > 0 && list[k - 1].row == e.row && list[k - 1].col == e.col) {
      throw InputError("entry", std::to_string(e.row) + " " + std::to_string(e.col),
                       "repeats the entry of line " + std::to_string(list[k - 1].line))
          .Located(path, e.line, "");
    }
    triplets.emplace_back(e.row - 1, e.col - 1, e.value);
    if (symmetric && e.row != e.col) triplets.emplace_back(e.col - 1, e.row - 1, e.value);
  }
  solvers::SparseMatrix matrix(rows, cols);
  matrix.setFromTriplets(triplets.begin(), triplets.end());
  return matrix;
}

void WriteMatrixModel(const std::string& prefix, const MatrixModel& model) {
  const Mesh& mesh = model.mesh;
  const MatrixModelFiles files = MatrixModelFiles::FromPrefix(prefix);
  WriteMatrixMarket(files.stiffness, model.stiffness, MatrixSymmetry::kSymmetric);
  WriteMatrixMarket(files.mass, model.mass, MatrixSymmetry::kSymmetric);
  std::string nodes = "% jointdyn nodes: count, DOFs per node, then x y z [m] per node\n";
  nodes += std::to_string(mesh.num_nodes()) + " " + std::to_string(mesh.dim) + "\n";
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    for (int c = 0; c < 3; ++c) {
      AppendNumber(nodes, mesh.nodes(n, c));
      nodes += c < 2 ? ' ' : '\n';
    }
  }
  WriteFileAtomically(files.nodes, nodes);
  std::string sets = "% jointdyn node sets: name count, then the 1-based nodes\n";
  for (const auto& [name, set] : mesh.node_sets) {
    sets += name + " " + std::to_string(set.size()) + "\n";
    for (size_t k = 0; k < set.size(); ++k) {
      sets += std::to_string(set[k] + 1);
      sets += (k % 10 == 9 || k + 1 == set.size()) ? '\n' : ' ';
    }
  }
  WriteFileAtomically(files.sets, sets);
}

MatrixModelFiles MatrixModelFiles::FromPrefix(const std::string& prefix) {
  return {prefix + "_K.mtx", prefix + "_M.mtx", prefix + "_nodes.txt", prefix + "_sets.txt"};
}

MatrixModel ReadMatrixModel(const std::string& prefix) {
  return ReadMatrixModel(MatrixModelFiles::FromPrefix(prefix));
}

MatrixModel ReadMatrixModel(const MatrixModelFiles& files) {
  MatrixModel model;
  Mesh& mesh = model.mesh;
  std::vector<std::string_view> tokens;
  {
    LineReader reader(files.nodes, "%#");
    if (!reader.Next(tokens) || tokens.size() != 2) {
      reader.Fail("header", "", "the first line must be 'nodes dofs_per_node'");
    }
    const int count = reader.Int(tokens[0], "nodes");
    mesh.dim = reader.Int(tokens[1], "dofs_per_node");
    if (count < 1) reader.Fail("nodes", std::to_string(count), "must be >= 1");
    if (mesh.dim != 2 && mesh.dim != 3) {
      reader.Fail("dofs_per_node", std::to_string(mesh.dim), "must be 2 or 3");
    }
    const double bytes =
        MeshBytes(count, 0.0, mesh.dim == 3 ? ElementType::kHex8 : ElementType::kQuad4);
    if (const std::string rule = ExceedsMemory(bytes, "the nodes and their matrices");
        !rule.empty())
      reader.Fail("nodes", std::to_string(count), rule);
    mesh.nodes.resize(count, 3);
    for (int n = 0; n < count; ++n) {
      if (!reader.Next(tokens)) {
        reader.Fail("nodes", std::to_string(count),
                    "the file ends after " + std::to_string(n) + " nodes");
      }
      if (tokens.size() != 3) reader.Fail("node " + std::to_string(n + 1), "", "must be 'x y z'");
      for (int c = 0; c < 3; ++c) mesh.nodes(n, c) = reader.Double(tokens[c], "coordinate");
      if (mesh.dim == 2 && mesh.nodes(n, 2) != 0.0) {
        reader.Fail("z", std::string(tokens[2]), "must be 0 in a plane model");
      }
    }
    if (reader.Next(tokens)) reader.Fail("nodes", std::to_string(count), "the file has more nodes");
    mesh.file = files.nodes;  // messages name nodes by their 1-based numbers in this file
    mesh.node_tags.resize(count);
    std::iota(mesh.node_tags.begin(), mesh.node_tags.end(), 1LL);
  }
  if (!files.sets.empty()) {
    LineReader reader(files.sets, "%#");
    while (reader.Next(tokens)) {
      if (tokens.size() != 2) reader.Fail("set", "", "must be 'name count'");
      const std::string name(tokens[0]);
      const int count = reader.Int(tokens[1], "count");
      if (count < 1) reader.Fail(name + ".count", std::to_string(count), "must be >= 1");
      if (mesh.node_sets.contains(name)) reader.Fail("set", name, "is defined twice");
      std::vector<int>& set = mesh.node_sets[name];
      while (static_cast<int>(set.size()) < count) {
        if (!reader.Next(tokens)) {
          reader.Fail(name + ".count", std::to_string(count),
                      "the file ends after " + std::to_string(set.size()) + " nodes");
        }
        if (static_cast<int>(set.size() + tokens.size()) > count) {
          reader.Fail(name + ".count", std::to_string(count), "the set has more nodes");
        }
        for (std::string_view token : tokens) {
          const int node = reader.Int(token, name);
          if (node < 1 || node > mesh.num_nodes()) {
            reader.Fail(name, std::to_string(node),
                        "must be in [1, " + std::to_string(mesh.num_nodes()) + "]");
          }
          set.push_back(node - 1);
        }
      }
      std::sort(set.begin(), set.end());
      if (std::adjacent_find(set.begin(), set.end()) != set.end()) {
        reader.Fail(name, std::to_string(*std::adjacent_find(set.begin(), set.end()) + 1),
                    "appears twice in the set");
      }
    }
  }
  const int size = mesh.num_nodes() * mesh.dim;
  auto read = [&](const std::string& path) {
    solvers::SparseMatrix matrix = ReadMatrixMarket(path);
    if (matrix.rows() != size || matrix.cols() != size) {
      throw InputError("size",
                       std::to_string(matrix.rows()) + " x " + std::to_string(matrix.cols()),
                       "must be " + std::to_string(size) + " x " + std::to_string(size) +
                           " (nodes x DOFs per node)")
          .Located(path, 0, "");
    }
    if (!ExactlySymmetric(matrix)) {
      throw InputError("", "", "the matrix must be symmetric").Located(path, 0, "");
    }
    return matrix;
  };
  model.stiffness = read(files.stiffness);
  model.mass = read(files.mass);
  return model;
}

}  // namespace jointdyn::fe
