// lanemap-product-check [--json PATH] [--list]: the GPU product check
// (docs/reference/exports.md#gpu-product-check) of every case: mma / mma.sp / wmma and wgmma / wgmma.sp
// (whose kernels only this program links). Prints one line per case and a summary; exits 0 when every case
// does what it must, 1 when one does not, 3 when no usable device exists, 2 on bad arguments. --list prints
// the cases without running them (no device needed):
// "spec<TAB>selector<TAB>registers|shared<TAB>check|control" per line, selector -1 for dense.
#include "lanemap/write.hpp"
#include "product_check.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    std::string json;
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json" && i + 1 < argc)
            json = argv[++i];
        else if (arg == "--list")
            list = true;
        else {
            std::cerr << "lanemap-product-check: unknown argument '" << arg
                      << "'; valid: --json PATH, --list\n";
            return 2;
        }
    }
    std::vector<lanemap::product::Case> cases = lanemap::product::mmaCases();
    cases.insert(cases.end(), lanemap::product::wgmmaCases().begin(), lanemap::product::wgmmaCases().end());
    if (list) {
        for (const lanemap::product::Case& c : cases)
            std::cout << c.spec << '\t' << c.selector << '\t' << (c.aShared ? "shared" : "registers") << '\t'
                      << (c.control ? "control" : "check") << '\n';
        return std::cout.flush() ? 0 : 1;
    }
    if (const std::string why = lanemap::product::deviceProblem(); !why.empty()) {
        std::cerr << "lanemap-product-check: skipped: " << why << '\n';
        return 3;
    }
    const lanemap::product::Run run = lanemap::product::runAll(cases);
    std::cout << lanemap::product::toText(run);
    if (!json.empty())
        if (const std::string failure = lanemap::writeFile(json, lanemap::product::toJson(run));
            !failure.empty()) {
            std::cerr << "lanemap-product-check: " << failure << '\n';
            return 1;
        }
    for (const lanemap::product::CaseResult& r : run.results)
        if (!r.asRequired())
            return 1;
    return 0;
}
