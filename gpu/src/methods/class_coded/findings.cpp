// What a class-coded probe run settled, in words.
#include "interpreter.hpp"

#include "shared/errata.hpp"

#include <sstream>

namespace lanemap::gpu::wg::detail {

// --- findings
// ----------------------------------------------------------------------------------------------
std::vector<std::string> Interpreter::findings(const ProbeResult& r) const {
    std::vector<std::string> out;
    std::map<Operand, int> perOperand;
    for (const ProbeMismatch& m : r.mismatches)
        ++perOperand[m.operand];
    {
        std::ostringstream s;
        if (r.cellsMismatched == 0)
            s << "all " << r.cellsChecked << " cells of A, B and D" << (m_g.sparse ? " and the metadata" : "")
              << " agree with lanemap in every one of the " << m_plan.setups.size()
              << " operand arrangements (" << m_plan.forms.size() << " instruction form"
              << (m_plan.forms.size() > 1 ? "s" : "") << ")";
        else {
            s << r.cellsMismatched << " of " << r.cellsChecked << " cells disagree with lanemap:";
            for (const auto& [op, n] : perOperand)
                s << ' ' << op << ' ' << n;
        }
        out.push_back(s.str());
    }
    // Which shared-memory layouts the hardware read as lanemap::smem places them.
    std::map<std::string, int> wrongB, wrongA;
    for (EntityId id : m_blamed) {
        if (typeOf(id) == EntityType::BCell)
            for (const Setup& s : m_plan.setups)
                if (s.bConfig == scopeOf(id)) {
                    ++wrongB[detail::layoutName(s.major, s.swizzle, 'n')];
                    break;
                }
        if (typeOf(id) == EntityType::AShared) {
            const Setup& s = m_plan.setups[static_cast<std::size_t>(scopeOf(id))];
            ++wrongA[detail::layoutName(s.major, s.swizzle, 'm')];
        }
    }
    std::vector<std::string> bOk, bBad, aOk, aBad;
    std::set<std::string> seenB, seenA;
    for (const Setup& s : m_plan.setups) {
        if (s.form != 0)
            continue;
        const std::string bn = detail::layoutName(s.major, s.swizzle, 'n');
        if (seenB.insert(bn).second)
            (wrongB.count(bn) ? bBad : bOk).push_back(bn);
        if (s.a == ASource::SharedMemory) {
            const std::string an = detail::layoutName(s.major, s.swizzle, 'm');
            if (seenA.insert(an).second)
                (wrongA.count(an) ? aBad : aOk).push_back(an);
        }
    }
    auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (const std::string& x : v)
            s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (!bOk.empty())
        out.push_back(
            "B (" + std::to_string(m_g.k) + " x " + std::to_string(m_g.n) +
            ") placed in shared memory by lanemap::smem and described by its descriptor: the hardware "
            "read every element where lanemap puts it in " +
            join(bOk));
    for (const std::string& b : bBad)
        out.push_back("B in " + b + ": " + std::to_string(wrongB.at(b)) +
                      " elements were read elsewhere than lanemap::smem places them (see the mismatches)");
    // K-major swizzled tiles whose K is wider than one swizzled row: lanemap::smem places the next atom
    // along K LBO bytes on, an inference (the ISA says LBO is unused there); say what the hardware did
    // with it.
    std::set<std::string> spans;
    for (const Setup& s : m_plan.setups) {
        if (s.form != 0)
            continue;
        std::vector<std::pair<const smem::SmemLayout*, char>> tiles{{&s.bLayout, 'n'}};
        if (s.aLayout)
            tiles.emplace_back(&*s.aLayout, 'm');
        for (const auto& [l, mn] : tiles) {
            if (l->major() != smem::Major::K || l->swizzle() == smem::Swizzle::None ||
                !l->usesLeadingByteOffset())
                continue;
            const std::string name =
                std::string(mn == 'n' ? "B " : "A ") + detail::layoutName(l->major(), l->swizzle(), mn);
            const bool wrong =
                (mn == 'n' ? wrongB : wrongA).count(detail::layoutName(l->major(), l->swizzle(), mn)) > 0;
            if (!spans.insert(name).second)
                continue;
            const int rowBytes = l->cols() * l->elementBits() / 8;
            const bool adjacent = l->leadingByteOffset() ==
                                  128u * static_cast<std::uint32_t>(smem::swizzleBytes(l->swizzle()) / 16);
            out.push_back(
                name + ": a row of K (" + std::to_string(rowBytes) + " bytes) spans " +
                std::to_string(rowBytes / smem::swizzleBytes(l->swizzle())) +
                " swizzle atoms, which lanemap::smem places LBO = " + std::to_string(l->leadingByteOffset()) +
                " bytes apart (inferred: the ISA calls LBO unused for swizzled K-major) — " +
                (wrong      ? "the hardware disagrees (see the mismatches)"
                 : adjacent ? "the hardware read them there; at this N LBO equals one atom, so this "
                              "run cannot tell LBO from adjacent atoms"
                            : "the hardware read them there: the inference is confirmed"));
        }
    }
    if (!aOk.empty())
        out.push_back(std::string("A (") + (m_g.sparse ? "64 x K/2, compressed" : "64 x K") +
                      ") in shared memory: the hardware read every element where lanemap puts it in " +
                      join(aOk));
    for (const std::string& a : aBad)
        out.push_back("A in shared memory, " + a + ": " + std::to_string(wrongA.at(a)) +
                      " elements were read elsewhere than lanemap::smem places them (see the mismatches)");
    if (m_g.sparse)
        for (std::size_t f = 0; f < m_plan.forms.size(); ++f) {
            const ProbeForm& form = m_plan.forms[f];
            if (form.instruction != m_plan.forms[0].instruction)
                continue;
            int n = 0, total = 0;
            const sparse::Codec codec = detail::codecFor(m_in, form.selector);
            const ACells& cells = m_cells[firstSetup(static_cast<std::uint16_t>(f))];
            for (int c = 0; c < cells.count(); ++c) {
                ++total;
                const ObservedField& o = m_observed->metadata[f][static_cast<std::size_t>(c)];
                const MetadataField& mf = codec.fields()[static_cast<std::size_t>(cells.fieldOf(c))];
                n += o.thread == mf.thread && o.nibble == mf.bitLo / 4;
            }
            out.push_back("metadata, selector " + std::to_string(form.selector) + ": " +
                          (n == total ? "confirmed" : "disagrees") + ": the hardware reads " +
                          std::to_string(n) + " of " + std::to_string(total) +
                          " A elements' indices from the lane and bits lanemap draws");
        }
    const bool clean = r.cellsMismatched == 0;
    if (clean) {
        for (const Operand name : {Operand::A, Operand::D}) {
            const FragmentLayout& op = *m_in.operand(name);
            int figure = 0, inferred = 0;
            for (const Element& e : op.elements()) {
                figure += e.source == Source::Figure;
                inferred += e.source == Source::Inferred;
            }
            if (figure || inferred)
                out.push_back(std::string(toString(name)) + " placements lanemap marks " +
                              (inferred ? "inferred" : "figure-only") + ": the hardware agrees in all " +
                              std::to_string(op.elements().size()) + " cells");
        }
        if (m_d.elementsPerRegister() > 1)
            out.push_back("D sub-register positions: d(2r) in bits [15:0] and d(2r+1) in bits [31:16] of "
                          "register r "
                          "(confirmed: B's columns anchor D's element order)");
    }
    for (std::string f : gpu::detail::errataFindings(m_in, *m_observed, clean))
        out.push_back(std::move(f));
    out.push_back(
        "what this proves: rows of A and columns of B against D, and the k pairing of A with B, "
        "anchored to memory order: D's columns are B's n and k is the position along a row of shared "
        "memory (as the canonical layouts order it), and with A in shared memory D's rows are A's m; "
        "a relabeling made at once in A's registers and in every shared-memory layout would stay "
        "invisible");
    return out;
}

} // namespace lanemap::gpu::wg::detail
