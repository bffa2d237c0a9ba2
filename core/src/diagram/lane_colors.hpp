#pragma once
// The fill and label colour of each lane's colour (ColorBy::Lane keys, which repeat every 32), worked out
// once a panel: the builders that colour thousands of cells by lane (Tensor Memory, shared memory) look them
// up instead of weighing the label's contrast on every cell. Internal to core.

#include "lanemap/diagram.hpp"

#include <array>

namespace lanemap {

class LaneColors {
  public:
    explicit LaneColors(Palette palette) {
        for (std::size_t k = 0; k < m_fill.size(); ++k) {
            m_fill[k] = paletteColor(palette, ColorBy::Lane, static_cast<int>(k));
            m_text[k] = labelColorOn(m_fill[k]);
        }
    }
    // paletteColor(palette, ColorBy::Lane, key) and the label colour on it.
    Rgb fill(std::uint32_t key) const { return m_fill[key % m_fill.size()]; }
    Rgb text(std::uint32_t key) const { return m_text[key % m_text.size()]; }

  private:
    std::array<Rgb, 32> m_fill, m_text;
};

} // namespace lanemap
