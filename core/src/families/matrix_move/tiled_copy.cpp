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
#include <iterator>
#include <numeric>
#include <sstream>

namespace lanemap::tiled_copy {

namespace {

constexpr int kBlock = 8; // an m8n8 matrix: 8 memory rows of 8 b16 elements (16 bytes)

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
                rows.push_back(a);
            }
            for (std::size_t at = 0; at < rows.size(); at += 8) {
                const auto from = rows.begin() + static_cast<std::ptrdiff_t>(at);
                banks::Phase ph =
                    banks::countPhase(static_cast<int>(at / 8),
                                      std::vector<banks::RowAccess>(
                                          from, from + std::min<std::ptrdiff_t>(8, rows.end() - from)),
                                      kRowBytes);
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

bool isSharedLoad(std::string_view text) {
    return text.rfind("ld.shared", 0) == 0;
}

std::optional<SharedLoad> parseSharedLoad(std::string_view text, std::string& error) {
    std::string valid;
    for (const SharedLoad load : kSharedLoads) {
        if (text == toString(load))
            return load;
        valid += (valid.empty() ? "" : ", ") + toString(load);
    }
    error = "'" + std::string(text.substr(0, 40)) +
            "' is not a shared-memory load lanemap models; valid: " + valid +
            " (4, 8 or 16 bytes per thread)";
    return std::nullopt;
}

std::string toString(SharedLoad load) {
    return load.bytes == 4 ? "ld.shared.b32" : "ld.shared.v" + std::to_string(load.bytes / 4) + ".b32";
}

namespace {

// The tile's element (row, col) at a byte of shared memory under a placement, and back.
struct TileBytes {
    const banks::Placement& p;
    int rows, cols, elementBytes;
    std::vector<int> cellAt; // (address - start) / elementBytes -> row * cols + col, or -1
    TileBytes(const banks::Placement& placement, int r, int c, int eb)
        : p(placement), rows(r), cols(c), elementBytes(eb) {
        for (int row = 0; row < rows; ++row)
            for (int col = 0; col < cols; ++col) {
                const std::uint32_t at = (address(row, col) - p.start) / static_cast<std::uint32_t>(eb);
                if (cellAt.size() <= at)
                    cellAt.resize(at + 1, -1);
                cellAt[at] = row * cols + col;
            }
    }
    std::uint32_t linear(int row, int col) const {
        const bool rowMajor = p.major == banks::TileMajor::Row;
        const int line = rowMajor ? row : col, inLine = rowMajor ? col : row;
        return p.start +
               static_cast<std::uint32_t>(line * (p.pitchBytes + p.padBytes) + inLine * elementBytes);
    }
    std::uint32_t address(int row, int col) const {
        return banks::swizzledAddress(p, linear(row, col), elementBytes);
    }
    // The element whose first byte is `address`; {-1, -1} where none starts there.
    std::pair<int, int> at(std::uint32_t address) const {
        if (address < p.start || (address - p.start) % static_cast<std::uint32_t>(elementBytes))
            return {-1, -1};
        const std::uint32_t i = (address - p.start) / static_cast<std::uint32_t>(elementBytes);
        if (i >= cellAt.size() || cellAt[i] < 0)
            return {-1, -1};
        return {cellAt[i] / cols, cellAt[i] % cols};
    }
};

std::string elementName(const std::string& name, int row, int col) {
    return name + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

std::optional<Result> analyzeLoad(SharedLoad load, const Instruction& tiled, Operand operand,
                                  const banks::Placement& placement, std::string& error) {
    const std::string what = toString(load);
    if (!tiled.tile || !tiled.params.tile) {
        error = "a tiled copy loads a tile's operand; give the tile (--atom-layout, --permutation)";
        return std::nullopt;
    }
    if (operand != Operand::A && operand != Operand::B) {
        error = what + " feeds A or B, not " + std::string(toString(operand));
        return std::nullopt;
    }
    const tile::TileFacts& f = *tiled.tile;
    if (f.atomThreads != kWarpSize) {
        error = "a tiled copy of " + tiled.spec +
                " is not modelled: a wgmma tile's B (and the SS form's A) is read from shared memory by the "
                "warpgroup; only mma tiles load A and B from shared memory here";
        return std::nullopt;
    }
    const FragmentLayout* tileOp = tiled.operand(operand);
    if (!tileOp || tileOp->chunked() || tileOp->containerBits() % 8) {
        error = tiled.spec + " " + std::string(toString(operand)) +
                (tileOp ? " holds sparse chunks or sub-byte elements" : " is not in registers") +
                "; ld.shared copies whole bytes of a dense fragment";
        return std::nullopt;
    }
    const std::string name(toString(operand));
    const int elementBytes = tileOp->containerBits() / 8;
    const int epr = tileOp->elementsPerRegister();
    const int perThread = tileOp->registers();
    const int n = load.registers();
    if (perThread % n) {
        error = "each thread holds " + std::to_string(perThread) + " registers of " + name + "; " + what +
                " loads " + std::to_string(n) + " at a time (give ld.shared" +
                (std::gcd(perThread, 4) == 1 ? std::string(".b32")
                                             : ".v" + std::to_string(std::gcd(perThread, 4)) + ".b32") +
                ")";
        return std::nullopt;
    }
    banks::Placement p = placement;
    if (p.tileRows == 0 && p.tileCols == 0) {
        p.tileRows = tileOp->rows();
        p.tileCols = tileOp->cols();
    }
    if (p.tileRows != tileOp->rows() || p.tileCols != tileOp->cols()) {
        error = "--smem: tile " + std::to_string(p.tileRows) + "x" + std::to_string(p.tileCols) +
                " is not the tile's " + name + ", " + std::to_string(tileOp->rows()) + "x" +
                std::to_string(tileOp->cols());
        return std::nullopt;
    }
    const bool rowMajor = p.major == banks::TileMajor::Row;
    const int lineBytes = (rowMajor ? p.tileCols : p.tileRows) * elementBytes;
    const int lines = rowMajor ? p.tileRows : p.tileCols;
    if (p.pitchBytes == 0)
        p.pitchBytes = lineBytes;
    if (p.pitchBytes < lineBytes) {
        error = "--smem: pitch " + std::to_string(p.pitchBytes) +
                " B is shorter than one line of the tile (" + std::to_string(lineBytes) + " B)";
        return std::nullopt;
    }
    if (p.pitchBytes % elementBytes || p.padBytes % elementBytes || p.start % elementBytes) {
        error = "--smem: pitch, pad and start must be multiples of the " + std::to_string(elementBytes) +
                "-byte element (pitch " + std::to_string(p.pitchBytes) + ", pad " +
                std::to_string(p.padBytes) + ", start " + std::to_string(p.start) + ")";
        return std::nullopt;
    }
    if (p.cute && (p.cute->b < 1 || p.cute->s < p.cute->b)) {
        error = "--smem: Swizzle<" + std::to_string(p.cute->b) + "," + std::to_string(p.cute->m) + "," +
                std::to_string(p.cute->s) + "> is not a swizzle (CuTe needs B >= 1 and S >= B)";
        return std::nullopt;
    }
    const std::uint64_t end =
        std::uint64_t{p.start} + std::uint64_t(lines) * std::uint64_t(p.pitchBytes + p.padBytes);
    if (end > 227u * 1024u) {
        error = "--smem: the tile ends at byte " + std::to_string(end) +
                ", beyond the 227 KiB (232448 bytes) of shared memory one block can have";
        return std::nullopt;
    }
    const TileBytes bytes(p, p.tileRows, p.tileCols, elementBytes);

    // The element each register slot of each thread holds in the tiled MMA.
    const int slotsPerThread = perThread * epr;
    const int bitsPer = tileOp->containerBits();
    std::vector<const Element*> wanted(static_cast<std::size_t>(f.threads * slotsPerThread), nullptr);
    for (const Element& e : tileOp->elements())
        wanted[static_cast<std::size_t>(e.thread * slotsPerThread + e.reg * epr + e.bit / bitsPer)] = &e;

    Result r;
    r.sharedLoad = true;
    r.accessBytes = load.bytes;
    r.elementBits = bitsPer;
    r.move = what;
    r.consumer = tile::nameOf(tiled) + ":" + name;
    r.operand = operand;
    r.placement = p;
    r.rows = tileOp->rows();
    r.cols = tileOp->cols();
    r.warps = f.threads / kWarpSize;
    r.perWarp = perThread / n;
    const int perVector = n * epr; // elements one load moves
    const int perPhase = 128 / load.bytes;
    std::string why; // the first slot the load cannot fill, and why
    for (int w = 0; w < r.warps; ++w)
        for (int j = 0; j < r.perWarp; ++j) {
            Copy copy;
            copy.warp = w;
            copy.instruction = j;
            std::vector<banks::RowAccess> accesses;
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const int thread = w * kWarpSize + lane;
                const Element* first =
                    wanted[static_cast<std::size_t>(thread * slotsPerThread + j * perVector)];
                if (!first) {
                    error = "thread " + std::to_string(thread) + " holds nothing in register " +
                            std::to_string(j * n) + " of " + name;
                    return std::nullopt;
                }
                banks::RowAccess a;
                a.thread = thread;
                a.matrix = j * n;
                a.tileRow = first->row;
                a.tileCol = first->col;
                a.linear = bytes.linear(first->row, first->col);
                a.address = bytes.address(first->row, first->col);
                const std::string head =
                    "thread " + std::to_string(thread) + " (warp " + std::to_string(w) + ", lane " +
                    std::to_string(lane) + ") register" +
                    (n > 1 ? "s " + std::to_string(j * n) + ".." + std::to_string(j * n + n - 1)
                           : " " + std::to_string(j * n));
                for (int i = 0; i < perVector; ++i) {
                    const Element* e =
                        wanted[static_cast<std::size_t>(thread * slotsPerThread + j * perVector + i)];
                    const std::pair<int, int> got =
                        bytes.at(a.address + static_cast<std::uint32_t>(i * elementBytes));
                    Slot s;
                    s.thread = thread;
                    s.instruction = j;
                    s.reg = j * n + i / epr;
                    s.bitLo = (i % epr) * bitsPer;
                    s.loadedRow = got.first;
                    s.loadedCol = got.second;
                    if (e) {
                        s.index = e->index;
                        s.wantedRow = e->row;
                        s.wantedCol = e->col;
                    }
                    r.mismatches += !s.matches();
                    if (!s.matches() && why.empty() && e && i > 0) {
                        const Element& prev = *wanted[static_cast<std::size_t>(thread * slotsPerThread +
                                                                               j * perVector + i - 1)];
                        const std::uint32_t prevAt = bytes.address(prev.row, prev.col),
                                            at = bytes.address(e->row, e->col);
                        const bool linearNext =
                            bytes.linear(e->row, e->col) ==
                            bytes.linear(prev.row, prev.col) + static_cast<std::uint32_t>(elementBytes);
                        why = head + (n > 1 ? " hold " : " holds ") + elementName(name, prev.row, prev.col) +
                              " and then " + elementName(name, e->row, e->col) + ", at " + hex(prevAt) +
                              " and " + hex(at) + ": " +
                              (linearNext ? "contiguous before the swizzle, which moves them apart"
                                          : "not contiguous in shared memory (the next element would be at " +
                                                hex(prevAt + static_cast<std::uint32_t>(elementBytes)) + ")");
                    }
                    r.slots.push_back(s);
                }
                // Aligned after contiguous: a swizzle that splits the vector is the reason to name.
                if (why.empty() && a.address % static_cast<std::uint32_t>(load.bytes))
                    why = head + " would start at " + hex(a.address) + " (" +
                          elementName(name, first->row, first->col) + "), not a multiple of " +
                          std::to_string(load.bytes) + " bytes: misaligned";
                accesses.push_back(a);
            }
            for (std::size_t at = 0; at < accesses.size(); at += static_cast<std::size_t>(perPhase)) {
                const auto from = accesses.begin() + static_cast<std::ptrdiff_t>(at);
                banks::Phase ph = banks::countPhase(
                    static_cast<int>(at) / perPhase,
                    std::vector<banks::RowAccess>(
                        from, from + std::min<std::ptrdiff_t>(perPhase, accesses.end() - from)),
                    load.bytes);
                copy.idealWavefronts += 1;
                copy.wavefronts += ph.degree;
                copy.phases.push_back(std::move(ph));
            }
            r.wavefronts += copy.wavefronts;
            r.idealWavefronts += copy.idealWavefronts;
            r.copies.push_back(std::move(copy));
        }
    if (!why.empty()) {
        // The widest narrower load that works here, if any.
        std::string narrower;
        for (auto narrow = std::rbegin(kSharedLoads); narrow != std::rend(kSharedLoads); ++narrow) {
            std::string ignored;
            if (narrow->bytes < load.bytes && analyzeLoad(*narrow, tiled, operand, placement, ignored)) {
                narrower = toString(*narrow);
                break;
            }
        }
        error =
            what + " cannot load " + r.consumer + " from " + banks::describe(p) + ": " + why + "; " +
            (narrower.empty() ? std::string("no ld.shared of 32 bits or more works here (ldmatrix, or 16-bit "
                                            "loads)")
                              : "the widest load that works here is " + narrower);
        return std::nullopt;
    }
    std::stable_sort(r.slots.begin(), r.slots.end(), [](const Slot& a, const Slot& b) {
        return a.thread != b.thread ? a.thread < b.thread
               : a.reg != b.reg     ? a.reg < b.reg
                                    : a.bitLo < b.bitLo;
    });
    return r;
}

} // namespace

std::optional<Result> analyze(SharedLoad load, const Instruction& tiled, Operand operand,
                              const banks::Placement& placement, std::string& error) {
    return analyzeLoad(load, tiled, operand, placement, error);
}

std::vector<banks::SearchResult> search(SharedLoad load, const Instruction& tiled, Operand operand,
                                        const banks::Placement& placement) {
    std::vector<banks::SearchResult> out;
    std::string error;
    const std::optional<Result> base = analyze(load, tiled, operand, placement, error);
    if (!base)
        return out;
    for (const banks::Placement& candidate :
         banks::candidates(base->elementBits / 8, base->placement, load.bytes)) {
        const std::optional<Result> r = analyze(load, tiled, operand, candidate, error);
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
    const std::string word = r.sharedLoad ? " " + r.move : r.store ? " stmatrix" : " ldmatrix";
    out << "  " << r.warps << " warps x " << r.perWarp << word << " = " << r.copies.size()
        << " instructions; the " << r.rows << "x" << r.cols << " " << name << " at "
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
            out << "after " << (r.sharedLoad ? r.move : std::string("ldmatrix")) << " #" << s->instruction
                << " holds " << name << "[" << s->loadedRow << "][" << s->loadedCol
                << "]; the tiled MMA wants " << name << "[" << s->wantedRow << "][" << s->wantedCol
                << "] there\n";
    }
    out << "banks: " << r.wavefronts << " wavefronts (ideal " << r.idealWavefronts << ", excessive "
        << r.excessive() << "); the worst phase " << r.worstDegree() << "-way\n";
    if (r.sharedLoad)
        out << "phases: " << 128 / r.accessBytes << " threads each (" << r.accessBytes
            << " bytes per thread, 128 bytes per wavefront); within a phase, distinct addresses in one "
            << (r.accessBytes == 4 ? std::string("bank")
                                   : "group of " + std::to_string(r.accessBytes / 4) + " banks")
            << " wait for each other\n";
    out << "instructions (warp #j: wavefronts per phase; "
        << (r.sharedLoad ? "the address lane 0 loads from" : "the rows each thread points at") << "):\n";
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
    j["access_bytes"] = r.accessBytes;
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
            for (const banks::RowAccess& a : p.rows) {
                nlohmann::ordered_json row{{"thread", a.thread}};
                if (r.sharedLoad) // the thread's own vector: its first register
                    row["register"] = a.matrix;
                else {
                    row["matrix"] = a.matrix;
                    row["row"] = a.row;
                }
                row["tile_row"] = a.tileRow;
                row["tile_col"] = a.tileCol;
                row["address"] = a.address;
                row["bank_group"] = a.bankGroup;
                row["first_bank"] = a.bankGroup * r.accessBytes / 4;
                row["wavefront"] = a.wavefront;
                rows.push_back(std::move(row));
            }
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
