#pragma once
// A strict XML well-formedness check over expat that keeps no tree: for the catalog-wide tests, which need
// to know that each of ~1,000 documents parses and what its root and title are, not to walk it (xml_dom.hpp
// builds a node per element, most of those tests' time under ASan).

#include <expat.h>

#include <string>
#include <string_view>

namespace lanemap::test {

struct XmlOutline {
    std::string error;     // empty when well-formed
    std::string root;      // the root element's name
    std::string rootTitle; // character data of the root's first <title> child
    explicit operator bool() const { return error.empty() && !root.empty(); }
};

inline XmlOutline outlineXml(std::string_view text) {
    struct State {
        XmlOutline out;
        int depth = 0;
        bool inRootTitle = false, titleSeen = false;
    } st;
    XML_Parser parser = XML_ParserCreate("UTF-8");
    XML_SetUserData(parser, &st);
    XML_SetElementHandler(
        parser,
        [](void* data, const XML_Char* name, const XML_Char**) {
            auto* s = static_cast<State*>(data);
            if (s->depth == 0)
                s->out.root = name;
            else if (s->depth == 1 && !s->titleSeen && std::string_view(name) == "title")
                s->inRootTitle = s->titleSeen = true;
            ++s->depth;
        },
        [](void* data, const XML_Char*) {
            auto* s = static_cast<State*>(data);
            --s->depth;
            if (s->depth == 1)
                s->inRootTitle = false;
        });
    XML_SetCharacterDataHandler(parser, [](void* data, const XML_Char* chars, int len) {
        auto* s = static_cast<State*>(data);
        if (s->inRootTitle && s->depth == 2)
            s->out.rootTitle.append(chars, static_cast<std::size_t>(len));
    });
    if (XML_Parse(parser, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_ERROR)
        st.out.error = std::string(XML_ErrorString(XML_GetErrorCode(parser))) + " at line " +
                       std::to_string(XML_GetCurrentLineNumber(parser));
    XML_ParserFree(parser);
    return std::move(st.out);
}

} // namespace lanemap::test
