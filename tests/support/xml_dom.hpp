#pragma once
// A tiny DOM over expat, for tests: parse an SVG with a real, strict XML parser and walk it.

#include <expat.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanemap::test {

struct XmlNode {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::string text; // character data directly inside this element
    std::vector<std::unique_ptr<XmlNode>> children;
    XmlNode* parent = nullptr;

    const std::string* attr(std::string_view key) const {
        for (const auto& [k, v] : attrs)
            if (k == key)
                return &v;
        return nullptr;
    }
    std::string attrOr(std::string_view key, std::string fallback = {}) const {
        const std::string* v = attr(key);
        return v ? *v : fallback;
    }
    bool hasClass(std::string_view cls) const {
        const std::string* c = attr("class");
        if (!c)
            return false;
        std::size_t pos = 0;
        while (pos <= c->size()) {
            const std::size_t end = std::min(c->find(' ', pos), c->size());
            if (std::string_view(*c).substr(pos, end - pos) == cls)
                return true;
            pos = end + 1;
        }
        return false;
    }
    const XmlNode* child(std::string_view childName) const {
        for (const auto& ch : children)
            if (ch->name == childName)
                return ch.get();
        return nullptr;
    }
    // Every descendant (depth first, document order) for which pred holds.
    template <class Pred> void collect(Pred&& pred, std::vector<const XmlNode*>& out) const {
        for (const auto& ch : children) {
            if (pred(*ch))
                out.push_back(ch.get());
            ch->collect(pred, out);
        }
    }
    template <class Pred> std::vector<const XmlNode*> all(Pred&& pred) const {
        std::vector<const XmlNode*> out;
        collect(pred, out);
        return out;
    }
};

struct XmlDocument {
    std::unique_ptr<XmlNode> root;
    std::string error; // empty when well-formed
    explicit operator bool() const { return root && error.empty(); }
};

inline XmlDocument parseXml(std::string_view text) {
    struct State {
        std::unique_ptr<XmlNode> root;
        XmlNode* current = nullptr;
    } state;
    XML_Parser parser = XML_ParserCreate("UTF-8");
    XML_SetUserData(parser, &state);
    XML_SetElementHandler(
        parser,
        [](void* data, const XML_Char* name, const XML_Char** atts) {
            auto* st = static_cast<State*>(data);
            auto node = std::make_unique<XmlNode>();
            node->name = name;
            for (int i = 0; atts[i]; i += 2)
                node->attrs.emplace_back(atts[i], atts[i + 1]);
            node->parent = st->current;
            XmlNode* raw = node.get();
            if (st->current)
                st->current->children.push_back(std::move(node));
            else
                st->root = std::move(node);
            st->current = raw;
        },
        [](void* data, const XML_Char*) {
            auto* st = static_cast<State*>(data);
            st->current = st->current->parent;
        });
    XML_SetCharacterDataHandler(parser, [](void* data, const XML_Char* s, int len) {
        auto* st = static_cast<State*>(data);
        if (st->current)
            st->current->text.append(s, static_cast<std::size_t>(len));
    });
    XmlDocument doc;
    if (XML_Parse(parser, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_ERROR)
        doc.error = std::string(XML_ErrorString(XML_GetErrorCode(parser))) + " at line " +
                    std::to_string(XML_GetCurrentLineNumber(parser));
    XML_ParserFree(parser);
    doc.root = std::move(state.root);
    return doc;
}

} // namespace lanemap::test
