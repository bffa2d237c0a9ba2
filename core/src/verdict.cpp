#include "lanemap/verdict.hpp"

#include "lanemap/probe_report.hpp"

#include <algorithm>

namespace lanemap {

namespace {

// The report's fields read as vocabulary: the one place the report's representation is consulted.
std::optional<Operand> operandOf(const ProbeMismatch& mismatch) {
    return mismatch.operand;
}
std::optional<Verdict> verdictOf(const ProbeResult& result) {
    return result.verdict;
}

} // namespace

std::string_view toString(CellVerdict verdict) {
    switch (verdict) {
    case CellVerdict::NotProbed:
        return "not probed";
    case CellVerdict::Confirmed:
        return "confirmed";
    case CellVerdict::Mismatch:
        return "mismatch";
    }
    return "not probed";
}

bool coversCells(const ProbeResult& result) {
    const std::optional<Verdict> v = verdictOf(result);
    return v == Verdict::Pass || v == Verdict::Fail;
}

CellVerdict cellVerdict(const ProbeResult* result, std::span<const Operand> operands, int matrix, int row,
                        int col) {
    if (!result || operands.empty() || !coversCells(*result))
        return CellVerdict::NotProbed;
    for (const ProbeMismatch& m : result->mismatches) {
        if (m.row != row || m.col != col || (m.matrix >= 0 && matrix >= 0 && m.matrix != matrix))
            continue;
        const std::optional<Operand> op = operandOf(m);
        if (op && std::find(operands.begin(), operands.end(), *op) != operands.end())
            return CellVerdict::Mismatch;
    }
    return CellVerdict::Confirmed;
}

std::vector<Operand> operandsOfView(std::string_view name) {
    if (name == "C/D")
        return {Operand::C, Operand::D};
    if (const std::optional<Operand> op = parseOperand(name))
        return {*op};
    return {};
}

} // namespace lanemap
