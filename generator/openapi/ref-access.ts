/**
 * What a `$ref` may read (SECURITY.md, "$ref"): the rules the resolver in bundle.ts asks about before
 * every read. A document is untrusted input, so:
 * - a file must lie inside an allowed root (the directory of the document named on the command line,
 *   plus every --allow-ref-root), judged by its real path, so `../..`, absolute paths, file:// URLs and
 *   symlinks pointing out are all refused;
 * - it must be a regular file (safe-read.ts: no FIFO, device, socket, directory or /proc file);
 * - every byte read, the document's own included, counts against one budget (--max-size);
 * - URLs only with --allow-remote-refs, https only unless --allow-insecure-refs.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Code } from "../diagnostics/catalog.ts";
import { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { parseSource } from "../source/read-source.ts";
import { readRegularFile } from "../source/safe-read.ts";

export type RefPolicy = {
  /** Directories whose files `$ref`s may read; the document's own directory comes first. */
  roots: string[];
  /** Bytes all files together may take, the document itself included. */
  maxBytes: number;
  allowRemote: boolean;
  allowInsecure: boolean;
  /** How long one remote `$ref` may take, redirects and body included. */
  timeoutMs: number;
};

export type Refusal = { ok: false; code: Code; message: string; hint?: string };

export const DEFAULT_REF_TIMEOUT_MS = 30_000;
/** Redirects one remote `$ref` may follow; each hop is checked like the first URL. */
export const MAX_REF_REDIRECTS = 5;

export class RefAccess {
  readonly #policy: RefPolicy;
  readonly #roots: string[];
  #left: number;

  constructor(policy: RefPolicy, alreadyRead: number) {
    this.#policy = policy;
    this.#roots = policy.roots.map((root) => {
      try {
        return realpathSync.native(root);
      } catch {
        return resolve(root);
      }
    });
    this.#left = Math.max(0, policy.maxBytes - alreadyRead);
  }

  /** The bytes of a local file a `$ref` names, or why it may not be read. */
  readFile(url: string): { ok: true; bytes: Buffer } | Refusal {
    const path = toPath(url);
    if (path === undefined)
      return { ok: false, code: "OPENAPI_REF_UNRESOLVED", message: `$ref '${url}' is not a valid file path` };
    const outside = (shown: string, how = ""): Refusal => ({
      ok: false,
      code: "REF_OUTSIDE_ROOT",
      message: `$ref '${url}' reads ${shown}${how}, outside ${this.#rootsText()}`,
      hint: "move the file next to the document, or pass --allow-ref-root <dir> for a directory you trust",
    });
    if (!this.#inside(path)) return outside(path);
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      return { ok: false, code: "OPENAPI_REF_UNRESOLVED", message: `$ref '${url}': no such file '${path}'` };
    }
    if (!this.#inside(real)) return outside(real, " (through a symbolic link)");
    const read = readRegularFile(real, this.#left);
    if (read.ok) {
      this.#left -= read.bytes.length;
      return this.#canonical(url, real, read.bytes);
    }
    if (read.reason === "directory" || read.reason === "not-regular")
      return {
        ok: false,
        code: "REF_NOT_REGULAR_FILE",
        message: `$ref '${url}' names ${read.detail}, not a regular file`,
        hint: "refer to a YAML or JSON file",
      };
    if (read.reason === "too-large") return this.tooLarge(url);
    const why = read.reason === "missing" ? "no such file" : `cannot read it (${read.detail})`;
    return { ok: false, code: "OPENAPI_REF_UNRESOLVED", message: `$ref '${url}': ${why}` };
  }

  /** Whether a URL may be fetched, and how many bytes it may bring. */
  checkRemote(url: string): { ok: true; left: number; timeoutMs: number } | Refusal {
    let scheme: string;
    try {
      scheme = new URL(url).protocol;
    } catch {
      return { ok: false, code: "OPENAPI_REF_UNRESOLVED", message: `$ref '${url}' is not a valid URL` };
    }
    if (scheme !== "https:" && scheme !== "http:")
      return { ok: false, code: "OPENAPI_REF_UNRESOLVED", message: `$ref '${url}': ${scheme} URLs are not read` };
    if (!this.#policy.allowRemote)
      return {
        ok: false,
        code: "OPENAPI_REMOTE_REF",
        message: `network $ref refused: ${url}`,
        hint: "download the file and refer to it locally, or pass --allow-remote-refs",
      };
    if (scheme === "http:" && !this.#policy.allowInsecure)
      return {
        ok: false,
        code: "REF_INSECURE",
        message: `plain-http $ref refused: ${url} (remote $refs must use https)`,
        hint: "use an https URL, or pass --allow-insecure-refs if the network path is trusted",
      };
    return { ok: true, left: this.#left, timeoutMs: this.#policy.timeoutMs };
  }

  /** Counts the bytes a remote `$ref` brought against the budget, and parses them like a file's. */
  remoteBody(url: string, body: Uint8Array): { ok: true; bytes: Buffer } | Refusal {
    if (body.byteLength > this.#left) return this.tooLarge(url);
    this.#left -= body.byteLength;
    return this.#canonical(url, url, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  }

  /**
   * The file parsed by mcpgen's own reader (alias limit, depth, entry count: a billion-laughs file would
   * otherwise keep the parser walking for hours) and handed on as plain JSON, which has no aliases.
   */
  #canonical(url: string, path: string, bytes: Buffer): { ok: true; bytes: Buffer } | Refusal {
    const bag = new DiagnosticBag();
    const doc = parseSource(path, bytes, bag, { maxBytes: this.#policy.maxBytes, anyValue: true });
    if (doc) return { ok: true, bytes: Buffer.from(JSON.stringify(doc.value)) };
    const first = bag.sorted()[0];
    const where = first ? `${first.file}:${first.line}:${first.col}: ${first.message}` : "it cannot be parsed";
    return { ok: false, code: first?.code ?? "YAML_SYNTAX", message: `$ref '${url}': ${where}` };
  }

  tooLarge(url: string): Refusal {
    const mib = (this.#policy.maxBytes / 1024 / 1024).toFixed(1);
    return {
      ok: false,
      code: "REF_TOO_LARGE",
      message: `$ref '${url}' would take the files read for this document past ${mib} MiB in all`,
      hint: "raise --max-size <MiB> if the files are meant to be that large",
    };
  }

  #inside(path: string): boolean {
    return this.#roots.some((root) => {
      const rel = relative(root, path);
      return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
    });
  }

  #rootsText(): string {
    const [first, ...rest] = this.#roots;
    return rest.length === 0 ? `the document's directory '${first}'` : `the allowed roots ${this.#roots.join(", ")}`;
  }
}

/** The file path a resolved `$ref` URL names: file:// URLs decoded, plain paths percent-decoded. */
function toPath(url: string): string | undefined {
  try {
    if (/^file:/i.test(url)) return fileURLToPath(url);
    return resolve(decodeURI(url));
  } catch {
    return undefined;
  }
}
