#include "io/svg_plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace jointdyn::io {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// --- A tiny XML checker: enough of XML 1.0 for what the writer emits. ---

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
};

// Throws std::runtime_error unless `text` (character data or an attribute value) uses '&'
// only in the five predefined entities or a numeric reference and contains no '<'.
void CheckCharacterData(std::string_view text, std::size_t at) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<') throw std::runtime_error("raw '<' at " + std::to_string(at + i));
    if (text[i] != '&') continue;
    const std::size_t end = text.find(';', i);
    if (end == std::string_view::npos) throw std::runtime_error("unterminated entity");
    const std::string_view entity = text.substr(i + 1, end - i - 1);
    const bool numeric = entity.size() > 1 && entity[0] == '#' &&
                         entity.find_first_not_of("0123456789", 1) == std::string_view::npos;
    if (!numeric && entity != "amp" && entity != "lt" && entity != "gt" && entity != "quot" &&
        entity != "apos") {
      throw std::runtime_error("bad entity &" + std::string(entity) + ";");
    }
  }
}

// Parses `xml` as one root element with balanced, properly nested tags and quoted
// attributes; returns every element in document order. Throws on malformed input.
std::vector<Element> ParseXml(const std::string& xml) {
  std::vector<Element> elements;
  std::vector<std::string> open;
  bool root_closed = false;
  const auto name_end = [&](std::size_t i) {
    return xml.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:.", i);
  };
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] != '<') {
      const std::size_t next = std::min(xml.find('<', i), xml.size());
      const std::string_view text(xml.data() + i, next - i);
      if ((open.empty() || root_closed) &&
          text.find_first_not_of(" \n\t\r") != std::string_view::npos) {
        throw std::runtime_error("text outside the root element at " + std::to_string(i));
      }
      CheckCharacterData(text, i);
      i = next;
      continue;
    }
    if (root_closed) throw std::runtime_error("second root element at " + std::to_string(i));
    if (xml.compare(i, 2, "</") == 0) {
      const std::size_t end = name_end(i + 2);
      const std::string name = xml.substr(i + 2, end - i - 2);
      if (open.empty() || open.back() != name || xml[end] != '>') {
        throw std::runtime_error("mismatched </" + name + "> at " + std::to_string(i));
      }
      open.pop_back();
      root_closed = open.empty();
      i = end + 1;
      continue;
    }
    Element element;
    std::size_t end = name_end(i + 1);
    element.name = xml.substr(i + 1, end - i - 1);
    if (element.name.empty()) throw std::runtime_error("bad tag at " + std::to_string(i));
    i = end;
    for (;;) {
      i = xml.find_first_not_of(" \n\t\r", i);
      if (i == std::string::npos) throw std::runtime_error("unterminated tag");
      if (xml.compare(i, 2, "/>") == 0 || xml[i] == '>') break;
      end = name_end(i);
      const std::string key = xml.substr(i, end - i);
      if (key.empty() || xml.compare(end, 2, "=\"") != 0) {
        throw std::runtime_error("bad attribute at " + std::to_string(i));
      }
      const std::size_t close = xml.find('"', end + 2);
      if (close == std::string::npos) throw std::runtime_error("unterminated attribute");
      const std::string value = xml.substr(end + 2, close - end - 2);
      CheckCharacterData(value, end + 2);
      if (!element.attributes.emplace(key, value).second) {
        throw std::runtime_error("duplicate attribute " + key);
      }
      i = close + 1;
    }
    const bool self_closing = xml[i] == '/';
    if (!self_closing) open.push_back(element.name);
    root_closed = self_closing && open.empty();
    elements.push_back(std::move(element));
    i += self_closing ? 2 : 1;
  }
  if (!open.empty()) throw std::runtime_error("unclosed <" + open.back() + ">");
  if (elements.empty()) throw std::runtime_error("no element");
  return elements;
}

TEST(SvgPlotXmlChecker, RejectsMalformedXml) {
  // The checker must be able to fail, or the well-formedness tests below prove nothing.
  for (const std::string bad :
       {"<svg><g></svg></g>", "<svg><g></svg>", "<svg a=\"1\" a=\"2\"/>", "<svg>a & b</svg>",
        "<svg>a < b</svg>", "<svg a=\"<\"/>", "<svg/><svg/>", "<svg x=1/>"}) {
    EXPECT_THROW(ParseXml(bad), std::runtime_error) << bad;
  }
  EXPECT_EQ(ParseXml("<svg a=\"&amp;\"><g>x &lt; y</g><line/></svg>\n").size(), 3u);
}

std::vector<double> Numbers(const std::string& text) {
  std::string spaced = text;
  for (char& c : spaced) c = (c == ',') ? ' ' : c;
  std::istringstream in(spaced);
  std::vector<double> values;
  for (double v; in >> v;) values.push_back(v);
  return values;
}

struct Rect {
  double left, top, right, bottom;
};

// Parses the SVG and checks the frame: root <svg> with the 800x560 viewBox, one clip
// rectangle, and every polyline vertex and marker centre inside that clip rectangle.
// Returns the elements for further checks.
std::vector<Element> CheckSvg(const PlotSpec& spec) {
  const std::string svg = RenderSvgPlot(spec);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  std::vector<Element> elements;
  EXPECT_NO_THROW(elements = ParseXml(svg));
  if (elements.empty()) return elements;
  EXPECT_EQ(elements[0].name, "svg");
  EXPECT_EQ(elements[0].attributes["viewBox"], "0 0 800 560");
  Rect clip{};
  for (std::size_t k = 0; k + 1 < elements.size(); ++k) {
    if (elements[k].name == "clipPath") {
      auto& a = elements[k + 1].attributes;
      clip = {std::stod(a["x"]), std::stod(a["y"]), std::stod(a["x"]) + std::stod(a["width"]),
              std::stod(a["y"]) + std::stod(a["height"])};
    }
  }
  EXPECT_GT(clip.left, 0.0);
  EXPECT_LT(clip.right, 800.0);
  EXPECT_GT(clip.top, 0.0);
  EXPECT_LT(clip.bottom, 560.0);
  const auto inside = [&](double x, double y) {
    return x >= clip.left && x <= clip.right && y >= clip.top && y <= clip.bottom;
  };
  for (auto& e : elements) {
    if (e.name == "polyline") {
      const std::vector<double> xy = Numbers(e.attributes["points"]);
      EXPECT_EQ(xy.size() % 2, 0u);
      EXPECT_GE(xy.size(), 4u);
      for (std::size_t j = 0; j + 1 < xy.size(); j += 2) {
        EXPECT_TRUE(inside(xy[j], xy[j + 1])) << xy[j] << ", " << xy[j + 1];
      }
    } else if (e.name == "circle") {
      EXPECT_TRUE(inside(std::stod(e.attributes["cx"]), std::stod(e.attributes["cy"])));
    }
  }
  return elements;
}

int CountText(const std::string& svg, const std::string& text) {
  int count = 0;
  for (std::size_t at = svg.find('>' + text + "</text>"); at != std::string::npos;
       at = svg.find('>' + text + "</text>", at + 1)) {
    ++count;
  }
  return count;
}

int CountElements(const std::vector<Element>& elements, const std::string& name) {
  return static_cast<int>(std::count_if(elements.begin(), elements.end(),
                                        [&](const Element& e) { return e.name == name; }));
}

// --- Example data ---

// Builders (designated initializers would trip -Wmissing-field-initializers).
PlotSeries Series(std::vector<double> x, std::vector<double> y, std::string label = "",
                  bool markers = false, bool line = true) {
  PlotSeries s;
  s.label = std::move(label);
  s.x = std::move(x);
  s.y = std::move(y);
  s.markers = markers;
  s.line = line;
  return s;
}

PlotSpec Spec(std::vector<PlotSeries> series, bool log_x = false, bool log_y = false,
              std::string title = "", std::string x_label = "", std::string y_label = "") {
  PlotSpec spec;
  spec.title = std::move(title);
  spec.x_label = std::move(x_label);
  spec.y_label = std::move(y_label);
  spec.log_x = log_x;
  spec.log_y = log_y;
  spec.series = std::move(series);
  return spec;
}

// Traction-slip loops of the three-parameter Coulomb law (c1 = 2e11 Pa/m, c2 = 1e9 Pa/m,
// mu = 0.3 at p = 1 MPa: stick range 1.5 um) for slip amplitudes of 2, 4 and 6 um, one
// and a quarter cycles each so the virgin loading branch shows.
PlotSpec HysteresisSpec() {
  constexpr double kC1 = 2e11, kC2 = 1e9, kLimit = 0.3 * 1e6;  // Pa/m, Pa/m, mu p [Pa]
  PlotSpec spec = Spec({}, false, false, "Coulomb slider: traction-slip loops at p = 1 MPa",
                       "slip s [m]", "traction τ [Pa]");
  for (const double amplitude : {2e-6, 4e-6, 6e-6}) {
    PlotSeries series =
        Series({}, {}, "amplitude " + std::to_string(static_cast<int>(amplitude * 1e6)) + " µm");
    constexpr int kPerCycle = 400;
    double sliding = 0.0;  // the slip of the stick spring's anchor (return mapping)
    for (int i = 0; i <= kPerCycle * 5 / 4; ++i) {
      const double s = amplitude * std::sin(2 * M_PI * i / kPerCycle);
      const double stick = std::clamp(kC1 * (s - sliding), -kLimit, kLimit);
      sliding = s - stick / kC1;
      series.x.push_back(s);
      series.y.push_back(stick + kC2 * s);
    }
    spec.series.push_back(std::move(series));
  }
  return spec;
}

// Dissipation per cycle against amplitude: scattered "measurements" of a microslip power
// law D = 2e9 A^2.6 (markers) with a least-squares power-law fit (line), and the
// macroslip asymptote 4 R A of a slider with R = 30 N.
PlotSpec DissipationSpec() {
  PlotSpec spec = Spec({}, true, true, "Dissipation per cycle vs amplitude", "slip amplitude A [m]",
                       "dissipation per cycle D [J]");
  PlotSeries measured = Series({}, {}, "measured", true, false);
  for (int i = 0; i < 14; ++i) {
    const double a = 2e-7 * std::pow(10.0, i * 2.2 / 13);
    const double scatter = 1.0 + 0.25 * std::sin(3.7 * i);  // deterministic "noise"
    measured.x.push_back(a);
    measured.y.push_back(2e9 * std::pow(a, 2.6) * scatter);
  }
  // Least-squares line through (log A, log D).
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(measured.x.size());
  for (std::size_t i = 0; i < measured.x.size(); ++i) {
    const double lx = std::log(measured.x[i]), ly = std::log(measured.y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const double offset = (sy - slope * sx) / n;
  char label[64];
  std::snprintf(label, sizeof label, "fit D ∝ A^%.2f", slope);
  PlotSeries fit = Series({}, {}, label);
  PlotSeries macro = Series({}, {}, "macroslip 4 R A");
  for (const double a : {1.5e-7, 5e-5}) {
    fit.x.push_back(a);
    fit.y.push_back(std::exp(offset + slope * std::log(a)));
  }
  for (const double a : {1e-6, 5e-5}) {
    macro.x.push_back(a);
    macro.y.push_back(4 * 30.0 * a);
  }
  spec.series = {measured, fit, macro};
  return spec;
}

// --- Ticks and labels ---

// Checks the NiceTicks contract on [lo, hi] with at most max_count ticks.
void CheckNiceTicks(double lo, double hi, int max_count) {
  SCOPED_TRACE(::testing::Message() << "[" << lo << ", " << hi << "] max " << max_count);
  const std::vector<double> t = NiceTicks(lo, hi, max_count);
  ASSERT_GE(t.size(), 2u);
  EXPECT_LE(t.size(), static_cast<std::size_t>(max_count));
  const double step = t[1] - t[0];
  const double decade = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double mantissa = step / decade;
  EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
              std::abs(mantissa - 5) < 1e-9)
      << "step " << step;
  for (std::size_t k = 0; k < t.size(); ++k) {
    EXPECT_NEAR(t[k] / step, std::round(t[k] / step), 1e-6) << "tick " << t[k];
    if (k > 0) {
      EXPECT_NEAR(t[k] - t[k - 1], step, 1e-9 * step);
    }
  }
  // Inside the range, and covering it up to one step at either end.
  EXPECT_GE(t.front(), lo - 1e-9 * step);
  EXPECT_LE(t.back(), hi + 1e-9 * step);
  EXPECT_LT(t.front() - lo, step);
  EXPECT_LT(hi - t.back(), step);
  // The next smaller 1-2-5 step would give too many ticks.
  const double smaller = mantissa > 3 ? 0.4 * step : 0.5 * step;  // 5 -> 2, 2 -> 1, 1 -> 0.5
  const double count = std::floor(hi / smaller + 1e-9) - std::ceil(lo / smaller - 1e-9) + 1;
  EXPECT_GT(count, max_count) << "step " << step << " is not the smallest";
}

TEST(SvgPlotTicks, NiceTicksAreOneTwoFiveAndCoverTheRange) {
  // Hand-computed: on [0, 1] with at most 6 ticks, step 0.1 gives 11 ticks, 0.2 gives 6.
  const std::vector<double> t = NiceTicks(0.0, 1.0, 6);
  ASSERT_EQ(t.size(), 6u);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(t[k], 0.2 * k, 1e-15);

  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{0.0, 1.0},
                                                                     {-1.04, 1.04},
                                                                     {-3.12e-6, 3.12e-6},
                                                                     {-250.0, 17.0},
                                                                     {0.1, 0.11},
                                                                     {1e5, 1e5 + 3},
                                                                     {1e-20, 5e-20},
                                                                     {-7.3e8, -6.1e8},
                                                                     {0.999, 1.001},
                                                                     {-0.04, 1.04}}) {
    for (const int max_count : {5, 6, 7, 8, 12}) CheckNiceTicks(lo, hi, max_count);
  }
}

TEST(SvgPlotTicks, NiceTicksRejectInvalidRanges) {
  EXPECT_THROW(NiceTicks(1.0, 1.0, 5), std::invalid_argument);
  EXPECT_THROW(NiceTicks(2.0, 1.0, 5), std::invalid_argument);
  EXPECT_THROW(NiceTicks(0.0, kNaN, 5), std::invalid_argument);
  EXPECT_THROW(NiceTicks(0.0, 1.0, 4), std::invalid_argument);
}

void ExpectDecades(const std::vector<double>& ticks, int first, int last, int every) {
  ASSERT_EQ(ticks.size(), static_cast<std::size_t>((last - first) / every + 1));
  for (std::size_t k = 0; k < ticks.size(); ++k) {
    const int exponent = first + static_cast<int>(k) * every;
    EXPECT_NEAR(std::log10(ticks[k]), exponent, 1e-12);
    EXPECT_DOUBLE_EQ(ticks[k], std::pow(10.0, exponent));
  }
}

TEST(SvgPlotTicks, LogTicksAreDecades) {
  ExpectDecades(DecadeTicks(3e-7, 2e-3, 8), -6, -3, 1);
  ExpectDecades(DecadeTicks(1e-6, 1e-4, 8), -6, -4, 1);  // decades at the ends are kept
  ExpectDecades(DecadeTicks(0.5, 2e4, 8), 0, 4, 1);
  // 16 decades, at most 7 ticks: every 2nd gives 8 (-12..2), every 3rd gives 6.
  ExpectDecades(DecadeTicks(1e-12, 1e3, 7), -12, 3, 3);
  EXPECT_TRUE(DecadeTicks(2e-6, 8e-6, 8).empty());
  EXPECT_THROW(DecadeTicks(0.0, 1.0, 8), std::invalid_argument);
  EXPECT_THROW(DecadeTicks(2.0, 1.0, 8), std::invalid_argument);
}

TEST(SvgPlotTicks, FormatTickScalesByThePowerOfTen) {
  EXPECT_EQ(FormatTick(1.5e-6, -6, 1), "1.5");
  EXPECT_EQ(FormatTick(-1e-6, -6, 1), "−1.0");
  EXPECT_EQ(FormatTick(-3e5, 3, 0), "−300");
  EXPECT_EQ(FormatTick(0.5, -3, 0), "500");
  EXPECT_EQ(FormatTick(1000.0, 0, 0), "1000");
  EXPECT_EQ(FormatTick(2e-30, -30, 0), "2");
  // Zero (and a rounding residue of either sign) is a bare "0".
  EXPECT_EQ(FormatTick(0.0, -6, 1), "0");
  EXPECT_EQ(FormatTick(-1e-22, -6, 1), "0");
  EXPECT_EQ(FormatTick(3 * 0.1 - 0.3, 0, 1), "0");
}

TEST(SvgPlotTicks, TheCommonPowerOfTenGoesIntoTheUnit) {
  const std::string svg = RenderSvgPlot(HysteresisSpec());
  // Slip +-6 um, padded by 4 %: 2 um steps (1 um would give 13 > 8 ticks), in um.
  for (const char* label : {">−6<", ">−4<", ">0<", ">4<", ">6<", ">slip s [µm]<"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  // Traction up to mu p + c2 A = 306 kPa, padded: 100 kPa steps (7 ticks, the y maximum).
  for (const char* label : {">−300<", ">−100<", ">200<", ">300<", ">traction τ [kPa]<"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  // 0..1000 reads better unscaled than as 0.2..1 x 10^3.
  const PlotSpec plain = Spec({Series({0, 1000}, {0, 1})}, false, false, "", "x [m]", "y [-]");
  const std::string plain_svg = RenderSvgPlot(plain);
  EXPECT_NE(plain_svg.find(">1000<"), std::string::npos);
  EXPECT_NE(plain_svg.find(">x [m]<"), std::string::npos);
}

TEST(SvgPlotTicks, ScaledAxisLabels) {
  EXPECT_EQ(ScaledAxisLabel("tip.uz [m]", -3), "tip.uz [mm]");
  EXPECT_EQ(ScaledAxisLabel("tip.uz [m]", 0), "tip.uz [m]");
  EXPECT_EQ(ScaledAxisLabel("dissipation [J/m^2]", -6), "dissipation [µJ/m^2]");
  EXPECT_EQ(ScaledAxisLabel("force [N]", 3), "force [kN]");
  EXPECT_EQ(ScaledAxisLabel("area [m^2]", -6), "area [×10⁻⁶ m^2]");  // not "µm^2"
  EXPECT_EQ(ScaledAxisLabel("e(t) [-]", -3), "e(t) [×10⁻³]");
  EXPECT_EQ(ScaledAxisLabel("mass [kg]", 3), "mass [×10³ kg]");
  EXPECT_EQ(ScaledAxisLabel("added vectors g", 3), "added vectors g [×10³]");
  EXPECT_EQ(FormatPowerTick(1e-6), "10⁻⁶");
  EXPECT_EQ(FormatPowerTick(2e-6), "2×10⁻⁶");
  EXPECT_EQ(FormatPowerTick(5e12), "5×10¹²");
  EXPECT_EQ(FormatPowerTick(0.002), "0.002");
  EXPECT_EQ(FormatPowerTick(100.0), "100");
  EXPECT_EQ(FormatPowerTick(1.0), "1");
}

// --- Escaping ---

TEST(SvgPlotEscaping, EscapesMarkupCharacters) {
  EXPECT_EQ(EscapeXml("a<b & \"c\" 'd' >"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos; &gt;");
  EXPECT_EQ(EscapeXml("τ [µm]"), "τ [µm]");
  EXPECT_EQ(EscapeXml(std::string("a\x01\tb\x1f", 5)), "a\tb");
  const PlotSpec spec = Spec({Series({0, 1}, {1, 2}, "A&B <c>")}, false, false,
                             "<script>&</script>", "x \"quoted\"", "y <1>");
  const std::vector<Element> elements = CheckSvg(spec);
  const std::string svg = RenderSvgPlot(spec);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find(">&lt;script&gt;&amp;&lt;/script&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">A&amp;B &lt;c&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">x &quot;quoted&quot;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">y &lt;1&gt;</text>"), std::string::npos);
}

// --- Well-formed output for the cases a run can produce ---

TEST(SvgPlotOutput, ExamplesAreWellFormedWithDataInsideThePlotArea) {
  const PlotSpec hysteresis = HysteresisSpec();
  const std::vector<Element> h = CheckSvg(hysteresis);
  EXPECT_EQ(CountElements(h, "polyline"), 3);
  const std::string h_svg = RenderSvgPlot(hysteresis);
  for (const auto& s : hysteresis.series) EXPECT_EQ(CountText(h_svg, s.label), 1) << s.label;

  const PlotSpec dissipation = DissipationSpec();
  const std::vector<Element> d = CheckSvg(dissipation);
  EXPECT_EQ(CountElements(d, "polyline"), 2);
  EXPECT_EQ(CountElements(d, "circle"), 14 + 1);  // the markers and their legend sample
  const std::string d_svg = RenderSvgPlot(dissipation);
  // x: 1.5e-7..5e-5 m holds the decades 1u and 10u; y: 3.6e-9..1.2e-2 J holds 10n..10m.
  for (const char* decade :
       {">10⁻⁶<", ">10⁻⁵<", ">10⁻⁸<", ">10⁻⁷<", ">10⁻⁴<", ">0.001<", ">0.01<"}) {
    EXPECT_NE(d_svg.find(decade), std::string::npos) << decade;
  }
}

TEST(SvgPlotOutput, DegenerateInputsGiveAFramedPlot) {
  // Empty series list: a frame and a note.
  const PlotSpec empty = Spec({}, false, false, "nothing", "x", "y");
  const std::vector<Element> e = CheckSvg(empty);
  EXPECT_NE(RenderSvgPlot(empty).find(">no data series</text>"), std::string::npos);
  EXPECT_EQ(CountElements(e, "polyline"), 0);
  // Empty on log axes too.
  CheckSvg(Spec({}, true, true));
  // A series without a single finite point.
  EXPECT_NE(RenderSvgPlot(Spec({Series({kNaN}, {1.0})})).find(">no plottable data<"),
            std::string::npos);
  // A single point (drawn as a dot), all-equal values, zero-only values.
  for (const PlotSeries& s :
       {Series({3e-6}, {2.0}), Series({1, 2, 3}, {5, 5, 5}), Series({0, 0}, {0, 0}, "", true),
        Series({1e-6, 1e-6 * (1 + 1e-14)}, {1, 2})}) {
    const std::vector<Element> elements = CheckSvg(Spec({s}));
    EXPECT_GE(CountElements(elements, "line"), 4);  // ticks on both axes
  }
  const std::vector<Element> single = CheckSvg(Spec({Series({3e-6}, {2.0})}, true, true));
  EXPECT_EQ(CountElements(single, "circle"), 1);
}

TEST(SvgPlotOutput, SkippedPointsBreakTheLine) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const PlotSeries s =
      Series({1, 2, kNaN, 3, 4, 5, 6, 7, kInf, 8, 9}, {1, 2, 3, 4, 5, -1, 6, 7, 8, 9, 10});
  // Runs 1-2, 3-7 and 8-9.
  const std::vector<Element> linear = CheckSvg(Spec({s}));
  EXPECT_EQ(CountElements(linear, "polyline"), 3);
  EXPECT_EQ(CountElements(linear, "circle"), 0);
  // On a log y axis the point with y = -1 is skipped too: runs 1-2, 3-4, 6-7 and 8-9.
  EXPECT_EQ(CountElements(CheckSvg(Spec({s}, false, true)), "polyline"), 4);
  // A run of one point is drawn as a dot.
  const std::vector<Element> lone = CheckSvg(Spec({Series({1, kNaN, 2, 3}, {1, 1, 2, 3})}));
  EXPECT_EQ(CountElements(lone, "polyline"), 1);
  EXPECT_EQ(CountElements(lone, "circle"), 1);
}

TEST(SvgPlotOutput, ManySeriesCycleColoursThenDashes) {
  PlotSpec spec;
  for (int i = 0; i < 10; ++i) {
    spec.series.push_back(
        Series({0.0, 1.0}, {double(i), i + 0.5}, i % 2 ? "" : "series " + std::to_string(i)));
  }
  const std::vector<Element> elements = CheckSvg(spec);
  const std::string svg = RenderSvgPlot(spec);
  EXPECT_EQ(CountElements(elements, "polyline"), 10);
  // Unlabelled series have no legend entry: 5 labels, 5 legend line samples.
  EXPECT_EQ(CountText(svg, "series 8"), 1);
  EXPECT_EQ(CountText(svg, "series 1"), 0);
  int dashed = 0;
  for (const Element& e : elements) dashed += e.attributes.count("stroke-dasharray") > 0;
  EXPECT_EQ(dashed, 2 + 1);  // series 8 and 9, and the legend sample of series 8
  EXPECT_NE(svg.find("stroke=\"#0072B2\""), std::string::npos);
  EXPECT_NE(svg.find("stroke=\"#D55E00\""), std::string::npos);
}

// --- Errors ---

template <typename Exception>
void ExpectThrowMentioning(const PlotSpec& spec, const std::string& text) {
  try {
    RenderSvgPlot(spec);
    ADD_FAILURE() << "no exception; expected one mentioning " << text;
  } catch (const Exception& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(SvgPlotErrors, InvalidSeriesThrowInvalidArgumentNamingTheSeries) {
  ExpectThrowMentioning<std::invalid_argument>(
      Spec({Series({1}, {1}, "ok"), Series({1, 2}, {1}, "short y")}), "'short y'");
  ExpectThrowMentioning<std::invalid_argument>(Spec({Series({1, 2}, {1})}), "#0");
  ExpectThrowMentioning<std::invalid_argument>(
      Spec({Series({0, -1e-6}, {1, 2}, "zero slip")}, true), "'zero slip'");
  ExpectThrowMentioning<std::invalid_argument>(Spec({Series({1, 2}, {-1, 0}, "neg")}, false, true),
                                               "log y axis");
  // Some positive points are enough; an empty series is not an error.
  EXPECT_NO_THROW(RenderSvgPlot(Spec({Series({-1, 1}, {1, 2}), Series({}, {})}, true)));
}

TEST(SvgPlotErrors, UnwritablePathThrowsRuntimeErrorNamingThePath) {
  const std::filesystem::path path = "/nonexistent-jointdyn-dir/plot.svg";
  try {
    WriteSvgPlot(HysteresisSpec(), path);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST(SvgPlotFile, WritesTheRenderedText) {
  // Also leaves the two examples in the test temp directory for viewing.
  for (const auto& [name, spec] : {std::pair{"svg_plot_hysteresis.svg", HysteresisSpec()},
                                   std::pair{"svg_plot_dissipation.svg", DissipationSpec()}}) {
    const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / name;
    WriteSvgPlot(spec, path);
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), RenderSvgPlot(spec)) << path;
  }
}

}  // namespace
}  // namespace jointdyn::io
