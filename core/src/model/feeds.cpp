// One placement into shared memory read through another (lanemap/feeds.hpp): the writer's cells indexed by
// byte, then every cell of the reader looked up at its own byte.
#include "lanemap/feeds.hpp"

#include "lanemap/family.hpp"
#include "lanemap/model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace lanemap::feeds {

std::string_view toString(Orientation orientation) {
    return orientation == Orientation::Same ? "same" : "transposed";
}

namespace {

// Bytes an element of `bits` takes in memory (tf32's 19 data bits take 4).
int storageBytes(int bits) {
    return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

std::optional<SmemByte> feedsByteOf(const Placement& p, int row, int col) {
    const std::vector<Holding> h = p.at(row, col);
    for (const Holding& one : h)
        if (const auto* s = std::get_if<SmemByte>(&one.at))
            return *s;
    return std::nullopt;
}

Cell feedsMapped(Cell c, Orientation o) {
    return o == Orientation::Same ? c : Cell{c.col, c.row};
}

int elementBytesOf(const Placement& p, const char* side) {
    if (p.space() != Space::SharedMemory)
        throw std::invalid_argument(std::string(side) + " is a placement into " +
                                    std::string(lanemap::toString(p.space())) + ", not shared memory");
    for (int r = 0; r < p.rows(); ++r)
        for (int c = 0; c < p.cols(); ++c)
            if (const std::optional<SmemByte> b = feedsByteOf(p, r, c))
                return storageBytes(b->bits);
    throw std::invalid_argument(std::string(side) + " places no element in shared memory");
}

} // namespace

Cell tiledExtent(Cell tile, int writerRows, int writerCols, Orientation orientation) {
    const Cell w = feedsMapped({writerRows, writerCols}, orientation);
    const auto cover = [](int want, int step) {
        return step <= 0 ? want : std::max(1, (want + step - 1) / step) * step;
    };
    return {cover(w.row, tile.row), cover(w.col, tile.col)};
}

Comparison compare(const Placement& written, const Placement& read, Orientation orientation) {
    const int wb = elementBytesOf(written, "the writer");
    const int rb = elementBytesOf(read, "the reader");
    if (wb != rb)
        throw std::invalid_argument("the writer's elements are " + std::to_string(wb) +
                                    " bytes and the reader's " + std::to_string(rb) +
                                    ": a box feeds a reader of its own element size only");
    Comparison out;
    out.orientation = orientation;
    out.readerRows = read.rows();
    out.readerCols = read.cols();
    out.writerRows = written.rows();
    out.writerCols = written.cols();
    out.elementBytes = wb;

    // The writer, by byte: which of its cells starts there; and where each of its cells went.
    std::map<std::uint32_t, Cell> wroteAt;
    for (int r = 0; r < written.rows(); ++r)
        for (int c = 0; c < written.cols(); ++c)
            if (const std::optional<SmemByte> b = feedsByteOf(written, r, c))
                wroteAt.emplace(b->address, Cell{r, c});

    // The reader in its address order, so "first" is the lowest byte that disagrees.
    std::vector<std::pair<std::uint32_t, Cell>> reads;
    reads.reserve(static_cast<std::size_t>(read.rows() * read.cols()));
    for (int r = 0; r < read.rows(); ++r)
        for (int c = 0; c < read.cols(); ++c)
            if (const std::optional<SmemByte> b = feedsByteOf(read, r, c))
                reads.emplace_back(b->address, Cell{r, c});
    std::sort(reads.begin(), reads.end(), [](const auto& a, const auto& b) {
        return a.first != b.first
                   ? a.first < b.first
                   : std::pair{a.second.row, a.second.col} < std::pair{b.second.row, b.second.col};
    });

    std::vector<bool> readCell(static_cast<std::size_t>(written.rows() * written.cols()), false);
    out.readerDiffers.assign(static_cast<std::size_t>(read.rows() * read.cols()), 0);
    out.writerDiffers.assign(static_cast<std::size_t>(written.rows() * written.cols()), 0);
    for (const auto& [address, cell] : reads) {
        ++out.compared;
        const Cell want = feedsMapped(cell, orientation); // the writer's cell that should be here
        const bool inWriter =
            want.row >= 0 && want.row < written.rows() && want.col >= 0 && want.col < written.cols();
        if (inWriter)
            readCell[static_cast<std::size_t>(want.row * written.cols() + want.col)] = true;
        const auto at = wroteAt.find(address);
        if (at != wroteAt.end() && at->second == want) {
            ++out.equal;
            continue;
        }
        if (!inWriter)
            ++out.unwritten;
        else
            out.writerDiffers[static_cast<std::size_t>(want.row * written.cols() + want.col)] = 1;
        out.readerDiffers[static_cast<std::size_t>(cell.row * read.cols() + cell.col)] = 1;
        out.differingBytes.push_back(address);
        if (out.first)
            continue;
        Difference d;
        d.offset = address;
        d.expected = cell;
        if (at != wroteAt.end()) {
            d.wroteCell = at->second;
            d.wroteAsReader = feedsMapped(at->second, orientation);
        }
        if (inWriter)
            if (const std::optional<SmemByte> b = feedsByteOf(written, want.row, want.col))
                d.expectedWrittenAt = b->address;
        out.first = d;
    }
    for (int r = 0; r < written.rows(); ++r)
        for (int c = 0; c < written.cols(); ++c)
            if (!readCell[static_cast<std::size_t>(r * written.cols() + c)] && feedsByteOf(written, r, c))
                ++out.unread;
    return out;
}

namespace {

std::string hexOffset(std::uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// "(3, 5)" and, where the writer's global placement knows it, " = global (row, col)" or " = fill".
std::string writerCellText(Cell c, const Sides& sides) {
    std::string s = "box (" + std::to_string(c.row) + ", " + std::to_string(c.col) + ")";
    if (!sides.writerGlobal)
        return s;
    const std::vector<Holding> g = sides.writerGlobal->at(c.row, c.col);
    if (g.empty())
        return s + ", fill";
    const GlobalElement& e = std::get<GlobalElement>(g.front().at);
    s += ", global (";
    for (int i = e.rank - 1; i >= 0; --i)
        s += std::to_string(e.coord[static_cast<std::size_t>(i)]) + (i ? ", " : "");
    return s + ")";
}

std::string readerCellText(Cell c, const Sides& sides) {
    return sides.readerRow + "=" + std::to_string(c.row) + ", " + sides.readerCol + "=" +
           std::to_string(c.col);
}

} // namespace

std::string toText(const Comparison& c, const Sides& sides) {
    std::ostringstream out;
    out << "writer: " << sides.writer << " (" << c.writerRows << " x " << c.writerCols << " cells)\n";
    out << "reader: " << sides.reader << " (" << c.readerRows << " x " << c.readerCols << " cells, "
        << sides.readerRow << " x " << sides.readerCol << ")\n";
    out << "orientation: the box's rows and columns are the reader's "
        << (c.orientation == Orientation::Same ? sides.readerRow + " and " + sides.readerCol
                                               : sides.readerCol + " and " + sides.readerRow)
        << "\n";
    if (c.feeds()) {
        out << "feeds: yes, equal cell by cell: all " << c.compared
            << " cells the reader reads are where the box put them";
        if (c.unread)
            out << " (" << c.unread << " box cells the reader does not read)";
        out << '\n';
        return out.str();
    }
    out << "feeds: no, " << c.equal << " of " << c.compared << " cells equal";
    if (c.unwritten)
        out << ", " << c.unwritten << " the box does not hold";
    out << '\n';
    if (const std::optional<Difference>& d = c.first) {
        out << "first difference at byte " << d->offset << " (" << hexOffset(d->offset) << "):\n";
        out << "  the reader expects " << readerCellText(d->expected, sides) << " there";
        const Cell want =
            c.orientation == Orientation::Same ? d->expected : Cell{d->expected.col, d->expected.row};
        if (d->expectedWrittenAt)
            out << " (" << writerCellText(want, sides) << "), which the box put at byte "
                << *d->expectedWrittenAt << " (" << hexOffset(*d->expectedWrittenAt) << ")\n";
        else
            out << ", which the box does not hold (its grid is " << c.writerRows << " x " << c.writerCols
                << ")\n";
        if (d->wroteCell)
            out << "  the box wrote " << writerCellText(*d->wroteCell, sides) << " there, the reader's "
                << readerCellText(*d->wroteAsReader, sides) << '\n';
        else
            out << "  the box wrote nothing there (padding, or past its end)\n";
    }
    return out.str();
}

std::string toJson(const Comparison& c, const Sides& sides) {
    using json = nlohmann::ordered_json;
    json o;
    o["writer"] = sides.writer;
    o["reader"] = sides.reader;
    o["orientation"] = std::string(toString(c.orientation));
    o["writer_cells"] = {c.writerRows, c.writerCols};
    o["reader_cells"] = {c.readerRows, c.readerCols};
    o["reader_axes"] = {sides.readerRow, sides.readerCol};
    o["element_bytes"] = c.elementBytes;
    o["feeds"] = c.feeds();
    o["compared"] = c.compared;
    o["equal"] = c.equal;
    o["not_in_box"] = c.unwritten;
    o["unread_box_cells"] = c.unread;
    if (const std::optional<Difference>& d = c.first) {
        json f;
        f["smem_offset"] = d->offset;
        f["reader_expects"] = {{"row", d->expected.row}, {"col", d->expected.col}};
        const Cell want =
            c.orientation == Orientation::Same ? d->expected : Cell{d->expected.col, d->expected.row};
        if (d->expectedWrittenAt)
            f["reader_expects"]["box"] = {want.row, want.col};
        f["expected_written_at"] = d->expectedWrittenAt ? json(*d->expectedWrittenAt) : json();
        if (d->wroteCell) {
            json w;
            w["box"] = {d->wroteCell->row, d->wroteCell->col};
            w["row"] = d->wroteAsReader->row;
            w["col"] = d->wroteAsReader->col;
            if (sides.writerGlobal) {
                const std::vector<Holding> g = sides.writerGlobal->at(d->wroteCell->row, d->wroteCell->col);
                w["fill"] = g.empty();
            }
            f["wrote"] = w;
        } else {
            f["wrote"] = nullptr;
        }
        o["first_difference"] = f;
    } else {
        o["first_difference"] = nullptr;
    }
    return o.dump(1) + "\n";
}

namespace {

const Placement* feedsSharedOf(const Instruction& in) {
    for (const Placement& p : in.placements)
        if (p.space() == Space::SharedMemory)
            return &p;
    return nullptr;
}

const Placement* feedsGlobalOf(const Instruction& in) {
    for (const Placement& p : in.placements)
        if (p.space() == Space::Global)
            return &p;
    return nullptr;
}

} // namespace

std::optional<Answer> ask(const Request& request, std::string& error) {
    if (!request.writer || !request.reader) {
        error = "no writer or no reader to compare";
        return std::nullopt;
    }
    Answer answer;
    try {
        answer.writer = instantiate(request.writer);
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return std::nullopt;
    }
    // A writer moves global memory into shared memory: it has both placements (a TMA box).
    const Placement* written = feedsSharedOf(*answer.writer);
    if (!written || !feedsGlobalOf(*answer.writer)) {
        error = request.writer.variant->spec +
                " does not move global memory into shared memory; the writer is a TMA box "
                "(cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B)";
        return std::nullopt;
    }
    std::shared_ptr<const Instruction> readerInstance;
    try {
        readerInstance = instantiate(request.reader);
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return std::nullopt;
    }
    const Instruction& reader = *readerInstance;
    Orientation orientation = Orientation::Same;
    std::string layoutWords;
    if (request.tile) {
        if (request.major || request.swizzle || request.inner) {
            error = "an ldmatrix/stmatrix tile is placed by its --smem text (row-major|col-major, pitch, "
                    "swizzle ...); --major, --swizzle and --inner describe a descriptor's layout";
            return std::nullopt;
        }
        banks::Placement tile = *request.tile;
        const bool rowMajor = tile.major == banks::TileMajor::Row;
        orientation = rowMajor ? Orientation::Same : Orientation::Transposed;
        if (tile.tileRows == 0 && tile.tileCols == 0) { // the writer's grid, as the tile's lines run
            const Cell extent = feedsMapped({written->rows(), written->cols()}, orientation);
            tile.tileRows = extent.row;
            tile.tileCols = extent.col;
        }
        const std::optional<banks::Analysis> analysis = banks::analyze(*request.reader.variant, tile, error);
        if (!analysis)
            return std::nullopt;
        answer.reader = banks::tilePlacement(*request.reader.variant, *analysis);
        layoutWords = banks::describe(analysis->placement);
        answer.sides.readerRow = "row";
        answer.sides.readerCol = "col";
    } else {
        const Family* family = reader.family;
        if (!family || !family->sharedOperand) {
            error = reader.spec + " reads no operand from shared memory through a descriptor (wgmma and "
                                  "tcgen05.mma do; an ldmatrix tile takes --smem)";
            return std::nullopt;
        }
        smem::Choice choice;
        choice.major = request.major.value_or(smem::Major::K);
        choice.swizzle = request.swizzle.value_or(
            request.writer.params.smem ? request.writer.params.smem->swizzle : smem::Swizzle::None);
        Placement own;
        if (!family->sharedOperand(reader, request.operand, choice, 0, 0, own, error))
            return std::nullopt;
        const smem::SharedOperand* shared = own.shared();
        const bool colsAreK = shared && shared->toLayout(0, 1).k == 1;
        const bool innerIsK = request.inner.value_or(choice.major) == smem::Major::K;
        orientation = innerIsK == colsAreK ? Orientation::Same : Orientation::Transposed;
        const Cell extent =
            tiledExtent({own.rows(), own.cols()}, written->rows(), written->cols(), orientation);
        if (!family->sharedOperand(reader, request.operand, choice, extent.row, extent.col, answer.reader,
                                   error))
            return std::nullopt;
        const std::string mn(1, shared ? shared->mnLetter : 'm');
        answer.sides.readerRow = colsAreK ? mn : "k";
        answer.sides.readerCol = colsAreK ? "k" : mn;
        layoutWords = std::string(smem::toString(choice.major)) + "-major, swizzle " +
                      std::string(smem::toString(choice.swizzle));
        if (request.inner)
            layoutWords += ", the box's columns are " + std::string(innerIsK ? "K" : "M/N");
    }
    try {
        answer.comparison = compare(*written, answer.reader, orientation);
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return std::nullopt;
    }
    answer.sides.writer = request.writerText.empty() ? request.writer.variant->spec : request.writerText;
    answer.sides.reader =
        (request.readerText.empty() ? reader.spec : request.readerText) + " (" + layoutWords + ")";
    answer.sides.writerGlobal = feedsGlobalOf(*answer.writer);
    return answer;
}

} // namespace lanemap::feeds
