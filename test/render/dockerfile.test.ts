/** The generated Dockerfile's shape (test/generate/dockerfile.large.ts replays its steps). */
import { describe, expect, it } from "vitest";
import { renderDockerfile, renderDockerignore } from "../../generator/render/dockerfile.ts";
import { model } from "./model.ts";

describe("Dockerfile", () => {
  const text = renderDockerfile(model(), "# header");
  const lines = text.split("\n");

  it("two stages: the build with dev dependencies, the image with production ones and dist/ only", () => {
    expect(lines.filter((l) => l.startsWith("FROM "))).toEqual(["FROM node:20-slim AS build", "FROM node:20-slim"]);
    const image = text.split("FROM node:20-slim\n")[1];
    expect(image).toContain("RUN npm ci --omit=dev");
    expect(image).toContain("COPY --from=build /app/dist ./dist");
    expect(image).not.toMatch(/COPY (src|runtime)/);
  });

  it("runs as the unprivileged node user, with a HEALTHCHECK on /healthz", () => {
    const image = text.split("FROM node:20-slim\n")[1];
    expect(image.indexOf("USER node")).toBeLessThan(image.indexOf("CMD ["));
    expect(lines.find((l) => l.startsWith("HEALTHCHECK "))).toContain("http://127.0.0.1:3000/healthz");
  });

  it(".dockerignore keeps installs, build output, mcpgen's records and .env out of the context", () => {
    expect(renderDockerignore().split("\n")).toEqual(
      expect.arrayContaining(["node_modules", "dist", ".mcpgen", ".env"]),
    );
  });
});
