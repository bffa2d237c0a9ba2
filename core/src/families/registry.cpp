// The family rows, in catalog order (the tables in PTX section order): the one list a new family joins
// (docs/architecture.md#a-family-is-one-folder-and-one-row).

#include "lanemap/family.hpp"

#include "lanemap/model.hpp"

namespace lanemap {

namespace family {
// Each defined in its family's folder.
extern const Family kMma, kMmaSp, kWgmma, kWgmmaSp;      // atom.cpp
extern const Family kLdmatrix, kStmatrix, kMovmatrix;    // ldmatrix.cpp
extern const Family kWmma;                               // wmma_catalog.cpp
extern const Family kTcgen05Ld, kTcgen05St, kTcgen05Mma; // tcgen05.cpp
extern const Family kTma;                                // tma_family.cpp
} // namespace family

const std::vector<const Family*>& families() {
    using namespace family;
    static const std::vector<const Family*> rows{&kMma,       &kMmaSp,     &kWgmma,      &kWgmmaSp,
                                                 &kLdmatrix,  &kStmatrix,  &kMovmatrix,  &kWmma,
                                                 &kTcgen05Ld, &kTcgen05St, &kTcgen05Mma, &kTma};
    return rows;
}

std::vector<SpecWord> wordsOf(const Instruction& instance) {
    return instance.family && instance.family->words ? instance.family->words(instance)
                                                     : std::vector<SpecWord>{};
}

std::string specTextOf(const Instruction& instance) {
    std::string text = instance.spec;
    for (const SpecWord& w : wordsOf(instance))
        if (!w.atDefault)
            text += " " + w.key + "=" + w.value;
    return text;
}

const Family* familyNamed(std::string_view name) {
    for (const Family* f : families())
        if (f->name == name)
            return f;
    return nullptr;
}

} // namespace lanemap
