/**
 * deploy/nginx.conf (issue 18 §2): nginx in front of N instances of the generated server, routing on the
 * MCP headers. Which requests nginx may send to a second instance after the first died comes from the
 * spec: a tools/call whose tool is annotated readOnlyHint or idempotentHint, and the methods that only
 * read; every other call is never resent once an instance has received it (nginx's default for POST,
 * kept by leaving `non_idempotent` out), so a tool that can do harm runs at most once. A 503 from an
 * instance means it did not run the request (shutting down, full, its session store away): nginx tries
 * another one for any request. The keys are case-sensitive (regular expressions). Tool names pass mcpgen's naming rules ([A-Za-z0-9_.-]); any other name
 * is left out of the file rather than quoted, so no spec can write nginx directives.
 */

import type { Model } from "../normalize/normalize.ts";

export const NGINX_CONFIG_FILE = "deploy/nginx.conf";
/** The instances the file names, and where nginx listens: the README's Deploy section uses the same. */
export const DEPLOY_PORTS = [3001, 3002, 3003];
export const DEPLOY_LISTEN = 8080;
/** The server's POST body limit (runtime/transport/http/server.ts maxBodyBytes default). */
const BODY_LIMIT = "4m";

/** Methods that read and change nothing: resent to another instance like a read-only tool. */
export const RETRY_SAFE_METHODS = [
  "ping",
  "server/discover",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  // The tasks feature's: a read of a task (which may poll the upstream job, a GET).
  "tasks/get",
];

const SAFE_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The tools nginx may resend, and those it never resends, in spec order. */
export function retryPlan(model: Model): { retried: string[]; once: string[] } {
  const retried: string[] = [];
  const once: string[] = [];
  for (const tool of model.tools) {
    const { readOnlyHint, idempotentHint } = tool.node.annotations ?? {};
    (readOnlyHint === true || idempotentHint === true ? retried : once).push(tool.node.name);
  }
  return { retried, once };
}

/** Under nginx's limit for one configuration token (4096 bytes, "too long parameter"), with room to spare. */
const KEY_CHARACTERS = 2000;

/**
 * The map keys for the tools nginx may resend: regular expressions, because nginx compares a map's plain
 * string keys ignoring case, so a key for read-only `purge` also matched `Mcp-Name: PURGE`, another
 * (destructive) tool, which was then resent. A `~` key is case-sensitive; names go into alternations, a
 * few hundred per key, so a large API costs a handful of regex matches rather than one per tool.
 */
export function retryKeys(names: string[]): string[] {
  const keys: string[] = [];
  let group: string[] = [];
  const flush = () => {
    if (group.length > 0) keys.push(`"~^tools/call:(${group.join("|")})$"`);
    group = [];
  };
  for (const name of names.filter((n) => SAFE_NAME.test(n))) {
    const escaped = name.replaceAll(".", "\\.");
    if (group.join("|").length + escaped.length + 1 > KEY_CHARACTERS) flush();
    group.push(escaped);
  }
  flush();
  return keys;
}

export function renderNginxConfig(model: Model, header: string): string {
  const { retried } = retryPlan(model);
  // The command in the comment must start: --session-store exits 2 in a package without the redis feature.
  const redis = model.features.some((f) => f.name === "redis");
  const instance = redis
    ? "#   node dist/server.js --http --port 3001 --session-store redis://127.0.0.1:6379/0   (and 3002, 3003)"
    : "#   node dist/server.js --http --port 3001   (and 3002, 3003; without the redis feature each keeps its own\n#   2025-era sessions: replace round robin with ip_hash; in the upstream block)";
  const toolLines = retryKeys(retried).map((key) => `        ${key} 1;`);
  // Any instance serves a step of the sign-in: with --session-store the flow and the tokens are in Redis.
  const signIn = model.features.some((f) => f.name === "upstream-oauth")
    ? `
        # Per-user sign-in to the upstream API (upstream-oauth); its callback is --public-url's
        # /oauth/upstream/callback. Any instance serves each step: run them with --session-store and one
        # MCP_UPSTREAM_TOKEN_KEY, so the sign-ins under way and the users' tokens are shared.
        location /oauth/upstream/ {
            proxy_pass http://mcp_instances;
        }
`
    : "";
  const methods = RETRY_SAFE_METHODS.join("|");
  return `${header}
# nginx in front of ${DEPLOY_PORTS.length} instances of this server (see the README's "Deploy" section):
${instance}
#   nginx -c "$PWD/deploy/nginx.conf"
# Clients then use http://<this host>:${DEPLOY_LISTEN}/mcp. For more or other instances, or TLS (listen 443 ssl
# and ssl_certificate lines), copy this file and edit the copy's upstream block or listen line: generate
# rewrites this one from the spec, so its retry rules follow the tools' annotations.

worker_processes auto;

events {
    worker_connections 4096;
}

http {
    # MCP 2026-07-28 clients send the method and tool in headers, so nginx can tell a call it may resend
    # (the tool is read-only or idempotent, as the spec annotates it) from one it must not. Every key is a
    # case-sensitive regular expression: nginx matches plain keys ignoring case, and tool names are not.
    map "$http_mcp_method:$http_mcp_name" $mcp_retry_safe {
        default 0;
${toolLines.join("\n")}
        "~^(${methods}):" 1;
    }

    # The client's request id, else nginx's own: the servers log it and echo it.
    map $http_x_request_id $mcp_request_id {
        default $http_x_request_id;
        "" $request_id;
    }

    log_format mcp '$remote_addr [$time_local] "$request" $status $http_mcp_method $http_mcp_name '
                   'upstream=$upstream_addr upstream_status=$upstream_status $request_time id=$mcp_request_id';
    access_log /var/log/nginx/mcp-access.log mcp;

    upstream mcp_instances {
        # Passive health checks: an instance that refuses a connection is skipped for 5 s. (nginx Plus and
        # other balancers can probe GET /readyz instead, which turns 503 as soon as an instance is stopping.)
${DEPLOY_PORTS.map((port) => `        server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`).join("\n")}
        keepalive 64;
        # Shorter than the servers' own idle timeout (5 s, IDLE_CONNECTION_MS in the runtime's HTTP server):
        # nginx then never sends a request on a connection the server is closing for idleness, which would
        # lose a POST after it was sent.
        keepalive_timeout 4s;
    }

    server {
        listen ${DEPLOY_LISTEN};

        # The servers refuse bodies over 4 MiB; refusing them here spares the round trip.
        client_max_body_size ${BODY_LIMIT};
        client_body_timeout 30s;

        proxy_http_version 1.1;
        proxy_set_header Connection "";
        # The instances listen on loopback and accept loopback Host names only (DNS rebinding protection);
        # the name clients used travels in X-Forwarded-Host.
        proxy_set_header Host localhost;
        proxy_set_header X-Forwarded-Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Request-Id $mcp_request_id;
        # Streams (text/event-stream) must reach the client event by event; the servers also send
        # X-Accel-Buffering: no. A call may run long and a stream stays open: the servers send a keep-alive
        # comment every 15 s, so a read timeout only fires on an instance that stopped answering.
        proxy_buffering off;
        proxy_cache off;
        proxy_connect_timeout 2s;
        proxy_send_timeout 60s;
        proxy_read_timeout 3600s;
        proxy_next_upstream_tries 3;

        location = /mcp {
            error_page 418 = @mcp_retry_safe;
            if ($mcp_retry_safe) {
                return 418;
            }
            # Anything else, 2025-era requests without the headers included: tried on another instance only
            # when this one could not be reached (the request never arrived), never once it was sent.
            proxy_next_upstream error timeout;
            proxy_intercept_errors on;
            recursive_error_pages on;
            error_page 503 = @mcp_not_run;
            error_page 502 504 = @mcp_lost;
            proxy_pass http://mcp_instances;
        }

        location @mcp_retry_safe {
            proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;
            recursive_error_pages on;
            error_page 502 504 = @mcp_unavailable;
            proxy_pass http://mcp_instances;
        }

        # The instance answered 503 (it did not run the request): another try, on another instance. A stopping
        # instance answers 503 on every connection it still has, and the try may pick it again: then once more.
        location @mcp_not_run {
            proxy_next_upstream error timeout;
            proxy_intercept_errors on;
            recursive_error_pages on;
            error_page 503 = @mcp_not_run_last;
            error_page 502 504 = @mcp_lost;
            proxy_pass http://mcp_instances;
        }

        # The last try: its 503 (every instance full, say) reaches the client as it is, with its Retry-After.
        location @mcp_not_run_last {
            proxy_next_upstream error timeout;
            recursive_error_pages on;
            error_page 502 504 = @mcp_lost;
            proxy_pass http://mcp_instances;
        }

        location @mcp_lost {
            default_type application/json;
            return 502 '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"The server instance handling this request stopped before answering. It was not retried on another instance, because this tool is not marked read-only or idempotent and running it twice could do harm: check whether it took effect before calling it again."}}';
        }

        location @mcp_unavailable {
            default_type application/json;
            return 502 '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"No server instance could answer this request; retry shortly."}}';
        }

        location = /healthz {
            proxy_pass http://mcp_instances;
        }

        location = /readyz {
            proxy_pass http://mcp_instances;
        }

        # OAuth protected resource metadata (RFC 9728), when the servers run with --auth-issuer.
        location /.well-known/ {
            proxy_pass http://mcp_instances;
        }
${signIn}
        # Metrics (--metrics) are per instance: scrape each instance, not the balancer.
        location / {
            return 404;
        }
    }
}
`;
}
