#include "lanemap/catalog.hpp"

#include "lanemap/evidence.hpp"
#include "lanemap/spec.hpp"

#include <stdexcept>

namespace lanemap {

const Catalog& Catalog::instance() {
    // Built in place: a Catalog holds once-flags and cannot move. Never destroyed, so no static-destruction
    // order problems for threads still reading it at exit.
    static const Catalog* const catalog = [] {
        auto* c = new Catalog;
        registerDenseMma(*c);
        registerSparseMma(*c);
        registerWgmma(*c);
        registerMatrixMoves(*c);
        registerWmma(*c);
        return c;
    }();
    return *catalog;
}

void Catalog::add(Variant variant, BuildFn build) {
    if (m_bySpec.count(variant.spec))
        throw std::logic_error("duplicate spec in catalog: " + variant.spec);
    auto entry = std::make_unique<Entry>();
    entry->variant = std::move(variant);
    entry->build = std::move(build);
    const Entry* raw = entry.get();
    m_bySpec.emplace(raw->variant.spec, raw);
    m_variantList.push_back(&raw->variant);
    m_entries.push_back(std::move(entry));
}

const Variant* Catalog::variant(std::string_view spec) const {
    auto it = m_bySpec.find(spec);
    return it == m_bySpec.end() ? nullptr : &it->second->variant;
}

const Variant* Catalog::byPtx(std::string_view normalizedPtx) const {
    std::call_once(m_byPtxOnce, [this] {
        for (const auto& entry : m_entries)
            for (const Form& form : entry->variant.forms)
                m_byPtx.emplace(normalizePtx(ptxOf(entry->variant, form)), entry.get());
    });
    auto it = m_byPtx.find(normalizedPtx);
    return it == m_byPtx.end() ? nullptr : &it->second->variant;
}

const Instruction& Catalog::build(const Entry& entry) const {
    std::call_once(entry.once, [&] {
        auto instruction = std::make_unique<Instruction>();
        static_cast<Variant&>(*instruction) = entry.variant;
        instruction->hardware = EvidenceOverlay::recorded().find(entry.variant.spec);
        entry.build(*instruction);
        entry.built = std::move(instruction);
    });
    return *entry.built;
}

Instruction Catalog::buildUncached(const Variant& variant) const {
    auto it = m_bySpec.find(variant.spec);
    if (it == m_bySpec.end())
        throw std::logic_error("variant not in catalog: " + variant.spec);
    Instruction instruction;
    static_cast<Variant&>(instruction) = it->second->variant;
    instruction.hardware = EvidenceOverlay::recorded().find(variant.spec);
    it->second->build(instruction);
    return instruction;
}

const Instruction* Catalog::instruction(std::string_view spec) const {
    auto it = m_bySpec.find(spec);
    return it == m_bySpec.end() ? nullptr : &build(*it->second);
}

const Instruction& Catalog::instruction(const Variant& variant) const {
    auto it = m_bySpec.find(variant.spec);
    if (it == m_bySpec.end())
        throw std::logic_error("variant not in catalog: " + variant.spec);
    return build(*it->second);
}

} // namespace lanemap
