# daemon_server.py PORT setsid|double - a server that escapes its process group
# (tests/sh/reliability.sh, issue 28 item 5): "setsid" serves from a
# grandchild in a session of its own while the parent sleeps; "double"
# double-forks a daemon and exits 0 at once; "workers" serves from a worker
# in its own process group that takes 0.3 s to end after SIGTERM, while
# the parent ends at once (a pre-fork server, Node's cluster): not a stray.
import http.server, os, signal, sys, time
port, mode = int(sys.argv[1]), sys.argv[2]
def serve():
    http.server.HTTPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler).serve_forever()
if mode == "setsid":
    if os.fork() == 0:
        os.setsid(); serve()
    time.sleep(600)
elif mode == "workers":
    if os.fork() == 0:
        def bye(*_):
            time.sleep(0.3)
            os._exit(0)
        signal.signal(signal.SIGTERM, bye)
        serve()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    time.sleep(600)
else:  # double fork: the parent exits 0 at once
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            serve()
        os._exit(0)
    os._exit(0)
