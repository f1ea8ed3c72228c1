"""``mjcalc serve``: listen, say where the calculator is (the address to type on a phone and its QR code), and
serve the application (``http.Server``) until Ctrl-C or SIGTERM."""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
import threading
from typing import TYPE_CHECKING

from ..errors import MjcalcError

if TYPE_CHECKING:
    from .app import Hosts
    from .http import Limits

EXIT_INTERNAL = 70  # as cli.EXIT_INTERNAL: a bug in mjcalc itself

WILDCARDS = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """This machine's address on the local network: the one its traffic to other networks leaves from (a UDP
    socket is pointed there; nothing is sent), else its host name's, else None."""
    found: str | None = None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            found = probe.getsockname()[0]
        except OSError:
            found = None
    if found is None or found.startswith("127.") or found == "0.0.0.0":
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if found.startswith("127.") else found


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``; a host that does not resolve, a port in use or one this user
    may not take is an MjcalcError that says so."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise MjcalcError("option", f"--host {host}: not an address of this machine ({exc})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # IPv4 phones too
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise MjcalcError("option", f"port {port} is in use on {host} (another mjcalc serve?): "
                              f"try --port {port + 1 if port < 65535 else 8000}") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise MjcalcError("option", f"this user may not listen on port {port}: try --port 8000") from None
        raise MjcalcError("option", f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return sock


def url(host: str, port: int) -> str:
    try:
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    except ValueError:
        pass  # a host name
    return f"http://{host}:{port}/"


def loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def qr_code(text: str) -> str | None:
    """``text`` as a QR code drawn in the terminal's block characters (segno), or None where segno is not
    installed or the terminal cannot show the blocks."""
    try:
        import io

        import segno
    except ImportError:
        return None
    out = io.StringIO()
    segno.make_qr(text, error="m").terminal(out=out, compact=True)
    drawn = out.getvalue()
    try:
        drawn.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return None
    return drawn


def banner(host: str, port: int) -> tuple[str, str]:
    """What the start-up says, and the address to open on this machine."""
    shared = host in WILDCARDS
    here = url("127.0.0.1" if shared else host, port)
    if loopback(host):
        return (f"mjcalc serve: the calculator is at {here} on this machine only "
                "(--host 0.0.0.0 puts it on the phones of your network); Ctrl-C stops it"), here
    shown = lan_address() if shared else host
    if shown is None:
        return (f"mjcalc serve: the calculator is at port {port} of this machine's address on your network "
                f"(this machine: {here}); Ctrl-C stops it"), here
    address = url(shown, port)
    code = qr_code(address)
    lines = [f"mjcalc serve: the calculator is at {address} — type it on a phone on this network"
             + (" or scan the code below" if code else "") + "; Ctrl-C stops it"]
    if code:
        lines.append(code.rstrip("\n"))
    return "\n".join(lines), here


def _open_later(address: str) -> None:
    import webbrowser

    def go() -> None:
        try:
            if not webbrowser.open(address):
                print(f"mjcalc serve: no browser found here to open {address}", file=sys.stderr, flush=True)
        except Exception:  # a broken browser setting is no reason to stop the server
            pass

    threading.Thread(target=go, daemon=True, name="mjcalc serve --open").start()


def workers() -> tuple[int, int]:
    """The worker processes of the scores' lane and of the waits' lane (as many: the waits' yield the
    processors to the scores', app.WAITS_NICE)."""
    from ..batch.parallel import usable_cpus

    each = max(2, min(4, usable_cpus()))
    return each, each


def hosts(host: str, allowed: list[str] | tuple[str, ...] = ()) -> Hosts:
    """The names a request's Host may give: this machine's loopback names, the address listened on, the names
    given with --allow-host; on every interface (0.0.0.0, ::) any address of this machine's, and its own name."""
    from .app import Hosts

    names = {"localhost", "127.0.0.1", "::1", *allowed}
    shared = host in WILDCARDS
    if not shared:
        names.add(host)
    else:
        try:
            here = socket.gethostname()
        except OSError:
            here = ""
        if here:
            names.update({here, here.split(".")[0] + ".local"})
    return Hosts(names, any_address=shared)


def _more_files() -> None:
    """As many open files as the system allows this process (each connection is one; idle ones are closed for
    new ones well before the limit, http.Limits)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65_536 if hard == resource.RLIM_INFINITY else min(hard, 65_536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):
        pass


def limits() -> Limits:
    from .http import Limits

    try:
        import resource

        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, ValueError, OSError):
        files = 1024
    if files == -1:
        files = 65_536
    return Limits(max_connections=max(64, min(4_096, files - 64)))  # room for the workers' pipes and the page


def shared_url(host: str, port: int) -> str | None:
    """The server's address for the other phones (None on this machine only): the join link of a game started
    on this machine's own page."""
    if loopback(host):
        return None
    shown = lan_address() if host in WILDCARDS else host
    return url(shown, port) if shown else None


def run(host: str, port: int, open_browser: bool = False, allow_host: list[str] | tuple[str, ...] = (),
        db: str | None = None) -> int:
    """Serve until Ctrl-C or SIGTERM (both drain: the answers in progress are finished); the exit code. ``db``:
    the games' file (None: ``mjcalc game``'s default)."""
    import asyncio
    import signal

    from .app import create_app, refusal
    from .http import Server, StartError

    if hasattr(signal, "SIGPIPE"):
        # cli.main() lets SIGPIPE end the process, for `mjcalc … | head`; a server must not die when a phone
        # drops its connection before the answer is written: the write fails with EPIPE, which is handled.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    sock = listen(host, port)
    port = sock.getsockname()[1]  # --port 0: the one the system chose
    text, here = banner(host, port)
    print(text, flush=True)
    _more_files()
    quick, slow = workers()
    application = create_app(workers=quick, waits_workers=slow, hosts=hosts(host, allow_host), db=db,
                             shared=shared_url(host, port))
    server = Server(application, refusal, limits())

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for name in ("SIGINT", "SIGTERM"):
            try:
                loop.add_signal_handler(getattr(signal, name), server.stop)
            except (NotImplementedError, AttributeError, ValueError):  # no such signal here (Windows)
                pass
        await server.serve([sock], ready=(lambda: _open_later(here)) if open_browser else None)

    failed = None
    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # where no signal handler could be set
        pass
    except StartError as exc:
        failed = str(exc)
    finally:
        sock.close()
    if not server.started:
        print(f"mjcalc serve: the server could not start: {failed or 'the lines above say why'}", file=sys.stderr,
              flush=True)
        return EXIT_INTERNAL
    print("mjcalc serve: stopped", file=sys.stderr, flush=True)
    return 0
