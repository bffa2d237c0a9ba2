#include "lanemap/banks.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <set>
#include <sstream>

namespace lanemap::banks {

namespace {

// Shared memory one block can have on sm_90 (227 KiB).
constexpr std::uint32_t kSharedMemoryBytes = 227 * 1024;
constexpr int kBankGroups = 8; // 16-byte chunks in one 128-byte bank row

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return std::string(s);
}

std::optional<long long> parseNumber(std::string_view text) {
    std::string s = trim(text);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s = s.substr(2);
    }
    long long value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return value;
}

// Splits "a,b,c" at commas outside <...>.
std::vector<std::string> splitParts(std::string_view text) {
    std::vector<std::string> parts;
    std::string cur;
    int depth = 0;
    for (char c : text) {
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (c == ',' && depth == 0) {
            parts.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(trim(cur));
    // swizzle=3,3,3 without brackets: the two bare numbers after it belong to it.
    std::vector<std::string> merged;
    for (std::string& part : parts) {
        const bool bare = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
        if (bare && !merged.empty() && merged.back().rfind("swizzle=", 0) == 0 &&
            std::count(merged.back().begin(), merged.back().end(), ',') < 2)
            merged.back() += "," + part;
        else
            merged.push_back(std::move(part));
    }
    return merged;
}

int log2Exact(int v) {
    int l = 0;
    while ((1 << l) < v)
        ++l;
    return l;
}

// Bytes of one element in memory for the swizzle's offsets (packed 6/4-bit rows: bytes).
int elementBytes(const MatrixMove& mv) {
    return mv.format == RowFormat::B16 ? 2 : 1;
}

// The tile's geometry under a placement: how matrix q's memory rows sit in it.
struct Geometry {
    int blockH = 8, blockW = 8; // one matrix in consumer coordinates
    int blocksDown = 1, blocksAcross = 1;
    int lines = 0;     // contiguous lines of the tile
    int lineBytes = 0; // data bytes of one line
    int stride = 0;    // pitch + pad
};

Geometry geometryOf(const MatrixMove& mv, const Placement& p) {
    Geometry g;
    const bool row = p.major == TileMajor::Row;
    g.blockH = row ? mv.rows : mv.cols;
    g.blockW = row ? mv.cols : mv.rows;
    g.blocksDown = p.tileRows / g.blockH;
    g.blocksAcross = p.tileCols / g.blockW;
    g.lines = row ? p.tileRows : p.tileCols;
    g.lineBytes = (row ? g.blocksAcross : g.blocksDown) * kRowBytes;
    g.stride = p.pitchBytes + p.padBytes;
    return g;
}

std::uint32_t swizzled(const Placement& p, std::uint32_t linear, int elemBytes) {
    if (p.cute) {
        const std::uint32_t offset = linear / static_cast<std::uint32_t>(elemBytes);
        const std::uint32_t mask = ((1u << p.cute->b) - 1u) << p.cute->m;
        const std::uint32_t out = offset ^ ((offset >> p.cute->s) & mask);
        return out * static_cast<std::uint32_t>(elemBytes) + linear % static_cast<std::uint32_t>(elemBytes);
    }
    return smem::swizzleAddress(linear, p.mode);
}

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04x", v);
    return buf;
}

} // namespace

std::optional<Placement> parsePlacement(std::string_view text, std::string& error) {
    Placement p;
    bool majorSeen = false;
    std::set<std::string> seen; // pitch=32,pitch=64 took the last one, silently
    for (const std::string& part : splitParts(text)) {
        if (part.empty()) {
            error = "--smem: empty part (two commas in a row?)";
            return std::nullopt;
        }
        const std::size_t eq = part.find('=');
        const std::string key = eq == std::string::npos ? part : trim(part.substr(0, eq));
        const std::string value = eq == std::string::npos ? std::string() : trim(part.substr(eq + 1));
        if (eq != std::string::npos && !seen.insert(key).second) {
            error = "--smem: " + excerpt(key, 24) + "= given twice; give each part once";
            return std::nullopt;
        }
        auto number = [&](const char* what) -> std::optional<long long> {
            const std::optional<long long> n = parseNumber(value);
            if (!n || *n < 0 || *n > (1 << 20))
                error = "--smem: " + std::string(what) + " '" + excerpt(value, 24) +
                        "' is not a byte count (0 .. 1048576, decimal or 0x hex)";
            return n && *n >= 0 && *n <= (1 << 20) ? n : std::nullopt;
        };
        if (key == "row-major" || key == "col-major") {
            if (majorSeen) {
                error = "--smem: give row-major or col-major once";
                return std::nullopt;
            }
            majorSeen = true;
            p.major = key == "row-major" ? TileMajor::Row : TileMajor::Col;
        } else if (key == "pitch") {
            const auto n = number("pitch");
            if (!n)
                return std::nullopt;
            if (*n == 0) { // 0 stands for "the tile's own line" inside Placement: not a pitch one can give
                error =
                    "--smem: pitch 0 is not a line length; give the bytes from one line's start to the next "
                    "(a multiple of 16, 16 .. 1048576), or leave pitch out for the tile's own line";
                return std::nullopt;
            }
            p.pitchBytes = static_cast<int>(*n);
        } else if (key == "pad") {
            const auto n = number("pad");
            if (!n)
                return std::nullopt;
            p.padBytes = static_cast<int>(*n);
        } else if (key == "start") {
            const auto n = number("start");
            if (!n)
                return std::nullopt;
            p.start = static_cast<std::uint32_t>(*n);
        } else if (key == "mode") {
            const std::optional<smem::Swizzle> mode = smem::parseSwizzle(value);
            if (!mode) {
                error = "--smem: mode '" + excerpt(value, 24) + "' is not one of " +
                        std::string(smem::swizzleList());
                return std::nullopt;
            }
            p.mode = *mode;
        } else if (key == "swizzle") {
            std::string v = value;
            if (v.rfind("Swizzle", 0) == 0)
                v = v.substr(7);
            if (!v.empty() && v.front() == '<' && v.back() == '>')
                v = v.substr(1, v.size() - 2);
            const std::vector<std::string> bms = splitParts(v);
            std::array<int, 3> bmsValue{};
            bool ok = bms.size() == 3;
            for (std::size_t i = 0; ok && i < 3; ++i) {
                const std::optional<long long> n = parseNumber(bms[i]);
                ok = n && *n >= 0 && *n <= 16;
                if (ok)
                    bmsValue[i] = static_cast<int>(*n);
            }
            if (!ok) {
                error = "--smem: swizzle '" + excerpt(value, 24) +
                        "' is not B,M,S (three numbers 0..16, e.g. swizzle=3,3,3 or swizzle=<3,3,3>)";
                return std::nullopt;
            }
            p.cute = CuteSwizzle{bmsValue[0], bmsValue[1], bmsValue[2]};
        } else if (key == "tile") {
            const std::size_t x = value.find('x');
            const auto r = x == std::string::npos ? std::nullopt : parseNumber(value.substr(0, x));
            const auto c = x == std::string::npos ? std::nullopt : parseNumber(value.substr(x + 1));
            if (!r || !c || *r <= 0 || *c <= 0 || *r > 4096 || *c > 4096) {
                error =
                    "--smem: tile '" + excerpt(value, 24) + "' is not ROWSxCOLS (elements, e.g. tile=16x16)";
                return std::nullopt;
            }
            p.tileRows = static_cast<int>(*r);
            p.tileCols = static_cast<int>(*c);
        } else {
            error = "--smem: unknown part '" + excerpt(part, 24) +
                    "'; valid: row-major, col-major, pitch=BYTES, pad=BYTES, swizzle=B,M,S, "
                    "mode=none|32B|64B|128B, start=BYTES, tile=RxC";
            return std::nullopt;
        }
    }
    if (p.cute && p.mode != smem::Swizzle::None) {
        error = "--smem: give swizzle=B,M,S or mode=..., not both";
        return std::nullopt;
    }
    return p;
}

std::string describe(const Placement& p) {
    std::ostringstream out;
    out << (p.major == TileMajor::Row ? "row-major" : "col-major") << ", pitch " << p.pitchBytes << " B, pad "
        << p.padBytes << " B, ";
    if (p.cute)
        out << "Swizzle<" << p.cute->b << ',' << p.cute->m << ',' << p.cute->s << '>';
    else if (p.mode != smem::Swizzle::None)
        out << smem::toString(p.mode) << " swizzle";
    else
        out << "no swizzle";
    out << ", start " << hex(p.start) << ", tile " << p.tileRows << 'x' << p.tileCols;
    return out.str();
}

bool applies(const Variant& variant) {
    const MatrixMove* mv = matrixMoveOf(variant);
    return mv && mv->address;
}

std::optional<Analysis> analyze(const Variant& variant, const Placement& placement, std::string& error) {
    const MatrixMove* mv = matrixMoveOf(variant);
    if (!applies(variant)) {
        error = variant.spec + " reads no shared memory: bank analysis applies to ldmatrix and stmatrix";
        return std::nullopt;
    }
    Placement p = placement;
    const bool row = p.major == TileMajor::Row;
    const int blockH = row ? mv->rows : mv->cols, blockW = row ? mv->cols : mv->rows;
    if (p.tileRows == 0 && p.tileCols == 0) {
        p.tileRows = blockH * (numOf(variant) >= 2 ? 2 : 1);
        p.tileCols = blockW * (numOf(variant) == 4 ? 2 : 1);
    }
    if (p.tileRows % blockH || p.tileCols % blockW) {
        error = "--smem: tile " + std::to_string(p.tileRows) + "x" + std::to_string(p.tileCols) +
                " is not made of whole " + std::to_string(blockH) + "x" + std::to_string(blockW) +
                " matrices";
        return std::nullopt;
    }
    Geometry g = geometryOf(*mv, p);
    if (g.blocksDown * g.blocksAcross < numOf(variant)) {
        error = "--smem: tile " + std::to_string(p.tileRows) + "x" + std::to_string(p.tileCols) + " holds " +
                std::to_string(g.blocksDown * g.blocksAcross) + " matrices; " + variant.spec + " moves " +
                std::to_string(numOf(variant));
        return std::nullopt;
    }
    if (p.pitchBytes == 0)
        p.pitchBytes = g.lineBytes;
    if (p.pitchBytes < g.lineBytes) {
        error = "--smem: pitch " + std::to_string(p.pitchBytes) +
                " B is shorter than one line of the tile (" + std::to_string(g.lineBytes) + " B)";
        return std::nullopt;
    }
    if (p.pitchBytes % kRowBytes || p.padBytes % kRowBytes) {
        error = "--smem: pitch " + std::to_string(p.pitchBytes) + " B + pad " + std::to_string(p.padBytes) +
                " B is not a multiple of 16 bytes: every matrix row address must be 16-byte aligned";
        return std::nullopt;
    }
    if (p.start % kRowBytes) {
        error = "--smem: start " + hex(p.start) +
                " is not 16-byte aligned: every matrix row address must be 16-byte aligned";
        return std::nullopt;
    }
    const int elemBytes = elementBytes(*mv);
    if (p.cute) {
        const CuteSwizzle& c = *p.cute;
        if (c.b < 1 || c.s < c.b) {
            error = "--smem: Swizzle<" + std::to_string(c.b) + "," + std::to_string(c.m) + "," +
                    std::to_string(c.s) + "> is not a swizzle (CuTe needs B >= 1 and S >= B)";
            return std::nullopt;
        }
        if (c.m + log2Exact(elemBytes) < 4) {
            error = "--smem: Swizzle<" + std::to_string(c.b) + "," + std::to_string(c.m) + "," +
                    std::to_string(c.s) +
                    "> permutes units smaller than 16 bytes (M = " + std::to_string(c.m) + " on " +
                    std::to_string(elemBytes) +
                    "-byte elements; M >= " + std::to_string(4 - log2Exact(elemBytes)) +
                    " keeps the 16-byte rows ldmatrix reads whole)";
            return std::nullopt;
        }
    }
    g.stride = p.pitchBytes + p.padBytes;
    const std::uint64_t end = std::uint64_t{p.start} + std::uint64_t(g.lines) * std::uint64_t(g.stride);
    if (end > kSharedMemoryBytes) {
        error = "--smem: the tile ends at byte " + std::to_string(end) +
                ", beyond the 227 KiB (232448 bytes) of shared memory one block can have";
        return std::nullopt;
    }

    Analysis a;
    a.placement = p;
    a.elementBits = elementBitsInMemory(mv->format);
    a.footprintBytes = static_cast<std::uint32_t>(end - p.start);
    std::vector<RowAccess> rows;
    for (const AddressSlot& slot : addressMap(variant)) {
        if (slot.matrix < 0)
            continue;
        const int br = slot.matrix % g.blocksDown, bc = slot.matrix / g.blocksDown;
        RowAccess r;
        r.thread = slot.thread;
        r.matrix = slot.matrix;
        r.row = slot.row;
        const int line = row ? br * blockH + slot.row : bc * blockW + slot.row;
        const int byteInLine = (row ? bc : br) * kRowBytes;
        r.tileRow = row ? line : br * blockH;
        r.tileCol = row ? bc * blockW : line;
        r.linear = p.start + static_cast<std::uint32_t>(line * g.stride + byteInLine);
        r.address = swizzled(p, r.linear, elemBytes);
        r.bankGroup = static_cast<int>((r.address >> 4) & 7);
        rows.push_back(r);
    }
    // One phase per eight consecutive threads that supply addresses.
    for (std::size_t first = 0; first < rows.size(); first += 8) {
        const auto last = rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), first + 8));
        Phase ph = countPhase(static_cast<int>(first / 8),
                              std::vector<RowAccess>(rows.begin() + static_cast<std::ptrdiff_t>(first), last),
                              kRowBytes);
        a.idealWavefronts += 1;
        a.wavefronts += ph.degree;
        a.phases.push_back(std::move(ph));
    }
    return a;
}

Phase countPhase(int index, std::vector<RowAccess> accesses, int bytes) {
    Phase ph;
    ph.index = index;
    const int groups = 128 / bytes;
    std::vector<std::vector<std::uint32_t>> seen(static_cast<std::size_t>(groups));
    for (RowAccess& r : accesses) {
        r.bankGroup = static_cast<int>(r.address % 128u) / bytes;
        std::vector<std::uint32_t>& group = seen[static_cast<std::size_t>(r.bankGroup)];
        const std::uint32_t unit = r.address / static_cast<std::uint32_t>(bytes);
        const auto it = std::find(group.begin(), group.end(), unit);
        r.wavefront = static_cast<int>(it - group.begin());
        if (it == group.end())
            group.push_back(unit);
        ph.degree = std::max(ph.degree, static_cast<int>(group.size()));
    }
    ph.rows = std::move(accesses);
    return ph;
}

std::vector<Placement> candidates(const Variant& variant, const Placement& base) {
    return candidates(matrixMoveOf(variant) ? elementBytes(*matrixMoveOf(variant)) : 2, base);
}

std::vector<Placement> candidates(int elemBytes, const Placement& base, int padStep) {
    // The placement as given first: when it is already conflict-free, the search recommends no change.
    std::vector<Placement> out{base};
    Placement plain = base;
    plain.cute.reset();
    plain.mode = smem::Swizzle::None;
    plain.padBytes = 0;
    if (!(plain == base))
        out.push_back(plain);
    const int m = 4 - log2Exact(elemBytes);
    for (int b = 1; b <= 3; ++b)
        for (int s = b; s <= 7 + m - 3; ++s) {
            Placement p = plain;
            p.cute = CuteSwizzle{b, m, s};
            out.push_back(p);
        }
    for (smem::Swizzle mode : {smem::Swizzle::B32, smem::Swizzle::B64, smem::Swizzle::B128}) {
        Placement p = plain;
        p.mode = mode;
        out.push_back(p);
    }
    for (int pad = padStep; pad <= 128; pad += padStep) {
        Placement p = plain;
        p.padBytes = pad;
        out.push_back(p);
    }
    return out;
}

std::vector<SearchResult> search(const Variant& variant, const Placement& base) {
    std::vector<SearchResult> free, rest;
    for (const Placement& p : candidates(variant, base)) {
        std::string error;
        const std::optional<Analysis> a = analyze(variant, p, error);
        if (!a)
            continue;
        (a->excessive() == 0 ? free : rest).push_back({a->placement, a->wavefronts, a->idealWavefronts});
    }
    std::stable_sort(rest.begin(), rest.end(), [](const SearchResult& x, const SearchResult& y) {
        return x.wavefronts < y.wavefronts;
    });
    free.insert(free.end(), rest.begin(), rest.end());
    return free;
}

std::optional<Placement> recommend(const Variant& variant, const Placement& base) {
    for (const SearchResult& r : search(variant, base))
        if (r.wavefronts == r.idealWavefronts)
            return r.placement; // candidate order: unchanged, smallest swizzle, modes, then padding
    return std::nullopt;
}

std::string toText(const Variant& variant, const Analysis& a) {
    std::ostringstream out;
    out << variant.spec << "  placement: " << describe(a.placement) << '\n';
    out << "bank group k = banks 4k..4k+3 = (address >> 4) & 7; each phase serves 8 threads' 16-byte rows\n";
    for (const Phase& ph : a.phases) {
        const int firstThread = ph.rows.front().thread, lastThread = ph.rows.back().thread;
        out << "\nphase " << ph.index << ": threads " << firstThread << "-" << lastThread << ", " << ph.degree
            << " wavefront" << (ph.degree == 1 ? "" : "s") << " (ideal 1)";
        if (ph.degree > 1)
            out << ", " << ph.degree << "-way bank conflict";
        out << '\n';
        out << "  bank group:";
        for (int k = 0; k < kBankGroups; ++k) {
            char head[16];
            std::snprintf(head, sizeof head, " %5d", k);
            out << head;
        }
        out << '\n';
        for (int w = 0; w < ph.degree; ++w) {
            std::array<std::string, kBankGroups> cells;
            for (const RowAccess& r : ph.rows)
                if (r.wavefront == w) {
                    std::string& c = cells[static_cast<std::size_t>(r.bankGroup)];
                    c += (c.empty() ? "T" : "+T") + std::to_string(r.thread);
                }
            char label[24];
            std::snprintf(label, sizeof label, "  wavefront %d:", w);
            out << label;
            for (const std::string& c : cells) {
                char cell[24];
                std::snprintf(cell, sizeof cell, " %5s", c.empty() ? "." : c.c_str());
                out << cell;
            }
            out << '\n';
        }
        out << "  rows:";
        for (const RowAccess& r : ph.rows)
            out << " T" << r.thread << "=m" << r.matrix << "r" << r.row << "@" << hex(r.address);
        out << '\n';
    }
    out << "\ninstruction: L1 Wavefronts Shared " << a.wavefronts << ", Ideal " << a.idealWavefronts
        << ", L1 Wavefronts Shared Excessive " << a.excessive() << '\n';
    return out.str();
}

std::string toJson(const Variant& variant, const Analysis& a, const FeedCheck* feed) {
    nlohmann::ordered_json doc;
    doc["spec"] = variant.spec;
    const Placement& p = a.placement;
    nlohmann::ordered_json placement;
    placement["major"] = p.major == TileMajor::Row ? "row" : "col";
    placement["pitch_bytes"] = p.pitchBytes;
    placement["pad_bytes"] = p.padBytes;
    if (p.cute)
        placement["swizzle"] = {{"b", p.cute->b}, {"m", p.cute->m}, {"s", p.cute->s}};
    else
        placement["swizzle"] = nullptr;
    placement["mode"] = std::string(smem::toString(p.mode));
    placement["start"] = p.start;
    placement["tile"] = {{"rows", p.tileRows}, {"cols", p.tileCols}};
    doc["placement"] = std::move(placement);
    nlohmann::ordered_json phases = nlohmann::ordered_json::array();
    for (const Phase& ph : a.phases) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const RowAccess& r : ph.rows)
            rows.push_back({{"thread", r.thread},
                            {"matrix", r.matrix},
                            {"row", r.row},
                            {"tile_row", r.tileRow},
                            {"tile_col", r.tileCol},
                            {"address", r.address},
                            {"bank_group", r.bankGroup},
                            {"first_bank", 4 * r.bankGroup},
                            {"wavefront", r.wavefront}});
        phases.push_back({{"phase", ph.index}, {"wavefronts", ph.degree}, {"rows", std::move(rows)}});
    }
    doc["phases"] = std::move(phases);
    doc["wavefronts"] = a.wavefronts;
    doc["ideal_wavefronts"] = a.idealWavefronts;
    doc["excessive_wavefronts"] = a.excessive();
    if (feed) {
        nlohmann::ordered_json cells = nlohmann::ordered_json::array();
        for (const FeedCell& c : feed->cells)
            cells.push_back({{"thread", c.thread},
                             {"element", c.index},
                             {"register", c.reg},
                             {"loaded", {c.loadedRow, c.loadedCol}},
                             {"wanted", {c.wantedRow, c.wantedCol}},
                             {"matches", c.matches()}});
        doc["feeds"] = {{"consumer", feed->consumer},
                        {"operand", std::string(toString(feed->operand))},
                        {"rows", feed->rows},
                        {"cols", feed->cols},
                        {"mismatches", feed->mismatches},
                        {"cells", std::move(cells)}};
    }
    return doc.dump(1) + "\n";
}

// --- feeding an mma ----------------------------------------------------------------------------------

std::optional<FeedCheck> checkFeed(const Variant& move, const Instruction& consumer, Operand operand,
                                   const Placement& placement, std::string& error) {
    const MatrixMove* mv = matrixMoveOf(move);
    if (!mv || !mv->address) {
        error = move.spec + " is not ldmatrix or stmatrix";
        return std::nullopt;
    }
    const bool load = mv->op == MoveOp::Ldmatrix;
    if (load ? (operand != Operand::A && operand != Operand::B)
             : (operand != Operand::C && operand != Operand::D)) {
        error = std::string(load ? "ldmatrix feeds A or B" : "stmatrix drains C or D") + ", not " +
                std::string(toString(operand));
        return std::nullopt;
    }
    const FragmentLayout* wanted = consumer.operand(operand);
    if (!wanted || consumer.scope != Scope::Warp) {
        error = consumer.spec + " has no " + std::string(toString(operand)) +
                " register fragment of one warp (wgmma reads B from shared memory)";
        return std::nullopt;
    }
    const Instruction& in = Catalog::instance().instruction(move);
    const FragmentLayout& regs = in.operands.back();
    if (wanted->containerBits() != regs.containerBits() ||
        wanted->elementsPerThread() != regs.elementsPerThread() || wanted->matrices() != 1) {
        error = move.spec + " moves " + std::to_string(regs.elementsPerThread()) + " x " +
                std::to_string(regs.containerBits()) + "-bit elements per thread; " + consumer.spec + " " +
                std::string(toString(operand)) + " holds " + std::to_string(wanted->elementsPerThread()) +
                " x " + std::to_string(wanted->containerBits()) + "-bit";
        return std::nullopt;
    }
    Placement p = placement;
    if (p.tileRows == 0 && p.tileCols == 0) {
        p.tileRows = wanted->rows();
        p.tileCols = wanted->cols();
    }
    if (p.tileRows != wanted->rows() || p.tileCols != wanted->cols()) {
        error = "--smem: tile " + std::to_string(p.tileRows) + "x" + std::to_string(p.tileCols) +
                " is not the " + std::to_string(wanted->rows()) + "x" + std::to_string(wanted->cols()) + " " +
                std::string(toString(operand)) + " of " + consumer.spec;
        return std::nullopt;
    }
    const std::optional<Analysis> a = analyze(move, p, error);
    if (!a)
        return std::nullopt;
    const Geometry g = geometryOf(*mv, a->placement);
    const bool row = p.major == TileMajor::Row;
    FeedCheck check;
    check.consumer = consumer.spec + ":" + std::string(toString(operand));
    check.operand = operand;
    check.rows = wanted->rows();
    check.cols = wanted->cols();
    for (const Element& e : regs.elements()) {
        FeedCell c;
        c.thread = e.thread;
        c.index = e.index;
        c.reg = e.reg;
        c.bitLo = e.bit;
        c.bitHi = e.bit + regs.containerBits() - 1;
        const int matrix = std::max<int>(e.matrix, 0);
        const int br = matrix % g.blocksDown, bc = matrix / g.blocksDown;
        c.loadedRow = row ? br * g.blockH + e.row : br * g.blockH + e.col;
        c.loadedCol = row ? bc * g.blockW + e.col : bc * g.blockW + e.row;
        const Element& w = wanted->element(e.thread, e.index);
        c.wantedRow = w.row;
        c.wantedCol = w.col;
        check.mismatches += !c.matches();
        check.cells.push_back(c);
    }
    for (const Phase& ph : a->phases)
        check.addresses.insert(check.addresses.end(), ph.rows.begin(), ph.rows.end());
    return check;
}

std::string toText(const Variant& move, const FeedCheck& check) {
    std::ostringstream out;
    const char name = static_cast<char>(std::tolower(toString(check.operand)[0]));
    out << move.spec << " -> " << check.consumer << ": ";
    if (check.mismatches == 0)
        out << "every register slot holds exactly the element the fragment wants (" << check.cells.size()
            << " cells)\n";
    else
        out << check.mismatches << " of " << check.cells.size() << " register slots hold another element\n";
    out << "addresses: each thread supplies the first element of one 16-byte row of the tile\n";
    for (const RowAccess& r : check.addresses)
        out << "  T" << r.thread << ": &" << toString(check.operand) << "[" << r.tileRow << "][" << r.tileCol
            << "] (matrix " << r.matrix << " row " << r.row << ") = " << hex(r.address) << '\n';
    out << "cells (thread:element  loaded [row][col]  wanted [row][col]):\n";
    constexpr std::size_t kShown = 32;
    std::size_t shown = 0;
    for (const FeedCell& c : check.cells) {
        if (check.mismatches && c.matches())
            continue;
        if (shown++ == kShown) {
            out << "  ...\n";
            break;
        }
        out << "  T" << c.thread << ":" << name << c.index << "  [" << c.loadedRow << "][" << c.loadedCol
            << "]  [" << c.wantedRow << "][" << c.wantedCol << "]" << (c.matches() ? "" : "  MISMATCH")
            << '\n';
    }
    return out.str();
}

std::uint32_t swizzledAddress(const Placement& placement, std::uint32_t linear, int elementBytes) {
    return swizzled(placement, linear, elementBytes);
}

lanemap::Placement tilePlacement(const Variant& variant, const Analysis& analysis) {
    const MatrixMove& mv = *matrixMoveOf(variant);
    const Placement& p = analysis.placement;
    const int elemBytes = elementBytes(mv);
    const bool row = p.major == TileMajor::Row;
    const int stride = p.pitchBytes + p.padBytes;
    std::vector<std::vector<Holding>> cells(static_cast<std::size_t>(p.tileRows * p.tileCols));
    for (int r = 0; r < p.tileRows; ++r)
        for (int c = 0; c < p.tileCols; ++c) {
            const int line = row ? r : c;
            const int byteInLine = (row ? c : r) * elemBytes;
            const std::uint32_t linear = p.start + static_cast<std::uint32_t>(line * stride + byteInLine);
            cells[static_cast<std::size_t>(r * p.tileCols + c)].push_back(
                {SmemByte{swizzled(p, linear, elemBytes), 0, analysis.elementBits}, Source::Doc});
        }
    const ElementType type =
        analysis.elementBits == 16 ? ElementType::F16 : ElementType::U8; // b16 or b8 rows
    return lanemap::Placement::table(OperandSet{Operand::A}, Space::SharedMemory, type, p.tileRows,
                                     p.tileCols, std::move(cells));
}

} // namespace lanemap::banks
