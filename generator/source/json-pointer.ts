/** RFC 6901 JSON pointers: the one way every stage names a place in a document. */

export function escapeSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapeSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

export function childPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapeSegment(String(segment))}`;
}

/** The pointer one level up, or undefined for the root (""). */
export function parentPointer(pointer: string): string | undefined {
  if (pointer === "") return undefined;
  return pointer.slice(0, pointer.lastIndexOf("/"));
}

export function segments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeSegment);
}

/** The value at `pointer` inside `root`, or undefined when the path does not exist. */
export function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const segment of segments(pointer)) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A pointer as users read it in messages: /tools/0/inputSchema → tools[0].inputSchema. */
export function readablePath(pointer: string): string {
  if (pointer === "") return "the top level";
  return segments(pointer)
    .map((segment, i) =>
      /^\d+$/.test(segment)
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$-]*$/.test(segment)
          ? `${i ? "." : ""}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join("");
}
