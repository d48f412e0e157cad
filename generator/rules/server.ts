import type { Rule } from "./rule.ts";

// semver.org's grammar, without the build/pre-release detail a warning does not need to explain.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

// An empty version means it was missing or not a string, which the structural check reports.
export const serverRules: Rule = (server, report) => {
  if (server.version !== "" && !SEMVER.test(server.version)) {
    report("SERVER_VERSION_NOT_SEMVER", "/server/version", `server.version '${server.version}' is not semver`);
  }
};
