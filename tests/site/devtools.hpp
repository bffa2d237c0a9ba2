#pragma once
// A headless Chromium driven over the DevTools protocol through a pipe (--remote-debugging-pipe: the browser
// reads NUL-terminated JSON commands on fd 3 and writes replies and events on fd 4). Just what the site tests
// need: open a page, evaluate script, move and click the mouse, press a key. No server, no port, no Python.

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lanemap::test {

class Browser {
  public:
    // The browser the tests use: $LANEMAP_CHROMIUM, else Debian's /usr/bin/chromium; empty when neither.
    static std::string executable() {
        if (const char* env = std::getenv("LANEMAP_CHROMIUM"); env && *env)
            return ::access(env, X_OK) == 0 ? env : "";
        return ::access("/usr/bin/chromium", X_OK) == 0 ? "/usr/bin/chromium" : "";
    }

    explicit Browser(const std::string& exe, const std::filesystem::path& profile) {
        int toChrome[2], fromChrome[2];
        if (::pipe(toChrome) != 0 || ::pipe(fromChrome) != 0)
            throw std::runtime_error("pipe() failed");
        m_pid = ::fork();
        if (m_pid < 0)
            throw std::runtime_error("fork() failed");
        if (m_pid == 0) {
            // Child: fds 3 and 4 are the protocol; everything the browser prints goes nowhere.
            const int in = ::dup(toChrome[0]), out = ::dup(fromChrome[1]);
            ::dup2(in, 3);
            ::dup2(out, 4);
            const int null = ::open("/dev/null", O_RDWR);
            ::dup2(null, 0);
            ::dup2(null, 1);
            ::dup2(null, 2);
            for (int fd = 5; fd < 1024; ++fd)
                ::close(fd);
            const std::string userDir = "--user-data-dir=" + profile.string();
            std::vector<const char*> argv{exe.c_str(),
                                          "--headless",
                                          "--remote-debugging-pipe",
                                          "--disable-gpu",
                                          "--no-first-run",
                                          "--disable-extensions",
                                          "--mute-audio",
                                          "--hide-scrollbars",
                                          "--window-size=1400,1000",
                                          "--force-device-scale-factor=1",
                                          userDir.c_str()};
            if (::getuid() == 0)
                argv.push_back("--no-sandbox"); // Chromium refuses to run as root with its sandbox
            argv.push_back("about:blank");
            argv.push_back(nullptr);
            ::execv(exe.c_str(), const_cast<char* const*>(argv.data()));
            ::_exit(127);
        }
        ::close(toChrome[0]);
        ::close(fromChrome[1]);
        m_write = toChrome[1];
        m_read = fromChrome[0];
        const nlohmann::json targets = call("Target.getTargets", {}, false);
        std::string target;
        for (const nlohmann::json& t : targets["targetInfos"])
            if (t["type"] == "page")
                target = t["targetId"];
        if (target.empty())
            target = call("Target.createTarget", {{"url", "about:blank"}}, false)["targetId"];
        m_session =
            call("Target.attachToTarget", {{"targetId", target}, {"flatten", true}}, false)["sessionId"];
        call("Page.enable", {});
        call("Runtime.enable", {});
    }
    Browser(const Browser&) = delete;
    Browser& operator=(const Browser&) = delete;
    ~Browser() {
        if (m_pid > 0) {
            try {
                send("Browser.close", {}, false);
            } catch (...) {
            }
            for (int i = 0; i < 50; ++i) {
                if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
                    m_pid = -1;
                    break;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
            if (m_pid > 0) {
                ::kill(m_pid, SIGKILL);
                ::waitpid(m_pid, nullptr, 0);
            }
        }
        if (m_write >= 0)
            ::close(m_write);
        if (m_read >= 0)
            ::close(m_read);
    }

    // Opens `url` and waits until the page says it is ready (body[data-ready]); false after 20 s.
    bool open(const std::string& url) {
        // Through a blank page, so that a link differing only in its #fragment loads the page afresh.
        call("Page.navigate", {{"url", "about:blank"}});
        call("Page.navigate", {{"url", url}});
        for (int i = 0; i < 200; ++i) {
            if (evaluate("document.body && document.body.dataset.ready === '1'") == true)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    // Opens a document that is not a site page (an SVG file) and waits until it has loaded; false after 20 s.
    bool openDocument(const std::string& url) {
        call("Page.navigate", {{"url", "about:blank"}});
        call("Page.navigate", {{"url", url}});
        for (int i = 0; i < 200; ++i) {
            if (evaluate("document.readyState === 'complete' && location.href !== 'about:blank'") == true)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    // The value of a script expression (returnByValue); throws with the page's message when it throws.
    nlohmann::json evaluate(const std::string& expression) {
        const nlohmann::json r =
            call("Runtime.evaluate",
                 {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
        if (r.contains("exceptionDetails"))
            throw std::runtime_error("script failed: " + r["exceptionDetails"].dump());
        return r["result"].value("value", nlohmann::json());
    }
    // Runs `source` in every document opened from now on, before the page's own scripts (the web app's tests
    // record console errors with it).
    void addInitScript(const std::string& source) {
        call("Page.addScriptToEvaluateOnNewDocument", {{"source", source}});
    }
    // A phone's screen: the page laid out `width` x `height` CSS px (mobile); resetViewport() undoes it.
    void viewport(int width, int height) {
        call("Emulation.setDeviceMetricsOverride",
             {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", true}});
    }
    void resetViewport() { call("Emulation.clearDeviceMetricsOverride", nlohmann::json::object()); }
    // The system's colour scheme as the page sees it (prefers-color-scheme): "light", "dark", or "" for the
    // browser's own.
    void colorScheme(const std::string& scheme) {
        call("Emulation.setEmulatedMedia",
             {{"features", nlohmann::json::array({{{"name", "prefers-color-scheme"}, {"value", scheme}}})}});
    }
    void mouseMove(double x, double y) { mouse("mouseMoved", x, y, 0); }
    void click(double x, double y) {
        mouse("mouseMoved", x, y, 0);
        mouse("mousePressed", x, y, 1);
        mouse("mouseReleased", x, y, 1);
    }
    void key(const std::string& key, const std::string& code, int keyCode) {
        for (const char* type : {"rawKeyDown", "keyUp"})
            call("Input.dispatchKeyEvent",
                 {{"type", type}, {"key", key}, {"code", code}, {"windowsVirtualKeyCode", keyCode}});
    }
    // A key that types (Enter submits a form, as a user's press does): keyDown with its text, then keyUp.
    void type(const std::string& key, const std::string& code, int keyCode, const std::string& text) {
        call("Input.dispatchKeyEvent", {{"type", "keyDown"},
                                        {"key", key},
                                        {"code", code},
                                        {"windowsVirtualKeyCode", keyCode},
                                        {"text", text}});
        call("Input.dispatchKeyEvent",
             {{"type", "keyUp"}, {"key", key}, {"code", code}, {"windowsVirtualKeyCode", keyCode}});
    }

  private:
    void mouse(const char* type, double x, double y, int clicks) {
        nlohmann::json p{{"type", type}, {"x", x}, {"y", y}, {"button", clicks ? "left" : "none"}};
        if (clicks)
            p["clickCount"] = clicks;
        call("Input.dispatchMouseEvent", p);
    }
    int send(const std::string& method, const nlohmann::json& params, bool inSession) {
        nlohmann::json msg{{"id", ++m_id}, {"method", method}, {"params", params}};
        if (inSession)
            msg["sessionId"] = m_session;
        std::string text = msg.dump();
        text.push_back('\0');
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = ::write(m_write, text.data() + done, text.size() - done);
            if (n <= 0)
                throw std::runtime_error("the browser closed its protocol pipe");
            done += static_cast<std::size_t>(n);
        }
        return m_id;
    }
    // Sends a command and waits (at most 30 s) for its reply; events in between are dropped.
    nlohmann::json call(const std::string& method, const nlohmann::json& params, bool inSession = true) {
        const int id = send(method, params, inSession);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        for (;;) {
            const std::size_t end = m_buffer.find('\0');
            if (end != std::string::npos) {
                const nlohmann::json msg = nlohmann::json::parse(m_buffer.substr(0, end));
                m_buffer.erase(0, end + 1);
                if (msg.value("id", -1) != id)
                    continue;
                if (msg.contains("error"))
                    throw std::runtime_error(method + ": " + msg["error"].dump());
                return msg["result"];
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                throw std::runtime_error(method + ": no reply from the browser in 30 s");
            pollfd pfd{m_read, POLLIN, 0};
            if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0)
                continue;
            char buf[65536];
            const ssize_t n = ::read(m_read, buf, sizeof buf);
            if (n <= 0)
                throw std::runtime_error(method + ": the browser exited");
            m_buffer.append(buf, static_cast<std::size_t>(n));
        }
    }

    pid_t m_pid = -1;
    int m_write = -1, m_read = -1;
    int m_id = 0;
    std::string m_session;
    std::string m_buffer;
};

} // namespace lanemap::test
