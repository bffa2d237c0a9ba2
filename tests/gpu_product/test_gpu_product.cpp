// The GPU product check as tests: which variants it covers (no device needed), and on a Hopper GPU that every
// case reproduces the host's product and the negative controls fail: mma, mma.sp and wmma in this process,
// wgmma and wgmma.sp through lanemap-product-check (the only program that links their kernels). Without a
// usable device, or without that program, a test skips, printing why.
#include "lanemap/catalog.hpp"
#include "product_case.hpp"
#include "product_check.hpp"
#include "product_scope.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace lanemap;

TEST(GpuProductCoverage, EveryHopperMmaVariantAndSelectorHasAKernel) {
    std::map<std::string, std::set<int>> covered;
    int controls = 0;
    for (const product::Case& c : product::mmaCases()) {
        if (c.control) {
            ++controls;
            continue;
        }
        EXPECT_TRUE(covered[c.spec].insert(c.selector).second)
            << c.spec << " selector " << c.selector << " twice";
    }
    EXPECT_EQ(controls, 1);
    int expected = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!product::inScope(*v))
            continue;
        const Instruction& in = Catalog::instance().instruction(*v);
        std::set<int> selectors;
        if (in.metadata)
            for (const MetadataSelector& s : in.metadata->selectors)
                selectors.insert(s.value);
        else
            selectors.insert(-1);
        expected += static_cast<int>(selectors.size());
        EXPECT_EQ(covered[v->spec], selectors) << v->spec;
    }
    EXPECT_EQ(static_cast<int>(product::mmaCases().size()), expected + 1);
    // mma.m16n8k16.f16, mma.m8n8k4 (quad pairs), mma.sp (selectors) and ::ordered_metadata are all there.
    EXPECT_TRUE(covered.count("mma.m16n8k16.f16"));
    EXPECT_TRUE(covered.count("mma.m8n8k4.row.col.f16"));
    EXPECT_TRUE(covered.count("mma.sp::ordered_metadata.m16n8k32.s8"));
    EXPECT_GT(expected, 80);
}

// lanemap-product-check holds the wgmma kernels; the build puts it next to this program. Where it is not
// built the wgmma tests skip, saying so.
#ifdef LANEMAP_PRODUCT_WGMMA_ALL_N
constexpr bool kAllN = true;
#else
constexpr bool kAllN = false;
#endif

std::filesystem::path program() {
    std::error_code ec;
    return std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / "lanemap-product-check";
}

std::string notBuilt() {
    return std::filesystem::exists(program())
               ? std::string()
               : program().string() +
                     " is not built: the wgmma product kernels are linked only into it (cmake --build build "
                     "--target lanemap-product-check)";
}

// Runs `command`, returning its standard output and exit status.
std::pair<std::string, int> capture(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        return {"", -1};
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        out.append(buffer, n);
    const int status = pclose(pipe);
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// The wgmma cases the scope asks for: every variant in scope, every selector, A from registers and shared.
std::map<std::string, std::set<std::pair<int, bool>>> expectedWgmmaCases() {
    std::map<std::string, std::set<std::pair<int, bool>>> want;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!product::inWgmmaScope(*v, kAllN))
            continue;
        const Instruction& in = Catalog::instance().instruction(*v);
        for (const bool aShared : {false, true})
            if (in.metadata)
                for (const MetadataSelector& s : in.metadata->selectors)
                    want[v->spec].insert({s.value, aShared});
            else
                want[v->spec].insert({-1, aShared});
    }
    return want;
}

TEST(GpuProductCoverage, EveryWgmmaTypeSelectorAndASourceHasAKernel) {
    // wgmma / wgmma.sp: every variant in scope (every type and accumulator at the N of kWgmmaProductN, or
    // every N), every sparsity selector, A from registers and from shared memory; one control.
    if (const std::string why = notBuilt(); !why.empty())
        GTEST_SKIP() << why;
    const auto [listing, status] = capture(program().string() + " --list");
    ASSERT_EQ(status, 0) << listing;
    std::map<std::string, std::set<std::pair<int, bool>>> covered;
    int controls = 0;
    std::istringstream lines(listing);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string spec, from, role;
        int selector = 0;
        ASSERT_TRUE(fields >> spec >> selector >> from >> role) << line;
        if (role == "control") {
            controls += spec.starts_with("synthetic.wgmma") ? 1 : 0;
            EXPECT_TRUE(!spec.starts_with("synthetic.wgmma") || from == "registers") << line;
            continue;
        }
        if (spec.starts_with("wgmma")) {
            EXPECT_TRUE(covered[spec].insert({selector, from == "shared"}).second) << line << " twice";
        }
    }
    EXPECT_EQ(controls, 1);
    const auto want = expectedWgmmaCases();
    EXPECT_EQ(covered, want);
    std::set<std::string> types, sparseTypes;
    std::set<int> ns;
    for (const auto& entry : want) {
        const std::string& spec = entry.first;
        const Variant& v = *Catalog::instance().variant(spec);
        // The spec without its shape: every type and accumulator combination of both families.
        std::string kind = spec;
        const std::string shape = "m64n" + std::to_string(v.n) + "k" + std::to_string(v.k);
        kind.erase(kind.find(shape), shape.size());
        (v.family->name == "wgmma.sp" ? sparseTypes : types).insert(kind);
        ns.insert(v.n);
    }
    EXPECT_EQ(types.size(), 11u)
        << "f16 (f32 and f16 D), bf16, tf32, e4m3 / e5m2 (f32 and f16 D), s8, u8, b1";
    EXPECT_EQ(sparseTypes.size(), 10u) << "as dense without b1";
    if (!kAllN) {
        EXPECT_EQ(ns, std::set<int>(product::kWgmmaProductN.begin(), product::kWgmmaProductN.end()));
    }
}

TEST(GpuProduct, WgmmaCasesReproduceTheHostProduct) {
    // lanemap-product-check on the device: every wgmma case the scope asks for passes, and the wgmma
    // control (A's rows rotated) runs cleanly and fails.
    if (const std::string why = product::deviceProblem(); !why.empty())
        GTEST_SKIP() << why;
    if (const std::string why = notBuilt(); !why.empty())
        GTEST_SKIP() << why;
    const std::filesystem::path json = std::filesystem::temp_directory_path() /
                                       ("lanemap-product-check-" + std::to_string(getpid()) + ".json");
    const auto [text, status] = capture(program().string() + " --json " + json.string());
    EXPECT_EQ(status, 0) << text;
    std::ifstream in(json);
    ASSERT_TRUE(in) << "no report at " << json << ": " << text;
    const nlohmann::json report = nlohmann::json::parse(in);
    std::filesystem::remove(json);
    std::map<std::string, std::set<std::pair<int, bool>>> passed;
    for (const nlohmann::json& c : report.at("cases")) {
        const std::string spec = c.at("spec");
        if (!spec.starts_with("wgmma"))
            continue;
        EXPECT_EQ(c.at("verdict"), "pass") << c.dump();
        EXPECT_GT(c.at("cells").get<int>(), 0) << c.dump();
        if (c.at("verdict") == "pass")
            passed[spec].insert({c.value("selector", -1), c.at("a_from") == "shared memory"});
    }
    EXPECT_EQ(passed, expectedWgmmaCases());
    int controls = 0;
    for (const nlohmann::json& c : report.at("controls"))
        if (c.at("spec") == "synthetic.wgmma-rotated-a") {
            ++controls;
            EXPECT_EQ(c.at("verdict"), "fail") << c.dump();
            EXPECT_GT(c.value("mismatches", 0), 0) << c.dump();
            EXPECT_FALSE(c.contains("error")) << c.dump();
        }
    EXPECT_EQ(controls, 1);
}

TEST(GpuProduct, EveryCaseReproducesTheHostProduct) {
    if (const std::string why = product::deviceProblem(); !why.empty())
        GTEST_SKIP() << why;
    const product::Run run = product::runAll(product::mmaCases());
    ASSERT_EQ(run.results.size(), product::mmaCases().size());
    ASSERT_FALSE(run.results.empty());
    int controls = 0;
    for (const product::CaseResult& r : run.results) {
        EXPECT_GT(r.cells, 0) << r.spec;
        if (r.control) {
            // A wrong header must be caught: the check is not vacuous.
            ++controls;
            EXPECT_TRUE(r.error.empty()) << r.error;
            EXPECT_GT(r.mismatches, 0) << r.spec << " reproduced the product with a wrong layout";
            continue;
        }
        EXPECT_TRUE(r.pass()) << r.spec << " selector " << r.selector
                              << (r.aShared ? " A from shared memory" : "") << ": " << r.mismatches
                              << " cells differ (" << r.firstMismatch << ") " << r.error;
    }
    EXPECT_EQ(controls, 1);
}

} // namespace
