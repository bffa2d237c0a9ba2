// lanemap-cli show / export of tcgen05.mma: where D sits in Tensor Memory, and with --ld / --st who holds
// each element (docs/reference/tcgen05.md).

#include "cli_tcgen05.hpp"

#include "cli.hpp"
#include "cli_output.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tcgen05_split.hpp"
#include "lanemap/tmem.hpp"

#include <ostream>

namespace lanemap::cli {

bool isTcgen05Mma(const std::string& spec) {
    return spec.rfind("tcgen05.mma", 0) == 0;
}

bool refusedByTensorMemory(const std::vector<std::string_view>& given, bool exporting, std::ostream& err) {
    if (given.empty())
        return false;
    err << "lanemap-cli: a tcgen05.mma view draws D in Tensor Memory (A with --st); it takes --ld, --st, "
        << (exporting ? "--scale-vec, --sfa-id, --sfb-id, --palette and --gzip"
                      : "--scale-vec, --sfa-id and --sfb-id")
        << ", not ";
    for (std::size_t i = 0; i < given.size(); ++i)
        err << (i == 0 ? "" : i + 1 == given.size() ? " or " : ", ") << given[i];
    err << '\n';
    return true;
}

int cmdTcgen05(const std::string& spec, const std::string& ld, const std::string& st,
               const std::string& format, const std::string& output, std::ostream& out, std::ostream& err,
               const Tcgen05Scale& scale, const Tcgen05Writing& writing) {
    if (!isTcgen05Mma(spec)) {
        err << "lanemap-cli: "
            << (scale.given()
                    ? "--scale-vec, --sfa-id and --sfb-id choose a block-scaled tcgen05.mma's scale "
                      "factors"
                    : "--ld and --st compose a tcgen05.mma form with a Tensor Memory access")
            << "; '" << excerpt(spec)
            << "' is not a tcgen05.mma spec (e.g. tcgen05.mma.cta_group::1.kind::f16.m128n256)\n";
        return Usage;
    }
    if (!ld.empty() && !st.empty()) {
        err << "lanemap-cli: give --ld (who holds D) or --st (who must hold A), not both\n";
        return Usage;
    }
    if (format != "txt" && format != "json" && format != "svg") {
        err << "lanemap-cli: a tcgen05.mma view exports as txt, json or svg; '" << excerpt(format)
            << "' is not one of them\n";
        return Usage;
    }
    std::string error;
    std::optional<tcgen05::ScaleVec> specVec; // a pasted PTX string's .scale_vec::NX
    const std::optional<tmem::MmaShape> mma = tmem::parseMma(spec, error, &specVec);
    if (!mma) {
        err << "lanemap-cli: invalid spec '" << excerpt(spec) << "': " << error << '\n';
        return Usage;
    }
    tmem::View view{*mma, std::nullopt};
    if (!ld.empty() || !st.empty()) {
        const std::string& text = ld.empty() ? st : ld;
        const tmem::Op op = ld.empty() ? tmem::Op::St : tmem::Op::Ld;
        view.access = tmem::parseAccess(text, op, error);
        if (!view.access || view.access->op != op) {
            err << "lanemap-cli: invalid " << (ld.empty() ? "--st" : "--ld") << " '" << excerpt(text)
                << "': " << (view.access ? "names the other operation" : error) << '\n';
            return Usage;
        }
    }
    if (specVec && !scale.vec.empty() &&
        tcgen05::parseScaleVec(scale.vec, mma->kind).value_or(*specVec) != *specVec) {
        err << "lanemap-cli: the spec names ." << tcgen05::toString(*specVec) << " and --scale-vec '"
            << excerpt(scale.vec) << "' another; give the vector size once\n";
        return Usage;
    }
    if (scale.given() || specVec) {
        const std::optional<tcgen05::BlockScale> def = tcgen05::defaultBlockScale(view.mma.kind);
        if (!def) {
            err << "lanemap-cli: --scale-vec, --sfa-id and --sfb-id apply to the block-scaled kinds "
                   "(mxf8f6f4, "
                   "mxf4, mxf4nvf4); kind::"
                << tcgen05::toString(view.mma.kind) << " is not one of them\n";
            return Usage;
        }
        tcgen05::BlockScale bs = *def;
        bs.vec = specVec.value_or(bs.vec);
        if (!scale.vec.empty()) {
            const std::optional<tcgen05::ScaleVec> vec = tcgen05::parseScaleVec(scale.vec, view.mma.kind);
            if (!vec) {
                err << "lanemap-cli: invalid --scale-vec '" << excerpt(scale.vec)
                    << "'; valid: 1X, 2X, 4X, block32, block16 (kind::" << tcgen05::toString(view.mma.kind)
                    << " takes";
                for (const tcgen05::ScaleVec v : tcgen05::scaleVecsOf(view.mma.kind))
                    err << ' ' << tcgen05::toString(v);
                err << ")\n";
                return Usage;
            }
            bs.vec = *vec;
        }
        bs.sfaId = scale.sfaId.value_or(0);
        bs.sfbId = scale.sfbId.value_or(0);
        view.blockScale = bs;
    }
    if (const std::string why = tmem::validate(view); !why.empty()) {
        err << "lanemap-cli: " << why << '\n';
        return Usage;
    }
    std::string doc;
    if (format == "svg") { // the picture the GUI's Tensor Memory pane shows (lanemap/diagram_tmem.hpp)
        const Instruction* in = Catalog::instance().instruction(tmem::specOf(view.mma, false));
        if (!in) {
            err << "lanemap-cli: no catalog entry for '" << excerpt(spec) << "'\n";
            return Usage;
        }
        TensorMemoryOptions o;
        o.palette = writing.palette;
        o.n = view.mma.n;
        o.operand = view.access && view.access->op == tmem::Op::St ? TmemOperand::A : TmemOperand::D;
        o.access = view.access;
        o.blockScale = view.blockScale;
        doc = toSvg(buildTensorMemoryDiagram(*in, o));
    } else
        doc = format == "json" ? tmem::viewJson(view) : tmem::viewText(view);
    if (writing.gzip)
        doc = gzipBytes(doc);
    if (output.empty() || output == "-") {
        out << doc;
        return Ok;
    }
    // Into a folder under the catalog's name of the form, as `export --all` names it.
    return writeExport(output, tmem::specOf(view.mma, false), fileExtension(*parseExportFormat(format)),
                       writing.gzip, doc, out, err);
}

const Instruction* withHalfSplitoff(const Instruction& entry, const std::optional<Number>& split,
                                    Instruction& storage, std::ostream& err) {
    if (!split)
        return &entry;
    std::string error;
    if (!tmem::withHalfSplitoff(entry, split->value, storage, error)) {
        err << "lanemap-cli: --imm-half-splitoff: " << asTyped(error, *split) << '\n';
        return nullptr;
    }
    return &storage;
}

} // namespace lanemap::cli
