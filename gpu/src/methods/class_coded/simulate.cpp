// A CPU warpgroup for the wgmma probe's tests. It plays the hardware: it reads A from the register images
// with a reference fragment table, reads shared memory through each descriptor with its own evaluation of the
// ISA's canonical layouts (not lanemap::smem), applies the metadata, multiplies, and writes D into registers
// with a reference D table. It shares no code with the interpreter's reading of D, nor with lanemap::smem's
// addressing, so a bug on one side cannot hide one on the other.
#include "lanemap/gpu/wgmma.hpp"

#include "shared/sparse_sim.hpp"

#include "lanemap/gpu/simulate.hpp"
#include "lanemap/sparse.hpp"

#include <bit>
#include <cmath>
#include <map>
#include <stdexcept>

namespace lanemap::gpu::wg {

SimReference referenceOf(const Instruction& in) {
    SimReference r;
    r.a.assign(in.operand(Operand::A)->elements().begin(), in.operand(Operand::A)->elements().end());
    r.d.assign(in.operand(Operand::D)->elements().begin(), in.operand(Operand::D)->elements().end());
    if (in.metadata)
        r.metadata = *in.metadata; // a copy: simulations may play a different hardware
    return r;
}

HardwareAddress descriptorAddress(std::uint64_t descriptor, smem::Major major, int elementBits, int mn, int k,
                                  std::optional<smem::Swizzle> swizzle) {
    const std::uint32_t start = static_cast<std::uint32_t>(descriptor & 0x3FFF) << 4;
    const std::uint32_t lbo = static_cast<std::uint32_t>((descriptor >> 16) & 0x3FFF) << 4;
    const std::uint32_t sbo = static_cast<std::uint32_t>((descriptor >> 32) & 0x3FFF) << 4;
    // Bits 63-62: 0 none, 1 128B, 2 64B, 3 32B; s = 16-byte units in one swizzled row.
    static constexpr std::uint32_t kUnits[4] = {1, 8, 4, 2};
    std::uint32_t s = kUnits[descriptor >> 62];
    if (swizzle)
        s = static_cast<std::uint32_t>(smem::swizzleBytes(*swizzle) / 16);

    const std::uint32_t contiguousBits =
        static_cast<std::uint32_t>((major == smem::Major::K ? k : mn) * elementBits);
    const std::uint32_t strided = static_cast<std::uint32_t>(major == smem::Major::K ? mn : k);
    const std::uint32_t unit = contiguousBits / 128, inUnit = (contiguousBits % 128) / 8;
    std::uint32_t address;
    if (major == smem::Major::K) {
        // ((8,m),(T,2k)):((1T,SBO),(1,LBO)) without swizzle; ((8,m),(T,2k)):((sT,SBO),(1,T)) with one, K
        // beyond one swizzled row continuing LBO further on.
        address = start + strided / 8 * sbo + strided % 8 * 16 * s + unit % s * 16 + unit / s * lbo + inUnit;
    } else if (s == 1) {
        // ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
        address = start + unit * sbo + strided / 8 * lbo + strided % 8 * 16 + inUnit;
    } else {
        // ((T,s,m),(8,k)):((1,T,LBO),(sT,SBO))
        address = start + unit / s * lbo + unit % s * 16 + strided / 8 * sbo + strided % 8 * 16 * s + inUnit;
    }
    address ^= ((address >> 7) & (s - 1)) << 4; // Swizzle<log2 s, 4, 3>
    return {address, static_cast<int>(contiguousBits % 8)};
}

namespace {

int logical(std::uint64_t bits, std::uint64_t one) {
    if (bits == 0)
        return 0;
    if (bits == one)
        return 1;
    throw std::logic_error("simulate: an element holds neither 0 nor 1");
}

std::optional<smem::Swizzle> misread(const std::map<smem::Swizzle, smem::Swizzle>& as,
                                     std::uint64_t descriptor) {
    const auto it = as.find(smem::decodeDescriptor(descriptor).swizzle);
    if (it == as.end())
        return std::nullopt;
    return it->second;
}

} // namespace

std::vector<std::uint32_t> simulate(const Plan& plan, const SimReference& ref) {
    const Instruction& in = *plan.instruction;
    const FragmentLayout& la = *in.operand(Operand::A);
    const int M = la.rows(), K = in.k, N = in.n;
    const bool sparse = (in.metadata != nullptr);
    const int storedK = sparse ? K / 2 : K;
    gpu::SimReference mmaRef; // the mma.sp simulator's reading of compressed A, with this A table
    mmaRef.a = ref.a;
    std::optional<gpu::detail::SparseSim> sparseSim;
    if (sparse)
        sparseSim.emplace(mmaRef, *ref.metadata);
    const sparse::StorageRule* rule = sparse ? sparse::ruleFor(ref.metadata->granularity) : nullptr;

    std::vector<std::uint32_t> out(plan.outWords(), 0u);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::vector<int>>>
        bCache; // (offset, setup) -> k -> n
    std::vector<int> dm(static_cast<std::size_t>(M * N));

    for (std::size_t x = 0; x < plan.experiments.size(); ++x) {
        const Experiment& ex = plan.experiments[x];
        const Inputs& inputs = plan.inputs[x];
        const Setup& s = plan.setups[ex.setup];
        const ProbeForm& form = plan.forms[s.form];
        const std::uint64_t oneA = traits(form.atype()).one, oneB = traits(form.btype()).one;
        const int aBits = traits(form.atype()).bits, bBits = traits(form.btype()).bits;
        // Shared memory as the warpgroup would hold it: B at the base, A at aAt.
        auto readSmem = [&](std::uint32_t address, int bit, int bits) -> std::uint64_t {
            const std::uint8_t* src;
            if (address < inputs.bBytes)
                src = plan.pool.data() + inputs.bOffset + address;
            else if (inputs.aBytes && address >= inputs.aAt && address < inputs.aAt + inputs.aBytes)
                src = plan.pool.data() + inputs.aOffset + (address - inputs.aAt);
            else
                return 0; // outside both images: never written, reads as zero
            if (bits < 8)
                return (*src >> bit) & ((1u << bits) - 1u);
            std::uint64_t v = 0;
            for (int byte = 0; byte < bits / 8; ++byte)
                v |= static_cast<std::uint64_t>(src[byte]) << (8 * byte);
            return v;
        };
        const std::uint32_t* meta = inputs.meta == kNone ? nullptr : plan.words.data() + inputs.meta;

        // B: for every k, the columns n where B(k, n) = 1.
        auto key = std::make_pair(inputs.bOffset, static_cast<std::uint32_t>(ex.setup));
        auto bit = bCache.find(key);
        if (bit == bCache.end()) {
            std::vector<std::vector<int>> rows(static_cast<std::size_t>(K));
            for (int k = 0; k < K; ++k)
                for (int n = 0; n < N; ++n) {
                    const HardwareAddress a = descriptorAddress(inputs.descB, s.major, bBits, n, k,
                                                                misread(ref.bSwizzleAs, inputs.descB));
                    if (logical(readSmem(a.byte, a.bit, bBits), oneB))
                        rows[static_cast<std::size_t>(k)].push_back(n);
                }
            if (bCache.size() > 256)
                bCache.clear();
            bit = bCache.emplace(key, std::move(rows)).first;
        }
        const auto& bRows = bit->second;

        // A: the non-zero (row, k) as the hardware reads them.
        std::vector<std::pair<int, int>> nzA;
        if (s.a == ASource::Registers) {
            const std::uint32_t* regs = plan.words.data() + inputs.aRegs;
            const std::uint32_t mask = la.elementBits() >= 32 ? 0xFFFFFFFFu : (1u << la.elementBits()) - 1u;
            for (std::size_t i = 0; i < ref.a.size(); ++i) {
                const Element& e = ref.a[i];
                const std::uint32_t bits =
                    (regs[static_cast<std::size_t>(e.reg) * kThreads + e.thread] >> (e.bit % 32)) & mask;
                if (!logical(bits, oneA))
                    continue;
                const int col = sparse ? sparseSim->column(i, form.selector, meta) : static_cast<int>(e.col);
                if (col >= 0)
                    nzA.emplace_back(e.row, col);
            }
        } else {
            const MetadataSelector* sel = nullptr;
            if (sparse)
                for (const MetadataSelector& ms : ref.metadata->selectors)
                    if (ms.value == form.selector)
                        sel = &ms;
            for (int m = 0; m < M; ++m)
                for (int j = 0; j < storedK; ++j) {
                    const HardwareAddress a = descriptorAddress(inputs.descA, s.major, aBits, m, j,
                                                                misread(ref.aSwizzleAs, inputs.descA));
                    if (!logical(readSmem(a.byte, a.bit, aBits), oneA))
                        continue;
                    int col = j;
                    if (sparse) { // compressed row: slot j % kept of chunk j / kept, placed by that chunk's
                                  // field
                        const int first = j / rule->kept * rule->chunkCols;
                        col = -1;
                        for (const MetadataField& f : sel->fields)
                            if (f.row == m && f.colFirst == first) {
                                const unsigned width = static_cast<unsigned>(f.bitHi - f.bitLo + 1);
                                const unsigned value = (meta[f.thread] >> f.bitLo) & ((1u << width) - 1u);
                                const std::vector<int> offsets = sparse::decodeField(rule->pattern, value);
                                if (j % rule->kept < static_cast<int>(offsets.size()))
                                    col = first + offsets[static_cast<std::size_t>(j % rule->kept)];
                            }
                    }
                    if (col >= 0)
                        nzA.emplace_back(m, col);
                }
        }

        std::fill(dm.begin(), dm.end(), 0);
        for (const auto& [r, k] : nzA)
            for (int n : bRows[static_cast<std::size_t>(k)])
                ++dm[static_cast<std::size_t>(r * N + n)];

        // What the kernel writes: each element's class (0, 1, other) packed as Plan describes.
        std::uint32_t* o = out.data() + x * plan.outWordsPerExperiment();
        for (const Element& e : ref.d) {
            const int p = plan.classPosition(e);
            const int count = dm[static_cast<std::size_t>(e.row * N + e.col)];
            const std::uint32_t cls = count == 0 ? 0u : count == 1 ? 1u : 2u;
            o[static_cast<std::size_t>(p / 16) * kThreads + e.thread] |= cls << (2 * (p % 16));
        }
    }
    return out;
}

} // namespace lanemap::gpu::wg
