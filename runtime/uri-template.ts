// Matching concrete URIs against RFC 6570 templates, for resources/read on a
// resource template. Supports the expressions resource templates use in practice:
// {var}, {+var}, {#var}, {/var}, {.var} and query forms {?a,b} / {&a}.

import { setOwn } from "./own-keys.ts";

export type UriTemplateMatcher = {
  variableNames: string[];
  match(uri: string): Record<string, string> | undefined;
};

export function compileUriTemplate(template: string): UriTemplateMatcher {
  const variableNames: string[] = [];
  const queryNames: string[] = [];
  let pattern = "";
  let lastIndex = 0;
  for (const expression of template.matchAll(/\{([+#./?&]?)([^}]+)\}/g)) {
    pattern += escapeRegExp(template.slice(lastIndex, expression.index));
    lastIndex = (expression.index ?? 0) + expression[0].length;
    const operator = expression[1];
    const names = expression[2].split(",").map((name) => name.replace(/\*$|:\d+$/, "").trim());
    if (operator === "?" || operator === "&") {
      queryNames.push(...names);
      variableNames.push(...names);
      pattern += "(?:[?&].*)?";
      continue;
    }
    const name = names[0];
    variableNames.push(name);
    const capture = `(?<${groupName(variableNames.length - 1)}>`;
    if (operator === "+") pattern += `${capture}.+?)`;
    else if (operator === "#") pattern += `#${capture}.*?)`;
    else if (operator === "/") pattern += `/${capture}[^/?#]+)`;
    else if (operator === ".") pattern += `\\.${capture}[^/?#.]+)`;
    else pattern += `${capture}[^/?#]+)`;
  }
  pattern += escapeRegExp(template.slice(lastIndex));
  const regex = new RegExp(`^${pattern}$`);
  return {
    variableNames,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const variables: Record<string, string> = {};
      variableNames.forEach((name, index) => {
        const value = found.groups?.[groupName(index)];
        if (value !== undefined) setOwn(variables, name, safeDecode(value));
      });
      if (queryNames.length > 0) {
        const query = uri.includes("?")
          ? new URLSearchParams(uri.slice(uri.indexOf("?") + 1).split("#")[0])
          : undefined;
        for (const name of queryNames) {
          const value = query?.get(name);
          if (value !== null && value !== undefined) setOwn(variables, name, value);
        }
      }
      return variables;
    },
  };
}

function groupName(index: number): string {
  return `v${index}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
