#include "lanemap/probe_report.hpp"

#include "io/json_limits.hpp"
#include "lanemap/excerpt.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>

namespace lanemap {

using nlohmann::ordered_json;

const ProbeResult* ProbeReport::result(std::string_view spec) const {
    for (const ProbeResult& r : results)
        if (r.spec == spec)
            return &r;
    return nullptr;
}

std::string toJson(const ProbeReport& report) {
    ordered_json doc;
    doc["device"] = {{"name", report.device.name},
                     {"sm", report.device.sm},
                     {"driver", report.device.driver},
                     {"cuda_runtime", report.device.cudaRuntime}};
    doc["date"] = report.date;
    doc["lanemap_version"] = report.lanemapVersion;
    ordered_json results = ordered_json::array();
    for (const ProbeResult& r : report.results) {
        ordered_json j;
        j["spec"] = r.spec;
        j["verdict"] = toString(r.verdict);
        if (!r.reason.empty())
            j["reason"] = r.reason;
        j["experiments"] = r.experiments;
        j["cells_checked"] = r.cellsChecked;
        j["cells_mismatched"] = r.cellsMismatched;
        j["seconds"] = r.seconds;
        ordered_json mismatches = ordered_json::array();
        for (const ProbeMismatch& m : r.mismatches) {
            ordered_json mj{{"operand", toString(m.operand)}, {"row", m.row}, {"col", m.col}};
            if (m.matrix >= 0)
                mj["matrix"] = m.matrix;
            if (m.thread >= 0)
                mj["thread"] = m.thread;
            if (m.index >= 0)
                mj["index"] = m.index;
            mj["experiment"] = m.experiment;
            mj["expected"] = m.expected;
            mj["observed"] = m.observed;
            mismatches.push_back(std::move(mj));
        }
        j["mismatches"] = std::move(mismatches);
        if (!r.findings.empty())
            j["findings"] = r.findings;
        results.push_back(std::move(j));
    }
    doc["results"] = std::move(results);
    return doc.dump(1) + "\n";
}

namespace {
template <typename T>
bool field(const ordered_json& j, const char* key, T& out, std::string& error, const std::string& where) {
    if (!j.contains(key)) {
        error = where + ": missing \"" + key + "\"";
        return false;
    }
    const ordered_json& value = j.at(key);
    if constexpr (std::is_same_v<T, int>) {
        // Only integers in range: a float like 4e64 must not be narrowed (found by fuzzing).
        if (!value.is_number_integer() ||
            (value.is_number_unsigned() && value.get<std::uint64_t>() > std::numeric_limits<int>::max()) ||
            (!value.is_number_unsigned() && (value.get<std::int64_t>() < std::numeric_limits<int>::min() ||
                                             value.get<std::int64_t>() > std::numeric_limits<int>::max()))) {
            error = where + ": \"" + key + "\" must be an integer";
            return false;
        }
        out = static_cast<int>(value.get<std::int64_t>());
        return true;
    }
    try {
        out = value.get<T>();
    } catch (const nlohmann::json::exception&) {
        error = where + ": \"" + key + "\" has the wrong type";
        return false;
    }
    return true;
}
} // namespace

bool parseProbeReport(std::string_view text, ProbeReport& report, std::string& error) {
    if (const std::string over = json_limits::check(text); !over.empty()) {
        error = "not a lanemap probe report: " + over;
        return false;
    }
    ordered_json doc;
    try {
        doc = ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for numbers like 1e999 (found by fuzzing)
        error = std::string("not JSON: ") + e.what();
        return false;
    }
    if (!doc.is_object() || !doc.contains("device") || !doc.contains("results")) {
        error = "not a lanemap probe report (needs \"device\" and \"results\")";
        return false;
    }
    ProbeReport r;
    const ordered_json& dev = doc["device"];
    if (!dev.is_object()) {
        error = "\"device\" is not an object";
        return false;
    }
    if (!field(dev, "name", r.device.name, error, "device") ||
        !field(dev, "sm", r.device.sm, error, "device") ||
        !field(dev, "driver", r.device.driver, error, "device") ||
        !field(dev, "cuda_runtime", r.device.cudaRuntime, error, "device") ||
        !field(doc, "date", r.date, error, "report") ||
        !field(doc, "lanemap_version", r.lanemapVersion, error, "report"))
        return false;
    if (!doc["results"].is_array()) {
        error = "\"results\" is not an array";
        return false;
    }
    for (std::size_t i = 0; i < doc["results"].size(); ++i) {
        const ordered_json& j = doc["results"][i];
        const std::string where = "results[" + std::to_string(i) + "]";
        if (!j.is_object()) {
            error = where + " is not an object";
            return false;
        }
        ProbeResult res;
        std::string verdict;
        if (!field(j, "spec", res.spec, error, where) || !field(j, "verdict", verdict, error, where) ||
            !field(j, "experiments", res.experiments, error, where) ||
            !field(j, "cells_checked", res.cellsChecked, error, where) ||
            !field(j, "cells_mismatched", res.cellsMismatched, error, where) ||
            !field(j, "seconds", res.seconds, error, where))
            return false;
        if (const std::optional<Verdict> v = parseVerdict(verdict))
            res.verdict = *v;
        else {
            error = where + ": verdict '" + excerpt(verdict) + "' is not pass, fail or unsupported";
            return false;
        }
        if (j.contains("reason") && !field(j, "reason", res.reason, error, where))
            return false;
        if (j.contains("findings") && !field(j, "findings", res.findings, error, where))
            return false;
        if (j.contains("mismatches")) {
            if (!j["mismatches"].is_array()) {
                error = where + ": \"mismatches\" is not an array";
                return false;
            }
            for (std::size_t k = 0; k < j["mismatches"].size(); ++k) {
                const ordered_json& mj = j["mismatches"][k];
                ProbeMismatch m;
                const std::string mw = where + ".mismatches[" + std::to_string(k) + "]";
                if (!mj.is_object()) {
                    error = mw + " is not an object";
                    return false;
                }
                std::string operand;
                if (!field(mj, "operand", operand, error, mw) || !field(mj, "row", m.row, error, mw) ||
                    !field(mj, "col", m.col, error, mw))
                    return false;
                if (const std::optional<Operand> o = parseOperand(operand))
                    m.operand = *o;
                else {
                    error = mw + ": operand '" + excerpt(operand) + "' is not A, B, C, D or metadata";
                    return false;
                }
                if (mj.contains("matrix") && !field(mj, "matrix", m.matrix, error, mw))
                    return false;
                if (mj.contains("thread") && !field(mj, "thread", m.thread, error, mw))
                    return false;
                if (mj.contains("index") && !field(mj, "index", m.index, error, mw))
                    return false;
                if (mj.contains("experiment") && !field(mj, "experiment", m.experiment, error, mw))
                    return false;
                if (mj.contains("expected") && !field(mj, "expected", m.expected, error, mw))
                    return false;
                if (mj.contains("observed") && !field(mj, "observed", m.observed, error, mw))
                    return false;
                res.mismatches.push_back(std::move(m));
            }
        }
        if (res.cellsMismatched < 0 || res.cellsChecked < 0 || res.cellsMismatched > res.cellsChecked) {
            error = where + ": inconsistent cell counts";
            return false;
        }
        if (res.verdict == Verdict::Pass && (res.cellsMismatched > 0 || !res.mismatches.empty())) {
            error = where + ": verdict \"pass\" with mismatches (\"cells_mismatched\" " +
                    std::to_string(res.cellsMismatched) + ", " + std::to_string(res.mismatches.size()) +
                    " listed)";
            return false;
        }
        r.results.push_back(std::move(res));
    }
    report = std::move(r);
    error.clear();
    return true;
}

bool readReportFile(const std::string& path, std::string& text, std::string& error) {
    // Only regular files, and only up to the cap: a link to /dev/zero or a 200 MB file must not eat the
    // memory.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = std::strerror(errno);
        return false;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        error = "not a regular file";
        return false;
    }
    if (st.st_size > static_cast<off_t>(kMaxProbeReportBytes)) {
        ::close(fd);
        error = "too large (" + std::to_string(st.st_size) + " bytes; a report is at most " +
                std::to_string(kMaxProbeReportBytes) + ")";
        return false;
    }
    text.clear();
    text.resize(static_cast<std::size_t>(st.st_size) + 1);
    std::size_t have = 0;
    for (;;) {
        const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            error = std::strerror(errno);
            ::close(fd);
            return false;
        }
        if (n == 0)
            break;
        have += static_cast<std::size_t>(n);
        if (have == text.size()) {
            if (text.size() > kMaxProbeReportBytes) {
                ::close(fd);
                error = "too large (grew past " + std::to_string(kMaxProbeReportBytes) + " bytes while read)";
                return false;
            }
            text.resize(std::min(text.size() * 2, kMaxProbeReportBytes + 1));
        }
    }
    ::close(fd);
    text.resize(have);
    return true;
}

bool loadProbeReportFile(const std::string& path, ProbeReport& report, std::string& error) {
    std::string text;
    return readReportFile(path, text, error) && parseProbeReport(text, report, error);
}

} // namespace lanemap
