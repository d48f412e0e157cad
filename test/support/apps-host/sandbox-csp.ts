// The CSP a web host's sandbox proxy loads a view under (MCP Apps spec, "Sandbox proxy" 5. and the resource's
// `_meta.ui.csp`): the declared domains and nothing more, the spec's restrictive default when none are declared.
// Sent as the proxy page's HTTP header, as the official basic-host does: the view's srcdoc frame inherits it,
// and unlike a <meta> put into the page, nothing the page says before its <head> runs outside it.

export type ResourceCsp = {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
};

// An origin only: a space, quote or ';' could smuggle a source or directive into the policy, so it is dropped.
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:[0-9]+)?$/i;

const domains = (list: unknown): string[] =>
  Array.isArray(list) ? list.filter((d): d is string => typeof d === "string" && ORIGIN.test(d)) : [];

export function sandboxPolicy(csp: ResourceCsp | undefined): string {
  const resources = domains(csp?.resourceDomains).join(" ");
  const or = (list: unknown, fallback: string) => domains(list).join(" ") || fallback;
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${or(csp?.connectDomains, "'none'")}`,
    `frame-src ${or(csp?.frameDomains, "'none'")}`,
    `base-uri ${or(csp?.baseUriDomains, "'self'")}`,
    "object-src 'none'",
  ]
    .map((directive) => directive.trim())
    .join("; ");
}

/** The policy for a proxy page asked for as `?csp=<the resource's csp, JSON>`; the default when absent or bad. */
export function policyOfUrl(url: string | undefined): string {
  const raw = new URL(url ?? "/", "http://x").searchParams.get("csp");
  try {
    const csp = raw ? JSON.parse(raw) : undefined;
    return sandboxPolicy(csp && typeof csp === "object" ? csp : undefined);
  } catch {
    return sandboxPolicy(undefined);
  }
}
