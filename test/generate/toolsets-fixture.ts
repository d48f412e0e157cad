/**
 * A small API with several toolsets, read-only and writing tools, and one toolset of more than a
 * list_tools page, generated once per test file into a scratch directory, plus the real upstream it
 * calls: what the serving-mode tests (--toolsets, --read-only, --mode dynamic) run against.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { ROOT, scratchDir, startUpstream } from "./support.ts";

/** Tools in the `catalog` toolset: more than one list_tools page (50). */
export const CATALOG_TOOLS = 55;

const id = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
const order = {
  type: "object",
  properties: { id: { type: "integer" }, status: { type: "string" } },
  required: ["id", "status"],
};
const readOnly = { readOnlyHint: true };
const writes = { readOnlyHint: false, destructiveHint: true };

export const SPEC = {
  server: { name: "shop", version: "1.0.0", description: "A small shop" },
  upstream: { baseUrl: "http://127.0.0.1:9" },
  tools: [
    {
      name: "get_order",
      description: "Get one order by its id. Returns its status and lines.",
      toolset: "orders",
      inputSchema: id,
      outputSchema: order,
      annotations: readOnly,
      http: { method: "GET", path: "/orders/{id}" },
    },
    {
      name: "list_orders",
      description: "List the orders of the shop",
      toolset: "orders",
      inputSchema: { type: "object" },
      annotations: readOnly,
      http: { method: "GET", path: "/orders" },
    },
    {
      name: "cancel_order",
      description: "Cancel an order that has not shipped yet.",
      toolset: "orders",
      inputSchema: id,
      annotations: writes,
      http: { method: "DELETE", path: "/orders/{id}" },
    },
    {
      name: "get_customer",
      description: "Get a customer's profile",
      toolset: "customers",
      inputSchema: id,
      annotations: readOnly,
      http: { method: "GET", path: "/customers/{id}" },
    },
    {
      name: "update_customer",
      description: "Change a customer's email address",
      toolset: "customers",
      inputSchema: {
        type: "object",
        properties: { id: { type: "integer" }, email: { type: "string" } },
        required: ["id"],
      },
      annotations: writes,
      http: { method: "PUT", path: "/customers/{id}" },
    },
    {
      name: "get_invoice",
      description: "Get an invoice (the billing system is down in these tests)",
      toolset: "billing",
      inputSchema: id,
      annotations: readOnly,
      http: { method: "GET", path: "/invoices/{id}" },
    },
    {
      name: "shop_status",
      description: "Whether the shop is open",
      inputSchema: { type: "object" },
      annotations: readOnly,
      http: { method: "GET", path: "/status" },
    },
    ...Array.from({ length: CATALOG_TOOLS }, (_, i) => ({
      name: `product_${String(i + 1).padStart(2, "0")}`,
      description: `Get product number ${i + 1}`,
      toolset: "catalog",
      inputSchema: { type: "object" },
      annotations: readOnly,
      http: { method: "GET", path: `/products/${i + 1}` },
    })),
  ],
};

/** Generates the shop package, with these runtime features (the modes each test serves), into a fresh
 * scratch directory; returns the package directory. */
export function generateShop(features: string[]): string {
  const dir = scratchDir("shop");
  const spec = join(dir, "shop.yaml");
  writeFileSync(spec, stringify(SPEC));
  const out = join(dir, "pkg");
  try {
    const args = ["generate", spec, "--out", out, "--features", features.join(",")];
    execFileSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], {
      cwd: ROOT,
      stdio: "pipe",
    });
  } catch (error) {
    throw new Error(`generate failed: ${(error as { stdout?: Buffer }).stdout?.toString()}`);
  }
  return out;
}

export type ShopUpstream = Awaited<ReturnType<typeof startShopUpstream>>;

export function startShopUpstream() {
  return startUpstream({
    "GET /orders/*": (r) => ({ json: { id: Number(r.path.split("/")[2]), status: "shipped" } }),
    // Long enough for the response budget to cut at --max-response-tokens 500 (code-mode.large).
    "GET /orders": () => ({
      json: Array.from({ length: 200 }, (_, i) => ({ id: i + 1, status: "shipped", note: `order number ${i + 1}` })),
    }),
    "DELETE /orders/*": () => ({ json: { cancelled: true } }),
    "GET /customers/*": () => ({ json: { id: 3, email: "a@example.com" } }),
    "GET /invoices/*": () => ({ status: 500, json: { error: "billing is down" } }),
    "GET /status": () => ({ json: { open: true } }),
    "GET /products/*": (r) => ({ json: { product: r.path } }),
  });
}
