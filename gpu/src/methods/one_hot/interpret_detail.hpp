#pragma once
// Internal pieces of the interpreter shared with the findings and the mma.sp metadata checks.
#include "lanemap/gpu/experiments.hpp"

#include <cstdint>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu::detail {

int matrixOf(const Element& e);

// The D layout as the frame of reference: "row r" means the D slots the engine puts in row r.
struct Frame {
    explicit Frame(const FragmentLayout& d);

    const FragmentLayout& layout;
    std::vector<std::vector<int>> rowSlots; // by rowKey: sorted D slots (flat D elements)
    std::vector<std::vector<int>> colSlots; // by colKey
    std::vector<int> cellSlot;              // (matrix, row, col) -> D slot

    int rowKey(const Element& e) const;
    int colKey(const Element& e) const;
    std::uint64_t bits(std::span<const std::uint32_t> block, int slot) const;
    double value(std::span<const std::uint32_t> block, int slot) const;
    std::string slotName(int slot) const;
    std::string rowName(int key) const;
    std::string colName(int key) const;

  private:
    ElementType m_type = ElementType::F32;
    enum class Kind { F32, S32, F64, Other } m_kind = Kind::Other;
};

// Per-cell verdicts: one ProbeMismatch per wrong cell and experiment.
struct Collector {
    std::set<std::pair<Operand, int>> badCells; // (operand, flat element or field)
    std::vector<ProbeMismatch> mismatches;

    void add(Operand operand, const FragmentLayout& layout, int flat, const std::string& experiment,
             std::string expected, std::string observed);
};

// What the engine says about k where metadata decides it. Dense: an A element's k is its column.
class KModel {
  public:
    virtual ~KModel() = default;
    virtual int patterns() const { return 1; }
    // k of A element `flat` when every metadata nibble holds base pattern `pattern`; -1: not multiplied.
    virtual int kOfA(int flat, int pattern) const = 0;
    // Whether B row k of product `matrix` is multiplied by some A element under `pattern`.
    virtual bool kSelected(int matrix, int k, int pattern) const = 0;
    virtual std::string patternName(int /*pattern*/) const { return ""; }
};

std::unique_ptr<KModel> kModelOf(const Instruction& instruction);

// Text of the findings: what the run settled (errata, sub-register positions, the observed mapping).
std::vector<std::string> findings(const ProbePlan& plan, const ObservedMapping& observed,
                                  const ProbeResult& result);

// Short label of a form for experiment names (" [A .s8 x B .u8]"); empty when the variant has one form.
std::string formLabel(const ProbePlan& plan, std::uint16_t form);

} // namespace lanemap::gpu::detail

namespace lanemap::gpu::detail {

// mma.sp (interpret_sparse.cpp): the k model of compressed A under the base patterns, the number of metadata
// fields checked, and the metadata experiments (location of each A element's field, every valid value).
std::unique_ptr<KModel> sparseKModel(const Instruction& instruction);
int metadataFieldCount(const Instruction& instruction);
void checkMetadata(const ProbePlan& plan, const Frame& frame, std::span<const std::uint32_t> raw,
                   std::uint16_t form, std::size_t begin, std::size_t end, const KModel& k,
                   Collector& verdicts, ObservedMapping& observed);

} // namespace lanemap::gpu::detail
