#pragma once
// wgmma shared-memory operands (PTX 9.1 §9.7.15.5.1.2): the canonical layouts of core matrices and swizzle
// atoms, the Swizzle<B,4,3> XOR on byte addresses, and the 64-bit matrix descriptor.
//
// Coordinates are (mn, k): mn is the M index of A or the N index of B, k the K index. A layout answers
// "which byte of shared memory holds element (mn, k)" and the inverse. The hardware probe places B (and A)
// with exactly this code and builds its descriptors with encodeDescriptor(), so everything here is exact
// arithmetic on the ISA's CuTe formulas:
//
//   major  swizzle  canonical layout (elements)               T = 128 / element bits, s = swizzle bytes / 16
//   K      none     ((8,m),(T,2k)):((1T,SBO),(1,LBO))         core matrix: 8 rows x 16 bytes
//   K      32/64/128B ((8,m),(T,2k)):((sT,SBO),(1,T))         atom: 8 rows x (16 s) bytes
//   MN     none     ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))      core matrix: 16 bytes of MN x 8 k
//   MN     32/64/128B ((T,s,m),(8,k)):((1,T,LBO),(sT,SBO))    atom: (16 s) bytes of MN x 8 k
//
// followed by Swizzle<B,4,3> (B = 0, 1, 2, 3 for none, 32B, 64B, 128B) applied to the byte address:
// the 16-byte chunk bits [4+B-1:4] are XORed with bits [7+B-1:7] — 128B: bits [6:4] ^= [9:7];
// 64B: [5:4] ^= [8:7]; 32B: [4] ^= [7]. (CuTe's GMMA atoms are defined in bits with the swizzle acting on
// the smem pointer, i.e. on byte addresses; the ISA's "exact layout" examples print element offsets and
// leave this implicit.)

#include "lanemap/vocabulary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {
struct Variant;
}

namespace lanemap::smem {

// Which dimension is contiguous in memory (imm-trans-a/b = 0: K-major; 1: M- or N-major).
enum class Major : std::uint8_t { K, MN };
// B128Atom32 is tcgen05's "128-Byte swizzling with 32B atomicity" (PTX §9.7.16.10.6): 32-byte chunks of a
// 128-byte row XORed with the row index mod 4, Swizzle<2,5,2> on byte addresses; MN-major only. wgmma has no
// such mode: its descriptor rejects it and operands() never makes it.
enum class Swizzle : std::uint8_t { None, B32, B64, B128, B128Atom32 };

std::string_view toString(Major major);     // "K", "MN"
std::string_view toString(Swizzle swizzle); // "none", "32B", "64B", "128B", "128B-32B"
// Accepts K/k, MN/mn (also M, N); nullopt otherwise.
std::optional<Major> parseMajor(std::string_view text);
// Accepts none/interleave/0, 32B/32, 64B/64, 128B/128 (any case); nullopt otherwise.
std::optional<Swizzle> parseSwizzle(std::string_view text);
std::string_view majorList();   // "K, MN" for messages
std::string_view swizzleList(); // "none, 32B, 64B, 128B"

int swizzleBytes(Swizzle swizzle); // width of one swizzled row: 16 (none: one core-matrix row), 32, 64, 128
int swizzleBits(Swizzle swizzle);  // B of Swizzle<B,M,S>: 0, 1, 2, 3 (2 for 128B-32B)
int swizzleBase(Swizzle swizzle);  // M: log2 of the swizzled chunk, 4 (16-byte chunks; 5 for 128B-32B)
int swizzleShift(Swizzle swizzle); // S: distance from the chunk bits to the row bits, 3 (2 for 128B-32B)
int atomRows(Swizzle swizzle);     // rows of one swizzle atom along the strided index: 8 (4 for 128B-32B)
int repeatBytes(Swizzle swizzle);  // period of the XOR pattern: 128 (none), 256, 512, 1024 (512 for 128B-32B)
// wgmma descriptor bits 63-62: 0 none, 1 128B, 2 64B, 3 32B; -1 for 128B-32B, which wgmma does not have.
int descriptorSwizzleCode(Swizzle swizzle);

// Swizzle<B,4,3> on a byte address (the wgmma modes; swizzleAddress(address, Swizzle) covers every mode).
constexpr std::uint32_t swizzleAddress(std::uint32_t address, int bits) {
    const std::uint32_t mask = ((1u << bits) - 1u) << 4;
    return address ^ ((address >> 3) & mask);
}
std::uint32_t swizzleAddress(std::uint32_t address, Swizzle swizzle);

// The 64-bit wgmma matrix descriptor (§9.7.15.5.1.2.2), fields in bytes.
struct MatrixDescriptor {
    std::uint32_t startAddress = 0;      // bits 13-0: encode(start)
    std::uint32_t leadingByteOffset = 0; // bits 29-16: encode(LBO)
    std::uint32_t strideByteOffset = 0;  // bits 45-32: encode(SBO)
    int baseOffset = 0;                  // bits 51-49 (swizzled modes only)
    Swizzle swizzle = Swizzle::None;     // bits 63-62

    bool operator==(const MatrixDescriptor&) const = default;
};

// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4
constexpr std::uint64_t descriptorEncode(std::uint32_t bytes) {
    return (bytes & 0x3FFFFu) >> 4;
}

// A rule a descriptor's fields break: the field ("start address", ..., "swizzle") and what is valid.
struct DescriptorRule {
    std::string field;
    std::string rule;
    bool operator==(const DescriptorRule&) const = default;
};
// Every rule the fields break (not a multiple of 16, not below 2^18 = 256 KiB, base offset outside 0..7, a
// swizzle wgmma lacks); empty when they encode exactly.
std::vector<DescriptorRule> checkDescriptor(const MatrixDescriptor& descriptor);
// Packs the fields. Throws std::invalid_argument "matrix descriptor: <field>: <rule>" on the first rule
// checkDescriptor finds.
std::uint64_t encodeDescriptor(const MatrixDescriptor& descriptor);
// Fields by name, as the tcgen05 encoder takes them: "start=0x400,lbo=16,sbo=1024,base=0,swizzle=128B" (bytes
// in decimal or 0x hex; swizzle as parseSwizzle). Omitted keys are 0 / none. Throws std::invalid_argument
// naming the key and what is valid; the values' rules are checkDescriptor's.
MatrixDescriptor parseDescriptorFields(std::string_view text);
std::string_view descriptorKeyList(); // "start, lbo, sbo, base, swizzle"
// Unpacks. Throws std::invalid_argument when bits outside the documented fields are set.
MatrixDescriptor decodeDescriptor(std::uint64_t bits);
// "0x4000004000010000: start 0x0, LBO 16 B (encoded 1), SBO 1024 B (encoded 64), base offset 0, 128B swizzle"
std::string describe(const MatrixDescriptor& descriptor);

// One field of a wgmma descriptor as a decoder lists it (bits highBit..lowBit as stored).
struct DescriptorField {
    std::string name; // "start address", "leading byte offset", ..., "reserved"
    int lowBit = 0, highBit = 0;
    std::uint64_t raw = 0;
    std::string meaning; // "1024 bytes (0x400, encoded 64)"; a reserved field: "must be 0"
};
// Every field of `bits`, the reserved ones included, read by decodeDescriptor. `broken` (when given) gets one
// line per rule the value breaks: a reserved bit set.
std::vector<DescriptorField> descriptorFields(std::uint64_t bits, std::vector<std::string>* broken = nullptr);
std::string hex(std::uint64_t value);

// Base offset of a swizzled pattern that starts at `patternStart` (0 when aligned to repeatBytes()).
int baseOffsetFor(std::uint32_t patternStart, Swizzle swizzle);

// Why one element sits where it does.
struct Placement {
    int mn = 0, k = 0;
    std::uint32_t linear = 0;  // start + canonical offset, before the swizzle
    std::uint32_t address = 0; // after the swizzle: the byte holding the element
    int bit = 0;               // first bit inside that byte (sub-byte types, e.g. b1); 0 otherwise
    int chunkBefore = 0;       // 16-byte chunk inside the swizzled row, before the XOR (bits [4+B-1:4])
    int xorValue = 0;          // bits [7+B-1:7] of the linear address
    int chunkAfter = 0;        // chunkBefore ^ xorValue
};

struct Coord {
    int mn = 0, k = 0;
    bool operator==(const Coord&) const = default;
};

class SmemLayout {
  public:
    // A canonical MN x K operand tile. Atoms are packed MN-first (the stride between MN-adjacent atoms is
    // one atom), then K. Throws std::invalid_argument naming the bad input and what is valid:
    // element bits in {1,2,4,8,16,32,64}; K-major: rows multiple of 8, a row of K a whole number of 16-byte
    // units; MN-major: a column of MN a whole number of 16-byte units, cols multiple of 8 (of 4 for
    // 128B-32B, which is MN-major only); start address
    // 16-byte aligned; the tile inside the 18-bit descriptor address space.
    // The swizzle acts on the absolute address. Addresses of a layout made with start 0 are therefore byte
    // offsets valid for any buffer aligned to repeatBytes() (1024 for 128B): place element (mn, k) at
    // base + address(mn, k) and put base into the descriptor's start address (base offset 0). An unaligned
    // start gets the ISA's base offset, (start >> 7) & 7; how the hardware combines the two is inferred.
    static SmemLayout make(int elementBits, int rows, int cols, Major major, Swizzle swizzle,
                           std::uint32_t startAddress = 0);

    int elementBits() const { return m_elementBits; }
    int rows() const { return m_rows; } // MN extent
    int cols() const { return m_cols; } // K extent
    Major major() const { return m_major; }
    Swizzle swizzle() const { return m_swizzle; }
    std::uint32_t startAddress() const { return m_start; }
    int elementsPerUnit() const { return 128 / m_elementBits; } // T

    // Canonical byte offsets as the descriptor carries them. K-major swizzled tiles whose K fits in one
    // swizzled row do not use LBO; it is then 16 (encoded 1, "assumed 1" in the ISA).
    std::uint32_t leadingByteOffset() const { return m_lbo; }
    std::uint32_t strideByteOffset() const { return m_sbo; }
    bool usesLeadingByteOffset() const { return m_lboUsed; }
    int baseOffset() const { return baseOffsetFor(m_start, m_swizzle); }
    MatrixDescriptor descriptor() const;
    std::uint64_t encodedDescriptor() const { return encodeDescriptor(descriptor()); }

    // Byte address of element (mn, k) (its first byte; see placement().bit for sub-byte types).
    std::uint32_t address(int mn, int k) const { return placement(mn, k).address; }
    Placement placement(int mn, int k) const;
    // Inverse: the element whose bits include bit `bit` of byte `address`; nullopt for bytes the tile does
    // not use (gaps between swizzled chunks, padding) or addresses outside it.
    std::optional<Coord> elementAt(std::uint32_t address, int bit = 0) const;

    // Bytes from the start address to the end of the last byte used.
    std::uint32_t footprintBytes() const;
    // The ISA's canonical form with this tile's parameters, and the exact layout in elements.
    std::string canonicalFormula() const;
    std::string exactLayout() const;
    // One line naming the XOR rule, e.g. "Swizzle<3,4,3>: byte address bits [6:4] ^= bits [9:7]"
    // (128B-32B: "Swizzle<2,5,2>: byte address bits [6:5] ^= bits [8:7]").
    std::string swizzleRule() const;

  private:
    int m_elementBits = 16;
    int m_rows = 0, m_cols = 0;
    Major m_major = Major::K;
    Swizzle m_swizzle = Swizzle::None;
    std::uint32_t m_start = 0;
    std::uint32_t m_lbo = 0, m_sbo = 0;
    bool m_lboUsed = true;
    // Strides between atoms along MN and along K (one of them is LBO, the other SBO).
    std::uint32_t m_mnAtomStride = 0, m_kAtomStride = 0;
    int m_mnAtoms = 0, m_kAtoms = 0;
};

// --- wgmma operands in shared memory --------------------------------------------------------------------

struct Choice {
    Major major = Major::K;
    Swizzle swizzle = Swizzle::B128;
    friend bool operator==(const Choice&, const Choice&) = default;
};

// One operand of a wgmma variant as it sits in shared memory. The operand's own grid orientation is kept:
// A is M x K (row = m, col = k), B is K x N (row = k, col = n).
struct SharedOperand {
    lanemap::Operand operand =
        lanemap::Operand::B; // A (the SS form; sparse A is the compressed M x K/2 matrix) or B
    ElementType elementType = ElementType::F16;
    int rows = 0, cols = 0;  // in the operand's orientation
    char mnLetter = 'n';     // 'm' for A, 'n' for B
    bool compressed = false; // sparse A: K/2 stored columns
    SmemLayout layout;

    // (row, col) of the operand grid <-> (mn, k) of the layout.
    Coord toLayout(int row, int col) const {
        return operand == lanemap::Operand::B ? Coord{col, row} : Coord{row, col};
    }
    std::pair<int, int> toGrid(const Coord& c) const {
        return operand == lanemap::Operand::B ? std::pair{c.k, c.mn} : std::pair{c.mn, c.k};
    }
};

// True for wgmma and wgmma.sp variants.
bool hasSharedMemoryOperands(const Variant& variant);

// The shared-memory A and B of a wgmma variant for one major-ness and swizzle. Returns an empty list and
// sets `error` when the choice does not fit (MN-major exists only for .f16/.bf16; dense mma has none).
std::vector<SharedOperand> operands(const Variant& variant, const Choice& choice, std::string& error);
// One of them (A or B) over `rows` x `cols` of its grid, a whole number of the variant's own tiles (0 x 0:
// its own tile): the canonical layout of the whole extent, which is what the descriptors of the k-steps (and
// m/n-steps) read as they advance the start address (CuTe's GMMA descriptor iterator adds the unswizzled
// offset of the step's first element, and the swizzle acts on the absolute address). nullopt with `error`.
std::optional<SharedOperand> operandOver(const Variant& variant, lanemap::Operand operand,
                                         const Choice& choice, int rows, int cols, std::string& error);

// Text view of one shared-memory operand: layout, descriptor, the XOR rule, an address grid in the operand's
// orientation, and a memory map (one line per swizzled row, each 16-byte chunk naming the elements it holds
// and the chunk they came from before the XOR).
std::string toText(const SharedOperand& operand);

} // namespace lanemap::smem
