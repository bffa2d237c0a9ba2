// The compact JSON form (docs/reference/json.md#compact-form): the writer's columns, and the converters
// between the two forms for readers of today's schema.
#include "export/export_json_compact.hpp"

#include "lanemap/export_json.hpp"

#include <nlohmann/json.hpp>

#include <charconv>

namespace lanemap {

namespace detail {

IntColumnForm classify(const std::vector<long long>& v) {
    if (v.empty())
        return {IntColumnForm::List, 0};
    bool constant = true;
    for (long long x : v)
        constant = constant && x == v.front();
    if (constant)
        return {IntColumnForm::Constant, v.front()};
    // Outer index of a nested loop: k leading zeros, then i / k. Inner index: 0, 1, ..., k-1, 0, ...
    long long k = 0;
    while (k < static_cast<long long>(v.size()) && v[static_cast<std::size_t>(k)] == 0)
        ++k;
    bool major = k > 0;
    for (std::size_t i = 0; major && i < v.size(); ++i)
        major = v[i] == static_cast<long long>(i) / k;
    if (major)
        return {IntColumnForm::Major, k};
    k = 1;
    while (k < static_cast<long long>(v.size()) && v[static_cast<std::size_t>(k)] != 0)
        ++k;
    bool minor = v.front() == 0;
    for (std::size_t i = 0; minor && i < v.size(); ++i)
        minor = v[i] == static_cast<long long>(i) % k;
    if (minor)
        return {IntColumnForm::Minor, k};
    return {IntColumnForm::List, 0};
}

namespace {
void appendInt(std::string& out, long long v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
} // namespace

ColumnsWriter::ColumnsWriter(std::string& out, std::size_t count, std::string_view indent)
    : m_out(out), m_indent(indent) {
    m_out += "{\"count\": ";
    appendInt(m_out, static_cast<long long>(count));
    m_out += ", \"columns\": {";
}

void ColumnsWriter::key(std::string_view name) {
    m_out += m_first ? "\n" : ",\n";
    m_first = false;
    m_out += m_indent;
    m_out += '"';
    m_out += name;
    m_out += "\": ";
}

void ColumnsWriter::ints(std::string_view name, const std::vector<long long>& values) {
    key(name);
    const IntColumnForm f = classify(values);
    switch (f.kind) {
    case IntColumnForm::Constant:
        appendInt(m_out, f.value);
        return;
    case IntColumnForm::Major:
    case IntColumnForm::Minor:
        m_out += f.kind == IntColumnForm::Major ? "{\"major\": " : "{\"minor\": ";
        appendInt(m_out, f.value);
        m_out += '}';
        return;
    case IntColumnForm::List:
        break;
    }
    m_out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            m_out += ',';
        appendInt(m_out, values[i]);
    }
    m_out += ']';
}

void ColumnsWriter::pairs(std::string_view name, const std::vector<long long>& first,
                          const std::vector<long long>& last) {
    key(name);
    m_out += '[';
    for (std::size_t i = 0; i < first.size(); ++i) {
        m_out += i ? ",[" : "[";
        appendInt(m_out, first[i]);
        m_out += ',';
        appendInt(m_out, last[i]);
        m_out += ']';
    }
    m_out += ']';
}

void ColumnsWriter::strings(std::string_view name, const std::vector<std::string_view>& values) {
    key(name);
    bool constant = !values.empty();
    for (std::string_view v : values)
        constant = constant && v == values.front();
    // Only lanemap's own words reach here (source names): no escaping needed, but dump() keeps it exact.
    auto put = [&](std::string_view v) { m_out += nlohmann::json(std::string(v)).dump(); };
    if (constant) {
        put(values.front());
        return;
    }
    m_out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            m_out += ',';
        put(values[i]);
    }
    m_out += ']';
}

void ColumnsWriter::finish() {
    m_out += "}}";
}

} // namespace detail

namespace {
using ordered_json = nlohmann::ordered_json;

// The element lists the compact form writes as columns: operands[*].elements, shared_memory[*].elements and
// tensor_memory[*].elements.
template <typename F> bool forEachElementList(ordered_json& doc, F&& f, std::string& error) {
    for (const char* list : {"operands", "shared_memory", "tensor_memory"}) {
        if (!doc.contains(list))
            continue;
        if (!doc[list].is_array()) {
            error = std::string("\"") + list + "\" is not an array";
            return false;
        }
        for (ordered_json& entry : doc[list])
            if (entry.is_object() && entry.contains("elements") &&
                !f(entry["elements"],
                   std::string(list) + " entry \"" + entry.value("name", entry.value("operand", "?")) + "\"",
                   error))
                return false;
    }
    return true;
}

ordered_json columnOf(const std::vector<const ordered_json*>& values) {
    bool ints = true, scalars = true;
    for (const ordered_json* v : values) {
        ints = ints && v->is_number_integer();
        scalars = scalars && (v->is_string() || v->is_number() || v->is_boolean() || v->is_null());
    }
    if (ints) {
        std::vector<long long> n;
        n.reserve(values.size());
        for (const ordered_json* v : values)
            n.push_back(v->get<long long>());
        const detail::IntColumnForm f = detail::classify(n);
        switch (f.kind) {
        case detail::IntColumnForm::Constant:
            return f.value;
        case detail::IntColumnForm::Major:
            return ordered_json{{"major", f.value}};
        case detail::IntColumnForm::Minor:
            return ordered_json{{"minor", f.value}};
        case detail::IntColumnForm::List:
            break;
        }
    } else if (scalars) {
        bool constant = true;
        for (const ordered_json* v : values)
            constant = constant && *v == *values.front();
        if (constant)
            return *values.front();
    }
    ordered_json list = ordered_json::array();
    for (const ordered_json* v : values)
        list.push_back(*v);
    return list;
}

bool compactList(ordered_json& elements, const std::string& where, std::string& error) {
    if (elements.is_object()) {
        error = where + ": \"elements\" is already in columns (a compact document?)";
        return false;
    }
    if (!elements.is_array() || elements.empty())
        return true; // nothing to put in columns: an empty list stays a list in both forms
    std::vector<std::string> keys;
    for (const auto& [k, v] : elements.front().items())
        keys.push_back(k);
    for (const ordered_json& e : elements) {
        bool same = e.is_object() && e.size() == keys.size();
        std::size_t i = 0;
        for (auto it = e.begin(); same && it != e.end(); ++it, ++i)
            same = it.key() == keys[i];
        if (!same) {
            error = where + ": its elements do not all have the fields " + elements.front().dump() +
                    " has, in that order";
            return false;
        }
    }
    ordered_json columns = ordered_json::object();
    std::vector<const ordered_json*> values(elements.size());
    for (const std::string& k : keys) {
        for (std::size_t i = 0; i < elements.size(); ++i)
            values[i] = &elements[i][k];
        columns[k] = columnOf(values);
    }
    ordered_json compact = ordered_json::object();
    compact["count"] = elements.size();
    compact["columns"] = std::move(columns);
    elements = std::move(compact);
    return true;
}

bool expandList(ordered_json& elements, const std::string& where, std::string& error) {
    if (elements.is_array())
        return true; // an empty list, written as a list in both forms
    if (!elements.is_object() || !elements.contains("count") || !elements["count"].is_number_unsigned() ||
        !elements.contains("columns") || !elements["columns"].is_object()) {
        error = where + ": \"elements\" is neither a list nor {\"count\": N, \"columns\": {...}}";
        return false;
    }
    const std::size_t n = elements["count"].get<std::size_t>();
    const ordered_json& columns = elements["columns"];
    for (const auto& [k, c] : columns.items()) {
        const bool loop = c.is_object() && c.size() == 1 && (c.contains("major") || c.contains("minor")) &&
                          c.begin()->is_number_unsigned() && c.begin()->get<long long>() > 0;
        if ((c.is_object() && !loop) || (c.is_array() && c.size() != n)) {
            error = where + ": column \"" + k + "\" is " + c.dump().substr(0, 60) +
                    "; a column is a list of " + std::to_string(n) +
                    " values, one value for all, {\"major\": k} or {\"minor\": k}";
            return false;
        }
    }
    ordered_json list = ordered_json::array();
    for (std::size_t i = 0; i < n; ++i) {
        ordered_json e = ordered_json::object();
        for (const auto& [k, c] : columns.items()) {
            if (c.is_array())
                e[k] = c[i];
            else if (c.is_object()) {
                const long long step = c.begin()->get<long long>();
                const long long at = static_cast<long long>(i);
                e[k] = c.contains("major") ? at / step : at % step;
            } else
                e[k] = c;
        }
        list.push_back(std::move(e));
    }
    elements = std::move(list);
    return true;
}

bool parseDocument(std::string_view text, ordered_json& doc, std::string& error) {
    doc = ordered_json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("spec")) {
        error = "not a lanemap JSON document (an object with \"spec\", docs/reference/json.md)";
        return false;
    }
    return true;
}
} // namespace

std::string toCompactJson(const Instruction& instruction, const smem::Choice& choice) {
    return detail::jsonDocument(instruction, choice, 1, true);
}

std::string compactJson(std::string_view fullDocument, std::string& error) {
    ordered_json doc;
    if (!parseDocument(fullDocument, doc, error))
        return {};
    if (doc.contains("form")) {
        error = "the document is already \"form\": " + doc["form"].dump();
        return {};
    }
    if (!forEachElementList(doc, compactList, error))
        return {};
    ordered_json out = ordered_json::object();
    out["form"] = "compact";
    for (auto& [k, v] : doc.items())
        out[k] = std::move(v);
    return out.dump(1) + "\n";
}

std::string expandJson(std::string_view compactDocument, std::string& error) {
    ordered_json doc;
    if (!parseDocument(compactDocument, doc, error))
        return {};
    if (doc.value("form", std::string()) != "compact") {
        error = "not a compact document: it has no \"form\": \"compact\"";
        return {};
    }
    doc.erase("form");
    if (!forEachElementList(doc, expandList, error))
        return {};
    return doc.dump(1) + "\n";
}

} // namespace lanemap
