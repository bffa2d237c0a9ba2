// A simulated tcgen05.mma (mma.hpp): reads the probe's images the way the hardware is documented to,
// from the decoded descriptors, so a plan whose images or descriptors disagree with each other fails on it.
#include "mma.hpp"

#include <bit>
#include <cmath>

namespace lanemap::gpu::tc {

namespace {

struct Operands {
    tcgen05::DecodedInstrDescriptor instr;
    tcgen05::SmemDescriptor a, b;
};

// Byte address and bit of element (mn, k) under a no-swizzle descriptor, as the canonical layouts read:
// K-major ((8,m),(T,2k)):((1T,SBO),(1,LBO)), MN-major ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)), T elements a
// 16-byte unit.
std::pair<std::uint32_t, int> addressOf(const tcgen05::SmemDescriptor& d, smem::Major major, int bits, int mn,
                                        int k, bool swapped) {
    const std::uint32_t lbo = swapped ? d.strideByteOffset : d.leadingByteOffset;
    const std::uint32_t sbo = swapped ? d.leadingByteOffset : d.strideByteOffset;
    const int perUnit = 128 / bits;
    std::uint32_t bitOffset = 0;
    if (major == smem::Major::K)
        bitOffset = static_cast<std::uint32_t>((mn / 8) * sbo * 8 + (mn % 8) * 128 + (k / perUnit) * lbo * 8 +
                                               (k % perUnit) * bits);
    else
        bitOffset = static_cast<std::uint32_t>((mn / perUnit) * sbo * 8 + (mn % perUnit) * bits +
                                               (k / 8) * lbo * 8 + (k % 8) * 128);
    return {d.startAddress + bitOffset / 8, static_cast<int>(bitOffset % 8)};
}

std::uint32_t readBits(std::span<const std::uint32_t> words, std::uint32_t byteAddress, int bit, int bits) {
    if (byteAddress / 4 >= words.size())
        return 0xffffffffu; // outside the image: garbage
    const std::uint32_t shift = (byteAddress % 4) * 8 + static_cast<std::uint32_t>(bit);
    const std::uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
    return words[byteAddress / 4] >> shift & mask;
}

double scaleOf(tcgen05::ScaleType type, std::uint32_t byte) {
    return type == tcgen05::ScaleType::UE8M0 ? std::ldexp(1.0, static_cast<int>(byte) - 127)
                                             : decodeElement(tcgen05::Type::E4M3, byte);
}

} // namespace

// No images (Plan::notProbed): D straight from the catalog's layout, what a device that agrees writes.
std::vector<std::uint32_t> simulateLayout(const Plan& plan) {
    const tmem::MmaShape& s = *plan.mma;
    const std::size_t cells = static_cast<std::size_t>(tmem::kLanes * plan.columns);
    std::vector<std::uint32_t> out;
    for (const Experiment& x : plan.experiments) {
        std::vector<std::uint32_t> image(cells * static_cast<std::size_t>(s.ctaGroup), kSentinel);
        for (int m = 0; m < s.m; ++m)
            for (int n = 0; n < s.n; ++n) {
                const int digit = (x.axis == Axis::Rows ? m : n) >> (x.digit * plan.digitBits) &
                                  ((1 << plan.digitBits) - 1);
                const tmem::Placement p = tmem::placeD(s, m, n);
                image[static_cast<std::size_t>(p.cta) * cells +
                      static_cast<std::size_t>(p.column * tmem::kLanes + p.lane)] =
                    s.kind == tmem::MmaKind::I8 ? static_cast<std::uint32_t>(digit)
                                                : std::bit_cast<std::uint32_t>(static_cast<float>(digit));
            }
        out.insert(out.end(), image.begin(), image.end());
    }
    return out;
}

std::vector<std::uint32_t> simulateMma(const Plan& plan, const MmaQuirks& quirks) {
    if (!plan.mmaSetup)
        return simulateLayout(plan);
    const MmaSetup& setup = *plan.mmaSetup;
    const tmem::MmaShape& s = *plan.mma;
    // The device knows only what the kernel gives it: the descriptors and the images.
    const tcgen05::DecodedInstrDescriptor instr =
        tcgen05::decodeInstrDescriptor(setup.idesc, s.kind, tcgen05::Context{s.ctaGroup, s.ws});
    const tcgen05::InstrDescriptor& d = instr.descriptor;
    const tcgen05::SmemDescriptor descA = tcgen05::decodeSmemDescriptor(setup.descriptorA).descriptor;
    const tcgen05::SmemDescriptor descB = tcgen05::decodeSmemDescriptor(setup.descriptorB).descriptor;
    const smem::Major majorB = quirks.bAsMnMajor ? smem::Major::MN : d.majorB;
    const int k = tcgen05::kOf(d), storedK = d.sparse ? k / 2 : k;
    const int ctas = s.ctaGroup, rowsA = d.m / ctas, rowsB = d.n / ctas;
    const int bitsA = elementBits(d.atype), bitsB = elementBits(d.btype);
    const std::size_t cells = static_cast<std::size_t>(tmem::kLanes * plan.columns);
    const std::size_t perCta = setup.wordsPerCta();
    std::vector<std::uint32_t> out;
    out.reserve(plan.outWords());
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        const auto image = [&](int cta) {
            return std::span<const std::uint32_t>(plan.inputs).subspan((xi * ctas + cta) * perCta, perCta);
        };
        const auto tensorCell = [&](int cta, int lane, int column) {
            return image(cta)[static_cast<std::size_t>(setup.sharedWords) +
                              static_cast<std::size_t>((column - kFillColumn) * tmem::kLanes + lane)];
        };
        // B of the whole pair: each CTA holds N / ctaGroup rows.
        std::vector<double> b(static_cast<std::size_t>(d.n * k));
        for (int n = 0; n < d.n; ++n)
            for (int kk = 0; kk < k; ++kk) {
                const auto [address, bit] =
                    addressOf(descB, majorB, bitsB, n % rowsB, kk, quirks.leadingStrideSwapped);
                b[static_cast<std::size_t>(n * k + kk)] = decodeElement(
                    d.btype, readBits(image(n / rowsB).first(setup.sharedWords), address, bit, bitsB));
            }
        std::vector<std::uint32_t> tmemOut(cells * static_cast<std::size_t>(ctas), kSentinel);
        for (int cta = 0; cta < ctas; ++cta) {
            // Sparse: which logical K each stored element is, from the metadata nibbles (0b0100: the group's
            // first two indices; tf32 reads one index of a pair per nibble).
            std::vector<int> logical(static_cast<std::size_t>(storedK));
            const std::uint32_t meta = d.sparse ? tensorCell(cta, 0, kMetadataColumn) : 0;
            for (int j = 0; j < storedK; ++j) {
                if (!d.sparse) {
                    logical[static_cast<std::size_t>(j)] = j;
                    continue;
                }
                const int group = setup.group, kept = group / 2;
                const int nibble = static_cast<int>(meta >> (4 * ((j / kept) % 8)) & 0xfu);
                int index = -1;
                if (group == 2)
                    index = nibble == 0x4 ? 0 : nibble == 0xe ? 1 : -1;
                else if (group == 4)
                    index = nibble >> (2 * (j % 2)) & 3;
                else // pairs of a group of 8
                    index = 2 * (nibble >> (2 * ((j % 4) / 2)) & 3) + j % 2;
                logical[static_cast<std::size_t>(j)] = index < 0 ? -1 : group * (j / kept) + index;
            }
            const double scaleA = tcgen05::isBlockScaled(d.kind)
                                      ? scaleOf(d.scaleType, tensorCell(cta, 0, kScaleAColumn) & 0xffu)
                                      : 1.0;
            const double scaleB = tcgen05::isBlockScaled(d.kind)
                                      ? scaleOf(d.scaleType, tensorCell(cta, 0, kScaleBColumn) & 0xffu)
                                      : 1.0;
            for (int r = 0; r < rowsA; ++r) {
                const int m = cta * rowsA + r;
                std::vector<double> a(static_cast<std::size_t>(storedK));
                for (int j = 0; j < storedK; ++j) {
                    std::uint32_t bits = 0;
                    if (x.aSource == ASource::SharedMemory) {
                        const auto [address, bit] =
                            addressOf(descA, d.majorA, bitsA, r, j, quirks.leadingStrideSwapped);
                        bits = readBits(image(cta).first(setup.sharedWords), address, bit, bitsA);
                    } else {
                        const tmem::Placement p = tmem::placeA(s, m, j, bitsA);
                        bits = (tensorCell(p.cta, p.lane, kAColumn + p.column) >> p.bit) &
                               (bitsA == 32 ? 0xffffffffu : (1u << bitsA) - 1u);
                    }
                    a[static_cast<std::size_t>(j)] = decodeElement(d.atype, bits);
                }
                for (int n = 0; n < d.n; ++n) {
                    double sum = 0;
                    for (int j = 0; j < storedK; ++j) {
                        const int kk = logical[static_cast<std::size_t>(j)];
                        sum += kk < 0
                                   ? std::nan("")
                                   : a[static_cast<std::size_t>(j)] * b[static_cast<std::size_t>(n * k + kk)];
                    }
                    sum *= scaleA * scaleB;
                    const tmem::Placement p = tmem::placeD(s, m, n);
                    const bool integer = d.dtype == tcgen05::DType::S32 && !tcgen05::isBlockScaled(d.kind);
                    const std::uint32_t word =
                        std::isnan(sum) ? 0x7fc00000u // what no metadata selects: no number
                        : integer       ? static_cast<std::uint32_t>(static_cast<std::int32_t>(sum))
                                        : std::bit_cast<std::uint32_t>(static_cast<float>(sum));
                    tmemOut[static_cast<std::size_t>(p.cta) * cells +
                            static_cast<std::size_t>(p.column * tmem::kLanes + p.lane)] = word;
                }
            }
        }
        out.insert(out.end(), tmemOut.begin(), tmemOut.end());
    }
    return out;
}

} // namespace lanemap::gpu::tc
