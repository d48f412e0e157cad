// The client's side of server-to-client requests: the same user handlers answer
// real 2025-era requests and 2026-era MRTR input requests.
import { ErrorCode } from "../protocol/constants.ts";
import { McpError } from "../protocol/errors.ts";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  JsonObject,
  ListRootsResult,
  Result,
} from "../protocol/types.ts";

export type ClientHandlers = {
  elicitation?: (params: ElicitParams) => ElicitResult | Promise<ElicitResult>;
  sampling?: (params: CreateMessageParams) => CreateMessageResult | Promise<CreateMessageResult>;
  roots?: () => ListRootsResult | Promise<ListRootsResult>;
};

/** Capabilities that follow from the handlers supplied: we only claim what we can answer. */
export function capabilitiesFor(handlers: ClientHandlers | undefined): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers?.elicitation) capabilities.elicitation = { form: {}, url: {} };
  if (handlers?.sampling) capabilities.sampling = {};
  if (handlers?.roots) capabilities.roots = {};
  return capabilities;
}

export async function answerServerRequest(
  handlers: ClientHandlers | undefined,
  method: string,
  params: JsonObject | undefined,
): Promise<Result> {
  switch (method) {
    case "ping":
      return {};
    case "elicitation/create":
      if (handlers?.elicitation) return handlers.elicitation(params as ElicitParams);
      break;
    case "sampling/createMessage":
      if (handlers?.sampling) return handlers.sampling(params as CreateMessageParams);
      break;
    case "roots/list":
      if (handlers?.roots) return handlers.roots();
      break;
  }
  throw new McpError(ErrorCode.MethodNotFound, `Client does not handle ${method}`);
}
