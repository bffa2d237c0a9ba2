// lanemap-cli feeds SPEC --into CONSUMER[:OPERAND] (cli_feeds.hpp): the text read once into a feeds::Request,
// the comparison made in core (lanemap/feeds.hpp).

#include "cli_feeds.hpp"

#include "cli.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/feeds.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tcgen05_desc.hpp"

#include <ostream>

namespace lanemap::cli {

namespace {

std::optional<Selection> selectionNamed(const std::string& text, const char* what, std::ostream& err) {
    const ParsedSpec parsed = parseSpec(text, Catalog::instance());
    if (!parsed) {
        err << "lanemap-cli: " << what << parsed.error << '\n';
        return std::nullopt;
    }
    Selection selection = selectionOf(parsed);
    if (const std::string why = validate(selection); !why.empty()) {
        err << "lanemap-cli: " << what << why << '\n';
        return std::nullopt;
    }
    return selection;
}

} // namespace

int cmdFeedsInto(const FeedsIntoRequest& request, std::ostream& out, std::ostream& err) {
    feeds::Request q;
    const std::optional<Selection> writer = selectionNamed(request.spec, "", err);
    if (!writer)
        return Usage;
    q.writer = *writer;
    q.writerText = request.spec;
    // CONSUMER[:OPERAND]: the last ':' that names an operand (a PTX string holds "::").
    std::string consumer = request.into;
    const std::size_t colon = consumer.rfind(':');
    if (colon != std::string::npos && colon > 0 && consumer[colon - 1] != ':') {
        const std::optional<Operand> operand = parseOperand(consumer.substr(colon + 1));
        if (!operand || (*operand != Operand::A && *operand != Operand::B)) {
            err << "lanemap-cli: --into '" << excerpt(request.into)
                << "': the operand after ':' must be A or B (e.g. wgmma.m64n64k16.f16:A)\n";
            return Usage;
        }
        q.operand = *operand;
        consumer = consumer.substr(0, colon);
    } else if (request.smem.empty()) {
        err << "lanemap-cli: --into '" << excerpt(request.into)
            << "' names no operand: write CONSUMER:A or CONSUMER:B (e.g. wgmma.m64n64k16.f16:A), or an "
               "ldmatrix with --smem\n";
        return Usage;
    }
    const std::optional<Selection> reader = selectionNamed(consumer, "--into: ", err);
    if (!reader)
        return Usage;
    q.reader = *reader;
    q.readerText = request.into;
    const auto majorOf = [&](const std::string& text, const char* name) -> std::optional<smem::Major> {
        const std::optional<smem::Major> m = smem::parseMajor(text);
        if (!m)
            err << "lanemap-cli: unknown " << name << " '" << excerpt(text)
                << "'; valid: " << smem::majorList() << '\n';
        return m;
    };
    if (!request.major.empty() && !(q.major = majorOf(request.major, "--major")))
        return Usage;
    if (!request.inner.empty() && !(q.inner = majorOf(request.inner, "--inner")))
        return Usage;
    if (!request.swizzle.empty()) {
        // The tcgen05 spellings include the 128B-32B mode; wgmma refuses it with its own message.
        q.swizzle = smem::parseSwizzle(request.swizzle);
        if (!q.swizzle)
            q.swizzle = tcgen05::parseSwizzle(request.swizzle);
        if (!q.swizzle) {
            err << "lanemap-cli: unknown --swizzle '" << excerpt(request.swizzle)
                << "'; valid: " << tcgen05::swizzleList() << '\n';
            return Usage;
        }
    }
    std::string error;
    if (!request.smem.empty()) {
        q.tile = banks::parsePlacement(request.smem, error);
        if (!q.tile) {
            err << "lanemap-cli: " << error << '\n';
            return Usage;
        }
    }
    const std::optional<feeds::Answer> answer = feeds::ask(q, error);
    if (!answer) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    out << (request.json ? feeds::toJson(answer->comparison, answer->sides)
                         : feeds::toText(answer->comparison, answer->sides));
    return answer->comparison.feeds() ? Ok : Mismatch;
}

} // namespace lanemap::cli
