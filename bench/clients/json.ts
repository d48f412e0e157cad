export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type JsonRpcAnswer = {
  jsonrpc: "2.0";
  id?: number | string;
  result?: JsonValue;
  error?: JsonValue;
  method?: string;
};
