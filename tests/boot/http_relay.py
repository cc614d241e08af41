#!/usr/bin/env python3
"""http_relay.py LISTEN TO: an HTTP server in front of the lab's lighttpd
that answers as servers other than lighttpd do (docs/lab.md "Servers
other than lighttpd"): the config (any .cfg) comes chunked, with no
Content-Length (RFC 9112 §7.1), and every PUT's 2xx comes with a body of
600 bytes, more than irqlab's old 512-byte sink took. Everything else is
passed through as lighttpd sent it. LISTEN and TO are ADDRESS:PORT; one
line a request on stdout, for the test's checks."""

import http.client
import http.server
import sys

PUT_REPLY = (b"<html><body>" + b"stored " * 84 + b"</body></html>\n")[:600]
CHUNK = 16


class Relay(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self, method, body=None):
        host, port = self.server.to
        conn = http.client.HTTPConnection(host, port, timeout=30)
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in ("connection", "keep-alive")}
        conn.request(method, self.path, body=body, headers=headers)
        reply = conn.getresponse()
        data = reply.read()
        conn.close()
        return reply, data

    def do_GET(self):
        reply, data = self.forward("GET")
        chunked = self.path.endswith(".cfg") and reply.status == 200
        self.send_response(reply.status)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if chunked:
            for at in range(0, len(data), CHUNK):
                piece = data[at:at + CHUNK]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.wfile.write(data)
        print("relay: GET %s %d %s %d bytes" % (
            self.path, reply.status, "chunked" if chunked else "length",
            len(data)), flush=True)

    def do_HEAD(self):
        reply, data = self.forward("HEAD")
        self.send_response(reply.status)
        self.send_header("Content-Length",
                         reply.getheader("Content-Length", "0"))
        self.end_headers()
        print("relay: HEAD %s %d" % (self.path, reply.status), flush=True)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        reply, _ = self.forward("PUT", self.rfile.read(length))
        body = PUT_REPLY if 200 <= reply.status < 300 else b""
        self.send_response(reply.status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        print("relay: PUT %s %d, reply body %d bytes" % (
            self.path, reply.status, len(body)), flush=True)

    def log_message(self, *args):
        pass

    def handle(self):
        # A client may close a connection mid-body (the firmware's
        # HTTP boot reads a file's size from its headers first).
        try:
            super().handle()
        except ConnectionError:
            pass


def main():
    listen, to = sys.argv[1], sys.argv[2]
    host, port = listen.rsplit(":", 1)
    server = http.server.ThreadingHTTPServer((host, int(port)), Relay)
    to_host, to_port = to.rsplit(":", 1)
    server.to = (to_host, int(to_port))
    print("relay: %s -> %s" % (listen, to), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
