// The `oauth` feature: with --auth-issuer the HTTP server is an OAuth 2.1 protected resource, validating
// access tokens (jose) and serving RFC 9728 metadata (runtime/features/oauth/protected-resource.ts).
import type { Feature } from "../../package/feature.ts";
import { createProtectedResource } from "./protected-resource.ts";

export const oauthFeature: Feature = { name: "oauth", http: { createProtectedResource } };
