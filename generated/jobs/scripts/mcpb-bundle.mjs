// `npm run bundle`: packs this package into <name>.mcpb, an MCP Bundle (a zip with manifest.json at its
// root) that Claude Desktop installs in one click. Written by mcpgen as scripts/mcpb-bundle.mjs; plain Node, no
// dependency: zlib deflates, and the zip container is written here (local headers, central directory,
// end record; no zip64, so at most 65535 files and 4 GiB).
//
// The bundle holds manifest.json (the MCPB manifest), package.json, README.md, the compiled code
// (dist/, from `npm run build`) and node_modules/ without the devDependencies: run `npm install` (or
// `npm ci --omit=dev`) first so the bundle runs on its own.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";

// scripts/mcpb-bundle.mjs → the package root (fileURLToPath: import.meta.dirname needs Node 20.11).
const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

function fail(message) {
  process.stderr.write(`bundle: ${message}\n`);
  process.exit(1);
}

if (!existsSync(join(root, manifest.server.entry_point)))
  fail(`${manifest.server.entry_point} is missing: run npm run build first`);
const devOnly = new Set(Object.keys(pkg.devDependencies ?? {}));
if (!existsSync(join(root, "node_modules")))
  process.stderr.write(
    "bundle: warning: no node_modules: run npm install first, or the bundle cannot run on its own\n",
  );

/** Files under `dir` (sorted, so the same package gives the same bundle), skipping symlinks and `skip`. */
function filesUnder(dir, skip = () => false) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split(sep).join("/");
    if (skip(rel) || entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) found.push(...filesUnder(path, skip));
    else if (entry.isFile()) found.push(rel);
  }
  return found;
}

/** Left out of node_modules: the package's devDependencies, npm's bin links and caches. */
function skipModule(rel) {
  const [, first, second] = rel.split("/");
  if (first === ".bin" || first === ".cache" || first === ".package-lock.json") return true;
  const name = first?.startsWith("@") && second !== undefined ? `${first}/${second}` : first;
  return rel.split("/").length <= (first?.startsWith("@") ? 3 : 2) && devOnly.has(name);
}

const entries = [{ name: "manifest.json", data: readFileSync(join(root, "manifest.json")) }];
for (const file of ["package.json", "README.md"])
  if (existsSync(join(root, file))) entries.push({ name: file, data: readFileSync(join(root, file)) });
for (const dir of ["dist", "node_modules"]) {
  if (!existsSync(join(root, dir))) continue;
  for (const rel of filesUnder(join(root, dir), dir === "node_modules" ? skipModule : undefined))
    entries.push({ name: rel, data: readFileSync(join(root, rel)), mode: lstatSync(join(root, rel)).mode });
}
if (entries.length > 0xffff) fail(`${entries.length} files: more than a zip without zip64 holds`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// 1980-01-01 00:00 in DOS form: a fixed time keeps the bundle byte-identical from one run to the next.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const chunks = [];
const central = [];
let offset = 0;
for (const { name, data, mode = 0o100644 } of entries) {
  const nameBytes = Buffer.from(name, "utf8");
  const packed = deflateRawSync(data, { level: 9 });
  const stored = packed.length >= data.length;
  const body = stored ? data : packed;
  const crc = crc32(data);
  if (offset + 30 + nameBytes.length + body.length > 0xffffffff) fail("the bundle would pass 4 GiB");
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed: 2.0
  local.writeUInt16LE(0x0800, 6); // UTF-8 names
  local.writeUInt16LE(stored ? 0 : 8, 8);
  local.writeUInt16LE(0, 10);
  local.writeUInt16LE(DOS_DATE, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  local.writeUInt16LE(0, 28);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the file mode below is read
  local.copy(header, 6, 4, 30); // version needed .. name length: the same fields as the local header
  header.writeUInt16LE(0, 30); // extra
  header.writeUInt16LE(0, 32); // comment
  header.writeUInt16LE(0, 34); // disk
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE(((mode & 0o111 ? 0o100755 : 0o100644) << 16) >>> 0, 38);
  header.writeUInt32LE(offset, 42);
  central.push(header, nameBytes);
  chunks.push(local, nameBytes, body);
  offset += local.length + nameBytes.length + body.length;
}
const directory = Buffer.concat(central);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0);
end.writeUInt16LE(entries.length, 8);
end.writeUInt16LE(entries.length, 10);
end.writeUInt32LE(directory.length, 12);
end.writeUInt32LE(offset, 16);
const zip = Buffer.concat([...chunks, directory, end]);

const file = `${manifest.name.replace(/^@/, "").replace(/\//g, "-")}.mcpb`;
writeFileSync(join(root, file), zip);
const sha = createHash("sha256").update(zip).digest("hex");
process.stdout.write(`${file}: ${entries.length} files, ${zip.length} bytes, sha256 ${sha}\n`);
