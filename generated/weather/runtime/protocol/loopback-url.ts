// One answer to "may a secret travel to this URL?", shared by the server's --auth-* and token-exchange
// flags and the OAuth client's metadata checks: over TLS, or in plain http only to this machine. The host
// is judged as the WHATWG URL parser leaves it (it rewrites 127.1 or 0x7f.0.0.1 to 127.0.0.1), never by a
// prefix: "127.evil.example" and "127.0.0.1.nip.io" are names anyone can point anywhere.

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a parsed URL's hostname is this machine: `localhost`, an IPv4 literal in 127/8, or `[::1]`. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || IPV4_LOOPBACK.test(hostname);
}

/** https, or http to a loopback address: where a token, client secret or signing key may be sent. */
export function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHostname(url.hostname));
}
