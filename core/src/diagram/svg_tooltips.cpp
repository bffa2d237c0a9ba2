#include "diagram/svg_tooltips.hpp"

#include "diagram/diagram_tmem_text.hpp"
#include "lanemap/tmem.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace lanemap::svgtips {

namespace {

// The script, in pieces: the part that installs the tooltips (once per window: a page holding several figures
// runs it once; later figures only add their rules), the helpers and one rule per panel kind, each written
// only where the figure has a panel of that kind. On mouseover of a cell's label it builds the tooltip
// (Diagram::tooltip's grammar) and inserts it as the label's <title>, once, so the browser shows its native
// tooltip. The hovered label's position is read from the document (its x and y, or its group's translate), in
// the SVG's own units, so zoom and scroll do not matter. The tables are parsed on the first hover, not on
// load. A rule gets the panel's table p, the figure's table d, the grid row r and column c, the label L and
// x.
constexpr std::string_view kInstall =
    R"JS((function(){var R=self.lanemapR;if(!R){R=self.lanemapR={};var C=new WeakMap();
function at(t,a){var v=t.getAttribute(a),m=/translate\(([^,)]+),([^)]+)\)/.exec(t.parentNode.getAttribute('transform')||'');return(v!=null?+v:0)+(m?+m[a=='x'?1:2]:0)}
function tip(t){var s=t.getAttribute('data-t'),v,d,m,x,y,i,g,r,c;if(s!=null)return s;v=t.closest('svg.lanemap');if(!v||!t.closest('.cells'))return null;
if(!C.has(v)){m=v.querySelector('metadata.lanemap-tips');C.set(v,m?JSON.parse(m.textContent):null)}d=C.get(v);if(!d)return null;
x=at(t,'x');y=at(t,'y');for(i=0;i<d.p.length;i++){g=d.p[i].g;c=Math.floor((x-g[0])/g[2]);r=Math.floor((y-g[1])/g[3]);if(c>=0&&r>=0&&c<g[5]&&r<g[4])return R[g=d.p[i].k]?R[g](d.p[i],d,r,c,t.textContent,x):null}return null}
self.lanemapTip=tip;document.addEventListener('mouseover',function(e){var t=e.target,s,n;if(!t.getAttribute||t.querySelector(':scope>title'))return;s=tip(t);if(s==null)return;n=document.createElementNS(t.namespaceURI,'title');n.textContent=s;t.insertBefore(n,t.firstChild)},true)}
var S=' \u00b7 ';
)JS";
constexpr std::string_view kHex = "function hx(v){return'0x'+v.toString(16)}\n";
constexpr std::string_view kRange = "function rg(a,n){return n>1?a+'..'+(a+n-1):''+a}\n";
constexpr std::string_view kBits = "function bt(h,l){return'['+(h==l?l:h+'..'+l)+']'}\n";
constexpr std::string_view kMemory =
    R"JS(function mem(p,a){var c=a>>4&7,b=p.x<0?-1:c^(a>>7&p.x);return S+'line '+hx(a&~127)+' chunk '+c+S+'banks '+4*c+'..'+(4*c+3)+(b>=0&&b!=c?S+'chunk '+b+' before swizzle':'')}
)JS";
// Register operands (0) and the sparse metadata grid (1).
constexpr std::string_view kRegisterRule =
    R"JS(R[0]=R[1]=function(p,d,r,c,L){var m,t,e,h,l,g,s;
if(p.k==0){m=/^T(\d+):[a-z]+(\d+)$/.exec(L);if(!m||!p.e[e=+m[2]])return null;g=p.e[e];h=g[1];l=g[2];s=g[3]}
else{m=/^T(\d+): \[(\d+)\.\.(\d+)\]$/.exec(L);if(!m)return null;h=+m[2];l=+m[3];s=p.s}t=+m[1];c=Math.floor(c/s)*s;
return(d.w?'warp '+(t>>5)+' ':'')+'lane '+t%32+' '+(p.k==0?p.l+e+S+'r'+g[0]:'e')+bt(h,l)+S+'('+r+','+rg(c,s)+')'+(p.m>=0?S+'product '+p.m:'')+(p.k==1&&d.s!=null?S+'selector '+d.s:'')};
)JS";
// A shared-memory tile (2) and its memory lines (3).
constexpr std::string_view kTileRule =
    R"JS(R[2]=function(p,d,r,c,L){var m=/^0x([0-9a-f]+)(?:\.(\d+))?$/.exec(L),a;if(!m)return null;a=parseInt(m[1],16);
return p.o+' '+p.rl+rg(r*p.re,p.re)+' '+p.cl+rg(c*p.ce,p.ce)+S+hx(a)+(m[2]!=null?bt(+m[2]+p.b-1,+m[2]):'')+mem(p,a)};
)JS";
constexpr std::string_view kLinesRule =
    R"JS(R[3]=function(p,d,r,c,L){var m=/^[a-z](\d+) [a-z](\d+)(?:\.\.(\d+))?$/.exec(L),a;if(!m)return null;a=p.a+r*128+c*16;
return hx(a)+'..'+hx(a+15)+S+p.rl+m[1]+' '+p.cl+m[2]+(m[3]!=null?'..'+m[3]:'')+mem(p,a)};
)JS";
// Tensor Memory (6): rows are the lanes of each CTA (n a CTA), columns the 32-bit columns, an element of b
// bits in the slot of its cell its label's x falls in (lower bits left).
constexpr std::string_view kTensorMemoryRule =
    R"JS(R[6]=function(p,d,r,c,L,x){var e=32/p.b,i=r%p.n,f;if(!/^[A-Z]+\(\d+,\d+\)$/.test(L))return null;f=Math.floor((x-p.g[0])/(p.g[2]/e))%e*p.b;
return L+S+'CTA '+Math.floor(r/p.n)+' lane '+i+' column '+c+(p.b<32?'['+(f+p.b-1)+'..'+f+']':'')+S+'warp '+(i>>5)};
)JS";
// Cells that draw no label: the pointer's position on a cell's fill names the cell, R.n[kind] says what its
// label would (from the tables), and the fill under the pointer gets the tooltip as its <title>, rewritten as
// the pointer moves (one fill may cover a whole row or chunk).
constexpr std::string_view kAxisRule =
    R"JS(R.n=R.n||{};if(!R.a){R.c=new WeakMap();R.a=function(v,x,y){var d,i,p,g,r,c,L;if(!R.c.has(v)){d=v.querySelector('metadata.lanemap-tips');R.c.set(v,d?JSON.parse(d.textContent):null)}d=R.c.get(v);if(!d)return null;
for(i=0;i<d.p.length;i++){p=d.p[i];g=p.g;c=Math.floor((x-g[0])/g[2]);r=Math.floor((y-g[1])/g[3]);if(c>=0&&r>=0&&c<g[5]&&r<g[4]){L=R.n[p.k]?R.n[p.k](p,r,c):null;return L!=null&&R[p.k]?R[p.k](p,d,r,c,L,x):null}}return null};
self.lanemapTipAt=R.a;document.addEventListener('mousemove',function(e){var t=e.target,v,P,s,n;if(!t.closest||t.tagName=='text'||!t.closest('.cells')||!(v=t.closest('svg.lanemap')))return;
P=v.createSVGPoint();P.x=e.clientX;P.y=e.clientY;P=P.matrixTransform(v.getScreenCTM().inverse());s=R.a(v,P.x,P.y);n=t.querySelector(':scope>title');if(s==null&&!n)return;
if(!n){n=document.createElementNS(t.namespaceURI,'title');t.insertBefore(n,t.firstChild)}n.textContent=s==null?'':s},true)}
)JS";
// The label a Tensor Memory cell would draw ("a": the m of each row): D(m,n).
constexpr std::string_view kRowElementName =
    "R.n[6]=function(p,r,c){return p.a&&p.a[r]>=0?p.o+'('+p.a[r]+','+c+')':null};\n";
// The address a shared-memory cell would show: its chunk's first ("ca", chunks in grid order, "cn" cells
// each, down a column when "cd") plus its place in the chunk ("cb" bytes a cell).
constexpr std::string_view kChunkAddress =
    R"JS(R.n[2]=function(p,r,c){var i,o,w=p.g[5];if(!p.ca)return null;if(p.cd){i=Math.floor(r/p.cn)*w+c;o=r%p.cn}else{i=r*Math.ceil(w/p.cn)+Math.floor(c/p.cn);o=c%p.cn}return i<p.ca.length&&p.ca[i]>=0?hx(p.ca[i]+o*p.cb):null};
)JS";
constexpr std::string_view kEnd = "})();";

constexpr int kLanesPerCta = 128; // tcgen05 Tensor Memory: a CTA's lanes (TensorMemory panels' rows per CTA)

void appendNum(std::string& out, double v) {
    if (v >= 0 && v < 1e9 && static_cast<double>(static_cast<long long>(v)) == v) {
        out += std::to_string(static_cast<long long>(v));
        return;
    }
    const double scaled = v * 100.0;
    const long long h = static_cast<long long>(scaled + (scaled < 0 ? -0.5 : 0.5));
    const long long whole = h / 100, frac = (h < 0 ? -h : h) % 100;
    if (h < 0 && whole == 0)
        out += '-';
    out += std::to_string(whole);
    if (frac) {
        out += '.';
        out += static_cast<char>('0' + frac / 10);
        if (frac % 10)
            out += static_cast<char>('0' + frac % 10);
    }
}

void appendString(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    out += '"';
}

int chunkBefore(std::uint32_t address, int mask) {
    const int chunk = static_cast<int>((address >> 4) & 7u);
    return mask < 0 ? -1 : chunk ^ static_cast<int>((address >> 7) & static_cast<std::uint32_t>(mask));
}

// The swizzle mask (0, 1, 3 or 7: none, 32B, 64B, 128B) that gives most of a panel's cells their chunk before
// the swizzle; -1 when no cell has one (an unswizzled memory map).
int swizzleMaskOf(const Diagram& d, const DiagramPanel& p, bool allowNone) {
    int best = 0;
    std::size_t bestMisses = SIZE_MAX;
    if (allowNone) {
        bool none = true;
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
            none = none && d.cells[i].reg < 0;
        if (none)
            return -1;
    }
    for (int mask : {0, 1, 3, 7}) {
        std::size_t misses = 0;
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
            misses += chunkBefore(d.cells[i].address, mask) != d.cells[i].reg;
        if (misses < bestMisses)
            best = mask, bestMisses = misses;
    }
    return best;
}

} // namespace

std::string Tables::script() const {
    bool has[8] = {};
    for (const Panel& t : m_panels)
        has[static_cast<int>(t.kind) & 7] = true;
    const bool registers = has[0] || has[1], tile = has[2], lines = has[3];
    std::string out(kInstall);
    if (tile || lines)
        out += kHex;
    if (registers || tile)
        out += kRange, out += kBits;
    if (tile || lines)
        out += kMemory;
    if (registers)
        out += kRegisterRule;
    if (tile)
        out += kTileRule;
    if (lines)
        out += kLinesRule;
    if (has[static_cast<int>(PanelKind::TensorMemory)])
        out += kTensorMemoryRule;
    bool rowElements = false, chunkStarts = false;
    for (const Panel& t : m_panels) {
        rowElements = rowElements || !t.rowElements.empty();
        chunkStarts = chunkStarts || !t.chunkStarts.empty();
    }
    if (rowElements || chunkStarts)
        out += kAxisRule;
    if (rowElements)
        out += kRowElementName;
    if (chunkStarts)
        out += kChunkAddress;
    out += kEnd;
    return out;
}

double asWritten(double v) {
    if (v >= 0 && v < 1e9 && static_cast<double>(static_cast<long long>(v)) == v)
        return v;
    const double scaled = v * 100.0;
    const long long h = static_cast<long long>(scaled + (scaled < 0 ? -0.5 : 0.5));
    return static_cast<double>(h) / 100.0;
}

LabelPoint labelPoint(const Diagram& d, const DiagramCell& c) {
    // svg.cpp: centred in x, the baseline of a label vertically centred in the cell.
    const double baseline = std::round(c.rect.h / 2 + d.metrics.cellFont * 0.35);
    return {asWritten(c.rect.x + c.rect.w / 2), asWritten(c.rect.y + baseline)};
}

LabelPoint hoverPoint(const Diagram& d, const DiagramCell& c) {
    if (d.drawsLabel(c))
        return labelPoint(d, c);
    return {c.rect.x + c.rect.w / 2, c.rect.y + c.rect.h / 2};
}

Tables::Tables(const Diagram& d) : m_d(d), m_needsText(d.cells.size(), 0) {
    m_panels.reserve(d.panels.size());
    for (const DiagramPanel& p : d.panels) {
        Panel t;
        t.kind = p.kind;
        t.ox = asWritten(p.origin.x), t.oy = asWritten(p.origin.y);
        t.cw = asWritten(p.cellWidth), t.ch = asWritten(p.cellHeight);
        t.rows = p.rows, t.cols = p.cols;
        const std::uint32_t end = p.firstCell + p.cellCount;
        switch (p.kind) {
        case PanelKind::Operand: {
            int elements = 0; // the table sized once: the largest element index + 1
            for (std::uint32_t i = p.firstCell; i < end; ++i)
                elements = std::max(elements, d.cells[i].element + 1);
            t.elements.assign(static_cast<std::size_t>(elements), {-1, 0, 0, 1});
            for (std::uint32_t i = p.firstCell; i < end; ++i) {
                const DiagramCell& c = d.cells[i];
                if (c.element < 0)
                    continue;
                std::array<int, 4>& e = t.elements[static_cast<std::size_t>(c.element)];
                if (e[0] < 0)
                    e = {c.reg, c.bitHi, c.bitLo, c.colLast - c.col + 1};
            }
            break;
        }
        case PanelKind::Metadata:
            if (p.cellCount)
                t.span = d.cells[p.firstCell].colLast - d.cells[p.firstCell].col + 1;
            break;
        case PanelKind::SharedMemory:
            for (std::uint32_t i = p.firstCell; i < end; ++i)
                if (d.cells[i].bitHi - d.cells[i].bitLo < 7) {
                    t.elementBits = d.cells[i].bitHi - d.cells[i].bitLo + 1;
                    break;
                }
            t.swizzleMask = swizzleMaskOf(d, p, false);
            chunkTable(d, p, t);
            break;
        case PanelKind::SharedMemoryMap:
            if (p.cellCount) {
                const DiagramCell& c = d.cells[p.firstCell];
                t.base = c.address - static_cast<std::uint32_t>(c.row) * 128u -
                         static_cast<std::uint32_t>(c.col) * 16u;
            }
            t.swizzleMask = swizzleMaskOf(d, p, true);
            break;
        case PanelKind::TensorMemory:
            t.lanes = kLanesPerCta;
            t.bits = p.elementBits;
            if (p.labels == CellLabels::None) {
                t.rowElements.assign(static_cast<std::size_t>(p.rows), -1);
                for (std::uint32_t i = p.firstCell; i < end; ++i)
                    t.rowElements[static_cast<std::size_t>(d.cells[i].row)] = d.cells[i].element;
            }
            break;
        default:
            break;
        }
        for (const Panel& e : m_panels)
            t.overlapsEarlier =
                t.overlapsEarlier || (t.ox < e.ox + e.cols * e.cw && e.ox < t.ox + t.cols * t.cw &&
                                      t.oy < e.oy + e.rows * e.ch && e.oy < t.oy + t.rows * t.ch);
        m_panels.push_back(std::move(t));
    }
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        DiagramCell guess;
        if (!predict(c.panel, c, guess)) {
            m_needsText[i] = 1;
            continue;
        }
        // Every number tooltipText reads (and the scope and selector, the same for both) equal: the same
        // text without formatting it twice, as for most cells.
        const bool same = guess.panel == c.panel && guess.lane == c.lane && guess.warp == c.warp &&
                          guess.element == c.element && guess.reg == c.reg && guess.bitLo == c.bitLo &&
                          guess.bitHi == c.bitHi && guess.row == c.row && guess.col == c.col &&
                          guess.colLast == c.colLast && guess.matrix == c.matrix &&
                          guess.source == c.source && guess.address == c.address &&
                          guess.groupID == c.groupID && guess.conflict == c.conflict;
        m_needsText[i] = !same && d.tooltipText(guess).view() != d.tooltipText(c).view();
    }
}

void Tables::chunkTable(const Diagram& d, const DiagramPanel& p, Panel& t) {
    if (p.labels != CellLabels::ChunkStarts || !p.cellCount || p.rows <= 0 || p.cols <= 0)
        return;
    const std::uint32_t end = p.firstCell + p.cellCount;
    const DiagramCell& first = d.cells[p.firstCell];
    const int bits = first.bitHi - first.bitLo + 1;
    if (bits < 8 || bits % 8 || 16 % (bits / 8))
        return;
    const int bytes = bits / 8, per = 16 / bytes;
    // Which way the chunks run is what makes every cell's address come out right: try both.
    for (const bool down : {true, false}) {
        Panel u;
        u.rows = p.rows, u.cols = p.cols;
        u.chunkCells = per, u.cellBytes = bytes, u.chunksDown = down;
        const int groups = down ? (p.rows + per - 1) / per * p.cols : p.rows * ((p.cols + per - 1) / per);
        u.chunkStarts.assign(static_cast<std::size_t>(groups), ~0u);
        bool ok = true;
        for (std::uint32_t i = p.firstCell; i < end && ok; ++i) {
            const DiagramCell& c = d.cells[i];
            if (!d.drawsLabel(c))
                continue;
            const bool atStart = (down ? c.row : c.col) % per == 0;
            const std::size_t at = chunkAt(u, c.row, c.col);
            ok = atStart && u.chunkStarts[at] == ~0u;
            u.chunkStarts[at] = c.address;
        }
        for (std::uint32_t i = p.firstCell; i < end && ok; ++i) {
            const DiagramCell& c = d.cells[i];
            std::uint32_t address = 0;
            ok = c.bitHi - c.bitLo + 1 == bits && chunkAddress(u, c.row, c.col, address) &&
                 address == c.address;
        }
        if (ok) {
            t.chunkStarts = std::move(u.chunkStarts);
            t.chunkCells = per, t.cellBytes = bytes, t.chunksDown = down;
            return;
        }
    }
}

bool Tables::chunkAddress(const Panel& t, int row, int col, std::uint32_t& address) {
    if (t.chunkStarts.empty() || row < 0 || col < 0 || row >= t.rows || col >= t.cols)
        return false;
    const std::size_t at = chunkAt(t, row, col);
    if (at >= t.chunkStarts.size() || t.chunkStarts[at] == ~0u)
        return false;
    address = t.chunkStarts[at] +
              static_cast<std::uint32_t>((t.chunksDown ? row : col) % t.chunkCells * t.cellBytes);
    return true;
}

std::size_t Tables::chunkAt(const Panel& t, int row, int col) {
    const int per = t.chunkCells;
    return t.chunksDown ? static_cast<std::size_t>(row / per * t.cols + col)
                        : static_cast<std::size_t>(row * ((t.cols + per - 1) / per) + col / per);
}

bool Tables::contains(const Panel& p, double x, double y, int& row, int& col) const {
    col = static_cast<int>(std::floor((x - p.ox) / p.cw));
    row = static_cast<int>(std::floor((y - p.oy) / p.ch));
    return col >= 0 && row >= 0 && col < p.cols && row < p.rows;
}

int Tables::panelAt(double x, double y, int& row, int& col) const {
    for (std::size_t i = 0; i < m_panels.size(); ++i)
        if (contains(m_panels[i], x, y, row, col))
            return static_cast<int>(i);
    return -1;
}

// Mirrors the script: what it reads (the label's numbers, the position, the tables) and nothing else.
bool Tables::predict(std::size_t, const DiagramCell& c, DiagramCell& out) const {
    const LabelPoint at = hoverPoint(m_d, c);
    int row = 0, col = 0;
    // The script takes the first panel whose grid holds the point: the cell's own, unless an earlier grid
    // overlaps it (then search them all, in order).
    const Panel& own = m_panels[c.panel];
    const int pi = !own.overlapsEarlier && contains(own, at.x, at.y, row, col)
                       ? static_cast<int>(c.panel)
                       : panelAt(at.x, at.y, row, col);
    if (pi < 0)
        return false;
    const Panel& t = m_panels[static_cast<std::size_t>(pi)];
    const DiagramPanel& p = m_d.panels[static_cast<std::size_t>(pi)];
    if (t.kind != m_d.panels[c.panel].kind)
        return false;
    out.panel = static_cast<std::uint16_t>(pi);
    out.source = p.source;
    out.row = static_cast<std::int16_t>(row);
    out.col = out.colLast = static_cast<std::int16_t>(col);
    switch (t.kind) {
    case PanelKind::Operand:
    case PanelKind::Metadata: {
        // From the label: the thread and the element (operand) or the bits (metadata).
        out.thread = c.thread;
        out.lane = static_cast<std::int16_t>(laneOf(c.thread));
        out.warp = static_cast<std::int16_t>(warpOf(c.thread));
        out.groupID = static_cast<std::int16_t>(out.lane >> 2);
        int span = t.span;
        if (t.kind == PanelKind::Operand) {
            if (c.element < 0 || static_cast<std::size_t>(c.element) >= t.elements.size() ||
                t.elements[static_cast<std::size_t>(c.element)][0] < 0)
                return false;
            const auto& e = t.elements[static_cast<std::size_t>(c.element)];
            out.element = c.element;
            out.reg = static_cast<std::int16_t>(e[0]);
            out.bitHi = static_cast<std::int16_t>(e[1]);
            out.bitLo = static_cast<std::int16_t>(e[2]);
            span = e[3];
        } else {
            out.element = -1;
            out.bitHi = c.bitHi;
            out.bitLo = c.bitLo;
        }
        out.col = static_cast<std::int16_t>(col / span * span);
        out.colLast = static_cast<std::int16_t>(out.col + span - 1);
        out.matrix = static_cast<std::int16_t>(p.matrix);
        return true;
    }
    case PanelKind::SharedMemory:
        out.element = -1;
        out.address = c.address;
        if (!m_d.drawsLabel(c)) { // no label: the chunk's address and the cell's place in it
            if (!chunkAddress(t, row, col, out.address))
                return false;
            out.bitLo = 0, out.bitHi = 7;
        } else if (c.bitHi - c.bitLo < 7) { // the label shows the bit
            out.bitLo = c.bitLo;
            out.bitHi = static_cast<std::int16_t>(c.bitLo + t.elementBits - 1);
        } else {
            out.bitLo = 0, out.bitHi = 7;
        }
        // A byte or more shows no bits in a tooltip: the cell's own, so that its fields compare equal.
        if (out.bitHi - out.bitLo >= 7 && c.bitHi - c.bitLo >= 7)
            out.bitLo = c.bitLo, out.bitHi = c.bitHi;
        out.lane = static_cast<std::int16_t>((out.address >> 4) & 7u);
        out.reg = static_cast<std::int16_t>(chunkBefore(out.address, t.swizzleMask));
        return true;
    case PanelKind::SharedMemoryMap:
        out.address = t.base + static_cast<std::uint32_t>(row) * 128u + static_cast<std::uint32_t>(col) * 16u;
        out.element = c.element;
        out.bitLo = c.bitLo;
        out.bitHi = c.bitHi;
        out.lane = static_cast<std::int16_t>((out.address >> 4) & 7u);
        out.reg = static_cast<std::int16_t>(chunkBefore(out.address, t.swizzleMask));
        return true;
    case PanelKind::TensorMemory: {
        // Composed with a tcgen05.ld/st, a cell's tooltip names its partner's place too: not in the tables,
        // the text travels in data-t.
        if (!m_d.partner.empty() || t.bits <= 0 || 32 % t.bits)
            return false;
        // From the label (or, without labels, the row's m and the column): the element; from the position:
        // CTA, lane, column and the slot of the cell it sits in, hence its bits.
        const int perCell = 32 / t.bits;
        const int slot = static_cast<int>(std::floor((at.x - t.ox) / (t.cw / perCell))) % perCell;
        const bool onAxes = !t.rowElements.empty();
        if (onAxes && t.rowElements[static_cast<std::size_t>(row)] < 0)
            return false;
        out.element =
            onAxes ? static_cast<std::int16_t>(t.rowElements[static_cast<std::size_t>(row)]) : c.element;
        out.bitLo = onAxes ? static_cast<std::int16_t>(col) : c.bitLo;
        out.bitHi = c.bitHi; // not in a tooltip that is not composed
        out.thread = c.thread, out.lane = c.lane;
        const int lane = row % t.lanes;
        out.matrix = static_cast<std::int16_t>(row / t.lanes);
        out.warp = static_cast<std::int16_t>(warpOf(lane));
        out.address = tmem::Address{lane, col}.encode();
        out.groupID = static_cast<std::int16_t>(slot * t.bits);
        return true;
    }
    default:
        return false; // ldmatrix chunks and addresses: the text travels in data-t
    }
}

std::string Tables::json() const {
    std::string out = "{\"w\":";
    out += m_d.scope != Scope::Warp ? '1' : '0';
    out += ",\"s\":";
    out += m_d.selector ? std::to_string(*m_d.selector) : std::string("null");
    out += ",\"p\":[";
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const Panel& t = m_panels[i];
        const DiagramPanel& p = m_d.panels[i];
        out += i ? ",{\"k\":" : "{\"k\":";
        out += std::to_string(static_cast<int>(t.kind));
        out += ",\"g\":[";
        for (double v : {t.ox, t.oy, t.cw, t.ch}) {
            appendNum(out, v);
            out += ',';
        }
        out += std::to_string(t.rows) + ',' + std::to_string(t.cols) + ']';
        switch (t.kind) {
        case PanelKind::Operand:
            out += ",\"l\":";
            appendString(out, std::string_view(&p.letter, 1));
            out += ",\"m\":" + std::to_string(p.matrix) + ",\"e\":[";
            for (std::size_t e = 0; e < t.elements.size(); ++e) {
                const auto& x = t.elements[e];
                if (e)
                    out += ',';
                if (x[0] < 0)
                    out += '0';
                else
                    out += '[' + std::to_string(x[0]) + ',' + std::to_string(x[1]) + ',' +
                           std::to_string(x[2]) + ',' + std::to_string(x[3]) + ']';
            }
            out += ']';
            break;
        case PanelKind::Metadata:
            out += ",\"s\":" + std::to_string(t.span) + ",\"m\":" + std::to_string(p.matrix);
            break;
        case PanelKind::SharedMemory:
            out += ",\"o\":";
            appendString(out, p.name);
            out += ",\"rl\":";
            appendString(out, std::string_view(&p.rowLetter, 1));
            out += ",\"cl\":";
            appendString(out, std::string_view(&p.colLetter, 1));
            out += ",\"re\":" + std::to_string(p.rowElements) + ",\"ce\":" + std::to_string(p.colElements) +
                   ",\"b\":" + std::to_string(t.elementBits) + ",\"x\":" + std::to_string(t.swizzleMask);
            if (!t.chunkStarts.empty()) {
                out += ",\"cd\":" + std::to_string(t.chunksDown ? 1 : 0) +
                       ",\"cn\":" + std::to_string(t.chunkCells) + ",\"cb\":" + std::to_string(t.cellBytes) +
                       ",\"ca\":[";
                for (std::size_t k = 0; k < t.chunkStarts.size(); ++k) {
                    if (k)
                        out += ',';
                    out += t.chunkStarts[k] == ~0u ? std::string("-1") : std::to_string(t.chunkStarts[k]);
                }
                out += ']';
            }
            break;
        case PanelKind::SharedMemoryMap:
            out += ",\"rl\":";
            appendString(out, std::string_view(&p.rowLetter, 1));
            out += ",\"cl\":";
            appendString(out, std::string_view(&p.colLetter, 1));
            out += ",\"a\":" + std::to_string(t.base) + ",\"x\":" + std::to_string(t.swizzleMask);
            break;
        case PanelKind::TensorMemory:
            out += ",\"n\":" + std::to_string(t.lanes) + ",\"b\":" + std::to_string(t.bits);
            if (!t.rowElements.empty()) {
                out += ",\"o\":";
                appendString(out, tensorMemoryName(p));
                out += ",\"a\":[";
                for (std::size_t r = 0; r < t.rowElements.size(); ++r) {
                    if (r)
                        out += ',';
                    out += std::to_string(t.rowElements[r]);
                }
                out += ']';
            }
            break;
        default:
            break;
        }
        out += '}';
    }
    out += "]}";
    return out;
}

} // namespace lanemap::svgtips
