// A tiled MMA's A or B loaded by ldmatrix from one shared-memory tile (lanemap/tiled_copy.hpp,
// docs/tiles.md#tiled-copy): the atom's feed (banks::checkFeed's block rule) lifted to every warp and rest of
// the tile by the tile's own coordinate rule, and the bank phases of every instruction.
#include "lanemap/tiled_copy.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/tile.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace lanemap::tiled_copy {

namespace {

constexpr int kBlock = 8; // an m8n8 matrix: 8 memory rows of 8 b16 elements (16 bytes)
constexpr int kBankGroups = 8;

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04x", v);
    return buf;
}

// The operand's two modes (A: M x K, B: K x N) and its rest modes in CuTe's value order (A: M then K; B: N
// then K), as tile::apply composes them.
struct Modes {
    tile::Mode row, col, first, second;
};
Modes modesOf(Operand o) {
    if (o == Operand::A)
        return {tile::M, tile::K, tile::M, tile::K};
    if (o == Operand::B)
        return {tile::K, tile::N, tile::N, tile::K};
    return {tile::M, tile::N, tile::M, tile::N}; // C and D
}

} // namespace

int Result::worstDegree() const {
    int worst = 1;
    for (const Copy& c : copies)
        for (const banks::Phase& p : c.phases)
            worst = std::max(worst, p.degree);
    return worst;
}

const Slot* Result::firstMismatch() const {
    for (const Slot& s : slots)
        if (!s.matches())
            return &s;
    return nullptr;
}

std::optional<Result> analyze(const Variant& move, const Instruction& tiled, Operand operand,
                              const banks::Placement& placement, std::string& error) {
    if (!banks::applies(move)) {
        error = move.spec + " is no ldmatrix or stmatrix; a tiled copy loads A or B with ldmatrix (e.g. "
                            "ldmatrix.m8n8.x4.b16) or stores C or D with stmatrix";
        return std::nullopt;
    }
    const MatrixMove* mv = matrixMoveOf(move);
    const bool store = mv->op == MoveOp::Stmatrix;
    if (mv->rows != kBlock || mv->cols != kBlock || mv->format != RowFormat::B16) {
        error = move.spec + " moves other than 8x8 b16 matrices; a tiled copy takes ldmatrix.m8n8 or "
                            "stmatrix.m8n8 (.x1, .x2, .x4, .trans)";
        return std::nullopt;
    }
    if (!tiled.tile || !tiled.params.tile) {
        error = "a tiled copy loads a tile's operand; give the tile (--atom-layout, --permutation)";
        return std::nullopt;
    }
    if (store ? (operand != Operand::C && operand != Operand::D)
              : (operand != Operand::A && operand != Operand::B)) {
        error = std::string(store ? "stmatrix drains C or D" : "ldmatrix feeds A or B") + ", not " +
                std::string(toString(operand));
        return std::nullopt;
    }
    const tile::TileFacts& f = *tiled.tile;
    const tile::TileLayout& t = *tiled.params.tile;
    if (f.atomThreads != kWarpSize) {
        error = "a tiled copy of " + tiled.spec +
                " is not modelled: a wgmma tile's B (and the SS form's A) is read from shared memory by the "
                "warpgroup; only mma tiles load A and B with ldmatrix here";
        return std::nullopt;
    }
    const Instruction* atom = Catalog::instance().instruction(tiled.spec);
    const FragmentLayout* atomOp = atom ? atom->operand(operand) : nullptr;
    const FragmentLayout* tileOp = tiled.operand(operand);
    if (!atomOp || !tileOp) {
        error = tiled.spec + " has no " + std::string(toString(operand)) + " in registers";
        return std::nullopt;
    }
    const Instruction& moveIn = Catalog::instance().instruction(move);
    const FragmentLayout& regs = moveIn.operands.back();
    const int num = numOf(move);
    if (atomOp->containerBits() != regs.containerBits() || atomOp->chunked() ||
        atomOp->elementsPerRegister() != regs.elementsPerRegister()) {
        error = move.spec + " moves " + std::to_string(regs.containerBits()) + "-bit elements, " +
                std::to_string(regs.elementsPerRegister()) + " per register; " + tiled.spec + " " +
                std::string(toString(operand)) + " holds " + std::to_string(atomOp->containerBits()) +
                "-bit elements, " + std::to_string(atomOp->elementsPerRegister()) + " per register" +
                (atomOp->chunked() ? " (sparse chunks)" : "");
        return std::nullopt;
    }
    const Modes modes = modesOf(operand);
    const int atomRows = f.atomShape[modes.row], atomCols = f.atomShape[modes.col];
    const int blocksDown = atomRows / kBlock;
    const int ratom = atomOp->registers();
    if (atomRows % kBlock || atomCols % kBlock || ratom != blocksDown * (atomCols / kBlock)) {
        error = tiled.spec + " " + std::string(toString(operand)) + " (" + std::to_string(atomRows) + "x" +
                std::to_string(atomCols) + ", " + std::to_string(ratom) +
                " registers) is not one 8x8 block per register";
        return std::nullopt;
    }
    const int perWarp = tileOp->registers();
    if (perWarp % num) {
        error = "each warp holds " + std::to_string(perWarp) + " registers of " +
                std::string(toString(operand)) + "; " + move.spec + (store ? " stores " : " loads ") +
                std::to_string(num) + " at a time (give .x" + std::to_string(std::gcd(perWarp, 4)) + ")";
        return std::nullopt;
    }
    // The placement of the whole operand tile, its defaults filled in and checked as for one instruction.
    banks::Placement p = placement;
    if (p.tileRows == 0 && p.tileCols == 0) {
        p.tileRows = tileOp->rows();
        p.tileCols = tileOp->cols();
    }
    if (p.tileRows != tileOp->rows() || p.tileCols != tileOp->cols()) {
        error = "--smem: tile " + std::to_string(p.tileRows) + "x" + std::to_string(p.tileCols) +
                " is not the tile's " + std::string(toString(operand)) + ", " +
                std::to_string(tileOp->rows()) + "x" + std::to_string(tileOp->cols());
        return std::nullopt;
    }
    const std::optional<banks::Analysis> checked = banks::analyze(move, p, error);
    if (!checked)
        return std::nullopt;
    p = checked->placement;
    const bool rowMajor = p.major == banks::TileMajor::Row;
    const int stride = p.pitchBytes + p.padBytes;
    constexpr int elementBytes = 2;

    Result r;
    r.store = store;
    r.move = move.spec;
    r.consumer = tile::nameOf(tiled) + ":" + std::string(toString(operand));
    r.operand = operand;
    r.placement = p;
    r.rows = tileOp->rows();
    r.cols = tileOp->cols();
    r.warps = f.threads / kWarpSize;
    r.perWarp = perWarp / num;
    const int restFirst = f.extent[modes.first] / (f.atomShape[modes.first] * f.atomsPerMode[modes.first]);

    // The warp's atom copy: the atom layout inverted.
    std::vector<std::array<int, 3>> copyOf(static_cast<std::size_t>(r.warps));
    for (int i = 0; i < t.atoms.size(); ++i) {
        const int wm = i % f.atomsPerMode[0], wn = i / f.atomsPerMode[0] % f.atomsPerMode[1],
                  wk = i / (f.atomsPerMode[0] * f.atomsPerMode[1]);
        copyOf[static_cast<std::size_t>(t.atoms(i))] = {wm, wn, wk};
    }
    // The tile coordinates of atom-block element (row, col) of fragment register `reg` of warp `w`.
    const auto tileCell = [&](int w, int reg, int aRow, int aCol) {
        const int restIndex = reg / ratom, atomReg = reg % ratom;
        std::array<int, 3> rest{};
        rest[modes.first] = restIndex % restFirst;
        rest[modes.second] = restIndex / restFirst;
        const int br = atomReg % blocksDown, bc = atomReg / blocksDown;
        const std::array<int, 3>& c = copyOf[static_cast<std::size_t>(w)];
        const int row =
            tile::tileCoordinate(f, t, modes.row, br * kBlock + aRow, c[modes.row], rest[modes.row]);
        const int col =
            tile::tileCoordinate(f, t, modes.col, bc * kBlock + aCol, c[modes.col], rest[modes.col]);
        return std::pair{row, col};
    };
    // The tile fragment's slot (register, bits) of every thread: its element.
    const int slotsPerThread = perWarp * regs.elementsPerRegister();
    const int bitsPer = regs.containerBits();
    std::vector<const Element*> wanted(static_cast<std::size_t>(f.threads * slotsPerThread), nullptr);
    for (const Element& e : tileOp->elements())
        wanted[static_cast<std::size_t>(e.thread * slotsPerThread + e.reg * regs.elementsPerRegister() +
                                        e.bit / bitsPer)] = &e;
    const std::vector<AddressSlot> addresses = addressMap(move);

    r.slots.reserve(static_cast<std::size_t>(f.threads * slotsPerThread));
    for (int w = 0; w < r.warps; ++w)
        for (int j = 0; j < r.perWarp; ++j) {
            Copy copy;
            copy.warp = w;
            copy.instruction = j;
            std::vector<banks::RowAccess> rows;
            for (const AddressSlot& slot : addresses) {
                if (slot.matrix < 0)
                    continue;
                const int reg = j * num + slot.matrix;
                // The memory row: 8 elements along the tile's line, consecutive after the permutation.
                const auto first = rowMajor ? tileCell(w, reg, slot.row, 0) : tileCell(w, reg, 0, slot.row);
                for (int e = 1; e < kBlock; ++e) {
                    const auto at = rowMajor ? tileCell(w, reg, slot.row, e) : tileCell(w, reg, e, slot.row);
                    const bool next = rowMajor ? at.first == first.first && at.second == first.second + e
                                               : at.second == first.second && at.first == first.first + e;
                    if (!next) {
                        const tile::Mode along = rowMajor ? modes.col : modes.row;
                        error = "--permutation " + std::string(tile::kModeNames[along]) + " " +
                                (t.permutation[along] ? t.permutation[along]->cute() : std::string("_")) +
                                " splits a 16-byte matrix row: warp " + std::to_string(w) + "'s register " +
                                std::to_string(reg) + " row " + std::to_string(slot.row) + " holds " +
                                std::string(toString(operand)) + "[" + std::to_string(first.first) + "][" +
                                std::to_string(first.second) + "] and then [" + std::to_string(at.first) +
                                "][" + std::to_string(at.second) +
                                "]; ldmatrix reads 8 consecutive elements of one line (a permutation keeps "
                                "runs of 8, e.g. (_8,_2,_2):(_1,_16,_8))";
                        return std::nullopt;
                    }
                }
                banks::RowAccess a;
                a.thread = w * kWarpSize + slot.thread;
                a.matrix = slot.matrix;
                a.row = slot.row;
                a.tileRow = first.first;
                a.tileCol = first.second;
                const int line = rowMajor ? first.first : first.second;
                const int byteInLine = (rowMajor ? first.second : first.first) * elementBytes;
                a.linear = p.start + static_cast<std::uint32_t>(line * stride + byteInLine);
                a.address = banks::swizzledAddress(p, a.linear, elementBytes);
                a.bankGroup = static_cast<int>((a.address >> 4) & 7);
                rows.push_back(a);
            }
            for (std::size_t at = 0; at < rows.size(); at += 8) {
                banks::Phase ph;
                ph.index = static_cast<int>(at / 8);
                std::array<std::vector<std::uint32_t>, kBankGroups> chunks;
                for (std::size_t i = at; i < rows.size() && i < at + 8; ++i) {
                    banks::RowAccess a = rows[i];
                    std::vector<std::uint32_t>& group = chunks[static_cast<std::size_t>(a.bankGroup)];
                    const auto it = std::find(group.begin(), group.end(), a.address >> 4);
                    a.wavefront = static_cast<int>(it - group.begin());
                    if (it == group.end())
                        group.push_back(a.address >> 4);
                    ph.rows.push_back(a);
                }
                for (const auto& group : chunks)
                    ph.degree = std::max(ph.degree, static_cast<int>(group.size()));
                copy.idealWavefronts += 1;
                copy.wavefronts += ph.degree;
                copy.phases.push_back(std::move(ph));
            }
            r.wavefronts += copy.wavefronts;
            r.idealWavefronts += copy.idealWavefronts;
            r.copies.push_back(std::move(copy));
        }
    // The registers: what each slot receives against what the tiled MMA holds there.
    for (int w = 0; w < r.warps; ++w)
        for (int j = 0; j < r.perWarp; ++j)
            for (const Element& e : regs.elements()) {
                const int reg = j * num + std::max<int>(e.matrix, 0);
                Slot s;
                s.thread = w * kWarpSize + e.thread;
                s.instruction = j;
                s.reg = reg;
                s.bitLo = e.bit;
                const auto loaded =
                    rowMajor ? tileCell(w, reg, e.row, e.col) : tileCell(w, reg, e.col, e.row);
                s.loadedRow = loaded.first;
                s.loadedCol = loaded.second;
                const Element* want = wanted[static_cast<std::size_t>(
                    s.thread * slotsPerThread + reg * regs.elementsPerRegister() + e.bit / bitsPer)];
                if (want) {
                    s.index = want->index;
                    s.wantedRow = want->row;
                    s.wantedCol = want->col;
                }
                r.mismatches += !s.matches();
                r.slots.push_back(s);
            }
    std::stable_sort(r.slots.begin(), r.slots.end(), [](const Slot& a, const Slot& b) {
        return a.thread != b.thread ? a.thread < b.thread
               : a.reg != b.reg     ? a.reg < b.reg
                                    : a.bitLo < b.bitLo;
    });
    return r;
}

std::vector<banks::SearchResult> search(const Variant& move, const Instruction& tiled, Operand operand,
                                        const banks::Placement& placement) {
    std::vector<banks::SearchResult> out;
    std::string error;
    const std::optional<Result> base = analyze(move, tiled, operand, placement, error);
    if (!base)
        return out;
    for (const banks::Placement& candidate : banks::candidates(move, base->placement)) {
        const std::optional<Result> r = analyze(move, tiled, operand, candidate, error);
        if (r)
            out.push_back({r->placement, r->wavefronts, r->idealWavefronts});
    }
    std::stable_sort(out.begin(), out.end(), [](const banks::SearchResult& a, const banks::SearchResult& b) {
        const bool fa = a.wavefronts == a.idealWavefronts, fb = b.wavefronts == b.idealWavefronts;
        if (fa != fb)
            return fa;
        return !fa && a.wavefronts < b.wavefronts;
    });
    return out;
}

std::string toText(const Result& r) {
    std::ostringstream out;
    const std::string name(toString(r.operand));
    out << r.move << " -> " << r.consumer << "\n";
    out << "  " << r.warps << " warps x " << r.perWarp << (r.store ? " stmatrix = " : " ldmatrix = ")
        << r.copies.size() << " instructions; the " << r.rows << "x" << r.cols << " " << name << " at "
        << banks::describe(r.placement) << "\n";
    if (r.mismatches == 0 && !r.store)
        out << "feeds: every register slot holds the element the tiled MMA wants there (" << r.slots.size()
            << " slots)\n";
    else if (r.mismatches == 0)
        out << "drains: every register slot is stored where its element belongs in the tile ("
            << r.slots.size() << " slots)\n";
    else if (const Slot* s = r.firstMismatch()) {
        out << (r.store ? "drains" : "feeds") << ": MISMATCH in " << r.mismatches << " of " << r.slots.size()
            << " register slots; the first: thread " << s->thread << " (warp " << s->thread / kWarpSize
            << ", lane " << s->thread % kWarpSize << ") register " << s->reg << " bits [" << s->bitLo + 15
            << ".." << s->bitLo << "] ";
        if (r.store)
            out << "holds " << name << "[" << s->wantedRow << "][" << s->wantedCol << "]; stmatrix #"
                << s->instruction << " stores it at " << name << "[" << s->loadedRow << "][" << s->loadedCol
                << "]\n";
        else
            out << "after ldmatrix #" << s->instruction << " holds " << name << "[" << s->loadedRow << "]["
                << s->loadedCol << "]; the tiled MMA wants " << name << "[" << s->wantedRow << "]["
                << s->wantedCol << "] there\n";
    }
    out << "banks: " << r.wavefronts << " wavefronts (ideal " << r.idealWavefronts << ", excessive "
        << r.excessive() << "); the worst phase " << r.worstDegree() << "-way\n";
    out << "instructions (warp #j: wavefronts per phase; the rows each thread points at):\n";
    for (const Copy& c : r.copies) {
        out << "  warp " << c.warp << " #" << c.instruction << ": " << c.wavefronts << " wavefronts (";
        for (std::size_t i = 0; i < c.phases.size(); ++i)
            out << (i ? " " : "") << c.phases[i].degree;
        out << ")";
        if (!c.phases.empty() && !c.phases.front().rows.empty()) {
            const banks::RowAccess& a = c.phases.front().rows.front();
            out << "  T" << a.thread << ": &" << name << "[" << a.tileRow << "][" << a.tileCol
                << "] = " << hex(a.address);
        }
        out << "\n";
    }
    return out.str();
}

std::string toJson(const Result& r) {
    nlohmann::ordered_json j;
    j["move"] = r.move;
    j["consumer"] = r.consumer;
    j["operand"] = std::string(toString(r.operand));
    j["rows"] = r.rows;
    j["cols"] = r.cols;
    j["placement"] = banks::describe(r.placement);
    j["warps"] = r.warps;
    j["per_warp"] = r.perWarp;
    j["direction"] = r.store ? "store" : "load";
    j["feeds"] = r.mismatches == 0;
    j["mismatches"] = r.mismatches;
    if (const Slot* s = r.firstMismatch())
        j["first_mismatch"] = {{"thread", s->thread},
                               {"register", s->reg},
                               {"bit", s->bitLo},
                               {"instruction", s->instruction},
                               {"loaded", {s->loadedRow, s->loadedCol}},
                               {"wanted", {s->wantedRow, s->wantedCol}}};
    j["wavefronts"] = r.wavefronts;
    j["ideal_wavefronts"] = r.idealWavefronts;
    j["excessive_wavefronts"] = r.excessive();
    nlohmann::ordered_json copies = nlohmann::ordered_json::array();
    for (const Copy& c : r.copies) {
        nlohmann::ordered_json phases = nlohmann::ordered_json::array();
        for (const banks::Phase& p : c.phases) {
            nlohmann::ordered_json rows = nlohmann::ordered_json::array();
            for (const banks::RowAccess& a : p.rows)
                rows.push_back({{"thread", a.thread},
                                {"matrix", a.matrix},
                                {"row", a.row},
                                {"tile_row", a.tileRow},
                                {"tile_col", a.tileCol},
                                {"address", a.address},
                                {"bank_group", a.bankGroup},
                                {"wavefront", a.wavefront}});
            phases.push_back({{"phase", p.index}, {"wavefronts", p.degree}, {"rows", std::move(rows)}});
        }
        copies.push_back({{"warp", c.warp},
                          {"instruction", c.instruction},
                          {"wavefronts", c.wavefronts},
                          {"phases", std::move(phases)}});
    }
    j["instructions"] = std::move(copies);
    nlohmann::ordered_json slots = nlohmann::ordered_json::array();
    for (const Slot& s : r.slots)
        slots.push_back(
            {s.thread, s.reg, s.bitLo, s.instruction, s.loadedRow, s.loadedCol, s.wantedRow, s.wantedCol});
    j["slots_columns"] = {"thread",     "register",   "bit",        "instruction",
                          "loaded_row", "loaded_col", "wanted_row", "wanted_col"};
    j["slots"] = std::move(slots);
    return j.dump(1) + "\n";
}

} // namespace lanemap::tiled_copy
