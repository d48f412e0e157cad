/**
 * The render stage: the normalized model becomes the list of files of a generated package.
 * Generated files are owned by mcpgen and rewritten to match; handler scaffolds are owned by the
 * user and only ever created.
 */

import { readFileSync } from "node:fs";
import { collectGarbage, tightenHeapGrowth } from "../heap-growth.ts";
import type { Model } from "../normalize/normalize.ts";
import type { StagedContent, Staging } from "../output/staging.ts";
import { progress } from "../progress.ts";
import { renderClient } from "./client.ts";
import { renderClientConfigs } from "./client-configs.ts";
import { CODE_API_FILE, renderCodeApi } from "./code-api.ts";
import { renderCredentialsScaffold } from "./credentials-hook.ts";
import { forgetCatalog, forgetServedCatalog, renderDefinition } from "./definition.ts";
import { renderDockerfile, renderDockerignore } from "./dockerfile.ts";
import { renderDocs } from "./docs.ts";
import { renderScaffolds } from "./handlers.ts";
import { MCPB_BUNDLE_SCRIPT_FILE, MCPB_MANIFEST_FILE, mcpbBundleScript, renderMcpbManifest } from "./mcpb-manifest.ts";
import { NGINX_CONFIG_FILE, renderNginxConfig } from "./nginx-config.ts";
import { packageCost } from "./package-cost.ts";
import { renderGitignore, renderPackageJson, renderTsconfig } from "./package-files.ts";
import { renderServerJson, SERVER_JSON_FILE } from "./registry-server-json.ts";
import { importedPackages, runtimeFilesFor, type SourceFile } from "./runtime-files.ts";
import { renderSearchIndex, SEARCH_INDEX_FILE } from "./search-index.ts";
import { renderApp, renderHandlersType, renderServerEntry } from "./server.ts";
import { escapeInvisible, header } from "./ts.ts";
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
  /** mcpgen's file, but one of that name it did not write is the user's: kept, never a conflict (.gitignore). */
  yieldsToUser?: true;
  /** A large file written to the staging folder as it was made (output/staging.ts): `content` reads it from there. */
  staged?: StagedContent;
};

/** The file, its text moved to `staging` when it is large: only the digest stays in memory. */
function staged(file: RenderedFile, staging: Staging | undefined): RenderedFile {
  const put = staging?.put(file.content);
  if (put === undefined) return file;
  const { content: _inMemory, ...rest } = file;
  return {
    ...rest,
    staged: put,
    get content() {
      return readFileSync(put.file, "utf8");
    },
  };
}

/**
 * `userSources`: the user's own files under src/ (handlers, helpers) as they are on disk: the runtime
 * files they import stay in the package with those the generated code imports. `staging`: where large
 * files go as they are made (generate's; without, every file stays in memory).
 */
export async function render(model: Model, userSources: SourceFile[] = [], staging?: Staging): Promise<RenderedFile[]> {
  tightenHeapGrowth();
  const generated = (path: string, content: string): RenderedFile =>
    staged(
      {
        path,
        content: /\.ts$/.test(path)
          ? tidyBlankLines(escapeInvisible(content))
          : /\.c?js$/.test(path)
            ? escapeInvisible(content)
            : content,
        owner: "mcpgen",
      },
      staging,
    );
  // Validators compile in worker threads while the rest renders; awaited together, so a failure on
  // either side is reported and neither is left unobserved. Each chunk is staged as it comes.
  const compiling = renderValidators(model, (name, code) => generated(`src/validators/${name}`, code));
  // The search index serves dynamic and code mode; the typed API docs, code mode alone.
  const has = new Set(model.features.map((feature) => feature.name));
  // Each large file is staged as soon as it is made, so none waits in memory for the rest.
  // Progress names the main thread's step; the validators compile beside all of them.
  const rendering = (async () => {
    progress.stage("rendering the catalog");
    // Made and staged in expressions, never held in a local: an async function's locals live until it
    // returns, and Graph's catalog.json (52 MB of text) would outlive its staging through the types.
    const definition = ((made) => [generated("src/definition.ts", made.ts), generated("src/catalog.json", made.json)])(
      renderDefinition(model),
    );
    const searched = has.has("dynamic") || has.has("code");
    if (searched) progress.stage("building the search index");
    const indexFile = (index: string | undefined) =>
      index === undefined ? undefined : generated(SEARCH_INDEX_FILE, index);
    const searchIndex = searched ? indexFile(await renderSearchIndex(model)) : undefined;
    // The token counts (the README's, generate's cost line) are the catalog objects' last reader: counted
    // now, before the types, those objects are garbage while the types compile.
    forgetServedCatalog(model);
    progress.stage("counting tokens");
    if (model.tools.length > 0) packageCost(model);
    forgetCatalog(model);
    // The catalog objects and the token counts' garbage: gone before the types' compile fills the heap.
    collectGarbage();
    progress.stage("compiling types");
    const types = pruneTypeImports(`${await renderTypes(model)}\n${renderHandlersType(model)}`);
    progress.stage("compiling validators");
    return { definition, searchIndex, types };
  })();
  const [validators, { definition, searchIndex, types }] = await Promise.all([compiling, rendering]);
  progress.stage("rendering the server, the client and the README");
  const codeApi = has.has("code") ? renderCodeApi(model, types) : undefined;
  const scaffolds = [...renderScaffolds(model), ...renderCredentialsScaffold(model)].map(
    (s): RenderedFile => ({
      path: s.path,
      content: s.content,
      owner: "user",
      describes: s.owner,
      ...(s.formerPath ? { formerPath: s.formerPath } : {}),
    }),
  );
  const sources = [
    generated("src/app.ts", renderApp(model)),
    generated("src/client.ts", renderClient(model)),
    ...definition,
    ...(searchIndex === undefined ? [] : [searchIndex]),
    ...(codeApi === undefined ? [] : [generated(CODE_API_FILE, codeApi)]),
    generated("src/server.ts", renderServerEntry(model)),
    generated("src/types.ts", types),
    generated("src/validators.ts", validators.module),
    ...validators.files,
  ];
  // A file this run generates is not the user's, whatever is on disk now (a first run with --force).
  const rendered = new Set(sources.map((f) => f.path));
  const users = userSources.filter((f) => !rendered.has(f.path));
  // A scaffold on disk is the user's (in `users`); the rendered one counts where it is still to be made.
  const onDisk = new Set(users.map((f) => f.path));
  const importers = [...sources, ...scaffolds.filter((f) => !onDisk.has(f.path)), ...users];
  // The runtime, byte for byte (no header: it is the same file in every package and in this repository).
  const runtime = runtimeFilesFor(importers).map((f): RenderedFile => ({ ...f, owner: "mcpgen" }));
  return [
    generated(
      "package.json",
      renderPackageJson(
        model,
        importedPackages(
          runtime,
          sources.filter((file) => file.path.endsWith(".cjs")),
        ),
      ),
    ),
    generated("tsconfig.json", renderTsconfig(model)),
    generated("README.md", renderDocs(model)),
    // Publishing (issue 16): the MCP Registry's server.json, the MCPB bundle's manifest and packer, the image.
    generated(SERVER_JSON_FILE, renderServerJson(model)),
    generated(MCPB_MANIFEST_FILE, renderMcpbManifest(model)),
    generated(MCPB_BUNDLE_SCRIPT_FILE, mcpbBundleScript()),
    generated("Dockerfile", renderDockerfile(model, `# ${header(model.specRef).slice(3).trim()}`)),
    generated(".dockerignore", renderDockerignore()),
    { ...generated(".gitignore", renderGitignore(`# ${header(model.specRef).slice(3).trim()}`)), yieldsToUser: true },
    // Scale-out (issue 18): nginx in front of several instances, retrying only what the spec says is safe.
    generated(NGINX_CONFIG_FILE, renderNginxConfig(model, `# ${header(model.specRef).slice(3).trim()}`)),
    ...renderClientConfigs(model).map((file) => generated(file.path, file.content)),
    ...sources,
    ...runtime,
    ...scaffolds,
  ];
}
