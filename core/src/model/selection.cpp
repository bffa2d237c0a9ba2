// Selections and instances (lanemap/selection.hpp): parsed once at the edge, checked and applied by the
// family's row, cached by value.

#include "lanemap/selection.hpp"

#include "families/params_check.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tile_ctas.hpp"

#include <algorithm>
#include <iterator>
#include <list>
#include <mutex>
#include <stdexcept>

namespace lanemap {

namespace family {

std::string refuseOthers(const Instruction& entry, const Params& p, unsigned takes) {
    const std::string& spec = entry.spec;
    if (p.selector && !(takes & TakesSelector))
        return "a sparsity selector applies to sparse instructions only; " + spec + " is dense";
    if (p.smem && !(takes & TakesSharedMemory))
        return "shared-memory layouts (--major, --swizzle) apply to wgmma only; " + spec +
               " is a warp-level instruction with every operand in registers";
    if (p.n != 0 && !(takes & TakesN))
        return entry.family && entry.family->nValues
                   ? "N " + std::to_string(p.n) + " is not one " + spec +
                         " takes; valid N: " + describeValues(entry.family->nValues(entry))
                   : spec + " has a fixed N (" + std::to_string(entry.n) +
                         "); N is a parameter of wgmma, wgmma.sp and tcgen05.mma";
    if ((p.tensorOperand != Operand::D || p.access || p.blockScale) && !(takes & TakesTensorMemory))
        return "--ld and --st compose a tcgen05.mma form with a Tensor Memory access; '" + spec +
               "' is not a tcgen05.mma spec (e.g. tcgen05.mma.cta_group::1.kind::f16.m128n256)";
    if (p.halfSplit && !(takes & TakesHalfSplit))
        return takes & TakesTensorMemory
                   ? "--imm-half-splitoff applies to a tcgen05.ld/st .16x32bx2 spec, not to a tcgen05.mma "
                     "view"
                   : "immHalfSplitoff applies to the .16x32bx2 shape of tcgen05.ld and tcgen05.st only; '" +
                         spec + "' is not one (e.g. tcgen05.ld.16x32bx2.x2)";
    if (!p.target.empty() && !(takes & TakesTarget))
        return "--target applies to wmma only (other layouts are the ISA's, for every target)";
    if (p.family && !(takes & TakesFamilyParams))
        return "parameters of another family's own grammar do not apply to " + spec;
    if (p.tile && !(takes & TakesTile))
        return "--atom-layout and --permutation tile an MMA atom (mma, mma.sp, wgmma, wgmma.sp, "
               "tcgen05.mma); '" +
               spec + "' is a " + std::string(entry.family ? entry.family->name : "") + " instruction";
    return {};
}

std::string describeValues(const std::vector<int>& values) {
    std::string s;
    if (values.size() <= 3) {
        for (const int v : values)
            s += (s.empty() ? "" : ", ") + std::to_string(v);
        return s;
    }
    for (std::size_t i = 0; i < values.size();) {
        std::size_t j = i + 1;
        if (j < values.size())
            while (j + 1 < values.size() && values[j + 1] - values[j] == values[i + 1] - values[i])
                ++j;
        s += s.empty() ? "" : ", ";
        if (j > i + 1 && j < values.size()) {
            s += std::to_string(values[i]) + ".." + std::to_string(values[j]) + " in steps of " +
                 std::to_string(values[i + 1] - values[i]);
            i = j + 1;
        } else {
            s += std::to_string(values[i]);
            i += 1;
        }
    }
    return s;
}

std::string checkSelector(const Instruction& entry, const Params& p) {
    if (!p.selector)
        return {};
    if (!entry.metadata)
        return "a sparsity selector applies to sparse instructions only; " + entry.spec + " is dense";
    std::string valid;
    for (const MetadataSelector& s : entry.metadata->selectors) {
        if (s.value == *p.selector)
            return {};
        valid += (valid.empty() ? "" : ", ") + std::to_string(s.value);
    }
    return "sparsity selector " + std::to_string(*p.selector) + " is not valid for " + entry.spec +
           "; valid selectors: " + valid;
}

} // namespace family

Selection selectionOf(const ParsedSpec& parsed) {
    Selection s;
    s.variant = parsed.variant;
    if (!parsed.variant)
        return s;
    s.params = parsed.params;
    if (!parsed.variant->forms.empty() && parsed.form != parsed.variant->forms.front())
        s.params.form = parsed.form;
    return s;
}

std::vector<int> nValues(const Selection& selection) {
    if (!selection.variant || !selection.variant->family || !selection.variant->family->nValues)
        return {};
    return selection.variant->family->nValues(Catalog::instance().instruction(*selection.variant));
}

int nOf(const Selection& selection) {
    if (!selection.variant)
        return 0;
    return selection.params.n > 0 ? selection.params.n : selection.variant->n;
}

Selection atN(const Selection& selection, int n) {
    const Family* f = selection.variant ? selection.variant->family : nullptr;
    if (f && f->atN)
        return f->atN(selection, n);
    Selection fixed = selection; // validate() names the N the variant has
    fixed.params.n = selection.variant && n == selection.variant->n ? 0 : n;
    return fixed;
}

Selection canonical(const Selection& selection) {
    return selection.params.n != 0 ? atN(selection, selection.params.n) : selection;
}

std::string validate(const Selection& selection) {
    if (!selection.variant)
        return "no variant selected";
    const Selection s = canonical(selection);
    const Instruction& entry = Catalog::instance().instruction(*s.variant);
    if (const Family* f = entry.family; f && f->validate)
        return f->validate(entry, s.params);
    return family::refuseOthers(entry, s.params, family::TakesNothing);
}

void placeOperands(Instruction& in) {
    in.placements.clear();
    family::placeRegisters(in);
    if (in.family && in.family->instantiate)
        in.family->instantiate(in);
    // A tile composes the instance's register placements, whatever the family made of them; a tile of atoms
    // whose D is in Tensor Memory (tcgen05.mma) spreads them over the CTAs of a cluster.
    if (in.params.tile) {
        if (in.hasSpace(Space::TensorMemory))
            tile::applyOverCtas(in);
        else
            tile::apply(in);
    }
}

namespace family {

void placeRegisters(Instruction& in) {
    // The register fragments first, in operand order, then the placements into other spaces, in one
    // allocation (a family that adds its own reserves room for them: the catalog keeps every instance).
    std::vector<Placement> placements;
    placements.reserve(in.operands.size() + in.placements.size());
    for (const FragmentLayout& op : in.operands)
        placements.push_back(Placement::registers(op));
    for (Placement& p : in.placements)
        if (!p.fragment())
            placements.push_back(std::move(p));
    in.placements = std::move(placements);
}

} // namespace family

namespace {

// Instances of non-default parameters, most recently used first: the app steps through Ns and accesses of a
// tcgen05.mma, the CLI builds one. Bounded: a composed m256n256 view holds 65,536 placements.
struct InstanceCache {
    std::mutex mutex;
    std::list<std::pair<Selection, std::shared_ptr<const Instruction>>> entries;
    static constexpr std::size_t kCapacity = 16;
};

InstanceCache& instanceCache() {
    static InstanceCache* cache = new InstanceCache; // never destroyed: no order problems at exit
    return *cache;
}

} // namespace

std::shared_ptr<const Instruction> instantiate(const Selection& requested) {
    if (std::string why = validate(requested); !why.empty())
        throw std::invalid_argument(why);
    const Selection selection = canonical(requested);
    const Instruction& entry = Catalog::instance().instruction(*selection.variant);
    if (selection.params == Params{}) // the catalog's own, which lives as long as the program
        return std::shared_ptr<const Instruction>(std::shared_ptr<void>(), &entry);
    InstanceCache& cache = instanceCache();
    {
        const std::lock_guard lock(cache.mutex);
        for (auto it = cache.entries.begin(); it != cache.entries.end(); ++it)
            if (it->first == selection) {
                cache.entries.splice(cache.entries.begin(), cache.entries, it);
                return it->second;
            }
    }
    auto instance = std::make_shared<Instruction>(entry);
    instance->params = selection.params;
    if (selection.params.form)
        instance->ptx = ptxOf(entry, *selection.params.form);
    placeOperands(*instance);
    std::shared_ptr<const Instruction> built = std::move(instance);
    const std::lock_guard lock(cache.mutex);
    cache.entries.emplace_front(selection, built);
    if (cache.entries.size() > InstanceCache::kCapacity)
        cache.entries.pop_back();
    return built;
}

} // namespace lanemap
