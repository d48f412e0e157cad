/**
 * info.title and info.version name and version the generated server. A vendor document that leaves
 * them empty (GoDaddy's `title: ""`) or out is not refused: the title falls back to the file's name and
 * the version to 0.0.0, each reported as a repair.
 */
import { basename } from "node:path";
import { isJson, type Json } from "./document.ts";
import type { Repair } from "./repair.ts";

export function infoRepairs(document: Json, file: string): Repair[] {
  const repairs: Repair[] = [];
  if (!isJson(document.info)) document.info = {};
  const info = document.info as Json;
  const fallbackTitle = basename(file).replace(/\.(ya?ml|json)$/i, "") || "api";
  const title = usable(info.title);
  if (title === undefined) {
    repairs.push({
      code: "OPENAPI_INFO_REPAIRED",
      pointer: "title" in info ? "/info/title" : "/info",
      message: `info.title is ${state(info.title)}; the server is named after the file: ${JSON.stringify(fallbackTitle)}`,
    });
  }
  info.title = title ?? fallbackTitle;
  const version = usable(info.version);
  if (version === undefined || typeof info.version !== "string") {
    const read = version ?? "0.0.0";
    repairs.push({
      code: "OPENAPI_INFO_REPAIRED",
      pointer: "version" in info ? "/info/version" : "/info",
      message: `info.version is ${state(info.version)}; read as ${JSON.stringify(read)}`,
    });
    info.version = read;
  }
  return repairs;
}

/** A non-empty string, or a number YAML read from `version: 1.0` (kept as the text it became). */
function usable(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function state(value: unknown): string {
  if (value === undefined) return "missing";
  if (typeof value === "string") return "empty";
  return `not a string (${JSON.stringify(value)?.slice(0, 40) ?? typeof value})`;
}
