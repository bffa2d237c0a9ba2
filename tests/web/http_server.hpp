#pragma once
// A static file server on 127.0.0.1 for the web app's browser tests: the app is a folder any static host
// serves, and a browser runs WebAssembly only from http(s) (not file://). GET and HEAD of files under one
// folder, with the content types the app needs (application/wasm lets the browser compile while it
// downloads); one connection at a time, each closed after its answer. Nothing else.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lanemap::test {

class HttpServer {
  public:
    explicit HttpServer(std::filesystem::path root) : m_root(std::move(root)) {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        if (m_listen < 0)
            throw std::runtime_error("socket() failed");
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0; // any free port
        socklen_t len = sizeof addr;
        if (::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(m_listen, 16) != 0 ||
            ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
            throw std::runtime_error("cannot listen on 127.0.0.1");
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;
    ~HttpServer() {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        ::close(m_listen);
        if (m_thread.joinable())
            m_thread.join();
    }
    std::string url(const std::string& path) const {
        return "http://127.0.0.1:" + std::to_string(m_port) + "/" + path;
    }

  private:
    static std::string contentType(const std::filesystem::path& p) {
        const std::string ext = p.extension().string();
        if (ext == ".html")
            return "text/html; charset=utf-8";
        if (ext == ".js")
            return "text/javascript; charset=utf-8";
        if (ext == ".css")
            return "text/css; charset=utf-8";
        if (ext == ".wasm")
            return "application/wasm";
        return "application/octet-stream";
    }
    void serve() {
        while (!m_stop) {
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                continue;
            answer(fd);
            ::close(fd);
        }
    }
    void answer(int fd) {
        std::string request;
        char buf[4096];
        while (request.find("\r\n\r\n") == std::string::npos) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0)
                return;
            request.append(buf, static_cast<std::size_t>(n));
        }
        std::istringstream line(request.substr(0, request.find("\r\n")));
        std::string method, target;
        line >> method >> target;
        target = target.substr(0, target.find_first_of("?#"));
        if (target.empty() || target == "/")
            target = "/index.html";
        std::filesystem::path file = m_root / target.substr(1);
        std::string body, status = "200 OK";
        std::ifstream in(file, std::ios::binary);
        if (target.find("..") != std::string::npos || !in) {
            // As GitHub Pages does: a missing file is answered with the folder's 404.html, when it has one.
            status = "404 Not Found";
            std::ifstream notFound(m_root / "404.html", std::ios::binary);
            std::ostringstream s;
            if (notFound)
                s << notFound.rdbuf();
            body = notFound ? s.str() : "not found";
            if (notFound)
                file = m_root / "404.html";
        } else {
            std::ostringstream s;
            s << in.rdbuf();
            body = s.str();
        }
        std::string head = "HTTP/1.1 " + status + "\r\nContent-Type: " + contentType(file) +
                           "\r\nContent-Length: " + std::to_string(body.size()) +
                           "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
        if (method == "GET")
            head += body;
        for (std::size_t done = 0; done < head.size();) {
            const ssize_t n = ::send(fd, head.data() + done, head.size() - done, MSG_NOSIGNAL);
            if (n <= 0)
                return;
            done += static_cast<std::size_t>(n);
        }
    }

    std::filesystem::path m_root;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace lanemap::test
