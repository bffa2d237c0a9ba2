#pragma once
// What `lanemap-cli list` prints, without the catalog: every variant's spec, family and minimum SM in catalog
// order, written at build time from the family tables by lanemap-gen-catalog-names (gen_catalog_names.cpp),
// so that listing registers no family (registering all of them was most of a `list` run). The names are one
// string and the rows offsets into it: no pointer for the loader to relocate at start-up.

#include <cstdint>
#include <span>
#include <string_view>

namespace lanemap::cli {

struct ListedVariant {
    std::uint32_t specOffset; // into listedNames()
    std::uint16_t specLength;
    std::uint16_t minSm;
    std::uint32_t familyOffset; // into listedNames(): toString(Family)
    std::uint16_t familyLength;
};

std::span<const ListedVariant> listedVariants();
std::string_view listedNames();

inline std::string_view listedSpec(const ListedVariant& v) {
    return listedNames().substr(v.specOffset, v.specLength);
}
inline std::string_view listedFamily(const ListedVariant& v) {
    return listedNames().substr(v.familyOffset, v.familyLength);
}

} // namespace lanemap::cli
