import type { Rule } from "./rule.ts";

// semver.org's grammar, without the build/pre-release detail a warning does not need to explain.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

// An empty version means it was missing or not a string, which the structural check reports.
// An OpenAPI document's info.version is the vendor's API version ("2015-04-01"), not something the user
// can change: the package then gets 0.0.0 (the README says so), and no warning asks for a fix.
export const serverRules: Rule = (server, report) => {
  if (server.origin === "spec" && server.version !== "" && !SEMVER.test(server.version)) {
    report("SERVER_VERSION_NOT_SEMVER", "/server/version", `server.version '${server.version}' is not semver`);
  }
};
