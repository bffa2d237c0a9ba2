// Selections and instances (lanemap/selection.hpp): parsed once at the edge, checked and applied by the
// family's row, cached by value.

#include "lanemap/selection.hpp"

#include "families/params_check.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include <algorithm>
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
        return "N is a parameter of the tcgen05.mma entries (they stand for every valid N); " + spec +
               " has N " + std::to_string(entry.n);
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
        return "--atom-layout and --permutation tile an MMA atom (mma, mma.sp, wgmma, wgmma.sp); '" + spec +
               "' is a " + std::string(entry.family ? entry.family->name : "") + " instruction";
    return {};
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

std::string validate(const Selection& selection) {
    if (!selection.variant)
        return "no variant selected";
    const Instruction& entry = Catalog::instance().instruction(*selection.variant);
    if (const Family* f = entry.family; f && f->validate)
        return f->validate(entry, selection.params);
    return family::refuseOthers(entry, selection.params, family::TakesNothing);
}

void placeOperands(Instruction& in) {
    in.placements.clear();
    family::placeRegisters(in);
    if (in.family && in.family->instantiate)
        in.family->instantiate(in);
    // A tile composes the instance's register placements, whatever the family made of them.
    if (in.params.tile)
        tile::apply(in);
}

namespace family {

void placeRegisters(Instruction& in) {
    std::erase_if(in.placements, [](const Placement& p) { return p.fragment() != nullptr; });
    std::vector<Placement> registers;
    registers.reserve(in.operands.size());
    for (const FragmentLayout& op : in.operands)
        registers.push_back(Placement::registers(op));
    in.placements.insert(in.placements.begin(), registers.begin(), registers.end());
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

std::shared_ptr<const Instruction> instantiate(const Selection& selection) {
    if (std::string why = validate(selection); !why.empty())
        throw std::invalid_argument(why);
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
