"""Every bound on a bridge wait, named, with the reason for its size.

JSPyBridge's own default is 10 s per call, after which the JS side keeps
running; we always pass an explicit bound instead.
"""

# Starting Node and loading mineflayer + flying-squid's data: ~1 s, up to ~5 s on a busy 2-core machine.
BRIDGE_START_S = 30.0
# Joining: spawn comes 0.3-1.3 s after connect on flying-squid; remote servers may be slower.
CONNECT_S = 10.0
# Headroom the Python side adds over a JS-side bound, so the JS side reports first with its reason.
MARGIN_S = 2.0
# A state snapshot, a scan or a look: well under 10 ms; seconds mean the bridge is stuck.
CALL_S = 5.0
# Leaving: the JS side waits 2 s for the server to close the socket.
QUIT_S = 5.0
