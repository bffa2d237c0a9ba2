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

CellVerdict cellVerdict(const ProbeResult* result, OperandSet operands, int matrix, int row, int col) {
    if (!result || operands.empty() || !coversCells(*result))
        return CellVerdict::NotProbed;
    for (const ProbeMismatch& m : result->mismatches) {
        if (m.row != row || m.col != col || (m.matrix >= 0 && matrix >= 0 && m.matrix != matrix))
            continue;
        const std::optional<Operand> op = operandOf(m);
        if (op && operands.contains(*op))
            return CellVerdict::Mismatch;
    }
    return CellVerdict::Confirmed;
}

} // namespace lanemap
