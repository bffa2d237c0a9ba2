#pragma once
// What the details panel says about one cell: read straight from the core model (owners of (row, col),
// metadata fields), so the panel and the diagram can never disagree. Plain text for the clipboard, HTML for
// the panel.

#include <QString>
#include <QStringList>

#include <vector>

namespace lanemap {
struct Instruction;
class FragmentLayout;
struct MetadataField;
struct ProbeReport;
} // namespace lanemap

namespace lanemap::gui {

struct OwnerInfo {
    int thread = 0; // %laneid, or 0..127 in a warpgroup
    int lane = 0;   // thread % 32
    int warp = 0;   // warp in the warpgroup (wgmma)
    int groupID = 0;
    int threadInGroup = 0;
    int index = 0;   // element number: a<index>
    QString element; // "a5"
    int reg = 0;     // register of the fragment
    int bitLo = 0, bitHi = 0;
    int colFirst = 0, colLast = 0; // sparse A chunk: the columns this element may occupy
    QString source;                // doc / figure / inferred / hardware
};

struct CellInfo {
    bool valid = false;
    QString spec;
    QString operand; // "A", "B", "C", "D", "metadata"
    bool warpgroup = false;
    int matrix = -1; // quad-pair product, -1 elsewhere
    int row = 0, col = 0;
    int rows = 0, cols = 0;
    QString elementType;
    int registerBits = 32;
    std::vector<OwnerInfo> owners;
    // Metadata field (operand == "metadata")
    int selector = -1;
    int fieldColFirst = 0, fieldColLast = 0;
    QString granularity;
    // Where it comes from
    QString section;    // "9.7.14.5.8"
    QString anchor;     // PTX manual HTML anchor
    QStringList errata; // "E1 (suspected): summary"
    QString probe;      // "confirmed on NVIDIA H100 ... (driver ..., date)" / mismatch text / empty
    // A cell outside register fragments (Tensor Memory, shared memory) is described by its Diagram's words:
    // the hover text (the tooltip grammar) and the panel it sits in.
    QString summary;
    QString panelTitle;
    // Everything the (first) owner's lane holds, register by register, per operand: "A r1: a2 a3 → row 9,
    // cols 2–3".
    int laneThread = -1;
    QStringList laneRegisters;

    QString toPlainText() const;
    QString toHtml() const;
};

// The owners of (matrix, row, col) of one operand. Invalid when the cell is outside the operand.
CellInfo describeCell(const Instruction& instruction, const FragmentLayout& operand, int matrix, int row,
                      int col);

// One metadata field of a sparse instruction under one selector value.
CellInfo describeMetadataField(const Instruction& instruction, int selector, const MetadataField& field);

// Fills info.laneRegisters with what `thread` holds in every operand of `instruction` (C and D once as "C/D"
// when `mergedCD`) and, for sparse instructions, its metadata fields under `selector`. Long fragments (wgmma
// accumulators) are cut after `maxRegisters` registers per operand.
void addLaneRegisters(CellInfo& info, const Instruction& instruction, int thread, bool mergedCD,
                      int selector = 0, int maxRegisters = 16);

// The PTX manual URL of an anchor.
QString manualUrl(const QString& anchor);

} // namespace lanemap::gui
