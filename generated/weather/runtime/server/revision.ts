// Chooses the protocol revision of a request, once, from the request itself: a 2026-07-28 request names
// its version in `_meta`; any other belongs to an initialize-based (2025) session. Everything that
// differs between the two is in revision-2025.ts and revision-2026.ts.
import { MetaKey } from "../protocol/constants.ts";
import type { JsonObject } from "../protocol/types.ts";
import { revision2025 } from "./revision-2025.ts";
import { revision2026 } from "./revision-2026.ts";
import type { Revision } from "./scope.ts";

export function revisionOf(meta: JsonObject): Revision {
  return meta[MetaKey.protocolVersion] !== undefined ? revision2026 : revision2025;
}
