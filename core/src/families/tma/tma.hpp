#pragma once
// The Tensor Memory Accelerator's tiled mode (cp.async.bulk.tensor, PTX §9.7.9.25; the CUDA driver's
// cuTensorMapEncodeTiled): a tensor map and the coordinates of one load say which element of the global
// tensor lands at which byte of shared memory, and which bytes are fill (docs/tma.md).
//
// Axes: lanemap's grammar writes every list outermost first, as a shape is written (`tensor=128x192` is 128
// rows of 192 columns; `origin=8,64` is row 8, column 64). The driver's arrays and the PTX coordinate operand
// `{c0, c1}` are innermost first; the struct below keeps the driver's order, so index 0 is the innermost.
//
// The box in shared memory is row after row, innermost dimension fastest (ceil(box[i] / elementStrides[i])
// elements along dimension i), each row padded to the swizzle's span where a swizzle is set, and the swizzle
// acts on the byte offset from a base aligned to the swizzle's repeat (1024 bytes for 128B):
// smem::swizzleAddress, the same function the wgmma layouts use.

#include "lanemap/family.hpp"
#include "lanemap/params.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/vocabulary.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {
struct Instruction;
struct Variant;
} // namespace lanemap

namespace lanemap::tma {

inline constexpr int kMaxRank = 5;

enum class Interleave : std::uint8_t { None, B16, B32 };
enum class OobFill : std::uint8_t { Zero, Nan }; // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE / _NAN_REQUEST_ZERO_FMA
enum class L2Promotion : std::uint8_t { None, B64, B128, B256 };

std::string_view toString(Interleave value);  // "none", "16B", "32B"
std::string_view toString(OobFill value);     // "zero", "nan"
std::string_view toString(L2Promotion value); // "none", "64B", "128B", "256B"

// One cuTensorMapEncodeTiled call and the coordinates of one load. Arrays are innermost first (the driver's
// order); entries at rank and beyond are unused.
struct TensorMap {
    ElementType type = ElementType::F16; // the map's data type (its size is what places; f16 for 2 bytes)
    int rank = 2;
    std::array<std::int64_t, kMaxRank> dims{};    // globalDim
    std::array<std::int64_t, kMaxRank> strides{}; // globalStrides in bytes; [0] is the element size
    std::array<int, kMaxRank> box{};              // boxDim
    std::array<int, kMaxRank> elementStrides{1, 1, 1, 1, 1};
    Interleave interleave = Interleave::None;
    smem::Swizzle swizzle = smem::Swizzle::None;
    L2Promotion l2 = L2Promotion::None;
    OobFill oob = OobFill::Zero;
    std::array<std::int64_t, kMaxRank> origin{}; // the load's tensor coordinates (int32 in PTX)
    // .multicast::cluster (docs/tma.md#multicast): the ctaMask operand — bit r names the CTA whose
    // %cluster_ctarank is r, each of which receives the box at the same CTA-relative offset — and the
    // cluster's CTA count (0: the mask's highest bit + 1). ctaMask 0: no multicast.
    std::uint16_t ctaMask = 0;
    int cluster = 0;
    // CUTLASS's SM90_TMA_LOAD_MULTICAST: the CTAs of the mask each issue one box, the t-th of them (in rank
    // order) at `origin` + t boxes along the outermost dimension into dstMem + t x footprintBytes(), each
    // multicast to the whole mask, so that every CTA of the mask holds the tile of all the boxes.
    bool split = false;

    int elementBytes() const;
    // Elements the box holds along dimension i: ceil(box[i] / elementStrides[i]) (dimension 0 ignores its
    // element stride without interleave, as the driver does).
    int loaded(int i) const;
    // Bytes of one innermost row of the box, and of the whole box: what the load moves (the mbarrier's
    // transaction count).
    int innerBytes() const { return loaded(0) * elementBytes(); }
    std::int64_t boxBytes() const;
    // Bytes from one row of the box to the next in shared memory: the inner extent, or with a swizzle the
    // swizzle's span (a narrower row is padded to it: found on the GPU, docs/tma.md#legality-study).
    int rowPitch() const;
    // Bytes of shared memory the box spans: rows x rowPitch().
    std::int64_t footprintBytes() const;
    // The cluster's CTA count, and the CTAs of the mask in rank order (empty without multicast).
    int clusterCtas() const;
    std::vector<int> receivers() const;
    // Boxes loaded: the mask's CTA count with `split`, else 1.
    int loads() const;
    friend bool operator==(const TensorMap&, const TensorMap&) = default;
};

// The default map of a rank (what the catalog entry cp.async.bulk.tensor.<rank>d shows): f16, a small packed
// tensor, an 8-row box of 64 columns (128 bytes) at the origin, no swizzle.
TensorMap defaultMap(int rank);

// The map an instance was built with: the family's parameters, or the rank's default; the swizzle is
// Params::smem's (--swizzle, or swizzle= in the spec), none when not given.
TensorMap mapOf(const Instruction& instruction);

// What the driver's encoder refuses: "" or the parameter, its value and the valid range.
std::string checkEncoding(const TensorMap& map);

// Rules the hardware adds to the encoder's (found by the probe, docs/tma.md#legality): a configuration the
// encoder accepts but whose load traps or is not modelled. "" when none applies, else why and what would
// work.
std::string checkLoad(const TensorMap& map);

// One element of the box: its coordinates in the box (innermost first), its shared-memory byte offset from a
// base aligned to smem::repeatBytes(swizzle), and its global coordinates and byte offset, or fill.
struct BoxElement {
    std::array<int, kMaxRank> boxIndex{};
    std::uint32_t smemOffset = 0;
    bool fill = false;
    std::array<std::int64_t, kMaxRank> coord{}; // global (innermost first); unset for fill
    std::int64_t globalOffset = 0;
};

// The elements of the box one at a time, in shared-memory order of the box (innermost fastest), from `base`
// bytes on (the swizzle acts on the address from a base aligned to its repeat): what boxElements lists,
// without the list (a placement writes each element where it goes as it comes). The map must pass
// checkEncoding and outlive the walk.
class BoxWalk {
  public:
    explicit BoxWalk(const TensorMap& map, std::uint32_t base = 0);
    // The next element into `e`; false after the last.
    bool next(BoxElement& e);

  private:
    const TensorMap& m_map;
    std::uint32_t m_base;
    int m_elementBytes;
    std::uint32_t m_rowPitch;
    std::array<int, kMaxRank> m_loaded{}; // elements loaded along each dimension
    std::array<int, kMaxRank> m_stride{}; // elements of the tensor from one loaded element to the next
    std::array<int, kMaxRank> m_index{};  // the next element's place in the box
    std::uint32_t m_row = 0;              // its row of the box (every dimension but the innermost)
    std::size_t m_left;                   // elements not yet walked
};

// Every element of the box, in BoxWalk's order.
std::vector<BoxElement> boxElements(const TensorMap& map, std::uint32_t base = 0);

// What a multicast asks that the encoder cannot see: "" or the word, its value and the valid range (a mask
// naming no CTA or one beyond the cluster, a cluster over 16 CTAs, a split without a mask).
std::string checkMulticast(const TensorMap& map);

// The grid a placement draws: rows = every outer box index (dimension 1 fastest), cols = the innermost; a
// split multicast stacks its loads' boxes (load t's rows after load t-1's).
int gridRows(const TensorMap& map);
int gridCols(const TensorMap& map);

// The spec text's parameters (docs/tma.md#grammar): "key=value" or "--key value" words after the opcode.
// Sets `map` and `swizzle` (when given); "" or what is wrong and what is valid.
std::string parseWords(std::string_view words, int rank, TensorMap& map,
                       std::optional<smem::Swizzle>& swizzle);

// The words of the spec text that name `map`, every word the grammar reads (docs/tma.md#grammar) but the
// multicast's when it has none; those at their default flagged (SpecWord::atDefault), which the text leaves
// out.
std::vector<SpecWord> wordsOf(const TensorMap& map);

// The spec text that names `map` (lists outermost first), e.g.
// "cp.async.bulk.tensor.2d type=f16 tensor=64x128 box=8x64 origin=0,0 swizzle=128B".
std::string specText(const TensorMap& map);

// --- decoding a CUtensorMap
// --------------------------------------------------------------------------------- The 128 bytes
// cuTensorMapEncodeTiled writes are undocumented. The fields below were read off the maps an H200 (driver
// 580.159.04, sm_90) encoded for the legality study and the probe (docs/tma.md#decoding-a-tensor-map), and
// the decoder is tested against every one of them; a field no recorded map set is reported, not guessed.
struct DecodedMap {
    TensorMap map; // rank, type, dims, strides, box, element strides, swizzle, oob, l2, interleave
    std::uint64_t address = 0;        // globalAddress
    std::vector<std::string> unknown; // bits set that no recorded map explained
};

// Reads hex as a debugger prints the map: 256 hex digits in memory order (separators allowed: blanks, ',',
// ':', '0x' per byte), or 16 64-bit words ("0x00007f0cb9e00000, ...", little-endian in memory, gdb's x/16gx).
// nullopt with `error` naming what is wrong.
std::optional<std::array<std::uint8_t, 128>> parseTensorMapHex(std::string_view text, std::string& error);
// nullopt with `error` when the bytes are not a tiled map this decoder knows (an unknown type code, rank 0).
std::optional<DecodedMap> decodeTensorMap(const std::array<std::uint8_t, 128>& bytes, std::string& error);

// The tensor map of a selection's parameters; nullptr when the family parameters hold none.
const TensorMap* tensorMapOf(const Params& params);

} // namespace lanemap::tma
