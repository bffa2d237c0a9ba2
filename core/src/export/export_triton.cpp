// Triton export (docs/reference/exports.md#triton): LinearLayout bases over F2 per register operand.
// register = element index i, lane = thread % 32, warp = thread / 32; out dims dim0 (row), dim1 (column) of
// the operand as lanemap draws it (A: M x K, B: K x N, C/D: M x N).

#include "lanemap/export_formats.hpp"
#include "lanemap/tile.hpp"
#include "model/bit_layout.hpp"
#include "model/tile_json.hpp"

#include <nlohmann/json.hpp>

namespace lanemap {

namespace {

using nlohmann::ordered_json;

bool powerOfTwo(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

ordered_json operandBases(const FragmentLayout& op, const std::string& tileReason) {
    ordered_json o;
    o["operand"] = std::string(op.name());
    o["out_dims"] = {{"dim0", op.rows()}, {"dim1", op.cols()}};
    auto notLinear = [&](const std::string& why) {
        o["linear"] = false;
        o["reason"] = why;
        return o;
    };
    if (!tileReason.empty())
        return notLinear(tileReason);
    if (op.chunked())
        return notLinear(
            "sparse A: the column of each element inside its chunk is chosen at run time by the "
            "metadata selector, so no fixed map from register/lane/warp to (row, column) exists");
    if (op.matrices() > 1)
        return notLinear("the warp computes " + std::to_string(op.matrices()) +
                         " independent products (quad-pairs): one 2-D layout cannot hold them");
    const int elements = op.elementsPerThread(), threads = op.threads();
    if (!powerOfTwo(elements) || !powerOfTwo(op.rows()) || !powerOfTwo(op.cols()))
        return notLinear("LinearLayout sizes are powers of two; this fragment has " +
                         std::to_string(elements) + " elements per thread on a " + std::to_string(op.rows()) +
                         "x" + std::to_string(op.cols()) + " tile");
    const int eBits = bits::bitsFor(elements), tBits = bits::bitsFor(threads);
    auto at = [&](int x) -> const Element& { return op.element(x >> eBits, x & (elements - 1)); };
    const auto rows = bits::fitAffine(
        eBits + tBits, [](int) { return true; }, [&](int x) { return int(at(x).row); });
    const auto cols = bits::fitAffine(
        eBits + tBits, [](int) { return true; }, [&](int x) { return int(at(x).col); });
    if (!rows || !cols || rows->constant || cols->constant)
        return notLinear("the map from register/lane/warp bits to (row, column) is not linear over F2");
    auto bases = [&](int from, int count) {
        ordered_json list = ordered_json::array();
        for (int b = from; b < from + count; ++b)
            list.push_back(
                {rows->bases[static_cast<std::size_t>(b)], cols->bases[static_cast<std::size_t>(b)]});
        return list;
    };
    o["linear"] = true;
    o["bases"] = {{"register", bases(0, eBits)},
                  {"lane", bases(eBits, std::min(tBits, 5))},
                  {"warp", bases(eBits + 5, std::max(0, tBits - 5))}};
    return o;
}

} // namespace

std::string tritonTileRefusal(const Instruction& in) {
    if (!in.tile || !in.params.tile)
        return {};
    const tile::TileFacts& f = *in.tile;
    const tile::TileLayout& t = *in.params.tile;
    // An atom that is not linear itself (a sparse A's chunks, an N of 24) says so per operand, as it does
    // alone.
    for (int m = 0; m < 3; ++m)
        if (!powerOfTwo(f.atomShape[m]))
            return {};
    for (int m = 0; m < 3; ++m)
        if (!powerOfTwo(f.atomsPerMode[m]))
            return "--atom-layout " + f.atomLayout + " puts " + std::to_string(f.atomsPerMode[m]) +
                   " atoms along " + tile::kModeNames[m] +
                   "; Triton's warp bases span a power of two of warps (1, 2, 4, 8, ...) along each mode";
    for (int m = 0; m < 3; ++m)
        if (!powerOfTwo(f.extent[m]))
            return "the tile's " + std::string(tile::kModeNames[m]) + " is " + std::to_string(f.extent[m]) +
                   (t.permutation[m] ? " (--permutation " + std::string(tile::kModeNames[m]) + " " +
                                           t.permutation[m]->cute() + ")"
                                     : std::string()) +
                   "; a LinearLayout's dims are powers of two";
    // What remains folds into the bases: a CuTe layout that is a bijection of a power of two (its modes
    // powers of two) is a mixed-radix reordering, a permutation of the index's bits, so linear over F2; so is
    // the atom layout's numbering of the warps.
    return {};
}

std::string toTritonJson(const Instruction& in, std::optional<Operand> only) {
    // One operand per line: the bases read as the lists Triton prints, not one number per line.
    std::string out =
        "{\n \"spec\": " + ordered_json(in.spec).dump() + ",\n \"ptx\": " + ordered_json(in.ptx).dump() +
        ",\n \"note\": \"Triton LinearLayout: each in-dim bit maps to [dim0, dim1]; the image of an "
        "index is the XOR of the bases of its set bits\",";
    // A tile (docs/tiles.md#triton): its CTA threads' warps are the warp bases; thread = 32 * warp + lane.
    if (in.tile)
        out += "\n \"tile\": " + tile::tileJson(*in.tile).dump() + ",";
    out += "\n \"operands\": [";
    const std::string tileReason = tritonTileRefusal(in);
    bool first = true;
    for (const FragmentLayout& op : in.operands)
        if (!only || op.operand() == *only) {
            out += (first ? "\n  " : ",\n  ") + operandBases(op, tileReason).dump();
            first = false;
        }
    out += first ? "]" : "\n ]";
    if (in.metadata && (!only || *only == Operand::Metadata))
        out +=
            ",\n \"metadata\": \"not linear: metadata fields are not matrix elements (see the CUDA header)\"";
    if (in.tile && in.tile->atomThreads == kWarpgroupSize)
        out += ",\n \"shared_memory\": \"B (and A in the SS form) live in shared memory, read by each "
               "warpgroup: the tile does not place them (docs/tiles.md)\"";
    else if (in.scope == Scope::Warpgroup)
        out +=
            ",\n \"shared_memory\": \"B (and A in the SS form) live in shared memory: see --format cute for "
            "their Swizzle o layout\"";
    return out + "\n}\n";
}

} // namespace lanemap
