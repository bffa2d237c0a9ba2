// CuTe export (docs/reference/exports.md#cute): thread-value layouts in CuTe's conventions, the CUTLASS atom
// name, and wgmma shared-memory Swizzle o layout forms. Modes are found by factoring the integer map from
// thread (value) index to the column-major codomain index; the result is re-evaluated against the engine
// before it is printed, so a layout that is not one CuTe layout is reported as such, never approximated.

#include "lanemap/export_formats.hpp"

#include <functional>
#include <numeric>
#include <sstream>

namespace lanemap {

namespace {

struct Mode {
    int size = 1;
    long stride = 0;
};

// Factors g over 0..n-1 into modes (size, stride) with g(x) = sum_k coord_k(x) * stride_k, colexicographic
// coordinates. Greedy: each mode is the longest run g(j) = j * g(1) whose length divides what remains.
// The caller verifies the result.
std::vector<Mode> factor(int n, const std::function<long(int)>& g) {
    std::vector<Mode> modes;
    long scale = 1;
    while (n > 1) {
        const long s = g(static_cast<int>(scale));
        int best = 0;
        for (int d = n; d >= 2; --d) {
            if (n % d)
                continue;
            bool run = true;
            for (int j = 1; j < d && run; ++j)
                run = g(static_cast<int>(scale * j)) == j * s;
            if (run) {
                best = d;
                break;
            }
        }
        if (!best)
            for (int d = 2; d <= n; ++d)
                if (n % d == 0) {
                    best = d;
                    break;
                }
        modes.push_back({best, s});
        scale *= best;
        n /= best;
    }
    if (modes.empty())
        modes.push_back({1, 0});
    return modes;
}

long evaluate(const std::vector<Mode>& modes, int x) {
    long v = 0;
    for (const Mode& m : modes) {
        v += (x % m.size) * m.stride;
        x /= m.size;
    }
    return v;
}

std::string tuple(const std::vector<Mode>& modes, bool sizes, bool underscore) {
    auto one = [&](const Mode& m) {
        return (underscore ? "_" : "") + std::to_string(sizes ? static_cast<long>(m.size) : m.stride);
    };
    if (modes.size() == 1)
        return one(modes[0]);
    std::string s = "(";
    for (std::size_t k = 0; k < modes.size(); ++k)
        s += (k ? "," : "") + one(modes[k]);
    return s + ")";
}

std::string layoutString(const std::vector<Mode>& t, const std::vector<Mode>& v) {
    return "(" + tuple(t, true, false) + "," + tuple(v, true, false) + "):(" + tuple(t, false, false) + "," +
           tuple(v, false, false) + ")";
}

std::string cppType(const std::vector<Mode>& t, const std::vector<Mode>& v) {
    auto shape = [](const std::vector<Mode>& m, bool sizes) {
        std::string s = m.size() == 1 ? "" : std::string(sizes ? "Shape<" : "Stride<");
        for (std::size_t k = 0; k < m.size(); ++k)
            s += (k ? "," : "") + std::string("_") +
                 std::to_string(sizes ? static_cast<long>(m[k].size) : m[k].stride);
        return m.size() == 1 ? s : s + ">";
    };
    return "Layout<Shape<" + shape(t, true) + "," + shape(v, true) + ">, Stride<" + shape(t, false) + "," +
           shape(v, false) + ">>";
}

std::string cuteElementType(ElementType t) {
    switch (t) {
    case ElementType::F16:
        return "half_t";
    case ElementType::BF16:
        return "bfloat16_t";
    case ElementType::TF32:
        return "tfloat32_t";
    case ElementType::E4M3:
        return "float_e4m3_t";
    case ElementType::E5M2:
        return "float_e5m2_t";
    case ElementType::S8:
        return "int8_t";
    case ElementType::U8:
        return "uint8_t";
    case ElementType::B1:
        return "uint1b_t";
    default:
        return std::string(toString(t));
    }
}

// The register operand as one CuTe TV layout, or why not.
std::string operandLayout(const FragmentLayout& op) {
    std::ostringstream s;
    const char* dims = op.operand() == Operand::A ? "M,K" : op.operand() == Operand::B ? "N,K" : "M,N";
    const int first = op.operand() == Operand::B ? op.cols() : op.rows();
    const int second = op.operand() == Operand::B ? op.rows() : op.cols();
    s << op.name() << ": (T" << op.threads() << ",V" << op.elementsPerThread() << ") -> (" << dims[0] << first
      << "," << dims[2] << second << (op.matrices() > 1 ? ",P" + std::to_string(op.matrices()) : "") << ")\n";
    if (op.chunked()) {
        s << "  not expressible as one CuTe layout, because each compressed element's column inside its "
             "range "
             "of "
          << op.elements()[0].colLast - op.elements()[0].col + 1
          << " columns is chosen at run time by the metadata (the ranges are in the CUDA and JSON exports)\n";
        return s.str();
    }
    // Column-major codomain index of (first, second[, product]).
    auto index = [&](const Element& e) -> long {
        const long a = op.operand() == Operand::B ? e.col : e.row;
        const long b = op.operand() == Operand::B ? e.row : e.col;
        return a + static_cast<long>(first) * b +
               static_cast<long>(first) * second * std::max(0, int(e.matrix));
    };
    const int threads = op.threads(), values = op.elementsPerThread();
    const long origin = index(op.element(0, 0));
    const std::vector<Mode> t = factor(threads, [&](int x) { return index(op.element(x, 0)) - origin; });
    const std::vector<Mode> v = factor(values, [&](int x) { return index(op.element(0, x)) - origin; });
    bool ok = origin == 0;
    for (int x = 0; x < threads && ok; ++x)
        for (int y = 0; y < values && ok; ++y)
            ok = evaluate(t, x) + evaluate(v, y) == index(op.element(x, y));
    if (!ok) {
        s << "  not expressible as one CuTe layout, because the codomain index is not a sum of a thread term "
             "and a value term with fixed strides\n";
        return s.str();
    }
    s << "  " << layoutString(t, v) << '\n';
    s << "  " << cppType(t, v) << '\n';
    if (op.matrices() > 1)
        s << "  (the warp runs " << op.matrices()
          << " independent products (quad-pairs): P is the product, index = " << dims[0] << " + " << first
          << "*" << dims[2] << " + " << first * second << "*P)\n";
    return s.str();
}

std::string sharedLayout(const smem::SharedOperand& so) {
    std::ostringstream s;
    const smem::SmemLayout& l = so.layout;
    const int bits = l.elementBits();
    const int rows = l.rows(), cols = l.cols();
    const std::uint32_t start = l.startAddress();
    // Element offset before the swizzle, in units of elements.
    auto offset = [&](int mn, int k) -> long {
        const smem::Placement p = l.placement(mn, k);
        return (static_cast<long>(p.linear - start) * 8 + p.bit) / bits; // bit: sub-byte types (b1)
    };
    const std::vector<Mode> mn = factor(rows, [&](int x) { return offset(x, 0); });
    const std::vector<Mode> k = factor(cols, [&](int x) { return offset(0, x); });
    bool ok = true;
    for (int x = 0; x < rows && ok; ++x)
        for (int y = 0; y < cols && ok; ++y) {
            const long bit = (evaluate(mn, x) + evaluate(k, y)) * bits;
            const std::uint32_t byte =
                smem::swizzleAddress(start + static_cast<std::uint32_t>(bit / 8), l.swizzle());
            const smem::Placement p = l.placement(x, y);
            ok = byte == p.address && static_cast<int>(bit % 8) == p.bit;
        }
    const std::string majorName = l.major() == smem::Major::K ? "K" : "MN";
    static const char* swz[] = {"INTER", "SW32", "SW64", "SW128"};
    s << (so.operand == Operand::A ? "A" : "B") << " in shared memory (" << majorName << "-major, "
      << smem::toString(l.swizzle()) << " swizzle): (" << (so.operand == Operand::A ? "M" : "N") << rows
      << ",K" << cols << ")\n";
    s << "  atom: GMMA::Layout_" << majorName << "_" << swz[smem::swizzleBits(l.swizzle())] << "_Atom<"
      << cuteElementType(so.elementType) << ">\n";
    if (!ok) {
        s << "  not expressible as one Swizzle o layout, because the canonical offsets are not a sum of an "
             "MN "
             "term and a K term with fixed strides\n";
        return s.str();
    }
    s << "  Swizzle<" << smem::swizzleBits(l.swizzle()) << ",4,3> o smem_ptr[" << bits << "b] o ("
      << tuple(mn, true, false) << "," << tuple(k, true, false) << "):(" << tuple(mn, false, false) << ","
      << tuple(k, false, false) << ")\n";
    s << "  (the layout gives element offsets; the swizzle acts on the byte address of a 1024-byte aligned "
         "buffer: "
      << l.swizzleRule() << ")\n";
    return s.str();
}

// A CuTe layout as a C++ type: "_32" for an identity, else Layout<Shape<...>, Stride<...>>.
std::string cppLayout(const CuteLayout& l) {
    if (l.shape.size() == 1 && l.stride.front() == 1)
        return "_" + std::to_string(l.shape.front());
    auto list = [](const std::vector<int>& v) {
        std::string s;
        for (std::size_t i = 0; i < v.size(); ++i)
            s += (i ? ",_" : "_") + std::to_string(v[i]);
        return s;
    };
    return "Layout<Shape<" + list(l.shape) + ">, Stride<" + list(l.stride) + ">>";
}

// A tile: the make_tiled_mma call that builds it, and its thread-value layouts over the CTA's threads.
std::string tileCute(const Instruction& in) {
    const tile::TileFacts& f = *in.tile;
    const tile::TileLayout& t = *in.params.tile;
    std::ostringstream s;
    s << "// " << tile::nameOf(in) << " (" << in.ptx << "): CuTe's TiledMMA, generated by lanemap\n";
    s << "// Thread-value layouts map (CTA thread, value) to a column-major index of the tile's A (M,K), B "
         "(N,K),\n// C/D (M,N), as TiledMMA::get_layoutA_TV(), get_layoutB_TV() and get_layoutC_TV() "
         "(docs/tiles.md).\n";
    std::string atom = f.cutlassAtom;
    if (atom.rfind("SM90::GMMA::", 0) == 0) // the wgmma atoms are templates: K-major A (RS) and B
        atom += atom.size() > 3 && atom.compare(atom.size() - 3, 3, "_TN") == 0
                    ? "<>"
                    : "<GMMA::Major::K, GMMA::Major::K>";
    if (f.cutlassAtom.empty())
        s << "atom: none (CUTLASS names no atom for this variant); the tile's layouts follow\n";
    else {
        s << "auto tiled_mma = make_tiled_mma(" << atom << "{},\n                                "
          << "Layout<Shape<_" << t.atoms.shape[0] << ",_" << t.atoms.shape[1] << ",_" << t.atoms.shape[2]
          << ">, Stride<_" << t.atoms.stride[0] << ",_" << t.atoms.stride[1] << ",_" << t.atoms.stride[2]
          << ">>{}";
        if (!f.permutation.empty()) {
            s << ",\n                                Tile<";
            for (int m = 0; m < 3; ++m)
                s << (m ? ", " : "") << (t.permutation[m] ? cppLayout(*t.permutation[m]) : "Underscore");
            s << ">{}";
        }
        s << ");\n";
    }
    s << "tile: " << f.extent[0] << "x" << f.extent[1] << "x" << f.extent[2] << ", " << f.threads
      << " threads (size(tiled_mma))\n";
    for (const FragmentLayout& op : in.operands)
        s << operandLayout(op);
    return s.str();
}

} // namespace

std::string cutlassAtom(const Instruction& in) {
    return in.family->cutlassAtom ? in.family->cutlassAtom(in) : std::string();
}

std::string toCute(const Instruction& in, const smem::Choice& choice, std::optional<Operand> only) {
    if (in.tile)
        return tileCute(in);
    std::ostringstream s;
    s << "// " << in.spec << " (" << in.ptx << "): CuTe layouts, generated by lanemap\n";
    s << "// Thread-value layouts map (thread, value) to a column-major index of the operand's CuTe shape:\n"
         "// A (M,K), B (N,K), C/D (M,N), as CUTLASS's MMA_Traits ALayout/BLayout/CLayout.\n";
    const std::string atom = cutlassAtom(in);
    s << "atom: " << (atom.empty() ? "none (CUTLASS names no atom for this variant)" : atom) << '\n';
    for (const FragmentLayout& op : in.operands)
        if (!only || op.operand() == *only)
            s << operandLayout(op);
    if (in.metadata && (!only || *only == Operand::Metadata))
        s << "metadata: not a matrix operand; its fields are in the CUDA header and the JSON export\n";
    if (smem::hasSharedMemoryOperands(in)) {
        std::string error;
        const std::vector<smem::SharedOperand> shared = smem::operands(in, choice, error);
        if (shared.empty())
            s << "shared memory: " << error << '\n';
        for (const smem::SharedOperand& so : shared)
            if (!only || so.operand == *only)
                s << sharedLayout(so);
    }
    return s.str();
}

} // namespace lanemap
