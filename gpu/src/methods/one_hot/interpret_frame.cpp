// The one-hot interpreter's frame of reference and bookkeeping: D's slots by row and column, reading a slot's
// value, the per-cell verdict collector, form labels and the k model of dense A.
#include "lanemap/gpu/experiments.hpp"

#include "interpret_detail.hpp"
#include "plan_detail.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace lanemap::gpu {

namespace detail {

int matrixOf(const Element& e) {
    return e.matrix < 0 ? 0 : e.matrix;
}

Frame::Frame(const FragmentLayout& d) : layout(d) {
    m_type = d.elementType();
    m_kind = m_type == ElementType::F32   ? Kind::F32
             : m_type == ElementType::S32 ? Kind::S32
             : m_type == ElementType::F64 ? Kind::F64
                                          : Kind::Other;
    const auto els = d.elements();
    const std::size_t planeRows = static_cast<std::size_t>(d.matrices() * d.rows());
    const std::size_t planeCols = static_cast<std::size_t>(d.matrices() * d.cols());
    rowSlots.resize(planeRows);
    colSlots.resize(planeCols);
    cellSlot.assign(static_cast<std::size_t>(d.matrices() * d.rows() * d.cols()), -1);
    for (std::size_t s = 0; s < els.size(); ++s) {
        const Element& e = els[s];
        rowSlots[static_cast<std::size_t>(rowKey(e))].push_back(static_cast<int>(s));
        colSlots[static_cast<std::size_t>(colKey(e))].push_back(static_cast<int>(s));
        cellSlot[static_cast<std::size_t>((matrixOf(e) * d.rows() + e.row) * d.cols() + e.col)] =
            static_cast<int>(s);
    }
}

int Frame::rowKey(const Element& e) const {
    return matrixOf(e) * layout.rows() + e.row;
}
int Frame::colKey(const Element& e) const {
    return matrixOf(e) * layout.cols() + e.col;
}

std::uint64_t Frame::bits(std::span<const std::uint32_t> block, int slot) const {
    const Element& e = layout.elements()[static_cast<std::size_t>(slot)];
    const int regWords = layout.registerBits() / 32;
    const std::size_t word = static_cast<std::size_t>(e.reg * regWords + e.bit / 32);
    if (regWords == 2)
        return block[word * 32 + e.thread] | (std::uint64_t{block[(word + 1) * 32 + e.thread]} << 32);
    const int width = layout.containerBits();
    const std::uint32_t w = block[word * 32 + e.thread] >> (e.bit % 32);
    return width >= 32 ? w : (w & ((1u << width) - 1u));
}

double Frame::value(std::span<const std::uint32_t> block, int slot) const {
    const std::uint64_t b = bits(block, slot);
    switch (m_kind) {
    case Kind::F32:
        return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
    case Kind::S32:
        return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(b)));
    case Kind::F64:
        return std::bit_cast<double>(b);
    case Kind::Other:
        break;
    }
    return decodeValue(m_type, b);
}

std::string Frame::slotName(int slot) const {
    const Element& e = layout.elements()[static_cast<std::size_t>(slot)];
    return "T" + std::to_string(e.thread) + ":d" + std::to_string(e.index);
}

std::string Frame::rowName(int key) const {
    const int m = key / layout.rows(), r = key % layout.rows();
    return (layout.matrices() > 1 ? "product " + std::to_string(m) + " row " : "row ") + std::to_string(r);
}

std::string Frame::colName(int key) const {
    const int m = key / layout.cols(), c = key % layout.cols();
    return (layout.matrices() > 1 ? "product " + std::to_string(m) + " column " : "column ") +
           std::to_string(c);
}

} // namespace detail

namespace detail {

std::string formLabel(const ProbePlan& plan, std::uint16_t form) {
    if (plan.forms.size() < 2)
        return "";
    const ProbeForm& f = plan.forms[form];
    const std::string a(toString(f.atype())), b(toString(f.btype()));
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
    if (a != b)
        add("A ." + a + " x B ." + b);
    if (f.atype() == ElementType::B1)
        add(f.xorPopc() ? ".xor.popc" : ".and.popc");
    if (f.selector >= 0)
        add("selector " + std::to_string(f.selector));
    if (s.empty())
        add("." + a);
    return " [" + s + "]";
}

void Collector::add(Operand operand, const FragmentLayout& layout, int flat, const std::string& experiment,
                    std::string expected, std::string observed) {
    const Element& e = layout.elements()[static_cast<std::size_t>(flat)];
    ProbeMismatch m;
    m.operand = operand;
    m.matrix = e.matrix;
    m.row = e.row;
    m.col = e.col;
    m.thread = e.thread;
    m.index = e.index;
    m.experiment = experiment;
    m.expected = std::move(expected);
    m.observed = std::move(observed);
    badCells.insert({operand, flat});
    mismatches.push_back(std::move(m));
}

namespace {
class DenseK final : public KModel {
  public:
    explicit DenseK(const FragmentLayout& a) : m_a(a) {}
    int kOfA(int flat, int) const override { return m_a.elements()[static_cast<std::size_t>(flat)].col; }
    bool kSelected(int, int, int) const override { return true; }

  private:
    const FragmentLayout& m_a;
};
} // namespace

std::unique_ptr<KModel> kModelOf(const Instruction& in) {
    if (in.metadata)
        return sparseKModel(in);
    return std::make_unique<DenseK>(*in.operand(Operand::A));
}

} // namespace detail

} // namespace lanemap::gpu
