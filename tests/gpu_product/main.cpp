// lanemap-product-check [--json PATH]: the GPU product check (docs/reference/exports.md#gpu-product-check).
// Prints one line per case and a summary; exits 0 when every case reproduces the product, 1 when one does
// not, 3 when no usable device exists, 2 on bad arguments.
#include "lanemap/write.hpp"
#include "product_check.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json" && i + 1 < argc)
            json = argv[++i];
        else {
            std::cerr << "lanemap-product-check: unknown argument '" << arg << "'; valid: --json PATH\n";
            return 2;
        }
    }
    if (const std::string why = lanemap::product::deviceProblem(); !why.empty()) {
        std::cerr << "lanemap-product-check: skipped: " << why << '\n';
        return 3;
    }
    const lanemap::product::Run run = lanemap::product::runAll();
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
