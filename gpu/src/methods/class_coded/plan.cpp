// wgmma probe planning: forms, setups (how A and B are fed), experiments, and the images the warpgroups read.
// The engine's layouts only say where to put a value (the register and bits of an A element, the
// shared-memory byte of a B element via lanemap::smem); what the instruction does with it is read back by
// interpret.cpp.
#include "lanemap/gpu/wgmma.hpp"

#include "detail.hpp"
#include "shared/metadata_check.hpp"

#include "lanemap/smem.hpp"
#include "lanemap/sparse.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>
#include <tuple>

namespace lanemap::gpu::wg {

std::string_view toString(Kind kind) {
    switch (kind) {
    case Kind::AIdent:
        return "A cells through a column selector";
    case Kind::BIdent:
        return "B cells through a row selector";
    case Kind::MetaLocate:
        return "metadata location";
    case Kind::MetaValue:
        return "metadata value";
    }
    return "?";
}

int Setup::transA() const {
    return a == ASource::SharedMemory && major == smem::Major::MN ? 1 : 0;
}
int Setup::transB() const {
    return major == smem::Major::MN ? 1 : 0;
}

// --- forms and setups --------------------------------------------------------------------------------------

namespace {

bool sixteenBit(ElementType type) {
    return type == ElementType::F16 || type == ElementType::BF16;
}

} // namespace

std::vector<ProbeForm> formsOf(const Instruction& in) {
    const std::vector<lanemap::Form>& forms = in.forms.items();
    const int first = in.metadata ? in.metadata->selectors.at(0).value : -1;
    std::vector<ProbeForm> out;
    // Canonical types with every selector, then the mixed-type aliases with the first.
    if (in.metadata)
        for (const MetadataSelector& s : in.metadata->selectors)
            out.push_back({forms[0], s.value, ptxOf(in, forms[0])});
    else
        out.push_back({forms[0], -1, ptxOf(in, forms[0])});
    for (std::size_t i = 1; i < forms.size(); ++i)
        out.push_back({forms[i], first, ptxOf(in, forms[i])});
    return out;
}

namespace {

using detail::ACells;
using detail::Geometry;
using detail::kPatternWord;

constexpr std::uint32_t kAlign = 1024; // the 128B swizzle's period: every image starts on it

std::uint32_t roundUp(std::uint32_t v, std::uint32_t to) {
    return (v + to - 1) / to * to;
}

Setup makeSetup(const Instruction& in, std::uint16_t form, ASource a, smem::Major major,
                smem::Swizzle swizzle) {
    std::string error;
    const std::vector<smem::SharedOperand> ops = smem::operands(in, smem::Choice{major, swizzle}, error);
    if (ops.size() != 2)
        throw std::logic_error("probe: " + in.spec + ": " + error);
    Setup s;
    s.form = form;
    s.a = a;
    s.major = major;
    s.swizzle = swizzle;
    s.bLayout = ops[1].layout;
    s.aAt = roundUp(s.bLayout.footprintBytes(), kAlign);
    if (a == ASource::SharedMemory) {
        const smem::SmemLayout& la = ops[0].layout;
        s.aLayout = smem::SmemLayout::make(la.elementBits(), la.rows(), la.cols(), major, swizzle, s.aAt);
        s.label = "A and B in shared memory, " + detail::layoutName(major, swizzle, 'm') + " / " +
                  detail::layoutName(major, swizzle, 'n');
    } else {
        s.label = "A in registers, B " + detail::layoutName(major, swizzle, 'n');
    }
    return s;
}

std::vector<Setup> setupsOf(const Instruction& in, const std::vector<ProbeForm>& forms) {
    std::vector<Setup> out;
    std::vector<smem::Major> majors{smem::Major::K};
    if (sixteenBit(forms.at(0).atype()))
        majors.push_back(smem::Major::MN);
    const smem::Swizzle swizzles[] = {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64,
                                      smem::Swizzle::B128};
    // Form 0 (canonical types, first selector): every B layout with A in registers, and A and B in shared
    // memory in each of them. The first setup (A in registers, B K-major without swizzle, docs/probe.md) is
    // the form's base setup: the one whose runs check A's registers and D against the simplest layout.
    for (smem::Major major : majors)
        for (smem::Swizzle swizzle : swizzles)
            out.push_back(makeSetup(in, 0, ASource::Registers, major, swizzle));
    for (smem::Major major : majors)
        for (smem::Swizzle swizzle : swizzles)
            out.push_back(makeSetup(in, 0, ASource::SharedMemory, major, swizzle));
    // Other forms (selectors, mixed types): A in registers, B K-major without swizzle.
    for (std::uint16_t f = 1; f < forms.size(); ++f)
        out.push_back(makeSetup(in, f, ASource::Registers, smem::Major::K, smem::Swizzle::None));
    std::map<std::tuple<int, int, int>, std::uint16_t> configs;
    for (Setup& s : out) {
        const auto key =
            std::make_tuple(static_cast<int>(s.form), static_cast<int>(s.major), static_cast<int>(s.swizzle));
        const auto [it, fresh] = configs.emplace(key, static_cast<std::uint16_t>(configs.size()));
        s.bConfig = it->second;
        const ProbeForm& f = forms[s.form];
        std::string extra;
        if (f.atype() != f.btype())
            extra = "A ." + std::string(toString(f.atype())) + " x B ." + std::string(toString(f.btype()));
        if (f.selector >= 0 && in.metadata && in.metadata->selectors.size() > 1)
            extra += (extra.empty() ? "" : ", ") + std::string("selector ") + std::to_string(f.selector);
        if (!extra.empty())
            s.label += " [" + extra + "]";
    }
    return out;
}

// Writes one element of value `value` where `layout` puts (mn, k); `origin` is the image's first byte.
void putSmem(std::vector<std::uint8_t>& image, const smem::SmemLayout& layout, int mn, int k,
             std::uint64_t value, std::uint32_t origin) {
    const smem::Placement p = layout.placement(mn, k);
    const std::size_t at = p.address - origin;
    const int bits = layout.elementBits();
    if (bits < 8) {
        image.at(at) = static_cast<std::uint8_t>(image.at(at) | (value << p.bit));
        return;
    }
    for (int byte = 0; byte < bits / 8; ++byte)
        image.at(at + static_cast<std::size_t>(byte)) = static_cast<std::uint8_t>(value >> (8 * byte));
}

class Builder {
  public:
    Builder(Plan& plan, const Geometry& g) : m_plan(plan), m_g(g), m_in(*plan.instruction) {}

    // --- B images (K x N, element (k, n) at layout (mn = n, k)) ---
    std::pair<std::uint32_t, std::uint32_t> bImage(const Setup& s, int kind, int param) {
        const auto key = std::make_tuple(0, static_cast<int>(s.bConfig), kind, param);
        if (auto it = m_pool.find(key); it != m_pool.end())
            return it->second;
        const smem::SmemLayout& l = s.bLayout;
        std::vector<std::uint8_t> img(l.footprintBytes(), 0);
        const std::uint64_t one = traits(m_plan.forms[s.form].btype()).one;
        for (int k = 0; k < m_g.k; ++k)
            for (int n = 0; n < m_g.n; ++n) {
                bool set = false;
                if (kind == 0)
                    set = m_g.selectB(param, n) == k; // AIdent column selector
                else if (kind == 1)
                    set = (((k * m_g.n + n) + 1) >> param) & 1; // BIdent code bit
                else
                    set = ((k + 1) >> (n % detail::kKCodeColumns)) & 1; // metadata: k spelled per column
                if (set)
                    putSmem(img, l, n, k, one, 0);
            }
        return m_pool[key] = store(img);
    }

    // --- A images: registers ([register][thread]) or shared memory ---
    // `cells(c)`: whether cell c holds 1.
    template <typename Pred>
    std::uint32_t aRegisters(const Setup& s, const std::tuple<int, int, int, int>& key, Pred cells) {
        if (auto it = m_words.find(key); it != m_words.end())
            return it->second;
        const FragmentLayout& a = *m_in.operand(Operand::A);
        std::vector<std::uint32_t> img(static_cast<std::size_t>(kARegisters) * kThreads, 0u);
        const std::uint64_t one = traits(m_plan.forms[s.form].atype()).one;
        for (std::size_t c = 0; c < a.elements().size(); ++c) {
            if (!cells(static_cast<int>(c)))
                continue;
            const Element& e = a.elements()[c];
            img[static_cast<std::size_t>(e.reg) * kThreads + e.thread] |=
                static_cast<std::uint32_t>(one << (e.bit % 32));
        }
        return m_words[key] = storeWords(img);
    }

    template <typename Pred>
    std::pair<std::uint32_t, std::uint32_t> aShared(const Setup& s, const std::tuple<int, int, int, int>& key,
                                                    Pred cells) {
        if (auto it = m_pool.find(key); it != m_pool.end())
            return it->second;
        const smem::SmemLayout& l = *s.aLayout;
        std::vector<std::uint8_t> img(l.footprintBytes(), 0);
        const std::uint64_t one = traits(m_plan.forms[s.form].atype()).one;
        for (int c = 0; c < m_g.m * m_g.storedK; ++c)
            if (cells(c))
                putSmem(img, l, c / m_g.storedK, c % m_g.storedK, one, s.aAt);
        return m_pool[key] = store(img);
    }

    std::uint32_t metaImage(const std::tuple<int, int, int, int>& key,
                            const std::vector<std::uint32_t>& img) {
        if (auto it = m_words.find(key); it != m_words.end())
            return it->second;
        return m_words[key] = storeWords(img);
    }

  private:
    std::pair<std::uint32_t, std::uint32_t> store(const std::vector<std::uint8_t>& img) {
        const std::uint32_t offset = static_cast<std::uint32_t>(m_plan.pool.size());
        const std::uint32_t bytes = roundUp(static_cast<std::uint32_t>(img.size()), 16);
        m_plan.pool.insert(m_plan.pool.end(), img.begin(), img.end());
        m_plan.pool.resize(offset + bytes, 0);
        return {offset, bytes};
    }
    std::uint32_t storeWords(const std::vector<std::uint32_t>& img) {
        const std::uint32_t offset = static_cast<std::uint32_t>(m_plan.words.size());
        m_plan.words.insert(m_plan.words.end(), img.begin(), img.end());
        return offset;
    }

    Plan& m_plan;
    const Geometry& m_g;
    const Instruction& m_in;
    std::map<std::tuple<int, int, int, int>, std::pair<std::uint32_t, std::uint32_t>> m_pool;
    std::map<std::tuple<int, int, int, int>, std::uint32_t> m_words;
};

} // namespace

Plan planProbe(const Instruction& in) {
    if (!smem::hasSharedMemoryOperands(in))
        throw std::invalid_argument("wg::planProbe: " + in.spec + " is not a wgmma variant");
    Plan plan;
    plan.instruction = &in;
    plan.forms = formsOf(in);
    plan.setups = setupsOf(in, plan.forms);
    const FragmentLayout& d = *in.operand(Operand::D);
    plan.dWords = d.registers() * (d.registerBits() / 32);
    plan.dElementBits = d.containerBits();
    const ElementType dType = d.elementType();
    plan.dOne = static_cast<std::uint32_t>(traits(dType).one);
    plan.dNegZero = dType == ElementType::F32 ? 0x80000000u : dType == ElementType::F16 ? 0x8000u : 0u;
    const Geometry g(in);
    Builder build(plan, g);

    const int bitsB = std::bit_width(static_cast<unsigned>(g.bCells()));
    for (std::uint16_t si = 0; si < plan.setups.size(); ++si) {
        const Setup& s = plan.setups[si];
        const bool base = s.a == ASource::Registers &&
                          std::none_of(plan.setups.begin(), plan.setups.begin() + si, [&](const Setup& o) {
                              return o.form == s.form && o.a == ASource::Registers;
                          });
        const bool shared = s.a == ASource::SharedMemory;
        const ACells cells(in, g, s, plan.forms[s.form].selector);
        const int bitsA = std::bit_width(static_cast<unsigned>(cells.count()));

        auto aImage = [&](int kind, int p1, int p2, auto pred) -> std::pair<std::uint32_t, std::uint32_t> {
            // Register images depend on the form only; shared-memory images on the setup's layout too.
            if (shared)
                return build.aShared(s, std::make_tuple(1 + static_cast<int>(si), kind, p1, p2), pred);
            return {build.aRegisters(
                        s, std::make_tuple(1 + 1000 * (1 + static_cast<int>(s.form)), kind, p1, p2), pred),
                    0u};
        };
        auto metaWords = [&](int kind, int p1, int p2, const std::vector<std::uint32_t>& img) {
            return build.metaImage(std::make_tuple(-1 - static_cast<int>(s.form), kind, p1, p2), img);
        };
        auto add = [&](const Experiment& x, std::pair<std::uint32_t, std::uint32_t> a,
                       std::pair<std::uint32_t, std::uint32_t> b, std::uint32_t meta) {
            Inputs in2;
            in2.descB = s.bLayout.encodedDescriptor();
            in2.bOffset = b.first;
            in2.bBytes = b.second;
            if (shared) {
                in2.descA = s.aLayout->encodedDescriptor();
                in2.aOffset = a.first;
                in2.aBytes = a.second;
                in2.aAt = s.aAt;
            } else {
                in2.aRegs = a.first;
            }
            in2.meta = meta;
            plan.experiments.push_back(x);
            plan.inputs.push_back(in2);
        };
        auto patternMeta = [&](int p) {
            return g.sparse ? metaWords(0, p, 0, std::vector<std::uint32_t>(kThreads, kPatternWord[p]))
                            : kNone;
        };

        if (base || shared) // rows of A vs D, k of A vs k of B
            for (int p = 0; p < g.patterns; ++p)
                for (int grp = 0; grp < g.aGroups(); ++grp)
                    for (int bit = 0; bit < bitsA; ++bit)
                        add({Kind::AIdent, si, static_cast<std::int8_t>(p), static_cast<std::int16_t>(grp),
                             static_cast<std::int16_t>(bit)},
                            aImage(0, bit, 0, [&](int c) { return ((c + 1) >> bit) & 1; }),
                            build.bImage(s, 0, grp), patternMeta(p));
        if (!shared && (base || s.form == 0)) // columns of B vs D, k of B vs k of A
            for (int p = 0; p < g.patterns; ++p)
                for (int grp = 0; grp < g.bGroups(); ++grp)
                    for (int bit = 0; bit < bitsB; ++bit)
                        add({Kind::BIdent, si, static_cast<std::int8_t>(p), static_cast<std::int16_t>(grp),
                             static_cast<std::int16_t>(bit)},
                            aImage(1, grp, p,
                                   [&](int c) {
                                       const detail::Position at = cells.at(c, p);
                                       return at.row >= 0 && at.k == g.selectA(grp, p, at.row);
                                   }),
                            build.bImage(s, 1, bit), patternMeta(p));
        if (g.sparse && base) {
            // One A element per row: the j-th of the row in k order under 0b0100.
            std::vector<std::vector<int>> rowCells(static_cast<std::size_t>(g.m));
            for (int c = 0; c < cells.count(); ++c)
                rowCells[static_cast<std::size_t>(cells.at(c, 0).row)].push_back(c);
            for (auto& r : rowCells)
                std::sort(r.begin(), r.end(),
                          [&](int x, int y) { return cells.at(x, 0).k < cells.at(y, 0).k; });
            const sparse::Codec codec = detail::codecFor(in, plan.forms[s.form].selector);
            const std::vector<std::uint8_t> values = detail::probeValues(*g.rule);
            for (int j = 0; j < g.storedK; ++j) {
                auto isJ = [&](int c) {
                    const auto& r = rowCells[static_cast<std::size_t>(cells.at(c, 0).row)];
                    return static_cast<int>(r.size()) > j && r[static_cast<std::size_t>(j)] == c;
                };
                const auto a = aImage(2, j, 0, isJ);
                const auto b = build.bImage(s, 2, 0);
                for (int bit = 0; bit < detail::kLocateBits; ++bit) {
                    std::vector<std::uint32_t> md(kThreads);
                    for (int t = 0; t < kThreads; ++t)
                        md[static_cast<std::size_t>(t)] =
                            gpu::detail::locateWord(t, bit); // one nibble id per thread, as mma.sp
                    add({Kind::MetaLocate, si, 0, static_cast<std::int16_t>(j),
                         static_cast<std::int16_t>(bit)},
                        a, b, metaWords(1, bit, 0, md));
                }
                for (std::size_t v = 0; v < values.size(); ++v) {
                    std::vector<std::uint32_t> md(kThreads, kPatternWord[0]);
                    for (int row = 0; row < g.m; ++row) {
                        const auto& r = rowCells[static_cast<std::size_t>(row)];
                        if (static_cast<int>(r.size()) <= j)
                            continue;
                        const int field = cells.fieldOf(r[static_cast<std::size_t>(j)]);
                        if (field < 0)
                            throw std::logic_error("probe: an A element of " + in.spec + " has no field");
                        sparse::Codec::setField(md, codec.fields()[static_cast<std::size_t>(field)],
                                                values[v]);
                    }
                    add({Kind::MetaValue, si, 0, static_cast<std::int16_t>(j), 0,
                         static_cast<std::int8_t>(v)},
                        a, b, metaWords(2, j, static_cast<int>(v), md));
                }
            }
        }
    }
    std::uint32_t smemBytes = 0;
    for (const Inputs& x : plan.inputs)
        smemBytes = std::max({smemBytes, x.bBytes, x.aAt + x.aBytes});
    plan.smemBytes = smemBytes + kAlign;
    return plan;
}

} // namespace lanemap::gpu::wg
