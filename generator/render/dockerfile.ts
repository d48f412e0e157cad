/**
 * Dockerfile and .dockerignore of a generated package: a multi-stage build (stage one installs every
 * dependency and runs the type-checked `npm run build`; the image gets the production dependencies
 * and dist/ only), running as the unprivileged `node` user, with a HEALTHCHECK on the server's
 * /healthz. No spec text reaches either file except the package name, in a comment.
 */
import type { Model } from "../normalize/normalize.ts";

/** The port the image serves on (EXPOSE, CMD, HEALTHCHECK). */
export const IMAGE_PORT = 3000;

/** Node's own image, the major version package.json's engines names. */
const BASE_IMAGE = "node:20-slim";

export function renderDockerfile(model: Model, header: string): string {
  // The package name is npm-safe (lower case, digits, . _ -): nothing in it can end the comment line.
  const name = model.packageName;
  return `${header}
# docker build -t ${name} .
# docker run -p ${IMAGE_PORT}:${IMAGE_PORT} --env-file .env ${name}
# npm ci needs package-lock.json: run \`npm install\` once in this folder and commit the lock file.

FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
COPY runtime ./runtime
RUN npm run build

FROM ${BASE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE ${IMAGE_PORT}
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:${IMAGE_PORT}/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js", "--http", "--host", "0.0.0.0", "--port", "${IMAGE_PORT}"]
`;
}

/** What the build context leaves out: installs, build output, mcpgen's records, local secrets. */
export function renderDockerignore(): string {
  return ["node_modules", "dist", ".mcpgen", ".git", ".env", "*.tgz", "*.mcpb", ""].join("\n");
}
