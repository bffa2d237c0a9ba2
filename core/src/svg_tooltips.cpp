#include "svg_tooltips.hpp"

#include <cmath>
#include <string_view>

namespace lanemap::svgtips {

namespace {

// The script. On mouseover of a cell's label it builds the tooltip (Diagram::tooltip's grammar) and inserts
// it as the label's <title>, once, so the browser shows its native tooltip as before. The hovered label's
// position is read from the document (its x and y, or its group's translate), in the SVG's own units, so
// zoom and scroll do not matter. Installed once per window: a page holding several figures runs it once.
// Panel kinds: 0 operand, 1 metadata, 2 shared-memory tile, 3 memory lines, 6 Tensor Memory (PanelKind).
constexpr std::string_view kScript = R"JS((function(){
if(self.lanemapTip)return;
var C=new WeakMap(),S=' \u00b7 ';
function data(v){if(!C.has(v)){var m=v.querySelector('metadata.lanemap-tips');C.set(v,m?JSON.parse(m.textContent):null)}return C.get(v)}
function hx(v){return'0x'+v.toString(16)}
function rg(a,n){return n>1?a+'..'+(a+n-1):''+a}
function bt(h,l){return'['+(h==l?l:h+'..'+l)+']'}
function at(t,a){var v=t.getAttribute(a);if(v!=null)return+v;var m=/translate\(([^,)]+),([^)]+)\)/.exec(t.parentNode.getAttribute('transform')||'');return m?+m[a=='x'?1:2]:0}
function mem(p,a){var c=a>>4&7,b=p.x<0?-1:c^(a>>7&p.x);return S+'line '+hx(a&~127)+' chunk '+c+S+'banks '+4*c+'..'+(4*c+3)+(b>=0&&b!=c?S+'chunk '+b+' before swizzle':'')}
function tip(t){
var s=t.getAttribute('data-t');if(s!=null)return s;
var v=t.closest('svg.lanemap'),d=v&&t.closest('.cells')&&data(v);if(!d)return null;
var x=at(t,'x'),y=at(t,'y'),L=t.textContent,p=null,r,c,m,i,a,g;
for(i=0;i<d.p.length&&!p;i++){g=d.p[i].g;c=Math.floor((x-g[0])/g[2]);r=Math.floor((y-g[1])/g[3]);if(c>=0&&r>=0&&c<g[5]&&r<g[4])p=d.p[i]}
if(!p)return null;
if(p.k<2){var th,el,h,lo,rr,sp;
if(p.k==0){m=/^T(\d+):[a-z]+(\d+)$/.exec(L);if(!m||!p.e[+m[2]])return null;th=+m[1];el=+m[2];rr=p.e[el][0];h=p.e[el][1];lo=p.e[el][2];sp=p.e[el][3]}
else{m=/^T(\d+): \[(\d+)\.\.(\d+)\]$/.exec(L);if(!m)return null;th=+m[1];h=+m[2];lo=+m[3];sp=p.s}
c=Math.floor(c/sp)*sp;
return(d.w?'warp '+(th>>5)+' ':'')+'lane '+th%32+' '+(p.k==0?p.l+el+S+'r'+rr:'e')+bt(h,lo)+S+'('+r+','+rg(c,sp)+')'+(p.m>=0?S+'product '+p.m:'')+(p.k==1&&d.s!=null?S+'selector '+d.s:'')}
if(p.k==2){m=/^0x([0-9a-f]+)(?:\.(\d+))?$/.exec(L);if(!m)return null;a=parseInt(m[1],16);
return p.o+' '+p.rl+rg(r*p.re,p.re)+' '+p.cl+rg(c*p.ce,p.ce)+S+hx(a)+(m[2]!=null?bt(+m[2]+p.b-1,+m[2]):'')+mem(p,a)}
if(p.k==3){m=/^[a-z](\d+) [a-z](\d+)(?:\.\.(\d+))?$/.exec(L);if(!m)return null;a=p.a+r*128+c*16;
return hx(a)+'..'+hx(a+15)+S+p.rl+m[1]+' '+p.cl+m[2]+(m[3]!=null?'..'+m[3]:'')+mem(p,a)}
if(p.k==6){m=/^D\((\d+),(\d+)\)$/.exec(L);if(!m)return null;i=r%p.n;
return'D('+m[1]+','+m[2]+')'+S+'CTA '+Math.floor(r/p.n)+' lane '+i+' column '+c+S+'warp '+(i>>5)}
return null}
self.lanemapTip=tip;
document.addEventListener('mouseover',function(e){var t=e.target,s;if(!t.getAttribute||t.querySelector(':scope>title'))return;s=tip(t);if(s==null)return;var n=document.createElementNS(t.namespaceURI,'title');n.textContent=s;t.insertBefore(n,t.firstChild)},true)
})();)JS";

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

std::string_view script() {
    return kScript;
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
        case PanelKind::Operand:
            for (std::uint32_t i = p.firstCell; i < end; ++i) {
                const DiagramCell& c = d.cells[i];
                if (c.element < 0)
                    continue;
                const auto e = static_cast<std::size_t>(c.element);
                if (e >= t.elements.size())
                    t.elements.resize(e + 1, {-1, 0, 0, 1});
                if (t.elements[e][0] < 0)
                    t.elements[e] = {c.reg, c.bitHi, c.bitLo, c.colLast - c.col + 1};
            }
            break;
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
            break;
        default:
            break;
        }
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

int Tables::panelAt(double x, double y, int& row, int& col) const {
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const Panel& p = m_panels[i];
        col = static_cast<int>(std::floor((x - p.ox) / p.cw));
        row = static_cast<int>(std::floor((y - p.oy) / p.ch));
        if (col >= 0 && row >= 0 && col < p.cols && row < p.rows)
            return static_cast<int>(i);
    }
    return -1;
}

// Mirrors the script: what it reads (the label's numbers, the position, the tables) and nothing else.
bool Tables::predict(std::size_t, const DiagramCell& c, DiagramCell& out) const {
    const LabelPoint at = labelPoint(m_d, c);
    int row = 0, col = 0;
    const int pi = panelAt(at.x, at.y, row, col);
    if (pi < 0)
        return false;
    const Panel& t = m_panels[static_cast<std::size_t>(pi)];
    const DiagramPanel& p = m_d.panels[static_cast<std::size_t>(pi)];
    if (t.kind != m_d.panels[c.panel].kind)
        return false;
    out = DiagramCell{};
    out.panel = static_cast<std::uint16_t>(pi);
    out.source = p.source;
    out.row = static_cast<std::int16_t>(row);
    out.col = out.colLast = static_cast<std::int16_t>(col);
    switch (t.kind) {
    case PanelKind::Operand:
    case PanelKind::Metadata: {
        // From the label: the thread and the element (operand) or the bits (metadata).
        out.thread = c.thread;
        out.lane = static_cast<std::int16_t>(c.thread % 32);
        out.warp = static_cast<std::int16_t>(c.thread / 32);
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
        if (c.bitHi - c.bitLo < 7) { // the label shows the bit
            out.bitLo = c.bitLo;
            out.bitHi = static_cast<std::int16_t>(c.bitLo + t.elementBits - 1);
        } else {
            out.bitLo = 0, out.bitHi = 7;
        }
        out.lane = static_cast<std::int16_t>((c.address >> 4) & 7u);
        out.reg = static_cast<std::int16_t>(chunkBefore(c.address, t.swizzleMask));
        return true;
    case PanelKind::SharedMemoryMap:
        out.address = t.base + static_cast<std::uint32_t>(row) * 128u + static_cast<std::uint32_t>(col) * 16u;
        out.element = c.element;
        out.bitLo = c.bitLo;
        out.bitHi = c.bitHi;
        out.lane = static_cast<std::int16_t>((out.address >> 4) & 7u);
        out.reg = static_cast<std::int16_t>(chunkBefore(out.address, t.swizzleMask));
        return true;
    case PanelKind::TensorMemory:
        out.element = c.element;
        out.bitLo = out.bitHi = c.bitLo;
        out.lane = static_cast<std::int16_t>(row % t.lanes);
        out.matrix = static_cast<std::int16_t>(row / t.lanes);
        out.warp = static_cast<std::int16_t>(out.lane / 32);
        return true;
    default:
        return false; // ldmatrix chunks and addresses: the text travels in data-t
    }
}

std::string Tables::json() const {
    std::string out = "{\"w\":";
    out += m_d.scope == Scope::Warpgroup ? '1' : '0';
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
            appendString(out, p.operand);
            out += ",\"rl\":";
            appendString(out, std::string_view(&p.rowLetter, 1));
            out += ",\"cl\":";
            appendString(out, std::string_view(&p.colLetter, 1));
            out += ",\"re\":" + std::to_string(p.rowElements) + ",\"ce\":" + std::to_string(p.colElements) +
                   ",\"b\":" + std::to_string(t.elementBits) + ",\"x\":" + std::to_string(t.swizzleMask);
            break;
        case PanelKind::SharedMemoryMap:
            out += ",\"rl\":";
            appendString(out, std::string_view(&p.rowLetter, 1));
            out += ",\"cl\":";
            appendString(out, std::string_view(&p.colLetter, 1));
            out += ",\"a\":" + std::to_string(t.base) + ",\"x\":" + std::to_string(t.swizzleMask);
            break;
        case PanelKind::TensorMemory:
            out += ",\"n\":" + std::to_string(t.lanes);
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
