/**
 * The render stage: the normalized model becomes the list of files of a generated package.
 * Generated files are owned by mcpgen and rewritten to match; handler scaffolds are owned by the
 * user and only ever created.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Model } from "../normalize.ts";
import { renderClient } from "./client.ts";
import { renderDocs } from "./docs.ts";
import { renderScaffolds } from "./handlers.ts";
import { renderManifest } from "./manifest.ts";
import { renderPackageJson, renderTsconfig } from "./package-files.ts";
import { renderApp, renderHandlersType, renderServerEntry } from "./server.ts";
import { escapeInvisible } from "./ts.ts";
import { pruneTypeImports, tidyBlankLines } from "./ts-style.ts";
import { renderTypes } from "./types.ts";
import { renderValidators } from "./validators.ts";

export type RenderedFile = {
  path: string;
  content: string;
  owner: "mcpgen" | "user";
  /** For a handler scaffold: the entry it serves ("tool greet"). */
  describes?: string;
  /** For a renamed tool's handler: the file of its former name, moved here instead of scaffolding. */
  formerPath?: string;
};

const RUNTIME_DIR = new URL("../../runtime/", import.meta.url);

export async function render(model: Model): Promise<RenderedFile[]> {
  const generated = (path: string, content: string): RenderedFile => ({
    path,
    content: /\.ts$/.test(path)
      ? tidyBlankLines(escapeInvisible(content))
      : /\.c?js$/.test(path)
        ? escapeInvisible(content)
        : content,
    owner: "mcpgen",
  });
  // Validators compile in worker threads while the rest renders; awaited together, so a failure on
  // either side is reported and neither is left unobserved.
  const compiling = renderValidators(model);
  const rendering = (async () => ({
    manifest: renderManifest(model),
    types: pruneTypeImports(`${await renderTypes(model)}\n${renderHandlersType(model)}`),
  }))();
  const [validators, { manifest, types }] = await Promise.all([compiling, rendering]);
  return [
    generated("package.json", renderPackageJson(model)),
    generated("tsconfig.json", renderTsconfig(model)),
    generated("README.md", renderDocs(model)),
    generated("src/app.ts", renderApp(model)),
    generated("src/client.ts", renderClient(model)),
    generated("src/manifest.ts", manifest.ts),
    generated("src/manifest.json", manifest.json),
    generated("src/server.ts", renderServerEntry(model)),
    generated("src/types.ts", types),
    generated("src/validators.ts", validators.module),
    ...validators.chunks.map((code, n) => generated(`src/validators/${n}.cjs`, code)),
    ...runtimeFiles(),
    ...renderScaffolds(model).map(
      (s): RenderedFile => ({
        path: s.path,
        content: s.content,
        owner: "user",
        describes: s.owner,
        ...(s.formerPath ? { formerPath: s.formerPath } : {}),
      }),
    ),
  ];
}

/** The runtime, byte for byte (no header: it is the same file in every package and in this repository). */
function runtimeFiles(): RenderedFile[] {
  return readdirSync(RUNTIME_DIR)
    .filter((name) => name.endsWith(".ts") || name === "README.md")
    .sort()
    .map((name) => ({
      path: `runtime/${name}`,
      content: readFileSync(new URL(name, RUNTIME_DIR), "utf8"),
      owner: "mcpgen",
    }));
}
