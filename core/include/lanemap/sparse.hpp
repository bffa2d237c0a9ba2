#pragma once
// Sparse mma.sp storage (PTX 9.1 §9.7.14.6.1, docs/reference/ptx-facts.md#sparse-storage) as code: the 2:4,
// 1:2 and pair-wise 4:8 rules, which metadata field values are valid for plain `.sp` and for
// `::ordered_metadata`, and a codec that turns a logical M x K matrix into the exact per-lane A registers and
// metadata words for one sparsity selector, and back. The hardware probe builds its register images with it.

#include "lanemap/model.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::sparse {

enum class Pattern : std::uint8_t {
    TwoOfFour,          // 16-bit and 8-bit types: two non-zeros per 4-column chunk, two 2-bit indices
    OneOfTwo,           // tf32: one non-zero per 2-column chunk, one 4-bit index (0b0100 or 0b1110)
    PairwiseFourOfEight // 4-bit types: two non-zero column pairs per 8-column chunk, two 2-bit pair indices
};

struct StorageRule {
    Pattern pattern;
    std::string_view granularity; // as MetadataLayout::granularity: "2:4", "1:2", "4:8 pair-wise"
    int chunkCols;                // logical columns per chunk; one metadata field each
    int kept;                     // compressed A elements per chunk
    int indexBits;                // width of one index inside the field
    int fieldBits;                // metadata bits per chunk (always 4)
};

const StorageRule& rule(Pattern pattern);
// The rule named by MetadataLayout::granularity; nullptr for unknown names.
const StorageRule* ruleFor(std::string_view granularity);
// The rule of a compressed A operand by its element container width: 16 and 8 bits -> 2:4, 32 (tf32) -> 1:2,
// 4 (packed s4/u4/e2m1) -> 4:8 pair-wise. nullptr for other widths.
const StorageRule* ruleForContainerBits(int bits);

// Metadata values of one chunk (fieldBits wide).
//  - 2:4 and 4:8: two indices i0 = bits [1:0], i1 = bits [3:2]; i0 == i1 (0b0000, 0b0101, 0b1010, 0b1111) is
//    invalid; `::ordered_metadata` also needs i0 < i1 ("sorted in an increasing order starting from LSB").
//  - 1:2 (tf32): only 0b0100 (element 0 of the chunk) and 0b1110 (element 1), for both forms.
bool isValidFieldValue(Pattern pattern, bool ordered, unsigned value);
// Why `value` is not valid, naming what is; empty when it is valid.
std::string fieldValueProblem(Pattern pattern, bool ordered, unsigned value);
// Every valid value, ascending.
std::vector<std::uint8_t> validFieldValues(Pattern pattern, bool ordered);
// Column offsets inside the chunk of the kept elements, in storage order (the k-th kept element of the chunk
// multiplies column chunkFirst + result[k]). Empty when the value is not valid (plain `.sp` rules).
std::vector<int> decodeField(Pattern pattern, unsigned value);
// The field value that keeps the given columns of a chunk (offsets, ascending, `kept` of them, whole pairs
// for 4:8). Sorted positions give the ::ordered_metadata encoding, valid for plain `.sp` too.
unsigned encodeField(Pattern pattern, std::span<const int> positions);
// "0b0100"
std::string binary(unsigned value, int bits = 4);

// A logical matrix of raw element bit patterns (the low element_bits bits of each value), row-major.
// "Zero" means the all-zero bit pattern.
struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<std::uint32_t> values;

    Matrix() = default;
    Matrix(int r, int c) : rows(r), cols(c), values(static_cast<std::size_t>(r * c), 0u) {}
    std::uint32_t& at(int r, int c) { return values[static_cast<std::size_t>(r * cols + c)]; }
    std::uint32_t at(int r, int c) const { return values[static_cast<std::size_t>(r * cols + c)]; }
    bool operator==(const Matrix&) const = default;
};

// What every thread of the warp holds: its A registers and its metadata register `e`.
struct Fragments {
    int selector = 0;
    std::vector<std::vector<std::uint32_t>> a; // [thread][register], 32-bit words
    std::vector<std::uint32_t> metadata;       // [thread]; 0 for threads that supply no metadata
};

// Where one compressed A element lands once the metadata is read.
struct Placement {
    int thread = 0;
    int index = 0; // PTX element number a<index>
    int reg = 0;
    int bit = 0; // lowest bit of the element's data in its register
    int row = 0;
    int col = 0; // the logical column it multiplies
    int chunkFirst = 0;
    int slot = 0;        // position among the chunk's kept elements (0..kept-1)
    MetadataField field; // the metadata bits that placed it
};

// Compress/expand for one sparse instruction and one sparsity selector. Built from the instruction's own A
// fragment and metadata layout, so it follows whatever the catalog (or a chosen candidate) says.
//
// Inferred from the ISA's "elements (low to high)" (docs/reference/ptx-facts.md#conventions): the elements of
// one thread that share a row and an A column range [firstcol..lastcol] fill that range's chunks in column
// order, `kept` per chunk, in increasing element index; inside a chunk the k-th element is the one the
// field's k-th index places (bits [1:0] the first, bits [3:2] the second).
class Codec {
  public:
    // nullopt, with `error` naming the bad input and what is valid, when `in` is not sparse, `selector` is
    // not one of its selector values, or `candidate` names no candidate (empty: the primary mapping).
    static std::optional<Codec> make(const Instruction& in, int selector, std::string& error,
                                     std::string_view candidate = {});

    const StorageRule& rule() const { return *m_rule; }
    bool ordered() const { return m_ordered; }
    int selector() const { return m_selector; }
    int threads() const { return m_threads; }
    int registers() const { return m_registers; }
    const std::vector<MetadataField>& fields() const { return m_fields; }
    // The field that describes the chunk holding (row, col); nullptr outside the tile.
    const MetadataField* field(int row, int col) const;

    // Logical M x K matrix -> per-thread A registers and metadata words (sorted indices: valid for both
    // forms). Fails, naming the row and chunk, when the matrix breaks the sparsity pattern, and names the
    // cell when a value does not fit the element width.
    bool compress(const Matrix& logical, Fragments& out, std::string& error) const;
    // Which logical (row, col) every compressed A element multiplies under these metadata words (one per
    // thread). Fails, naming lane, bits and value, on an invalid field value.
    bool place(std::span<const std::uint32_t> metadata, std::vector<Placement>& out,
               std::string& error) const;
    // Per-thread A registers and metadata -> the logical matrix they stand for (zeros elsewhere).
    bool expand(const Fragments& fragments, Matrix& out, std::string& error) const;

    // Writes `value` into the bits of `field` in its thread's metadata word (a probe changes one field at a
    // time).
    static void setField(std::vector<std::uint32_t>& metadata, const MetadataField& field, unsigned value);
    static unsigned getField(std::span<const std::uint32_t> metadata, const MetadataField& field);

  private:
    struct Slot {
        std::uint32_t field = 0; // index into m_fields
        int slot = 0;
    };
    const StorageRule* m_rule = nullptr;
    bool m_ordered = false;
    int m_selector = 0;
    int m_threads = 32;
    int m_registers = 0;
    int m_rows = 0;
    int m_cols = 0;
    int m_elementBits = 0;
    std::string m_spec;
    const FragmentLayout* m_a = nullptr;
    std::vector<MetadataField> m_fields;
    std::vector<std::int32_t> m_fieldOfChunk; // [row * chunks + chunk] -> index into m_fields
    std::vector<Slot> m_slots;                // per A element, in FragmentLayout::elements() order
};

} // namespace lanemap::sparse
