// MCP_SEALING_SECRET: the key(s) that seal MRTR requestState and list cursors, shared by every instance
// behind a load balancer so that a token one instance issued opens on the next (round robin sends a
// retry anywhere). Comma-separated for rotation: the first seals, every one opens. Environment only: a
// flag's value would show in the process list.
export const SEALING_SECRET_ENV = "MCP_SEALING_SECRET";
/** Characters of each secret at least: 32 random characters hold more than 128 bits. */
export const MIN_SEALING_SECRET_CHARS = 32;

/** The secrets as keys, undefined when unset, or the usage error. */
export function sealingSecrets(env: NodeJS.ProcessEnv = process.env): Uint8Array[] | undefined | string {
  const text = env[SEALING_SECRET_ENV];
  if (text === undefined || text === "") return undefined;
  const secrets = text.split(",").map((secret) => secret.trim());
  if (secrets.some((secret) => secret.length < MIN_SEALING_SECRET_CHARS))
    return `${SEALING_SECRET_ENV} must hold secrets of at least ${MIN_SEALING_SECRET_CHARS} characters each (comma-separated), e.g. from \`openssl rand -base64 32\``;
  return secrets.map((secret) => Buffer.from(secret, "utf8"));
}
