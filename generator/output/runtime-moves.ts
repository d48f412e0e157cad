/**
 * Where each runtime file of mcpgen 0.1 lives now that runtime/ is folders by role (issue 13). A handler
 * written against the old layout imports a path that no longer exists; check-handlers.ts names the new
 * one (and runtime/handler-api.ts, the one module handlers should import) instead of a bare "cannot find module".
 */
export const RUNTIME_MOVES: Readonly<Record<string, string>> = {
  "client-handlers.ts": "client/transport.ts",
  "client-negotiation.ts": "client/negotiation.ts",
  "client-transport.ts": "client/transport.ts",
  "client.ts": "client/client.ts",
  "codec.ts": "protocol/codec.ts",
  "compile-schema.ts": "protocol/compile-schema.ts",
  "constants.ts": "protocol/constants.ts",
  "deadlines.ts": "server/deadlines.ts",
  "errors.ts": "protocol/errors.ts",
  "header-encoding.ts": "transport/http/header-encoding.ts",
  "http-client-transport.ts": "transport/http/client.ts",
  "http-post.ts": "transport/http/post.ts",
  "http-responder.ts": "transport/http/responder.ts",
  "http-security.ts": "transport/http/security.ts",
  "http-server.ts": "transport/http/server.ts",
  "http-session-store.ts": "transport/http/session-store.ts",
  "http-session.ts": "transport/http/session.ts",
  "lazy-abort.ts": "server/deadlines.ts",
  "lazy-validator.ts": "package/lazy-validator.ts",
  "line-channel.ts": "transport/stdio/line-channel.ts",
  "media-type.ts": "transport/http/post-common.ts",
  "mrtr.ts": "server/mrtr.ts",
  "own-keys.ts": "protocol/codec.ts",
  "pagination.ts": "server/methods.ts",
  "peer.ts": "protocol/peer.ts",
  "request-run.ts": "server/server.ts",
  "sealed-token.ts": "server/sealed-token.ts",
  "server-changes.ts": "server/session.ts",
  "server-context.ts": "server/context.ts",
  "server-features.ts": "server/features.ts",
  "server-methods.ts": "server/methods.ts",
  "server-session.ts": "server/session.ts",
  "server-types.ts": "server/types.ts",
  "server.ts": "server/server.ts",
  "spec-main.ts": "package/spec-main.ts",
  "spec-server.ts": "package/spec-server.ts",
  "sse-replay.ts": "transport/http/sse.ts",
  "sse.ts": "transport/http/sse.ts",
  "stdio-client-transport.ts": "transport/stdio/client.ts",
  "stdio-server.ts": "transport/stdio/server.ts",
  "types.ts": "protocol/types.ts",
  "upstream-auth.ts": "upstream/credentials.ts",
  "upstream-body.ts": "upstream/send.ts",
  "upstream-redact.ts": "upstream/response.ts",
  "upstream-request.ts": "upstream/request.ts",
  "upstream-response.ts": "upstream/response.ts",
  "upstream-send.ts": "upstream/send.ts",
  "upstream-types.ts": "upstream/types.ts",
  "upstream.ts": "upstream/forward.ts",
  "uri-template-match.ts": "protocol/uri-template-match.ts",
  "uri-template.ts": "protocol/uri-template.ts",
};

/**
 * Files a package has under another name now (issue 28: "manifest" is only the MCPB manifest). A handler
 * importing the old one gets the new one's path from check-handlers.ts, and what it exports.
 */
export const PACKAGE_MOVES: Readonly<Record<string, { path: string; exports: string; formerly: string }>> = {
  "src/manifest.ts": { path: "src/definition.ts", exports: "definition", formerly: "manifest" },
};
