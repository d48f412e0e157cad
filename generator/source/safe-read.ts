/**
 * Reading a file that a user or a document names, without the ways a path can hurt the generator:
 * - only regular files: a FIFO blocks the open or the read forever, /dev/zero never ends, a socket or
 *   a device is no document, and /proc or /sys pseudo-files claim a size of 0 whatever they hold;
 * - stat first, then open non-blocking (a FIFO swapped in after the stat cannot hang the open) and check
 *   the open file is the one that was stat'ed;
 * - a bounded read that stops one byte past the limit, whatever stat said the size was.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statfsSync, statSync } from "node:fs";

export type SafeRead =
  | { ok: true; bytes: Buffer }
  | {
      ok: false;
      reason: "missing" | "directory" | "not-regular" | "too-large" | "unreadable";
      detail: string;
      size?: number;
    };

/** statfs magic numbers of kernel pseudo-filesystems whose files report a size that is not their content's. */
const PSEUDO_FILESYSTEMS = new Set([
  0x9fa0, // proc
  0x62656572, // sysfs
  0x64626720, // debugfs
  0x74726163, // tracefs
  0x73636673, // securityfs
  0x63677270, // cgroup2
  0x27e0eb, // cgroup
  0x6165676c, // pstore
  0xf97cff8c, // selinuxfs
  0xcafe4a11, // bpf
]);

const CHUNK = 64 * 1024;

export function readRegularFile(path: string, limit: number): SafeRead {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", detail: "no such file" };
    return { ok: false, reason: "unreadable", detail: code };
  }
  if (stat.isDirectory()) return { ok: false, reason: "directory", detail: "a directory" };
  if (!stat.isFile()) return { ok: false, reason: "not-regular", detail: kindOf(stat) };
  if (onPseudoFilesystem(path))
    return { ok: false, reason: "not-regular", detail: "a kernel pseudo-file (/proc, /sys)" };
  if (stat.size > limit) return { ok: false, reason: "too-large", detail: `${stat.size} bytes`, size: stat.size };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    return { ok: false, reason: "unreadable", detail: (error as NodeJS.ErrnoException).code ?? "unknown error" };
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev)
      return { ok: false, reason: "not-regular", detail: "a file that changed between check and open" };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit - total + 1));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > limit) return { ok: false, reason: "too-large", detail: `more than ${limit} bytes` };
      chunks.push(chunk.subarray(0, read));
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (error) {
    return { ok: false, reason: "unreadable", detail: (error as NodeJS.ErrnoException).code ?? "unknown error" };
  } finally {
    closeSync(fd);
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  return "not a regular file";
}

function onPseudoFilesystem(path: string): boolean {
  try {
    return PSEUDO_FILESYSTEMS.has(statfsSync(path).type);
  } catch {
    return false;
  }
}
