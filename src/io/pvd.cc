#include "io/pvd.h"

#include <cmath>
#include <sstream>
#include <utility>

#include "core/atomic_file.h"
#include "core/error.h"
#include "io/svg_plot.h"

namespace jointdyn::io {

PvdWriter::PvdWriter(std::filesystem::path path) : path_(std::move(path)) {}

void PvdWriter::Add(double time, const std::string& file) {
  JD_CHECK(std::isfinite(time) && (entries_.empty() || time > entries_.back().first),
           "PvdWriter::Add: times must be finite and increase");
  entries_.emplace_back(time, file);
  std::ostringstream xml;
  xml.precision(17);
  xml << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "<Collection>\n";
  for (const auto& [t, name] : entries_)
    xml << "<DataSet timestep=\"" << t << "\" group=\"\" part=\"0\" file=\"" << EscapeXml(name)
        << "\"/>\n";
  xml << "</Collection>\n</VTKFile>\n";
  WriteFileAtomically(path_, xml.str());
}

}  // namespace jointdyn::io
