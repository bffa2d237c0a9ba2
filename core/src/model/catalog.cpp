#include "lanemap/catalog.hpp"

#include "lanemap/evidence.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <algorithm>
#include <stdexcept>

namespace lanemap {

Catalog::Catalog() {
    // Catalog order: the family rows in PTX section order. A spec names its family, and the family its
    // table; families that share a table share its section.
    for (const Family* family : lanemap::families()) {
        auto same = std::find_if(m_sections.begin(), m_sections.end(),
                                 [&](const auto& s) { return s->registerFamilies == family->registerTable; });
        if (same == m_sections.end()) {
            auto section = std::make_unique<Section>();
            section->registerFamilies = family->registerTable;
            m_sections.push_back(std::move(section));
            same = m_sections.end() - 1;
        }
        (*same)->families.push_back(family);
    }
}

std::string familyNames(std::string_view last) {
    const std::vector<const Family*>& all = families();
    std::string out;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i > 0)
            out += i + 1 == all.size() ? last : std::string_view(", ");
        out += all[i]->name;
    }
    return out;
}

const Catalog& Catalog::instance() {
    // Built in place: a Catalog holds once-flags and cannot move. Never destroyed, so no static-destruction
    // order problems for threads still reading it at exit.
    static const Catalog* const catalog = new Catalog;
    return *catalog;
}

std::unique_ptr<Catalog> Catalog::unregistered() {
    return std::unique_ptr<Catalog>(new Catalog);
}

Catalog::Section* Catalog::sectionOf(std::string_view spec) const {
    // The longest family name the spec starts with ("mma.sp.m16n8k32..." is mma.sp, not mma), followed by
    // '.' or "::" (mma.sp::ordered_metadata).
    Section* best = nullptr;
    std::size_t bestLength = 0;
    for (const auto& section : m_sections)
        for (const Family* family : section->families) {
            const std::string_view name = family->name;
            if (name.size() > bestLength && spec.size() > name.size() &&
                spec.substr(0, name.size()) == name &&
                (spec[name.size()] == '.' || spec[name.size()] == ':')) {
                best = section.get();
                bestLength = name.size();
            }
        }
    return best;
}

void Catalog::ensureRegistered(Section& section) const {
    std::call_once(section.once, [&] {
        // add() is not const: registering is part of a lookup, which is.
        const std::lock_guard lock(m_registerMutex);
        runTable(section, {});
        section.registered = true;
    });
}

void Catalog::runTable(Section& section, std::string_view only) const {
    auto& self = const_cast<Catalog&>(*this);
    Section* const outer = self.m_registering; // a table that looks up another family while registering
    const std::string_view outerOnly = self.m_only;
    self.m_registering = &section;
    self.m_only = only;
    section.registerFamilies(self);
    self.m_registering = outer;
    self.m_only = outerOnly;
}

const Catalog::Entry* Catalog::registerOne(Section& section, std::string_view spec) const {
    const std::lock_guard lock(m_registerMutex);
    if (section.registered)
        return nullptr; // the whole table registered meanwhile: the caller looks there
    if (auto it = section.singles.find(spec); it != section.singles.end())
        return it->second.get();
    // The table walks its rows and keeps only `spec` (a one-shot `show` or `export` needs one variant of a
    // table of hundreds).
    runTable(section, spec);
    const auto it = section.singles.find(spec);
    return it == section.singles.end() ? nullptr : it->second.get();
}

std::size_t Catalog::registeredSize() const {
    const std::lock_guard lock(m_registerMutex);
    std::size_t n = 0;
    for (const auto& section : m_sections)
        if (section->registered)
            n += section->entries.size();
        else
            n += section->singles.size();
    return n;
}

const std::vector<const Variant*>& Catalog::variants() const {
    std::call_once(m_allOnce, [this] {
        for (const auto& section : m_sections) {
            ensureRegistered(*section);
            for (const auto& entry : section->entries)
                m_variantList.push_back(&entry->variant);
        }
    });
    return m_variantList;
}

void Catalog::add(Variant variant, BuildFn build) {
    if (!m_registering)
        throw std::logic_error("Catalog::add outside a family table's registration: " + variant.spec);
    if (!wants(variant.spec))
        return; // registering one spec: every other row is dropped
    if (sectionOf(variant.spec) != m_registering)
        throw std::logic_error("spec does not start with the name of its family's table: " + variant.spec);
    auto& singles = m_registering->singles;
    if (!m_only.empty()) {
        if (singles.count(variant.spec))
            throw std::logic_error("duplicate spec in catalog: " + variant.spec);
        auto entry = std::make_unique<Entry>();
        entry->variant = std::move(variant);
        entry->build = std::move(build);
        const std::string_view key = entry->variant.spec;
        singles.emplace(key, std::move(entry));
        return;
    }
    if (m_registering->bySpec.count(variant.spec))
        throw std::logic_error("duplicate spec in catalog: " + variant.spec);
    std::unique_ptr<Entry> entry;
    if (auto single = singles.find(variant.spec); single != singles.end()) {
        // Registered alone before: the same row, so the same variant. Keep that Entry (its address was handed
        // out, its layouts may be built).
        entry = std::move(single->second);
        singles.erase(single);
    } else {
        entry = std::make_unique<Entry>();
        entry->variant = std::move(variant);
        entry->build = std::move(build);
    }
    m_registering->bySpec.emplace(entry->variant.spec, entry.get());
    m_registering->entries.push_back(std::move(entry));
}

const Catalog::Entry* Catalog::entry(std::string_view spec) const {
    Section* section = sectionOf(spec);
    if (!section)
        return nullptr;
    if (!section->registered) {
        if (const Entry* one = registerOne(*section, spec))
            return one;
        // Not in the table (or registered meanwhile): the whole table answers, as every other lookup does.
        ensureRegistered(*section);
    }
    auto it = section->bySpec.find(spec);
    return it == section->bySpec.end() ? nullptr : it->second;
}

const Variant* Catalog::variant(std::string_view spec) const {
    const Entry* e = entry(spec);
    return e ? &e->variant : nullptr;
}

const Variant* Catalog::byPtx(std::string_view normalizedPtx) const {
    // A PTX string starts with its family's name as a spec does: only that table is registered and indexed,
    // not the 1,000-odd PTX strings of every table (a pasted mma paid 2 ms for wgmma's and tcgen05's).
    Section* section = sectionOf(normalizedPtx);
    if (!section)
        return nullptr;
    std::call_once(section->ptxOnce, [&] {
        ensureRegistered(*section);
        for (const auto& entry : section->entries)
            for (const Form& form : entry->variant.forms)
                section->byPtx.emplace(normalizePtx(ptxOf(entry->variant, form)), entry.get());
    });
    auto it = section->byPtx.find(normalizedPtx);
    return it == section->byPtx.end() ? nullptr : &it->second->variant;
}

const Instruction& Catalog::build(const Entry& entry) const {
    std::call_once(entry.once, [&] {
        auto instruction = std::make_unique<Instruction>();
        static_cast<Variant&>(*instruction) = entry.variant;
        instruction->hardware = EvidenceOverlay::recorded().find(entry.variant.spec);
        entry.build(*instruction);
        placeOperands(*instruction);
        entry.built = std::move(instruction);
        ++m_built;
    });
    return *entry.built;
}

const Catalog::Entry* Catalog::entry(const Variant& variant) const {
    // Its family row names its table: no spec to match against every family's name.
    if (variant.family)
        for (const auto& section : m_sections)
            if (section->registerFamilies == variant.family->registerTable) {
                if (!section->registered)
                    break; // registering it: entry(spec) does, for one spec or the whole table
                const auto it = section->bySpec.find(variant.spec);
                return it == section->bySpec.end() ? nullptr : it->second;
            }
    return entry(variant.spec);
}

Instruction Catalog::buildUncached(const Variant& variant) const {
    const Entry* e = entry(variant);
    if (!e)
        throw std::logic_error("variant not in catalog: " + variant.spec);
    Instruction instruction;
    static_cast<Variant&>(instruction) = e->variant;
    if (!e->hardwareKnown.load(std::memory_order_acquire)) {
        e->hardware.store(EvidenceOverlay::recorded().find(variant.spec), std::memory_order_relaxed);
        e->hardwareKnown.store(true, std::memory_order_release);
    }
    instruction.hardware = e->hardware.load(std::memory_order_relaxed);
    e->build(instruction);
    placeOperands(instruction);
    return instruction;
}

const Instruction* Catalog::instruction(std::string_view spec) const {
    const Entry* e = entry(spec);
    return e ? &build(*e) : nullptr;
}

const Instruction& Catalog::instruction(const Variant& variant) const {
    const Entry* e = entry(variant);
    if (!e)
        throw std::logic_error("variant not in catalog: " + variant.spec);
    return build(*e);
}

} // namespace lanemap
